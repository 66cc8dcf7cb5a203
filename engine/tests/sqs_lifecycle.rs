//! Delay, retention, purge, sends and queue management, as the SQS documentation states them.
mod common;
use common::*;
use engine::Sim;
use serde_json::json;

#[test]
fn delay_seconds_hides_new_messages_per_queue_and_per_message() {
    // SQS: DelaySeconds 0 to 900 on the queue, overridable per message.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"DelaySeconds": "10"}));
    send(&mut sim, "q", "queue default");
    ok(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "no delay", "DelaySeconds": 0}));
    assert_eq!(counts(&mut sim, "q"), (1, 0, 1));
    secs(&mut sim, 10);
    assert_eq!(counts(&mut sim, "q"), (2, 0, 0));
    assert_eq!(
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "x", "DelaySeconds": 901})).code,
        "InvalidParameterValue"
    );
    assert_eq!(
        fails(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "q", "Attributes": {"DelaySeconds": "901"}})).code,
        "InvalidAttributeValue"
    );
}

#[test]
fn retention_defaults_to_4_days_and_expires_messages() {
    // SQS: MessageRetentionPeriod defaults to 345,600 s (4 days); a message is deleted when it runs out.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    assert_eq!(attr(&mut sim, "q", "MessageRetentionPeriod"), "345600");
    send(&mut sim, "q", "old");
    secs(&mut sim, 345_599);
    assert_eq!(counts(&mut sim, "q"), (1, 0, 0));
    secs(&mut sim, 1);
    assert_eq!(counts(&mut sim, "q"), (0, 0, 0));
    assert!(event_names(&sim).contains(&"ExpiredByRetention"));
}

#[test]
fn retention_period_range_is_60_seconds_to_14_days() {
    // SQS: MessageRetentionPeriod 60 to 1,209,600 seconds.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"MessageRetentionPeriod": "1209600"}));
    assert_eq!(
        fails(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "q", "Attributes": {"MessageRetentionPeriod": "59"}}))
            .code,
        "InvalidAttributeValue"
    );
    assert_eq!(
        fails(
            &mut sim,
            "SetQueueAttributes",
            json!({"QueueUrl": "q", "Attributes": {"MessageRetentionPeriod": "1209601"}})
        )
        .code,
        "InvalidAttributeValue"
    );
}

#[test]
fn lowering_retention_expires_messages_already_older_than_it() {
    // SQS: a shorter retention period applies to messages already in the queue.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "a");
    secs(&mut sim, 120);
    send(&mut sim, "q", "b");
    ok(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "q", "Attributes": {"MessageRetentionPeriod": "60"}}));
    assert_eq!(counts(&mut sim, "q"), (1, 0, 0));
    secs(&mut sim, 60);
    assert_eq!(counts(&mut sim, "q"), (0, 0, 0));
}

#[test]
fn in_flight_messages_expire_too() {
    // SQS: retention applies whatever the message's state.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"MessageRetentionPeriod": "60", "VisibilityTimeout": "600"}));
    send(&mut sim, "q", "a");
    receive(&mut sim, "q", 1);
    secs(&mut sim, 60);
    assert_eq!(counts(&mut sim, "q"), (0, 0, 0));
}

#[test]
fn purge_deletes_visible_and_in_flight_messages_once_a_minute() {
    // SQS: PurgeQueue deletes all messages, in flight too; another purge within 60 s is PurgeQueueInProgress.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"DelaySeconds": "5"}));
    send(&mut sim, "q", "a");
    secs(&mut sim, 5);
    send(&mut sim, "q", "b");
    receive(&mut sim, "q", 1);
    send(&mut sim, "q", "c");
    assert_eq!(counts(&mut sim, "q"), (0, 1, 2));
    ok(&mut sim, "PurgeQueue", json!({"QueueUrl": "q"}));
    assert_eq!(counts(&mut sim, "q"), (0, 0, 0));
    assert_eq!(fails(&mut sim, "PurgeQueue", json!({"QueueUrl": "q"})).code, "PurgeQueueInProgress");
    secs(&mut sim, 60);
    ok(&mut sim, "PurgeQueue", json!({"QueueUrl": "q"}));
}

