//! SNS's customer managed protocols: e-mail, SMS and mobile push. Their one delivery policy
//! (50 retries over about 6 hours), their confirmation, their endpoints' formats, raw delivery,
//! and how the failure metric counts them.
mod common;
use common::*;
use engine::Sim;
use serde_json::{json, Value};

const PHONE: &str = "+919800000000";
const MAILBOX: &str = "ops@quilts.example";

/// The retry delays SNS docs, "Amazon SNS message delivery retries", give customer managed
/// endpoints, in milliseconds: none immediate, 2 at 10 s, 10 exponential from 10 s to 600 s (the
/// curve between is the playground's), 38 at 600 s.
fn documented_delays() -> Vec<u64> {
    let mut d = vec![10_000, 10_000];
    d.extend((0..10u32).map(|k| 10_000 + 590_000 * ((1u64 << k) - 1) / 511));
    d.extend([600_000; 38]);
    d
}

/// The moments of the first attempt and of every retry, from the delays.
fn attempt_times(count: usize) -> Vec<u64> {
    let mut t = vec![0];
    for d in documented_delays().into_iter().take(count - 1) {
        t.push(t.last().unwrap() + d);
    }
    t
}

fn topic(sim: &mut Sim) {
    ok(sim, "CreateTopic", json!({"Name": "orders"}));
}

fn subscribe(sim: &mut Sim, protocol: &str, endpoint: &str, attributes: Value) -> Value {
    ok(
        sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": protocol, "Endpoint": endpoint, "Attributes": attributes}),
    )
}

/// What the recipient received: (when in ms, outcome, text) of every notification.
fn received(sim: &mut Sim, name: &str) -> Vec<(u64, String, String)> {
    let r = ok(sim, "DescribeRecipient", json!({"RecipientName": name}));
    r["Messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["Type"] == "Notification")
        .map(|m| {
            let text = m["Text"].as_str().unwrap_or_default().to_string();
            (m["ReceivedAtMs"].as_u64().unwrap(), m["Outcome"].as_str().unwrap().to_string(), text)
        })
        .collect()
}

#[test]
fn an_sms_to_a_phone_whose_carrier_is_down_is_retried_on_the_short_schedule_until_it_arrives() {
    // SNS docs, "Amazon SNS message delivery retries": SMS is a customer managed endpoint; its
    // policy has no immediate retry, two 10 s apart, then exponential backoff from 10 s to 600 s,
    // then 600 s apart. A carrier down for 30 minutes: the copy arrives at the first attempt after.
    let mut sim = Sim::new(1);
    topic(&mut sim);
    ok(
        &mut sim,
        "CreateRecipient",
        json!({"RecipientName": "asha", "Protocol": "sms", "Endpoint": PHONE, "Latency": "0ms",
            "Schedule": [{"Start": "0s", "Duration": "30m", "Down": true}]}),
    );
    let r = subscribe(&mut sim, "sms", PHONE, json!({}));
    assert!(
        r["SubscriptionArn"].as_str().unwrap().starts_with("arn:aws:sns:"),
        "an SMS subscription needs no confirmation"
    );
    ok(&mut sim, "Publish", json!({"TopicArn": "orders", "Message": "Order 4417 is packed"}));
    secs(&mut sim, 3 * 3600);
    let got = received(&mut sim, "asha");
    let expected: Vec<u64> = attempt_times(14);
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), expected);
    assert!(expected[12] < 30 * 60_000 && expected[13] > 30 * 60_000, "the 14th attempt is the first after the outage");
    assert!(got[..13].iter().all(|g| g.1.contains("carrier could not reach the phone")), "{got:?}");
    assert_eq!(
        (got[13].1.as_str(), got[13].2.as_str()),
        ("delivered", "Order 4417 is packed"),
        "the phone gets the text"
    );
    assert_eq!(event_names(&sim).iter().filter(|n| **n == "DeliveryAttemptFailed").count(), 13);
    assert!(event_names(&sim).contains(&"DeliveredToEndpoint"));
    assert_eq!(metric_sum(&mut sim, "NumberOfNotificationsFailed"), 0, "delivered in the end: no failure counted");
}

