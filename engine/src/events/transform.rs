//! What a target receives: the event (the default), a constant `Input`, the part of the event an
//! `InputPath` selects, or an `InputTransformer` (`InputPathsMap` + `InputTemplate`).
//!
//! From the API reference (Target, InputTransformer) and the user guide ("Amazon EventBridge input
//! transformation"):
//! * `Input` is "Valid JSON text passed to the target" (at most 8192 characters); `InputPath` a
//!   JSON path (at most 256); only one of the three may be given.
//! * `InputPathsMap`: "You can have as many as 100 key-value pairs", keys `[A-Za-z0-9\_\-]+` not
//!   starting with `AWS.`, values JSON paths (dots and `[index]`); `InputTemplate` 1–8192
//!   characters, placeholders written `<name>`, and "The placeholder cannot be used as an object
//!   key".
//! * Reserved variables: `aws.events.rule-arn`, `aws.events.rule-name`,
//!   `aws.events.event.ingestion-time`, `aws.events.event` (the event without `detail`) and
//!   `aws.events.event.json` (the whole event).
//! * Quoting, from the guide's examples: a string value outside a JSON string literal is
//!   inserted as a JSON string (`"instance": <instance>` gives `"instance": "i-0123456789"`);
//!   inside a string literal it is inserted as it is ("EventBridge doesn't escape values
//!   extracted by Input Path"), so `"instance <instance> is in <state>"` gives
//!   `"instance i-0123456789 is in RUNNING"`. Numbers, booleans, objects and arrays are inserted
//!   as JSON. A template that is not JSON (no leading `{`, `[` or `"`) gets every value as it is.
//! * "If you specify a variable to match a JSON path that doesn't exist in the event, that
//!   variable isn't created and won't appear in the output": chosen here, it becomes nothing
//!   inside a string and `null` in a JSON value position (so the output stays JSON). A
//!   placeholder naming no variable is left as written.

use super::validation;
use crate::error::ApiResult;
use serde_json::{Map, Value};

#[derive(Clone, Debug)]
pub(crate) enum Input {
    /// The matched event, as it is.
    Event,
    Constant(String),
    Path(JsonPath),
    Transformer {
        paths: Vec<(String, JsonPath)>,
        template: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// A JSON path of the form `$`, `$.detail.state`, `$.resources[0]`, `$['detail-type']`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JsonPath {
    steps: Vec<Step>,
}

impl JsonPath {
    pub(crate) fn parse(text: &str) -> Result<JsonPath, String> {
        let bad = || format!("\"{text}\" is not a JSON path (write $.detail.field or $.resources[0])");
        let mut rest = text.strip_prefix('$').ok_or_else(bad)?;
        let mut steps = Vec::new();
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('.') {
                let end = after.find(['.', '[']).unwrap_or(after.len());
                if end == 0 {
                    return Err(bad());
                }
                steps.push(Step::Key(after[..end].to_string()));
                rest = &after[end..];
            } else if let Some(after) = rest.strip_prefix("['") {
                let end = after.find("']").ok_or_else(bad)?;
                steps.push(Step::Key(after[..end].to_string()));
                rest = &after[end + 2..];
            } else if let Some(after) = rest.strip_prefix('[') {
                let end = after.find(']').ok_or_else(bad)?;
                let index = after[..end].parse::<usize>().map_err(|_| bad())?;
                steps.push(Step::Index(index));
                rest = &after[end + 1..];
            } else {
                return Err(bad());
            }
        }
        Ok(JsonPath { steps })
    }

    pub(crate) fn select<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.steps.iter().try_fold(value, |v, step| match step {
            Step::Key(k) => v.get(k),
            Step::Index(i) => v.get(*i),
        })
    }
}

/// What the reserved variables stand for, for one delivery.
pub(crate) struct Context<'a> {
    pub(crate) event: &'a Value,
    pub(crate) event_text: &'a str,
    pub(crate) rule_arn: &'a str,
    pub(crate) rule_name: &'a str,
    pub(crate) ingestion_time: &'a str,
}

const MAX_INPUT: usize = 8192;
const MAX_PATH: usize = 256;
const MAX_PATHS: usize = 100;

