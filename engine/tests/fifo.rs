//! FIFO queues and topics: message groups, deduplication, ordering, quotas — as the SQS and SNS
//! developer guides state them.
mod common;
use common::*;
use engine::Sim;
use proptest::prelude::*;
use serde_json::{json, Value};

fn fifo_queue(sim: &mut Sim, name: &str, extra: Value) {
    let mut attrs = json!({"FifoQueue": "true"});
    for (k, v) in extra.as_object().unwrap() {
        attrs[k] = v.clone();
    }
    queue(sim, name, attrs);
}

fn send_fifo(sim: &mut Sim, queue: &str, group: &str, body: &str, dedup: &str) -> Value {
    ok(
        sim,
        "SendMessage",
        json!({"QueueUrl": queue, "MessageBody": body, "MessageGroupId": group, "MessageDeduplicationId": dedup}),
    )
}

fn bodies(messages: &[Value]) -> Vec<String> {
    messages.iter().map(|m| m["Body"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_group_is_withheld_while_its_first_message_is_in_flight_and_other_groups_flow() {
    // SQS FIFO: while a message of a group is in flight, later messages of that group are not
    // returned; messages of other groups are. A message not deleted before its visibility
    // timeout is returned again before the later ones. (The seeds' orders 4417 and 4418.)
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "orders.fifo", json!({"VisibilityTimeout": "30"}));
    send_fifo(&mut sim, "orders.fifo", "4417", "4417 placed", "a");
    send_fifo(&mut sim, "orders.fifo", "4417", "4417 shipped", "b");
    send_fifo(&mut sim, "orders.fifo", "4418", "4418 placed", "c");
    assert_eq!(bodies(&receive(&mut sim, "orders.fifo", 1)), ["4417 placed"]);
    assert_eq!(bodies(&receive(&mut sim, "orders.fifo", 1)), ["4418 placed"], "4417 shipped is withheld");
    assert!(receive(&mut sim, "orders.fifo", 1).is_empty());
    secs(&mut sim, 30);
    assert_eq!(
        bodies(&receive(&mut sim, "orders.fifo", 1)),
        ["4417 placed"],
        "the undeleted first event comes back first"
    );
}

#[test]
fn one_receive_returns_as_many_messages_of_a_free_group_as_fit_in_order() {
    // SQS FIFO: a receive returns as many messages of the same group as it can, in order; a
    // later receive gets nothing more from that group until they are deleted or visible again.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "q.fifo", json!({}));
    for (g, b) in [("a", "a1"), ("b", "b1"), ("a", "a2"), ("a", "a3"), ("b", "b2")] {
        send_fifo(&mut sim, "q.fifo", g, b, b);
    }
    let got = receive(&mut sim, "q.fifo", 4);
    assert_eq!(bodies(&got), ["a1", "a2", "a3", "b1"]);
    assert!(receive(&mut sim, "q.fifo", 10).is_empty(), "both groups now have messages in flight");
    for m in &got[..3] {
        ok(&mut sim, "DeleteMessage", json!({"QueueUrl": "q.fifo", "ReceiptHandle": m["ReceiptHandle"]}));
    }
    assert!(receive(&mut sim, "q.fifo", 10).is_empty(), "group b still has b1 in flight");
    ok(&mut sim, "DeleteMessage", json!({"QueueUrl": "q.fifo", "ReceiptHandle": got[3]["ReceiptHandle"]}));
    assert_eq!(bodies(&receive(&mut sim, "q.fifo", 10)), ["b2"]);
}

#[test]
fn received_messages_carry_group_id_and_increasing_sequence_numbers() {
    // SQS FIFO: MessageGroupId and SequenceNumber are system attributes of received messages.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "q.fifo", json!({}));
    let first = send_fifo(&mut sim, "q.fifo", "g", "1", "1");
    let second = send_fifo(&mut sim, "q.fifo", "g", "2", "2");
    assert!(first["SequenceNumber"].as_str().unwrap() < second["SequenceNumber"].as_str().unwrap());
    let got = receive(&mut sim, "q.fifo", 2);
    assert_eq!(got[0]["Attributes"]["MessageGroupId"], "g");
    assert_eq!(got[0]["Attributes"]["SequenceNumber"], first["SequenceNumber"]);
    assert_eq!(got[1]["Attributes"]["MessageDeduplicationId"], "2");
}

#[test]
fn a_duplicate_within_five_minutes_is_acknowledged_and_never_delivered() {
    // SQS FIFO: a message with a deduplication id sent in the last 5 minutes is accepted but not
    // delivered — also after the first was received and deleted; after 5 minutes it is new.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "q.fifo", json!({}));
    let first = send_fifo(&mut sim, "q.fifo", "g", "charge 4417", "pay-4417");
    let m = receive(&mut sim, "q.fifo", 1).remove(0);
    ok(&mut sim, "DeleteMessage", json!({"QueueUrl": "q.fifo", "ReceiptHandle": m["ReceiptHandle"]}));
    secs(&mut sim, 299);
    let again = send_fifo(&mut sim, "q.fifo", "g", "charge 4417", "pay-4417");
    assert_eq!(again["MessageId"], first["MessageId"], "acknowledged with the first message's id");
    assert_eq!(counts(&mut sim, "q.fifo"), (0, 0, 0));
    assert!(event_names(&sim).contains(&"Deduplicated"));
    secs(&mut sim, 1);
    let later = send_fifo(&mut sim, "q.fifo", "g", "charge 4417", "pay-4417");
    assert_ne!(later["MessageId"], first["MessageId"]);
    assert_eq!(counts(&mut sim, "q.fifo"), (1, 0, 0));
}

#[test]
fn content_based_deduplication_hashes_the_body() {
    // SQS FIFO: with ContentBasedDeduplication the SHA-256 of the body is the deduplication id;
    // without it and without MessageDeduplicationId the send fails.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "plain.fifo", json!({}));
    let e =
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "plain.fifo", "MessageBody": "x", "MessageGroupId": "g"}));
    assert!(e.message.contains("ContentBasedDeduplication"), "{}", e.message);
    fifo_queue(&mut sim, "q.fifo", json!({"ContentBasedDeduplication": "true"}));
    for body in ["same", "same", "other"] {
        ok(&mut sim, "SendMessage", json!({"QueueUrl": "q.fifo", "MessageBody": body, "MessageGroupId": "g"}));
    }
    assert_eq!(counts(&mut sim, "q.fifo").0, 2);
    let m = receive(&mut sim, "q.fifo", 1).remove(0);
    assert_eq!(m["Attributes"]["MessageDeduplicationId"].as_str().unwrap().len(), 64, "a SHA-256 in hex");
}

