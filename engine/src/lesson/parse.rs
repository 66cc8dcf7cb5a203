//! Reading a lesson file: every key known, every text checked ([`super::markup::check`]), every
//! probe and test well formed, every step's scenario steps parsed as a scenario's, `${name}`
//! placeholders saved before they are used. Errors name the step (1-based), its kind and the
//! field (a JSON path, lists indexed from 0).

use super::markup;
use super::probe::Probe;
use super::test::{Test, TEST_KEYS};
use super::{AnswerMode, Check, Checkpoint, Choice, DocLink, Lesson, LessonError, LessonStep, Prediction, StepKind};
use crate::scenario::{parse_step_list, Scenario, Step};
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

const TOP_KEYS: &[&str] = &["lesson", "title", "summary", "minutes", "speed", "scenario", "steps"];
const SPEEDS: &[u32] = &[1, 2, 4, 8, 16, 32, 64];
const KINDS: &[&str] = &["narration", "run", "predict", "checkpoint", "remember"];
/// Where every "read next" link must point.
pub(crate) const DOCS: &str = "https://docs.aws.amazon.com/";
pub(crate) const MAX_REMEMBER_LINES: usize = 5;

/// An error at the top level of the file.
fn top(field: &str, message: impl Into<String>) -> LessonError {
    LessonError { step: None, kind: None, field: field.to_string(), message: message.into() }
}

pub(super) fn lesson(text: &str, builtins: &[(&str, &str)]) -> Result<Lesson, LessonError> {
    let value: Value = serde_json::from_str(text).map_err(|e| top("", format!("not valid JSON: {e}")))?;
    let Value::Object(mut map) = value else { return Err(top("", "a lesson must be a JSON object")) };
    if let Some(k) = map.keys().find(|k| !TOP_KEYS.contains(&k.as_str())) {
        return Err(top(k, format!("unknown key (a lesson has {})", TOP_KEYS.join(", "))));
    }
    let id = match map.remove("lesson") {
        Some(Value::String(s)) if valid_id(&s) => s,
        _ => return Err(top("lesson", "must be the lesson's id: 1 to 60 lowercase letters, digits and hyphens")),
    };
    let title = text_field(&mut map, "title").map_err(|m| top("title", m))?;
    let summary = text_field(&mut map, "summary").map_err(|m| top("summary", m))?;
    if summary.contains('\n') {
        return Err(top("summary", "must be one line"));
    }
    let minutes = match map.remove("minutes").and_then(|v| v.as_u64()) {
        Some(m @ 1..=60) => m as u32,
        _ => return Err(top("minutes", "must be a whole number of minutes from 1 to 60")),
    };
    let speed = match map.remove("speed").and_then(|v| v.as_u64()) {
        Some(s) if SPEEDS.contains(&(s as u32)) => s as u32,
        _ => return Err(top("speed", "must be one of 1, 2, 4, 8, 16, 32, 64 (virtual seconds per real second)")),
    };
    let (scenario_id, scenario) = start(map.remove("scenario"), builtins)?;
    let Some(Value::Array(raw_steps)) = map.remove("steps") else {
        return Err(top("steps", "must be a list of steps"));
    };
    let mut saved = saved_names(&scenario.steps);
    let mut steps = Vec::with_capacity(raw_steps.len());
    for (i, raw) in raw_steps.into_iter().enumerate() {
        steps.push(step(raw, &mut saved).map_err(|(kind, field, message)| LessonError {
            step: Some(i + 1),
            kind,
            field,
            message,
        })?);
    }
    check_shape(&steps)?;
    Ok(Lesson { id, title, summary, minutes, speed, scenario_id, scenario, steps })
}

