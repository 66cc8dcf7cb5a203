//! Long polling in virtual time: a waiting consumer's receive returns at the very moment a message
//! becomes receivable, whichever way it became so. SQS documentation (*Amazon SQS short and long
//! polling*): "Long polling ... returns messages as soon as they become available", waiting up to
//! WaitTimeSeconds (at most 20 s) when the queue is empty.
#[path = "world_helpers.rs"]
mod helpers;
use engine::{Sim, SimTime};
use helpers::*;
use serde_json::{json, Value};

/// When the worker `w` received something from `queue`, in virtual ms, in order.
fn worker_receives(sim: &Sim, queue: &str) -> Vec<u64> {
    sim.events()
        .iter()
        .filter_map(|e| serde_json::to_value(e).ok())
        .filter(|e| e["event"] == "Received" && e["queue"] == queue && e["cause"] == "Worker")
        .map(|e| e["at"].as_u64().expect("times are integers"))
        .collect()
}

/// A worker that long-polls `queue` for 20 s and takes 1 s per message.
fn waiting_worker(sim: &mut Sim, queue: &str) {
    ok(
        sim,
        "CreateWorker",
        json!({"WorkerName": format!("{}-w", queue.trim_end_matches(".fifo")), "QueueUrl": queue, "WaitTimeSeconds": 20, "ProcessingTime": "1s"}),
    );
}

fn handle_of(received: &Value) -> String {
    received["Messages"][0]["ReceiptHandle"].as_str().expect("a message was received").to_string()
}

#[test]
fn a_sent_message_reaches_a_long_polling_worker_at_the_moment_it_is_sent() {
    let mut sim = Sim::new(1);
    queue(&mut sim, "packing", json!({}));
    waiting_worker(&mut sim, "packing");
    sim.advance_to(SimTime(3_217));
    send(&mut sim, "packing", &order(4417, 1, "+919876543210"));
    assert_eq!(worker_receives(&sim, "packing"), [3_217], "not at the next second, not at the end of the wait");
}

#[test]
fn a_delayed_message_reaches_a_long_polling_worker_when_its_delay_ends() {
    // SQS: a delayed message stays invisible for DelaySeconds, then becomes available.
    let mut sim = Sim::new(2);
    queue(&mut sim, "packing", json!({}));
    waiting_worker(&mut sim, "packing");
    sim.advance_to(SimTime(1_250));
    ok(&mut sim, "SendMessage", json!({"QueueUrl": "packing", "MessageBody": "late", "DelaySeconds": 5}));
    sim.advance_to(SimTime(60_000));
    assert_eq!(worker_receives(&sim, "packing"), [6_250]);
}

#[test]
fn a_message_whose_visibility_timeout_runs_out_reaches_a_long_polling_worker_then() {
    // SQS: a received message that is not deleted becomes visible again when its visibility
    // timeout expires.
    let mut sim = Sim::new(3);
    queue(&mut sim, "packing", json!({}));
    send(&mut sim, "packing", "held by hand");
    ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "packing", "VisibilityTimeout": 7}));
    waiting_worker(&mut sim, "packing");
    sim.advance_to(SimTime(60_000));
    assert_eq!(worker_receives(&sim, "packing"), [7_000]);
}

#[test]
fn a_message_whose_visibility_is_changed_to_zero_reaches_a_long_polling_worker_at_once() {
    // SQS ChangeMessageVisibility: "a value of 0 ... makes the message immediately visible".
    let mut sim = Sim::new(4);
    queue(&mut sim, "packing", json!({}));
    send(&mut sim, "packing", "given back");
    let r = ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "packing", "VisibilityTimeout": 30}));
    waiting_worker(&mut sim, "packing");
    sim.advance_to(SimTime(2_500));
    ok(
        &mut sim,
        "ChangeMessageVisibility",
        json!({"QueueUrl": "packing", "ReceiptHandle": handle_of(&r), "VisibilityTimeout": 0}),
    );
    assert_eq!(worker_receives(&sim, "packing"), [2_500]);
}

#[test]
fn a_message_moved_to_a_dead_letter_queue_reaches_its_long_polling_worker_at_the_move() {
    // SQS redrive: after maxReceiveCount receives, the next receive moves the message to the DLQ.
    let mut sim = Sim::new(5);
    queue_with_dlq(&mut sim, "sms", 5, 1);
    waiting_worker(&mut sim, "sms-dlq");
    send(&mut sim, "sms", "poison");
    ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "sms"}));
    sim.advance_to(SimTime(9_400));
    ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "sms"}));
    assert_eq!(worker_receives(&sim, "sms-dlq"), [9_400]);
}

#[test]
fn a_message_moved_back_by_a_move_task_reaches_a_long_polling_worker_as_it_arrives() {
    // SQS StartMessageMoveTask: messages move from the dead-letter queue back to their source.
    let mut sim = Sim::new(6);
    queue_with_dlq(&mut sim, "sms", 5, 1);
    send(&mut sim, "sms", "poison");
    ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "sms"}));
    secs(&mut sim, 5);
    ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "sms"}));
    waiting_worker(&mut sim, "sms");
    let moved_at = sim.now().0;
    ok(&mut sim, "StartMessageMoveTask", json!({"SourceArn": "arn:aws:sqs:us-east-1:000000000000:sms-dlq"}));
    sim.advance_to(SimTime(60_000));
    let arrived: Vec<u64> = sim
        .events()
        .iter()
        .filter_map(|e| serde_json::to_value(e).ok())
        .filter(|e| e["event"] == "MessageMoved")
        .map(|e| e["at"].as_u64().expect("integer"))
        .collect();
    assert_eq!(arrived.len(), 1, "one message moved back");
    assert!(arrived[0] >= moved_at);
    assert_eq!(worker_receives(&sim, "sms"), arrived, "received the moment it arrived");
}

#[test]
fn deleting_a_fifo_message_frees_its_group_for_a_long_polling_worker_at_once() {
    // SQS FIFO: a message is withheld while an earlier message of its group is in flight;
    // deleting that one makes the next receivable.
    let mut sim = Sim::new(7);
    queue(&mut sim, "orders.fifo", json!({"FifoQueue": "true", "ContentBasedDeduplication": "true"}));
    for body in ["first", "second"] {
        ok(&mut sim, "SendMessage", json!({"QueueUrl": "orders.fifo", "MessageBody": body, "MessageGroupId": "4417"}));
    }
    let r = ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "orders.fifo"}));
    waiting_worker(&mut sim, "orders.fifo");
    sim.advance_to(SimTime(4_040));
    assert_eq!(worker_receives(&sim, "orders.fifo"), Vec::<u64>::new(), "blocked behind the first");
    ok(&mut sim, "DeleteMessage", json!({"QueueUrl": "orders.fifo", "ReceiptHandle": handle_of(&r)}));
    assert_eq!(worker_receives(&sim, "orders.fifo"), [4_040]);
}

#[test]
fn a_worker_whose_wait_runs_out_empty_polls_again_after_wait_time_seconds() {
    // SQS: a long poll on an empty queue returns an empty response after WaitTimeSeconds.
    let mut sim = Sim::new(8);
    queue(&mut sim, "packing", json!({}));
    waiting_worker(&mut sim, "packing");
    sim.advance_to(SimTime(45_000));
    let w = worker(&mut sim, "packing-w");
    assert_eq!(w["Stats"]["EmptyReceives"], json!(3), "at 0 s, 20 s and 40 s");
}
