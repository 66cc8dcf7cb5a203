//! The documented limits on a filter policy's size of logic.
//!
//! * Keys — SNS docs, "Filter policy constraints": "A filter policy can have a maximum of five
//!   keys"; for payload-based filtering "For a nested policy, only leaf keys are counted towards
//!   the five key limit". (An older revision of the page said "only parent keys are counted"; the
//!   current text is followed.) Not in the docs: how `$or` counts. Chosen here: every match
//!   branch (one choice of alternative in each `$or`) may hold at most five leaf keys, the way the
//!   docs compute complexity per branch.
//! * Combinations — "The total combination of values in a filter policy must not exceed 150",
//!   the product of the number of values of each key; in a body policy each key's count is
//!   multiplied by its nesting level (docs example: 4 × 3 × 3 × 2 = 72). SNS docs, "AND/OR logic":
//!   with `$or` it is "the sum of the combination complexities for each OR statement". Products
//!   distribute over the sums, so it is computed without expanding the branches.
//! * Wildcards — "Wildcard pattern usage guidelines": "Total wildcard complexity across all fields
//!   must not exceed 100 points", a field's complexity being "(Sum of pattern points) × (Number of
//!   patterns)". Not in the docs: whether fields without any wildcard count. Chosen: only fields
//!   with at least one `wildcard` pattern (plain or inside `anything-but`) are counted, since the
//!   guidelines are about "a filter policy containing wildcards".

use super::parse::{policy_error, Child, Node};
use super::{FilterPolicyError, FilterPolicyScope};

pub(crate) const MAX_KEYS: usize = 5;
pub(crate) const MAX_COMBINATIONS: u128 = 150;
pub(crate) const MAX_WILDCARD_COMPLEXITY: u64 = 100;

/// Checks all three limits, in the order: keys, combinations, wildcard complexity.
pub(crate) fn check(root: &Node, scope: FilterPolicyScope) -> Result<(), FilterPolicyError> {
    let keys = max_leaf_keys(root);
    if keys > MAX_KEYS {
        let counted = match scope {
            FilterPolicyScope::MessageAttributes => "keys",
            FilterPolicyScope::MessageBody => "leaf keys (only leaf keys count in a nested policy)",
        };
        return Err(policy_error(format_args!(
            "Filter policy can not have more than {MAX_KEYS} keys (one match branch has {keys} {counted})"
        )));
    }
    let combinations = combinations(root);
    if combinations > MAX_COMBINATIONS {
        return Err(policy_error(format_args!(
            "Filter policy is too complex (the total combination of values is {}; the limit is \
             {}: the product of the number of values of each key, summed over $or branches)",
            crate::ids::decimal_u128(combinations),
            crate::ids::decimal_u128(MAX_COMBINATIONS)
        )));
    }
    let wildcard = wildcard_complexity(root);
    if wildcard > MAX_WILDCARD_COMPLEXITY {
        return Err(policy_error(format_args!(
            "Filter policy is too complex (its wildcard complexity is {wildcard} points; the limit is \
             {MAX_WILDCARD_COMPLEXITY})"
        )));
    }
    Ok(())
}

/// The largest number of leaf keys in any one match branch.
pub(crate) fn max_leaf_keys(node: &Node) -> usize {
    let own: usize = node
        .keys
        .iter()
        .map(|k| match &k.child {
            Child::Leaf(_) => 1,
            Child::Nested(sub) => max_leaf_keys(sub),
        })
        .sum();
    let ors: usize = node.ors.iter().map(|g| g.alternatives.iter().map(max_leaf_keys).max().unwrap_or(0)).sum();
    own.saturating_add(ors)
}

/// The documented total combination of values (saturating; only compared with 150).
pub(crate) fn combinations(node: &Node) -> u128 {
    let mut total: u128 = 1;
    for key in &node.keys {
        let factor = match &key.child {
            Child::Leaf(m) => (m.pattern_count as u128).saturating_mul(u128::from(key.depth)),
            Child::Nested(sub) => combinations(sub),
        };
        total = total.saturating_mul(factor);
    }
    for group in &node.ors {
        let sum = group.alternatives.iter().map(combinations).fold(0u128, u128::saturating_add);
        total = total.saturating_mul(sum);
    }
    total
}

/// Sum of the complexity of every field that uses a wildcard, over the whole policy.
pub(crate) fn wildcard_complexity(node: &Node) -> u64 {
    let mut total: u64 = 0;
    for key in &node.keys {
        total = total.saturating_add(match &key.child {
            Child::Leaf(m) if m.has_wildcard => m.wildcard_points.saturating_mul(m.pattern_count as u64),
            Child::Leaf(_) => 0,
            Child::Nested(sub) => wildcard_complexity(sub),
        });
    }
    for group in &node.ors {
        for alternative in &group.alternatives {
            total = total.saturating_add(wildcard_complexity(alternative));
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::super::{FilterPolicy, FilterPolicyScope};
    use super::{combinations, max_leaf_keys};

    fn count(policy: &str, scope: FilterPolicyScope) -> (u128, usize) {
        let node = super::super::parse::compile(policy, scope).unwrap();
        (combinations(&node), max_leaf_keys(&node))
    }

    #[test]
    fn documented_examples() {
        use FilterPolicyScope::*;
        // "Filter policy constraints": 3 x 1 x 2 = 6.
        let flat = r#"{"key_a": ["value_one", "value_two", "value_three"], "key_b": ["value_one"], "key_c": ["value_one", "value_two"]}"#;
        assert_eq!(count(flat, MessageAttributes), (6, 3));
        // "Filter policy constraints", payload-based: 4 x 3 x 3 x 2 = 72, two leaf keys.
        let nested = r#"{"key_a": {"key_b": {"key_c": ["value_one", "value_two", "value_three", "value_four"]}}, "key_d": {"key_e": ["value_one", "value_two", "value_three"]}}"#;
        assert_eq!(count(nested, MessageBody), (72, 2));
        // "AND/OR logic": (1 * 2) + (1 * 1 * 2) + (1 * 1 * 3) = 7.
        let or = r#"{"source": ["aws.cloudwatch"], "$or": [{"metricName": ["CPUUtilization", "ReadLatency"]}, {"metricType": ["MetricType"], "$or": [{"metricId": [1234, 4321]}, {"spaceId": [1000, 2000, 3000]}]}]}"#;
        assert_eq!(count(or, MessageAttributes), (7, 3));
        // "AND/OR logic", nested: (2 * 2 * 2) x 4 = 32.
        let nested_or = r#"{"$or": [{"metricName": ["CPUUtilization", "ReadLatency"]}, {"namespace": ["AWS/EC2", "AWS/ES"]}], "detail": {"scope": ["Service"], "$or": [{"source": ["aws.cloudwatch"]}, {"type": ["CloudWatch Alarm State Change"]}]}}"#;
        assert_eq!(count(nested_or, MessageBody), (32, 3));
    }

    #[test]
    fn exactly_150_is_allowed_151_is_not() {
        let values = |n: usize| (0..n).map(|i| format!("\"v{i}\"")).collect::<Vec<_>>().join(",");
        let ok = format!("{{\"a\": [{}]}}", values(150));
        assert!(FilterPolicy::compile(&ok, FilterPolicyScope::MessageAttributes).is_ok());
        let too_many = format!("{{\"a\": [{}]}}", values(151));
        let err = FilterPolicy::compile(&too_many, FilterPolicyScope::MessageAttributes).unwrap_err();
        assert!(err.message.contains("too complex"), "{}", err.message);
    }
}
