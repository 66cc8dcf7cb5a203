//! A scenario's `publish` section: the events the page can publish with one click.
//!
//! ```json
//! "publish": {"topic": "order-events", "presets": [
//!   {"name": "OrderPlaced", "body": {"event_id": "evt-{{n}}", "order_id": "{{n+4416}}", "occurred_at": "{{now}}"},
//!    "attributes": {"event_type": {"DataType": "String", "StringValue": "OrderPlaced"}}, "group": "{{n+4416}}"}]}
//! ```
//!
//! A preset's strings may hold these placeholders, filled in at each publish: `{{n}}`, the topic's
//! message number (how many messages it has had, plus one); `{{n+K}}`, that number plus the whole
//! number K; `{{now}}`, the virtual time in ISO 8601. In a JSON `body`, a string that is exactly
//! `{{n}}` or `{{n+K}}` becomes a JSON number. The body is sent as compact JSON text with its keys
//! in order; a string `body` is sent as it is written, placeholders filled in.

use crate::sns::parse_publish_attributes;
use crate::time::SimTime;
use crate::vecmap::json_object;
use serde_json::{json, Map, Value};

/// What the page's publish buttons send.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishPresets {
    /// The topic to publish to, by name or ARN.
    pub topic: String,
    /// In the order the page offers them; the first is selected at first.
    pub presets: Vec<PublishPreset>,
}

/// One kind of event the page can publish.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishPreset {
    /// Unique within the scenario: what the page's selector and `Playground::publish` use.
    pub name: String,
    /// What the page shows (the name unless the file says otherwise).
    pub label: String,
    /// The message: a string template, or a JSON template sent as compact JSON.
    pub body: Value,
    /// `MessageAttributes` in the Publish shape, placeholders allowed in its strings.
    pub attributes: Option<Value>,
    /// `MessageGroupId` (FIFO topics need one).
    pub group: Option<String>,
}

/// A placeholder: the message number plus an offset, or the current time.
enum Token {
    Number(u64),
    Now,
}

fn token(inner: &str) -> Option<Token> {
    match inner.trim() {
        "now" => Some(Token::Now),
        "n" => Some(Token::Number(0)),
        t => {
            let k = t.strip_prefix('n')?.trim_start().strip_prefix('+')?.trim();
            let digits = !k.is_empty() && k.len() <= 15 && k.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| k.parse().ok().map(Token::Number)).flatten()
        }
    }
}

/// Calls `each` with the text between placeholders and each placeholder, in order.
fn scan<'a>(text: &'a str, mut each: impl FnMut(&'a str, Option<Token>)) -> Result<(), String> {
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let end = after.find("}}").ok_or_else(|| format!("\"{text}\" has a \"{{{{\" without a closing \"}}}}\""))?;
        let t = token(&after[..end]).ok_or_else(|| {
            format!("unknown placeholder \"{{{{{}}}}}\" (use {{{{n}}}}, {{{{n+K}}}} or {{{{now}}}})", &after[..end])
        })?;
        each(&rest[..start], Some(t));
        rest = &after[end + 2..];
    }
    each(rest, None);
    Ok(())
}

/// The values a placeholder stands for at one publish.
struct Fill {
    n: u64,
    now: SimTime,
}

impl Fill {
    fn text(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let filled = scan(text, |plain, t| {
            out.push_str(plain);
            match t {
                Some(Token::Number(k)) => out.push_str(&self.n.saturating_add(k).to_string()),
                Some(Token::Now) => out.push_str(&self.now.iso8601()),
                None => {}
            }
        });
        // Parsing checked every template, so the scan always succeeds here.
        if filled.is_ok() {
            out
        } else {
            text.to_string()
        }
    }

    /// A JSON template: a string that is one numeric placeholder becomes a number.
    fn json(&self, value: &Value) -> Value {
        match value {
            Value::String(s) => match s.strip_prefix("{{").and_then(|r| r.strip_suffix("}}")).and_then(token) {
                Some(Token::Number(k)) => json!(self.n.saturating_add(k)),
                _ => Value::String(self.text(s)),
            },
            Value::Array(items) => Value::Array(items.iter().map(|v| self.json(v)).collect()),
            Value::Object(map) => Value::Object(json_object(map.iter().map(|(k, v)| (k.clone(), self.json(v))))),
            other => other.clone(),
        }
    }

    /// Fills strings only (attribute values stay strings).
    fn strings(&self, value: &Value) -> Value {
        match value {
            Value::String(s) => Value::String(self.text(s)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.strings(v)).collect()),
            Value::Object(map) => Value::Object(json_object(map.iter().map(|(k, v)| (k.clone(), self.strings(v))))),
            other => other.clone(),
        }
    }
}

