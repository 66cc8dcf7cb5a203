//! Pattern JSON → pattern tree, with EventBridge's structural rules.
//!
//! The reasons are event-ruler's (`JsonRuleCompiler`, the compiler EventBridge runs): "Filter is
//! not an object", "Empty objects are not allowed", "\"k\" must be an object or an array",
//! "Empty arrays are not allowed", … `$or` is an OR only when it holds an array of at least two
//! objects none of which names an operator; otherwise it is a field like any other (event-ruler's
//! README, "The backward compatibility of using $or as field name").

use super::operand::{compile_list, Conds, OPERATORS};
use crate::events::json::{Node, Tree};

/// "APIs that accept an event pattern … will throw an InvalidEventPatternException if the use of
/// $or results in over 1000 rule combinations" (EventBridge docs, "Content filtering").
pub(crate) const MAX_COMBINATIONS: u128 = 1000;

/// A conjunction: every field must match, and every `$or` group needs a matching alternative.
#[derive(Clone, Debug, Default)]
pub(crate) struct PNode {
    pub(crate) keys: Vec<PKey>,
    pub(crate) ors: Vec<Vec<PNode>>,
}

/// One pattern field.
#[derive(Clone, Debug)]
pub(crate) struct PKey {
    /// The key split at dots, walked down from the enclosing event object.
    pub(crate) segments: Vec<String>,
    /// Every segment from the event's root to this field (`$or` is not a field).
    pub(crate) full_path: Vec<String>,
    /// The dotted path, for reasons (`detail.state`).
    pub(crate) display: String,
    pub(crate) child: PChild,
}

#[derive(Clone, Debug)]
pub(crate) enum PChild {
    Leaf(Conds),
    Nested(PNode),
}

pub(crate) fn compile(text: &str) -> Result<PNode, String> {
    crate::nesting::check(text).map_err(|e| format!("Filter is too deep: {e}"))?;
    let tree = Tree::parse(text).map_err(|e| format!("Filter is not valid JSON: {e}"))?;
    if !tree.is_object(tree.root) {
        return Err("Filter is not an object".into());
    }
    let root = object(&tree, tree.root, &[], &[])?;
    let combinations = combinations(&root);
    if combinations > MAX_COMBINATIONS {
        return Err(format!(
            "The pattern has {} rule combinations; the use of $or may result in at most \
             {} (multiply the number of alternatives of each $or)",
            crate::ids::decimal_u128(combinations),
            crate::ids::decimal_u128(MAX_COMBINATIONS)
        ));
    }
    super::complexity::check(&root)?;
    Ok(root)
}

/// An `$or` value EventBridge reads as an OR, or `None` (then `$or` is a plain field).
fn or_alternatives(tree: &Tree, id: usize) -> Option<Vec<usize>> {
    let Some(Node::Arr(items)) = tree.node(id) else { return None };
    if items.len() < 2 || !items.iter().all(|&i| tree.is_object(i)) {
        return None;
    }
    let names_an_operator = |&i: &usize| match tree.node(i) {
        Some(Node::Obj(entries)) => entries.iter().any(|(k, _)| OPERATORS.contains(&k.as_str())),
        _ => false,
    };
    (!items.iter().any(names_an_operator)).then(|| items.clone())
}

fn object(tree: &Tree, id: usize, display: &[String], path: &[String]) -> Result<PNode, String> {
    let Some(Node::Obj(entries)) = tree.node(id) else { return Err("Filter is not an object".into()) };
    if entries.is_empty() {
        return Err(match display.is_empty() {
            true => "Empty objects are not allowed".into(),
            false => format!("Empty objects are not allowed (at \"{}\")", display.join(".")),
        });
    }
    let mut node = PNode::default();
    for (key, child) in entries {
        if key == "$or" {
            if let Some(alternatives) = or_alternatives(tree, *child) {
                let alternatives =
                    alternatives.into_iter().map(|alt| object(tree, alt, display, path)).collect::<Result<_, _>>()?;
                node.ors.push(alternatives);
                continue;
            }
        }
        let mut shown = display.to_vec();
        shown.push(key.clone());
        let segments: Vec<String> = key.split('.').map(str::to_owned).collect();
        let mut full_path = path.to_vec();
        full_path.extend(segments.iter().cloned());
        let child = match tree.node(*child) {
            Some(Node::Obj(_)) => PChild::Nested(object(tree, *child, &shown, &full_path)?),
            Some(Node::Arr(items)) => {
                PChild::Leaf(compile_list(tree, items).map_err(|e| format!("{e} (at \"{}\")", shown.join(".")))?)
            }
            _ => {
                return Err(format!(
                    "\"{key}\" must be an object or an array (put the values in a list, e.g. [\"value\"])"
                ))
            }
        };
        node.keys.push(PKey { segments, full_path, display: shown.join("."), child });
    }
    Ok(node)
}

/// How many plain rules the pattern expands into: the alternatives of each `$or` multiply.
pub(crate) fn combinations(node: &PNode) -> u128 {
    let mut total: u128 = 1;
    for key in &node.keys {
        if let PChild::Nested(sub) = &key.child {
            total = total.saturating_mul(combinations(sub));
        }
    }
    for group in &node.ors {
        total = total.saturating_mul(group.iter().map(combinations).fold(0u128, u128::saturating_add));
    }
    total
}

#[cfg(test)]
mod tests {
    use super::{combinations, compile};

    #[test]
    fn documented_combination_count() {
        // "Content filtering": one $or of three arguments is three combinations; another $or of
        // two makes six.
        let three = r#"{"detail": {"$or": [{"c-count": [1]}, {"d-count": [2]}, {"x-limit": [3]}]}}"#;
        assert_eq!(combinations(&compile(three).unwrap()), 3);
        let six = r#"{"detail": {"$or": [{"a": [1]}, {"b": [2]}, {"c": [3]}]}, "$or": [{"d": [1]}, {"e": [1]}]}"#;
        assert_eq!(combinations(&compile(six).unwrap()), 6);
    }

    #[test]
    fn over_1000_combinations_is_refused() {
        let or = |n: usize| {
            let alts: Vec<String> = (0..n).map(|i| format!("{{\"k{i}\": [1]}}")).collect();
            format!("[{}]", alts.join(","))
        };
        let ok = format!("{{\"a\": {{\"$or\": {}}}, \"b\": {{\"$or\": {}}}}}", or(10), or(100));
        assert!(compile(&ok).is_ok(), "exactly 1000");
        let too_many = format!("{{\"a\": {{\"$or\": {}}}, \"b\": {{\"$or\": {}}}}}", or(11), or(100));
        assert!(compile(&too_many).unwrap_err().contains("1100 rule combinations"));
    }
}
