//! Property tests: no input, however malformed, makes compiling or evaluating panic, and the fast
//! `matches` always agrees with `evaluate`.

use super::tests::{attrs, MA, MB};
use super::{FilterPolicy, FilterPolicyScope, Verdict};
use crate::attributes::MessageAttributes;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const KEYS: &[&str] = &[
    "a",
    "b",
    "a.b",
    "$or",
    "prefix",
    "suffix",
    "anything-but",
    "numeric",
    "exists",
    "cidr",
    "wildcard",
    "equals-ignore-case",
    "é",
    "",
];
const STRINGS: &[&str] = &[
    "",
    "x",
    "a.b",
    "=",
    "<",
    "<=",
    ">",
    ">=",
    "*",
    "a*b",
    "**",
    "\\",
    "10.0.0.0/24",
    "::/0",
    "10.0.0.1",
    "1e2",
    "ünï",
    "prefix",
    "$or",
    "-",
    "0.00001",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e12f64..1e12).prop_map(|f| json!(f)),
        prop::sample::select(STRINGS).prop_map(|s| json!(s)),
        "\\PC{0,8}".prop_map(Value::String),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![prop::sample::select(KEYS).prop_map(str::to_owned), "[a-z.]{0,4}"]
}

/// Arbitrary JSON, biased towards the shapes and names filter policies use.
fn json_value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn one(op: &str, operand: Value) -> Value {
    let mut map = Map::new();
    map.insert(op.to_owned(), operand);
    Value::Object(map)
}

/// A match expression that is usually valid, sometimes not.
fn expression() -> impl Strategy<Value = Value> {
    let text = || prop::sample::select(STRINGS).prop_map(|s| json!(s));
    let op = prop::sample::select(&["=", "<", "<=", ">", ">="][..]);
    prop_oneof![
        (prop::sample::select(&["prefix", "suffix", "equals-ignore-case", "wildcard", "anything-but"][..]), text())
            .prop_map(|(op, s)| one(op, s)),
        (prop::sample::select(&["prefix", "suffix", "wildcard"][..]), text())
            .prop_map(|(op, s)| one("anything-but", one(op, s))),
        any::<bool>().prop_map(|b| one("exists", json!(b))),
        (op, -100i64..100).prop_map(|(op, n)| one("numeric", json!([op, n]))),
        (-100i64..100, 1i64..50).prop_map(|(low, span)| one("numeric", json!([">=", low, "<", low + span]))),
        prop::collection::vec(-20i64..20, 1..4).prop_map(|ns| one("anything-but", json!(ns))),
        prop::sample::select(&["10.0.0.0/8", "10.0.0.1/32", "::/0", "2001:db8::/32", "bad"][..])
            .prop_map(|c| one("cidr", json!(c))),
        (prop::sample::select(KEYS), json_value()).prop_map(|(op, operand)| one(op, operand)),
    ]
}

/// A policy-shaped object: keys → lists of scalars and one-operator expressions, or nested.
fn policy_like() -> impl Strategy<Value = Value> {
    let element = prop_oneof![2 => scalar(), 3 => expression()];
    let list = prop::collection::vec(element, 1..4).prop_map(Value::Array);
    let small_key = || prop::sample::select(&["a", "b", "a.b", "$or", "é"][..]).prop_map(str::to_owned);
    list.prop_recursive(3, 16, 3, move |inner| {
        prop_oneof![
            prop::collection::vec((small_key(), inner.clone()), 1..3)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
            prop::collection::vec(prop::collection::vec((small_key(), inner), 1..3), 2..3).prop_map(|alternatives| {
                let alternatives: Vec<Value> = alternatives
                    .into_iter()
                    .map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>()))
                    .collect();
                one("$or", Value::Array(alternatives))
            }),
        ]
    })
    .prop_map(|v| if v.is_object() { v } else { one("a", v) })
}

/// A body that often has the keys and values `policy_like` asks about.
fn body_like() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        prop::sample::select(STRINGS).prop_map(|s| json!(s)),
        (-120i64..120).prop_map(|n| json!(n)),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ];
    let small_key = || prop::sample::select(&["a", "b", "a.b", "é"][..]).prop_map(str::to_owned);
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((small_key(), inner), 1..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
    .prop_map(|v| if v.is_object() { v } else { one("a", v) })
}