#[test]
fn deduplication_scope_message_group_keeps_ids_apart_per_group() {
    // SQS FIFO: with DeduplicationScope messageGroup, the same id in two groups is two messages.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "q.fifo", json!({"DeduplicationScope": "messageGroup"}));
    send_fifo(&mut sim, "q.fifo", "a", "x", "same-id");
    send_fifo(&mut sim, "q.fifo", "b", "x", "same-id");
    send_fifo(&mut sim, "q.fifo", "a", "x", "same-id");
    assert_eq!(counts(&mut sim, "q.fifo").0, 2);
}

#[test]
fn max_receive_count_moves_the_head_to_a_fifo_dlq_and_unblocks_the_group() {
    // SQS FIFO: a message received maxReceiveCount times moves to the FIFO dead-letter queue,
    // with a fresh enqueue timestamp, and the rest of its group flows again.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "dlq.fifo", json!({}));
    fifo_queue(&mut sim, "q.fifo", json!({"VisibilityTimeout": "1", "RedrivePolicy": redrive("dlq.fifo", 2)}));
    send_fifo(&mut sim, "q.fifo", "g", "poison", "1");
    send_fifo(&mut sim, "q.fifo", "g", "next", "2");
    for _ in 0..2 {
        assert_eq!(bodies(&receive(&mut sim, "q.fifo", 1)), ["poison"]);
        secs(&mut sim, 1);
    }
    assert_eq!(bodies(&receive(&mut sim, "q.fifo", 1)), ["next"], "the group is unblocked");
    let dead = receive(&mut sim, "dlq.fifo", 1).remove(0);
    assert_eq!(dead["Body"], "poison");
    assert_eq!(dead["Attributes"]["SentTimestamp"], (engine::time::EPOCH_MS + 2_000).to_string(), "fresh enqueue time");
}

