//! What the interview page keeps of a candidate's work on one question, in this browser only
//! (`localStorage`, key `fanout-interview-<id>`): the answers, the time spent per step, the step
//! shown, whether the timer runs, the self-check ticks, practice mode and the best score.
//! Plain Rust with no signals, so that reading a saved text (and dropping what cannot be true)
//! is tested natively.

use serde_json::{json, Value};

/// No step takes a candidate longer than this; a saved time past it is dropped (a counter that
/// wrapped, or a hand-edited value).
pub const MAX_STEP_MS: u64 = 12 * 60 * 60 * 1000;

/// A practice run's clock: the whole question in 45 minutes.
pub const PRACTICE_MS: u64 = 45 * 60 * 1000;

/// The longest question a candidate may type to the interviewer, in characters.
pub const MAX_ASK_CHARS: usize = 300;

/// A question put to the interviewer in a practice run: a follow-up chosen from the list, or
/// the candidate's own words (`text`), which found a follow-up or none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// The follow-up answered (0-based); `None`: the interviewer said it is up to the candidate.
    pub follow_up: Option<usize>,
    /// The candidate's own words; empty when a follow-up was chosen from the list.
    pub text: String,
    /// The practice clock when it was asked, in ms.
    pub at: u64,
}

impl Asked {
    fn write(&self) -> Value {
        let mut v = json!({"follow_up": self.follow_up, "at": self.at});
        if !self.text.is_empty() {
            v["text"] = json!(self.text);
        }
        v
    }

    /// One saved question, or `None` when it cannot be true (no time, a time past the whole
    /// question's ceiling, a follow-up number past 16).
    fn read(v: &Value) -> Option<Asked> {
        let at = v.get("at")?.as_u64().filter(|t| *t <= MAX_STEP_MS * 12)?;
        let follow_up = match v.get("follow_up") {
            None | Some(Value::Null) => None,
            Some(n) => Some(n.as_u64().filter(|n| *n < 16)? as usize),
        };
        let text: String =
            v.get("text").and_then(Value::as_str).unwrap_or_default().chars().take(MAX_ASK_CHARS).collect();
        (follow_up.is_some() || !text.trim().is_empty()).then_some(Asked { follow_up, text, at })
    }
}

/// One question's saved work.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saved {
    pub answers: Vec<String>,
    /// Time spent per step, in ms.
    pub times: Vec<u64>,
    /// The step shown (0-based); `steps` is the review.
    pub step: Option<usize>,
    /// Whether the timer was running.
    pub timing: bool,
    /// Per step, the self-check's boxes ticked: the rubric's points, then its red flags.
    pub ticks: Vec<Vec<bool>>,
    /// Practice mode: one clock, the model answers hidden until the review.
    pub practice: bool,
    /// The score of this run's self-check, in percent, as last seen in the review.
    pub score: Option<u32>,
    /// The best score of the runs before this one, in percent.
    pub best: Option<u32>,
    /// The number of the question's first step when this was saved (`Interview::first`). A
    /// record saved before a question gained a step 0 has none: its steps are moved up one.
    pub first: usize,
    /// Per step, the questions put to the interviewer in a practice run, in the order asked.
    pub asked: Vec<Vec<Asked>>,
}

impl Saved {
    /// An empty record for a question of `steps` steps.
    pub fn new(steps: usize) -> Saved {
        let mut s = Saved { first: 1, ..Saved::default() };
        s.fit(steps);
        s
    }

    /// This record, for a question whose first step is numbered `first`.
    pub fn numbered_from(self, first: usize) -> Saved {
        Saved { first, ..self }
    }

    fn fit(&mut self, steps: usize) {
        self.answers.resize(steps, String::new());
        self.times.resize(steps, 0);
        self.ticks.resize(steps, Vec::new());
        self.asked.resize(steps, Vec::new());
    }

