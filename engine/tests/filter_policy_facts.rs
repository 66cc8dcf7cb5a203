//! Subscription filter policies through the API: removing a policy with `{}`, and numeric matching
//! at five digits of accuracy, from `Subscribe` / `SetSubscriptionAttributes` to delivery.
//!
//! REMOVAL below is SNS docs, "Removing a subscription filter policy": "To stop filtering the
//! messages that are sent to a subscription, remove the subscription's filter policy by
//! overwriting it with an empty JSON body. After you remove the policy, the subscription accepts
//! every message that's published to it."
mod common;
use common::*;
use engine::Sim;
use serde_json::{json, Value};

/// A topic `orders` and a queue `q` subscribed to it with `attributes`; returns the subscription ARN.
fn subscribed(sim: &mut Sim, attributes: Value) -> Value {
    ok(sim, "CreateTopic", json!({"Name": "orders"}));
    queue(sim, "q", json!({}));
    let endpoint = format!("{ACCOUNT_ARN}q");
    ok(
        sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": endpoint, "Attributes": attributes}),
    )["SubscriptionArn"]
        .clone()
}

fn subscription_attributes(sim: &mut Sim, arn: &Value) -> Value {
    ok(sim, "GetSubscriptionAttributes", json!({"SubscriptionArn": arn}))["Attributes"].clone()
}

fn set_policy(sim: &mut Sim, arn: &Value, policy: &str) {
    ok(
        sim,
        "SetSubscriptionAttributes",
        json!({"SubscriptionArn": arn, "AttributeName": "FilterPolicy", "AttributeValue": policy}),
    );
}

/// Publishes `body` with the given message attributes; returns how many messages `q` then holds.
fn publish_and_count(sim: &mut Sim, body: &str, attributes: Value) -> u64 {
    ok(sim, "Publish", json!({"TopicArn": "orders", "Message": body, "MessageAttributes": attributes}));
    counts(sim, "q").0
}

fn event_type(value: &str) -> Value {
    json!({"event_type": {"DataType": "String", "StringValue": value}})
}

#[test]
fn subscribe_with_an_empty_policy_filters_nothing() {
    // REMOVAL: an empty JSON body is no filter policy: every message is accepted, with or
    // without attributes.
    let mut sim = Sim::new(1);
    let arn = subscribed(&mut sim, json!({"FilterPolicy": "{}"}));
    assert_eq!(publish_and_count(&mut sim, "plain text", json!({})), 1);
    assert_eq!(publish_and_count(&mut sim, "{}", event_type("RefundIssued")), 2);
    // Chosen (see `removes_filter_policy` in sns/mod.rs): the policy is removed, so it is not shown.
    let a = subscription_attributes(&mut sim, &arn);
    assert!(a.get("FilterPolicy").is_none() && a.get("FilterPolicyScope").is_none(), "{a}");
    assert!(!event_names(&sim).contains(&"FilteredOut"));
}

