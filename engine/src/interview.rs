//! Interview walkthroughs as data (`public/interview/<id>.json`): a system-design question in
//! steps, each with the interviewer's question and follow-ups, a model answer of 3 to 6 points,
//! and a "try it" run in one of compare mode's designs (`public/designs/<design>.json`) whose
//! `expect`s `fanout test` checks, as it checks a scenario's.
//!
//! A step may also carry a rubric (the 3 to 6 points a strong answer makes, and the red flags of
//! a weak one), and each follow-up may be `{"question", "answer"}` rather than a bare question.
//! Both are optional when a file is read, so older files stay valid; [`Interview::gaps`] names
//! what a complete walkthrough still lacks, and `fanout test` fails a file that has any.

use serde_json::{json, Value};

/// A follow-up question, and the model answer a reveal shows (none in an older file).
#[derive(Clone, Debug, PartialEq)]
pub struct FollowUp {
    pub question: String,
    pub answer: Option<String>,
}

/// What the candidate's self-check ticks: the points a strong answer makes and the red flags of
/// a weak one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rubric {
    pub points: Vec<String>,
    pub red_flags: Vec<String>,
}

/// One step of the walkthrough.
#[derive(Clone, Debug, PartialEq)]
pub struct InterviewStep {
    pub title: String,
    /// The step's share of the interview's time budget.
    pub minutes: u32,
    pub question: String,
    pub follow_ups: Vec<FollowUp>,
    /// The self-check; `None` in an older file.
    pub rubric: Option<Rubric>,
    pub model_answer: Vec<String>,
    /// The "try it" prompt, the design it runs in, and its scenario steps (after the design's).
    pub try_text: String,
    pub design: String,
    pub run: Vec<Value>,
}

/// A whole walkthrough.
#[derive(Clone, Debug, PartialEq)]
pub struct Interview {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub steps: Vec<InterviewStep>,
    /// The number of the first step: 1, or 0 for a question whose requirements step came
    /// before its numbered steps (`"first_step": 0`), so that their numbers, and the addresses
    /// and saved work that name them, stay as they were.
    pub first: usize,
}

/// Whether a file is an interview walkthrough (a top-level `"interview"` key).
pub fn is_interview(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v.get("interview").is_some_and(Value::is_string))
}

fn text(v: &Value, key: &str, at: &str) -> Result<String, String> {
    match v.get(key).and_then(Value::as_str) {
        Some(s) if !s.trim().is_empty() => Ok(s.to_string()),
        _ => Err(format!("{at}{key}: must be a non-empty text")),
    }
}

fn texts(v: &Value, key: &str, at: &str, range: std::ops::RangeInclusive<usize>) -> Result<Vec<String>, String> {
    let list = v.get(key).and_then(Value::as_array).ok_or_else(|| format!("{at}{key}: must be a list of texts"))?;
    let out: Vec<String> = list.iter().filter_map(Value::as_str).map(str::to_string).collect();
    if out.len() != list.len() || !range.contains(&out.len()) || out.iter().any(|s| s.trim().is_empty()) {
        return Err(format!("{at}{key}: must be {} to {} non-empty texts", range.start(), range.end()));
    }
    Ok(out)
}

const TOP_KEYS: &[&str] = &["interview", "title", "summary", "first_step", "steps"];
const STEP_KEYS: &[&str] = &["title", "minutes", "question", "follow_ups", "model_answer", "rubric", "try"];

fn known(v: &Value, keys: &[&str], at: &str) -> Result<(), String> {
    let map = v.as_object().ok_or_else(|| format!("{at}must be a JSON object"))?;
    match map.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(k) => Err(format!("{at}{k}: unknown key (known: {})", keys.join(", "))),
        None => Ok(()),
    }
}

