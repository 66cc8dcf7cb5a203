//! The earlier attempts at one question, kept in this browser (`localStorage`, key
//! `fanout-interview-<id>-attempts`) when a new attempt starts: each with its number, when it
//! ended, its score and its whole saved work as it was written ([`crate::interview_state::Saved`]).
//! Plain Rust with no signals, tested natively.
//!
//! An attempt's work is kept as the exact text it was saved as, so that reading and writing
//! the list never changes an attempt. A list that cannot be read is left alone: the page says
//! so and writes nothing to it.

use crate::interview_state::Saved;
use serde_json::{json, Value};

/// One earlier attempt.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// Its number, from 1, never reused: deleting attempt 2 leaves 1 and 3.
    pub n: u32,
    /// When it ended (a new attempt replaced it), as an ISO 8601 UTC time.
    pub ended: String,
    /// Its self-check score in percent; `None` when nothing was ticked.
    pub score: Option<u32>,
    /// Its saved work, exactly as written.
    pub work: Value,
}

impl Attempt {
    /// Its work, read for a question of `steps` steps numbered from `first`.
    pub fn saved(&self, steps: usize, first: usize) -> Saved {
        Saved::read(&self.work.to_string(), steps, first).0
    }

    /// "2026-12-07 23:40 UTC", or the text as saved when it is not such a time.
    pub fn when(&self) -> String {
        let t = &self.ended;
        let looks = t.len() >= 16 && t.as_bytes()[10] == b'T' && t.is_char_boundary(16);
        if looks {
            format!("{} {} UTC", &t[..10], &t[11..16])
        } else {
            t.clone()
        }
    }
}

/// Reads the saved list; an error is the one-line notice to show (and the list stays as saved).
pub fn read(text: &str) -> Result<Vec<Attempt>, String> {
    const BAD: &str = "The saved attempts could not be read; they are left as they are, and no new one is kept.";
    let v: Value = serde_json::from_str(text).map_err(|_| BAD.to_string())?;
    let list = v.get("attempts").and_then(Value::as_array).ok_or(BAD)?;
    list.iter()
        .map(|a| {
            let n = a.get("n").and_then(Value::as_u64).filter(|n| (1..=u64::from(u32::MAX)).contains(n));
            let work = a.get("work").filter(|w| w.get("answers").is_some_and(Value::is_array));
            let score = match a.get("score") {
                None | Some(Value::Null) => Ok(None),
                Some(s) => s.as_u64().filter(|s| *s <= 100).map(|s| Some(s as u32)).ok_or(()),
            };
            match (n, work, score) {
                (Some(n), Some(work), Ok(score)) => Ok(Attempt {
                    n: n as u32,
                    ended: a.get("ended").and_then(Value::as_str).unwrap_or_default().chars().take(40).collect(),
                    score,
                    work: work.clone(),
                }),
                _ => Err(BAD.to_string()),
            }
        })
        .collect()
}

/// The text to save.
pub fn write(list: &[Attempt]) -> String {
    let all: Vec<Value> =
        list.iter().map(|a| json!({"n": a.n, "ended": a.ended, "score": a.score, "work": a.work})).collect();
    json!({ "attempts": all }).to_string()
}

/// `list` with `work` added as the next attempt, ended at `ended`.
pub fn keep(mut list: Vec<Attempt>, work: &Saved, score: Option<u32>, ended: String) -> Vec<Attempt> {
    let n = list.iter().map(|a| a.n).max().unwrap_or(0).saturating_add(1);
    let work = serde_json::from_str(&work.write()).expect("a saved record is JSON");
    list.push(Attempt { n, ended, score, work });
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work(answer: &str, ms: u64) -> Saved {
        let mut s = Saved::new(2);
        s.answers[0] = answer.into();
        s.times[0] = ms;
        s
    }

    #[test]
    fn attempts_are_numbered_kept_exactly_and_read_back() {
        let list = keep(Vec::new(), &work("first", 60_000), Some(40), "2026-12-07T23:40:12.000Z".into());
        let list = keep(list, &work("second", 5_000), None, "2026-12-08T00:10:00.000Z".into());
        assert_eq!(list.iter().map(|a| a.n).collect::<Vec<_>>(), [1, 2]);
        let back = read(&write(&list)).unwrap();
        assert_eq!(back, list);
        assert_eq!(back[0].saved(2, 1).answers[0], "first");
        assert_eq!(back[0].saved(2, 1).total_ms(), 60_000);
        assert_eq!(back[0].when(), "2026-12-07 23:40 UTC");
        // A number is never reused: after deleting 1, the next is 3.
        let kept: Vec<Attempt> = back.into_iter().filter(|a| a.n != 1).collect();
        let again = keep(kept, &work("third", 1), None, String::new());
        assert_eq!(again.iter().map(|a| a.n).collect::<Vec<_>>(), [2, 3]);
    }

    #[test]
    fn a_list_that_cannot_be_read_is_an_error_not_an_empty_list() {
        for bad in [
            "[1, 2",
            r#"{"attempts": 3}"#,
            r#"{"attempts": [{"n": 1}]}"#,
            r#"{"attempts": [{"n": 1, "score": 900, "work": {"answers": []}}]}"#,
        ] {
            let e = read(bad).unwrap_err();
            assert!(e.contains("could not be read") && !e.contains('\n'), "{bad}: {e}");
        }
        assert_eq!(read(r#"{"attempts": []}"#), Ok(vec![]));
    }

    #[test]
    fn a_work_record_with_impossible_values_is_kept_as_written() {
        let text =
            r#"{"attempts": [{"n": 4, "ended": "yesterday", "work": {"answers": ["a"], "times": [99999999999999]}}]}"#;
        let list = read(text).unwrap();
        assert_eq!(list[0].when(), "yesterday");
        assert_eq!(list[0].saved(1, 1).times, [0], "shown without the impossible time");
        assert_eq!(read(&write(&list)).unwrap(), list, "and written back unchanged");
    }
}
