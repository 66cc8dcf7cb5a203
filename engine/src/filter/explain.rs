//! Human-readable reasons for a [`NoMatch`], and short renderings of values for error messages.
//!
//! Everything here is deterministic (policy order, `BTreeMap` order) and clipped, so a 200 KB
//! attribute or a 150-value list never turns into a 200 KB reason.

use super::parse::OrGroup;
use super::values::{Leaf, Matcher};
use super::NoMatch;
use serde_json::Value;

/// The `NoMatch::key` used when the body itself cannot be filtered (not JSON, not an object).
pub(crate) const BODY_KEY: &str = "(message body)";

const MAX_SHOWN_CHARS: usize = 120;
const MAX_SHOWN_ITEMS: usize = 10;

/// At most `max` characters of `text`, with `…` when cut (never splits a character).
pub(crate) fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// A JSON value as compact JSON, clipped.
pub(crate) fn clip_json(value: &Value) -> String {
    clip(&value.to_string(), MAX_SHOWN_CHARS)
}

/// One message value as it would be written in JSON (`"x"`, `12.5`, `true`, `null`).
pub(crate) fn show_leaf(leaf: &Leaf<'_>) -> String {
    match leaf {
        Leaf::Str(s) => clip(&Value::from(*s).to_string(), MAX_SHOWN_CHARS),
        Leaf::Num(n) => clip(&n.to_string(), MAX_SHOWN_CHARS),
        Leaf::Bool(b) => b.to_string(),
        Leaf::Null => "null".into(),
    }
}

/// A list rendered as `[a, b, …]`, listing at most ten items.
fn show_list(items: impl ExactSizeIterator<Item = String>) -> String {
    let total = items.len();
    let mut shown: Vec<String> = items.take(MAX_SHOWN_ITEMS).collect();
    if total > MAX_SHOWN_ITEMS {
        shown.push(format!("… ({} more)", total - MAX_SHOWN_ITEMS));
    }
    format!("[{}]", shown.join(", "))
}

/// Several message values: one is shown bare, more as a list.
pub(crate) fn show_leaves(leaves: &[Leaf<'_>]) -> String {
    match leaves {
        [one] => show_leaf(one),
        many => show_list(many.iter().map(show_leaf)),
    }
}

/// The policy's list for a key, e.g. `["OrderPlaced", "OrderShipped"]`.
pub(crate) fn show_conditions(m: &Matcher) -> String {
    show_list(m.conditions.iter().map(|c| clip(c, MAX_SHOWN_CHARS)))
}

/// What the caller knows about one key of the message, for [`value_failure`].
pub(crate) struct Observed<'l, 'a> {
    /// "attribute" or "property".
    pub(crate) noun: &'static str,
    /// How the message value reads, or `None` when the key is absent.
    pub(crate) shown: Option<String>,
    pub(crate) leaves: &'l [Leaf<'a>],
    /// Some leaf is neither `null` nor empty (what `exists` looks at).
    pub(crate) present: bool,
    /// The message has at least one attribute / the body object at least one property.
    pub(crate) has_any: bool,
}

/// Why the conditions of one key rejected what the message holds at that key.
pub(crate) fn value_failure(path: &str, m: &Matcher, seen: &Observed<'_, '_>) -> NoMatch {
    let noun = seen.noun;
    let nothing_at_all = match noun {
        "attribute" => "a message without any (String, String.Array or Number) attributes",
        _ => "an empty body object",
    };
    let reason = match &seen.shown {
        None if m.exists_false && !seen.has_any => format!(
            "{noun} {path:?} is absent, but \"exists\": false never matches {nothing_at_all} (SNS docs, \"Key matching\")"
        ),
        None => format!("{noun} {path:?} is missing"),
        Some(shown) if m.only_exists_false() => {
            format!("{noun} {path:?} is present ({shown}), but the policy requires it to be absent (\"exists\": false)")
        }
        Some(shown) if seen.leaves.is_empty() => format!(
            "{noun} {path:?} is {shown}, which holds no value that {} can match",
            show_conditions(m)
        ),
        Some(shown) => {
            let verb = if m.only_exact_strings() { "not one of" } else { "which matches none of" };
            let mut reason = format!("{noun} {path:?} is {shown}, {verb} {}", show_conditions(m));
            let all = |f: fn(&Leaf<'_>) -> bool| seen.leaves.iter().all(f);
            if all(|l| matches!(l, Leaf::Num(_))) && !m.has_numeric_conditions() && m.has_string_conditions() {
                reason.push_str(" (a number never matches string conditions)");
            } else if all(|l| matches!(l, Leaf::Str(_))) && m.has_numeric_conditions() && !m.has_string_conditions() {
                reason.push_str(" (a string never matches numeric conditions; numbers must be sent as numbers)");
            }
            if let Some(note) = accuracy_note(m, seen.leaves) {
                reason.push_str(&note);
            }
            if m.exists_true && !seen.present {
                reason.push_str(" (and \"exists\": true needs a non-null, non-empty value)");
            }
            reason
        }
    };
    NoMatch { key: path.to_owned(), reason }
}

/// When a message number has more than five decimals and the key compares numbers: how it was
/// compared (SNS docs, "Filter policy constraints": "five digits of accuracy after the decimal
/// point"), e.g. ` (numbers are compared at five decimal places: 0.999996 counts as 1)`.
fn accuracy_note(m: &Matcher, leaves: &[Leaf<'_>]) -> Option<String> {
    if !m.compares_numbers() {
        return None;
    }
    leaves.iter().find_map(|leaf| match leaf {
        Leaf::Num(n) if n.at_accuracy().as_ref() != *n => Some(format!(
            " (numbers are compared at five decimal places: {} counts as {})",
            clip(&n.to_string(), MAX_SHOWN_CHARS),
            clip(&n.at_accuracy().to_string(), MAX_SHOWN_CHARS)
        )),
        _ => None,
    })
}

/// Why an explicit `$or` rejected the message: every alternative's reason, numbered.
pub(crate) fn or_failure(group: &OrGroup, failures: Vec<Option<NoMatch>>) -> NoMatch {
    let parts: Vec<String> = failures
        .into_iter()
        .enumerate()
        .filter_map(|(i, f)| f.map(|f| format!("({}) key {:?}: {}", i + 1, f.key, f.reason)))
        .collect();
    NoMatch { key: group.display.clone(), reason: format!("no alternative of $or matched: {}", parts.join("; ")) }
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn clip_respects_characters() {
        assert_eq!(clip("héllo", 2), "hé…");
        assert_eq!(clip("hé", 2), "hé");
        assert_eq!(clip("", 0), "");
    }
}
