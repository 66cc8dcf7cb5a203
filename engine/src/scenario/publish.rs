//! A scenario's `publish` section: the events the page can publish with one click.
//!
//! ```json
//! "publish": {"topic": "order-events", "presets": [
//!   {"name": "OrderPlaced", "body": {"event_id": "evt-{{n}}", "order_id": "{{n+4416}}", "occurred_at": "{{now}}"},
//!    "attributes": {"event_type": {"DataType": "String", "StringValue": "OrderPlaced"}}, "group": "{{n+4416}}"}]}
//! ```
//!
//! With `"bus"` instead of `"topic"` the buttons put events on that EventBridge bus (PutEvents):
//! each preset then has a `source`, an optional `detail_type` (its name by default) and a JSON
//! object `body`, the event's `detail`; attributes and groups are SNS's and are refused.
//!
//! ```json
//! "publish": {"bus": "orders", "presets": [
//!   {"name": "OrderPlaced", "source": "shop.checkout", "body": {"order_id": "{{n+4416}}", "total": 120}}]}
//! ```
//!
//! With `"service"` the buttons place orders with a simulated order service (PlaceOrder): each
//! preset has an `order_id` (a placeholder such as `"{{n+5500}}"`, `n` counting the service's
//! orders), may name another `service`, and may arm a `crash` (`AfterSave`, or `AfterPublish`:
//! the outbox relay's) for that order.
//!
//! A preset's strings may hold these placeholders, filled in at each publish: `{{n}}`, the topic's
//! message number (how many messages it has had, plus one; for a bus, how many events it has had); `{{n+K}}`, that number plus the whole
//! number K; `{{now}}`, the virtual time in ISO 8601. In a JSON `body`, a string that is exactly
//! `{{n}}` or `{{n+K}}` becomes a JSON number. The body is sent as compact JSON text with its keys
//! in order; a string `body` is sent as it is written, placeholders filled in.

use crate::sns::parse_publish_attributes;
use crate::time::SimTime;
use crate::vecmap::json_object;
use serde_json::{json, Map, Value};

/// Where the page's publish buttons send.
#[derive(Clone, Debug, PartialEq)]
pub enum PublishTarget {
    /// An SNS topic, by name or ARN: each button is a Publish.
    Topic(String),
    /// An EventBridge event bus, by name or ARN: each button is a PutEvents of one entry.
    Bus(String),
    /// A simulated order service (the outbox's): each button is a PlaceOrder.
    Service(String),
}

/// What the page's publish buttons send.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishPresets {
    pub target: PublishTarget,
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
    /// For a bus: the event's `source` and `detail-type` (the preset's name when not given).
    pub source: Option<String>,
    pub detail_type: Option<String>,
    /// For an order service: the service (the section's unless given), the order id template,
    /// and the crash to arm.
    pub service: Option<String>,
    pub order_id: Option<String>,
    pub crash: Option<String>,
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

    /// The PutEvents parameters for event number `n` on `bus` at `now`: one entry, its
    /// `Detail` the body as compact JSON.
    pub fn put_events_params(&self, bus: &str, n: u64, now: SimTime) -> Value {
        let fill = Fill { n, now };
        let detail_type = self.detail_type.as_deref().map_or_else(|| self.name.clone(), |d| fill.text(d));
        let source = self.source.as_deref().map(|s| fill.text(s)).unwrap_or_default();
        let detail = fill.json(&self.body).to_string();
        json!({"Entries": [{"EventBusName": bus, "Source": source, "DetailType": detail_type, "Detail": detail}]})
    }
}

