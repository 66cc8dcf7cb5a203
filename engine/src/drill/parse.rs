//! Reading a drill file: every key known, every text checked, the world parsed as a scenario,
//! the goal's checks parsed as a lesson's, every stored fix made of action steps the drill lets a
//! learner make. Errors name the field as a JSON path (`goal[1].within`, lists from 0).

use super::controls::{self, Allowed};
use super::{Debrief, Drill, DrillError, Fix, Goal, Page, View, When};
use crate::lesson::parse::{doc_links, saved_names, start, text_field, valid_id, FieldError, Fields};
use crate::scenario::Step;
use crate::time::{format_duration, parse_duration, SimTime, HORIZON};
use serde_json::{Map, Value};

const TOP_KEYS: &[&str] = &[
    "drill",
    "title",
    "summary",
    "minutes",
    "page",
    "world",
    "may_change",
    "window",
    "goal",
    "hints",
    "debrief",
    "wrong_fixes",
];
const PAGE_KEYS: &[&str] = &["from", "report", "at", "look_at"];
const DEBRIEF_KEYS: &[&str] = &["cause", "rule", "read", "fix", "also_right"];
const MAX_HINTS: usize = 5;

fn at(field: impl Into<String>, message: impl Into<String>) -> DrillError {
    DrillError { field: field.into(), message: message.into() }
}

/// A field error under `prefix` (`debrief` + `fix[0]` → `debrief.fix[0]`).
fn under(prefix: &str) -> impl Fn(FieldError) -> DrillError + '_ {
    move |(field, message)| at(if field.is_empty() { prefix.to_string() } else { format!("{prefix}.{field}") }, message)
}

fn top(e: FieldError) -> DrillError {
    at(e.0, e.1)
}

pub(super) fn drill(text: &str, builtins: &[(&str, &str)]) -> Result<Drill, DrillError> {
    let value: Value = serde_json::from_str(text).map_err(|e| at("", format!("not valid JSON: {e}")))?;
    let Value::Object(map) = value else { return Err(at("", "a drill must be a JSON object")) };
    if let Some(k) = map.keys().find(|k| !TOP_KEYS.contains(&k.as_str())) {
        return Err(at(k.clone(), format!("unknown key (a drill has {})", TOP_KEYS.join(", "))));
    }
    let id = match map.get("drill") {
        Some(Value::String(s)) if valid_id(s) => s.clone(),
        _ => return Err(at("drill", "must be the drill's id: 1 to 60 lowercase letters, digits and hyphens")),
    };
    let mut map = map;
    map.remove("drill");
    let (world_id, world) = start(map.remove("world"), builtins).map_err(|e| at("world", e.message))?;
    let mut saved = saved_names(&world.steps);
    let mut f = Fields { map, saved: &mut saved };
    let title = f.text("title").map_err(top)?;
    let summary = f.text("summary").map_err(top)?;
    if summary.contains('\n') {
        return Err(at("summary", "must be one line"));
    }
    let minutes = match f.map.remove("minutes").and_then(|v| v.as_u64()) {
        Some(m @ 1..=60) => m as u32,
        _ => return Err(at("minutes", "must be a whole number of minutes from 1 to 60")),
    };
    let world_end = world.steps.iter().fold(0u64, |t, s| match s {
        Step::Advance { ms, .. } => t.saturating_add(*ms),
        Step::Action { .. } => t,
    });
    let page = page(f.map.remove("page"), SimTime(world_end))?;
    let may_change = may_change(f.map.remove("may_change"))?;
    let window_ms = match f.map.remove("window") {
        Some(Value::String(w)) => parse_duration(&w).map_err(|e| at("window", e))?,
        _ => {
            return Err(at("window", "must be a duration such as \"30m\": how long after the fix the goal is watched"))
        }
    };
    if window_ms == 0 {
        return Err(at("window", "must be longer than 0ms"));
    }
    if page.at.0.saturating_add(window_ms) > HORIZON.0 {
        return Err(at(
            "window",
            format!(
                "the page at {} plus a window of {} passes the 30 days of virtual time a story may cover",
                format_duration(page.at.0),
                format_duration(window_ms)
            ),
        ));
    }
    let goal = goals(&mut f, window_ms)?;
    let hints = hints(&mut f)?;
    let debrief = debrief(f.map.remove("debrief"), f.saved, &may_change)?;
    let wrong_fixes = match f.map.remove("wrong_fixes") {
        Some(Value::Array(items)) if !items.is_empty() => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| labelled_fix(item, f.saved, &may_change, &format!("wrong_fixes[{i}]"), true))
            .collect::<Result<Vec<_>, _>>()?,
        _ => {
            return Err(at(
                "wrong_fixes",
                "must list at least one plausible wrong fix: {\"label\", \"why\", \"fix\": [...]}",
            ))
        }
    };
    Ok(Drill {
        id,
        title,
        summary,
        minutes,
        page,
        world_id,
        world,
        may_change,
        window_ms,
        goal,
        hints,
        debrief,
        wrong_fixes,
    })
}