pub(crate) fn valid_id(s: &str) -> bool {
    (1..=60).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The starting scenario: a built-in id, or an inline scenario object.
pub(crate) fn start(
    value: Option<Value>,
    builtins: &[(&str, &str)],
) -> Result<(Option<String>, Scenario), LessonError> {
    match value {
        Some(Value::String(id)) => {
            let Some((_, text)) = builtins.iter().find(|(b, _)| *b == id) else {
                let known: Vec<&str> = builtins.iter().map(|(b, _)| *b).collect();
                return Err(top(
                    "scenario",
                    format!("no built-in scenario \"{id}\" (the built-in ones are: {})", known.join(", ")),
                ));
            };
            let scenario = Scenario::parse(text).map_err(|e| top("scenario", format!("built-in \"{id}\": {e}")))?;
            Ok((Some(id), scenario))
        }
        Some(inline @ Value::Object(_)) => {
            let scenario = Scenario::parse(&inline.to_string()).map_err(|e| top("scenario", e.to_string()))?;
            Ok((None, scenario))
        }
        _ => Err(top("scenario", "must be a built-in scenario's id (public/scenarios/<id>.json) or a scenario object")),
    }
}

/// The names a list of scenario steps saves.
pub(crate) fn saved_names(steps: &[Step]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for s in steps {
        if let Step::Action { save, .. } = s {
            for (n, _) in save {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
    }
    names
}

/// A step error: the kind (when known), the field and the message.
type StepError = (Option<&'static str>, String, String);

fn step(raw: Value, saved: &mut Vec<String>) -> Result<LessonStep, StepError> {
    let Value::Object(mut m) = raw else { return Err((None, String::new(), "a step must be a JSON object".into())) };
    let kind = match m.remove("kind") {
        Some(Value::String(k)) => match KINDS.iter().find(|known| **known == k) {
            Some(known) => *known,
            None => {
                let message = format!("unknown kind \"{k}\" (a lesson step is {})", KINDS.join(", "));
                return Err((None, "kind".into(), message));
            }
        },
        _ => return Err((None, "kind".into(), format!("must be one of {}", KINDS.join(", ")))),
    };
    let fail = |(field, message): (String, String)| (Some(kind), field, message);
    let speed = match m.remove("speed") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(s) if SPEEDS.contains(&(s as u32)) => Some(s as u32),
            _ => return Err(fail(("speed".into(), "must be one of 1, 2, 4, 8, 16, 32, 64".into()))),
        },
    };
    let stage = match m.remove("stage") {
        None => None,
        Some(Value::String(p)) if crate::ids::valid_resource_name(&p, 80) => Some(p),
        Some(_) => {
            return Err(fail((
                "stage".into(),
                "must be the name of a producer (CreateProducer's ProducerName) whose design the diagram draws".into(),
            )))
        }
    };
    let appears = match m.remove("appears") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| match v.as_str() {
                Some(n) if crate::ids::valid_resource_name(n, 80) => Ok(n.to_string()),
                _ => Err(fail((format!("appears[{i}]"), "must be the name of a resource the step's run draws".into()))),
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(fail(("appears".into(), "must be a list of resource names".into()))),
    };
    let pace = match m.remove("pace") {
        None => Vec::new(),
        Some(v) => pace(&v).map_err(|e| fail(("pace".into(), e)))?,
    };
    let text = if kind == "remember" && !m.contains_key("text") {
        String::new()
    } else {
        text_field(&mut m, "text").map_err(|e| fail(("text".into(), e)))?
    };
    let mut f = Fields { map: m, saved };
    let kind_value = match kind {
        "narration" => StepKind::Narration,
        "run" => run_step(&mut f).map_err(fail)?,
        "predict" => StepKind::Predict(prediction(&mut f).map_err(fail)?),
        "checkpoint" => StepKind::Checkpoint(checkpoint(&mut f).map_err(fail)?),
        _ => remember(&mut f).map_err(fail)?,
    };
    if let Some(k) = f.map.keys().next() {
        return Err(fail((k.clone(), format!("unknown key for a {kind} step"))));
    }
    Ok(LessonStep { text, speed, stage, appears, pace, kind: kind_value })
}

/// A step's `pace`: `[{"from": "20s", "to": "50s", "speed": 4}, …]`, windows in order that do
/// not overlap, each at one of the playback speeds.
fn pace(v: &Value) -> Result<Vec<super::Pace>, String> {
    let list = v.as_array().ok_or("must be a list of {\"from\", \"to\", \"speed\"}")?;
    if list.len() > 8 {
        return Err("at most 8 windows".into());
    }
    let mut out: Vec<super::Pace> = Vec::with_capacity(list.len());
    for (i, w) in list.iter().enumerate() {
        let at = format!("{}: ", i + 1);
        let Some(m) = w.as_object() else {
            return Err(format!("{at}must be an object {{\"from\", \"to\", \"speed\"}}"));
        };
        if let Some(k) = m.keys().find(|k| !["from", "to", "speed"].contains(&k.as_str())) {
            return Err(format!("{at}{k}: unknown key (known: from, to, speed)"));
        }
        let time = |k: &str| -> Result<u64, String> {
            let t = m.get(k).and_then(Value::as_str).ok_or_else(|| format!("{at}{k}: a duration such as \"20s\""))?;
            crate::time::parse_duration(t).map_err(|e| format!("{at}{k}: {e}"))
        };
        let (from_ms, to_ms) = (time("from")?, time("to")?);
        let speed = match m.get("speed").and_then(Value::as_u64) {
            Some(s) if SPEEDS.contains(&(s as u32)) => s as u32,
            _ => return Err(format!("{at}speed: must be one of 1, 2, 4, 8, 16, 32, 64")),
        };
        if to_ms <= from_ms {
            return Err(format!("{at}to must come after from"));
        }
        if out.last().is_some_and(|p| p.to_ms > from_ms) {
            return Err(format!("{at}must begin after the window before it ends"));
        }
        out.push(super::Pace { from_ms, to_ms, speed });
    }
    Ok(out)
}

/// A field error: the field's path and the message.
pub(crate) type FieldError = (String, String);

/// A step's remaining keys, and the names saved so far.
pub(crate) struct Fields<'a> {
    pub(crate) map: Map<String, Value>,
    pub(crate) saved: &'a mut Vec<String>,
}

impl Fields<'_> {
    pub(crate) fn text(&mut self, key: &str) -> Result<String, FieldError> {
        text_field(&mut self.map, key).map_err(|m| (key.to_string(), m))
    }

    pub(crate) fn list(&mut self, key: &str) -> Result<Vec<Value>, FieldError> {
        match self.map.remove(key) {
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err((key.into(), "must be a list".into())),
            None => Err((key.into(), "is missing".into())),
        }
    }

    /// Scenario steps; `keep` says whether their `save` names count for later steps.
    pub(crate) fn steps(&mut self, key: &str, keep: bool) -> Result<Vec<Step>, FieldError> {
        let value = self.map.remove(key).ok_or_else(|| (key.to_string(), "is missing".to_string()))?;
        let mut names = self.saved.clone();
        let steps = parse_step_list(value, &mut names).map_err(|e| match e.step {
            Some(n) => (format!("{key}[{}]", n - 1), e.message),
            None => (key.to_string(), e.message),
        })?;
        if keep {
            *self.saved = names;
        }
        Ok(steps)
    }

    fn probe(&mut self, key: &str) -> Result<Probe, FieldError> {
        let value = self.map.remove(key).ok_or_else(|| (key.to_string(), "is missing (what to read)".to_string()))?;
        Probe::parse(&value, self.saved).map_err(|m| (key.to_string(), m))
    }

    /// A list of checks: `{"label", "probe", <test>}` each; `labels` says whether a label is required.
    pub(crate) fn checks(&mut self, key: &str, labels: bool) -> Result<Vec<Check>, FieldError> {
        let items = self.list(key)?;
        let mut out: Vec<(Check, Option<String>)> = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let at = format!("{key}[{i}]");
            let Value::Object(mut m) = item else { return Err((at, "must be an object".into())) };
            let label = match m.contains_key("label") || labels {
                true => text_field(&mut m, "label").map_err(|e| (format!("{at}.label"), e))?,
                false => String::new(),
            };
            let probe_value = m.remove("probe").ok_or_else(|| (format!("{at}.probe"), "is missing".to_string()))?;
            let probe = Probe::parse(&probe_value, self.saved).map_err(|e| (format!("{at}.probe"), e))?;
            let test = Test::take(&mut m).map_err(|e| (at.clone(), e))?;
            let after = match m.remove("after") {
                None => None,
                Some(Value::String(other)) => Some(other),
                Some(_) => {
                    return Err((format!("{at}.after"), "must be the label of another check of this list".into()))
                }
            };
            if let Some(k) = m.keys().next() {
                return Err((format!("{at}.{k}"), "unknown key (a check has label, probe, a test and after)".into()));
            }
            out.push((Check { label, probe, test, after: None }, after));
        }
        // `after` names an earlier or later check of the same list by its label; never itself,
        // and not in a loop.
        let labels: Vec<String> = out.iter().map(|(c, _)| c.label.clone()).collect();
        let mut checks = Vec::with_capacity(out.len());
        for (i, (mut check, after)) in out.into_iter().enumerate() {
            if let Some(other) = after {
                let found = labels.iter().position(|l| *l == other && !l.is_empty());
                match found {
                    Some(j) if j != i => check.after = Some(j),
                    _ => {
                        return Err((
                            format!("{key}[{i}].after"),
                            format!("\"{other}\" is not the label of another check of \"{key}\""),
                        ))
                    }
                }
            }
            checks.push(check);
        }
        for start in 0..checks.len() {
            let (mut at, mut hops) = (start, 0);
            while let Some(next) = checks[at].after {
                (at, hops) = (next, hops + 1);
                if hops > checks.len() {
                    return Err((format!("{key}[{start}].after"), "the checks' \"after\" go round in a loop".into()));
                }
            }
        }
        Ok(checks)
    }
}

