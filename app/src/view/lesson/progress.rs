//! Saved lesson progress: per lesson, the step reached, the predictions answered and whether it
//! was finished, kept in `localStorage` under [`KEY`] as
//! `{"version": 1, "lessons": {"<id>": {"step": 3, "answered": [2], "done": false}}}` (steps
//! 1-based, as the page shows them). A saved state that cannot be read is discarded with a
//! one-line notice; storage that throws (blocked by the browser) is treated as empty and every
//! lesson still runs, only nothing is kept.

use serde_json::{json, Value};

/// The `localStorage` key.
pub const KEY: &str = "fanout-playground.lessons";

/// More steps than any lesson has: a saved step past it is impossible, and the state is
/// discarded as a corrupt one (a step past a lesson's own end is checked when it opens).
pub const MOST_STEPS: usize = 200;

/// One lesson's progress.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saved {
    /// The step reached, 1-based (0: never opened).
    pub step: usize,
    /// The prediction steps answered (1-based), ascending.
    pub answered: Vec<usize>,
    /// Whether the learner reached the last screen.
    pub done: bool,
}

/// Every lesson's progress, by id, in the order first saved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub lessons: Vec<(String, Saved)>,
}

/// What the overview shows for a lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Done,
    InProgress,
    NotStarted,
}

impl Status {
    /// `done`, `in-progress` or `not-started`: the card's `data-status`.
    pub fn attr(self) -> &'static str {
        match self {
            Status::Done => "done",
            Status::InProgress => "in-progress",
            Status::NotStarted => "not-started",
        }
    }
}

impl Progress {
    /// Reads the saved text; an error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Progress, String> {
        Ok(Progress { lessons: crate::saved::parse_entries(text, "lessons", "lesson", saved)? })
    }

    /// The text to save.
    pub fn to_text(&self) -> String {
        crate::saved::entries_text(
            "lessons",
            &self.lessons,
            |s| json!({"step": s.step, "answered": s.answered, "done": s.done}),
        )
    }

    /// One lesson's progress (empty if never opened).
    pub fn get(&self, id: &str) -> Saved {
        self.lessons.iter().find(|(i, _)| i == id).map(|(_, s)| s.clone()).unwrap_or_default()
    }

    /// Changes one lesson's progress.
    pub fn update(&mut self, id: &str, f: impl FnOnce(&mut Saved)) {
        match self.lessons.iter_mut().find(|(i, _)| i == id) {
            Some((_, s)) => f(s),
            None => {
                let mut s = Saved::default();
                f(&mut s);
                self.lessons.push((id.to_string(), s));
            }
        }
    }

    /// Done, in progress (a step past the first, or an answer) or not started.
    pub fn status(&self, id: &str) -> Status {
        let s = self.get(id);
        if s.done {
            Status::Done
        } else if s.step > 1 || !s.answered.is_empty() {
            Status::InProgress
        } else {
            Status::NotStarted
        }
    }
}

fn saved(item: &Value) -> Result<Saved, String> {
    let step = item.get("step").and_then(Value::as_u64).ok_or("step: must be a whole number")?;
    let answered = match item.get("answered") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| v.as_u64().map(|n| n as usize))
            .collect::<Option<Vec<_>>>()
            .ok_or("answered: must be numbers")?,
        _ => return Err("answered: must be a list".into()),
    };
    if answered.windows(2).any(|w| w[0] >= w[1]) {
        return Err("answered: must be ascending step numbers".into());
    }
    if step as usize > MOST_STEPS || answered.iter().any(|n| *n == 0 || *n > MOST_STEPS) {
        return Err(format!("step: {step} is not a step of any lesson (they have at most {MOST_STEPS})"));
    }
    let done = item.get("done").and_then(Value::as_bool).ok_or("done: must be true or false")?;
    Ok(Saved { step: step as usize, answered, done })
}

/// Loads the saved progress: `(progress, notice)`. A corrupt saved state is removed and named in
/// the notice; blocked storage gives empty progress and no notice.
pub fn load() -> (Progress, Option<String>) {
    let (progress, notice) = crate::saved::load(KEY, "lesson progress", Progress::parse);
    (progress.unwrap_or_default(), notice)
}

/// Saves the progress; does nothing where storage is blocked or full.
pub fn save(progress: &Progress) {
    crate::saved::save(KEY, &progress.to_text());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_and_gives_each_lesson_its_status() {
        let mut p = Progress::default();
        p.update("poison-messages", |s| {
            s.step = 3;
            s.answered.push(2);
        });
        p.update("ordering", |s| s.done = true);
        p.update("filter-policies", |s| s.step = 1);
        let back = Progress::parse(&p.to_text()).unwrap();
        assert_eq!(back.get("poison-messages"), p.get("poison-messages"));
        assert_eq!(back.status("poison-messages"), Status::InProgress);
        assert_eq!(back.status("ordering"), Status::Done);
        assert_eq!(back.status("filter-policies"), Status::NotStarted, "opened, nothing done yet");
        assert_eq!(back.status("three-designs"), Status::NotStarted);
    }

    #[test]
    fn a_corrupt_saved_state_says_what_is_wrong() {
        assert!(Progress::parse("{not json").unwrap_err().starts_with("not valid JSON"));
        assert_eq!(Progress::parse(r#"{"version": 2, "lessons": {}}"#).unwrap_err(), "unknown version");
        let e = Progress::parse(r#"{"version": 1, "lessons": {"ordering": {"step": "x"}}}"#).unwrap_err();
        assert_eq!(e, "lesson \"ordering\": step: must be a whole number");
        let e = Progress::parse(r#"{"version": 1, "lessons": {"ordering": {"step": 2, "answered": [1], "done": 1}}}"#)
            .unwrap_err();
        assert!(e.contains("done"), "{e}");
        let e = Progress::parse(
            r#"{"version": 1, "lessons": {"ordering": {"step": 4, "answered": [3, 2], "done": false}}}"#,
        )
        .unwrap_err();
        assert_eq!(e, "lesson \"ordering\": answered: must be ascending step numbers");
        for step in ["999", "4294967295", "18446744073709551615"] {
            let text = format!(
                r#"{{"version": 1, "lessons": {{"ordering": {{"step": {step}, "answered": [], "done": false}}}}}}"#
            );
            let e = Progress::parse(&text).unwrap_err();
            assert!(e.contains("is not a step of any lesson"), "{step}: {e}");
        }
    }
}