fn page(value: Option<Value>, world_end: SimTime) -> Result<Page, DrillError> {
    let Some(Value::Object(mut m)) = value else {
        return Err(at("page", "must be {\"from\", \"report\", \"at\", \"look_at\"}: the incident report"));
    };
    if let Some(k) = m.keys().find(|k| !PAGE_KEYS.contains(&k.as_str())) {
        return Err(at(format!("page.{k}"), format!("unknown key (a page has {})", PAGE_KEYS.join(", "))));
    }
    let from = text_field(&mut m, "from").map_err(|e| at("page.from", e))?;
    let report = text_field(&mut m, "report").map_err(|e| at("page.report", e))?;
    let when = match m.remove("at") {
        Some(Value::String(t)) => SimTime(parse_duration(&t).map_err(|e| at("page.at", e))?),
        _ => return Err(at("page.at", "must be a duration such as \"10m\": when the page arrives")),
    };
    if when < world_end {
        return Err(at(
            "page.at",
            format!(
                "{} is before the world's own steps end ({}): the page arrives once the world is built",
                format_duration(when.0),
                format_duration(world_end.0)
            ),
        ));
    }
    if when > HORIZON {
        return Err(at("page.at", "must be within the 30 days of virtual time a story may cover"));
    }
    let names = || View::ALL.iter().map(|(t, _)| *t).collect::<Vec<_>>().join(", ");
    let look_at = match m.remove("look_at") {
        Some(Value::Array(items)) if !items.is_empty() => {
            let mut views: Vec<View> = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let found = item.as_str().and_then(|s| View::ALL.iter().find(|(t, _)| *t == s));
                let Some((_, view)) = found else {
                    return Err(at(format!("page.look_at[{i}]"), format!("must be one of {}", names())));
                };
                if views.contains(view) {
                    return Err(at(format!("page.look_at[{i}]"), format!("\"{}\" is listed twice", view.as_str())));
                }
                views.push(*view);
            }
            views
        }
        _ => return Err(at("page.look_at", format!("must list what the learner may look at: some of {}", names()))),
    };
    Ok(Page { from, report, at: when, look_at })
}

fn may_change(value: Option<Value>) -> Result<Vec<Allowed>, DrillError> {
    let Some(Value::Array(items)) = value else {
        return Err(at(
            "may_change",
            "must list the controls the learner may use, such as [\"SetQueueAttributes:VisibilityTimeout\"]",
        ));
    };
    if items.is_empty() {
        return Err(at(
            "may_change",
            "must list at least one control: a drill the learner cannot change is not a drill",
        ));
    }
    let mut out: Vec<Allowed> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let field = format!("may_change[{i}]");
        let text = item.as_str().ok_or_else(|| at(&field, "must be a string such as \"UpdateWorker:Idempotency\""))?;
        let allowed = Allowed::parse(text).map_err(|e| at(&field, e))?;
        if out.contains(&allowed) {
            return Err(at(&field, format!("\"{text}\" is listed twice")));
        }
        out.push(allowed);
    }
    Ok(out)
}

/// The goal: lesson checks (label required, no `after`), each with `within` or `from`.
fn goals(f: &mut Fields, window_ms: u64) -> Result<Vec<Goal>, DrillError> {
    let items = match f.map.remove("goal") {
        Some(Value::Array(items)) if !items.is_empty() => items,
        _ => return Err(at("goal", "must list at least one check: {\"label\", \"probe\", a test}")),
    };
    let mut whens = Vec::with_capacity(items.len());
    let mut plain = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let Value::Object(mut m) = item else { return Err(at(format!("goal[{i}]"), "must be an object")) };
        if m.contains_key("after") {
            return Err(at(
                format!("goal[{i}].after"),
                "a drill's goal is watched over a window: say when it must hold with \"within\" or \"from\"",
            ));
        }
        let mark = |m: &mut Map<String, Value>, key: &str| -> Result<Option<u64>, DrillError> {
            match m.remove(key) {
                None => Ok(None),
                Some(Value::String(d)) => {
                    let ms = parse_duration(&d).map_err(|e| at(format!("goal[{i}].{key}"), e))?;
                    if ms > window_ms {
                        return Err(at(
                            format!("goal[{i}].{key}"),
                            format!("{d} is longer than the window ({})", format_duration(window_ms)),
                        ));
                    }
                    Ok(Some(ms))
                }
                Some(_) => Err(at(format!("goal[{i}].{key}"), "must be a duration such as \"2m\"")),
            }
        };
        let when = match (mark(&mut m, "within")?, mark(&mut m, "from")?) {
            (None, None) => When::AtEnd,
            (Some(w), None) => When::Within(w),
            (None, Some(s)) => When::From(s),
            (Some(_), Some(_)) => {
                return Err(at(format!("goal[{i}]"), "takes \"within\" or \"from\", not both"));
            }
        };
        whens.push(when);
        plain.push(Value::Object(m));
    }
    f.map.insert("goal".into(), Value::Array(plain));
    let checks = f.checks("goal", true).map_err(|e| {
        match e.1.strip_prefix("unknown key (a check has label, probe, a test and after)") {
            Some(_) => at(e.0, "unknown key (a goal has label, probe, a test, and within or from)"),
            None => top(e),
        }
    })?;
    if let Some(i) = checks.iter().position(|c| c.probe.reads_response()) {
        return Err(at(
            format!("goal[{i}].probe"),
            "a goal cannot read a response: the learner's changes have none the drill sees",
        ));
    }
    Ok(checks.into_iter().zip(whens).map(|(check, when)| Goal { check, when }).collect())
}