impl PublishPreset {
    /// The PlaceOrder parameters for order number `n` of `service` (the section's, unless the
    /// preset names its own).
    pub fn place_order_params(&self, service: &str, n: u64) -> Value {
        let fill = Fill { n, now: SimTime::ZERO };
        let order_id = self.order_id.as_deref().map(|t| fill.json(&Value::String(t.to_string()))).unwrap_or(json!(n));
        let mut params = json!({"ServiceName": self.service.as_deref().unwrap_or(service), "OrderId": order_id});
        if let Some(c) = &self.crash {
            params["Crash"] = json!(c);
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

const SECTION_KEYS: &[&str] = &["topic", "bus", "service", "presets"];
const PRESET_KEYS: &[&str] =
    &["name", "label", "body", "attributes", "group", "source", "detail_type", "service", "order_id", "crash"];

/// Reads and checks the `publish` section; errors start with where (`publish.presets[2] (name)`).
pub(crate) fn parse(value: Value) -> Result<PublishPresets, String> {
    let Value::Object(mut map) = value else {
        return Err("\"publish\" must be an object such as {\"topic\": \"order-events\", \"presets\": [...]}".into());
    };
    if let Some(k) = map.keys().find(|k| !SECTION_KEYS.contains(&k.as_str())) {
        return Err(format!("publish: unknown key \"{k}\" (it has {})", SECTION_KEYS.join(", ")));
    }
    let named = |v: Option<Value>| match v {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s)),
        Some(_) => Err(()),
        None => Ok(None),
    };
    let target = match (named(map.remove("topic")), named(map.remove("bus")), named(map.remove("service"))) {
        (Ok(Some(s)), Ok(None), Ok(None)) => PublishTarget::Topic(s),
        (Ok(None), Ok(Some(s)), Ok(None)) => PublishTarget::Bus(s),
        (Ok(None), Ok(None), Ok(Some(s))) => PublishTarget::Service(s),
        (_, Err(()), _) => return Err("publish.bus must be the name or ARN of the event bus to put events on".into()),
        (_, _, Err(())) => return Err("publish.service must be the name of an order service".into()),
        (Ok(Some(_)), _, _) | (_, Ok(Some(_)), Ok(Some(_))) => {
            return Err("publish: give one of \"topic\", \"bus\" and \"service\"".into())
        }
        _ => return Err("publish.topic must be the name or ARN of the topic to publish to".into()),
    };
    let Some(Value::Array(raw)) = map.remove("presets") else {
        return Err("publish.presets must be a list of presets".into());
    };
    if raw.is_empty() {
        return Err("publish.presets must have at least one preset".into());
    }
    let mut presets: Vec<PublishPreset> = Vec::new();
    for (i, p) in raw.into_iter().enumerate() {
        let preset = parse_preset(p, &target).map_err(|(name, e)| match name {
            Some(name) => format!("publish.presets[{i}] ({name}): {e}"),
            None => format!("publish.presets[{i}]: {e}"),
        })?;
        if presets.iter().any(|p| p.name == preset.name) {
            return Err(format!("publish.presets[{i}]: the name \"{}\" is used twice", preset.name));
        }
        presets.push(preset);
    }
    Ok(PublishPresets { target, presets })
}

type PresetError = (Option<String>, String);

fn parse_preset(value: Value, target: &PublishTarget) -> Result<PublishPreset, PresetError> {
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
        // An order service writes its own event.
        None if matches!(target, PublishTarget::Service(_)) => Value::Null,
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
    let (source, detail_type, service, order_id, crash) = {
        let mut text = |key: &str| match map.remove(key) {
            None => Ok(None),
            Some(Value::String(s)) if !s.trim().is_empty() => {
                check_templates(&Value::String(s.clone()), key)?;
                Ok(Some(s))
            }
            Some(_) => Err(format!("\"{key}\" must be a non-empty string")),
        };
        let (source, detail_type) = (text("source").map_err(fail)?, text("detail_type").map_err(fail)?);
        let (service, order_id, crash) =
            (text("service").map_err(fail)?, text("order_id").map_err(fail)?, text("crash").map_err(fail)?);
        (source, detail_type, service, order_id, crash)
    };
    let order_only = service.is_some() || order_id.is_some() || crash.is_some();
    if order_only && !matches!(target, PublishTarget::Service(_)) {
        return Err(fail("\"service\", \"order_id\" and \"crash\" are for an order service's presets".into()));
    }
    match target {
        PublishTarget::Topic(topic) => {
            if topic.ends_with(".fifo") && group.is_none() {
                return Err(fail("a FIFO topic needs \"group\" in every preset (its MessageGroupId)".into()));
            }
            if source.is_some() || detail_type.is_some() {
                return Err(fail("\"source\" and \"detail_type\" are for a bus; a topic publishes a body".into()));
            }
        }
        PublishTarget::Service(_) => {
            if !body.is_null() || attributes.is_some() || group.is_some() || source.is_some() || detail_type.is_some() {
                return Err(fail(
                    "an order service writes its own event: give \"order_id\" and \"crash\", not a body".into(),
                ));
            }
            if order_id.is_none() {
                return Err(fail("an order needs an \"order_id\" (such as \"{{n+5500}}\")".into()));
            }
            if let Some(c) = crash.as_deref().filter(|c| !["AfterSave", "AfterPublish"].contains(c)) {
                return Err(fail(format!("\"crash\" \"{c}\" is not one of AfterSave, AfterPublish")));
            }
        }
        PublishTarget::Bus(_) => {
            if attributes.is_some() || group.is_some() {
                return Err(fail(
                    "a bus takes no \"attributes\" or \"group\": EventBridge matches the event's own fields".into(),
                ));
            }
            if source.is_none() {
                return Err(fail("an event on a bus needs a \"source\" (such as \"shop.checkout\")".into()));
            }
            if !body.is_object() {
                return Err(fail("on a bus \"body\" must be a JSON object: the event's detail".into()));
            }
        }
    }
    let preset = PublishPreset {
        name: name.clone(),
        label,
        body,
        attributes,
        group,
        source,
        detail_type,
        service,
        order_id,
        crash,
    };
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
        // SNS's answer to a missing DataType names the request field `dataType` (AWS, recorded).
        assert!(e.starts_with("publish.presets[0] (A): \"attributes\": ") && e.contains("dataType"), "{e}");
        let e = parse(json!({"topic": "t", "presets": [{"name": "A", "body": "x"}, {"name": "A", "body": "y"}]}));
        assert_eq!(e.unwrap_err(), "publish.presets[1]: the name \"A\" is used twice");
        let e = parse(json!({"topic": "t.fifo", "presets": [{"name": "A", "body": "x"}]})).unwrap_err();
        assert!(e.contains("FIFO topic needs \"group\""), "{e}");
        assert!(parse(json!({"topic": "t", "presets": []})).unwrap_err().contains("at least one"));
        assert!(parse(json!({"presets": []})).unwrap_err().starts_with("publish.topic"));
        assert!(parse(json!({"topic": "t", "presets": [], "extra": 1})).unwrap_err().contains("unknown key \"extra\""));
    }

