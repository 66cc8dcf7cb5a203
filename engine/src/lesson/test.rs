//! What a probe's value is checked against: `{"is": V}`, `{"is_not": V}`, or a range
//! `{"min": a, "max": b}` (either bound may be left out; both inclusive). The same three shapes
//! serve a run step's facts, a checkpoint's goals and a prediction's choices.
//!
//! Values compare loosely where AWS and JSON disagree on spelling: a number equals the decimal
//! string of the same whole number (`2` is `"2"`, as `GetQueueAttributes` writes counts), and a
//! range reads a whole number, a string holding one, or the length of a list. Lesson values are
//! whole numbers, strings, booleans, null, lists and objects; no fractions, so no float is ever
//! compared.

use serde_json::{Map, Value};

/// A test of one value.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    Is(Value),
    IsNot(Value),
    Between { min: Option<i64>, max: Option<i64> },
}

/// The keys a test is written with.
pub(crate) const TEST_KEYS: &[&str] = &["is", "is_not", "min", "max"];

impl Test {
    /// Reads the test keys of `map` (and removes them). `at` names the object for errors.
    pub(crate) fn take(map: &mut Map<String, Value>) -> Result<Test, String> {
        let is = map.remove("is");
        let is_not = map.remove("is_not");
        let min = map.remove("min").map(|v| whole("min", &v)).transpose()?;
        let max = map.remove("max").map(|v| whole("max", &v)).transpose()?;
        let range = min.is_some() || max.is_some();
        match (is, is_not, range) {
            (Some(v), None, false) => plain_value("is", v).map(Test::Is),
            (None, Some(v), false) => plain_value("is_not", v).map(Test::IsNot),
            (None, None, true) => match (min, max) {
                (Some(a), Some(b)) if a > b => Err(format!("\"min\" {a} is above \"max\" {b}")),
                _ => Ok(Test::Between { min, max }),
            },
            (None, None, false) => Err("needs a test: \"is\", \"is_not\", or \"min\" and/or \"max\"".into()),
            _ => Err("takes one test: \"is\", \"is_not\", or a range with \"min\" and/or \"max\"".into()),
        }
    }

    /// Whether `value` passes.
    pub fn passes(&self, value: &Value) -> bool {
        match self {
            Test::Is(want) => same(want, value),
            Test::IsNot(want) => !same(want, value),
            Test::Between { min, max } => {
                number_of(value).is_some_and(|n| min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m))
            }
        }
    }

    /// "is 2", "is at least 5", "is between 1 and 3".
    pub fn describe(&self) -> String {
        match self {
            Test::Is(v) => format!("is {v}"),
            Test::IsNot(v) => format!("is not {v}"),
            Test::Between { min: Some(a), max: Some(b) } if a == b => format!("is {a}"),
            Test::Between { min: Some(a), max: Some(b) } => format!("is between {a} and {b}"),
            Test::Between { min: Some(a), max: None } => format!("is at least {a}"),
            Test::Between { min: None, max: Some(b) } => format!("is at most {b}"),
            Test::Between { min: None, max: None } => "is anything".into(),
        }
    }
}

fn whole(key: &str, v: &Value) -> Result<i64, String> {
    v.as_i64().ok_or_else(|| format!("\"{key}\" must be a whole number, not {v}"))
}

/// Lesson values hold no fractions: an engine value is never compared as a float.
fn plain_value(key: &str, v: Value) -> Result<Value, String> {
    fn fractional(v: &Value) -> bool {
        match v {
            Value::Number(n) => !(n.is_i64() || n.is_u64()),
            Value::Array(items) => items.iter().any(fractional),
            Value::Object(map) => map.values().any(fractional),
            _ => false,
        }
    }
    if fractional(&v) {
        return Err(format!(
            "\"{key}\" must hold whole numbers only (write 99.5% as the text \"99.50%\" or in parts per million)"
        ));
    }
    Ok(v)
}

/// A whole number from a number, a string holding one, or a list's length.
pub fn number_of(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        Value::Array(items) => i64::try_from(items.len()).ok(),
        _ => None,
    }
}

/// Loose equality: JSON equality, except that a whole number equals the string of its digits.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::String(s)) | (Value::String(s), Value::Number(x)) => {
            x.as_i64().is_some_and(|n| s.trim().parse::<i64>() == Ok(n))
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn test(v: Value) -> Result<Test, String> {
        let Value::Object(mut m) = v else { unreachable!() };
        Test::take(&mut m)
    }

    #[test]
    fn counts_written_as_aws_strings_equal_numbers_and_ranges_read_them() {
        assert!(test(json!({"is": 2})).unwrap().passes(&json!("2")));
        assert!(!test(json!({"is": 2})).unwrap().passes(&json!("2.5")));
        assert!(test(json!({"is_not": ["msg-1", "msg-2"]})).unwrap().passes(&json!(["msg-2", "msg-1"])));
        let range = test(json!({"min": 800, "max": 900})).unwrap();
        assert!(range.passes(&json!(830)) && range.passes(&json!("830")) && !range.passes(&json!(799)));
        assert!(test(json!({"min": 1})).unwrap().passes(&json!(["msg-1"])), "a list's length");
        assert!(!range.passes(&json!(null)));
        assert_eq!(range.describe(), "is between 800 and 900");
    }

    #[test]
    fn a_test_is_one_of_three_shapes_with_whole_numbers() {
        assert!(test(json!({})).unwrap_err().contains("needs a test"));
        assert!(test(json!({"is": 1, "min": 0})).unwrap_err().contains("one test"));
        assert!(test(json!({"min": 5, "max": 1})).unwrap_err().contains("above"));
        assert!(test(json!({"min": 0.5})).unwrap_err().contains("whole number"));
        assert!(test(json!({"is": 99.5})).unwrap_err().contains("whole numbers only"));
    }
}