/// Reads `Input`, `InputPath` and `InputTransformer` of a target (`target` names it in errors).
pub(crate) fn parse(target: &str, raw: &Map<String, Value>) -> ApiResult<Input> {
    let given: Vec<&str> = ["Input", "InputPath", "InputTransformer"]
        .into_iter()
        .filter(|k| raw.get(*k).is_some_and(|v| !v.is_null()))
        .collect();
    if given.len() > 1 {
        return Err(validation(format!(
            "Target {target}: only one of Input, InputPath, or InputTransformer must be provided (got {}).",
            given.join(", ")
        )));
    }
    let text = |key: &str| raw.get(key).and_then(Value::as_str);
    match given.first().copied() {
        None => Ok(Input::Event),
        Some("Input") => {
            let input = text("Input")
                .ok_or_else(|| validation(format!("Target {target}: Input must be a string of JSON text.")))?;
            if input.len() > MAX_INPUT || serde_json::from_str::<Value>(input).is_err() {
                return Err(validation(format!(
                    "Target {target}: Input must be valid JSON text of at most {MAX_INPUT} characters."
                )));
            }
            Ok(Input::Constant(input.to_string()))
        }
        Some("InputPath") => {
            let path =
                text("InputPath").ok_or_else(|| validation(format!("Target {target}: InputPath must be a string.")))?;
            if path.len() > MAX_PATH {
                return Err(validation(format!("Target {target}: InputPath is at most {MAX_PATH} characters.")));
            }
            Ok(Input::Path(JsonPath::parse(path).map_err(|e| validation(format!("Target {target}: InputPath {e}.")))?))
        }
        _ => transformer(target, raw.get("InputTransformer").unwrap_or(&Value::Null)),
    }
}

fn transformer(target: &str, raw: &Value) -> ApiResult<Input> {
    let bad = |why: String| validation(format!("Target {target}: InputTransformer: {why}"));
    let Value::Object(map) = raw else {
        return Err(bad("it is an object with InputTemplate and InputPathsMap.".into()));
    };
    if let Some(k) = map.keys().find(|k| !matches!(k.as_str(), "InputTemplate" | "InputPathsMap")) {
        return Err(bad(format!("unknown field {k} (it takes InputPathsMap and InputTemplate).")));
    }
    let template =
        map.get("InputTemplate").and_then(Value::as_str).ok_or_else(|| bad("InputTemplate is required.".into()))?;
    if template.is_empty() || template.len() > MAX_INPUT {
        return Err(bad(format!("InputTemplate must be 1 to {MAX_INPUT} characters.")));
    }
    let mut paths = Vec::new();
    match map.get("InputPathsMap") {
        None | Some(Value::Null) => {}
        Some(Value::Object(entries)) => {
            if entries.len() > MAX_PATHS {
                return Err(bad(format!("InputPathsMap has {} entries; at most {MAX_PATHS}.", entries.len())));
            }
            for (key, path) in entries {
                let key_ok =
                    !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
                if !key_ok || key.to_ascii_uppercase().starts_with("AWS.") {
                    return Err(bad(format!(
                        "the key \"{key}\" is not valid (letters, digits, _ and -; not starting with AWS.)."
                    )));
                }
                let path = path.as_str().filter(|p| p.len() <= MAX_PATH).ok_or_else(|| {
                    bad(format!("the path of {key} must be a string of at most {MAX_PATH} characters."))
                })?;
                paths.push((key.clone(), JsonPath::parse(path).map_err(&bad)?));
            }
        }
        Some(_) => return Err(bad("InputPathsMap is an object of JSON paths.".into())),
    }
    if matches!(template.trim_start().chars().next(), Some('{' | '[')) {
        // Check the JSON shape with every variable standing in as null (or nothing in a string).
        let names: Vec<String> = paths.iter().map(|(k, _)| k.clone()).collect();
        let probe = render(template, &|name| {
            names.iter().any(|n| n == name).then_some(Value::Null).or_else(|| reserved_probe(name))
        });
        if serde_json::from_str::<Value>(&probe).is_err() {
            return Err(bad("InputTemplate is not valid JSON once its placeholders are filled (a placeholder cannot be an object key).".into()));
        }
    }
    Ok(Input::Transformer { paths, template: template.to_string() })
}