#[test]
fn fifo_queues_need_fifo_settings_and_matching_dead_letter_queues() {
    // SQS: a FIFO queue's name ends in .fifo with FifoQueue true; MessageGroupId is required;
    // per-message DelaySeconds is not allowed; FIFO attributes are unknown to standard queues;
    // a dead-letter queue must be of the same type as its source.
    let mut sim = Sim::new(1);
    assert_eq!(fails(&mut sim, "CreateQueue", json!({"QueueName": "orders.fifo"})).code, "InvalidParameterValue");
    assert_eq!(
        fails(&mut sim, "CreateQueue", json!({"QueueName": "orders", "Attributes": {"FifoQueue": "true"}})).code,
        "InvalidParameterValue"
    );
    assert_eq!(
        fails(
            &mut sim,
            "CreateQueue",
            json!({"QueueName": "std", "Attributes": {"ContentBasedDeduplication": "true"}})
        )
        .code,
        "InvalidAttributeName"
    );
    fifo_queue(&mut sim, "q.fifo", json!({}));
    queue(&mut sim, "std", json!({}));
    assert_eq!(
        fails(
            &mut sim,
            "SendMessage",
            json!({"QueueUrl": "q.fifo", "MessageBody": "x", "MessageDeduplicationId": "d"})
        )
        .code,
        "MissingParameter"
    );
    assert_eq!(fails(&mut sim, "SendMessage", json!({"QueueUrl": "q.fifo", "MessageBody": "x", "MessageGroupId": "g", "MessageDeduplicationId": "d", "DelaySeconds": 5})).code, "InvalidParameterValue");
    assert_eq!(
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "std", "MessageBody": "x", "MessageDeduplicationId": "d"}))
            .code,
        "InvalidParameterValue"
    );
    let e = fails(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "q.fifo", "Attributes": {"RedrivePolicy": redrive("std", 3)}}),
    );
    assert!(e.message.contains("same type"), "{}", e.message);
    fails(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "std", "Attributes": {"RedrivePolicy": redrive("q.fifo", 3)}}),
    );
    assert_eq!(
        fails(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "q.fifo", "Attributes": {"FifoQueue": "false"}})).code,
        "InvalidAttributeValue"
    );
    let e = fails(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "q.fifo", "Attributes": {"FifoThroughputLimit": "perMessageGroupId"}}),
    );
    assert!(e.message.contains("DeduplicationScope"));
    assert_eq!(attr(&mut sim, "q.fifo", "FifoQueue"), "true");
    assert_eq!(attr(&mut sim, "q.fifo", "ContentBasedDeduplication"), "false");
    // A standard queue accepts MessageGroupId (fair queues): kept, with no ordering effect.
    ok(&mut sim, "SendMessage", json!({"QueueUrl": "std", "MessageBody": "x", "MessageGroupId": "tenant-1"}));
}

#[test]
fn an_expired_receipt_handle_cannot_delete_from_a_fifo_queue() {
    // SQS FIFO (recorded against AWS): deleting with a handle whose visibility timeout ran out
    // fails with InvalidParameterValue "The receipt handle has expired."
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "q.fifo", json!({"VisibilityTimeout": "5"}));
    send_fifo(&mut sim, "q.fifo", "g", "x", "1");
    let h = receive(&mut sim, "q.fifo", 1)[0]["ReceiptHandle"].clone();
    secs(&mut sim, 5);
    let e = fails(&mut sim, "DeleteMessage", json!({"QueueUrl": "q.fifo", "ReceiptHandle": h}));
    assert!(e.message.contains("expired"));
}

#[test]
fn a_repeated_receive_request_attempt_returns_the_same_messages() {
    // SQS FIFO: retrying ReceiveMessage with the same ReceiveRequestAttemptId within five minutes
    // returns the same messages and receipt handles while they are still in flight.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "q.fifo", json!({}));
    send_fifo(&mut sim, "q.fifo", "g", "x", "1");
    send_fifo(&mut sim, "q.fifo", "h", "y", "2");
    let req = json!({"QueueUrl": "q.fifo", "MaxNumberOfMessages": 1, "ReceiveRequestAttemptId": "attempt-1"});
    let first = ok(&mut sim, "ReceiveMessage", req.clone());
    secs(&mut sim, 10);
    let again = ok(&mut sim, "ReceiveMessage", req);
    assert_eq!(first["Messages"], again["Messages"]);
    assert_eq!(counts(&mut sim, "q.fifo"), (1, 1, 0), "nothing new was received");
}

