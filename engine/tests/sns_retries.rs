//! Server-side errors and SNS's delivery policies: the AWS managed schedule for SQS, HTTP/S
//! endpoints with their `DeliveryPolicy`, the end of the retries, and the metrics.
mod common;
use common::*;
use engine::event::EventKind;
use engine::Sim;
use serde_json::{json, Value};

const URL: &str = "https://partner.example.com/sns";

fn http_subscription(sim: &mut Sim, endpoint: Value, attributes: Value) -> String {
    ok(sim, "CreateTopic", json!({"Name": "orders"}));
    let mut e = json!({"EndpointName": "partner", "Latency": "0ms"});
    e.as_object_mut().unwrap().extend(endpoint.as_object().unwrap().clone());
    ok(sim, "CreateHttpEndpoint", e);
    let r = ok(
        sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "https", "Endpoint": URL, "Attributes": attributes, "ReturnSubscriptionArn": true}),
    );
    r["SubscriptionArn"].as_str().unwrap().to_string()
}

fn publish(sim: &mut Sim) {
    ok(sim, "Publish", json!({"TopicArn": "orders", "Message": "order 4417"}));
}

/// When the endpoint received each notification, in milliseconds, and what it answered.
fn requests(sim: &mut Sim) -> Vec<(u64, Value)> {
    let r = ok(sim, "DescribeHttpEndpoint", json!({"EndpointName": "partner"}));
    r["Requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["Type"] == "Notification")
        .map(|q| (q["ReceivedAtMs"].as_u64().unwrap(), q["Status"].clone()))
        .collect()
}

#[test]
fn without_a_delivery_policy_sns_retries_an_http_endpoint_three_times_20_seconds_apart() {
    // SNS guide, "Set the delivery policy": "By default, if the initial delivery of the message
    // fails, Amazon SNS attempts up to three retries with a delay between failed attempts set at
    // 20 seconds." Once the policy is exhausted the copy is discarded (no dead-letter queue).
    let mut sim = Sim::new(1);
    http_subscription(&mut sim, json!({"Down": true}), json!({}));
    publish(&mut sim);
    secs(&mut sim, 600);
    let times: Vec<u64> = requests(&mut sim).iter().map(|(t, _)| *t).collect();
    assert_eq!(times, vec![0, 20_000, 40_000, 60_000]);
    assert_eq!(event_names(&sim).iter().filter(|n| **n == "DeliveryAttemptFailed").count(), 4);
    assert!(event_names(&sim).contains(&"DeliveryFailed"));
    // "For HTTP or HTTPS endpoints, the metric includes every failed delivery attempt."
    assert_eq!(metric_sum(&mut sim, "NumberOfNotificationsFailed"), 4);
    assert_eq!(metric_sum(&mut sim, "NumberOfNotificationsDelivered"), 0);
}

#[test]
fn a_delivery_policy_predicts_every_attempt_and_the_copy_arrives_when_the_endpoint_is_back() {
    // SNS guide, "Creating an HTTP/S delivery policy": no-delay retries, then minDelayTarget apart,
    // then the backoff phase from minDelayTarget to maxDelayTarget, then maxDelayTarget apart.
    let policy = json!({"healthyRetryPolicy": {"numRetries": 8, "numNoDelayRetries": 1, "numMinDelayRetries": 2,
        "minDelayTarget": 5, "maxDelayTarget": 30, "numMaxDelayRetries": 2, "backoffFunction": "linear"}});
    let down = json!({"Schedule": [{"Start": "0s", "Duration": "90s", "Down": true}]});
    let mut sim = Sim::new(1);
    http_subscription(&mut sim, down, json!({"DeliveryPolicy": policy.to_string()}));
    publish(&mut sim);
    secs(&mut sim, 600);
    let got = requests(&mut sim);
    // Delays: 0 | 5, 5 | backoff 3 retries 5 → 30: 5, 17.5, 30 | 30, 30.
    let times: Vec<u64> = got.iter().map(|(t, _)| *t).collect();
    assert_eq!(times, vec![0, 0, 5_000, 10_000, 15_000, 32_500, 62_500, 92_500]);
    assert_eq!(got.last().unwrap().1, json!(200), "back up at 90 s: the 8th attempt is answered 200");
    let delivered = sim.events().iter().find_map(|e| match &e.kind {
        EventKind::DeliveredToEndpoint { attempt, .. } => Some((*attempt, e.at.0)),
        _ => None,
    });
    assert_eq!(delivered, Some((8, 92_500)));
    assert_eq!(sim.snapshot().topics[0].subscriptions[0].retrying, 0);
}

#[test]
fn a_4xx_answer_ends_the_delivery_and_a_5xx_answer_is_retried() {
    // SNS guide, "Prepare your HTTP/S endpoint": a status "outside the range 200–4xx" fails the
    // delivery and SNS retries; a 4xx answer is not retried.
    let mut sim = Sim::new(1);
    http_subscription(&mut sim, json!({"ErrorRate": "1", "ErrorStatus": 404}), json!({}));
    publish(&mut sim);
    secs(&mut sim, 600);
    assert_eq!(requests(&mut sim), vec![(0, json!(404))]);
    assert!(event_names(&sim).contains(&"DeliveredToEndpoint"));
    ok(&mut sim, "UpdateHttpEndpoint", json!({"EndpointName": "partner", "ErrorStatus": 503}));
    publish(&mut sim);
    secs(&mut sim, 600);
    assert_eq!(requests(&mut sim).len(), 1 + 4, "a 503 is retried three times");
}

#[test]
fn an_endpoint_slower_than_15_seconds_times_out_and_is_retried() {
    // SNS guide: an endpoint that does not answer within about 15 seconds fails the delivery.
    let mut sim = Sim::new(1);
    http_subscription(&mut sim, json!({"Latency": "20s"}), json!({}));
    publish(&mut sim);
    secs(&mut sim, 40);
    let first = sim.events().iter().find_map(|e| match &e.kind {
        EventKind::DeliveryAttemptFailed { reason, retry_at, .. } => Some((e.at.0, reason.clone(), *retry_at)),
        _ => None,
    });
    let (at, reason, retry_at) = first.expect("the first attempt failed");
    assert_eq!(at, 15_000, "SNS gives up on the answer after 15 s");
    assert!(reason.contains("timed out"));
    assert_eq!(retry_at.map(|t| t.0), Some(35_000), "and retries 20 s later");
}

#[test]
fn the_throttle_policy_spreads_deliveries_over_seconds() {
    // SNS guide: maxReceivesPerSecond is "The maximum number of deliveries per second, per
    // subscription".
    let mut sim = Sim::new(1);
    let policy = json!({"throttlePolicy": {"maxReceivesPerSecond": 2}});
    http_subscription(&mut sim, json!({}), json!({"DeliveryPolicy": policy.to_string()}));
    for _ in 0..5 {
        publish(&mut sim);
    }
    secs(&mut sim, 5);
    let times: Vec<u64> = requests(&mut sim).iter().map(|(t, _)| *t).collect();
    assert_eq!(times, vec![0, 0, 1_000, 1_000, 2_000]);
}

#[test]
fn exhausted_retries_go_to_the_subscription_dead_letter_queue() {
    // SNS retries guide: "When the delivery policy is exhausted, Amazon SNS stops retrying the
    // delivery and discards the message—unless a dead-letter queue is attached to the subscription."
    let mut sim = Sim::new(1);
    queue(&mut sim, "partner-dlq", json!({}));
    let redrive = json!({"deadLetterTargetArn": format!("{ACCOUNT_ARN}partner-dlq")}).to_string();
    let policy = json!({"healthyRetryPolicy": {"numRetries": 1, "minDelayTarget": 1, "maxDelayTarget": 1}});
    http_subscription(
        &mut sim,
        json!({"Down": true}),
        json!({"RedrivePolicy": redrive, "DeliveryPolicy": policy.to_string(), "RawMessageDelivery": "true"}),
    );
    publish(&mut sim);
    secs(&mut sim, 60);
    let m = receive(&mut sim, "partner-dlq", 1);
    assert_eq!(m[0]["Body"], "order 4417", "the raw message, as the endpoint would have had it");
    assert_eq!(requests(&mut sim).len(), 2);
    assert_eq!(metric_sum(&mut sim, "NumberOfNotificationsRedrivenToDlq"), 1);
    assert_eq!(metric_sum(&mut sim, "NumberOfNotificationsFailed"), 2);
}

#[test]
fn an_sqs_outage_is_retried_on_the_aws_managed_schedule_until_the_queue_is_back() {
    // SNS retries guide, AWS managed endpoints (SQS, Lambda): "3 times, without delay", "2 times,
    // 1 second apart", "10 times, with exponential backoff, from 1 second to 20 seconds", then
    // "100,000 times, 20 seconds apart".
    let mut sim = Sim::new(1);
    ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
    queue(&mut sim, "billing", json!({}));
    ok(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}billing")}),
    );
    ok(&mut sim, "SimulateServiceOutage", json!({"ResourceArn": format!("{ACCOUNT_ARN}billing"), "Duration": "3m"}));
    publish(&mut sim);
    secs(&mut sim, 600);
    let attempts: Vec<u64> =
        sim.events().iter().filter(|e| e.kind.name() == "DeliveryAttemptFailed").map(|e| e.at.0 / 1_000).collect();
    assert_eq!(&attempts[..6], &[0, 0, 0, 0, 1, 2], "the first attempt, 3 immediate retries, 2 one second apart");
    let gaps: Vec<u64> = attempts.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(gaps[5], 1, "the backoff phase starts at 1 s");
    assert_eq!(gaps[14], 20, "and ends at 20 s");
    assert!(gaps[15..].iter().all(|g| *g == 20), "then 20 s apart: {gaps:?}");
    let delivered_at = sim.events().iter().find(|e| e.kind.name() == "DeliveredToQueue").map(|e| e.at.0 / 1_000);
    assert!(delivered_at.is_some_and(|t| (180..200).contains(&t)), "{delivered_at:?}");
    assert_eq!(counts(&mut sim, "billing").0, 1);
}

