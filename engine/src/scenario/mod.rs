//! Scenario files: `{"name", "description", "seed", "steps": [...], "publish": {...},
//! "workers": {...}, "embed": {...}}`, where a step is `{"advance": "1.5s"}` or `{"action": "<AWS action>",
//! "params": {...}, "expect": {...}, "expect_error": {...}, "save": {"name": "Dotted.0.Path"}}`
//! (either may carry a `"note"`). A later string parameter may use `${name}`. The advances may
//! take the clock to [`HORIZON`](crate::time::HORIZON) (30 days) at most. `publish` holds the
//! page's one-click events ([`publish`]), `workers` the workers its "+ Worker" adds
//! ([`workers`]) and `embed` what its compact embed says and offers ([`embed`]). Parsing checks the whole file first; running ([`Scenario::run`], the one
//! pipeline of `fanout test` and the page) never panics.

pub mod embed;
mod expect;
pub mod publish;
mod raw;
mod run;
mod template;
pub mod workers;

pub use embed::{EmbedHint, Press};
pub use expect::{contains, resolve_path};
pub use publish::{PublishPreset, PublishPresets, PublishTarget};
pub(crate) use run::run_steps;
pub use run::{Run, RunOptions, StepOutcome, Story};
pub(crate) use template::{fill, has_placeholders, Vars};
pub use workers::WorkerRules;

use crate::time::{advance_within_horizon, parse_duration, SimTime};
use raw::{RawScenario, RawStep, RawSteps};
use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub seed: u64,
    pub steps: Vec<Step>,
    /// What the page can publish with one click; `None` when the file has no `publish`.
    pub publish: Option<PublishPresets>,
    /// The workers the page adds to each queue (empty rules: `CreateWorker`'s defaults).
    pub workers: WorkerRules,
    /// The playback speed the page starts at (`"speed": 8` is 8×), in quarters of 1×: 32 is
    /// 8×, 1 is 0.25×. One of the page's speeds, 0.25× to 64×; `None` when the file sets none.
    pub speed_quarters: Option<u64>,
    /// What the scenario's compact embed says and offers besides Play; `None` when the file
    /// has no `embed`.
    pub embed: Option<EmbedHint>,
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
        /// Whether any string in `params` has a `${name}` placeholder, found when the step is
        /// parsed: a step without one is applied as written, with no copy to fill in.
        templated: bool,
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

const TOP_KEYS: &[&str] = &["name", "description", "seed", "speed", "steps", "publish", "workers", "embed"];

impl Scenario {
    /// Parses and checks a scenario. JSON syntax errors give line and column.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let raw: RawScenario = serde_json::from_str(text).map_err(|e| err(None, format!("not valid JSON: {e}")))?;
        let RawScenario::Object { mut top, steps } = raw else {
            return Err(err(None, "a scenario must be a JSON object"));
        };
        if let Some(k) = top.keys().find(|k| !TOP_KEYS.contains(&k.as_str())) {
            return Err(err(None, format!("unknown key \"{k}\" (a scenario has {})", TOP_KEYS.join(", "))));
        }
        let name = match top.remove("name") {
            Some(Value::String(s)) if !s.trim().is_empty() => s,
            _ => return Err(err(None, "\"name\" must be a non-empty string")),
        };
        let description = match top.remove("description") {
            None => String::new(),
            Some(Value::String(s)) => s,
            Some(_) => return Err(err(None, "\"description\" must be a string")),
        };
        let seed = match top.get("seed") {
            None => 0,
            Some(v) => v.as_u64().ok_or_else(|| err(None, "\"seed\" must be a whole number from 0 to 2^64-1"))?,
        };
        let Some(RawSteps::List(raw_steps)) = steps else {
            return Err(err(None, "\"steps\" must be a list"));
        };
        let steps = parse_steps(raw_steps, &mut Vec::new())?;
        let publish = top.remove("publish").map(publish::parse).transpose().map_err(|m| err(None, m))?;
        let workers = match top.remove("workers") {
            None => WorkerRules::default(),
            Some(w) => workers::parse(w, &steps).map_err(|m| err(None, m))?,
        };
        let speed_quarters = top.remove("speed").map(|v| parse_speed(&v)).transpose().map_err(|m| err(None, m))?;
        let names: Vec<&str> = publish.iter().flat_map(|p| p.presets.iter().map(|p| p.name.as_str())).collect();
        let embed = top.remove("embed").map(|v| embed::parse(v, &names)).transpose().map_err(|m| err(None, m))?;
        Ok(Scenario { name, description, seed, steps, publish, workers, speed_quarters, embed })
    }
}

