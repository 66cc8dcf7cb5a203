//! Who may send to a queue: access policies, encryption keys and the subscription's dead-letter
//! queue — the client-side errors SNS and EventBridge do not retry.
mod common;
use common::*;
use engine::event::EventKind;
use engine::Sim;
use serde_json::{json, Value};

const TOPIC_ARN: &str = "arn:aws:sns:us-east-1:000000000000:orders";

/// The statement the SNS guide gives for a queue subscribed to a topic.
fn allow_sns(queue: &str, topic_arn: &str, operator: &str) -> String {
    json!({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
        "Action": "sqs:SendMessage", "Resource": format!("{ACCOUNT_ARN}{queue}"),
        "Condition": {operator: {"aws:SourceArn": topic_arn}}}]})
    .to_string()
}

fn subscribed(sim: &mut Sim, queue_attributes: Value) -> String {
    ok(sim, "CreateTopic", json!({"Name": "orders"}));
    queue(sim, "billing", queue_attributes);
    let r = ok(
        sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}billing")}),
    );
    r["SubscriptionArn"].as_str().unwrap().to_string()
}

fn publish(sim: &mut Sim) {
    ok(sim, "Publish", json!({"TopicArn": "orders", "Message": "{\"order_id\":4417}"}));
}

fn failures(sim: &Sim) -> Vec<(String, Option<String>)> {
    sim.events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::DeliveryFailed { reason, dead_letter_queue, .. } => {
                Some((reason.clone(), dead_letter_queue.as_deref().map(str::to_string)))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_policy_that_does_not_allow_the_topic_drops_the_copy_without_retrying() {
    // SNS DLQ guide: a client-side error happens "when an owner changes the policy attached to the
    // subscribed endpoint in a way that prevents Amazon SNS from delivering messages"; "Amazon SNS
    // doesn't retry the message delivery that fails as a result of a client-side error".
    let mut sim = Sim::new(1);
    let other = "arn:aws:sns:us-east-1:000000000000:other-topic";
    subscribed(&mut sim, json!({"Policy": allow_sns("billing", other, "ArnEquals")}));
    publish(&mut sim);
    secs(&mut sim, 86_400);
    assert_eq!(counts(&mut sim, "billing").0, 0);
    let failed = failures(&sim);
    assert_eq!(failed.len(), 1, "one failure, no retries a day later");
    assert!(failed[0].0.contains("AccessDenied") && failed[0].0.contains("no statement"), "{}", failed[0].0);
    assert_eq!(failed[0].1, None, "without a subscription dead-letter queue the copy is discarded");
    assert!(!event_names(&sim).contains(&"DeliveryAttemptFailed"), "client-side errors are not retried");
}

#[test]
fn the_documented_statement_lets_the_topic_in_with_arn_equals_or_arn_like() {
    // SNS guide, "Subscribing an Amazon SQS queue to an Amazon SNS topic": the queue policy allows
    // the sns.amazonaws.com principal sqs:SendMessage with the aws:SourceArn of the topic.
    for (operator, source) in [("ArnEquals", TOPIC_ARN), ("ArnLike", "arn:aws:sns:us-east-1:000000000000:ord*")] {
        let mut sim = Sim::new(1);
        subscribed(&mut sim, json!({"Policy": allow_sns("billing", source, operator)}));
        publish(&mut sim);
        assert_eq!(counts(&mut sim, "billing").0, 1, "{operator}");
    }
}

#[test]
fn an_explicit_deny_wins_over_an_allow() {
    // IAM, "Policy evaluation logic": an explicit deny in any statement overrides any allow.
    let mut sim = Sim::new(1);
    let policy = json!({"Statement": [
        {"Effect": "Allow", "Principal": "*", "Action": "sqs:*", "Resource": "*"},
        {"Effect": "Deny", "Principal": {"Service": "sns.amazonaws.com"}, "Action": "sqs:SendMessage",
         "Condition": {"StringEquals": {"aws:SourceArn": TOPIC_ARN}}}]});
    subscribed(&mut sim, json!({"Policy": policy.to_string()}));
    publish(&mut sim);
    assert_eq!(counts(&mut sim, "billing").0, 0);
    assert!(failures(&sim)[0].0.contains("statement 1 of its Policy denies"));
}

#[test]
fn with_require_queue_policies_a_queue_without_a_policy_refuses_sns() {
    // On AWS a service principal needs the queue policy's statement; the playground's default
    // (a queue without a policy accepts its own account's topics) is its simplification.
    let mut sim = Sim::new(1);
    subscribed(&mut sim, json!({}));
    publish(&mut sim);
    assert_eq!(counts(&mut sim, "billing").0, 1, "by default a queue without a policy accepts the topic");
    ok(&mut sim, "ConfigureSimulation", json!({"RequireQueuePolicies": true}));
    publish(&mut sim);
    assert_eq!(counts(&mut sim, "billing").0, 1, "strict: the second copy is refused");
    assert!(failures(&sim)[0].0.contains("RequireQueuePolicies"));
    ok(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "billing", "Attributes": {"Policy": allow_sns("billing", TOPIC_ARN, "ArnEquals")}}),
    );
    publish(&mut sim);
    assert_eq!(counts(&mut sim, "billing").0, 2, "the documented statement lets it in");
}