fn reserved_probe(name: &str) -> Option<Value> {
    RESERVED.contains(&name).then_some(Value::Null)
}

const RESERVED: [&str; 5] = [
    "aws.events.rule-arn",
    "aws.events.rule-name",
    "aws.events.event.ingestion-time",
    "aws.events.event",
    "aws.events.event.json",
];

fn reserved(name: &str, ctx: &Context) -> Option<Value> {
    Some(match name {
        "aws.events.rule-arn" => Value::String(ctx.rule_arn.into()),
        "aws.events.rule-name" => Value::String(ctx.rule_name.into()),
        "aws.events.event.ingestion-time" => Value::String(ctx.ingestion_time.into()),
        "aws.events.event" => {
            let mut without = ctx.event.clone();
            if let Value::Object(m) = &mut without {
                m.remove("detail");
            }
            without
        }
        "aws.events.event.json" => ctx.event.clone(),
        _ => return None,
    })
}

impl Input {
    /// The text the target receives for this event.
    pub(crate) fn render(&self, ctx: &Context) -> String {
        match self {
            Input::Event => ctx.event_text.to_string(),
            Input::Constant(text) => text.clone(),
            Input::Path(path) => path.select(ctx.event).map_or_else(|| "null".to_string(), Value::to_string),
            Input::Transformer { paths, template } => {
                render(template, &|name: &str| match paths.iter().find(|(k, _)| k == name) {
                    Some((_, path)) => Some(path.select(ctx.event).cloned().unwrap_or(Value::Null)),
                    None => reserved(name, ctx),
                })
            }
        }
    }
}