fn run_step(f: &mut Fields) -> Result<StepKind, FieldError> {
    let run = f.steps("run", true)?;
    if run.is_empty() {
        return Err(("run".into(), "must have at least one scenario step".into()));
    }
    let facts = if f.map.contains_key("facts") { f.checks("facts", false)? } else { Vec::new() };
    Ok(StepKind::Run { run, facts })
}

fn prediction(f: &mut Fields) -> Result<Prediction, FieldError> {
    let question = f.text("question")?;
    let answer = match f.map.remove("answer") {
        None => AnswerMode::Choice,
        Some(Value::String(s)) if s == "choice" => AnswerMode::Choice,
        Some(Value::String(s)) if s == "number" => AnswerMode::Number,
        Some(_) => return Err(("answer".into(), "must be \"choice\" or \"number\"".into())),
    };
    let run = f.steps("run", true)?;
    if run.is_empty() {
        return Err(("run".into(), "must have at least one scenario step: what runs after the learner commits".into()));
    }
    if !f.map.contains_key("probe") {
        return Err((
            "probe".into(),
            "is missing: a prediction needs a probe, the engine value that decides the answer".into(),
        ));
    }
    let probe = f.probe("probe")?;
    let items = f.list("choices")?;
    if items.len() < 2 {
        return Err(("choices".into(), "must list at least two answers".into()));
    }
    let mut choices: Vec<Choice> = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let choice = parse_choice(item).map_err(|(field, m)| (format!("choices[{i}]{field}"), m))?;
        if choices.iter().any(|c| c.id == choice.id) {
            return Err((format!("choices[{i}].id"), format!("\"{}\" is used twice", choice.id)));
        }
        choices.push(choice);
    }
    let right = match f.map.remove("right") {
        Some(Value::String(r)) => r,
        _ => return Err(("right".into(), "must be the id of the choice you believe right".into())),
    };
    if !choices.iter().any(|c| c.id == right) {
        let ids: Vec<&str> = choices.iter().map(|c| c.id.as_str()).collect();
        return Err(("right".into(), format!("\"{right}\" is not among the choices ({})", ids.join(", "))));
    }
    let reveal = f.text("reveal")?;
    let facts = if f.map.contains_key("facts") { f.checks("facts", false)? } else { Vec::new() };
    Ok(Prediction { question, answer, run, probe, choices, right, reveal, facts })
}

