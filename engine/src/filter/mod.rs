//! Amazon SNS subscription filter policies: compile once, evaluate per message, explain a miss.
//!
//! A subscription's `FilterPolicy` is compiled by [`FilterPolicy::compile`] with AWS's validation
//! (an invalid policy is an [`FilterPolicyError`], which the engine returns as `InvalidParameter`),
//! then [`FilterPolicy::evaluate`] tells for each published message whether the subscription gets
//! it and, if not, which policy key failed and why.
//!
//! What is implemented, with the AWS documentation each rule comes from
//! (<https://docs.aws.amazon.com/sns/latest/dg/>):
//! * scopes — `sns-message-filtering-scope.html`: `MessageAttributes` (default) matches message
//!   attributes, `MessageBody` matches the JSON body, which must be a JSON object
//!   (`message-filtering.html`); nested policies only in `MessageBody` scope;
//! * operators — `string-value-matching.html` (exact, `anything-but` with a value / list /
//!   `prefix` / `suffix` / `wildcard`, `equals-ignore-case`, `prefix`, `suffix`, `wildcard`,
//!   `cidr`), `numeric-value-matching.html` (exact numbers, `anything-but` numbers, `numeric`
//!   with `=`, `<`, `<=`, `>`, `>=` and ranges), `attribute-key-matching.html` (`exists`),
//!   `and-or-logic.html` (AND across keys, OR within a key's list, `$or`);
//! * limits — `subscription-filter-policy-constraints.html`: 256 KB, five (leaf) keys,
//!   150 combinations, numbers within ±10^9, compared "with five digits of accuracy after the
//!   decimal point" (rounded to five decimals, `number.rs`), wildcard complexity 100;
//! * the empty policy `{}` — `message-filtering-policy-remove.html`: it removes filtering, the
//!   subscription "accepts every message" ([`FilterPolicy::accepts_everything`]).
//!
//! Message values are typed as in JSON: a `String` attribute is a string, a `Number` attribute a
//! number, a `String.Array` attribute an array whose elements are strings, numbers, booleans or
//! null; `Binary` attributes are ignored. An array (a `String.Array` attribute, a body array)
//! matches when any element matches. Numbers are compared as exact decimals rounded to five
//! decimal places, never as floats (`number.rs`). Rules the SNS docs leave open, and the choice made, are noted where they are
//! implemented (search for "Not in the SNS docs" / "Not confirmed" / "Chosen").
//!
//! Files: `parse.rs` (JSON → tree, structure), `operand.rs` (one key's list → conditions),
//! `limits.rs`, `values.rs` (conditions, one value tested), `matcher.rs` (evaluation),
//! `body.rs` (JSON body), `number.rs`, `cidr.rs`, `wildcard.rs`, `explain.rs` (reasons).
//! EventBridge's event patterns (`crate::events::pattern`) share the primitives: exact decimals,
//! CIDR blocks, wildcards and the `numeric` grammar.

mod body;
pub(crate) mod cidr;
mod explain;
mod limits;
mod matcher;
pub(crate) mod number;
pub(crate) mod operand;
mod parse;
pub(crate) mod values;
pub(crate) mod wildcard;

#[cfg(test)]
mod cases_accuracy;
#[cfg(test)]
mod cases_attributes;
#[cfg(test)]
mod cases_body;
#[cfg(test)]
mod cases_invalid;
#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

use crate::attributes::MessageAttributes;
use std::fmt;
use std::str::FromStr;

/// What a subscription's filter policy is applied to (the `FilterPolicyScope` attribute).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FilterPolicyScope {
    /// Message attributes (SNS's default).
    #[default]
    MessageAttributes,
    /// The message body, parsed as a JSON object.
    MessageBody,
}

impl FilterPolicyScope {
    pub fn as_str(&self) -> &'static str {
        match self {
            FilterPolicyScope::MessageAttributes => "MessageAttributes",
            FilterPolicyScope::MessageBody => "MessageBody",
        }
    }
}

