//! `${name}` in a step's string parameters: a value saved by an earlier step's `save`.
//! Parsing checks that every name is saved before it is used; running fills the names in.
//! Both walk the parameters without allocating unless there is something to fill in.

use crate::vecmap::VecMap;
use serde_json::Value;

/// The values saved so far, by name.
pub(crate) type Vars = VecMap<String, String>;

/// Where the next `${` starts in `text`, if anywhere. A plain byte scan: the strings are short,
/// and a searcher costs more to set up than it saves.
fn find_open(text: &str) -> Option<usize> {
    text.as_bytes().windows(2).position(|pair| matches!(pair, [b'$', b'{']))
}

/// Every `${name}` in `value` must be one of `saved`. Returns whether there is any placeholder.
pub(crate) fn check(value: &Value, saved: &[String]) -> Result<bool, String> {
    match value {
        Value::String(s) => check_text(s, saved),
        Value::Array(items) => items.iter().try_fold(false, |any, v| Ok(check(v, saved)? || any)),
        Value::Object(map) => map.values().try_fold(false, |any, v| Ok(check(v, saved)? || any)),
        _ => Ok(false),
    }
}

/// [`check`] for one string: a `${` without its `}` is refused first, then the first name that
/// is not saved.
fn check_text(text: &str, saved: &[String]) -> Result<bool, String> {
    let (mut any, mut unsaved) = (false, None);
    let mut rest = text;
    while let Some(start) = find_open(rest) {
        let after = &rest[start + 2..];
        let end = after.find('}').ok_or_else(|| format!("\"{text}\" has a \"${{\" without a closing \"}}\""))?;
        let name = &after[..end];
        if unsaved.is_none() && !saved.iter().any(|n| n == name) {
            unsaved = Some(name);
        }
        any = true;
        rest = &after[end + 1..];
    }
    match unsaved {
        Some(name) => Err(format!("\"${{{name}}}\" is not saved by any earlier step")),
        None => Ok(any),
    }
}

/// Whether any string in `value` has a `${`.
pub(crate) fn has_placeholders(value: &Value) -> bool {
    match value {
        Value::String(s) => find_open(s).is_some(),
        Value::Array(items) => items.iter().any(has_placeholders),
        Value::Object(map) => map.values().any(has_placeholders),
        _ => false,
    }
}

/// Fills in every `${name}` in `value`'s strings. A name with no saved value stays as written
/// (parsing has already refused names that no earlier step saves).
pub(crate) fn fill(value: &mut Value, vars: &Vars) {
    match value {
        Value::String(s) if find_open(s).is_some() => *s = fill_text(s, vars),
        Value::Array(items) => items.iter_mut().for_each(|v| fill(v, vars)),
        Value::Object(map) => map.values_mut().for_each(|v| fill(v, vars)),
        _ => {}
    }
}

fn fill_text(text: &str, vars: &Vars) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(start) = find_open(rest) {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        out.push_str(&rest[..start]);
        match vars.get(&after[..end]) {
            Some(v) => out.push_str(v),
            None => out.push_str(&rest[start..start + 2 + end + 1]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn vars(pairs: &[(&str, &str)]) -> Vars {
        let mut v = Vars::new();
        for (k, val) in pairs {
            v.insert(k.to_string(), val.to_string());
        }
        v
    }

    #[test]
    fn placeholders_are_filled_anywhere_in_a_string_and_unknown_ones_stay() {
        let mut p = json!({"a": "x-${h}-${h}$", "b": ["${g}", 3, "$ {h}"], "c": "${nope}"});
        fill(&mut p, &vars(&[("h", "1"), ("g", "rh-2-1")]));
        assert_eq!(p, json!({"a": "x-1-1$", "b": ["rh-2-1", 3, "$ {h}"], "c": "${nope}"}));
    }

    #[test]
    fn the_check_names_an_unsaved_placeholder_and_says_whether_there_are_any() {
        let saved = vec!["h".to_string()];
        assert_eq!(check(&json!({"a": ["${h}"]}), &saved), Ok(true));
        assert_eq!(check(&json!({"a": "$5 {h}"}), &saved), Ok(false));
        assert_eq!(check(&json!({"a": "${g}"}), &saved), Err("\"${g}\" is not saved by any earlier step".into()));
        assert!(check(&json!("${h"), &saved).unwrap_err().contains("without a closing"));
        assert!(has_placeholders(&json!({"x": [1, {"y": "a${b}"}]})));
        assert!(!has_placeholders(&json!({"x": [1, {"y": "a$b}"}]})));
    }
}