fn parse_choice(item: Value) -> Result<Choice, FieldError> {
    let Value::Object(mut m) = item else { return Err((String::new(), "must be an object".into())) };
    let id = match m.remove("id") {
        Some(Value::String(s)) if valid_id(&s) => s,
        _ => return Err((".id".into(), "must be a short id: lowercase letters, digits and hyphens".into())),
    };
    let label = text_field(&mut m, "label").map_err(|e| (".label".into(), e))?;
    let why = text_field(&mut m, "why").map_err(|e| (".why".into(), e))?;
    let test = Test::take(&mut m).map_err(|e| (String::new(), e))?;
    if let Some(k) = m.keys().next() {
        let known = ["id", "label", "why"].iter().chain(TEST_KEYS).copied().collect::<Vec<_>>().join(", ");
        return Err((format!(".{k}"), format!("unknown key (a choice has {known})")));
    }
    Ok(Choice { id, label, test, why })
}

fn checkpoint(f: &mut Fields) -> Result<Checkpoint, FieldError> {
    let goals = f.checks("goals", true)?;
    if goals.is_empty() {
        return Err(("goals".into(), "must list at least one goal".into()));
    }
    if let Some(i) = goals.iter().position(|g| g.probe.reads_response()) {
        return Err((
            format!("goals[{i}].probe"),
            "a goal cannot read a response: the learner's actions have none the lesson sees".into(),
        ));
    }
    let hint = f.text("hint")?;
    let hint_after_s = match f.map.remove("hint_after").and_then(|v| v.as_u64()) {
        Some(s @ 5..=600) => s as u32,
        _ => return Err(("hint_after".into(), "must be the seconds before the hint shows, from 5 to 600".into())),
    };
    let solution = f.steps("solution", false)?;
    if solution.is_empty() {
        return Err(("solution".into(), "must have at least one scenario step (what \"show me\" does)".into()));
    }
    let done = f.text("done")?;
    let controls = match f.map.remove("controls") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let text = v.as_str().ok_or_else(|| {
                    (format!("controls[{i}]"), "must be a string such as \"retention:sms-dlq\"".to_string())
                })?;
                super::Reach::parse(text).map_err(|e| (format!("controls[{i}]"), e))
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(("controls".into(), "must be a list such as [\"add-worker:packing\"]".into())),
    };
    Ok(Checkpoint { goals, hint, hint_after_s, solution, done, controls })
}