#[test]
fn a_fifo_queue_takes_300_calls_per_second_per_action() {
    // SQS FIFO quotas: 300 transactions per second per API action (a batch of 10 is one);
    // more get ThrottlingException.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "q.fifo", json!({"ContentBasedDeduplication": "true"}));
    for i in 0..300 {
        ok(
            &mut sim,
            "SendMessage",
            json!({"QueueUrl": "q.fifo", "MessageBody": format!("m{i}"), "MessageGroupId": "hot"}),
        );
    }
    let e = fails(
        &mut sim,
        "SendMessage",
        json!({"QueueUrl": "q.fifo", "MessageBody": "one too many", "MessageGroupId": "hot"}),
    );
    assert_eq!(e.code, "ThrottlingException");
    sim.advance_by(1000);
    let batch: Vec<_> = (0..10)
        .map(|i| json!({"Id": format!("e{i}"), "MessageBody": format!("b{i}"), "MessageGroupId": "hot"}))
        .collect();
    ok(&mut sim, "SendMessageBatch", json!({"QueueUrl": "q.fifo", "Entries": batch}));
    assert_eq!(counts(&mut sim, "q.fifo").0, 310);
}

#[test]
fn high_throughput_mode_limits_each_message_group_not_the_queue() {
    // SQS FIFO high throughput (DeduplicationScope messageGroup + FifoThroughputLimit
    // perMessageGroupId): a single hot group still hits 300 per second, other groups do not.
    let mut sim = Sim::new(1);
    fifo_queue(
        &mut sim,
        "q.fifo",
        json!({"ContentBasedDeduplication": "true", "DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId"}),
    );
    for i in 0..300 {
        ok(
            &mut sim,
            "SendMessage",
            json!({"QueueUrl": "q.fifo", "MessageBody": format!("m{i}"), "MessageGroupId": "hot"}),
        );
    }
    assert_eq!(
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "q.fifo", "MessageBody": "x", "MessageGroupId": "hot"})).code,
        "ThrottlingException"
    );
    for i in 0..300 {
        ok(
            &mut sim,
            "SendMessage",
            json!({"QueueUrl": "q.fifo", "MessageBody": format!("c{i}"), "MessageGroupId": "cool"}),
        );
    }
}

fn fifo_topic(sim: &mut Sim, queues: &[&str]) {
    ok(
        sim,
        "CreateTopic",
        json!({"Name": "orders.fifo", "Attributes": {"FifoTopic": "true", "ContentBasedDeduplication": "true"}}),
    );
    for q in queues {
        if q.ends_with(".fifo") {
            fifo_queue(sim, q, json!({}));
        } else {
            queue(sim, q, json!({}));
        }
        ok(
            sim,
            "Subscribe",
            json!({"TopicArn": "orders.fifo", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}{q}"), "Attributes": {"RawMessageDelivery": "true"}}),
        );
    }
}

#[test]
fn a_fifo_topic_fans_out_each_group_in_publish_order_without_duplicates() {
    // SNS FIFO: every subscribed SQS FIFO queue receives each group's messages in publish order,
    // and a duplicate publish within 5 minutes is dropped at the topic.
    let mut sim = Sim::new(1);
    fifo_topic(&mut sim, &["billing.fifo", "packing.fifo"]);
    for (g, body) in [("4417", "placed"), ("4418", "placed"), ("4417", "shipped"), ("4417", "placed")] {
        let r = ok(
            &mut sim,
            "Publish",
            json!({"TopicArn": "orders.fifo", "Message": format!("{g} {body}"), "MessageGroupId": g}),
        );
        assert!(r["MessageId"].is_string());
    }
    for q in ["billing.fifo", "packing.fifo"] {
        assert_eq!(counts(&mut sim, q).0, 3, "{q}: the repeated '4417 placed' was deduplicated");
        let got = receive(&mut sim, q, 10);
        assert_eq!(bodies(&got), ["4417 placed", "4417 shipped", "4418 placed"], "{q}");
        assert_eq!(got[0]["Attributes"]["MessageGroupId"], "4417");
    }
}

#[test]
fn fifo_topics_need_a_group_and_take_no_fifo_queue_on_a_standard_topic() {
    // SNS: FIFO topic names end in .fifo; Publish to a FIFO topic needs MessageGroupId; a FIFO
    // queue cannot subscribe to a standard topic; a standard queue can subscribe to a FIFO topic
    // and gets no group id; a standard topic refuses a deduplication id.
    let mut sim = Sim::new(1);
    assert_eq!(fails(&mut sim, "CreateTopic", json!({"Name": "orders.fifo"})).code, "InvalidParameter");
    assert_eq!(
        fails(&mut sim, "CreateTopic", json!({"Name": "orders", "Attributes": {"FifoTopic": "true"}})).code,
        "InvalidParameter"
    );
    fifo_topic(&mut sim, &["plain"]);
    let e = fails(&mut sim, "Publish", json!({"TopicArn": "orders.fifo", "Message": "x"}));
    assert!(e.message.contains("MessageGroupId"));
    ok(&mut sim, "Publish", json!({"TopicArn": "orders.fifo", "Message": "x", "MessageGroupId": "g"}));
    assert!(receive(&mut sim, "plain", 1)[0]["Attributes"].get("MessageGroupId").is_none());
    ok(&mut sim, "CreateTopic", json!({"Name": "standard"}));
    fifo_queue(&mut sim, "q.fifo", json!({}));
    let e = fails(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "standard", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}q.fifo")}),
    );
    assert!(e.message.contains("FIFO SQS Queues can not be subscribed to standard SNS topics"));
    // A standard topic takes a MessageGroupId (AWS, recorded 2025-08; sns_recorded.rs) but not a
    // deduplication id.
    assert_eq!(
        fails(&mut sim, "Publish", json!({"TopicArn": "standard", "Message": "x", "MessageDeduplicationId": "d"})).code,
        "InvalidParameter"
    );
}