    /// Reads a saved text for a question of `steps` steps. What cannot be true (a time past
    /// [`MAX_STEP_MS`], a step out of range, a score over 100) is dropped and named in the
    /// one-line notice; a text that is not a record at all starts afresh, with a notice.
    pub fn read(text: &str, steps: usize, first: usize) -> (Saved, Option<String>) {
        let v: Value = serde_json::from_str(text).unwrap_or_default();
        if !v.get("answers").is_some_and(Value::is_array) {
            let fresh = Saved::new(steps).numbered_from(first);
            return (fresh, Some("The saved answers could not be read; starting afresh.".into()));
        }
        // Saved when the question's steps were numbered from 1 and it now has a step 0: the
        // work on step n moves to n's new place, one further on.
        let shift = usize::from(first == 0 && v.get("first_step").and_then(Value::as_u64) != Some(0));
        let mut v = v;
        if shift == 1 {
            for key in ["answers", "times", "ticks", "asked"] {
                if let Some(list) = v.get_mut(key).and_then(Value::as_array_mut) {
                    list.insert(0, Value::Null);
                }
            }
            if let Some(n) = v.get("step").and_then(Value::as_u64) {
                v["step"] = json!(n + 1);
            }
        }
        let answers = v.get("answers").and_then(Value::as_array).cloned().unwrap_or_default();
        let mut dropped: Vec<String> = Vec::new();
        let mut s = Saved {
            first,
            answers: answers.iter().map(|a| a.as_str().unwrap_or_default().to_string()).take(steps).collect(),
            ..Saved::default()
        };
        let list = |k: &str| v.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
        for (n, t) in list("times").iter().take(steps).enumerate() {
            match t.as_u64() {
                Some(ms) if ms <= MAX_STEP_MS => s.times.push(ms),
                None if t.is_null() => s.times.push(0),
                _ => {
                    dropped.push(format!("step {}'s time", n + first));
                    s.times.push(0);
                }
            }
        }
        s.ticks = list("ticks")
            .iter()
            .take(steps)
            .map(|t| t.as_array().map(|b| b.iter().take(16).map(|x| x.as_bool() == Some(true)).collect()))
            .map(Option::unwrap_or_default)
            .collect();
        for (n, list) in list("asked").iter().take(steps).enumerate() {
            let all = list.as_array().map_or(&[][..], Vec::as_slice);
            let kept: Vec<Asked> = all.iter().filter_map(Asked::read).collect();
            if kept.len() != all.len() || !(list.is_array() || list.is_null()) {
                dropped.push(format!("step {}'s questions asked", n + first));
            }
            s.asked.push(kept);
        }
        match v.get("step") {
            None | Some(Value::Null) => {}
            Some(n) => match n.as_u64().filter(|n| (*n as usize) <= steps) {
                Some(n) => s.step = Some(n as usize),
                None => dropped.push("the step".into()),
            },
        }
        s.timing = v.get("timing").and_then(Value::as_bool).unwrap_or(false);
        s.practice = v.get("practice").and_then(Value::as_bool).unwrap_or(false);
        for (key, slot, name) in [("best", &mut s.best, "the best score"), ("score", &mut s.score, "the score")] {
            match v.get(key) {
                None | Some(Value::Null) => {}
                Some(b) => match b.as_u64().filter(|b| *b <= 100) {
                    Some(b) => *slot = Some(b as u32),
                    None => dropped.push(name.into()),
                },
            }
        }
        s.fit(steps);
        let notice = (!dropped.is_empty())
            .then(|| format!("Dropped what could not be true in the saved work: {}.", dropped.join(", ")));
        (s, notice)
    }

    /// The text to save.
    pub fn write(&self) -> String {
        json!({
            "answers": self.answers,
            "times": self.times,
            "step": self.step,
            "timing": self.timing,
            "ticks": self.ticks,
            "practice": self.practice,
            "score": self.score,
            "best": self.best,
            "first_step": self.first,
            "asked": self.asked.iter().map(|a| a.iter().map(Asked::write).collect::<Vec<_>>()).collect::<Vec<_>>(),
        })
        .to_string()
    }

    /// Whether box `i` of step `s`'s self-check is ticked.
    pub fn ticked(&self, s: usize, i: usize) -> bool {
        self.ticks.get(s).and_then(|t| t.get(i)).copied().unwrap_or(false)
    }

    /// Ticks or unticks box `i` of step `s`.
    pub fn tick(&mut self, s: usize, i: usize, on: bool) {
        if let Some(t) = self.ticks.get_mut(s) {
            if t.len() <= i {
                t.resize(i + 1, false);
            }
            t[i] = on;
        }
    }

