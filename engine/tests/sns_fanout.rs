//! Topic fan-out to SQS: copies, envelopes and raw delivery, delivery failures, topic management.
mod common;
use common::*;
use engine::Sim;
use serde_json::{json, Value};

fn topic_with(sim: &mut Sim, queues: &[(&str, Value)]) {
    ok(sim, "CreateTopic", json!({"Name": "order-events"}));
    for (q, attrs) in queues {
        queue(sim, q, json!({}));
        ok(
            sim,
            "Subscribe",
            json!({"TopicArn": "order-events", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}{q}"), "Attributes": attrs}),
        );
    }
}

fn publish(sim: &mut Sim, event_type: &str) -> Value {
    ok(
        sim,
        "Publish",
        json!({"TopicArn": "order-events", "Message": format!("{{\"event_type\":\"{event_type}\"}}"),
        "MessageAttributes": {"event_type": {"DataType": "String", "StringValue": event_type}}}),
    )
}

#[test]
fn one_publish_gives_every_subscription_its_own_copy() {
    // SNS: a message published to a topic is delivered to every subscribed endpoint.
    let mut sim = Sim::new(1);
    topic_with(&mut sim, &[("billing", json!({})), ("packing", json!({})), ("sms", json!({}))]);
    publish(&mut sim, "OrderPlaced");
    for q in ["billing", "packing", "sms"] {
        assert_eq!(counts(&mut sim, q), (1, 0, 0), "{q}");
    }
    // Each copy lives its own life: deleting one leaves the others.
    let m = receive(&mut sim, "billing", 1).remove(0);
    ok(&mut sim, "DeleteMessage", json!({"QueueUrl": "billing", "ReceiptHandle": m["ReceiptHandle"]}));
    assert_eq!(counts(&mut sim, "packing"), (1, 0, 0));
}

#[test]
fn the_seeds_filter_case_three_published_two_in_sms() {
    // SNS: a subscription without a filter policy gets every message; the SMS subscription's
    // {"event_type": ["OrderPlaced", "OrderShipped"]} lets two of three through.
    let mut sim = Sim::new(1);
    topic_with(
        &mut sim,
        &[
            ("all", json!({})),
            ("sms", json!({"FilterPolicy": "{\"event_type\": [\"OrderPlaced\", \"OrderShipped\"]}"})),
        ],
    );
    for t in ["OrderPlaced", "RefundIssued", "OrderShipped"] {
        publish(&mut sim, t);
    }
    assert_eq!(counts(&mut sim, "all").0, 3);
    assert_eq!(counts(&mut sim, "sms").0, 2);
    let filtered: Vec<_> = sim.events().iter().filter(|e| e.kind.name() == "FilteredOut").collect();
    assert_eq!(filtered.len(), 1);
}

#[test]
fn without_raw_delivery_the_body_is_the_sns_envelope() {
    // SNS: to SQS, a message arrives in a JSON envelope (Type, MessageId, TopicArn, Message,
    // Timestamp, signature fields, MessageAttributes as {Type, Value}); the event is in Message.
    let mut sim = Sim::new(1);
    topic_with(&mut sim, &[("q", json!({}))]);
    let id = publish(&mut sim, "OrderPlaced")["MessageId"].clone();
    let m = receive(&mut sim, "q", 1).remove(0);
    let env: Value = serde_json::from_str(m["Body"].as_str().unwrap()).unwrap();
    assert_eq!(env["Type"], "Notification");
    assert_eq!(env["MessageId"], id);
    assert_eq!(env["TopicArn"], "arn:aws:sns:us-east-1:000000000000:order-events");
    assert_eq!(env["Message"], "{\"event_type\":\"OrderPlaced\"}");
    assert_eq!(env["Timestamp"], "2026-01-01T00:00:00.000Z");
    assert_eq!(env["MessageAttributes"]["event_type"], json!({"Type": "String", "Value": "OrderPlaced"}));
    for k in ["SignatureVersion", "Signature", "SigningCertURL", "UnsubscribeURL"] {
        assert!(env[k].is_string(), "{k}");
    }
    assert!(env.get("Subject").is_none(), "Subject only when published with one");
    assert!(m.get("MessageAttributes").is_none(), "attributes travel inside the envelope");
    assert_eq!(m["Attributes"]["SenderId"], "arn:aws:sns:us-east-1:000000000000:order-events");
}

#[test]
fn raw_delivery_passes_the_body_and_attributes_as_published() {
    // SNS: RawMessageDelivery sends the message body as published, attributes as SQS message attributes.
    let mut sim = Sim::new(1);
    topic_with(&mut sim, &[("q", json!({"RawMessageDelivery": "true"}))]);
    publish(&mut sim, "OrderPlaced");
    let m = receive(&mut sim, "q", 1).remove(0);
    assert_eq!(m["Body"], "{\"event_type\":\"OrderPlaced\"}");
    assert_eq!(m["MessageAttributes"]["event_type"]["StringValue"], "OrderPlaced");
}

#[test]
fn raw_delivery_drops_a_message_with_more_than_10_attributes() {
    // SNS: with raw delivery an SQS subscription takes at most 10 message attributes; a message with
    // more is discarded as a client-side error (to the subscription's DLQ when it has one).
    let mut sim = Sim::new(1);
    topic_with(&mut sim, &[("raw", json!({"RawMessageDelivery": "true"})), ("env", json!({}))]);
    queue(&mut sim, "sub-dlq", json!({}));
    let subs = ok(&mut sim, "ListSubscriptionsByTopic", json!({"TopicArn": "order-events"}));
    let raw_arn = subs["Subscriptions"][0]["SubscriptionArn"].as_str().unwrap().to_string();
    let attrs: serde_json::Map<String, Value> =
        (0..11).map(|i| (format!("a{i}"), json!({"DataType": "String", "StringValue": "v"}))).collect();
    ok(&mut sim, "Publish", json!({"TopicArn": "order-events", "Message": "m", "MessageAttributes": attrs.clone()}));
    assert_eq!(counts(&mut sim, "raw").0, 0);
    assert_eq!(counts(&mut sim, "env").0, 1, "the envelope carries any number of attributes");
    assert!(event_names(&sim).contains(&"DeliveryFailed"));
    ok(
        &mut sim,
        "SetSubscriptionAttributes",
        json!({"SubscriptionArn": raw_arn, "AttributeName": "RedrivePolicy",
        "AttributeValue": format!("{{\"deadLetterTargetArn\":\"{ACCOUNT_ARN}sub-dlq\"}}")}),
    );
    ok(&mut sim, "Publish", json!({"TopicArn": "order-events", "Message": "m", "MessageAttributes": attrs}));
    assert_eq!(counts(&mut sim, "sub-dlq").0, 1, "kept by the subscription's dead-letter queue");
}

#[test]
fn delivery_to_a_deleted_queue_fails_without_retries() {
    // SNS: a deleted SQS endpoint is a client-side error: no retries; the message is discarded
    // unless the subscription has a dead-letter queue.
    let mut sim = Sim::new(1);
    topic_with(&mut sim, &[("gone", json!({})), ("fine", json!({}))]);
    ok(&mut sim, "DeleteQueue", json!({"QueueUrl": "gone"}));
    publish(&mut sim, "OrderPlaced");
    assert_eq!(counts(&mut sim, "fine").0, 1);
    let failed: Vec<_> = sim.events().iter().filter(|e| e.kind.name() == "DeliveryFailed").collect();
    assert_eq!(failed.len(), 1);
    secs(&mut sim, 86_400);
    let attempts =
        sim.events().iter().filter(|e| matches!(e.kind.name(), "DeliveryFailed" | "DeliveredToQueue")).count();
    assert_eq!(attempts, 2, "one failure for gone, one delivery for fine, and no retry a day later");
}

#[test]
fn sns_delivery_latency_is_virtual_time() {
    // Playground setting: copies land after SnsDeliveryLatency (0 by default).
    let mut sim = Sim::new(1);
    ok(&mut sim, "ConfigureSimulation", json!({"SnsDeliveryLatency": "250ms"}));
    topic_with(&mut sim, &[("q", json!({}))]);
    publish(&mut sim, "OrderPlaced");
    assert_eq!(counts(&mut sim, "q").0, 0);
    sim.advance_by(250);
    assert_eq!(counts(&mut sim, "q").0, 1);
}

#[test]
fn topics_are_idempotent_and_deleting_one_removes_its_subscriptions() {
    // SNS: CreateTopic returns the existing ARN; with different attributes it fails; deleting a
    // missing topic is not an error.
    let mut sim = Sim::new(1);
    let arn = ok(&mut sim, "CreateTopic", json!({"Name": "t", "Attributes": {"DisplayName": "T"}}))["TopicArn"].clone();
    assert_eq!(ok(&mut sim, "CreateTopic", json!({"Name": "t"}))["TopicArn"], arn);
    assert_eq!(
        fails(&mut sim, "CreateTopic", json!({"Name": "t", "Attributes": {"DisplayName": "U"}})).code,
        "InvalidParameter"
    );
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "Subscribe", json!({"TopicArn": arn, "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}q")}));
    assert_eq!(ok(&mut sim, "ListTopics", json!({}))["Topics"][0]["TopicArn"], arn);
    ok(&mut sim, "DeleteTopic", json!({"TopicArn": arn}));
    ok(&mut sim, "DeleteTopic", json!({"TopicArn": arn}));
    assert_eq!(ok(&mut sim, "ListSubscriptions", json!({}))["Subscriptions"], json!([]));
    assert_eq!(fails(&mut sim, "Publish", json!({"TopicArn": arn, "Message": "m"})).code, "NotFound");
    // A bare name of no topic is not an ARN: InvalidParameter, as AWS answers (sns_recorded.rs).
    assert_eq!(fails(&mut sim, "Publish", json!({"TopicArn": "t", "Message": "m"})).code, "InvalidParameter");
}