#[test]
fn the_aws_managed_sqs_key_cannot_be_used_by_sns_and_a_customer_key_is_assumed_usable() {
    // SQS guide, "Enable compatibility between event sources from AWS services and encrypted
    // queues": the services need kms:GenerateDataKey and kms:Decrypt, and the AWS managed key's
    // policy (alias/aws/sqs) cannot be changed to grant them: use a customer managed key.
    let mut sim = Sim::new(1);
    subscribed(&mut sim, json!({"KmsMasterKeyId": "alias/aws/sqs"}));
    publish(&mut sim);
    assert_eq!(counts(&mut sim, "billing").0, 0);
    assert!(failures(&sim)[0].0.contains("KMS.AccessDeniedException"));
    ok(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "billing", "Attributes": {"KmsMasterKeyId": "alias/orders-key"}}),
    );
    publish(&mut sim);
    assert_eq!(counts(&mut sim, "billing").0, 1);
}

#[test]
fn a_blocked_copy_goes_to_the_subscription_dead_letter_queue_as_the_endpoint_would_have_had_it() {
    // SNS DLQ guide: "Messages that can't be delivered due to client errors or server errors are
    // held in the dead-letter queue". Observed on AWS: the copy is the SNS envelope (or the raw
    // message), and SNS adds no message attributes.
    let mut sim = Sim::new(1);
    let other = "arn:aws:sns:us-east-1:000000000000:other-topic";
    let sub = subscribed(&mut sim, json!({"Policy": allow_sns("billing", other, "ArnEquals")}));
    queue(&mut sim, "billing-sns-dlq", json!({}));
    let redrive = json!({"deadLetterTargetArn": format!("{ACCOUNT_ARN}billing-sns-dlq")}).to_string();
    ok(
        &mut sim,
        "SetSubscriptionAttributes",
        json!({"SubscriptionArn": sub, "AttributeName": "RedrivePolicy", "AttributeValue": redrive}),
    );
    publish(&mut sim);
    assert_eq!(failures(&sim)[0].1.as_deref(), Some("billing-sns-dlq"));
    let m = receive(&mut sim, "billing-sns-dlq", 1).remove(0);
    let body: Value = serde_json::from_str(m["Body"].as_str().unwrap()).unwrap();
    assert_eq!((body["Type"].as_str(), body["Message"].as_str()), (Some("Notification"), Some("{\"order_id\":4417}")));
    assert!(m.get("MessageAttributes").is_none_or(|a| a.as_object().is_some_and(|o| o.is_empty())), "{m}");
    let snap = sim.snapshot();
    let view = &snap.topics[0].subscriptions[0];
    assert_eq!((view.dead_letter_queue.as_deref(), view.redriven, view.failed), (Some("billing-sns-dlq"), 1, 1));
    let dlq = snap.queues.iter().find(|q| q.name == "billing-sns-dlq").unwrap();
    assert_eq!(dlq.subscription_dead_letter_sources, vec![sub]);
    assert!(dlq.dead_letter_sources.is_empty(), "it is no queue's redrive dead-letter queue");
}