impl Interview {
    /// Reads a walkthrough; an error names the step (1-based) and the field.
    pub fn parse(source: &str) -> Result<Interview, String> {
        let v: Value = serde_json::from_str(source).map_err(|e| format!("not valid JSON: {e}"))?;
        known(&v, TOP_KEYS, "")?;
        let id = text(&v, "interview", "")?;
        if !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
            return Err("interview: the id takes lowercase letters, digits and hyphens".into());
        }
        let raw = v.get("steps").and_then(Value::as_array).ok_or("steps: must be a list of steps")?;
        if raw.is_empty() || raw.len() > 12 {
            return Err("steps: must hold 1 to 12 steps".into());
        }
        let first = match v.get("first_step") {
            None => 1,
            Some(n) if n == 0 || n == 1 => n.as_u64().unwrap_or(1) as usize,
            Some(_) => return Err("first_step: must be 0 or 1".into()),
        };
        let mut steps = Vec::with_capacity(raw.len());
        for (i, s) in raw.iter().enumerate() {
            steps.push(step(s, &format!("step {}: ", i + first))?);
        }
        Ok(Interview { id, title: text(&v, "title", "")?, summary: text(&v, "summary", "")?, steps, first })
    }

    /// The number step `i` (0-based) goes by: in the page, its address and its errors.
    pub fn number(&self, i: usize) -> usize {
        i + self.first
    }

    /// What a complete walkthrough still lacks, one line each: a step without a rubric, a
    /// follow-up without a model answer, a try-it that checks nothing. `fanout test` fails a
    /// file with any.
    pub fn gaps(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, s) in self.steps.iter().enumerate() {
            let at = format!("step {}: ", self.number(i));
            if s.rubric.is_none() {
                out.push(format!("{at}rubric: missing (3 to 6 points and 1 to 5 red flags)"));
            }
            for (n, f) in s.follow_ups.iter().enumerate() {
                if f.answer.is_none() {
                    out.push(format!("{at}follow_ups.{}: no model answer", n + 1));
                }
            }
            for (n, f) in s.follow_ups.iter().enumerate() {
                let found = s.follow_up_for(&f.question);
                if found != Some(n) {
                    let what = found.map_or("none".to_string(), |m| format!("follow_ups.{}", m + 1));
                    out.push(format!("{at}follow_ups.{}: asked in its own words, it finds {what}", n + 1));
                }
            }
            if !s.run.iter().any(|r| r.get("expect").is_some() || r.get("expect_error").is_some()) {
                out.push(format!("{at}try.steps: the try-it checks nothing (no expect)"));
            }
        }
        out
    }

    /// The scenario file a step's "try it" runs: its design's, with the step's steps after.
    pub fn try_scenario(&self, step: usize, design_file: &str) -> Result<String, String> {
        let s = self.steps.get(step).ok_or_else(|| format!("no step {}", self.number(step)))?;
        let mut scenario: Value = serde_json::from_str(design_file).map_err(|e| format!("design {}: {e}", s.design))?;
        let steps = scenario.get_mut("steps").and_then(Value::as_array_mut).ok_or("the design has no steps")?;
        steps.extend(s.run.iter().cloned());
        scenario["name"] = json!(format!("{}, step {}: {}", self.title, self.number(step), s.title));
        Ok(scenario.to_string())
    }
}

/// What the interviewer says to a question that matches none of the step's follow-ups.
pub const UP_TO_YOU: &str = "That's up to you: say what you would assume.";

/// Short words that say nothing about what is asked; [`words`] leaves them out.
const STOP_WORDS: &[&str] = &[
    "about", "after", "all", "and", "any", "are", "before", "but", "can", "could", "did", "does", "each", "for",
    "from", "how", "into", "its", "many", "may", "much", "must", "not", "our", "should", "than", "that", "the",
    "their", "then", "there", "these", "they", "this", "those", "was", "were", "what", "when", "where", "which", "who",
    "why", "will", "with", "would", "you", "your",
];

/// A question's main words: lower-case runs of letters and digits, three or more long, less
/// [`STOP_WORDS`], a plural's final "s" dropped ("orders" is "order").
pub fn words(text: &str) -> std::collections::BTreeSet<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3 && !STOP_WORDS.contains(w))
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => stem.to_string(),
            _ => w.to_string(),
        })
        .collect()
}

impl InterviewStep {
    /// The follow-up (0-based) a candidate's own question asks, by shared main words ([`words`]):
    /// the follow-up sharing the most, if it shares at least two, or at least half of its own.
    /// On a tie, the one whose words are most covered, then the first. `None`: the interviewer
    /// answers [`UP_TO_YOU`].
    pub fn follow_up_for(&self, text: &str) -> Option<usize> {
        let asked = words(text);
        let mut best: Option<(usize, usize, usize)> = None; // (index, shared, its words)
        for (n, f) in self.follow_ups.iter().enumerate() {
            let own = words(&f.question);
            let shared = own.intersection(&asked).count();
            if shared == 0 || (shared < 2 && shared * 2 < own.len()) {
                continue;
            }
            // More shared words win; then more of its own words covered (shared / own, compared
            // without division).
            let better = best.is_none_or(|(_, s, o)| shared > s || (shared == s && shared * o > s * own.len()));
            if better {
                best = Some((n, shared, own.len()));
            }
        }
        best.map(|(n, _, _)| n)
    }
}

