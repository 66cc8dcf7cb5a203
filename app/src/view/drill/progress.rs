//! Saved drill progress: per drill, whether it was solved, the best time to a fix (wall-clock
//! seconds from opening it to a passing check, without giving up) and how many times a fix was
//! checked, kept in `localStorage` under [`KEY`] as
//! `{"version": 1, "drills": {"<id>": {"solved": true, "best_s": 312, "attempts": 3}}}`.
//! As with lesson progress, a saved state that cannot be read, or that is impossible (a best
//! time without a solve, a solve without a check), is discarded with a one-line notice; storage
//! that throws is treated as empty and every drill still runs, only nothing is kept.

use serde_json::{json, Value};

/// The `localStorage` key.
pub const KEY: &str = "fanout-playground.drills";

/// More checks than anyone makes, and a year in seconds: a saved state past them is impossible.
const MOST_ATTEMPTS: u64 = 100_000;
const MOST_SECONDS: u64 = 366 * 24 * 3_600;

/// One drill's progress.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saved {
    pub solved: bool,
    /// The shortest wall-clock time to a fix, in whole seconds.
    pub best_s: Option<u64>,
    /// Fixes checked, passing or not.
    pub attempts: u64,
}

/// Every drill's progress, by id, in the order first saved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub drills: Vec<(String, Saved)>,
}

impl Progress {
    /// Reads the saved text; an error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Progress, String> {
        Ok(Progress { drills: crate::saved::parse_entries(text, "drills", "drill", saved)? })
    }

    /// The text to save.
    pub fn to_text(&self) -> String {
        crate::saved::entries_text(
            "drills",
            &self.drills,
            |s| json!({"solved": s.solved, "best_s": s.best_s, "attempts": s.attempts}),
        )
    }

    /// One drill's progress (empty if never checked).
    pub fn get(&self, id: &str) -> Saved {
        self.drills.iter().find(|(i, _)| i == id).map(|(_, s)| s.clone()).unwrap_or_default()
    }

    /// A fix was checked: one more attempt, and when it passed (not after giving up), solved,
    /// with `seconds` as the best time if it is shorter.
    pub fn checked(&mut self, id: &str, solved_in: Option<u64>) {
        let s = match self.drills.iter_mut().find(|(i, _)| i == id) {
            Some((_, s)) => s,
            None => {
                self.drills.push((id.to_string(), Saved::default()));
                &mut self.drills.last_mut().expect("invariant: just pushed").1
            }
        };
        s.attempts = s.attempts.saturating_add(1).min(MOST_ATTEMPTS);
        if let Some(t) = solved_in {
            s.solved = true;
            s.best_s = Some(s.best_s.map_or(t, |b| b.min(t)).min(MOST_SECONDS));
        }
    }
}

fn saved(item: &Value) -> Result<Saved, String> {
    let solved = item.get("solved").and_then(Value::as_bool).ok_or("solved: must be true or false")?;
    let attempts = item.get("attempts").and_then(Value::as_u64).ok_or("attempts: must be a whole number")?;
    let best_s = match item.get("best_s") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or("best_s: must be a whole number of seconds")?),
    };
    if attempts > MOST_ATTEMPTS {
        return Err(format!("attempts: {attempts} is more than anyone checks a fix"));
    }
    if best_s.is_some_and(|b| b > MOST_SECONDS) {
        return Err("best_s: longer than a year".into());
    }
    if best_s.is_some() != solved || (solved && attempts == 0) {
        return Err("a best time needs a solve, and a solve needs a check".into());
    }
    Ok(Saved { solved, best_s, attempts })
}

/// Loads the saved progress: `(progress, notice)`. A corrupt or impossible saved state is
/// removed and named in the notice; blocked storage gives empty progress and no notice.
pub fn load() -> (Progress, Option<String>) {
    let (progress, notice) = crate::saved::load(KEY, "drill progress", Progress::parse);
    (progress.unwrap_or_default(), notice)
}

/// Saves the progress; does nothing where storage is blocked or full.
pub fn save(progress: &Progress) {
    crate::saved::save(KEY, &progress.to_text());
}

/// Whole seconds as a timer shows them: "0:07", "4:05", "1:02:03".
pub fn clock(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3_600, seconds % 3_600 / 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_and_keeps_the_best_time() {
        let mut p = Progress::default();
        p.checked("charged-twice", None);
        p.checked("charged-twice", Some(300));
        p.checked("charged-twice", Some(400));
        p.checked("poison-order", None);
        let back = Progress::parse(&p.to_text()).unwrap();
        assert_eq!(back.get("charged-twice"), Saved { solved: true, best_s: Some(300), attempts: 3 });
        assert_eq!(back.get("poison-order"), Saved { solved: false, best_s: None, attempts: 1 });
        assert_eq!(back.get("retry-storm"), Saved::default());
    }

    #[test]
    fn a_corrupt_or_impossible_saved_state_says_what_is_wrong() {
        assert!(Progress::parse("{not json").unwrap_err().starts_with("not valid JSON"));
        assert_eq!(Progress::parse(r#"{"version": 2, "drills": {}}"#).unwrap_err(), "unknown version");
        let one = |item: &str| Progress::parse(&format!(r#"{{"version": 1, "drills": {{"d": {item}}}}}"#));
        assert!(one(r#"{"solved": "yes", "attempts": 1}"#).unwrap_err().contains("solved"));
        assert!(one(r#"{"solved": false, "best_s": 30, "attempts": 2}"#).unwrap_err().contains("needs a solve"));
        assert!(one(r#"{"solved": true, "best_s": 30, "attempts": 0}"#).unwrap_err().contains("needs a check"));
        assert!(one(r#"{"solved": true, "best_s": -1, "attempts": 1}"#).unwrap_err().contains("best_s"));
        assert!(one(r#"{"solved": false, "attempts": 99999999}"#).unwrap_err().contains("attempts"));
        assert!(one(r#"{"solved": true, "best_s": 99999999999, "attempts": 1}"#).unwrap_err().contains("year"));
        assert!(one(r#"{"solved": false, "best_s": null, "attempts": 0}"#).is_ok());
    }

    #[test]
    fn a_timer_reads_as_minutes_and_seconds() {
        assert_eq!(clock(7), "0:07");
        assert_eq!(clock(245), "4:05");
        assert_eq!(clock(3_723), "1:02:03");
    }
}