impl PublishPreset {
    /// The Publish parameters for message number `n` of `topic_arn` at `now`.
    pub fn params(&self, topic_arn: &str, n: u64, now: SimTime) -> Value {
        let fill = Fill { n, now };
        let message = match &self.body {
            Value::String(s) => fill.text(s),
            other => fill.json(other).to_string(),
        };
        let mut params = json!({"TopicArn": topic_arn, "Message": message});
        if let Some(a) = &self.attributes {
            params["MessageAttributes"] = fill.strings(a);
        }
        if let Some(g) = &self.group {
            params["MessageGroupId"] = json!(fill.text(g));
        }
        params
    }
}

impl PublishPresets {
    /// The preset called `name`.
    pub fn get(&self, name: &str) -> Option<&PublishPreset> {
        self.presets.iter().find(|p| p.name == name)
    }
}

/// Every string in `value` holds only known placeholders; the error names the first bad one's path.
fn check_templates(value: &Value, path: &str) -> Result<(), String> {
    match value {
        Value::String(s) => scan(s, |_, _| {}).map_err(|e| format!("{path}: {e}")),
        Value::Array(items) => {
            items.iter().enumerate().try_for_each(|(i, v)| check_templates(v, &format!("{path}.{i}")))
        }
        Value::Object(map) => map.iter().try_for_each(|(k, v)| check_templates(v, &format!("{path}.{k}"))),
        _ => Ok(()),
    }
}

const SECTION_KEYS: &[&str] = &["topic", "presets"];
const PRESET_KEYS: &[&str] = &["name", "label", "body", "attributes", "group"];

/// Reads and checks the `publish` section; errors start with where (`publish.presets[2] (name)`).
pub(crate) fn parse(value: Value) -> Result<PublishPresets, String> {
    let Value::Object(mut map) = value else {
        return Err("\"publish\" must be an object such as {\"topic\": \"order-events\", \"presets\": [...]}".into());
    };
    if let Some(k) = map.keys().find(|k| !SECTION_KEYS.contains(&k.as_str())) {
        return Err(format!("publish: unknown key \"{k}\" (it has {})", SECTION_KEYS.join(", ")));
    }
    let topic = match map.remove("topic") {
        Some(Value::String(s)) if !s.trim().is_empty() => s,
        _ => return Err("publish.topic must be the name or ARN of the topic to publish to".into()),
    };
    let Some(Value::Array(raw)) = map.remove("presets") else {
        return Err("publish.presets must be a list of presets".into());
    };
    if raw.is_empty() {
        return Err("publish.presets must have at least one preset".into());
    }
    let fifo = topic.ends_with(".fifo");
    let mut presets: Vec<PublishPreset> = Vec::new();
    for (i, p) in raw.into_iter().enumerate() {
        let preset = parse_preset(p, fifo).map_err(|(name, e)| match name {
            Some(name) => format!("publish.presets[{i}] ({name}): {e}"),
            None => format!("publish.presets[{i}]: {e}"),
        })?;
        if presets.iter().any(|p| p.name == preset.name) {
            return Err(format!("publish.presets[{i}]: the name \"{}\" is used twice", preset.name));
        }
        presets.push(preset);
    }
    Ok(PublishPresets { topic, presets })
}

type PresetError = (Option<String>, String);

fn parse_preset(value: Value, fifo: bool) -> Result<PublishPreset, PresetError> {
    let Value::Object(mut map) = value else { return Err((None, "a preset must be an object".into())) };
    let name = match map.remove("name") {
        Some(Value::String(s)) if !s.trim().is_empty() => s,
        _ => return Err((None, "\"name\" must be a non-empty string".into())),
    };
    let fail = |e: String| (Some(name.clone()), e);
    if let Some(k) = map.keys().find(|k| !PRESET_KEYS.contains(&k.as_str())) {
        return Err(fail(format!("unknown key \"{k}\" (a preset has {})", PRESET_KEYS.join(", "))));
    }
    let label = match map.remove("label") {
        None => name.clone(),
        Some(Value::String(s)) => s,
        Some(_) => return Err(fail("\"label\" must be a string".into())),
    };
    let body = match map.remove("body") {
        Some(b @ (Value::String(_) | Value::Object(_) | Value::Array(_))) => b,
        _ => return Err(fail("\"body\" must be a string, or a JSON object or list sent as JSON text".into())),
    };
    check_templates(&body, "body").map_err(fail)?;
    let attributes = parse_attributes(&mut map).map_err(fail)?;
    let group = match map.remove("group") {
        None => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        Some(_) => return Err(fail("\"group\" must be a non-empty string (the MessageGroupId)".into())),
    };
    if let Some(g) = &group {
        check_templates(&Value::String(g.clone()), "group").map_err(fail)?;
    }
    if fifo && group.is_none() {
        return Err(fail("a FIFO topic needs \"group\" in every preset (its MessageGroupId)".into()));
    }
    let preset = PublishPreset { name: name.clone(), label, body, attributes, group };
    // The attributes as Publish reads them, filled in for a first message.
    if let Some(attributes) = preset.params("", 1, SimTime::ZERO).get("MessageAttributes") {
        parse_publish_attributes(&json!({"MessageAttributes": attributes}))
            .map_err(|e| fail(format!("\"attributes\": {}", e.message)))?;
    }
    Ok(preset)
}

