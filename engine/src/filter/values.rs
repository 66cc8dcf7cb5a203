//! The compiled conditions of one policy key, and how one message value is tested against them.
//!
//! A policy key holds a list of conditions, and the list is an OR (SNS docs, "AND/OR logic": "You
//! can apply OR logic by assigning multiple values to a property name"). The list is compiled
//! once into lookup structures, so a long list is never scanned linearly at match time: exact
//! strings and numbers sit in `BTreeSet`s, prefixes and suffixes in sets probed once per distinct
//! length. The few linear lists left (`numeric` ranges, `cidr` blocks, wildcards) are bounded by
//! the 150-combination limit and the wildcard complexity limit.
//!
//! Values are typed, as in the JSON that SNS matches against: a `String` attribute is a string, a
//! `Number` attribute is a number, a `String.Array` holds strings, numbers, `true`/`false`/`null`.
//! String operators only match strings and numeric operators only match numbers (SNS docs,
//! "Numeric value matching": "Prefixes are supported for string matching only"); a policy value
//! only matches a message value of its own JSON type. Not stated in the SNS docs for every
//! combination (e.g. a `Number` attribute against a string policy value): chosen to follow the
//! typed-JSON model above, which is how event-ruler (the engine SNS and EventBridge share) works.
//!
//! Numbers are compared at five digits of accuracy after the decimal point (SNS docs, "Filter
//! policy constraints"): the policy's numbers are rounded when compiled (`operand.rs`), a message
//! number in [`Matcher::matches_leaf`]; exact numbers, `anything-but` numbers and `numeric`
//! ranges alike. `number.rs` says how the rounding goes.

use super::cidr::Cidr;
use super::number::Decimal;
use super::wildcard::Wildcard;
use crate::vecmap::VecSet;

/// One scalar message value, borrowed from the message.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Leaf<'a> {
    Str(&'a str),
    Num(&'a Decimal),
    Bool(bool),
    Null,
}

impl Leaf<'_> {
    /// SNS docs, "Key matching": for `"exists": true` "the key must have a non-null and non-empty
    /// value". Read here as: a leaf counts unless it is `null` or the empty string.
    pub(crate) fn is_meaningful(&self) -> bool {
        match self {
            Leaf::Str(s) => !s.is_empty(),
            Leaf::Null => false,
            Leaf::Num(_) | Leaf::Bool(_) => true,
        }
    }
}

/// Strings looked up by every distinct length at which the set holds one: `O(lengths × log n)`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Affixes {
    set: VecSet<String>,
    lengths: VecSet<usize>,
}

impl Affixes {
    pub(crate) fn insert(&mut self, affix: String) {
        self.lengths.insert(affix.len());
        self.set.insert(affix);
    }

    fn any_prefix_of(&self, value: &str) -> bool {
        self.lengths.iter().any(|&len| value.get(..len).is_some_and(|head| self.set.contains(head)))
    }

    fn any_suffix_of(&self, value: &str) -> bool {
        self.lengths.iter().any(|&len| {
            value.len().checked_sub(len).and_then(|at| value.get(at..)).is_some_and(|tail| self.set.contains(tail))
        })
    }

    fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

/// A `numeric` condition: one or two bounds (`=` is both bounds, inclusive, on one value).
#[derive(Clone, Debug)]
pub(crate) struct NumRange {
    pub(crate) lower: Option<(Decimal, bool)>,
    pub(crate) upper: Option<(Decimal, bool)>,
}

impl NumRange {
    /// Whether `n` lies within the bounds (both already at the dialect's accuracy).
    pub(crate) fn contains(&self, n: &Decimal) -> bool {
        let above = match &self.lower {
            Some((bound, inclusive)) => n > bound || (*inclusive && n == bound),
            None => true,
        };
        let below = match &self.upper {
            Some((bound, inclusive)) => n < bound || (*inclusive && n == bound),
            None => true,
        };
        above && below
    }
}

/// An `anything-but` condition: it matches any present value that does not match its operand.
#[derive(Clone, Debug)]
pub(crate) enum AnythingBut {
    Strings(VecSet<String>),
    Numbers(VecSet<Decimal>),
    Prefix(String),
    Suffix(String),
    Wildcard(Wildcard),
}

impl AnythingBut {
    /// A value of another type than the operand is, by definition, not one of the excluded values.
    fn allows(&self, leaf: &Leaf<'_>) -> bool {
        match (self, leaf) {
            (AnythingBut::Strings(set), Leaf::Str(s)) => !set.contains(*s),
            (AnythingBut::Numbers(set), Leaf::Num(n)) => !set.contains(*n),
            (AnythingBut::Prefix(p), Leaf::Str(s)) => !s.starts_with(p.as_str()),
            (AnythingBut::Suffix(p), Leaf::Str(s)) => !s.ends_with(p.as_str()),
            (AnythingBut::Wildcard(w), Leaf::Str(s)) => !w.matches(s),
            _ => true,
        }
    }
}

/// Everything one policy key asks for. The conditions are ORed together.
#[derive(Clone, Debug, Default)]
pub(crate) struct Matcher {
    pub(crate) strings: VecSet<String>,
    pub(crate) numbers: VecSet<Decimal>,
    pub(crate) match_true: bool,
    pub(crate) match_false: bool,
    pub(crate) match_null: bool,
    pub(crate) prefixes: Affixes,
    pub(crate) suffixes: Affixes,
    /// Lower-cased operands of `equals-ignore-case`.
    pub(crate) ignore_case: VecSet<String>,
    pub(crate) wildcards: Vec<Wildcard>,
    pub(crate) ranges: Vec<NumRange>,
    pub(crate) cidrs: Vec<Cidr>,
    pub(crate) anything_but: Vec<AnythingBut>,
    pub(crate) exists_true: bool,
    pub(crate) exists_false: bool,
    /// The policy's list elements as compact JSON, in policy order (for explanations).
    pub(crate) conditions: Vec<String>,
    /// How many elements the policy list had (for the combination limit).
    pub(crate) pattern_count: usize,
    /// Wildcard complexity points of this key's patterns (see `limits.rs`).
    pub(crate) wildcard_points: u64,
    pub(crate) has_wildcard: bool,
}

impl Matcher {
    /// Whether one message value satisfies any condition of this key (`exists` aside: it looks at
    /// presence, not at a value, and is decided by the caller). A number is tested at five digits
    /// of accuracy, like the policy's numbers were compiled (`number.rs`).
    pub(crate) fn matches_leaf(&self, leaf: &Leaf<'_>) -> bool {
        if let Leaf::Num(n) = leaf {
            let n = n.at_accuracy();
            return self.matches_leaf_at_accuracy(&Leaf::Num(&n));
        }
        self.matches_leaf_at_accuracy(leaf)
    }

