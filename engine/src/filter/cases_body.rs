//! Table: `MessageBody`-scope policies against JSON bodies.
//! Each row: (policy, body, expected match). Doc pages are under
//! <https://docs.aws.amazon.com/sns/latest/dg/>; "LocalStack" marks behaviour LocalStack
//! recorded against real AWS (tests/aws/services/sns/test_sns_filter_policy.py).

use super::tests::{compile, verdict, MB};
use super::Verdict;
use crate::attributes::MessageAttributes;

type Row = (&'static str, &'static str, bool);

const CI: &str = r#"{"customer_interests": ["rugby", "tennis"]}"#;
const PRICE_AB: &str = r#"{"price": [{"anything-but": [100, 500]}]}"#;
const STORE_EXISTS: &str = r#"{"store": [{"exists": true}]}"#;
const STORE_ABSENT: &str = r#"{"store": [{"exists": false}]}"#;
const RECORDS: &str =
    r#"{"Records": {"s3": {"object": {"key": [{"prefix": "auto-"}]}}, "eventName": [{"prefix": "ObjectCreated:"}]}}"#;
const OBJECT: &str = r#"{"object": {"key": [{"prefix": "auto-"}, "hardcodedvalue"], "nested_key": [{"exists": false}]}, "test": [{"exists": false}]}"#;
const OR_NESTED: &str = r#"{"$or": [{"metricName": ["CPUUtilization", "ReadLatency"]}, {"namespace": ["AWS/EC2", "AWS/ES"]}], "detail": {"scope": ["Service"], "$or": [{"source": ["aws.cloudwatch"]}, {"type": ["CloudWatch Alarm State Change"]}]}}"#;
const SAME_ELEMENT: &str = r#"{"R": {"a": [1], "b": [2]}}"#;

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // "String value matching", exact, message body.
    (CI, r#"{"customer_interests": "rugby"}"#, true),
    // "String value matching", exact, message body: unlisted value.
    (CI, r#"{"customer_interests": "baseball"}"#, false),
    // "String value matching": a body array matches when an element matches.
    (CI, r#"{"customer_interests": ["baseball", "tennis"]}"#, true),
    // "String value matching": a body array with no listed element.
    (CI, r#"{"customer_interests": ["baseball"]}"#, false),
    // "Amazon SNS subscription filter policies": the property must be in the body.
    (CI, r#"{"other": "rugby"}"#, false),
    // "Numeric value matching", body: 301.5.
    (r#"{"price_usd": [{"numeric": ["=", 301.5]}]}"#, r#"{"price_usd": 301.5}"#, true),
    // "Numeric value matching", body: 3.015e2.
    (r#"{"price_usd": [{"numeric": ["=", 301.5]}]}"#, r#"{"price_usd": 3.015e2}"#, true),
    // Typed values (not confirmed in docs): a JSON string is not a number.
    (r#"{"price_usd": [{"numeric": ["=", 301.5]}]}"#, r#"{"price_usd": "301.5"}"#, false),
    // "Numeric value matching", anything-but body: 101.
    (PRICE_AB, r#"{"price": 101}"#, true),
    // "Numeric value matching", anything-but body: 100.1.
    (PRICE_AB, r#"{"price": 100.1}"#, true),
    // "Numeric value matching", anything-but body: [100, 50] contains 50.
    (PRICE_AB, r#"{"price": [100, 50]}"#, true),
    // "Numeric value matching", anything-but body: 100 is excluded.
    (PRICE_AB, r#"{"price": 100}"#, false),
    // "Numeric value matching": a body array with a number in range.
    (r#"{"n": [{"numeric": [">", 100]}]}"#, r#"{"n": [1, 200]}"#, true),
    // "Numeric value matching": a bare number matches a JSON number.
    (r#"{"n": [5]}"#, r#"{"n": 5.0}"#, true),
    // "String value matching", prefix, body.
    (r#"{"ci": [{"prefix": "bas"}]}"#, r#"{"ci": "basketball"}"#, true),
    // "String value matching", prefix, body: no match.
    (r#"{"ci": [{"prefix": "bas"}]}"#, r#"{"ci": "rugby"}"#, false),
    // "String value matching", suffix, body.
    (r#"{"ci": [{"suffix": "ball"}]}"#, r#"{"ci": "baseball"}"#, true),
    // "String value matching", anything-but prefix, body: order-cancelled is denied.
    (r#"{"event": [{"anything-but": {"prefix": "order-"}}]}"#, r#"{"event": "order-cancelled"}"#, false),
    // "String value matching", anything-but prefix, body: data-entry passes.
    (r#"{"event": [{"anything-but": {"prefix": "order-"}}]}"#, r#"{"event": "data-entry"}"#, true),
    // "String value matching", anything-but list, body: [rugby, baseball] passes.
    (r#"{"ci": [{"anything-but": ["rugby", "tennis"]}]}"#, r#"{"ci": ["rugby", "baseball"]}"#, true),
    // "String value matching", anything-but list, body: [rugby] is denied.
    (r#"{"ci": [{"anything-but": ["rugby", "tennis"]}]}"#, r#"{"ci": ["rugby"]}"#, false),
    // "String value matching", IP address matching, body: 10.0.0.255.
    (r#"{"source_ip": [{"cidr": "10.0.0.0/24"}]}"#, r#"{"source_ip": "10.0.0.255"}"#, true),
    // "String value matching", IP address matching, body: 10.1.1.0.
    (r#"{"source_ip": [{"cidr": "10.0.0.0/24"}]}"#, r#"{"source_ip": "10.1.1.0"}"#, false),
    // "String value matching", equals-ignore-case, body: teNnis.
    (r#"{"ci": [{"equals-ignore-case": "tennis"}]}"#, r#"{"ci": "teNnis"}"#, true),
    // "String value matching", wildcard, body array.
    (r#"{"ci": [{"wildcard": "*ball"}]}"#, r#"{"ci": ["hockey", "basketball"]}"#, true),
    // "Key matching", exists true, body with the key.
    (STORE_EXISTS, r#"{"store": "fans", "customer_interests": ["baseball", "basketball"]}"#, true),
    // "Key matching", exists true, body without the key.
    (STORE_EXISTS, r#"{"customer_interests": ["baseball", "basketball"]}"#, false),
    // "Key matching", exists false, body without the key.
    (STORE_ABSENT, r#"{"customer_interests": ["baseball", "basketball"]}"#, true),
    // "Key matching", exists false, body with the key.
    (STORE_ABSENT, r#"{"store": "fans", "customer_interests": ["baseball", "basketball"]}"#, false),
    // "Key matching": exists true "must have a non-null and non-empty value" (null).
    (STORE_EXISTS, r#"{"store": null}"#, false),
    // "Key matching": exists true needs a non-empty value ("").
    (STORE_EXISTS, r#"{"store": ""}"#, false),
    // "Key matching": exists true needs a non-empty value (empty array).
    (STORE_EXISTS, r#"{"store": []}"#, false),
    // "Key matching": exists "works only on leaf nodes" (an object is not a leaf).
    (STORE_EXISTS, r#"{"store": {"name": "fans"}}"#, false),
    // "Key matching": an empty body object does not satisfy exists false.
    (STORE_ABSENT, r#"{}"#, false),
    // "Key matching", exists false: a null value counts as absent (chosen, complement of exists true).
    (STORE_ABSENT, r#"{"store": null, "x": 1}"#, true),
    // exists false looks at the whole body: the key in another array element counts (event-ruler semantics).
    (r#"{"arr": {"k": [{"exists": false}]}}"#, r#"{"arr": [{"k": 1}, {"z": 2}]}"#, false),
    // exists false: no element has the key.
    (r#"{"arr": {"k": [{"exists": false}]}}"#, r#"{"arr": [{"z": 2}]}"#, true),
    // "Filter policy constraints": payload-based policies accept nesting.
    (r#"{"shipping": {"country": ["US"]}}"#, r#"{"shipping": {"country": "US"}}"#, true),
    // Nested policy: the nested property differs.
    (r#"{"shipping": {"country": ["US"]}}"#, r#"{"shipping": {"country": "FR"}}"#, false),
    // Nested policy: the parent is missing.
    (r#"{"shipping": {"country": ["US"]}}"#, r#"{"country": "US"}"#, false),
    // Nested policy: the parent is a scalar.
    (r#"{"shipping": {"country": ["US"]}}"#, r#"{"shipping": "US"}"#, false),
    // Nested policy, three levels.
    (r#"{"a": {"b": {"c": [{"numeric": [">=", 1]}]}}}"#, r#"{"a": {"b": {"c": 1}}}"#, true),
    // Dotted policy key equals nesting (LocalStack): {"object": {"nested": ...}}.
    (r#"{"object.nested": ["string.value"]}"#, r#"{"object": {"nested": "string.value"}}"#, true),
    // Dotted policy key (LocalStack): a dotted body key.
    (r#"{"object.nested": ["string.value"]}"#, r#"{"object.nested": "string.value"}"#, true),
    // Dotted policy key (LocalStack): wrong value.
    (r#"{"object.nested": ["string.value"]}"#, r#"{"object": {"nested": "test-auto"}}"#, false),
    // Dotted keys (LocalStack): "object.nested.test" against {"object": {"nested.test": …}}.
    (r#"{"object.nested.test": ["string.value"]}"#, r#"{"object": {"nested.test": "string.value"}}"#, true),
    // Dotted keys (LocalStack): against {"object.nested": {"test": …}}.
    (r#"{"object.nested.test": ["string.value"]}"#, r#"{"object.nested": {"test": "string.value"}}"#, true),
    // Nested policy against a dotted body key.
    (r#"{"object": {"nested": ["v"]}}"#, r#"{"object.nested": "v"}"#, true),
    // Arrays of objects (LocalStack, from the payload-filtering blog): auto-insurance created.
    (RECORDS, r#"{"Records": [{"eventName": "ObjectCreated:Put", "s3": {"object": {"key": "auto-insurance-2314.xml"}}}]}"#, true),
    // Arrays of objects (LocalStack): removed, not created.
    (RECORDS, r#"{"Records": [{"eventName": "ObjectRemoved:Delete", "s3": {"object": {"key": "auto-insurance-2314.xml"}}}]}"#, false),
    // Arrays of objects (LocalStack): home-, not auto-.
    (RECORDS, r#"{"Records": [{"eventName": "ObjectCreated:Put", "s3": {"object": {"key": "home-insurance-2314.xml"}}}]}"#, false),
    // Arrays of objects (LocalStack): one of two records matches, through a list of lists.
    (RECORDS, r#"{"Records": [{"eventName": "ObjectCreated:Put", "s3": {"object": [[{"key": "auto-insurance-2314.xml"}]]}}, {"eventName": "ObjectRemoved:Delete", "s3": {"object": {"key": "home-insurance-2314.xml"}}}]}"#, true),
    // Keys under one policy object must match in the same array element (event-ruler).
    (SAME_ELEMENT, r#"{"R": [{"a": 1, "b": 3}, {"a": 4, "b": 2}]}"#, false),
    // Keys under one policy object, same element.
    (SAME_ELEMENT, r#"{"R": [{"a": 4, "b": 3}, {"a": 1, "b": 2}]}"#, true),
    // Body arrays (LocalStack): route-to [queue1, queue2] matches queue1.
    (r#"{"headers": {"route-to": ["queue1"]}}"#, r#"{"headers": {"route-to": ["queue1", "queue2"]}}"#, true),
    // Body arrays (LocalStack): route-to [queue3] does not.
    (r#"{"headers": {"route-to": ["queue1"]}}"#, r#"{"headers": {"route-to": ["queue3"]}}"#, false),
    // exists false inside a nested policy (LocalStack): auto-test passes.
    (OBJECT, r#"{"object": {"key": "auto-test"}}"#, true),
    // LocalStack: hardcodedvalue passes.
    (OBJECT, r#"{"object": {"key": "hardcodedvalue"}}"#, true),
    // LocalStack: test-auto fails the prefix.
    (OBJECT, r#"{"object": {"key": "test-auto"}}"#, false),
    // LocalStack: top-level "test" must be absent.
    (OBJECT, r#"{"object": {"key": "auto-test"}, "test": "just-exists"}"#, false),
    // LocalStack: object.nested_key must be absent.
    (OBJECT, r#"{"object": {"key": "auto-test", "nested_key": "just-exists"}}"#, false),
    // LocalStack: object.key is missing.
    (OBJECT, r#"{"object": {"test": "auto-test"}}"#, false),
    // LocalStack: object is missing.
    (OBJECT, r#"{"test": "auto-test"}"#, false),
    // "AND/OR logic", nested $or (LocalStack): wrong detail.scope.
    (OR_NESTED, r#"{"metricName": "CPUUtilization", "detail": {"scope": "aws.cloudwatch", "type": "CloudWatch Alarm State Change"}}"#, false),
    // "AND/OR logic", nested $or (LocalStack): wrong detail.type.
    (OR_NESTED, r#"{"metricName": "CPUUtilization", "detail": {"scope": "Service", "type": "CPUUtilization"}}"#, false),
    // "AND/OR logic", nested $or (LocalStack): detail.scope missing.
    (OR_NESTED, r#"{"metricName": "CPUUtilization", "detail": {"type": "CloudWatch Alarm State Change"}}"#, false),
    // "AND/OR logic", nested $or (LocalStack): neither detail.source nor detail.type.
    (OR_NESTED, r#"{"metricName": "CPUUtilization", "detail": {"scope": "Service"}}"#, false),
    // "AND/OR logic", nested $or (LocalStack): no detail at all.
    (OR_NESTED, r#"{"metricName": "CPUUtilization", "scope": "Service"}"#, false),
    // "AND/OR logic", nested $or (LocalStack): metricName + scope + source.
    (OR_NESTED, r#"{"metricName": "CPUUtilization", "detail": {"scope": "Service", "source": "aws.cloudwatch"}}"#, true),
    // "AND/OR logic", nested $or (LocalStack): ReadLatency.
    (OR_NESTED, r#"{"metricName": "ReadLatency", "detail": {"scope": "Service", "source": "aws.cloudwatch"}}"#, true),
    // "AND/OR logic", nested $or (LocalStack): namespace AWS/EC2.
    (OR_NESTED, r#"{"namespace": "AWS/EC2", "detail": {"scope": "Service", "source": "aws.cloudwatch"}}"#, true),
    // "AND/OR logic", nested $or (LocalStack): namespace AWS/ES.
    (OR_NESTED, r#"{"namespace": "AWS/ES", "detail": {"scope": "Service", "source": "aws.cloudwatch"}}"#, true),
    // "AND/OR logic", nested $or (LocalStack): metricName + scope + type.
    (OR_NESTED, r#"{"metricName": "CPUUtilization", "detail": {"scope": "Service", "type": "CloudWatch Alarm State Change"}}"#, true),
    // "AND/OR logic", nested $or: metricName "AWS/EC2" is not a listed metricName.
    (OR_NESTED, r#"{"metricName": "AWS/EC2", "detail": {"scope": "Service", "type": "CloudWatch Alarm State Change"}}"#, false),
    // "AND/OR logic", nested $or: namespace "CPUUtilization" is not a listed namespace.
    (OR_NESTED, r#"{"namespace": "CPUUtilization", "detail": {"scope": "Service", "type": "CloudWatch Alarm State Change"}}"#, false),
    // "Amazon SNS message filtering": the body must be well-formed JSON.
    (CI, "Regular string message", false),
    // "Amazon SNS message filtering": a JSON string is not a JSON object.
    (CI, r#""rugby""#, false),
    // "Amazon SNS message filtering": a JSON array is not a JSON object.
    (CI, r#"[{"customer_interests": "rugby"}]"#, false),
    // "Filter policy constraints": null matches an explicit JSON null.
    (r#"{"a": [null]}"#, r#"{"a": null}"#, true),
    // null does not match a missing property.
    (r#"{"a": [null]}"#, r#"{"b": 1}"#, false),
    // "Filter policy constraints": the keyword false matches JSON false.
    (r#"{"encrypted": [false]}"#, r#"{"encrypted": false}"#, true),
    // Typed values: the keyword false does not match the string "false".
    (r#"{"encrypted": [false]}"#, r#"{"encrypted": "false"}"#, false),
    // Body numbers beyond f64 range are not valid JSON for the parser: no match, no panic.
    (r#"{"n": [{"numeric": ["<", 1000000000]}]}"#, r#"{"n": 1e400}"#, false),
    // "AND/OR logic", AND across nested and top-level keys.
    (r#"{"t": ["x"], "d": {"s": [{"numeric": [">", 0]}]}}"#, r#"{"t": "x", "d": {"s": 0}}"#, false),
];

#[test]
fn body_scope_table() {
    let none = MessageAttributes::new();
    let mut failures = Vec::new();
    for (i, &(policy, body, want)) in ROWS.iter().enumerate() {
        let got = verdict(&compile(MB, policy), &none, body) == Verdict::Match;
        if got != want {
            failures.push(format!("row {i}: {policy} with {body}: expected {want}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ROWS.len() >= 70, "{} rows", ROWS.len());
}
