//! Evaluating a compiled policy against a message.
//!
//! SNS docs, "Amazon SNS subscription filter policies": a subscription accepts a message when
//! "each property name in the filter policy matches a message attribute name [or message body
//! property name]. For each matching property name in the filter policy, at least one property
//! value matches". Keys are ANDed, a key's list is ORed, `$or` ORs whole groups of keys.
//!
//! Every function is generic over `EXPLAIN`: `matches` runs with `false` and never formats a
//! reason (a failure is `Err(None)`, an `$or` stops at the first success without collecting);
//! `evaluate` runs with `true` and returns the first failing key and why.

use super::body::Doc;
use super::explain::{self, Observed, BODY_KEY};
use super::number::Decimal;
use super::parse::{Child, KeyRule, Node, OrGroup};
use super::values::{Leaf, Matcher};
use super::NoMatch;
use crate::attributes::{MessageAttributeValue, MessageAttributes};

/// `Err(None)` when not explaining.
pub(crate) type Outcome = Result<(), Option<NoMatch>>;

fn fail<const EXPLAIN: bool>(make: impl FnOnce() -> NoMatch) -> Outcome {
    Err(if EXPLAIN { Some(make()) } else { None })
}

fn eval_or<const EXPLAIN: bool>(group: &OrGroup, mut eval: impl FnMut(&Node) -> Outcome) -> Outcome {
    let mut failures = Vec::new();
    for alternative in &group.alternatives {
        match eval(alternative) {
            Ok(()) => return Ok(()),
            Err(why) if EXPLAIN => failures.push(why),
            Err(_) => {}
        }
    }
    fail::<EXPLAIN>(|| explain::or_failure(group, failures))
}