    #[test]
    fn a_bus_preset_is_one_put_events_entry() {
        let p = parse(json!({"bus": "orders", "presets": [
            {"name": "OrderPlaced", "source": "shop.checkout", "body": {"order_id": "{{n+4416}}", "at": "{{now}}"}},
            {"name": "Big", "source": "shop", "detail_type": "OrderPlaced", "body": {"total": 900}}]}))
        .unwrap();
        assert_eq!(p.target, PublishTarget::Bus("orders".into()));
        let params = p.presets[0].put_events_params("orders", 1, SimTime(2_000));
        let entry = &params["Entries"][0];
        assert_eq!(entry["EventBusName"], "orders");
        assert_eq!(entry["Source"], "shop.checkout");
        assert_eq!(entry["DetailType"], "OrderPlaced", "the detail-type defaults to the preset's name");
        let detail: Value = serde_json::from_str(entry["Detail"].as_str().unwrap()).unwrap();
        assert_eq!(detail, json!({"order_id": 4417, "at": SimTime(2_000).iso8601()}));
        assert_eq!(
            p.presets[1].put_events_params("orders", 1, SimTime::ZERO)["Entries"][0]["DetailType"],
            "OrderPlaced"
        );
    }

    #[test]
    fn a_bus_preset_refuses_what_sns_has_and_eventbridge_does_not() {
        let bus = |preset: Value| parse(json!({"bus": "b", "presets": [preset]})).unwrap_err();
        let e = bus(json!({"name": "A", "source": "s", "body": {}, "group": "g"}));
        assert!(e.contains("(A): a bus takes no \"attributes\" or \"group\""), "{e}");
        let e = bus(json!({"name": "A", "body": {}}));
        assert!(e.contains("needs a \"source\""), "{e}");
        let e = bus(json!({"name": "A", "source": "s", "body": "text"}));
        assert!(e.contains("must be a JSON object"), "{e}");
        let e = one(json!({"name": "A", "source": "s", "body": "x"})).unwrap_err();
        assert!(e.contains("are for a bus"), "{e}");
        let e = parse(json!({"topic": "t", "bus": "b", "presets": []})).unwrap_err();
        assert!(e.contains("one of \"topic\", \"bus\" and \"service\""), "{e}");
    }

    #[test]
    fn a_service_preset_places_an_order_and_may_arm_a_crash() {
        let p = parse(json!({"service": "shop-dualwrite", "presets": [
            {"name": "Place", "order_id": "{{n+4400}}"},
            {"name": "Relay", "service": "shop-outbox", "order_id": "{{n+5500}}", "crash": "AfterPublish"}]}))
        .unwrap();
        assert_eq!(p.target, PublishTarget::Service("shop-dualwrite".into()));
        assert_eq!(
            p.presets[0].place_order_params("shop-dualwrite", 2),
            json!({"ServiceName": "shop-dualwrite", "OrderId": 4402})
        );
        assert_eq!(
            p.presets[1].place_order_params("shop-dualwrite", 1),
            json!({"ServiceName": "shop-outbox", "OrderId": 5501, "Crash": "AfterPublish"}),
            "a preset's own service"
        );
        let service = |preset: Value| parse(json!({"service": "s", "presets": [preset]})).unwrap_err();
        assert!(service(json!({"name": "A"})).contains("needs an \"order_id\""));
        assert!(service(json!({"name": "A", "order_id": "{{n}}", "body": "x"})).contains("not a body"));
        assert!(service(json!({"name": "A", "order_id": "{{n}}", "crash": "Soon"}))
            .contains("\"crash\" \"Soon\" is not one of"));
        assert!(one(json!({"name": "A", "body": "x", "crash": "AfterSave"}))
            .unwrap_err()
            .contains("for an order service"));
    }
}