impl FromStr for FilterPolicyScope {
    type Err = String;

    /// Exactly `MessageAttributes` or `MessageBody` (case-sensitive, as in SNS).
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "MessageAttributes" => Ok(FilterPolicyScope::MessageAttributes),
            "MessageBody" => Ok(FilterPolicyScope::MessageBody),
            other => Err(format!(
                "Invalid parameter: FilterPolicyScope: Invalid value [{other}]. Please use either MessageBody or \
                 MessageAttributes"
            )),
        }
    }
}

impl fmt::Display for FilterPolicyScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A compiled, validated filter policy. Evaluating it never re-parses the policy JSON.
#[derive(Clone, Debug)]
pub struct FilterPolicy {
    scope: FilterPolicyScope,
    root: parse::Node,
}

/// Why a policy was rejected; `message` reads like AWS's (`Invalid parameter: FilterPolicy: …`)
/// and names the offending key (dotted for nested keys) and the rule.
#[derive(Clone, Debug, PartialEq)]
pub struct FilterPolicyError {
    pub message: String,
}

impl fmt::Display for FilterPolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FilterPolicyError {}

/// The outcome of evaluating a policy against one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Match,
    NoMatch(NoMatch),
}

/// The first policy key that rejected the message, and why. For an `$or`, `key` is `$or` (or
/// `detail.$or` when nested) and `reason` lists every alternative's failure. When a
/// `MessageBody` policy meets a body that is not a JSON object, `key` is `(message body)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoMatch {
    pub key: String,
    pub reason: String,
}

impl fmt::Display for NoMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.reason)
    }
}

impl FilterPolicy {
    /// Parses and validates `policy_json` for `scope`, as SNS does on `Subscribe` /
    /// `SetSubscriptionAttributes`.
    pub fn compile(policy_json: &str, scope: FilterPolicyScope) -> Result<FilterPolicy, FilterPolicyError> {
        Ok(FilterPolicy { scope, root: parse::compile(policy_json, scope)? })
    }

    /// Whether this is the empty policy `{}`, which filters nothing: SNS docs, "Removing a
    /// subscription filter policy": "After you remove the policy, the subscription accepts every
    /// message that's published to it." (The engine then drops the policy from the subscription.)
    pub fn accepts_everything(&self) -> bool {
        self.root.keys.is_empty() && self.root.ors.is_empty()
    }

    /// Whether the message passes, and if not which key failed and why. In `MessageAttributes`
    /// scope `body` is ignored; in `MessageBody` scope `attributes` are ignored. The empty policy
    /// passes every message, in `MessageBody` scope even one whose body is not JSON.
    pub fn evaluate(&self, attributes: &MessageAttributes, body: &str) -> Verdict {
        if self.accepts_everything() {
            return Verdict::Match;
        }
        let outcome = match self.scope {
            FilterPolicyScope::MessageAttributes => matcher::eval_attributes::<true>(&self.root, attributes),
            FilterPolicyScope::MessageBody => matcher::eval_body::<true>(&self.root, body),
        };
        match outcome {
            Ok(()) => Verdict::Match,
            Err(Some(why)) => Verdict::NoMatch(why),
            Err(None) => Verdict::NoMatch(NoMatch { key: String::new(), reason: "the message does not match".into() }),
        }
    }

    /// `evaluate(..) == Verdict::Match`, without building any explanation.
    pub fn matches(&self, attributes: &MessageAttributes, body: &str) -> bool {
        if self.accepts_everything() {
            return true;
        }
        match self.scope {
            FilterPolicyScope::MessageAttributes => matcher::eval_attributes::<false>(&self.root, attributes).is_ok(),
            FilterPolicyScope::MessageBody => matcher::eval_body::<false>(&self.root, body).is_ok(),
        }
    }

    pub fn scope(&self) -> FilterPolicyScope {
        self.scope
    }
}