    /// Puts a question to the interviewer on step `s`. Choosing a follow-up already asked
    /// changes nothing (it is in the log once); the candidate's own words are always logged.
    pub fn ask(&mut self, s: usize, asked: Asked) {
        let Some(log) = self.asked.get_mut(s) else { return };
        if asked.text.is_empty() && log.iter().any(|a| a.text.is_empty() && a.follow_up == asked.follow_up) {
            return;
        }
        log.push(asked);
    }

    /// When follow-up `f` of step `s` was first answered, in ms on the practice clock.
    pub fn asked_at(&self, s: usize, f: usize) -> Option<u64> {
        self.asked.get(s)?.iter().find(|a| a.follow_up == Some(f)).map(|a| a.at)
    }

    /// Whether this record holds any work: an answer, a time, a tick or a question asked.
    pub fn has_work(&self) -> bool {
        self.answers.iter().any(|a| !a.trim().is_empty())
            || self.total_ms() > 0
            || self.ticks.iter().flatten().any(|t| *t)
            || self.asked.iter().any(|a| !a.is_empty())
    }

    /// The best score so far: this run's or an earlier one's.
    pub fn best_so_far(&self) -> Option<u32> {
        self.best.max(self.score)
    }

    /// A fresh run of the same question: its score joins the best, the rest starts empty.
    pub fn fresh(&self, steps: usize) -> Saved {
        Saved { best: self.best_so_far(), ..Saved::new(steps).numbered_from(self.first) }
    }

    /// All the time spent, in ms.
    pub fn total_ms(&self) -> u64 {
        self.times.iter().sum()
    }
}

/// A step's score: the rubric's points ticked, less one for each red flag ticked (never below
/// nothing), out of the number of points. `points` and `flags` are the rubric's sizes.
pub fn step_score(ticks: &[bool], points: usize, flags: usize) -> (usize, usize) {
    let got = ticks.iter().take(points).filter(|t| **t).count();
    let flagged = ticks.iter().skip(points).take(flags).filter(|t| **t).count();
    (got.saturating_sub(flagged), points)
}

/// A whole question's score in percent (rounded down) from its steps' (got, of); `None` when
/// no step has a rubric.
pub fn percent(scores: &[(usize, usize)]) -> Option<u32> {
    let (got, of) = scores.iter().fold((0, 0), |(g, o), (a, b)| (g + a, o + b));
    (of > 0).then(|| (got * 100 / of) as u32)
}