fn remember(f: &mut Fields) -> Result<StepKind, FieldError> {
    let raw_lines = f.list("lines")?;
    if raw_lines.is_empty() || raw_lines.len() > MAX_REMEMBER_LINES {
        return Err(("lines".into(), format!("must hold 1 to {MAX_REMEMBER_LINES} lines (one screen)")));
    }
    let mut lines = Vec::with_capacity(raw_lines.len());
    for (i, line) in raw_lines.into_iter().enumerate() {
        let Value::String(s) = line else { return Err((format!("lines[{i}]"), "must be text".into())) };
        markup::check(&s).map_err(|e| (format!("lines[{i}]"), e))?;
        lines.push(s);
    }
    let read = doc_links(f, "read")?;
    Ok(StepKind::Remember { lines, read })
}

/// A list of AWS documentation pages, `[{"title", "url"}]`: at least one, each under [`DOCS`].
pub(crate) fn doc_links(f: &mut Fields, key: &str) -> Result<Vec<DocLink>, FieldError> {
    let raw_links = f.list(key)?;
    if raw_links.is_empty() {
        return Err((key.into(), "must list at least one AWS documentation page".into()));
    }
    let mut read = Vec::with_capacity(raw_links.len());
    for (i, link) in raw_links.into_iter().enumerate() {
        let at = format!("{key}[{i}]");
        let Value::Object(mut m) = link else { return Err((at, "must be {\"title\", \"url\"}".into())) };
        let title = text_field(&mut m, "title").map_err(|e| (format!("{at}.title"), e))?;
        let url = match m.remove("url") {
            Some(Value::String(u)) if u.starts_with(DOCS) && !u.contains(char::is_whitespace) => u,
            _ => return Err((format!("{at}.url"), format!("must be an AWS documentation address ({DOCS}…)"))),
        };
        if let Some(k) = m.keys().next() {
            return Err((format!("{at}.{k}"), "unknown key (a link has title and url)".into()));
        }
        read.push(DocLink { title, url });
    }
    Ok(read)
}

/// A required, checked text.
pub(crate) fn text_field(map: &mut Map<String, Value>, key: &str) -> Result<String, String> {
    match map.remove(key) {
        Some(Value::String(s)) => markup::check(&s).map(|_| s),
        Some(_) => Err("must be text".into()),
        None => Err("is missing".into()),
    }
}

/// One `remember` step, last; a prediction within the first two steps; at least one checkpoint.
fn check_shape(steps: &[LessonStep]) -> Result<(), LessonError> {
    let last = steps.len();
    let remembers: Vec<usize> =
        steps.iter().enumerate().filter(|(_, s)| matches!(s.kind, StepKind::Remember { .. })).map(|(i, _)| i).collect();
    if remembers != [last.wrapping_sub(1)] {
        return Err(top("steps", "a lesson ends with one \"remember\" step, and has no other"));
    }
    if !steps.iter().take(2).any(|s| matches!(s.kind, StepKind::Predict(_))) {
        return Err(top("steps", "a prediction comes early: one of the first two steps must be a \"predict\" step"));
    }
    if !steps.iter().any(|s| matches!(s.kind, StepKind::Checkpoint(_))) {
        return Err(top("steps", "a lesson needs at least one \"checkpoint\" step, where the learner acts"));
    }
    Ok(())
}

/// The top-level keys of a JSON object, without building its values; `None` when it is not one.
pub(crate) fn top_level_keys(text: &str) -> Option<Vec<String>> {
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Option<Vec<String>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut keys = Vec::new();
            while let Some(k) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                keys.push(k);
            }
            Ok(Some(keys))
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(Keys).ok().flatten()
}
