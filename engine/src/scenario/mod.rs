//! Scenario files: `{"name", "description", "seed", "steps": [...]}`, where a step is
//! `{"advance": "1.5s"}` or `{"action": "<AWS action>", "params": {...}, "expect": {...},
//! "expect_error": {...}, "save": {"name": "Dotted.0.Path"}}`. A later string parameter may
//! use `${name}`. Parsing checks the whole file first; running never panics.

mod expect;

pub use expect::{contains, resolve_path};

use crate::error::ApiError;
use crate::event::Event;
use crate::sim::Sim;
use crate::time::parse_duration;
use crate::vecmap::VecMap;
use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub seed: u64,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Advance {
        ms: u64,
        text: String,
    },
    Action {
        action: String,
        params: Value,
        expect: Option<Value>,
        expect_error: Option<Value>,
        save: Vec<(String, String)>,
    },
}

/// A scenario file that cannot be run, with where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// 1-based step number, when the problem is in a step.
    pub step: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.step {
            Some(n) => write!(f, "step {n}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

fn err(step: Option<usize>, message: impl Into<String>) -> ScenarioError {
    ScenarioError { step, message: message.into() }
}

const TOP_KEYS: &[&str] = &["name", "description", "seed", "steps"];
const STEP_KEYS: &[&str] = &["action", "params", "expect", "expect_error", "save", "advance", "note"];

impl Scenario {
    /// Parses and checks a scenario. JSON syntax errors give line and column.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let value: Value = serde_json::from_str(text).map_err(|e| err(None, format!("not valid JSON: {e}")))?;
        let Value::Object(top) = value else { return Err(err(None, "a scenario must be a JSON object")) };
        if let Some(k) = top.keys().find(|k| !TOP_KEYS.contains(&k.as_str())) {
            return Err(err(None, format!("unknown key \"{k}\" (a scenario has {})", TOP_KEYS.join(", "))));
        }
        let name = match top.get("name") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
            _ => return Err(err(None, "\"name\" must be a non-empty string")),
        };
        let description = match top.get("description") {
            None => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(err(None, "\"description\" must be a string")),
        };
        let seed = match top.get("seed") {
            None => 0,
            Some(v) => v.as_u64().ok_or_else(|| err(None, "\"seed\" must be a whole number from 0 to 2^64-1"))?,
        };
        let Some(Value::Array(raw_steps)) = top.get("steps") else {
            return Err(err(None, "\"steps\" must be a list"));
        };
        let mut steps = Vec::new();
        let mut saved: Vec<String> = Vec::new();
        for (i, raw) in raw_steps.iter().enumerate() {
            let step = parse_step(raw).map_err(|m| err(Some(i + 1), m))?;
            if let Step::Action { params, save, .. } = &step {
                check_placeholders(params, &saved).map_err(|m| err(Some(i + 1), m))?;
                saved.extend(save.iter().map(|(n, _)| n.clone()));
            }
            steps.push(step);
        }
        Ok(Scenario { name, description, seed, steps })
    }
}

fn parse_step(raw: &Value) -> Result<Step, String> {
    let Value::Object(map) = raw else { return Err("a step must be a JSON object".into()) };
    if let Some(k) = map.keys().find(|k| !STEP_KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown key \"{k}\" (a step has advance, or action with params, expect, expect_error, save)"
        ));
    }
    match (map.get("advance"), map.get("action")) {
        (Some(_), Some(_)) => Err("a step has either \"advance\" or \"action\", not both".into()),
        (Some(Value::String(text)), None) => {
            if map.keys().any(|k| k != "advance" && k != "note") {
                return Err("an advance step takes only \"advance\"".into());
            }
            let ms = parse_duration(text)?;
            Ok(Step::Advance { ms, text: text.clone() })
        }
        (Some(_), None) => Err("\"advance\" must be a duration string such as \"1.5s\"".into()),
        (None, Some(Value::String(action))) => {
            let params = match map.get("params") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(p @ Value::Object(_)) => p.clone(),
                Some(_) => return Err("\"params\" must be an object".into()),
            };
            let expect = map.get("expect").cloned();
            let expect_error = map.get("expect_error").cloned();
            if expect.is_some() && expect_error.is_some() {
                return Err("a step has \"expect\" or \"expect_error\", not both".into());
            }
            if let Some(e) = &expect_error {
                if !e.is_object() {
                    return Err("\"expect_error\" must be an object such as {\"Code\": \"QueueDoesNotExist\"}".into());
                }
            }
            let save = match map.get("save") {
                None => Vec::new(),
                Some(Value::Object(s)) => s
                    .iter()
                    .map(|(k, v)| match v {
                        Value::String(path) if valid_name(k) => Ok((k.clone(), path.clone())),
                        Value::String(_) => Err(format!("save name \"{k}\" must be letters, digits and underscores")),
                        _ => Err(format!(
                            "save \"{k}\" must be a dotted path string such as \"Messages.0.ReceiptHandle\""
                        )),
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => return Err("\"save\" must be an object of name: path".into()),
            };
            if !save.is_empty() && expect_error.is_some() {
                return Err("a step that expects an error has no response to save from".into());
            }
            Ok(Step::Action { action: action.clone(), params, expect, expect_error, save })
        }
        (None, Some(_)) => Err("\"action\" must be a string such as \"Publish\"".into()),
        (None, None) => Err("a step needs \"action\" or \"advance\"".into()),
    }
}

fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every `${name}` must refer to a value saved by an earlier step.
fn check_placeholders(value: &Value, saved: &[String]) -> Result<(), String> {
    match value {
        Value::String(s) => {
            for name in placeholders(s)? {
                if !saved.iter().any(|n| n == name) {
                    return Err(format!("\"${{{name}}}\" is not saved by any earlier step"));
                }
            }
            Ok(())
        }
        Value::Array(items) => items.iter().try_for_each(|v| check_placeholders(v, saved)),
        Value::Object(map) => map.values().try_for_each(|v| check_placeholders(v, saved)),
        _ => Ok(()),
    }
}

fn placeholders(text: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let end = after.find('}').ok_or_else(|| format!("\"{text}\" has a \"${{\" without a closing \"}}\""))?;
        out.push(&after[..end]);
        rest = &after[end + 1..];
    }
    Ok(out)
}

pub(crate) fn substitute(value: &Value, vars: &VecMap<String, String>) -> Value {
    match value {
        Value::String(s) if s.contains("${") => {
            let mut out = s.clone();
            for (k, v) in vars {
                out = out.replace(&format!("${{{k}}}"), v);
            }
            Value::String(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| substitute(v, vars)).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), substitute(v, vars))).collect()),
        other => other.clone(),
    }
}

/// What one step did.
#[derive(Clone, Debug, PartialEq)]
pub struct StepOutcome {
    /// 1-based.
    pub step: usize,
    pub label: String,
    pub result: Option<Result<Value, ApiError>>,
    /// `None` when the step had no expectation; `Some(diffs)` otherwise (empty = passed).
    pub check: Option<Vec<String>>,
    /// Events the step produced, as indexes into the log.
    pub events: std::ops::Range<usize>,
}

/// A scenario run to its end.
pub struct Run {
    pub sim: Sim,
    pub outcomes: Vec<StepOutcome>,
    /// A problem that stopped the run (a `save` path that does not resolve).
    pub stopped: Option<ScenarioError>,
}

impl Run {
    pub fn events(&self) -> &[Event] {
        self.sim.events()
    }

    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.check.as_ref().is_some_and(Vec::is_empty)).count()
    }

    pub fn failed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.check.as_ref().is_some_and(|d| !d.is_empty())).count()
            + usize::from(self.stopped.is_some())
    }
}

impl Scenario {
    /// Runs every step on a fresh simulation seeded from the scenario.
    pub fn run(&self) -> Run {
        let mut sim = Sim::new(self.seed);
        let mut outcomes = Vec::new();
        let mut vars = VecMap::new();
        for (i, step) in self.steps.iter().enumerate() {
            let first = sim.events().len();
            let mut outcome = match step {
                Step::Advance { ms, text } => {
                    sim.advance_by(*ms);
                    StepOutcome {
                        step: i + 1,
                        label: format!("advance {text}"),
                        result: None,
                        check: None,
                        events: 0..0,
                    }
                }
                Step::Action { action, params, expect, expect_error, save } => {
                    let result = sim.apply(action, &substitute(params, &vars));
                    let check = check_result(&result, expect.as_ref(), expect_error.as_ref());
                    if let Ok(response) = &result {
                        for (name, path) in save {
                            match resolve_path(response, path) {
                                Ok(Value::String(s)) => vars.insert(name.clone(), s.clone()),
                                Ok(other) => vars.insert(name.clone(), other.to_string()),
                                Err(why) => {
                                    let stopped = Some(err(Some(i + 1), format!("save \"{name}\": {why}")));
                                    return Run { sim, outcomes, stopped };
                                }
                            };
                        }
                    }
                    StepOutcome { step: i + 1, label: action.clone(), result: Some(result), check, events: 0..0 }
                }
            };
            outcome.events = first..sim.events().len();
            outcomes.push(outcome);
        }
        Run { sim, outcomes, stopped: None }
    }
}

fn check_result(
    result: &Result<Value, ApiError>,
    expect: Option<&Value>,
    expect_error: Option<&Value>,
) -> Option<Vec<String>> {
    match (result, expect, expect_error) {
        (_, None, None) => None,
        (Ok(response), Some(expected), _) => Some(contains(expected, response, "")),
        (Err(e), Some(_), _) => Some(vec![format!("expected success, got error {}: {}", e.code, e.message)]),
        (Err(e), None, Some(expected)) => {
            let actual = serde_json::to_value(e).unwrap_or(Value::Null);
            Some(contains(expected, &actual, ""))
        }
        (Ok(response), None, Some(_)) => {
            Some(vec![format!("expected an error, but the action succeeded with {response}")])
        }
    }
}