#[test]
fn a_subscription_dead_letter_queue_sns_may_not_use_loses_the_copy_and_says_so() {
    // SNS DLQ guide: the DLQ is an ordinary queue, and SNS needs permission to send to it; the
    // NumberOfNotificationsFailedToRedriveToDlq metric counts the copies it could not keep.
    let mut sim = Sim::new(1);
    let sub = subscribed(&mut sim, json!({}));
    queue(&mut sim, "dlq", json!({"KmsMasterKeyId": "alias/aws/sqs"}));
    let redrive = json!({"deadLetterTargetArn": format!("{ACCOUNT_ARN}dlq")}).to_string();
    ok(
        &mut sim,
        "SetSubscriptionAttributes",
        json!({"SubscriptionArn": sub, "AttributeName": "RedrivePolicy", "AttributeValue": redrive}),
    );
    ok(&mut sim, "DeleteQueue", json!({"QueueUrl": "billing"}));
    publish(&mut sim);
    let failed = failures(&sim);
    assert_eq!(failed[0].1, None);
    assert!(
        failed[0].0.contains("NonExistentQueue") && failed[0].0.contains("dead-letter queue dlq refused it"),
        "{}",
        failed[0].0
    );
    assert_eq!(counts(&mut sim, "dlq").0, 0);
}

#[test]
fn malformed_queue_policies_are_refused_with_invalid_attribute_value_and_change_nothing() {
    // AWS answers "InvalidAttributeValue: Invalid value for the parameter Policy." (observed).
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    for bad in [
        "not json",
        "{\"Statement\": []}",
        "{\"Statement\": [{\"Effect\": \"Maybe\", \"Principal\": \"*\", \"Action\": \"sqs:SendMessage\"}]}",
        "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"sqs:SendMessage\"}]}",
        "{\"Statement\": [{\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"sqs:SendMessage\", \"Condition\": {\"ArnIsh\": {}}}]}",
    ] {
        let e = fails(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "q", "Attributes": {"Policy": bad}}));
        assert_eq!(e.code, "InvalidAttributeValue", "{bad}");
        assert!(e.message.starts_with("Invalid value for the parameter Policy."), "{}", e.message);
        let e = fails(&mut sim, "CreateQueue", json!({"QueueName": "new", "Attributes": {"Policy": bad}}));
        assert_eq!(e.code, "InvalidAttributeValue");
    }
}

#[test]
fn eventbridge_is_refused_by_a_policy_for_sns_and_sends_the_event_to_its_dead_letter_queue() {
    // EventBridge guide: for "missing permissions to a target … Rather than retrying, EventBridge
    // sends these events directly to the DLQ, if you have one."
    let mut sim = Sim::new(1);
    queue(&mut sim, "billing", json!({"Policy": allow_sns("billing", TOPIC_ARN, "ArnEquals")}));
    queue(&mut sim, "rule-dlq", json!({}));
    ok(&mut sim, "PutRule", json!({"Name": "orders", "EventPattern": "{\"source\": [\"shop\"]}"}));
    ok(
        &mut sim,
        "PutTargets",
        json!({"Rule": "orders", "Targets": [{"Id": "q", "Arn": format!("{ACCOUNT_ARN}billing"),
            "DeadLetterConfig": {"Arn": format!("{ACCOUNT_ARN}rule-dlq")}}]}),
    );
    ok(&mut sim, "PutEvents", json!({"Entries": [{"Source": "shop", "DetailType": "OrderPlaced", "Detail": "{}"}]}));
    secs(&mut sim, 3_600);
    assert_eq!(counts(&mut sim, "billing").0, 0);
    let m = receive(&mut sim, "rule-dlq", 1).remove(0);
    assert_eq!(m["MessageAttributes"]["ERROR_CODE"]["StringValue"], "NO_PERMISSIONS");
    assert_eq!(m["MessageAttributes"]["RETRY_ATTEMPTS"]["StringValue"], "0", "not retried");
}