#[test]
fn an_email_that_never_gets_through_is_tried_51_times_over_six_hours_then_goes_to_the_subscription_dlq() {
    // "50 attempts, over 6 hours" counts the retries (as "100,015 times" does for SQS): with the
    // first attempt the mailbox is tried 51 times. Then the copy goes to the subscription's
    // dead-letter queue. "For Amazon SQS, email, SMS, or mobile push endpoints, the metric
    // [NumberOfNotificationsFailed] increments by 1 when Amazon SNS stops attempting."
    let mut sim = Sim::new(1);
    topic(&mut sim);
    queue(&mut sim, "ops-email-dlq", json!({}));
    ok(
        &mut sim,
        "CreateRecipient",
        json!({"RecipientName": "ops", "Protocol": "email", "Endpoint": MAILBOX, "Latency": "0ms", "Down": true}),
    );
    let dlq = json!({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:ops-email-dlq"}).to_string();
    subscribe(&mut sim, "email", MAILBOX, json!({"RedrivePolicy": dlq}));
    ok(&mut sim, "Publish", json!({"TopicArn": "orders", "Message": "Order 4417 is packed"}));
    secs(&mut sim, 8 * 3600);
    let times: Vec<u64> = received(&mut sim, "ops").iter().map(|g| g.0).collect();
    assert_eq!(times, attempt_times(51));
    let last = *times.last().unwrap();
    assert!((6 * 3_600_000..7 * 3_600_000).contains(&last), "the last attempt {last} ms is over 6 hours in");
    assert_eq!(attr(&mut sim, "ops-email-dlq", "ApproximateNumberOfMessages"), "1");
    assert_eq!(metric_sum(&mut sim, "NumberOfNotificationsFailed"), 1, "counted once, when SNS stops");
    assert_eq!(metric_sum(&mut sim, "NumberOfNotificationsRedrivenToDlq"), 1);
    let d = ok(&mut sim, "DescribeRecipient", json!({"RecipientName": "ops"}));
    assert_eq!(d["Stats"], json!({"Messages": 52, "Delivered": 1, "Failed": 51}), "the confirmation, then 51 failures");
}

#[test]
fn an_email_subscription_waits_for_its_mailbox_to_confirm_and_a_phone_or_device_needs_none() {
    // SNS API reference, Subscribe: "If the endpoint type is HTTP/S or email … the endpoint owner
    // must run the ConfirmSubscription action to confirm the subscription."
    let mut sim = Sim::new(1);
    topic(&mut sim);
    let r = subscribe(&mut sim, "email", "nobody@quilts.example", json!({}));
    assert_eq!(r["SubscriptionArn"], "pending confirmation");
    let listed = ok(&mut sim, "ListSubscriptionsByTopic", json!({"TopicArn": "orders"}));
    assert_eq!(listed["Subscriptions"][0]["SubscriptionArn"], "PendingConfirmation");
    ok(&mut sim, "CreateRecipient", json!({"RecipientName": "ops", "Protocol": "email-json", "Endpoint": MAILBOX}));
    let r = ok(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "email-json", "Endpoint": MAILBOX, "ReturnSubscriptionArn": true}),
    );
    let arn = r["SubscriptionArn"].as_str().unwrap().to_string();
    let a = ok(&mut sim, "GetSubscriptionAttributes", json!({"SubscriptionArn": arn}));
    assert_eq!(a["Attributes"]["PendingConfirmation"], "false", "the simulated mailbox confirmed at once");
    assert_eq!(a["Attributes"]["ConfirmationWasAuthenticated"], "false", "a link in an e-mail is not authenticated");
    let device = "arn:aws:sns:us-east-1:000000000000:endpoint/GCM/quilt-app/3f1c";
    let r = subscribe(&mut sim, "application", device, json!({}));
    assert!(r["SubscriptionArn"].as_str().unwrap().starts_with("arn:aws:sns:"));
    ok(&mut sim, "Publish", json!({"TopicArn": "orders", "Message": "Order 4417 is packed"}));
    secs(&mut sim, 5);
    let got = received(&mut sim, "ops");
    assert_eq!(got.len(), 1, "the pending subscription got nothing; the confirmed one got one copy");
    let envelope: Value = serde_json::from_str(&got[0].2).unwrap();
    assert_eq!(
        (envelope["Type"].as_str(), envelope["Message"].as_str()),
        (Some("Notification"), Some("Order 4417 is packed"))
    );
    assert!(
        event_names(&sim).iter().filter(|n| **n == "DeliveredToEndpoint").count() == 2,
        "the mailbox, and the device the playground does not simulate (accepted by the platform)"
    );
}

#[test]
fn bad_endpoints_raw_delivery_and_bad_recipients_are_refused_and_change_nothing() {
    // Raw message delivery is for SQS, HTTP/S and Firehose endpoints (SNS docs, "Amazon SNS raw
    // message delivery").
    let mut sim = Sim::new(1);
    topic(&mut sim);
    for (protocol, endpoint, says) in [
        ("sms", "555-0100", "Invalid SMS endpoint: 555-0100"),
        ("sms", "+1234567890123456", "Invalid SMS endpoint"),
        ("email", "ops.quilts.example", "Email address"),
        ("email-json", "ops@localhost", "Email address"),
        ("application", "arn:aws:sns:us-east-1:000000000000:endpoint/PIGEON/app/1", "platform endpoint"),
        ("firehose", "arn:aws:firehose:us-east-1:000000000000:deliverystream/x", "simulates the protocols"),
    ] {
        let e = fails(&mut sim, "Subscribe", json!({"TopicArn": "orders", "Protocol": protocol, "Endpoint": endpoint}));
        assert_eq!(e.code, "InvalidParameter", "{protocol} {endpoint}");
        assert!(e.message.contains(says), "{protocol} {endpoint}: {}", e.message);
    }
    let e = fails(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "sms", "Endpoint": PHONE, "Attributes": {"RawMessageDelivery": "true"}}),
    );
    assert!(e.message.contains("Delivery protocol [sms] does not support raw message delivery"), "{}", e.message);
    for params in [
        json!({"RecipientName": "x", "Protocol": "https", "Endpoint": "https://x.example.com"}),
        json!({"RecipientName": "x", "Protocol": "sms", "Endpoint": "12"}),
        json!({"RecipientName": "bad name", "Protocol": "sms", "Endpoint": PHONE}),
        json!({"RecipientName": "x", "Protocol": "sms", "Endpoint": PHONE, "ErrorRate": 2}),
    ] {
        fails(&mut sim, "CreateRecipient", params);
    }
    ok(&mut sim, "CreateRecipient", json!({"RecipientName": "asha", "Protocol": "sms", "Endpoint": PHONE}));
    let taken =
        fails(&mut sim, "CreateRecipient", json!({"RecipientName": "ravi", "Protocol": "sms", "Endpoint": PHONE}));
    assert!(taken.message.contains(PHONE), "{}", taken.message);
    fails(&mut sim, "DescribeRecipient", json!({"RecipientName": "ravi"}));
    ok(&mut sim, "CreateHttpEndpoint", json!({"EndpointName": "partner"}));
    fails(&mut sim, "DescribeRecipient", json!({"RecipientName": "partner"}));
    fails(&mut sim, "DescribeHttpEndpoint", json!({"EndpointName": "asha"}));
}