#[test]
fn a_standard_queue_with_several_consumers_reorders_and_duplicates_but_fifo_does_not() {
    // The ordering illusion: with the seeded at-least-once and best-effort-order settings on, a
    // standard queue hands out copies out of send order and twice; a FIFO queue keeps each
    // group's order and stores each message once.
    let mut sim = Sim::new(7);
    ok(&mut sim, "ConfigureSimulation", json!({"DuplicateDeliveryProbability": "0.2", "ReorderProbability": "0.3"}));
    queue(&mut sim, "std", json!({}));
    fifo_queue(&mut sim, "q.fifo", json!({}));
    for v in 1..=40 {
        send(&mut sim, "std", &format!("{v}"));
        send_fifo(&mut sim, "q.fifo", "order-4417", &format!("{v}"), &format!("v{v}"));
    }
    let versions =
        |msgs: Vec<Value>| msgs.iter().map(|m| m["Body"].as_str().unwrap().parse::<u32>().unwrap()).collect::<Vec<_>>();
    let mut std_seen = Vec::new();
    let mut fifo_seen = Vec::new();
    for _ in 0..10 {
        for q in ["std", "q.fifo"] {
            let got = receive(&mut sim, q, 10);
            for m in &got {
                ok(&mut sim, "DeleteMessage", json!({"QueueUrl": q, "ReceiptHandle": m["ReceiptHandle"]}));
            }
            if q == "std" {
                std_seen.extend(versions(got))
            } else {
                fifo_seen.extend(versions(got))
            }
        }
    }
    assert_eq!(fifo_seen, (1..=40).collect::<Vec<_>>());
    assert!(std_seen.len() > 40, "duplicates were delivered: {}", std_seen.len());
    assert!(std_seen.windows(2).any(|w| w[0] > w[1]), "some versions arrived out of order");
    // The consumer-side remedy: keep only versions newer than the latest seen.
    let mut latest = 0;
    let applied: Vec<u32> = std_seen
        .into_iter()
        .filter(|v| {
            if *v > latest {
                latest = *v;
                true
            } else {
                false
            }
        })
        .collect();
    assert!(applied.windows(2).all(|w| w[0] < w[1]) && applied.last() == Some(&40));
}

#[derive(Debug, Clone)]
enum Op {
    Send(u8),
    Receive(u8),
    DeleteOldest,
    Advance(u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u8..3).prop_map(Op::Send),
        (1u8..=10).prop_map(Op::Receive),
        Just(Op::DeleteOldest),
        (0u16..4000).prop_map(Op::Advance),
    ]
}

