//! An event against a compiled pattern.
//!
//! EventBridge docs, "Event pattern syntax": "For an event pattern to match an event, the event
//! must contain all the field names listed in the event pattern. The field names must also appear
//! in the event with the same nesting structure." A field matches when any of its conditions
//! matches any of its values ("Arrays in event patterns": with an array in the event, "the event
//! pattern matches if the intersection of the event pattern array and the event array is
//! non-empty"). Keys nested under one pattern object must match inside one element of an array
//! of objects (event-ruler's `rulesForJSONEvent`, which "will refuse to recognize any match in
//! which any two fields are within JSON objects that are in different elements of the same
//! array"). Paths, with their dotted keys, are resolved in `path.rs`.

use super::compile::{PChild, PKey, PNode};
use super::operand::{Cond, Conds};
use super::path::{walk, Place};
use crate::events::json::{Leaf, Tree};

/// `Err(reason)` names the first field that did not match. `at` is where the pattern object
/// applies; `None` when the event has nothing there (only `"exists": false` can then match).
pub(crate) fn node(n: &PNode, tree: &Tree, at: Option<&Place>) -> Result<(), String> {
    for key in &n.keys {
        match &key.child {
            PChild::Leaf(conds) => field(key, conds, tree, at)?,
            PChild::Nested(sub) => nested(key, sub, tree, at)?,
        }
    }
    for group in &n.ors {
        let mut reasons = Vec::new();
        let mut matched = false;
        for alternative in group {
            match node(alternative, tree, at) {
                Ok(()) => {
                    matched = true;
                    break;
                }
                Err(why) => reasons.push(format!("({}) {why}", reasons.len() + 1)),
            }
        }
        if !matched {
            return Err(format!("no alternative of $or matched: {}", reasons.join("; ")));
        }
    }
    Ok(())
}

fn nested(key: &PKey, sub: &PNode, tree: &Tree, at: Option<&Place>) -> Result<(), String> {
    let candidates: Vec<Place> = at
        .map(|place| walk(tree, place, &key.segments))
        .unwrap_or_default()
        .into_iter()
        .filter(|place| place.is_container(tree))
        .collect();
    if candidates.is_empty() {
        // No object there: only `"exists": false` inside can still be satisfied.
        return node(sub, tree, None);
    }
    let mut first_failure = None;
    for candidate in &candidates {
        match node(sub, tree, Some(candidate)) {
            Ok(()) => return Ok(()),
            Err(why) => {
                first_failure.get_or_insert(why);
            }
        }
    }
    Err(first_failure.unwrap_or_default())
}

fn field(key: &PKey, conds: &Conds, tree: &Tree, at: Option<&Place>) -> Result<(), String> {
    let found: Vec<Place> = at.map(|place| walk(tree, place, &key.segments)).unwrap_or_default();
    let leaves: Vec<Leaf<'_>> = found.iter().filter_map(|place| leaf(tree, place)).collect();
    // "Exists matching only works on leaf nodes": an object at the path is not a value, and a
    // field is absent when no leaf is found at its path anywhere in the event.
    // (A dotted key never spans the end of a leaf's full path, so `Tree::leaves` finds them all.)
    let absent = || tree.leaves(tree.root, &key.full_path).is_empty();
    let matched = conds.list.iter().any(|cond| match cond {
        Cond::Exists(true) => !leaves.is_empty(),
        Cond::Exists(false) => absent(),
        other => leaves.iter().any(|leaf| other.matches(leaf)),
    });
    if matched {
        return Ok(());
    }
    let wanted = format!("[{}]", conds.shown.join(", "));
    let seen = if !leaves.is_empty() {
        let shown: Vec<String> = leaves.iter().map(show).collect();
        match shown.as_slice() {
            [one] => format!("is {one}"),
            many => format!("is [{}]", many.join(", ")),
        }
    } else if !found.is_empty() {
        "holds an object, not a value".to_string()
    } else if conds.list.iter().any(|c| matches!(c, Cond::Exists(false))) {
        "is absent here but present elsewhere in the event".to_string()
    } else {
        "is missing".to_string()
    };
    Err(format!("field \"{}\" {seen}, which matches none of {wanted}", key.display))
}

/// The value at a place, if it is one (a dotted key's rest is an object, not a value).
fn leaf<'t>(tree: &'t Tree, place: &Place) -> Option<Leaf<'t>> {
    place.pending.is_empty().then(|| tree.leaf(place.node)).flatten()
}

fn show(leaf: &Leaf<'_>) -> String {
    let text = match leaf {
        Leaf::Str(s) => serde_json::Value::from(*s).to_string(),
        Leaf::Num(n) => n.to_string(),
        Leaf::Bool(b) => b.to_string(),
        Leaf::Null => "null".into(),
    };
    match text.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
