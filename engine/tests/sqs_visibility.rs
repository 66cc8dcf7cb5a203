//! Visibility timeout, receipt handles and receive attributes, as the SQS documentation states them.
mod common;
use common::*;
use engine::Sim;
use serde_json::json;

#[test]
fn default_visibility_timeout_is_30_seconds() {
    // SQS: VisibilityTimeout defaults to 30 seconds.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    assert_eq!(attr(&mut sim, "q", "VisibilityTimeout"), "30");
    send(&mut sim, "q", "hello");
    assert_eq!(receive(&mut sim, "q", 1).len(), 1);
    secs(&mut sim, 29);
    assert!(receive(&mut sim, "q", 1).is_empty(), "still hidden at 29 s");
    secs(&mut sim, 1);
    assert_eq!(counts(&mut sim, "q"), (1, 0, 0), "visible again at 30 s");
}

#[test]
fn visibility_timeout_range_is_0_to_43200() {
    // SQS: VisibilityTimeout is 0 to 43,200 seconds (12 hours); out of range is InvalidAttributeValue.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "43200"}));
    let e =
        fails(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "q", "Attributes": {"VisibilityTimeout": "43201"}}));
    assert_eq!(e.code, "InvalidAttributeValue");
    assert!(e.message.contains("VisibilityTimeout"));
    let e = fails(&mut sim, "CreateQueue", json!({"QueueName": "r", "Attributes": {"VisibilityTimeout": "-1"}}));
    assert_eq!(e.code, "InvalidAttributeValue");
}

#[test]
fn receive_can_override_the_visibility_timeout() {
    // SQS: ReceiveMessage's VisibilityTimeout overrides the queue's for the returned messages.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "a");
    ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q", "VisibilityTimeout": 5}));
    secs(&mut sim, 5);
    assert_eq!(counts(&mut sim, "q"), (1, 0, 0));
    let e = fails(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q", "VisibilityTimeout": 43201}));
    assert_eq!(e.code, "InvalidParameterValue");
}

#[test]
fn each_receive_gives_a_new_receipt_handle_and_counts_receives() {
    // SQS: every receive returns a different receipt handle; ApproximateReceiveCount counts receives.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "1"}));
    send(&mut sim, "q", "a");
    let first = receive(&mut sim, "q", 1).remove(0);
    secs(&mut sim, 1);
    let second = receive(&mut sim, "q", 1).remove(0);
    assert_ne!(first["ReceiptHandle"], second["ReceiptHandle"]);
    assert_eq!(first["MessageId"], second["MessageId"]);
    assert_eq!(first["Attributes"]["ApproximateReceiveCount"], "1");
    assert_eq!(second["Attributes"]["ApproximateReceiveCount"], "2");
    assert_eq!(
        second["Attributes"]["ApproximateFirstReceiveTimestamp"],
        first["Attributes"]["ApproximateFirstReceiveTimestamp"]
    );
    assert_eq!(second["Attributes"]["SentTimestamp"], first["Attributes"]["SentTimestamp"]);
    let sent: u64 = first["Attributes"]["SentTimestamp"].as_str().unwrap().parse().unwrap();
    let second_receive: u64 =
        second["Attributes"]["ApproximateFirstReceiveTimestamp"].as_str().unwrap().parse().unwrap();
    assert_eq!(second_receive, sent, "the first receive happened at the send time (t = 0)");
}

#[test]
fn a_message_in_flight_is_never_returned_by_another_receive() {
    // SQS: while a message is in flight, other consumers cannot receive it.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "a");
    send(&mut sim, "q", "b");
    let a = receive(&mut sim, "q", 1);
    let b = receive(&mut sim, "q", 10);
    assert_eq!(b.len(), 1);
    assert_ne!(a[0]["MessageId"], b[0]["MessageId"]);
    assert!(receive(&mut sim, "q", 10).is_empty());
}

#[test]
fn change_visibility_to_zero_makes_the_message_visible_at_once() {
    // SQS: ChangeMessageVisibility with VisibilityTimeout 0 makes the message visible immediately.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "a");
    let m = receive(&mut sim, "q", 1).remove(0);
    ok(
        &mut sim,
        "ChangeMessageVisibility",
        json!({"QueueUrl": "q", "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": 0}),
    );
    assert_eq!(counts(&mut sim, "q"), (1, 0, 0));
}

#[test]
fn change_visibility_counts_from_now_and_is_capped_at_12_hours_from_the_receive() {
    // SQS: the new timeout counts from the ChangeMessageVisibility call; the total cannot pass
    // 12 hours from the ReceiveMessage that produced the handle.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "a");
    let m = receive(&mut sim, "q", 1).remove(0);
    let h = m["ReceiptHandle"].clone();
    secs(&mut sim, 20);
    ok(&mut sim, "ChangeMessageVisibility", json!({"QueueUrl": "q", "ReceiptHandle": h, "VisibilityTimeout": 60}));
    secs(&mut sim, 59);
    assert_eq!(counts(&mut sim, "q"), (0, 1, 0), "hidden until 20 + 60 s");
    secs(&mut sim, 1);
    assert_eq!(counts(&mut sim, "q"), (1, 0, 0));
    let r = ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q", "VisibilityTimeout": 7200}));
    let m = r["Messages"][0].clone();
    secs(&mut sim, 3600);
    let e = fails(
        &mut sim,
        "ChangeMessageVisibility",
        json!({"QueueUrl": "q", "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": 43200}),
    );
    assert_eq!(e.code, "InvalidParameterValue");
    assert!(e.message.contains("43200 seconds"), "{}", e.message);
    ok(
        &mut sim,
        "ChangeMessageVisibility",
        json!({"QueueUrl": "q", "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": 43200 - 3600}),
    );
}

#[test]
fn change_visibility_with_an_old_handle_succeeds_and_changes_nothing() {
    // SQS (recorded against AWS): an expired or superseded handle returns success and does nothing.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "1"}));
    send(&mut sim, "q", "a");
    let old = receive(&mut sim, "q", 1).remove(0)["ReceiptHandle"].clone();
    secs(&mut sim, 1);
    receive(&mut sim, "q", 1);
    ok(&mut sim, "ChangeMessageVisibility", json!({"QueueUrl": "q", "ReceiptHandle": old, "VisibilityTimeout": 0}));
    assert_eq!(counts(&mut sim, "q"), (0, 1, 0));
}

#[test]
fn delete_needs_the_latest_handle() {
    // SQS: deleting with a handle from an earlier receive succeeds but may not delete; the latest handle deletes.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "1"}));
    send(&mut sim, "q", "a");
    let old = receive(&mut sim, "q", 1).remove(0)["ReceiptHandle"].clone();
    secs(&mut sim, 1);
    let new = receive(&mut sim, "q", 1).remove(0)["ReceiptHandle"].clone();
    ok(&mut sim, "DeleteMessage", json!({"QueueUrl": "q", "ReceiptHandle": old}));
    assert_eq!(counts(&mut sim, "q"), (0, 1, 0), "the old handle deleted nothing");
    assert!(event_names(&sim).contains(&"DeleteIgnored"));
    ok(&mut sim, "DeleteMessage", json!({"QueueUrl": "q", "ReceiptHandle": new}));
    assert_eq!(counts(&mut sim, "q"), (0, 0, 0));
    // Deleting again succeeds and changes nothing.
    ok(&mut sim, "DeleteMessage", json!({"QueueUrl": "q", "ReceiptHandle": new}));
}

#[test]
fn a_malformed_receipt_handle_is_rejected() {
    // SQS: ReceiptHandleIsInvalid for a handle that is not one.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    for bad in ["nonsense", "rh-1", "rh-99-1", "rh-0-0"] {
        assert_eq!(
            fails(&mut sim, "DeleteMessage", json!({"QueueUrl": "q", "ReceiptHandle": bad})).code,
            "ReceiptHandleIsInvalid"
        );
    }
}