#[test]
fn subscribing_twice_returns_the_same_subscription() {
    // SNS: Subscribe with the same topic, protocol and endpoint returns the existing ARN; with
    // different attributes it fails.
    let mut sim = Sim::new(1);
    topic_with(&mut sim, &[("q", json!({}))]);
    let again = ok(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "order-events", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}q")}),
    );
    let list = ok(&mut sim, "ListSubscriptionsByTopic", json!({"TopicArn": "order-events"}));
    assert_eq!(list["Subscriptions"].as_array().unwrap().len(), 1);
    assert_eq!(list["Subscriptions"][0]["SubscriptionArn"], again["SubscriptionArn"]);
    let e = fails(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "order-events", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}q"), "Attributes": {"RawMessageDelivery": "true"}}),
    );
    assert!(e.message.contains("different attributes"));
}

#[test]
fn subscription_attributes_read_back_as_strings() {
    // SNS: GetSubscriptionAttributes returns string values; FilterPolicy appears once set.
    let mut sim = Sim::new(1);
    topic_with(&mut sim, &[("q", json!({"RawMessageDelivery": "true"}))]);
    let arn = ok(&mut sim, "ListSubscriptions", json!({}))["Subscriptions"][0]["SubscriptionArn"].clone();
    let a = ok(&mut sim, "GetSubscriptionAttributes", json!({"SubscriptionArn": arn}))["Attributes"].clone();
    assert_eq!(a["RawMessageDelivery"], "true");
    assert_eq!(a["PendingConfirmation"], "false");
    assert!(a.get("FilterPolicy").is_none());
    ok(
        &mut sim,
        "SetSubscriptionAttributes",
        json!({"SubscriptionArn": arn, "AttributeName": "FilterPolicy", "AttributeValue": "{\"k\": [\"v\"]}"}),
    );
    let a = ok(&mut sim, "GetSubscriptionAttributes", json!({"SubscriptionArn": arn}))["Attributes"].clone();
    assert_eq!(a["FilterPolicy"], "{\"k\": [\"v\"]}");
    assert_eq!(a["FilterPolicyScope"], "MessageAttributes");
    let e = fails(
        &mut sim,
        "SetSubscriptionAttributes",
        json!({"SubscriptionArn": arn, "AttributeName": "FilterPolicy", "AttributeValue": "{not json"}),
    );
    assert_eq!(e.code, "InvalidParameter");
    assert_eq!(
        fails(
            &mut sim,
            "GetSubscriptionAttributes",
            json!({"SubscriptionArn": "arn:aws:sns:us-east-1:000000000000:order-events:nope"})
        )
        .code,
        "NotFound"
    );
    ok(&mut sim, "Unsubscribe", json!({"SubscriptionArn": arn}));
    publish(&mut sim, "OrderPlaced");
    assert_eq!(counts(&mut sim, "q").0, 0);
}