/// The page's speeds, in quarters of 1×: 0.25×, 0.5×, 1× … 64×.
const SPEEDS_QUARTERS: [u64; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/// `"speed"`: a number of virtual seconds per real second, one of the page's speeds.
fn parse_speed(v: &Value) -> Result<u64, String> {
    let bad = || "\"speed\" must be one of 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64 (times real time)".to_string();
    // Four times the value, exactly: the speeds are quarters, so no rounding is involved.
    let quarters = match v {
        Value::Number(n) if n.is_u64() => n.as_u64().and_then(|q| q.checked_mul(4)),
        Value::Number(n) => {
            n.as_f64().filter(|f| (f * 4.0).fract() == 0.0 && *f > 0.0 && *f <= 64.0).map(|f| (f * 4.0) as u64)
        }
        _ => None,
    };
    quarters.filter(|q| SPEEDS_QUARTERS.contains(q)).ok_or_else(bad)
}

/// Parses a list of scenario steps held in a JSON value (a lesson's `run` or `solution`): the
/// same steps as a scenario's, checked the same way. `saved` holds the names saved before the
/// list (by the lesson's scenario and earlier steps); the list's own `save` names are added.
pub(crate) fn parse_step_list(value: Value, saved: &mut Vec<String>) -> Result<Vec<Step>, ScenarioError> {
    match RawSteps::from_value(value) {
        RawSteps::List(raw_steps) => parse_steps(raw_steps, saved),
        RawSteps::NotAList => Err(err(None, "must be a list of scenario steps")),
    }
}

/// Every `${name}` in `value` is a name in `saved` (for a lesson's probe parameters).
pub(crate) fn check_saved_names(value: &Value, saved: &[String]) -> Result<(), String> {
    template::check(value, saved).map(|_| ())
}

/// Checks each step; the `advance` steps of one list may take the clock to
/// [`HORIZON`](crate::time::HORIZON) at most, counting from 0.
fn parse_steps(raw_steps: Vec<RawStep>, saved: &mut Vec<String>) -> Result<Vec<Step>, ScenarioError> {
    let mut steps = Vec::with_capacity(raw_steps.len());
    let mut clock = SimTime::ZERO;
    for (i, raw) in raw_steps.into_iter().enumerate() {
        let mut step = parse_step(raw).map_err(|m| err(Some(i + 1), m))?;
        if let Step::Advance { ms, text } = &step {
            clock =
                advance_within_horizon(clock, *ms).map_err(|m| err(Some(i + 1), format!("advance \"{text}\": {m}")))?;
        }
        if let Step::Action { params, save, templated, .. } = &mut step {
            *templated = template::check(params, saved).map_err(|m| err(Some(i + 1), m))?;
            for (n, _) in save.iter() {
                if !saved.contains(n) {
                    saved.push(n.clone());
                }
            }
        }
        steps.push(step);
    }
    Ok(steps)
}

fn parse_step(mut f: RawStep) -> Result<Step, String> {
    if !f.object {
        return Err("a step must be a JSON object".into());
    }
    if let Some(k) = &f.unknown {
        return Err(format!(
            "unknown key \"{k}\" (a step has advance, or action with params, expect, expect_error, save)"
        ));
    }
    match (f.advance.take(), f.action.take()) {
        (Some(_), Some(_)) => Err("a step has either \"advance\" or \"action\", not both".into()),
        (Some(Value::String(text)), None) => {
            if f.params.is_some() || f.expect.is_some() || f.expect_error.is_some() || f.save.is_some() {
                return Err("an advance step takes only \"advance\"".into());
            }
            let ms = parse_duration(&text)?;
            Ok(Step::Advance { ms, text })
        }
        (Some(_), None) => Err("\"advance\" must be a duration string such as \"1.5s\"".into()),
        (None, Some(Value::String(action))) => parse_action(action, f),
        (None, Some(_)) => Err("\"action\" must be a string such as \"Publish\"".into()),
        (None, None) => Err("a step needs \"action\" or \"advance\"".into()),
    }
}

fn parse_action(action: String, f: RawStep) -> Result<Step, String> {
    let params = match f.params {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(p @ Value::Object(_)) => p,
        Some(_) => return Err("\"params\" must be an object".into()),
    };
    let (expect, expect_error) = (f.expect, f.expect_error);
    if expect.is_some() && expect_error.is_some() {
        return Err("a step has \"expect\" or \"expect_error\", not both".into());
    }
    if expect_error.as_ref().is_some_and(|e| !e.is_object()) {
        return Err("\"expect_error\" must be an object such as {\"Code\": \"QueueDoesNotExist\"}".into());
    }
    let save = match f.save {
        None => Vec::new(),
        Some(Value::Object(s)) => s
            .into_iter()
            .map(|(k, v)| match v {
                Value::String(path) if valid_name(&k) => Ok((k, path)),
                Value::String(_) => Err(format!("save name \"{k}\" must be letters, digits and underscores")),
                _ => Err(format!("save \"{k}\" must be a dotted path string such as \"Messages.0.ReceiptHandle\"")),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("\"save\" must be an object of name: path".into()),
    };
    if !save.is_empty() && expect_error.is_some() {
        return Err("a step that expects an error has no response to save from".into());
    }
    // `templated` is found by `parse_steps`, which knows the names saved before the step.
    Ok(Step::Action { action, params, expect, expect_error, save, templated: false })
}

fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod speed_tests {
    use super::Scenario;

    #[test]
    fn a_scenario_may_set_the_speed_the_page_starts_at() {
        let with = |speed: &str| Scenario::parse(&format!(r#"{{"name": "x", "speed": {speed}, "steps": []}}"#));
        assert_eq!(with("8").unwrap().speed_quarters, Some(32));
        assert_eq!(with("0.25").unwrap().speed_quarters, Some(1));
        assert_eq!(with("64").unwrap().speed_quarters, Some(256));
        for bad in ["3", "0", "128", "0.3", "\"8x\"", "-1"] {
            let e = with(bad).unwrap_err().to_string();
            assert!(e.contains("\"speed\" must be one of"), "{bad}: {e}");
        }
        let none = Scenario::parse(r#"{"name": "x", "steps": []}"#).unwrap();
        assert_eq!(none.speed_quarters, None, "files without it load as before");
    }
}