#[test]
fn an_empty_body_policy_accepts_bodies_that_are_not_json() {
    // REMOVAL, in MessageBody scope: with `{}` (any spacing) even a body a body policy could not
    // read is delivered.
    let mut sim = Sim::new(1);
    subscribed(&mut sim, json!({"FilterPolicyScope": "MessageBody", "FilterPolicy": "{ \n }"}));
    assert_eq!(publish_and_count(&mut sim, "not json", json!({})), 1);
    assert_eq!(publish_and_count(&mut sim, r#"{"event_type": "RefundIssued"}"#, json!({})), 2);
}

#[test]
fn set_subscription_attributes_with_an_empty_policy_removes_the_filter() {
    // REMOVAL: overwrite the policy with "{}", and the subscription accepts every message.
    let mut sim = Sim::new(1);
    let arn = subscribed(&mut sim, json!({"FilterPolicy": r#"{"event_type": ["OrderPlaced"]}"#}));
    assert_eq!(publish_and_count(&mut sim, "{}", event_type("RefundIssued")), 0, "filtered before");
    assert_eq!(subscription_attributes(&mut sim, &arn)["FilterPolicy"], r#"{"event_type": ["OrderPlaced"]}"#);
    set_policy(&mut sim, &arn, "{}");
    assert_eq!(publish_and_count(&mut sim, "{}", event_type("RefundIssued")), 1, "delivered after");
    assert_eq!(publish_and_count(&mut sim, "{}", json!({})), 2, "even without attributes");
    let a = subscription_attributes(&mut sim, &arn);
    assert!(a.get("FilterPolicy").is_none() && a.get("FilterPolicyScope").is_none(), "{a}");
    // Subscribing again with the removing policy is the same subscription, not a conflict.
    let endpoint = format!("{ACCOUNT_ARN}q");
    let again = ok(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": endpoint, "Attributes": {"FilterPolicy": "{}"}}),
    );
    assert_eq!(again["SubscriptionArn"], arn);
    // A policy can be set again afterwards.
    set_policy(&mut sim, &arn, r#"{"event_type": ["OrderPlaced"]}"#);
    assert_eq!(publish_and_count(&mut sim, "{}", event_type("RefundIssued")), 2, "filtered again");
}

#[test]
fn a_nested_empty_object_is_still_an_invalid_policy() {
    // Only the whole policy may be the empty JSON body; {"a": {}} inside a body policy is refused.
    let mut sim = Sim::new(1);
    let arn = subscribed(&mut sim, json!({"FilterPolicyScope": "MessageBody"}));
    let e = fails(
        &mut sim,
        "SetSubscriptionAttributes",
        json!({"SubscriptionArn": arn, "AttributeName": "FilterPolicy", "AttributeValue": r#"{"a": {}}"#}),
    );
    assert_eq!(e.code, "InvalidParameter");
    assert!(e.message.contains("Empty objects are not allowed"), "{}", e.message);
}

#[test]
fn numbers_match_with_five_digits_of_accuracy_after_the_decimal_point() {
    // SNS docs, "Filter policy constraints": "For numeric matching, the value can range from -10^9
    // to 10^9 (-1 billion to 1 billion), with five digits of accuracy after the decimal point."
    let policy = r#"{"price": [{"numeric": ["=", 1.0000001]}]}"#;
    let price = |v: &str| json!({"price": {"DataType": "Number", "StringValue": v}});
    let mut sim = Sim::new(1);
    subscribed(&mut sim, json!({"FilterPolicy": policy}));
    assert_eq!(publish_and_count(&mut sim, "{}", price("1.0000002")), 1, "equal at five decimals");
    assert_eq!(publish_and_count(&mut sim, "{}", price("1.00001")), 1, "not delivered: the fifth decimal counts");

    let mut sim = Sim::new(1);
    subscribed(&mut sim, json!({"FilterPolicyScope": "MessageBody", "FilterPolicy": policy}));
    assert_eq!(publish_and_count(&mut sim, r#"{"price": 1.0000002}"#, json!({})), 1, "body: equal at five decimals");
    assert_eq!(
        publish_and_count(&mut sim, r#"{"price": 1.00001}"#, json!({})),
        1,
        "body: not delivered, the fifth decimal counts"
    );
}

#[test]
fn the_numeric_range_limit_still_holds() {
    // "Filter policy constraints": "the value can range from -10^9 to 10^9".
    let mut sim = Sim::new(1);
    let arn = subscribed(&mut sim, json!({}));
    for policy in [r#"{"price": [{"numeric": ["<", 1000000000.000001]}]}"#, r#"{"price": [{"numeric": [">", -1e10]}]}"#]
    {
        let e = fails(
            &mut sim,
            "SetSubscriptionAttributes",
            json!({"SubscriptionArn": arn, "AttributeName": "FilterPolicy", "AttributeValue": policy}),
        );
        assert!(e.message.contains("out of range"), "{}", e.message);
    }
    set_policy(&mut sim, &arn, r#"{"price": [{"numeric": [">=", -1000000000, "<=", 1000000000]}]}"#);
}