#[test]
fn publish_checks_its_message() {
    // SNS: an empty message is InvalidParameter; messages are at most 256 KB; a standard topic
    // refuses a deduplication id; MessageStructure json picks the sqs or default entry.
    let mut sim = Sim::new(1);
    topic_with(&mut sim, &[("q", json!({"RawMessageDelivery": "true"}))]);
    let e = fails(&mut sim, "Publish", json!({"TopicArn": "order-events", "Message": ""}));
    assert_eq!((e.code.as_str(), e.message.as_str()), ("InvalidParameter", "Invalid parameter: Empty message"));
    fails(&mut sim, "Publish", json!({"TopicArn": "order-events", "Message": "x".repeat(262_145)}));
    fails(&mut sim, "Publish", json!({"TopicArn": "order-events", "Message": "m", "MessageDeduplicationId": "d"}));
    fails(&mut sim, "Publish", json!({"TopicArn": "order-events", "Message": "m", "Subject": ""}));
    fails(
        &mut sim,
        "Publish",
        json!({"TopicArn": "order-events", "Message": "{\"sqs\": \"x\"}", "MessageStructure": "json"}),
    );
    ok(
        &mut sim,
        "Publish",
        json!({"TopicArn": "order-events", "Message": "{\"default\": \"d\", \"sqs\": \"for queues\"}", "MessageStructure": "json"}),
    );
    assert_eq!(receive(&mut sim, "q", 1)[0]["Body"], "for queues");
    let r = ok(
        &mut sim,
        "PublishBatch",
        json!({"TopicArn": "order-events", "PublishBatchRequestEntries": [
        {"Id": "a", "Message": "one"}, {"Id": "b", "Message": ""}]}),
    );
    assert_eq!(r["Successful"][0]["Id"], "a");
    assert_eq!(r["Failed"][0]["Id"], "b");
    assert_eq!(counts(&mut sim, "q").0, 1);
}