#[test]
fn max_number_of_messages_is_1_to_10_and_defaults_to_1() {
    // SQS: MaxNumberOfMessages 1 to 10, default 1; WaitTimeSeconds 0 to 20.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    for i in 0..12 {
        send(&mut sim, "q", &format!("m{i}"));
    }
    let one = ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q"}));
    assert_eq!(one["Messages"].as_array().unwrap().len(), 1);
    assert_eq!(receive(&mut sim, "q", 10).len(), 10);
    assert_eq!(
        fails(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q", "MaxNumberOfMessages": 11})).code,
        "InvalidParameterValue"
    );
    assert_eq!(
        fails(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q", "MaxNumberOfMessages": 0})).code,
        "InvalidParameterValue"
    );
    assert_eq!(
        fails(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q", "WaitTimeSeconds": 21})).code,
        "InvalidParameterValue"
    );
    ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q", "WaitTimeSeconds": 20}));
}

#[test]
fn in_flight_and_visible_counts_follow_the_timer() {
    // SQS: ApproximateNumberOfMessagesNotVisible counts received, undeleted messages.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "10"}));
    send(&mut sim, "q", "a");
    send(&mut sim, "q", "b");
    send(&mut sim, "q", "c");
    receive(&mut sim, "q", 1);
    assert_eq!(counts(&mut sim, "q"), (2, 1, 0));
    secs(&mut sim, 10);
    assert_eq!(counts(&mut sim, "q"), (3, 0, 0));
    assert!(event_names(&sim).contains(&"VisibilityExpired"));
}