    /// [`Matcher::matches_leaf`] for a leaf whose number, if any, is already rounded.
    fn matches_leaf_at_accuracy(&self, leaf: &Leaf<'_>) -> bool {
        let positive = match leaf {
            Leaf::Str(s) => {
                self.strings.contains(*s)
                    || self.prefixes.any_prefix_of(s)
                    || self.suffixes.any_suffix_of(s)
                    || (!self.ignore_case.is_empty() && self.ignore_case.contains(&s.to_lowercase()))
                    || self.wildcards.iter().any(|w| w.matches(s))
                    || self.cidrs.iter().any(|c| c.contains(s))
            }
            Leaf::Num(n) => self.numbers.contains(*n) || self.ranges.iter().any(|r| r.contains(n)),
            Leaf::Bool(true) => self.match_true,
            Leaf::Bool(false) => self.match_false,
            Leaf::Null => self.match_null,
        };
        positive || self.anything_but.iter().any(|a| a.allows(leaf))
    }

    /// Whether any of the values satisfies a value condition (an array matches if any element does).
    pub(crate) fn matches_any(&self, leaves: &[Leaf<'_>]) -> bool {
        leaves.iter().any(|leaf| self.matches_leaf(leaf))
    }

    /// True when every condition is an exact string (the "not one of [...]" explanation reads best).
    pub(crate) fn only_exact_strings(&self) -> bool {
        !self.strings.is_empty() && self.strings.len() == self.pattern_count
    }

    /// Whether some condition can match a string / a number (for type-mismatch hints).
    pub(crate) fn has_string_conditions(&self) -> bool {
        !self.strings.is_empty()
            || !self.prefixes.is_empty()
            || !self.suffixes.is_empty()
            || !self.ignore_case.is_empty()
            || !self.wildcards.is_empty()
            || !self.cidrs.is_empty()
    }

    pub(crate) fn has_numeric_conditions(&self) -> bool {
        !self.numbers.is_empty() || !self.ranges.is_empty()
    }

    /// Whether some condition compares numbers (exact, `numeric` or `anything-but` numbers).
    pub(crate) fn compares_numbers(&self) -> bool {
        self.has_numeric_conditions() || self.anything_but.iter().any(|a| matches!(a, AnythingBut::Numbers(_)))
    }

    /// The only condition is `"exists": false`.
    pub(crate) fn only_exists_false(&self) -> bool {
        self.exists_false && self.pattern_count == 1
    }
}

#[cfg(test)]
mod tests {
    use super::{Affixes, Leaf};

    #[test]
    fn affixes_respect_char_boundaries() {
        let mut set = Affixes::default();
        set.insert("é".into()); // two bytes
        set.insert("a".into());
        assert!(set.any_prefix_of("éa"));
        assert!(set.any_suffix_of("bé"));
        assert!(!set.any_prefix_of("ü"));
        assert!(!set.any_suffix_of("ü"), "a 1-byte probe inside a 2-byte char must not panic");
        assert!(!set.any_prefix_of(""));
    }

    #[test]
    fn meaningful_leaves() {
        assert!(!Leaf::Null.is_meaningful());
        assert!(!Leaf::Str("").is_meaningful());
        assert!(Leaf::Str("x").is_meaningful());
        assert!(Leaf::Bool(false).is_meaningful());
    }
}
