//! Shared test helpers, the seed cases, explanations and API behaviour.
//! The big tables are in `cases_attributes.rs`, `cases_body.rs` and `cases_invalid.rs`.

use super::{FilterPolicy, FilterPolicyScope, NoMatch, Verdict};
use crate::attributes::{MessageAttributeValue, MessageAttributes};

pub(super) use super::FilterPolicyScope::{MessageAttributes as MA, MessageBody as MB};

/// Attributes from `(name, data type, value)`; a `Binary…` type gets the value as `BinaryValue`.
pub(super) fn attrs(list: &[(&str, &str, &str)]) -> MessageAttributes {
    list.iter()
        .map(|&(name, data_type, value)| {
            let binary = data_type.starts_with("Binary");
            let attribute = MessageAttributeValue {
                data_type: data_type.to_owned(),
                string_value: (!binary).then(|| value.to_owned()),
                binary_value: binary.then(|| value.to_owned()),
            };
            (name.to_owned(), attribute)
        })
        .collect()
}

pub(super) fn compile(scope: FilterPolicyScope, policy: &str) -> FilterPolicy {
    FilterPolicy::compile(policy, scope).unwrap_or_else(|e| panic!("policy {policy} should compile: {}", e.message))
}

/// Evaluates, and checks that the fast path agrees with the explaining one.
pub(super) fn verdict(policy: &FilterPolicy, attributes: &MessageAttributes, body: &str) -> Verdict {
    let verdict = policy.evaluate(attributes, body);
    assert_eq!(policy.matches(attributes, body), verdict == Verdict::Match, "matches() disagrees with evaluate()");
    verdict
}

fn no_match(verdict: Verdict) -> NoMatch {
    match verdict {
        Verdict::NoMatch(why) => why,
        Verdict::Match => panic!("expected no match"),
    }
}

const SEED_ATTRIBUTES: &str = r#"{"event_type": ["OrderPlaced", "OrderShipped"]}"#;
const SEED_BODY: &str = r#"{"order_type": ["wholesale", "b2b"], "order_total": [{"numeric": [">=", 5000]}], "shipping_address": {"country": ["US", "CA"]}}"#;