fn step(v: &Value, at: &str) -> Result<InterviewStep, String> {
    known(v, STEP_KEYS, at)?;
    let minutes = v.get("minutes").and_then(Value::as_u64).filter(|m| (1..=30).contains(m));
    let try_it = v.get("try").ok_or_else(|| format!("{at}try: missing"))?;
    known(try_it, &["text", "design", "steps"], &format!("{at}try."))?;
    let design = text(try_it, "design", &format!("{at}try."))?;
    if !crate::compare::DESIGNS.iter().any(|(n, _)| *n == design) {
        return Err(format!("{at}try.design: \"{design}\" is not one of compare mode's designs"));
    }
    Ok(InterviewStep {
        title: text(v, "title", at)?,
        minutes: minutes.ok_or_else(|| format!("{at}minutes: must be 1 to 30"))? as u32,
        question: text(v, "question", at)?,
        follow_ups: follow_ups(v, at)?,
        rubric: match v.get("rubric") {
            None => None,
            Some(r) => Some(rubric(r, &format!("{at}rubric."))?),
        },
        model_answer: texts(v, "model_answer", at, 3..=6)?,
        try_text: text(try_it, "text", &format!("{at}try."))?,
        design,
        run: try_it
            .get("steps")
            .and_then(Value::as_array)
            .cloned()
            .ok_or_else(|| format!("{at}try.steps: must be a list"))?,
    })
}

/// 1 to 5 follow-ups, each a question or `{"question", "answer"}` (both non-empty).
fn follow_ups(v: &Value, at: &str) -> Result<Vec<FollowUp>, String> {
    let list = v.get("follow_ups").and_then(Value::as_array);
    let list = list
        .filter(|l| (1..=5).contains(&l.len()))
        .ok_or_else(|| format!("{at}follow_ups: must be 1 to 5 follow-ups"))?;
    list.iter()
        .enumerate()
        .map(|(n, f)| {
            let at = format!("{at}follow_ups.{}.", n + 1);
            match f {
                Value::String(q) if !q.trim().is_empty() => Ok(FollowUp { question: q.clone(), answer: None }),
                Value::Object(_) => {
                    known(f, &["question", "answer"], &at)?;
                    Ok(FollowUp { question: text(f, "question", &at)?, answer: Some(text(f, "answer", &at)?) })
                }
                _ => Err(format!("{at}: must be a non-empty text or {{\"question\", \"answer\"}}")),
            }
        })
        .collect()
}

