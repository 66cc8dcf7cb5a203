//! EventBridge's limit on how complex a pattern's wildcards may be.
//!
//! EventBridge docs, "Comparison operators for use in event patterns", section "Wildcards and
//! event pattern complexity"
//! (<https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-create-pattern-operators.html#eb-filtering-wildcard-matching-complexity>):
//! "If a rule is too complex, EventBridge returns an `InvalidEventPatternException` when
//! attempting to create the rule" (as quoted in `aws/aws-cdk` pull request 32063, whose author
//! adds "I'm not sure how the complexity of a rule is measured, nor where the limit is"). The page
//! advises fewer wildcard characters and fewer repeating character sequences after a wildcard,
//! with the examples LocalStack's templates below take from it (`"*:*:*:*:*:event-bus/*"` →
//! `"arn:aws:events:us-east-1:*:event-bus/*"`, `"/Users/*/dir/dir/dir/dir/dir/doc.txt"` →
//! `"/Users/*/doc.txt"`), and states no number. Recorded from AWS (LocalStack's validated
//! test suite, `localstack/localstack`, `tests/aws/services/events/event_pattern_templates/`,
//! October 2025): `content_wildcard_complex_EXC` — `{"EventBusArn": [{"wildcard":
//! "*:*:*:*:*:event-bus/*"}]}` is refused with "Event pattern is not valid. Reason: Rule is too
//! complex - try using fewer wildcard characters or fewer repeating character sequences after a
//! wildcard character"; `content_wildcard_simplified`, `content_wildcard_repeating` and
//! `content_wildcard_nonrepeating` — the other three are accepted.
//!
//! The measure is event-ruler's (the matcher EventBridge runs), `MachineComplexityEvaluator`:
//! "the maximum possible number of wildcard rule prefixes that could match a theoretical input
//! value", over one field's patterns (its README: "MachineComplexityEvaluator can be used to
//! evaluate a machine and determine the degree of non-determinism, or 'complexity' (i.e. how many
//! wildcard rule prefixes match a theoretical worst-case event)"). A prefix ends at a character
//! or at a star of a `wildcard` (or `anything-but` `wildcard`) pattern, written with its JSON
//! quotes as event-ruler stores it; identical patterns count once. The unit tests below hold
//! event-ruler's own expected values (`MachineComplexityEvaluatorTest`).
//!
//! The limit is not published. Chosen: more than 10 is refused — the per-rule figure event-ruler's
//! README uses in its example ("you could limit each single-rule machine to complexity of 10").
//! It agrees with every answer found: the recorded pattern above measures 11 (refused); the
//! recorded accepted ones measure 3, 7 and 2; and a user reports a rule with four
//! `"*:stack/<name>/*"` values on one field refused and three accepted (`vals-ai/Valkyrie` pull
//! request 278), which measure 12 and 9 for stack names like theirs.
//!
//! Simplified: each leaf field of the pattern is one machine (event-ruler shares a machine between
//! `$or` branches that reach a field through the same earlier fields); an `anything-but` list of
//! wildcards counts as one pattern per value.

use super::compile::{PChild, PNode};
use super::operand::{AnythingBut, Cond};
use crate::filter::wildcard::Wildcard;
use crate::vecmap::VecSet;
use std::collections::BTreeSet;

/// The most wildcard prefixes one value may be in at once, for one field.
pub(crate) const MAX_WILDCARD_COMPLEXITY: usize = 10;

/// How many distinct sets of prefixes are examined before a field is called too complex anyway
/// (the engine's own bound, so a compile always ends quickly).
const STATE_BUDGET: usize = 20_000;

/// AWS's reason, word for word (recorded; see the module docs).
pub(crate) const TOO_COMPLEX: &str = "Rule is too complex - try using fewer wildcard characters or fewer repeating \
                                      character sequences after a wildcard character";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Token {
    Byte(u8),
    Star,
}

/// Every leaf field's wildcard patterns are within the limit; otherwise AWS's reason, with the
/// field and its measure.
pub(crate) fn check(root: &PNode) -> Result<(), String> {
    let mut fields = Vec::new();
    collect(root, &mut fields);
    for (display, globs) in fields {
        let globs: Vec<Vec<Token>> = globs.into_iter().collect();
        match measure(&globs, MAX_WILDCARD_COMPLEXITY) {
            Measure::Within(_) => {}
            Measure::Over(reached) => {
                return Err(format!(
                    "{TOO_COMPLEX} (field \"{display}\": one value can be inside {reached} wildcard prefixes at \
                     once; at most {MAX_WILDCARD_COMPLEXITY} are allowed)"
                ))
            }
            Measure::TooLarge => {
                return Err(format!("{TOO_COMPLEX} (field \"{display}\": its wildcards are too large to evaluate)"))
            }
        }
    }
    Ok(())
}

