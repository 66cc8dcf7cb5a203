//! Policy JSON → compiled policy tree, with SNS's structural validation.
//!
//! The rules checked here, and where they come from:
//! * The policy is a JSON object of at most 256 KB (SNS docs, "Filter policy constraints": "The
//!   maximum size of a filter policy is 256 KB"; counted here as 262,144 bytes of UTF-8).
//! * Every key holds a list of values (an OR) or, in `MessageBody` scope only, an object of nested
//!   keys (SNS docs, "Filter policy constraints": "Amazon SNS doesn't accept a nested filter policy
//!   for attribute-based filtering"; "Amazon SNS accepts a nested filter policy for payload-based
//!   filtering").
//! * The empty policy `{}` is valid and matches every message (SNS docs, "Removing a subscription
//!   filter policy": "To stop filtering the messages that are sent to a subscription, remove the
//!   subscription's filter policy by overwriting it with an empty JSON body. After you remove the
//!   policy, the subscription accepts every message that's published to it.").
//! * Empty lists and empty nested objects are rejected, and a key may not hold a bare value (AWS
//!   answers "Empty arrays are not allowed", "Empty objects are not allowed", "\"key_a\" must be
//!   an object or an array"). An empty `$or` alternative is rejected too (not in the SNS docs).
//! * `$or` (SNS docs, "AND/OR logic"): recognised only when it holds an array of at least two
//!   objects none of which uses an operator name as a field; otherwise "`$or` is treated as a
//!   regular attribute name, the same as any other string in the policy".
//! * Body scope: a dotted key `"a.b"` names the same property as `{"a": {"b": …}}`. Not in the SNS
//!   docs; LocalStack recorded this against AWS (`test_filter_policy_on_message_body_dot_attribute`).
//!   Attribute names may contain dots, so in `MessageAttributes` scope keys are never split.
//!
//! The limits on keys, combinations and wildcards are checked afterwards, in `limits.rs`.

use super::explain::clip_json;
use super::limits;
use super::operand::{compile_list, OPERATORS};
use super::values::Matcher;
use super::{FilterPolicyError, FilterPolicyScope};
use serde_json::{Map, Value};

/// SNS docs, "Filter policy constraints": "The maximum size of a filter policy is 256 KB".
pub(crate) const MAX_POLICY_BYTES: usize = 256 * 1024;

/// A conjunction: every key must match, and every `$or` group must have a matching alternative.
#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    pub(crate) keys: Vec<KeyRule>,
    pub(crate) ors: Vec<OrGroup>,
}

/// One policy key and what it requires.
#[derive(Clone, Debug)]
pub(crate) struct KeyRule {
    /// The key as written: the attribute name in `MessageAttributes` scope.
    pub(crate) name: String,
    /// `MessageBody` scope: `name` split at dots, walked down from the enclosing body object.
    pub(crate) segments: Vec<String>,
    /// `MessageBody` scope: every path segment from the body root down to this key.
    pub(crate) full_path: Vec<String>,
    /// The dotted policy path, for messages (`shipping_address.country`).
    pub(crate) display: String,
    /// The nesting level used by the combination count: 1 for attributes, path length in a body.
    pub(crate) depth: u64,
    pub(crate) child: Child,
}

#[derive(Clone, Debug)]
pub(crate) enum Child {
    Leaf(Box<Matcher>),
    Nested(Node),
}

/// An explicit `$or`: at least one alternative must match.
#[derive(Clone, Debug)]
pub(crate) struct OrGroup {
    /// `$or`, or `detail.$or` when nested, for messages.
    pub(crate) display: String,
    pub(crate) alternatives: Vec<Node>,
}

/// `Invalid parameter: FilterPolicy: <message>`.
pub(crate) fn policy_error(message: impl std::fmt::Display) -> FilterPolicyError {
    FilterPolicyError { message: format!("Invalid parameter: FilterPolicy: {message}") }
}

/// `Invalid parameter: FilterPolicy: key "<path>": <message>`.
pub(crate) fn key_error(path: &str, message: impl std::fmt::Display) -> FilterPolicyError {
    policy_error(format_args!("key {path:?}: {message}"))
}