#[test]
fn seed_attribute_policy() {
    let policy = compile(MA, SEED_ATTRIBUTES);
    for event in ["OrderPlaced", "OrderShipped"] {
        assert_eq!(verdict(&policy, &attrs(&[("event_type", "String", event)]), ""), Verdict::Match);
    }
    let why = no_match(verdict(&policy, &attrs(&[("event_type", "String", "RefundIssued")]), ""));
    assert_eq!(
        why,
        NoMatch {
            key: "event_type".into(),
            reason: r#"attribute "event_type" is "RefundIssued", not one of ["OrderPlaced", "OrderShipped"]"#.into()
        }
    );
    let why = no_match(verdict(&policy, &attrs(&[("other", "String", "x")]), ""));
    assert_eq!(why.reason, r#"attribute "event_type" is missing"#);
}

#[test]
fn seed_body_policy() {
    let policy = compile(MB, SEED_BODY);
    let none = MessageAttributes::new();
    let ok = [
        r#"{"order_type": "wholesale", "order_total": 5000, "shipping_address": {"country": "US"}}"#,
        r#"{"order_type": "b2b", "order_total": 12000.5, "shipping_address": {"country": "CA", "city": "Toronto"}, "extra": 1}"#,
        r#"{"order_type": ["retail", "b2b"], "order_total": 5e3, "shipping_address": [{"country": "MX"}, {"country": "US"}]}"#,
    ];
    for body in ok {
        assert_eq!(verdict(&policy, &none, body), Verdict::Match, "{body}");
    }
    let bad = [
        (r#"{"order_type": "retail", "order_total": 9000, "shipping_address": {"country": "US"}}"#, "order_type"),
        (r#"{"order_type": "b2b", "order_total": 4999.99, "shipping_address": {"country": "US"}}"#, "order_total"),
        (r#"{"order_type": "b2b", "order_total": "9000", "shipping_address": {"country": "US"}}"#, "order_total"),
        (
            r#"{"order_type": "b2b", "order_total": 9000, "shipping_address": {"country": "FR"}}"#,
            "shipping_address.country",
        ),
        (r#"{"order_type": "b2b", "order_total": 9000}"#, "shipping_address.country"),
        (r#"{"order_type": "b2b", "order_total": 9000, "shipping_address": "US"}"#, "shipping_address.country"),
    ];
    for (body, key) in bad {
        assert_eq!(no_match(verdict(&policy, &none, body)).key, key, "{body}");
    }
    let why = no_match(verdict(
        &policy,
        &none,
        r#"{"order_type": "b2b", "order_total": 9000, "shipping_address": {"country": "FR"}}"#,
    ));
    assert_eq!(why.reason, r#"property "shipping_address.country" is "FR", not one of ["US", "CA"]"#);
}

#[test]
fn explanations_name_the_key_and_the_reason() {
    let none = MessageAttributes::new();
    let numeric = compile(MA, r#"{"price": [{"numeric": [">=", 100]}]}"#);
    let why = no_match(verdict(&numeric, &attrs(&[("price", "String", "250")]), ""));
    assert!(why.reason.contains("a string never matches numeric conditions"), "{}", why.reason);
    let why = no_match(verdict(&numeric, &attrs(&[("price", "Number", "99.5")]), ""));
    assert_eq!(why.reason, r#"attribute "price" is 99.5, which matches none of [{"numeric":[">=",100]}]"#);

    let strings = compile(MA, r#"{"code": ["42"]}"#);
    let why = no_match(verdict(&strings, &attrs(&[("code", "Number", "42")]), ""));
    assert!(why.reason.contains("a number never matches string conditions"), "{}", why.reason);

    let absent = compile(MA, r#"{"store": [{"exists": false}]}"#);
    let why = no_match(verdict(&absent, &attrs(&[("store", "String", "fans")]), ""));
    assert!(why.reason.contains("requires it to be absent"), "{}", why.reason);
    let why = no_match(verdict(&absent, &none, ""));
    assert!(why.reason.contains("never matches a message without any"), "{}", why.reason);

    let or = compile(MA, r#"{"$or": [{"a": ["x"]}, {"b": ["y"]}]}"#);
    let why = no_match(verdict(&or, &attrs(&[("a", "String", "z")]), ""));
    assert_eq!(why.key, "$or");
    assert!(why.reason.starts_with("no alternative of $or matched: (1) key \"a\""), "{}", why.reason);
    assert!(why.reason.contains(r#"(2) key "b": attribute "b" is missing"#), "{}", why.reason);

    let nested_or = compile(MB, r#"{"detail": {"$or": [{"a": ["x"]}, {"b": ["y"]}]}}"#);
    let why = no_match(verdict(&nested_or, &none, r#"{"detail": {"a": "q"}}"#));
    assert_eq!(why.key, "detail.$or");

    let body = compile(MB, r#"{"a": ["x"]}"#);
    for text in ["not json", "\"a string\"", "[1, 2]", "42", ""] {
        let why = no_match(verdict(&body, &none, text));
        assert_eq!(why.key, "(message body)", "{text}");
    }
    let why = no_match(verdict(&body, &none, r#"{"a": {"deeper": "x"}}"#));
    assert!(why.reason.contains("an object"), "{}", why.reason);
}

#[test]
fn long_values_are_clipped_in_reasons() {
    let policy = compile(MA, r#"{"a": ["x"]}"#);
    let long = "y".repeat(10_000);
    let why = no_match(verdict(&policy, &attrs(&[("a", "String", &long)]), ""));
    assert!(why.reason.len() < 400, "{}", why.reason.len());
    let many: Vec<String> = (0..100).map(|i| format!("\"v{i}\"")).collect();
    let policy = compile(MA, &format!("{{\"a\": [{}]}}", many.join(",")));
    let why = no_match(verdict(&policy, &attrs(&[("a", "String", "none")]), ""));
    assert!(why.reason.contains("(90 more)"), "{}", why.reason);
}

#[test]
fn scope_parsing_and_accessors() {
    assert_eq!("MessageAttributes".parse::<FilterPolicyScope>(), Ok(MA));
    assert_eq!("MessageBody".parse::<FilterPolicyScope>(), Ok(MB));
    let err = "messagebody".parse::<FilterPolicyScope>().unwrap_err();
    assert!(err.contains("Invalid value [messagebody]") && err.contains("MessageBody or MessageAttributes"), "{err}");
    assert_eq!(MB.as_str(), "MessageBody");
    assert_eq!(FilterPolicyScope::default(), MA);
    assert_eq!(compile(MB, r#"{"a": ["x"]}"#).scope(), MB);
}

#[test]
fn each_scope_ignores_the_other_input() {
    // SNS docs, "Amazon SNS subscription filter policy scope": the scope picks attributes or body.
    let on_body = compile(MB, r#"{"a": ["x"]}"#);
    assert!(!on_body.matches(&attrs(&[("a", "String", "x")]), r#"{"b": 1}"#));
    assert!(on_body.matches(&MessageAttributes::new(), r#"{"a": "x"}"#));
    let on_attributes = compile(MA, r#"{"a": ["x"]}"#);
    assert!(on_attributes.matches(&attrs(&[("a", "String", "x")]), "not json at all"));
    assert!(!on_attributes.matches(&MessageAttributes::new(), r#"{"a": "x"}"#));
}

#[test]
fn the_empty_policy_accepts_every_message() {
    // SNS docs, "Removing a subscription filter policy": "To stop filtering the messages that are
    // sent to a subscription, remove the subscription's filter policy by overwriting it with an
    // empty JSON body. After you remove the policy, the subscription accepts every message that's
    // published to it." — in both scopes, whatever the attributes or the body.
    let inputs = [
        (MessageAttributes::new(), ""),
        (attrs(&[("event_type", "String", "RefundIssued")]), "not json"),
        (attrs(&[("price", "Number", "1")]), "[1, 2]"),
        (MessageAttributes::new(), r#"{"event_type": "RefundIssued"}"#),
    ];
    for scope in [MA, MB] {
        for text in ["{}", " { } ", "{\n}"] {
            let policy = compile(scope, text);
            assert!(policy.accepts_everything(), "{text:?}");
            for (attributes, body) in &inputs {
                assert_eq!(verdict(&policy, attributes, body), Verdict::Match, "{scope}: {text:?} on {body:?}");
            }
        }
    }
    assert!(!compile(MA, r#"{"event_type": ["OrderPlaced"]}"#).accepts_everything());
    assert!(!compile(MB, r#"{"$or": [{"a": ["x"]}, {"b": ["y"]}]}"#).accepts_everything());
}

#[test]
fn only_the_whole_policy_may_be_empty() {
    // The docs' empty JSON body is the whole policy; an empty object inside one is still refused
    // (AWS text "Empty objects are not allowed"), as is an empty `$or` alternative.
    for (scope, policy) in [(MB, r#"{"a": {}}"#), (MB, r#"{"a": {"b": {}}}"#), (MA, r#"{"$or": [{}, {"b": ["y"]}]}"#)] {
        let e = FilterPolicy::compile(policy, scope).expect_err(policy);
        assert!(e.message.contains("Empty objects are not allowed"), "{}", e.message);
    }
}

#[test]
fn valid_edge_policies_compile() {
    let valid = [
        // SNS docs, "AND/OR logic": exactly 150 combinations with nested $or (LocalStack, AWS-recorded).
        (
            MA,
            r#"{"source": ["a", "b", "c"], "$or": [{"metricName": ["1", "2", "3", "4", "5", "6"]}, {"metricType": ["t1", "t2", "t3", "t4"], "$or": [{"metricId": [1, 2, 3, 4]}, {"spaceId": [1, 2, 3, 4, 5, 6, 7]}]}]}"#,
        ),
        // SNS docs, "String value matching": anything-but with prefix, suffix and wildcard.
        (
            MA,
            r#"{"a": [{"anything-but": {"prefix": "order-"}}, {"anything-but": {"suffix": "ball"}}, {"anything-but": {"wildcard": "*ball"}}]}"#,
        ),
        // Bare numbers outside the numeric range are exact matches (e.g. an account ID).
        (MA, r#"{"account": [123456789012]}"#),
        // Five keys is the limit, not six.
        (MA, r#"{"a": ["1"], "b": ["1"], "c": ["1"], "d": ["1"], "e": ["1"]}"#),
        // Body scope counts leaf keys; five leaves under two parents are fine.
        (MB, r#"{"p": {"a": ["1"], "b": ["1"], "c": ["1"]}, "q": {"d": ["1"], "e": ["1"]}}"#),
        // Numeric bounds at the documented edge.
        (MA, r#"{"n": [{"numeric": [">=", -1000000000, "<=", 1000000000]}, {"numeric": ["=", 0.00001]}]}"#),
        // "$or" that is not an OR relationship is an ordinary key (SNS docs, "AND/OR logic").
        (MA, r#"{"$or": [{"numeric": ["<", 123]}, {"prefix": "abc"}]}"#),
        // Wildcard complexity exactly 100: 10 patterns of ... (1 point each) x 10 patterns.
        (
            MA,
            r#"{"w": [{"wildcard": "a*"}, {"wildcard": "b*"}, {"wildcard": "c*"}, {"wildcard": "d*"}, {"wildcard": "e*"}, {"wildcard": "f*"}, {"wildcard": "g*"}, {"wildcard": "h*"}, {"wildcard": "i*"}, {"wildcard": "j*"}]}"#,
        ),
    ];
    for (scope, policy) in valid {
        compile(scope, policy);
    }
}

#[test]
fn evaluation_is_deterministic() {
    let policy = compile(MB, r#"{"$or": [{"a": [{"prefix": "x"}]}, {"b": {"c": [{"numeric": [">", 1]}]}}]}"#);
    let body = r#"{"a": ["q", "r"], "b": [{"c": 0}, {"c": -1}]}"#;
    let first = policy.evaluate(&MessageAttributes::new(), body);
    for _ in 0..5 {
        assert_eq!(policy.evaluate(&MessageAttributes::new(), body), first);
    }
}

#[test]
fn large_value_lists_are_fast() {
    // 150 exact strings, prefixes and numbers each (three keys would exceed 150 combinations, so
    // three policies): one million lookups must stay well under a second even unoptimised.
    let list = |f: &dyn Fn(usize) -> String| (0..150).map(f).collect::<Vec<_>>().join(",");
    let policies = [
        compile(MA, &format!("{{\"k\": [{}]}}", list(&|i| format!("\"value-{i}\"")))),
        compile(MA, &format!("{{\"k\": [{}]}}", list(&|i| format!("{{\"prefix\": \"p{i}-\"}}")))),
        compile(MA, &format!("{{\"k\": [{}]}}", list(&|i| format!("{}", i * 7)))),
    ];
    let hits = [
        attrs(&[("k", "String", "value-149")]),
        attrs(&[("k", "String", "p149-x")]),
        attrs(&[("k", "Number", "1043")]),
    ];
    for (policy, hit) in policies.iter().zip(&hits) {
        assert!(policy.matches(hit, ""));
    }
    let start = std::time::Instant::now();
    for _ in 0..20_000 {
        for (policy, hit) in policies.iter().zip(&hits) {
            assert!(policy.matches(hit, ""));
        }
    }
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}