/// `{"points": [3 to 6], "red_flags": [1 to 5]}`, every text non-empty.
fn rubric(v: &Value, at: &str) -> Result<Rubric, String> {
    known(v, &["points", "red_flags"], at)?;
    Ok(Rubric { points: texts(v, "points", at, 3..=6)?, red_flags: texts(v, "red_flags", at, 1..=5)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKOUT: &str = include_str!("../../public/interview/checkout.json");

    #[test]
    fn the_checkout_walkthrough_has_its_requirements_as_step_0_then_seven_steps_each_with_a_model_answer_of_three_to_six_points(
    ) {
        let i = Interview::parse(CHECKOUT).expect("checkout.json parses");
        assert_eq!((i.id.as_str(), i.steps.len(), i.first), ("checkout", 8, 0));
        // The seven keep the numbers they had before step 0 came first.
        assert_eq!((i.number(0), i.number(1), i.number(7)), (0, 1, 7));
        assert_eq!(i.steps[1].title, "The coupled version");
        assert!(i.steps.iter().all(|s| (3..=6).contains(&s.model_answer.len()) && !s.follow_ups.is_empty()));
        assert_eq!(i.gaps(), Vec::<String>::new(), "checkout is complete: rubrics, follow-up answers, checks");
        assert!(is_interview(CHECKOUT) && !is_interview(r#"{"lesson": "x"}"#));
    }

    /// Every question the page lists: (id, file).
    const ALL: [(&str, &str); 5] = [
        ("checkout", CHECKOUT),
        ("payment-first", include_str!("../../public/interview/payment-first.json")),
        ("strict-order", include_str!("../../public/interview/strict-order.json")),
        ("notifications", include_str!("../../public/interview/notifications.json")),
        ("outage", include_str!("../../public/interview/outage.json")),
    ];

    #[test]
    fn every_question_is_complete_opens_with_its_requirements_and_fits_45_minutes() {
        for (id, text) in ALL {
            let i = Interview::parse(text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(i.id, id);
            assert_eq!(i.gaps(), Vec::<String>::new(), "{id}");
            assert_eq!(i.steps.iter().map(|s| s.minutes).sum::<u32>(), 45, "{id}: one 45-minute clock");
            assert!(i.steps[0].title.starts_with("Requirements"), "{id} opens with its requirements");
        }
    }

    #[test]
    fn first_step_is_0_or_1_and_errors_name_steps_by_their_numbers() {
        let mut v: Value = serde_json::from_str(CHECKOUT).unwrap();
        v["steps"][1]["model_answer"] = json!(["only one"]);
        let e = Interview::parse(&v.to_string()).unwrap_err();
        assert!(e.starts_with("step 1: model_answer"), "numbered from 0, the second step is step 1: {e}");
        v["first_step"] = json!(2);
        assert_eq!(Interview::parse(&v.to_string()).unwrap_err(), "first_step: must be 0 or 1");
        let mut plain: Value = serde_json::from_str(CHECKOUT).unwrap();
        plain.as_object_mut().unwrap().remove("first_step");
        let i = Interview::parse(&plain.to_string()).unwrap();
        assert_eq!((i.first, i.number(0)), (1, 1), "by default the first step is step 1");
    }

    #[test]
    fn a_bad_walkthrough_says_which_step_and_field() {
        let mut v: Value = serde_json::from_str(CHECKOUT).unwrap();
        v["steps"][3]["model_answer"] = json!(["only one"]);
        let e = Interview::parse(&v.to_string()).unwrap_err();
        assert!(e.starts_with("step 3: model_answer"), "{e}");
        v["steps"][3]["colour"] = json!(1);
        assert!(Interview::parse(&v.to_string()).unwrap_err().contains("colour: unknown key"));
        v["steps"][3] = json!({"title": "t"});
        v["steps"][0]["try"]["design"] = json!("nope");
        assert!(Interview::parse(&v.to_string()).unwrap_err().contains("\"nope\""));
    }

    #[test]
    fn an_old_file_reads_and_its_gaps_are_named() {
        let mut v: Value = serde_json::from_str(CHECKOUT).unwrap();
        for s in v["steps"].as_array_mut().unwrap() {
            s.as_object_mut().unwrap().remove("rubric");
            s["follow_ups"] = json!(["A bare question?"]);
        }
        let i = Interview::parse(&v.to_string()).expect("an older file stays valid");
        let gaps = i.gaps();
        assert!(gaps.contains(&"step 1: rubric: missing (3 to 6 points and 1 to 5 red flags)".to_string()), "{gaps:?}");
        assert!(gaps.contains(&"step 2: follow_ups.1: no model answer".to_string()));
    }

    #[test]
    fn an_empty_rubric_point_or_follow_up_answer_is_refused() {
        let mut v: Value = serde_json::from_str(CHECKOUT).unwrap();
        v["steps"][2]["rubric"] = json!({"points": ["a", " ", "c"], "red_flags": ["x"]});
        assert!(Interview::parse(&v.to_string()).unwrap_err().starts_with("step 2: rubric.points"));
        v["steps"][2]["rubric"] = json!({"points": ["a", "b", "c"], "red_flags": ["x"]});
        v["steps"][2]["follow_ups"] = json!([{"question": "Why?", "answer": ""}]);
        let e = Interview::parse(&v.to_string()).unwrap_err();
        assert!(e.starts_with("step 2: follow_ups.1.answer"), "{e}");
    }

    #[test]
    fn a_question_in_the_candidates_words_finds_its_follow_up_else_none() {
        let i = Interview::parse(CHECKOUT).unwrap();
        let s0 = &i.steps[0];
        assert_eq!(s0.follow_up_for("What is the peak load?"), Some(0), "one of 'order' and 'peak' is half of them");
        assert_eq!(s0.follow_up_for("how reliable is the SMS provider"), Some(3));
        assert_eq!(s0.follow_up_for("Do events need to arrive in order?"), Some(4));
        assert_eq!(s0.follow_up_for("What colour is the logo?"), None);
        assert_eq!(s0.follow_up_for(""), None);
        assert_eq!(words("How many Orders at peak?").into_iter().collect::<Vec<_>>(), ["order", "peak"]);
    }

    #[test]
    fn a_follow_up_that_its_own_question_does_not_find_is_a_gap() {
        let mut v: Value = serde_json::from_str(CHECKOUT).unwrap();
        v["steps"][1]["follow_ups"][1]["question"] = v["steps"][1]["follow_ups"][0]["question"].clone();
        let gaps = Interview::parse(&v.to_string()).unwrap().gaps();
        assert_eq!(gaps, ["step 1: follow_ups.2: asked in its own words, it finds follow_ups.1"]);
    }

    #[test]
    fn a_try_it_scenario_is_its_design_then_its_steps() {
        let i = Interview::parse(CHECKOUT).unwrap();
        let design = include_str!("../../public/designs/fanout.json");
        let text = i.try_scenario(2, design).unwrap();
        let s = crate::Scenario::parse(&text).expect("a scenario");
        let design_steps = serde_json::from_str::<Value>(design).unwrap()["steps"].as_array().unwrap().len();
        assert_eq!(s.steps.len(), design_steps + i.steps[2].run.len());
    }
}