/// Parses and validates a policy; `limits.rs` checks the documented limits on the result.
pub(crate) fn compile(policy_json: &str, scope: FilterPolicyScope) -> Result<Node, FilterPolicyError> {
    if policy_json.len() > MAX_POLICY_BYTES {
        return Err(policy_error(format_args!(
            "filter policy is {} bytes; the maximum size of a filter policy is 256 KB ({MAX_POLICY_BYTES} bytes)",
            policy_json.len()
        )));
    }
    crate::nesting::check(policy_json).map_err(policy_error)?;
    let value: Value = serde_json::from_str(policy_json)
        .map_err(|e| policy_error(format_args!("failed to parse JSON: {e} (a filter policy is a JSON object)")))?;
    let Value::Object(map) = value else {
        return Err(policy_error(format_args!(
            "Filter is not an object (got {}; write e.g. {{\"key\": [\"value\"]}})",
            clip_json(&value)
        )));
    };
    if map.is_empty() {
        // "Removing a subscription filter policy": `{}` is no filter at all (see the module docs).
        return Ok(Node::default());
    }
    let root = Context { scope, display: Vec::new(), path: Vec::new() };
    let node = parse_object(&map, &root)?;
    limits::check(&node, scope)?;
    Ok(node)
}

/// Where in the policy the parser is.
struct Context {
    scope: FilterPolicyScope,
    /// Policy keys from the root, as written (`$or` excluded).
    display: Vec<String>,
    /// Body path segments from the root (dotted keys split).
    path: Vec<String>,
}

impl Context {
    fn dotted(&self, key: &str) -> String {
        let mut parts: Vec<&str> = self.display.iter().map(String::as_str).collect();
        parts.push(key);
        parts.join(".")
    }
}

/// An `$or` value that SNS recognises as an OR relationship, or `None` (then `$or` is a plain key).
fn as_or_relationship(value: &Value) -> Option<Vec<&Map<String, Value>>> {
    let items = value.as_array()?;
    if items.len() < 2 {
        return None;
    }
    let objects: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
    let reserved = |o: &&Map<String, Value>| o.keys().any(|k| OPERATORS.contains(&k.as_str()));
    if objects.len() != items.len() || objects.iter().any(reserved) {
        return None;
    }
    Some(objects)
}

fn parse_object(map: &Map<String, Value>, ctx: &Context) -> Result<Node, FilterPolicyError> {
    if map.is_empty() {
        // The root `{}` never gets here (`compile` accepts it): this is a nested key or an `$or`
        // alternative.
        return Err(if ctx.display.is_empty() {
            policy_error("Empty objects are not allowed (each $or alternative needs at least one key)")
        } else {
            key_error(
                &ctx.display.join("."),
                "Empty objects are not allowed (give the nested key at least one property)",
            )
        });
    }
    let mut node = Node::default();
    for (key, value) in map {
        if key == "$or" {
            if let Some(alternatives) = as_or_relationship(value) {
                let alternatives =
                    alternatives.into_iter().map(|alt| parse_object(alt, ctx)).collect::<Result<Vec<_>, _>>()?;
                node.ors.push(OrGroup { display: ctx.dotted("$or"), alternatives });
                continue;
            }
        }
        let display = ctx.dotted(key);
        let segments: Vec<String> = match ctx.scope {
            FilterPolicyScope::MessageAttributes => vec![key.clone()],
            FilterPolicyScope::MessageBody => key.split('.').map(str::to_owned).collect(),
        };
        let mut full_path = ctx.path.clone();
        full_path.extend(segments.iter().cloned());
        let child = match value {
            Value::Object(inner) => {
                if ctx.scope == FilterPolicyScope::MessageAttributes {
                    return Err(FilterPolicyError {
                        message: format!(
                            "Invalid parameter: Filter policy scope MessageAttributes does not support nested filter \
                             policy (key {display:?} holds an object; nest keys only with FilterPolicyScope MessageBody)"
                        ),
                    });
                }
                let mut inner_display = ctx.display.clone();
                inner_display.push(key.clone());
                let inner_ctx = Context { scope: ctx.scope, display: inner_display, path: full_path.clone() };
                Child::Nested(parse_object(inner, &inner_ctx)?)
            }
            Value::Array(list) => Child::Leaf(Box::new(compile_list(list).map_err(|rule| key_error(&display, rule))?)),
            other => {
                return Err(key_error(
                    &display,
                    format_args!(
                        "\"{key}\" must be an object or an array (got {}; put the values in a list, e.g. [\"value\"])",
                        clip_json(other)
                    ),
                ))
            }
        };
        let depth = match ctx.scope {
            FilterPolicyScope::MessageAttributes => 1,
            FilterPolicyScope::MessageBody => full_path.len() as u64,
        };
        node.keys.push(KeyRule { name: key.clone(), segments, full_path, display, depth, child });
    }
    Ok(node)
}
