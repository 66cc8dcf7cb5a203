//! Table: numeric matching at five digits of accuracy, for every numeric operator.
//!
//! SNS docs, "Filter policy constraints": "Numeric matching – For numeric matching, the value can
//! range from -10^9 to 10^9 (-1 billion to 1 billion), with five digits of accuracy after the
//! decimal point." So values that differ only beyond the fifth decimal are the same number for
//! matching. How a sixth decimal is rounded is not in the docs; chosen: to the nearest 0.00001,
//! halves away from zero (`number.rs`), in the policy and in the message alike.
//!
//! Each row: (policy, message number as written, whether it matches). Every row runs twice: as a
//! `Number` message attribute in `MessageAttributes` scope, and as the body `{"price": <number>}`
//! in `MessageBody` scope.

use super::tests::{attrs, compile, verdict, MA, MB};
use super::Verdict;
use crate::attributes::MessageAttributes;

type Row = (&'static str, &'static str, bool);

const EQ: &str = r#"{"price": [{"numeric": ["=", 1.0000001]}]}"#;
const EQ_ONE: &str = r#"{"price": [{"numeric": ["=", 1]}]}"#;
const BARE: &str = r#"{"price": [5]}"#;
const BUT: &str = r#"{"price": [{"anything-but": [100, 500]}]}"#;
const BUT_ONE: &str = r#"{"price": [{"anything-but": 1.0000001}]}"#;
const LT: &str = r#"{"price": [{"numeric": ["<", 1]}]}"#;
const LE: &str = r#"{"price": [{"numeric": ["<=", 1]}]}"#;
const GT: &str = r#"{"price": [{"numeric": [">", 1]}]}"#;
const GE: &str = r#"{"price": [{"numeric": [">=", 1]}]}"#;
const BETWEEN: &str = r#"{"price": [{"numeric": [">", 0, "<=", 150]}]}"#;
const BETWEEN_FINE: &str = r#"{"price": [{"numeric": [">=", 9.999995, "<", 20]}]}"#;
const NEGATIVE: &str = r#"{"price": [{"numeric": ["<", 0]}]}"#;
const TOP: &str = r#"{"price": [{"numeric": ["<", 1000000000]}]}"#;

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // Exact "=": 1.0000001 and 1.0000002 differ only in the seventh decimal.
    (EQ, "1.0000002", true),
    (EQ, "1", true),
    // … but a difference in the fifth decimal counts.
    (EQ, "1.00001", false),
    // Exact "=": a sixth decimal below 5 rounds down, 5 and above rounds up.
    (EQ_ONE, "1.000004", true),
    (EQ_ONE, "1.0000049", true),
    (EQ_ONE, "1.000005", false),
    (EQ_ONE, "0.999995", true),
    (EQ_ONE, "0.9999949", false),
    // Exact match by a bare number.
    (BARE, "5.000001", true),
    (BARE, "5.00001", false),
    // Anything-but numbers: a value equal to an excluded number at five decimals is excluded.
    (BUT, "100.000001", false),
    (BUT, "499.999996", false),
    (BUT, "100.00001", true),
    (BUT_ONE, "1", false),
    (BUT_ONE, "1.00001", true),
    // "<": 0.999996 counts as 1, which is not below 1.
    (LT, "0.999996", false),
    (LT, "0.999994", true),
    (LT, "0.99999", true),
    // "<=": 1.000004 counts as 1.
    (LE, "1.000004", true),
    (LE, "1.000005", false),
    // ">": 1.000004 counts as 1, which is not above 1.
    (GT, "1.000004", false),
    (GT, "1.000005", true),
    (GT, "1.00001", true),
    // ">=": 0.999995 counts as 1.
    (GE, "0.999995", true),
    (GE, "0.9999949", false),
    // Between-range "> 0, <= 150", at both ends.
    (BETWEEN, "150.000004", true),
    (BETWEEN, "150.000005", false),
    (BETWEEN, "0.000004", false),
    (BETWEEN, "0.000005", true),
    // A policy bound with six decimals is rounded too: 9.999995 counts as 10.
    (BETWEEN_FINE, "9.99999", false),
    (BETWEEN_FINE, "9.999996", true),
    (BETWEEN_FINE, "19.999996", false),
    // Below zero: -0.000004 counts as 0, -0.000005 as -0.00001.
    (NEGATIVE, "-0.000004", false),
    (NEGATIVE, "-0.000005", true),
    // At the documented bound of 10^9.
    (TOP, "999999999.999994", true),
    (TOP, "999999999.999995", false),
];