#[test]
fn an_http_subscription_no_endpoint_confirms_stays_pending_and_gets_nothing() {
    // SNS guide, "Fanout to HTTP/S endpoints": the endpoint must confirm the subscription; SNS
    // answers "pending confirmation" unless ReturnSubscriptionArn is true.
    let mut sim = Sim::new(1);
    ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
    let r = ok(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "http", "Endpoint": "http://nobody.example.com/"}),
    );
    assert_eq!(r["SubscriptionArn"], "pending confirmation");
    publish(&mut sim);
    secs(&mut sim, 600);
    assert!(!event_names(&sim).iter().any(|n| n.starts_with("Deliver")));
    let attrs = ok(&mut sim, "GetTopicAttributes", json!({"TopicArn": "orders"}));
    assert_eq!(
        (attrs["Attributes"]["SubscriptionsPending"].as_str(), attrs["Attributes"]["SubscriptionsConfirmed"].as_str()),
        (Some("1"), Some("0"))
    );
}

#[test]
fn an_http_subscription_shows_its_effective_delivery_policy() {
    // SNS returns EffectiveDeliveryPolicy for HTTP/S subscriptions: the defaults where the
    // DeliveryPolicy says nothing (observed shape).
    let mut sim = Sim::new(1);
    let arn = http_subscription(
        &mut sim,
        json!({}),
        json!({"DeliveryPolicy": "{\"healthyRetryPolicy\": {\"numRetries\": 5}}"}),
    );
    let r = ok(&mut sim, "GetSubscriptionAttributes", json!({"SubscriptionArn": arn}));
    let effective: Value = serde_json::from_str(r["Attributes"]["EffectiveDeliveryPolicy"].as_str().unwrap()).unwrap();
    assert_eq!(effective["healthyRetryPolicy"]["numRetries"], 5);
    assert_eq!(effective["healthyRetryPolicy"]["minDelayTarget"], 20);
    assert_eq!(effective["healthyRetryPolicy"]["backoffFunction"], "linear");
    assert_eq!(r["Attributes"]["PendingConfirmation"], "false");
}

