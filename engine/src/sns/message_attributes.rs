//! SNS's own checks of a Publish's `MessageAttributes`, as AWS answers them (recorded: LocalStack's
//! AWS-validated `test_empty_or_wrong_message_attributes`, 2024-11, and
//! `test_message_attributes_prefixes`). SNS docs, "Amazon SNS message attributes": a name has
//! letters, digits, `-`, `_` and `.`, neither starts nor ends with a period and has no two in a
//! row, and is at most 256 bytes; the data type is `String`, `Number` or `Binary`, optionally
//! followed by a period and a custom type (`String.Array`, `Number.float`).
//!
//! The errors are `ParameterValueInvalid`, but a missing `DataType`, which the request model
//! refuses before SNS looks: `ValidationError`. The checks SQS shares (a reserved prefix, a
//! `Number` that is not a number) run after these, and answer `ParameterValueInvalid` too.

use crate::error::ApiError;
use serde_json::Value;

fn refused(message: String) -> ApiError {
    ApiError::new("ParameterValueInvalid", message)
}

/// Checks the raw `MessageAttributes` of a Publish (`entry`: the 1-based position of a
/// PublishBatch entry, which AWS's missing-`DataType` message names).
pub(super) fn check(raw: Option<&Value>, entry: Option<usize>) -> Result<(), ApiError> {
    let Some(Value::Object(map)) = raw else { return Ok(()) };
    for (name, attr) in map {
        check_name(name)?;
        let Some(attr) = attr.as_object() else { continue };
        let Some(data_type) = attr.get("DataType").and_then(Value::as_str) else {
            let at = match entry {
                Some(n) => format!("publishBatchRequestEntries.{n}.member.messageAttributes.{name}.member.dataType"),
                None => format!("messageAttributes.{name}.member.dataType"),
            };
            return Err(ApiError::new(
                "ValidationError",
                format!("1 validation error detected: Value null at '{at}' failed to satisfy constraint: Member must not be null"),
            ));
        };
        let base = ["String", "Number", "Binary"]
            .into_iter()
            .find(|b| data_type == *b || data_type.strip_prefix(b).is_some_and(|r| r.len() > 1 && r.starts_with('.')));
        let Some(base) = base else {
            return Err(refused(format!(
                "The message attribute '{name}' has an invalid message attribute type, the set of supported type prefixes is Binary, Number, and String."
            )));
        };
        let empty = || {
            refused(format!(
                "The message attribute '{name}' must contain non-empty message attribute value for message attribute type '{data_type}'."
            ))
        };
        let (field, other) = if base == "Binary" { ("Binary", "StringValue") } else { ("String", "BinaryValue") };
        match attr.get(&format!("{field}Value")) {
            Some(Value::String(v)) if !v.is_empty() => {}
            Some(_) => return Err(empty()),
            None if attr.contains_key(other) => {
                return Err(refused(format!(
                    "The message attribute '{name}' with type '{data_type}' must use field '{field}'."
                )))
            }
            None => return Err(empty()),
        }
    }
    Ok(())
}

fn check_name(name: &str) -> Result<(), ApiError> {
    if name.len() > 256 {
        return Err(refused("Length of message attribute name must be less than 256 bytes.".into()));
    }
    if name.is_empty() || name.starts_with('.') {
        return Err(refused("Invalid message attribute name starting with character '.' was found.".into()));
    }
    if name.ends_with('.') {
        return Err(refused("Invalid message attribute name ending with character '.' was found.".into()));
    }
    let mut previous = ' ';
    for c in name.chars() {
        if !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) {
            return Err(refused(format!(
                "Invalid non-alphanumeric character '#x{:X}' was found in the message attribute name. Can only include alphanumeric characters, hyphens, underscores, or dots.",
                u32::from(c)
            )));
        }
        if c == '.' && previous == '.' {
            return Err(refused("Message attribute name can not have successive '.' character.".into()));
        }
        previous = c;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn code(attributes: Value) -> String {
        check(Some(&attributes), None).err().map_or("ok".into(), |e| e.code)
    }

    #[test]
    fn names_and_types_as_aws_answers_them() {
        let value = json!({"DataType": "String", "StringValue": "v"});
        assert_eq!(code(json!({ "a^*?": value })), "ParameterValueInvalid");
        assert_eq!(code(json!({ "a.b-c_d": value })), "ok");
        assert_eq!(code(json!({ "a..b": value })), "ParameterValueInvalid");
        assert_eq!(code(json!({"a": {"DataType": "String.", "StringValue": "v"}})), "ParameterValueInvalid");
        assert_eq!(code(json!({"a": {"DataType": "String.custom", "StringValue": "v"}})), "ok");
        assert_eq!(code(json!({"a": {"DataType": "Stringy", "StringValue": "v"}})), "ParameterValueInvalid");
        assert_eq!(code(json!({"a": {"StringValue": "v"}})), "ValidationError");
        assert_eq!(code(json!({"a": {"DataType": "String", "StringValue": ""}})), "ParameterValueInvalid");
        assert_eq!(code(json!({"a": {"DataType": "Binary", "BinaryValue": ""}})), "ParameterValueInvalid");
        assert_eq!(code(json!({"a": {"DataType": "Binary", "StringValue": "x"}})), "ParameterValueInvalid");
    }
}