/// Fills `<name>` placeholders with `lookup(name)`; `None` leaves the placeholder as written. A
/// `null` from a path that found nothing is nothing inside a string.
fn render(template: &str, lookup: &dyn Fn(&str) -> Option<Value>) -> String {
    let json_mode = matches!(template.trim_start().chars().next(), Some('{' | '[' | '"'));
    let mut out = String::with_capacity(template.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = template;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            if let Some(end) = rest.find('>') {
                let name = &rest[1..end];
                if let Some(value) = (!name.is_empty() && !name.contains('<')).then(|| lookup(name)).flatten() {
                    out.push_str(&insert(&value, json_mode && !in_string, in_string));
                    rest = &rest[end + 1..];
                    escaped = false;
                    continue;
                }
            }
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' && json_mode {
            in_string = true;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn insert(value: &Value, as_json: bool, in_string: bool) -> String {
    match value {
        Value::String(s) if as_json => Value::String(s.clone()).to_string(),
        Value::String(s) => s.clone(),
        Value::Null if in_string => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The user guide's example event and InputPathsMap ("Input Transform Examples").
    fn guide(template: &str) -> String {
        let event = json!({"version": "0", "id": "7bf73129-1428-4cd3-a780-95db273d1602",
            "detail-type": "EC2 Instance State-change Notification", "source": "aws.ec2",
            "account": "123456789012", "time": "2015-11-11T21:29:54Z", "region": "us-east-1",
            "resources": ["arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111"],
            "detail": {"instance-id": "i-0123456789", "state": "RUNNING"}});
        let raw = json!({"InputTransformer": {"InputPathsMap": {"timestamp": "$.time", "instance": "$.detail.instance-id",
            "state": "$.detail.state", "resource": "$.resources[0]"}, "InputTemplate": template}});
        let input = parse("t1", raw.as_object().unwrap()).unwrap_or_else(|e| panic!("{template}: {e}"));
        let text = event.to_string();
        let ctx = Context {
            event: &event,
            event_text: &text,
            rule_arn: "arn:aws:events:us-east-2:123456789012:rule/example",
            rule_name: "example",
            ingestion_time: "2015-11-11T21:29:55Z",
        };
        input.render(&ctx)
    }

    #[test]
    fn the_guides_input_transform_examples() {
        assert_eq!(guide(r#""instance <instance> is in <state>""#), r#""instance i-0123456789 is in RUNNING""#);
        assert_eq!(guide(r#""instance \"<instance>\" is in <state>""#), r#""instance \"i-0123456789\" is in RUNNING""#);
        assert_eq!(
            guide(r#"{"instance" : <instance>, "state": <state>}"#),
            r#"{"instance" : "i-0123456789", "state": "RUNNING"}"#
        );
        assert_eq!(
            guide(
                r#"{"instance" : <instance>, "state": "<state>", "instanceStatus": "instance \"<instance>\" is in <state>"}"#
            ),
            r#"{"instance" : "i-0123456789", "state": "RUNNING", "instanceStatus": "instance \"i-0123456789\" is in RUNNING"}"#
        );
        assert_eq!(
            guide(r#"{"instance" : <instance>, "state": [ 9, <state>, true ], "Transformed" : "Yes"}"#),
            r#"{"instance" : "i-0123456789", "state": [ 9, "RUNNING", true ], "Transformed" : "Yes"}"#
        );
        assert_eq!(
            guide(r#"{"ruleArn" : <aws.events.rule-arn>, "ruleName" : <aws.events.rule-name>}"#),
            r#"{"ruleArn" : "arn:aws:events:us-east-2:123456789012:rule/example", "ruleName" : "example"}"#
        );
        assert_eq!(guide(r#""<aws.events.rule-name> triggered""#), r#""example triggered""#);
        let original: Value = serde_json::from_str(&guide(r#"{"originalEvent" : <aws.events.event.json>}"#)).unwrap();
        assert_eq!(original["originalEvent"]["detail"]["state"], "RUNNING");
        let without: Value = serde_json::from_str(&guide(r#"{"e" : <aws.events.event>}"#)).unwrap();
        assert!(without["e"].get("detail").is_none() && without["e"]["source"] == "aws.ec2");
        assert_eq!(
            guide("<resource> at <timestamp>"),
            "arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111 at 2015-11-11T21:29:54Z"
        );
    }

    #[test]
    fn invalid_transformers_are_refused() {
        let refuse = |raw: Value| parse("t1", raw.as_object().unwrap()).unwrap_err().code;
        assert_eq!(refuse(json!({"Input": "{", "InputPath": "$"})), "ValidationException");
        assert_eq!(refuse(json!({"Input": "not json"})), "ValidationException");
        assert_eq!(refuse(json!({"InputPath": "detail"})), "ValidationException");
        assert_eq!(refuse(json!({"InputTransformer": {"InputPathsMap": {"a": "$.x"}}})), "ValidationException");
        assert_eq!(
            refuse(json!({"InputTransformer": {"InputPathsMap": {"AWS.x": "$.x"}, "InputTemplate": "<AWS.x>"}})),
            "ValidationException"
        );
        assert_eq!(
            refuse(json!({"InputTransformer": {"InputPathsMap": {"k": "$.x"}, "InputTemplate": "{<k>: 1}"}})),
            "ValidationException"
        );
        let many: Map<String, Value> = (0..101).map(|i| (format!("k{i}"), json!("$.x"))).collect();
        assert_eq!(
            refuse(json!({"InputTransformer": {"InputPathsMap": many, "InputTemplate": "\"x\""}})),
            "ValidationException"
        );
    }

    #[test]
    fn paths_select_and_missing_values_vanish() {
        let p = JsonPath::parse("$.resources[0]").unwrap();
        assert_eq!(p.select(&json!({"resources": ["a", "b"]})), Some(&json!("a")));
        assert_eq!(
            JsonPath::parse("$['detail-type']").unwrap().select(&json!({"detail-type": "x"})),
            Some(&json!("x"))
        );
        assert!(JsonPath::parse("$.").is_err() && JsonPath::parse("$[x]").is_err());
        let out =
            render(r#"{"a": <gone>, "b": "x<gone>y", "c": <unknown>}"#, &|n| (n == "gone").then_some(Value::Null));
        assert_eq!(out, r#"{"a": null, "b": "xy", "c": <unknown>}"#);
    }
}
