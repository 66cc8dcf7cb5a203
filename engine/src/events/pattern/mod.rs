//! EventBridge event patterns: compile once (with EventBridge's validation and its error
//! `InvalidEventPatternException`), then match whole events.
//!
//! The language is the one SNS filter policies use in `MessageBody` scope (both are
//! aws/event-ruler), and this module shares the filter engine's primitives: exact decimals
//! (`filter::number`), the `numeric` grammar (`filter::operand`), `cidr` blocks and wildcards.
//! The documented differences, each kept here:
//! * a pattern matches the whole event envelope (`source`, `detail-type`, `account`, `region`,
//!   `resources`, `detail.…`, `replay-name`), never typed message attributes;
//! * numbers compare by value, "limited to values between -5.0e9 and +5.0e9 inclusive, with 15
//!   digits of precision, or six digits to the right of the decimal point" ("Content filtering",
//!   2023 text; SNS: ±10^9 at five decimals), in `numeric` and in exact values alike: the page
//!   says "300, 300.0, and 3.0e2 are not considered equal" ("Event pattern syntax"), but AWS
//!   answers that `[300]` matches `300.0` (recorded; `operand.rs`, `exact_number`); an exact
//!   number outside that range matches by its text;
//! * `exists` looks at "the presence or absence of a field in the JSON of the event" (a `null` or
//!   `""` leaf is present; SNS requires a non-null, non-empty value and refuses `exists: false` on
//!   a message without attributes);
//! * operators SNS lacks: `prefix`/`suffix` with `equals-ignore-case`, `anything-but` with
//!   `equals-ignore-case`, and `anything-but` with lists of prefixes, suffixes or wildcards
//!   (event-ruler's README; the EventBridge operator table);
//! * no five-key or 150-combination limit; instead "APIs that accept an event pattern … will throw
//!   an InvalidEventPatternException if the use of $or results in over 1000 rule combinations";
//!   no three-wildcard limit ("A single value can contain zero to many wildcard characters") nor
//!   100-point budget, but a limit on how many wildcard prefixes one value can be inside at once
//!   ("Rule is too complex", `complexity.rs`);
//! * a key with dots in the event names the same path as nested keys, even across a nesting level
//!   of the pattern (`path.rs`);
//! * the empty pattern `{}` is invalid ("Empty objects are not allowed", event-ruler's
//!   `JsonRuleCompiler`), where SNS takes `{}` as no filter.
//!
//! Files: `compile.rs` (JSON → tree, structure and limits), `complexity.rs` (the wildcard
//! limit), `operand.rs` (one field's list → conditions), `path.rs` (where a key leads in an
//! event), `matching.rs` (an event against the tree, with a reason for a miss).

mod compile;
mod complexity;
mod matching;
mod operand;
mod path;

#[cfg(test)]
mod cases_docs;
#[cfg(test)]
mod cases_invalid;
#[cfg(test)]
mod props;

use super::json::Tree;
use crate::error::ApiError;
use path::Place;

/// A compiled, validated event pattern.
#[derive(Clone, Debug)]
pub struct EventPattern {
    root: compile::PNode,
}

impl EventPattern {
    /// Parses and validates a pattern as `PutRule`, `CreateArchive` and `TestEventPattern` do.
    pub fn compile(text: &str) -> Result<EventPattern, ApiError> {
        compile::compile(text).map(|root| EventPattern { root }).map_err(invalid_pattern)
    }

    /// Whether the event (JSON text) matches; an event that is not JSON never does.
    pub fn matches_json(&self, event: &str) -> bool {
        Tree::parse(event).is_ok_and(|tree| self.matches(&tree))
    }

    pub(crate) fn matches(&self, event: &Tree) -> bool {
        matching::node(&self.root, event, Some(&Place::root(event))).is_ok()
    }

    /// `None` when the event matches; otherwise the first field that did not, and why.
    pub(crate) fn explain(&self, event: &Tree) -> Option<String> {
        matching::node(&self.root, event, Some(&Place::root(event))).err()
    }
}

/// `InvalidEventPatternException: Event pattern is not valid. Reason: …`, as EventBridge words it.
pub(crate) fn invalid_pattern(reason: String) -> ApiError {
    ApiError::new("InvalidEventPatternException", format!("Event pattern is not valid. Reason: {reason}"))
}