fn parse_attributes(map: &mut Map<String, Value>) -> Result<Option<Value>, String> {
    match map.remove("attributes") {
        None => Ok(None),
        Some(a @ Value::Object(_)) => {
            check_templates(&a, "attributes")?;
            Ok(Some(a))
        }
        Some(_) => Err(
            "\"attributes\" must be an object in the Publish shape, such as {\"event_type\": {\"DataType\": \"String\", \"StringValue\": \"OrderPlaced\"}}"
                .into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(preset: Value) -> Result<PublishPresets, String> {
        parse(json!({"topic": "t", "presets": [preset]}))
    }

    #[test]
    fn placeholders_fill_in_numbers_text_and_the_time() {
        let p = one(json!({"name": "A", "body": {"id": "evt-{{n}}", "order": "{{n+4416}}", "at": "{{now}}", "k": 1},
            "attributes": {"n": {"DataType": "Number", "StringValue": "{{n}}"}}, "group": "g-{{ n + 2 }}"}))
        .unwrap();
        let params = p.presets[0].params("arn:t", 3, SimTime(1_500));
        let body: Value = serde_json::from_str(params["Message"].as_str().unwrap()).unwrap();
        assert_eq!(body, json!({"id": "evt-3", "order": 4419, "at": SimTime(1_500).iso8601(), "k": 1}));
        assert_eq!(params["MessageAttributes"]["n"]["StringValue"], "3", "attribute values stay strings");
        assert_eq!(params["MessageGroupId"], "g-5");
        assert_eq!(params["TopicArn"], "arn:t");
    }

    #[test]
    fn a_string_body_is_sent_as_written() {
        let p = one(json!({"name": "A", "body": "order {{n}} {not json"})).unwrap();
        assert_eq!(p.presets[0].params("t", 7, SimTime::ZERO)["Message"], "order 7 {not json");
        assert_eq!(p.presets[0].label, "A", "the label defaults to the name");
    }

    #[test]
    fn bad_presets_say_which_preset_and_what() {
        let e = one(json!({"name": "A", "body": {"x": ["{{m}}"]}})).unwrap_err();
        assert!(e.starts_with("publish.presets[0] (A): body.x.0: unknown placeholder \"{{m}}\""), "{e}");
        let e = one(json!({"name": "A", "body": "x", "colour": 1})).unwrap_err();
        assert!(e.contains("(A): unknown key \"colour\""), "{e}");
        let e = one(json!({"body": "x"})).unwrap_err();
        assert_eq!(e, "publish.presets[0]: \"name\" must be a non-empty string");
        let e = one(json!({"name": "A", "body": 5})).unwrap_err();
        assert!(e.contains("\"body\" must be a string"), "{e}");
        let e = one(json!({"name": "A", "body": "x", "attributes": {"a": {"StringValue": "1"}}})).unwrap_err();
        assert!(e.starts_with("publish.presets[0] (A): \"attributes\": ") && e.contains("DataType"), "{e}");
        let e = parse(json!({"topic": "t", "presets": [{"name": "A", "body": "x"}, {"name": "A", "body": "y"}]}));
        assert_eq!(e.unwrap_err(), "publish.presets[1]: the name \"A\" is used twice");
        let e = parse(json!({"topic": "t.fifo", "presets": [{"name": "A", "body": "x"}]})).unwrap_err();
        assert!(e.contains("FIFO topic needs \"group\""), "{e}");
        assert!(parse(json!({"topic": "t", "presets": []})).unwrap_err().contains("at least one"));
        assert!(parse(json!({"presets": []})).unwrap_err().starts_with("publish.topic"));
        assert!(parse(json!({"topic": "t", "presets": [], "extra": 1})).unwrap_err().contains("unknown key \"extra\""));
    }
}