/// Each leaf field that has wildcard patterns, with them as token strings (deduplicated).
fn collect(node: &PNode, out: &mut Vec<(String, VecSet<Vec<Token>>)>) {
    for key in &node.keys {
        match &key.child {
            PChild::Nested(sub) => collect(sub, out),
            PChild::Leaf(conds) => {
                let mut globs = VecSet::new();
                for cond in &conds.list {
                    match cond {
                        Cond::Wildcard(w) => {
                            globs.insert(tokens(w));
                        }
                        Cond::AnythingBut(AnythingBut::Wildcards(ws)) => globs.extend(ws.iter().map(tokens)),
                        _ => {}
                    }
                }
                if !globs.is_empty() {
                    out.push((key.display.clone(), globs));
                }
            }
        }
    }
    for group in &node.ors {
        for alternative in group {
            collect(alternative, out);
        }
    }
}

/// The pattern as event-ruler stores it: in JSON quotes, a star between literal segments.
fn tokens(w: &Wildcard) -> Vec<Token> {
    let mut out = vec![Token::Byte(b'"')];
    for (i, segment) in w.segments().iter().enumerate() {
        if i > 0 {
            out.push(Token::Star);
        }
        out.extend(segment.bytes().map(Token::Byte));
    }
    out.push(Token::Byte(b'"'));
    out
}

#[derive(Debug, PartialEq, Eq)]
enum Measure {
    /// The largest number of prefixes one value can be inside at once.
    Within(usize),
    /// A value can be inside this many, more than the limit.
    Over(usize),
    /// More than [`STATE_BUDGET`] sets of prefixes to examine.
    TooLarge,
}

/// The active prefixes of every pattern after some input: for each pattern, the lengths of its
/// prefixes (0 is the empty prefix) that match the input read so far, ascending.
type Active = Vec<Vec<usize>>;

/// Explores every set of prefixes some input can reach (one input byte at a time; bytes that no
/// active prefix continues with behave alike), stopping as soon as one exceeds `limit`.
fn measure(globs: &[Vec<Token>], limit: usize) -> Measure {
    let start: Active = globs.iter().map(|g| closure(g, vec![0])).collect();
    let mut seen: BTreeSet<Active> = BTreeSet::new();
    seen.insert(start.clone());
    let mut work = vec![start];
    let mut largest = 0;
    while let Some(active) = work.pop() {
        let mut bytes: VecSet<Option<u8>> = VecSet::new();
        bytes.insert(None);
        for (glob, positions) in globs.iter().zip(&active) {
            for &i in positions {
                if let Some(Token::Byte(b)) = glob.get(i) {
                    bytes.insert(Some(*b));
                }
            }
        }
        for byte in bytes {
            let next: Active = globs.iter().zip(&active).map(|(g, positions)| step(g, positions, byte)).collect();
            let size: usize = next.iter().map(|positions| positions.iter().filter(|&&i| i > 0).count()).sum();
            if size == 0 {
                continue;
            }
            if size > limit {
                return Measure::Over(size);
            }
            largest = largest.max(size);
            if seen.insert(next.clone()) {
                if seen.len() > STATE_BUDGET {
                    return Measure::TooLarge;
                }
                work.push(next);
            }
        }
    }
    Measure::Within(largest)
}

/// The prefixes active after reading `byte` (`None`: a byte no active prefix continues with).
fn step(glob: &[Token], positions: &[usize], byte: Option<u8>) -> Vec<usize> {
    let mut next = Vec::new();
    for &i in positions {
        // A prefix ending in a star takes any byte and stays.
        if i > 0 && glob.get(i - 1) == Some(&Token::Star) {
            next.push(i);
        }
        if let (Some(Token::Byte(want)), Some(b)) = (glob.get(i), byte) {
            if *want == b {
                next.push(i + 1);
            }
        }
    }
    closure(glob, next)
}

/// Adds the prefixes one star further (a star may match nothing), sorted and deduplicated.
fn closure(glob: &[Token], mut positions: Vec<usize>) -> Vec<usize> {
    let mut k = 0;
    while k < positions.len() {
        let i = positions[k];
        if glob.get(i) == Some(&Token::Star) && !positions.contains(&(i + 1)) {
            positions.push(i + 1);
        }
        k += 1;
    }
    crate::vecmap::sort(&mut positions);
    positions.dedup();
    positions
}

