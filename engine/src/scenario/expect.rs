//! Containment, the rule behind `expect`: every key of an expected object is present with a
//! matching value (extra keys are fine), arrays match element by element with equal length,
//! and scalars are equal — strictly: the string "2" is not the number 2.

use serde_json::Value;

/// The differences between `expected` and `actual`, each naming its path; empty when they match.
pub fn contains(expected: &Value, actual: &Value, path: &str) -> Vec<String> {
    let at = |p: &str| if p.is_empty() { "the response".to_string() } else { p.to_string() };
    match (expected, actual) {
        (Value::Object(want), Value::Object(have)) => want
            .iter()
            .flat_map(|(k, v)| {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                match have.get(k) {
                    Some(a) => contains(v, a, &p),
                    None => vec![format!("{p}: expected {v}, but it is missing")],
                }
            })
            .collect(),
        (Value::Array(want), Value::Array(have)) if want.len() != have.len() => {
            vec![format!("{}: expected {} elements, got {}: {}", at(path), want.len(), have.len(), abbreviate(actual))]
        }
        (Value::Array(want), Value::Array(have)) => want
            .iter()
            .zip(have)
            .enumerate()
            .flat_map(|(i, (w, h))| {
                contains(w, h, &if path.is_empty() { i.to_string() } else { format!("{path}.{i}") })
            })
            .collect(),
        (w, h) if w == h => Vec::new(),
        (w, h) => vec![format!("{}: expected {w}, got {}", at(path), abbreviate(h))],
    }
}

fn abbreviate(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 200 {
        format!("{}…", text.chars().take(200).collect::<String>())
    } else {
        text
    }
}

/// Follows a dotted path (`Messages.0.ReceiptHandle`; numbers index arrays) into `value`.
pub fn resolve_path<'a>(value: &'a Value, path: &str) -> Result<&'a Value, String> {
    let mut here = value;
    for (depth, part) in path.split('.').enumerate() {
        let next = match here {
            Value::Object(map) => map.get(part),
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        here = next.ok_or_else(|| {
            let walked = path.split('.').take(depth).collect::<Vec<_>>().join(".");
            let where_ = if walked.is_empty() { "the response".to_string() } else { walked };
            match here {
                Value::Array(items) => {
                    format!("path {path} does not resolve: {where_} has {} elements, no \"{part}\"", items.len())
                }
                Value::Object(_) => format!("path {path} does not resolve: {where_} has no key \"{part}\""),
                _ => format!("path {path} does not resolve: {where_} is not an object or a list"),
            }
        })?;
    }
    Ok(here)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn containment_allows_extra_keys_but_not_missing_ones() {
        let actual = json!({"Attributes": {"ApproximateNumberOfMessages": "1", "VisibilityTimeout": "30"}});
        assert!(contains(&json!({"Attributes": {"ApproximateNumberOfMessages": "1"}}), &actual, "").is_empty());
        let diffs = contains(&json!({"Attributes": {"DelaySeconds": "0"}}), &actual, "");
        assert_eq!(diffs, vec!["Attributes.DelaySeconds: expected \"0\", but it is missing"]);
    }

    #[test]
    fn strings_are_not_numbers_and_arrays_need_equal_length() {
        assert_eq!(contains(&json!({"n": 2}), &json!({"n": "2"}), ""), vec!["n: expected 2, got \"2\""]);
        assert!(contains(&json!([1]), &json!([1, 2]), "")[0].contains("expected 1 elements, got 2"));
        assert!(contains(&json!([{"a": 1}]), &json!([{"a": 1, "b": 2}]), "").is_empty());
    }

    #[test]
    fn paths_resolve_or_say_where_they_stop() {
        let v = json!({"Messages": [{"ReceiptHandle": "rh-1-1"}]});
        assert_eq!(resolve_path(&v, "Messages.0.ReceiptHandle"), Ok(&json!("rh-1-1")));
        assert!(resolve_path(&v, "Messages.1.ReceiptHandle").unwrap_err().contains("Messages has 1 elements"));
        assert!(resolve_path(&v, "Nope").unwrap_err().contains("no key \"Nope\""));
    }
}