fn body_of(number: &str) -> String {
    format!("{{\"price\": {number}}}")
}

#[test]
fn numeric_matching_has_five_digits_of_accuracy() {
    let mut failures = Vec::new();
    for (i, &(policy, number, expected)) in ROWS.iter().enumerate() {
        let attribute = verdict(&compile(MA, policy), &attrs(&[("price", "Number", number)]), "") == Verdict::Match;
        let body = verdict(&compile(MB, policy), &MessageAttributes::new(), &body_of(number)) == Verdict::Match;
        for (scope, got) in [("MessageAttributes", attribute), ("MessageBody", body)] {
            if got != expected {
                failures.push(format!("row {i} ({scope}): {policy} against {number}: expected {expected}, got {got}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_string_array_number_is_compared_at_five_decimals_too() {
    // "Amazon SNS message attributes": a String.Array may hold numbers, matched numerically.
    let policy = compile(MA, EQ);
    assert_eq!(verdict(&policy, &attrs(&[("price", "String.Array", "[7, 1.0000002]")]), ""), Verdict::Match);
    assert_ne!(verdict(&policy, &attrs(&[("price", "String.Array", "[7, 1.00001]")]), ""), Verdict::Match);
}

#[test]
fn a_miss_caused_by_rounding_says_so() {
    let Verdict::NoMatch(why) = verdict(&compile(MA, LT), &attrs(&[("price", "Number", "0.999996")]), "") else {
        panic!("0.999996 counts as 1, which is not below 1");
    };
    assert_eq!(
        why.reason,
        r#"attribute "price" is 0.999996, which matches none of [{"numeric":["<",1]}] (numbers are compared at five decimal places: 0.999996 counts as 1)"#
    );
    let Verdict::NoMatch(why) = verdict(&compile(MB, BUT), &MessageAttributes::new(), &body_of("100.000001")) else {
        panic!("100.000001 counts as 100, which is excluded");
    };
    assert!(
        why.reason.ends_with("(numbers are compared at five decimal places: 100.000001 counts as 100)"),
        "{}",
        why.reason
    );
    // No note when the number has at most five decimals, or when no condition compares numbers.
    let Verdict::NoMatch(why) = verdict(&compile(MA, LT), &attrs(&[("price", "Number", "1.5")]), "") else {
        panic!("1.5 is not below 1");
    };
    assert!(!why.reason.contains("five decimal places"), "{}", why.reason);
    let strings = compile(MA, r#"{"price": ["cheap"]}"#);
    let Verdict::NoMatch(why) = verdict(&strings, &attrs(&[("price", "Number", "0.999996")]), "") else {
        panic!("a number never matches a string");
    };
    assert!(!why.reason.contains("five decimal places"), "{}", why.reason);
}

#[test]
fn policy_numbers_with_more_decimals_compile_and_the_range_limit_still_holds() {
    // "Filter policy constraints": "five digits of accuracy" — more decimals are rounded, not refused…
    for policy in [EQ, BUT_ONE, BETWEEN_FINE, r#"{"n": [{"numeric": ["<", 0.000001]}]}"#] {
        compile(MA, policy);
    }
    // … while "the value can range from -10^9 to 10^9" is still enforced, on the number as written.
    for policy in [
        r#"{"n": [{"numeric": ["<", 1000000000.000001]}]}"#,
        r#"{"n": [{"numeric": [">", -1000000000.000001]}]}"#,
        r#"{"n": [{"anything-but": [1000000001]}]}"#,
    ] {
        let e = super::FilterPolicy::compile(policy, MA).expect_err(policy);
        assert!(e.message.contains("out of range"), "{}", e.message);
    }
    compile(MA, r#"{"n": [{"numeric": [">=", -1000000000, "<=", 1000000000]}]}"#);
}