/// Messages moved to the DLQ are finished for their group.
fn mark_dead_lettered(sim: &Sim, done: &mut [std::collections::BTreeSet<u32>]) {
    for m in sim.snapshot().queues.iter().filter(|q| q.name == "dlq.fifo").flat_map(|q| q.messages.clone()) {
        let (g, n) = m.body.split_once(':').unwrap();
        done[g.parse::<usize>().unwrap()].insert(n.parse().unwrap());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, .. ProptestConfig::default() })]

    /// Whatever the interleaving of sends, receives, deletes and clock advances, each group's
    /// messages are received in send order: when a message is received, every earlier message of
    /// its group has been deleted, moved to the DLQ, or is returned just before it in the same call.
    #[test]
    fn each_group_is_received_in_send_order(ops in proptest::collection::vec(op(), 1..120)) {
        let mut sim = Sim::new(3);
        fifo_queue(&mut sim, "dlq.fifo", json!({}));
        fifo_queue(&mut sim, "q.fifo", json!({"VisibilityTimeout": "2", "RedrivePolicy": redrive("dlq.fifo", 3), "ContentBasedDeduplication": "true"}));
        let mut next = [0u32; 3];
        let mut done: Vec<std::collections::BTreeSet<u32>> = vec![Default::default(); 3];
        let mut held: Vec<(u32, u32, String)> = Vec::new();
        for op in ops {
            match op {
                Op::Send(g) => {
                    next[g as usize] += 1;
                    let r = sim.apply("SendMessage", &json!({"QueueUrl": "q.fifo", "MessageGroupId": format!("g{g}"), "MessageBody": format!("{g}:{}", next[g as usize])}));
                    if r.is_err() { next[g as usize] -= 1; }
                }
                Op::Receive(max) => {
                    let r = sim.apply("ReceiveMessage", &json!({"QueueUrl": "q.fifo", "MaxNumberOfMessages": max})).unwrap();
                    // A message moved to the DLQ during this very receive is finished too.
                    mark_dead_lettered(&sim, &mut done);
                    let mut seen_in_call: Vec<(u32, u32)> = Vec::new();
                    for m in r["Messages"].as_array().unwrap() {
                        let (g, n) = m["Body"].as_str().unwrap().split_once(':').unwrap();
                        let (g, n): (u32, u32) = (g.parse().unwrap(), n.parse().unwrap());
                        // Every earlier message of the group is finished or came earlier in this call.
                        for earlier in 1..n {
                            let finished = done[g as usize].contains(&earlier);
                            let before = seen_in_call.contains(&(g, earlier));
                            prop_assert!(finished || before, "group {} message {} received before {} was finished", g, n, earlier);
                        }
                        seen_in_call.push((g, n));
                        held.push((g, n, m["ReceiptHandle"].as_str().unwrap().to_string()));
                    }
                }
                Op::DeleteOldest => {
                    if !held.is_empty() {
                        let (g, n, h) = held.remove(0);
                        if sim.apply("DeleteMessage", &json!({"QueueUrl": "q.fifo", "ReceiptHandle": h})).is_ok()
                            && !sim.snapshot().queues.iter().any(|q| q.name == "q.fifo" && q.messages.iter().any(|m| m.body == format!("{g}:{n}"))) {
                            done[g as usize].insert(n);
                        }
                    }
                }
                Op::Advance(ms) => sim.advance_by(u64::from(ms)),
            }
        }
    }
}

#[test]
fn the_snapshot_names_what_a_withheld_fifo_message_waits_behind_and_until_when() {
    // SQS FIFO: while a message of a group is in flight, the later messages of the group are
    // not returned; the earlier one returns to the queue when its visibility timeout (here
    // 30 s from the receive at 0 s) runs out. The snapshot says which message holds a visible
    // one back and until when, so a view can show why it waits.
    let mut sim = Sim::new(1);
    fifo_queue(&mut sim, "orders.fifo", json!({"VisibilityTimeout": "30"}));
    send_fifo(&mut sim, "orders.fifo", "4417", "4417 placed", "a");
    send_fifo(&mut sim, "orders.fifo", "4417", "4417 shipped", "b");
    send_fifo(&mut sim, "orders.fifo", "4418", "4418 placed", "c");
    let blockers = |sim: &Sim| -> Vec<Option<(String, u64)>> {
        sim.snapshot().queues[0]
            .messages
            .iter()
            .map(|m| m.blocked_by.as_ref().map(|b| (b.message_id.to_string(), b.until.ms())))
            .collect()
    };
    assert_eq!(blockers(&sim), [None, None, None], "nothing in flight: nothing waits");
    receive(&mut sim, "orders.fifo", 1);
    let first = sim.snapshot().queues[0].messages[0].message_id.to_string();
    assert_eq!(blockers(&sim), [None, Some((first, 30_000)), None], "4417 shipped waits; 4418 does not");
    sim.advance_to(engine::SimTime(30_000));
    assert_eq!(blockers(&sim), [None, None, None], "the timeout ran out: the group is free again");
}