fn attributes() -> impl Strategy<Value = MessageAttributes> {
    let data_type = prop::sample::select(&["String", "Number", "String.Array", "Binary", "Number.float", "Weird"][..]);
    let value = prop_oneof![
        "\\PC{0,12}",
        prop::sample::select(STRINGS).prop_map(str::to_owned),
        (-120i64..120).prop_map(|n| n.to_string()),
        json_value().prop_map(|v| v.to_string()),
    ];
    prop::collection::vec((prop::sample::select(KEYS), data_type, value), 0..5).prop_map(|list| {
        let borrowed: Vec<(&str, &str, &str)> = list.iter().map(|(k, t, v)| (*k, *t, v.as_str())).collect();
        attrs(&borrowed)
    })
}

fn check(policy: &FilterPolicy, attributes: &MessageAttributes, body: &str) {
    let verdict = policy.evaluate(attributes, body);
    assert_eq!(policy.matches(attributes, body), verdict == Verdict::Match);
}

fn scopes() -> impl Strategy<Value = FilterPolicyScope> {
    prop_oneof![Just(MA), Just(MB)]
}

proptest! {
    // No failure persistence: a regressions file would land outside this module's directory.
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_as_policy_never_panics(text in "\\PC{0,64}", scope in scopes()) {
        let _ = FilterPolicy::compile(&text, scope);
    }

    #[test]
    fn arbitrary_json_as_policy_never_panics(value in json_value(), scope in scopes(), body in json_value(), a in attributes()) {
        if let Ok(policy) = FilterPolicy::compile(&value.to_string(), scope) {
            check(&policy, &a, &body.to_string());
        }
    }

    #[test]
    fn policy_shaped_json_never_panics(value in policy_like(), scope in scopes(), body in body_like(), a in attributes()) {
        if let Ok(policy) = FilterPolicy::compile(&value.to_string(), scope) {
            check(&policy, &a, &body.to_string());
            check(&policy, &a, "not json");
        }
    }

    #[test]
    fn arbitrary_bodies_and_attributes_never_panic(body in json_value(), text in "\\PC{0,40}", a in attributes()) {
        let policies = [
            (MB, r#"{"a": ["x", 1, null, true, {"prefix": "p"}, {"suffix": "s"}, {"numeric": [">", 0, "<", 10]}]}"#),
            (MB, r#"{"a": {"b": [{"exists": false}]}, "$or": [{"b": [{"anything-but": ["x"]}]}, {"a.b": [{"cidr": "10.0.0.0/8"}]}]}"#),
            (MB, r#"{"é": [{"wildcard": "*x*"}, {"equals-ignore-case": "ÉX"}], "a": [{"exists": true}]}"#),
            (MA, r#"{"a": ["x", 5, {"anything-but": {"suffix": "z"}}], "b": [{"exists": false}], "$or": [{"n": [{"numeric": ["=", 5]}]}, {"é": [null]}]}"#),
        ];
        for (scope, source) in policies {
            let policy = FilterPolicy::compile(source, scope).unwrap();
            check(&policy, &a, &body.to_string());
            check(&policy, &a, &text);
        }
    }
}

#[test]
fn pathological_inputs_do_not_panic() {
    let deep_array = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let deep_object = format!("{}1{}", "{\"a\":".repeat(5000), "}".repeat(5000));
    let long_key = format!("{{\"{}\": [\"x\"]}}", vec!["k"; 60_000].join("."));
    for text in [deep_array.as_str(), deep_object.as_str(), long_key.as_str(), "\u{0}", "{\"a\": [\"\\ud800\"]}"] {
        for scope in [MA, MB] {
            if let Ok(policy) = FilterPolicy::compile(text, scope) {
                check(&policy, &MessageAttributes::new(), text);
            }
        }
        let policy = FilterPolicy::compile(r#"{"a": [{"exists": false}], "k": [{"prefix": ""}]}"#, MB).unwrap();
        check(&policy, &MessageAttributes::new(), text);
    }
}