#[test]
fn queues_are_named_by_name_url_or_arn() {
    // SQS: the queue URL is https://sqs.REGION.amazonaws.com/ACCOUNT/NAME and the ARN arn:aws:sqs:REGION:ACCOUNT:NAME.
    let mut sim = Sim::new(1);
    let url = ok(&mut sim, "CreateQueue", json!({"QueueName": "orders"}))["QueueUrl"].as_str().unwrap().to_string();
    assert_eq!(url, "https://sqs.us-east-1.amazonaws.com/000000000000/orders");
    assert_eq!(ok(&mut sim, "GetQueueUrl", json!({"QueueName": "orders"}))["QueueUrl"], url.as_str());
    for reference in ["orders", url.as_str(), "arn:aws:sqs:us-east-1:000000000000:orders"] {
        send(&mut sim, reference, "x");
    }
    assert_eq!(counts(&mut sim, "orders"), (3, 0, 0));
    assert_eq!(attr(&mut sim, "orders", "QueueArn"), "arn:aws:sqs:us-east-1:000000000000:orders");
    assert_eq!(
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "nope", "MessageBody": "x"})).code,
        "QueueDoesNotExist"
    );
    assert_eq!(fails(&mut sim, "GetQueueUrl", json!({"QueueName": "nope"})).code, "QueueDoesNotExist");
}

#[test]
fn create_queue_is_idempotent_but_not_with_different_attributes() {
    // SQS: CreateQueue with an existing name returns its URL; with a different attribute value it fails.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "60"}));
    queue(&mut sim, "q", json!({"VisibilityTimeout": "60"}));
    queue(&mut sim, "q", json!({}));
    let e = fails(&mut sim, "CreateQueue", json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "61"}}));
    assert_eq!(e.code, "QueueNameExists");
    assert!(e.message.contains("VisibilityTimeout"));
}

#[test]
fn a_deleted_queue_name_is_free_again_after_60_seconds() {
    // SQS: after DeleteQueue, wait 60 seconds before creating a queue with the same name.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "lost");
    ok(&mut sim, "DeleteQueue", json!({"QueueUrl": "q"}));
    assert_eq!(fails(&mut sim, "CreateQueue", json!({"QueueName": "q"})).code, "QueueDeletedRecently");
    secs(&mut sim, 60);
    queue(&mut sim, "q", json!({}));
    assert_eq!(counts(&mut sim, "q"), (0, 0, 0));
}

#[test]
fn queue_names_follow_the_rules() {
    // SQS: 1 to 80 characters: letters, digits, hyphens, underscores.
    let mut sim = Sim::new(1);
    for bad in ["", "has space", "dot.ted", &"x".repeat(81)] {
        assert_eq!(fails(&mut sim, "CreateQueue", json!({"QueueName": bad})).code, "InvalidParameterValue", "{bad:?}");
    }
    assert_eq!(fails(&mut sim, "CreateQueue", json!({})).code, "MissingParameter");
    queue(&mut sim, &"x".repeat(80), json!({}));
}

#[test]
fn unknown_attributes_and_parameters_are_rejected() {
    // SQS: an unknown attribute name is InvalidAttributeName; the playground also refuses unknown parameters.
    let mut sim = Sim::new(1);
    assert_eq!(
        fails(&mut sim, "CreateQueue", json!({"QueueName": "q", "Attributes": {"Visibility": "1"}})).code,
        "InvalidAttributeName"
    );
    assert_eq!(
        fails(&mut sim, "CreateQueue", json!({"QueueName": "q", "Atributes": {}})).code,
        "InvalidParameterValue"
    );
    queue(&mut sim, "q", json!({}));
    assert_eq!(
        fails(&mut sim, "GetQueueAttributes", json!({"QueueUrl": "q", "AttributeNames": ["Nope"]})).code,
        "InvalidAttributeName"
    );
    assert_eq!(fails(&mut sim, "NoSuchAction", json!({})).code, "InvalidAction");
}

#[test]
fn approximate_age_of_oldest_message_is_a_metric_not_an_attribute() {
    // SQS: ApproximateAgeOfOldestMessage is a CloudWatch metric; GetQueueAttributes does not know it.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "a");
    secs(&mut sim, 42);
    assert_eq!(
        fails(
            &mut sim,
            "GetQueueAttributes",
            json!({"QueueUrl": "q", "AttributeNames": ["ApproximateAgeOfOldestMessage"]})
        )
        .code,
        "InvalidAttributeName"
    );
    assert_eq!(sim.snapshot().queues[0].oldest_age_ms, 42_000);
}