#[test]
fn invalid_delivery_and_redrive_policies_are_refused_with_invalid_parameter_and_change_nothing() {
    // SNS guide's constraints: numRetries 0–100, minDelayTarget 1 to maxDelayTarget,
    // maxDelayTarget up to 3,600, the phases within numRetries, at most 3,600 s of retries,
    // maxReceivesPerSecond 1 or more; RedrivePolicy's deadLetterTargetArn an SQS queue ARN, a
    // FIFO queue for a FIFO topic.
    let mut sim = Sim::new(1);
    let arn = http_subscription(&mut sim, json!({}), json!({}));
    for bad in [
        json!({"healthyRetryPolicy": {"numRetries": 101}}),
        json!({"healthyRetryPolicy": {"minDelayTarget": 0}}),
        json!({"healthyRetryPolicy": {"minDelayTarget": 30, "maxDelayTarget": 10}}),
        json!({"healthyRetryPolicy": {"maxDelayTarget": 3601}}),
        json!({"healthyRetryPolicy": {"numRetries": 1, "numMaxDelayRetries": 2}}),
        json!({"healthyRetryPolicy": {"numRetries": 100, "minDelayTarget": 40, "maxDelayTarget": 40}}),
        json!({"healthyRetryPolicy": {"backoffFunction": "quadratic"}}),
        json!({"throttlePolicy": {"maxReceivesPerSecond": 0}}),
    ] {
        let e = fails(
            &mut sim,
            "SetSubscriptionAttributes",
            json!({"SubscriptionArn": arn, "AttributeName": "DeliveryPolicy", "AttributeValue": bad.to_string()}),
        );
        assert_eq!(e.code, "InvalidParameter", "{bad}");
        assert!(e.message.contains("DeliveryPolicy"), "{}", e.message);
    }
    for bad in ["{\"deadLetterTargetArn\": \"arn:aws:sns:us-east-1:000000000000:t\"}", "not json"] {
        let e = fails(
            &mut sim,
            "SetSubscriptionAttributes",
            json!({"SubscriptionArn": arn, "AttributeName": "RedrivePolicy", "AttributeValue": bad}),
        );
        assert_eq!(e.code, "InvalidParameter");
    }
    ok(&mut sim, "CreateTopic", json!({"Name": "orders.fifo", "Attributes": {"FifoTopic": "true"}}));
    queue(&mut sim, "q.fifo", json!({"FifoQueue": "true"}));
    let redrive = json!({"deadLetterTargetArn": format!("{ACCOUNT_ARN}standard-dlq")}).to_string();
    let e = fails(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "orders.fifo", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}q.fifo"), "Attributes": {"RedrivePolicy": redrive}}),
    );
    assert!(e.message.contains("must use a FIFO queue as DLQ"), "{}", e.message);
    let e = fails(&mut sim, "Subscribe", json!({"TopicArn": "orders", "Protocol": "http", "Endpoint": URL}));
    assert!(e.message.contains("must match the specified protocol"));
    let e = fails(&mut sim, "Subscribe", json!({"TopicArn": "orders", "Protocol": "carrier-pigeon", "Endpoint": URL}));
    assert!(e.message.contains("does not support this protocol"));
}

#[test]
fn an_outage_needs_an_existing_queue_or_function() {
    // Playground rule: SimulateServiceOutage names a queue or a function that exists.
    let mut sim = Sim::new(1);
    let e = fails(
        &mut sim,
        "SimulateServiceOutage",
        json!({"ResourceArn": format!("{ACCOUNT_ARN}nope"), "Duration": "1m"}),
    );
    assert_eq!(e.code, "QueueDoesNotExist");
    queue(&mut sim, "q", json!({}));
    let e = fails(&mut sim, "SimulateServiceOutage", json!({"ResourceArn": format!("{ACCOUNT_ARN}q")}));
    assert_eq!(e.code, "MissingParameter");
}
