//! Typed reading of an action's JSON parameters, with the AWS error for each way they can be wrong.
//! Unknown parameter names are refused, so a typo in a scenario is caught rather than ignored.

use crate::attributes::{MessageAttributeValue, MessageAttributes};
use crate::error::{ApiError, ApiResult, Service};
use crate::vecmap::VecMap;
use serde_json::{Map, Value};

static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

pub(crate) struct Params<'a> {
    pub service: Service,
    action: &'a str,
    map: &'a Map<String, Value>,
    allowed: &'a [&'a str],
}

impl<'a> Params<'a> {
    /// Checks that `params` is an object (or absent) naming only `allowed` parameters.
    pub fn new(service: Service, action: &'a str, params: &'a Value, allowed: &'a [&'a str]) -> ApiResult<Self> {
        let map = match params {
            Value::Object(map) => map,
            Value::Null => EMPTY.get_or_init(Map::new),
            other => {
                return Err(
                    service.invalid_value(format!("{action}: params must be a JSON object, not {}", kind_of(other)))
                )
            }
        };
        if let Some(unknown) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(service.invalid_value(format!(
                "{action} has no parameter \"{unknown}\"; it takes {}",
                if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") }
            )));
        }
        Ok(Params { service, action, map, allowed })
    }

    /// The accepted names that were given (not null), in the order the action lists them.
    pub fn given(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.allowed.iter().copied().filter(|name| self.raw(name).is_some())
    }

    pub fn raw(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    fn wrong_type(&self, name: &str, want: &str, got: &Value) -> ApiError {
        self.service.invalid_value(format!("{}: {name} must be {want}, not {}", self.action, kind_of(got)))
    }

    pub fn opt_str(&self, name: &str) -> ApiResult<Option<&'a str>> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.wrong_type(name, "a string", other)),
        }
    }

    pub fn str(&self, name: &str) -> ApiResult<&'a str> {
        self.opt_str(name)?.ok_or_else(|| self.service.missing(name))
    }

    /// An integer given as a JSON number or a numeric string, within `min..=max`.
    pub fn opt_int(&self, name: &str, min: i64, max: i64) -> ApiResult<Option<i64>> {
        let Some(value) = self.raw(name) else { return Ok(None) };
        let parsed = match value {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        };
        match parsed {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            Some(n) => Err(self.service.invalid_value(format!(
                "Value {n} for parameter {name} is invalid. Reason: must be between {min} and {max}."
            ))),
            None => Err(self.wrong_type(name, "an integer", value)),
        }
    }

    pub fn opt_bool(&self, name: &str) -> ApiResult<Option<bool>> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => Ok(Some(true)),
            Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => Ok(Some(false)),
            Some(other) => Err(self.wrong_type(name, "true or false", other)),
        }
    }

    /// A list of strings (`AttributeNames`); a single string is taken as a list of one.
    pub fn str_list(&self, name: &str) -> ApiResult<Vec<&'a str>> {
        match self.raw(name) {
            None => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(vec![s.as_str()]),
            Some(Value::Array(items)) => {
                items.iter().map(|v| v.as_str().ok_or_else(|| self.wrong_type(name, "a list of strings", v))).collect()
            }
            Some(other) => Err(self.wrong_type(name, "a list of strings", other)),
        }
    }

    /// A string-to-string map such as `Attributes`. AWS attribute values are strings; a JSON
    /// number or boolean is accepted and turned into its text, as the AWS CLI does.
    pub fn string_map(&self, name: &str) -> ApiResult<VecMap<String, String>> {
        let Some(value) = self.raw(name) else { return Ok(VecMap::new()) };
        let Value::Object(map) = value else { return Err(self.wrong_type(name, "an object of strings", value)) };
        map.iter()
            .map(|(k, v)| {
                let text = match v {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    // Policies are JSON documents; an object given in place of its text is accepted.
                    Value::Object(_) | Value::Array(_) => v.to_string(),
                    Value::Null => return Err(self.wrong_type(&format!("{name}.{k}"), "a string", v)),
                };
                Ok((k.clone(), text))
            })
            .collect()
    }

    /// A list of objects, such as the `Entries` of a batch action.
    pub fn object_list(&self, name: &str) -> ApiResult<Vec<&'a Value>> {
        match self.raw(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => {
                for item in items {
                    if !item.is_object() {
                        return Err(self.wrong_type(&format!("each of {name}"), "an object", item));
                    }
                }
                Ok(items.iter().collect())
            }
            Some(other) => Err(self.wrong_type(name, "a list of objects", other)),
        }
    }

    /// `MessageAttributes` in the Publish/SendMessage shape, checked for what both services
    /// require: a `DataType` of String, Number, Binary or String.Array (SNS), optionally with a
    /// custom label, and the matching value.
    pub fn message_attributes(&self, name: &str) -> ApiResult<MessageAttributes> {
        let Some(value) = self.raw(name) else { return Ok(MessageAttributes::new()) };
        let Value::Object(map) = value else { return Err(self.wrong_type(name, "an object", value)) };
        let mut out = MessageAttributes::new();
        for (key, v) in map {
            let attr: MessageAttributeValue = serde_json::from_value(v.clone()).map_err(|e| {
                self.service
                    .invalid_value(format!("{name}.{key} must be {{\"DataType\": ..., \"StringValue\": ...}}: {e}"))
            })?;
            check_attribute(self.service, key, &attr)?;
            out.insert(key.clone(), attr);
        }
        Ok(out)
    }
}

fn check_attribute(service: Service, key: &str, attr: &MessageAttributeValue) -> ApiResult<()> {
    let bad = |why: &str| service.invalid_value(format!("The message attribute '{key}' {why}"));
    if key.is_empty() || key.len() > 256 || key.starts_with('.') || key.ends_with('.') || key.contains("..") {
        return Err(bad("has an invalid name: 1-256 characters, not starting or ending with a period."));
    }
    let lowered = key.to_ascii_lowercase();
    if lowered.starts_with("aws.") || lowered.starts_with("amazon.") {
        return Err(bad("uses a reserved prefix (AWS. and Amazon. are reserved)."));
    }
    match attr.base_type() {
        "String" | "Number" | "String.Array" => {
            let Some(text) = attr.string_value.as_deref() else {
                return Err(bad(&format!("must contain a non-empty StringValue for DataType {}.", attr.data_type)));
            };
            if attr.base_type() == "Number" && !is_decimal_number(text) {
                return Err(bad(&format!("has DataType Number but its value \"{text}\" is not a number.")));
            }
            if attr.base_type() == "String.Array" && !matches!(serde_json::from_str::<Value>(text), Ok(Value::Array(_)))
            {
                return Err(bad("has DataType String.Array but its value is not a JSON array."));
            }
            Ok(())
        }
        "Binary" if attr.binary_value.is_some() => Ok(()),
        "Binary" => Err(bad("must contain a BinaryValue for DataType Binary.")),
        other => {
            Err(bad(&format!("has an invalid DataType \"{other}\" (use String, Number, Binary or String.Array).")))
        }
    }
}

/// A decimal number as SQS and SNS accept it: optional sign, digits, optional fraction and exponent.
pub(crate) fn is_decimal_number(text: &str) -> bool {
    let t = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['-', '+']).unwrap_or(e))),
        None => (t, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    (!int.is_empty() || !frac.is_empty())
        && digits(int)
        && digits(frac)
        && exponent.is_none_or(|e| !e.is_empty() && digits(e))
}

pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