/// The verdict of one key's conditions on the values found at that key. `exists: false` is
/// decided by the caller-supplied `absent` (attributes: locally; bodies: over the whole body).
fn decide(m: &Matcher, leaves: &[Leaf<'_>], has_any: bool, absent: impl FnOnce() -> bool) -> bool {
    if m.matches_any(leaves) {
        return true;
    }
    let present = leaves.iter().any(Leaf::is_meaningful);
    // SNS docs, "Key matching": `"exists": false` "only matches if at least one attribute is
    // present. An empty set of attributes results in the filter not matching."
    (m.exists_true && present) || (m.exists_false && !present && has_any && absent())
}

// ---------------------------------------------------------------------------------------------
// MessageAttributes scope
// ---------------------------------------------------------------------------------------------

/// SNS docs, "Filter policy constraints": policies are compared with `String`, `String.Array` and
/// (for numeric values) `Number` attributes; "Amazon SNS ignores message attributes with the
/// Binary data type". Custom-labelled types (`Number.float`) count as their base type. Unknown
/// base types are ignored like `Binary` (not documented).
fn considered(attribute: &MessageAttributeValue) -> bool {
    matches!(attribute.base_type(), "String" | "Number" | "String.Array")
}

/// One attribute's value, owned where it had to be parsed.
enum AttrData<'m> {
    Missing,
    Str(&'m str),
    /// A `Number` attribute; `None` when its text is not a number.
    Num(Option<Decimal>, &'m str),
    /// A `String.Array` attribute: "An array, formatted as a string … The values can be strings,
    /// numbers, or the keywords true, false, and null" (SNS docs, "Amazon SNS message attributes").
    /// `None` when the text is not a JSON array; objects inside it are not matchable values.
    Array(Option<Doc>, &'m str),
}

impl<'m> AttrData<'m> {
    fn of(attribute: Option<&'m MessageAttributeValue>) -> AttrData<'m> {
        let Some(attribute) = attribute.filter(|a| considered(a)) else {
            return AttrData::Missing;
        };
        let text = attribute.string_value.as_deref().unwrap_or("");
        match attribute.base_type() {
            "Number" => AttrData::Num(Decimal::parse(text), text),
            "String.Array" => {
                let doc = Doc::parse(text).ok().filter(|d| !d.is_object(d.root) && d.leaf(d.root).is_none());
                AttrData::Array(doc, text)
            }
            _ => AttrData::Str(text),
        }
    }

    fn leaves(&self) -> Vec<Leaf<'_>> {
        match self {
            AttrData::Missing => Vec::new(),
            AttrData::Str(s) => vec![Leaf::Str(s)],
            AttrData::Num(Some(n), _) => vec![Leaf::Num(n)],
            AttrData::Num(None, _) => Vec::new(),
            AttrData::Array(Some(doc), _) => doc.all_leaves(),
            AttrData::Array(None, _) => Vec::new(),
        }
    }

    fn shown(&self, leaves: &[Leaf<'_>]) -> Option<String> {
        match self {
            AttrData::Missing => None,
            AttrData::Str(_) => Some(explain::show_leaves(leaves)),
            AttrData::Num(Some(_), text) => Some(explain::clip(text, 120)),
            AttrData::Num(None, text) => Some(format!("{} (Number, but not a number)", explain::clip(text, 120))),
            AttrData::Array(Some(_), text) => Some(format!("{} (String.Array)", explain::clip(text, 120))),
            AttrData::Array(None, text) => {
                Some(format!("{} (String.Array, but not a JSON array)", explain::clip(text, 120)))
            }
        }
    }
}

pub(crate) fn eval_attributes<const EXPLAIN: bool>(root: &Node, attributes: &MessageAttributes) -> Outcome {
    let has_any = attributes.values().any(considered);
    attribute_node::<EXPLAIN>(root, attributes, has_any)
}

fn attribute_node<const EXPLAIN: bool>(node: &Node, attributes: &MessageAttributes, has_any: bool) -> Outcome {
    for rule in &node.keys {
        // MessageAttributes policies are flat (nested objects are rejected at compile time).
        if let Child::Leaf(m) = &rule.child {
            attribute_key::<EXPLAIN>(rule, m, attributes, has_any)?;
        }
    }
    for group in &node.ors {
        eval_or::<EXPLAIN>(group, |alternative| attribute_node::<EXPLAIN>(alternative, attributes, has_any))?;
    }
    Ok(())
}

fn attribute_key<const EXPLAIN: bool>(
    rule: &KeyRule,
    m: &Matcher,
    attributes: &MessageAttributes,
    has_any: bool,
) -> Outcome {
    let data = AttrData::of(attributes.get(&rule.name));
    let leaves = data.leaves();
    if decide(m, &leaves, has_any, || true) {
        return Ok(());
    }
    fail::<EXPLAIN>(|| {
        let seen = Observed {
            noun: "attribute",
            shown: data.shown(&leaves),
            leaves: &leaves,
            present: leaves.iter().any(Leaf::is_meaningful),
            has_any,
        };
        explain::value_failure(&rule.display, m, &seen)
    })
}

// ---------------------------------------------------------------------------------------------
// MessageBody scope
// ---------------------------------------------------------------------------------------------

pub(crate) fn eval_body<const EXPLAIN: bool>(root: &Node, body: &str) -> Outcome {
    let doc = match Doc::parse(body) {
        Ok(doc) => doc,
        Err(e) => {
            return fail::<EXPLAIN>(|| NoMatch {
                key: BODY_KEY.into(),
                reason: format!(
                    "the message body is not valid JSON ({e}); a MessageBody-scope filter policy only matches a \
                     body that is a JSON object (SNS docs: \"Filter policies for the message body assume that the \
                     message payload is a well-formed JSON object\")"
                ),
            })
        }
    };
    if !doc.is_object(doc.root) {
        return fail::<EXPLAIN>(|| NoMatch {
            key: BODY_KEY.into(),
            reason: "the message body is JSON but not an object; a MessageBody-scope filter policy only matches a \
                     body that is a JSON object"
                .into(),
        });
    }
    body_node::<EXPLAIN>(root, &doc, Some(doc.root), doc.is_nonempty_object())
}

/// `object` is the body object this node applies to; `None` when the body has no object there
/// (then only `"exists": false` can still be satisfied).
fn body_node<const EXPLAIN: bool>(node: &Node, doc: &Doc, object: Option<usize>, has_any: bool) -> Outcome {
    for rule in &node.keys {
        match &rule.child {
            Child::Leaf(m) => body_key::<EXPLAIN>(rule, m, doc, object, has_any)?,
            Child::Nested(sub) => {
                // Keys nested under one policy object must all match inside the same body object:
                // with an array of objects, one element has to satisfy all of them (as event-ruler
                // does for array elements; not spelled out in the SNS docs).
                let candidates: Vec<usize> = object
                    .map(|o| doc.resolve(o, &rule.segments))
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|&id| doc.is_object(id))
                    .collect();
                if candidates.is_empty() {
                    body_node::<EXPLAIN>(sub, doc, None, has_any)?;
                    continue;
                }
                let mut first_failure = None;
                let mut matched = false;
                for candidate in candidates {
                    match body_node::<EXPLAIN>(sub, doc, Some(candidate), has_any) {
                        Ok(()) => {
                            matched = true;
                            break;
                        }
                        Err(why) => {
                            if first_failure.is_none() {
                                first_failure = why;
                            }
                        }
                    }
                }
                if !matched {
                    return Err(first_failure);
                }
            }
        }
    }
    for group in &node.ors {
        eval_or::<EXPLAIN>(group, |alternative| body_node::<EXPLAIN>(alternative, doc, object, has_any))?;
    }
    Ok(())
}

fn body_key<const EXPLAIN: bool>(
    rule: &KeyRule,
    m: &Matcher,
    doc: &Doc,
    object: Option<usize>,
    has_any: bool,
) -> Outcome {
    let found: Vec<usize> = object.map(|o| doc.resolve(o, &rule.segments)).unwrap_or_default();
    let leaves: Vec<Leaf<'_>> = found.iter().filter_map(|&id| doc.leaf(id)).collect();
    // `"exists": false` asks whether the property occurs anywhere in the body (event-ruler checks
    // absence per field name, not per array element).
    let absent = || !doc.leaves(doc.root, &rule.full_path).iter().any(Leaf::is_meaningful);
    if decide(m, &leaves, has_any, absent) {
        return Ok(());
    }
    fail::<EXPLAIN>(|| {
        let shown = if !leaves.is_empty() {
            Some(explain::show_leaves(&leaves))
        } else if !found.is_empty() {
            Some("an object (a value list only matches strings, numbers, booleans and null)".into())
        } else if !m.exists_false || !has_any {
            None
        } else {
            // Absent here, but present elsewhere in the body (e.g. in another array element).
            Some("absent here but present elsewhere in the body".into())
        };
        let seen = Observed {
            noun: "property",
            shown,
            leaves: &leaves,
            present: leaves.iter().any(Leaf::is_meaningful),
            has_any,
        };
        explain::value_failure(&rule.display, m, &seen)
    })
}