#[cfg(test)]
mod tests {
    use super::{measure, tokens, Measure};
    use crate::filter::wildcard::Wildcard;

    /// The measure without JSON quotes, as event-ruler's unit tests add patterns to a bare machine.
    fn bare(patterns: &[&str]) -> usize {
        let mut globs: Vec<_> = patterns
            .iter()
            .map(|p| {
                let t = tokens(&Wildcard::parse_unbounded(p).unwrap());
                t[1..t.len() - 1].to_vec()
            })
            .collect();
        globs.sort();
        globs.dedup();
        match measure(&globs, 1000) {
            Measure::Within(n) => n,
            other => panic!("{patterns:?}: {other:?}"),
        }
    }

    #[test]
    fn event_rulers_own_expected_values() {
        // event-ruler, MachineComplexityEvaluatorTest: pattern set and the documented maximum.
        #[rustfmt::skip]
        let rows: &[(&[&str], usize)] = &[
            (&["*"], 1), (&["abc"], 1), (&["*ab"], 2), (&["*aa"], 3), (&["a*b"], 2), (&["aa*"], 2),
            (&["a*bc"], 2), (&["a*bb"], 3), (&["a*bcb"], 3), (&["a*bbb"], 4), (&["*ab*ad"], 4),
            (&["*ab*d"], 3), (&["*aba*"], 4), (&["a*b*bb"], 5), (&["a*b*cb"], 4), (&["a*b*cd"], 3),
            (&["a*b*b"], 4), (&["a*bb*"], 4), (&["ab*b*"], 3), (&["ab*c", "x*xx"], 3),
            (&["*abc", "*abcde"], 4), (&["a*bcd", "ab*cd"], 4), (&["a*bc", "a*bcde"], 4),
            (&["a*aaa", "aa*aa"], 7), (&["a*bc", "abc*d"], 4), (&["a*aaa", "aaa*a"], 6),
            (&["a*aax", "aaa*x"], 5), (&["a*bc", "abc*"], 4), (&["a*aa", "aaa*"], 5),
            (&["abc*", "abcde*"], 3), (&["ab*cd", "ab*wx", "ab*yz"], 6), (&["*ab*b*b*"], 7),
            (&["*a*a*a*a*a*a*a*a*"], 17), (&["ab*c", "ab*c"], 2), (&["*", "ab*c"], 3),
            (&["F*eatureFeature", "Fe*atureFeature", "Fea*tureFeature"], 10),
        ];
        for (patterns, expected) in rows {
            assert_eq!(bare(patterns), *expected, "{patterns:?}");
        }
    }

    #[test]
    fn the_recorded_patterns_measure() {
        let quoted = |patterns: &[&str]| {
            let globs: Vec<_> = patterns.iter().map(|p| tokens(&Wildcard::parse_unbounded(p).unwrap())).collect();
            measure(&globs, 1000)
        };
        assert_eq!(quoted(&["*:*:*:*:*:event-bus/*"]), Measure::Within(11));
        assert_eq!(quoted(&["arn:aws:events:us-east-1:*:event-bus/*"]), Measure::Within(3));
        assert_eq!(quoted(&["/Users/*/dir/dir/dir/dir/dir/doc.txt"]), Measure::Within(7));
        assert_eq!(quoted(&["/Users/*/doc.txt"]), Measure::Within(2));
        let stacks = |names: &[&str]| names.iter().map(|n| format!("*:stack/{n}/*")).collect::<Vec<_>>();
        let three = stacks(&["Api", "Data", "Shared"]);
        let four = stacks(&["Api", "Data", "Shared", "Monitoring"]);
        assert_eq!(quoted(&three.iter().map(String::as_str).collect::<Vec<_>>()), Measure::Within(9));
        assert_eq!(quoted(&four.iter().map(String::as_str).collect::<Vec<_>>()), Measure::Within(12));
    }

    #[test]
    fn evaluation_stops_at_the_limit_or_the_budget() {
        let glob = tokens(&Wildcard::parse_unbounded("*a*a*a*a*a*a*a*a*a*a*").unwrap());
        assert!(matches!(measure(&[glob], 10), Measure::Over(n) if n > 10));
        // Many long distinct patterns: bounded work whatever the answer.
        let globs: Vec<_> = (0..40)
            .map(|i| tokens(&Wildcard::parse_unbounded(&format!("{}*{}", "x".repeat(i), "y".repeat(200))).unwrap()))
            .collect();
        assert!(matches!(measure(&globs, usize::MAX), Measure::Within(_) | Measure::TooLarge));
    }
}