#[test]
fn messages_and_attributes_are_checked_on_send() {
    // SQS: at most 10 message attributes; body characters limited to the XML set; size up to MaximumMessageSize.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"MaximumMessageSize": "1024"}));
    let attrs: serde_json::Map<String, serde_json::Value> =
        (0..11).map(|i| (format!("a{i}"), json!({"DataType": "String", "StringValue": "v"}))).collect();
    let e = fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "x", "MessageAttributes": attrs}));
    assert!(e.message.contains("[11] exceeds the allowed maximum [10]"), "{}", e.message);
    assert_eq!(
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "bell \u{7}"})).code,
        "InvalidMessageContents"
    );
    assert_eq!(
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "x".repeat(1025)})).code,
        "InvalidParameterValue"
    );
    assert_eq!(fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "x", "MessageAttributes": {"n": {"DataType": "Number", "StringValue": "abc"}}})).code, "InvalidParameterValue");
    // MessageDeduplicationId is for FIFO queues only.
    assert_eq!(
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "x", "MessageDeduplicationId": "d"}))
            .code,
        "InvalidParameterValue"
    );
    let r = ok(
        &mut sim,
        "SendMessage",
        json!({"QueueUrl": "q", "MessageBody": "abc", "MessageAttributes": {"k": {"DataType": "String", "StringValue": "v"}}}),
    );
    assert_eq!(r["MD5OfMessageBody"], "900150983cd24fb0d6963f7d28e17f72");
    assert!(r["MD5OfMessageAttributes"].is_string());
    let m = receive(&mut sim, "q", 1).remove(0);
    assert_eq!(m["MessageAttributes"]["k"]["StringValue"], "v");
    assert_eq!(m["MD5OfBody"], "900150983cd24fb0d6963f7d28e17f72");
    // Standard queues take MessageGroupId (fair queues, per the current SQS quotas page).
    ok(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "x", "MessageGroupId": "g"}));
}

#[test]
fn batches_take_one_to_ten_entries_with_distinct_ids_and_fail_entry_by_entry() {
    // SQS: batch actions take 1 to 10 entries with distinct Ids; a bad entry fails alone.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    assert_eq!(fails(&mut sim, "SendMessageBatch", json!({"QueueUrl": "q", "Entries": []})).code, "EmptyBatchRequest");
    let eleven: Vec<_> = (0..11).map(|i| json!({"Id": format!("e{i}"), "MessageBody": "x"})).collect();
    assert_eq!(
        fails(&mut sim, "SendMessageBatch", json!({"QueueUrl": "q", "Entries": eleven})).code,
        "TooManyEntriesInBatchRequest"
    );
    let dup = json!([{"Id": "a", "MessageBody": "x"}, {"Id": "a", "MessageBody": "y"}]);
    assert_eq!(
        fails(&mut sim, "SendMessageBatch", json!({"QueueUrl": "q", "Entries": dup})).code,
        "BatchEntryIdsNotDistinct"
    );
    assert_eq!(
        fails(&mut sim, "SendMessageBatch", json!({"QueueUrl": "q", "Entries": [{"Id": "a b", "MessageBody": "x"}]}))
            .code,
        "InvalidBatchEntryId"
    );
    let r = ok(
        &mut sim,
        "SendMessageBatch",
        json!({"QueueUrl": "q", "Entries": [
        {"Id": "good", "MessageBody": "x"}, {"Id": "bad", "MessageBody": "x", "DelaySeconds": 1000}]}),
    );
    assert_eq!(r["Successful"][0]["Id"], "good");
    assert_eq!(r["Failed"][0]["Id"], "bad");
    assert_eq!(r["Failed"][0]["SenderFault"], true);
    assert_eq!(counts(&mut sim, "q"), (1, 0, 0));
    let m = receive(&mut sim, "q", 1).remove(0);
    let r = ok(
        &mut sim,
        "DeleteMessageBatch",
        json!({"QueueUrl": "q", "Entries": [
        {"Id": "1", "ReceiptHandle": m["ReceiptHandle"]}, {"Id": "2", "ReceiptHandle": "junk"}]}),
    );
    assert_eq!(r["Successful"].as_array().unwrap().len(), 1);
    assert_eq!(r["Failed"][0]["Code"], "ReceiptHandleIsInvalid");
}