/// "m:ss", minutes unbounded.
pub fn mmss(ms: u64) -> String {
    format!("{}:{:02}", ms / 60_000, ms / 1_000 % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_record_reads_back_as_written() {
        let mut s = Saved::new(3);
        s.answers[1] = "publish once".into();
        s.times = vec![1_000, 65_000, 0];
        s.step = Some(3);
        s.timing = true;
        s.tick(1, 2, true);
        s.practice = true;
        s.best = Some(75);
        s.score = Some(40);
        s.ask(0, Asked { follow_up: Some(1), text: String::new(), at: 192_000 });
        s.ask(0, Asked { follow_up: None, text: "What colour?".into(), at: 200_000 });
        assert_eq!(Saved::read(&s.write(), 3, 1), (s.clone(), None));
        assert_eq!(s.best_so_far(), Some(75));
        let next = s.fresh(3);
        assert_eq!((next.best, next.score, next.answers[1].as_str(), next.practice), (Some(75), None, "", false));
        let better = Saved { score: Some(90), ..s };
        assert_eq!(better.fresh(3).best, Some(90), "a finished run's score joins the best");
    }

    #[test]
    fn impossible_saved_values_are_dropped_with_one_notice() {
        let text = r#"{"answers": ["a", "b"], "times": [18446744073709551615, 4000], "step": 40, "best": 900}"#;
        let (s, notice) = Saved::read(text, 2, 1);
        assert_eq!(s.times, [0, 4_000], "the wrapped time is gone, the good one kept");
        assert_eq!((s.step, s.best), (None, None));
        assert_eq!(s.answers, ["a", "b"]);
        let notice = notice.expect("a notice");
        assert!(!notice.contains('\n') && notice.contains("step 1's time") && notice.contains("the step"), "{notice}");
        assert_eq!(mmss(s.total_ms()), "0:04");
    }

    #[test]
    fn a_text_that_is_no_record_starts_afresh_and_an_old_record_is_kept() {
        let (s, notice) = Saved::read("{not json", 7, 1);
        assert_eq!((s.answers.len(), s.times.len()), (7, 7));
        assert!(notice.unwrap().contains("could not be read"));
        // What the page saved before the step, the timer and the ticks were kept.
        let (s, notice) = Saved::read(r#"{"answers": ["x"], "times": [3000]}"#, 2, 1);
        assert_eq!((s.answers, s.times, s.step, notice), (vec!["x".into(), String::new()], vec![3_000, 0], None, None));
    }

    #[test]
    fn a_step_scores_its_points_less_its_red_flags() {
        assert_eq!(step_score(&[true, true, false, true], 3, 2), (1, 3), "two points, one red flag");
        assert_eq!(step_score(&[false, false, false, true, true], 3, 2), (0, 3), "never below nothing");
        assert_eq!(step_score(&[], 4, 0), (0, 4));
        assert_eq!(percent(&[(3, 4), (1, 4)]), Some(50));
        assert_eq!(percent(&[]), None);
    }

    #[test]
    fn a_follow_up_is_logged_once_and_the_candidates_own_words_every_time() {
        let mut s = Saved::new(2);
        assert!(!s.has_work());
        let chosen = Asked { follow_up: Some(0), text: String::new(), at: 1_000 };
        s.ask(0, chosen.clone());
        s.ask(0, Asked { at: 5_000, ..chosen });
        s.ask(0, Asked { follow_up: Some(0), text: "peak load?".into(), at: 6_000 });
        s.ask(9, Asked { follow_up: Some(0), text: String::new(), at: 1 });
        assert_eq!(s.asked[0].len(), 2, "the second choice of follow-up 1 adds nothing");
        assert_eq!(s.asked_at(0, 0), Some(1_000));
        assert!(s.has_work(), "a question asked is work a new attempt keeps");
        assert!(s.fresh(2).asked.iter().all(Vec::is_empty));
    }

    #[test]
    fn a_record_saved_before_questions_were_asked_loads_and_bad_questions_are_dropped() {
        let (s, notice) = Saved::read(r#"{"answers": ["a"], "times": [1000], "practice": true}"#, 2, 1);
        assert_eq!((s.asked.clone(), notice), (vec![vec![], vec![]], None));
        let text = r#"{"answers": [], "asked": [[{"follow_up": 1, "at": 3000}, {"follow_up": "x", "at": 1}], [{"text": "why?"}]]}"#;
        let (s, notice) = Saved::read(text, 2, 1);
        assert_eq!(s.asked[0], [Asked { follow_up: Some(1), text: String::new(), at: 3_000 }]);
        assert!(s.asked[1].is_empty(), "no time: dropped");
        let notice = notice.expect("a notice");
        assert!(notice.contains("step 1's questions asked") && notice.contains("step 2's questions asked"), "{notice}");
    }

    #[test]
    fn work_saved_before_a_question_gained_its_step_0_stays_with_its_steps() {
        // Saved on the seven-step checkout: step 3 (index 2) shown, an answer and a time on step 1.
        let old = r#"{"answers": ["call in turn", "", "one queue each"], "times": [60000, 0, 5000], "ticks": [[true]], "step": 2}"#;
        let (s, notice) = Saved::read(old, 8, 0);
        assert_eq!(notice, None);
        assert_eq!(s.answers[..4], ["", "call in turn", "", "one queue each"]);
        assert_eq!(s.times[..4], [0, 60_000, 0, 5_000]);
        assert!(s.ticked(1, 0) && !s.ticked(0, 0));
        assert_eq!(s.step, Some(3), "still the step numbered 3");
        // Once written with its numbering, it reads back unmoved.
        assert_eq!(Saved::read(&s.write(), 8, 0).0, s);
        // A question numbered from 1 moves nothing.
        assert_eq!(Saved::read(old, 7, 1).0.answers[0], "call in turn");
    }
}