fn hints(f: &mut Fields) -> Result<Vec<String>, DrillError> {
    let items = f.list("hints").map_err(top)?;
    if items.is_empty() || items.len() > MAX_HINTS {
        return Err(at("hints", format!("must hold 1 to {MAX_HINTS} hints, the gentlest first")));
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let Value::String(s) = item else { return Err(at(format!("hints[{i}]"), "must be text")) };
        crate::lesson::markup::check(&s).map_err(|e| at(format!("hints[{i}]"), e))?;
        out.push(s);
    }
    Ok(out)
}

fn debrief(value: Option<Value>, saved: &mut Vec<String>, allowed: &[Allowed]) -> Result<Debrief, DrillError> {
    let Some(Value::Object(m)) = value else {
        return Err(at(
            "debrief",
            "must be {\"cause\", \"rule\", \"read\", \"fix\"}: what the learner reads at the end",
        ));
    };
    if let Some(k) = m.keys().find(|k| !DEBRIEF_KEYS.contains(&k.as_str())) {
        return Err(at(format!("debrief.{k}"), format!("unknown key (a debrief has {})", DEBRIEF_KEYS.join(", "))));
    }
    let mut f = Fields { map: m, saved };
    let cause = f.text("cause").map_err(under("debrief"))?;
    let rule = f.text("rule").map_err(under("debrief"))?;
    let read = doc_links(&mut f, "read").map_err(under("debrief"))?;
    let fix_value =
        f.map.remove("fix").ok_or_else(|| at("debrief.fix", "is missing: the recorded fix, as AWS actions"))?;
    let steps = fix_steps(fix_value, f.saved, allowed, "debrief.fix")?;
    let fix = Fix { label: "the recorded fix".into(), why: String::new(), steps };
    let also_right = match f.map.remove("also_right") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| labelled_fix(item, f.saved, allowed, &format!("debrief.also_right[{i}]"), false))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(at("debrief.also_right", "must be a list of {\"label\", \"fix\"}")),
    };
    Ok(Debrief { cause, rule, read, fix, also_right })
}

/// `{"label", "why", "fix"}` (`why` required for a wrong fix).
fn labelled_fix(
    item: Value,
    saved: &[String],
    allowed: &[Allowed],
    path: &str,
    why_required: bool,
) -> Result<Fix, DrillError> {
    let Value::Object(mut m) = item else { return Err(at(path, "must be {\"label\", \"why\", \"fix\": [...]}")) };
    let label = text_field(&mut m, "label").map_err(|e| at(format!("{path}.label"), e))?;
    let why = match (m.contains_key("why"), why_required) {
        (false, false) => String::new(),
        _ => text_field(&mut m, "why").map_err(|e| at(format!("{path}.why"), e))?,
    };
    let fix_value = m.remove("fix").ok_or_else(|| at(format!("{path}.fix"), "is missing: the fix, as AWS actions"))?;
    if let Some(k) = m.keys().next() {
        return Err(at(format!("{path}.{k}"), "unknown key (a fix has label, why and fix)"));
    }
    let steps = fix_steps(fix_value, saved, allowed, &format!("{path}.fix"))?;
    Ok(Fix { label, why, steps })
}

/// A fix's steps: scenario action steps with no `advance`, `expect` or `save`, each allowed.
fn fix_steps(value: Value, saved: &[String], allowed: &[Allowed], path: &str) -> Result<Vec<Step>, DrillError> {
    let mut names = saved.to_vec();
    let steps = crate::scenario::parse_step_list(value, &mut names).map_err(|e| match e.step {
        Some(n) => at(format!("{path}[{}]", n - 1), e.message),
        None => at(path, e.message),
    })?;
    if steps.is_empty() {
        return Err(at(path, "must hold at least one action"));
    }
    for (i, step) in steps.iter().enumerate() {
        let field = format!("{path}[{i}]");
        let Step::Action { action, params, expect, expect_error, save, .. } = step else {
            return Err(at(field, "a fix is changes made at one moment: it has no \"advance\""));
        };
        if expect.is_some() || expect_error.is_some() || !save.is_empty() {
            return Err(at(field, "a fix step is an action and its params, with no expect, expect_error or save"));
        }
        if crate::actions::find(action).is_none() {
            return Err(at(field, format!("\"{action}\" is not an action (fanout actions lists them)")));
        }
        if let Some(change) = controls::refused(allowed, action, params) {
            return Err(at(field, format!("the fix uses {change}, which this drill does not let a learner change")));
        }
    }
    Ok(steps)
}
