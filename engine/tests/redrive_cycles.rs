//! Dead-letter queues that lead back: `a`'s redrive policy names `b` and `b`'s names `a`.
//!
//! AWS, documented (SQS developer guide, "Using dead-letter queues in Amazon SQS",
//! <https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html>):
//! "When the ReceiveCount for a message exceeds the maxReceiveCount for a queue, Amazon SQS moves
//! the message to a dead-letter queue (with its original message ID)", and "the enqueue timestamp
//! remains unchanged". The documentation says nothing of a dead-letter queue that has a redrive
//! policy of its own leading back to its source.
//!
//! AWS, observed: the receive count goes with the message (a validated recording against AWS,
//! <https://github.com/localstack/localstack/blob/main/tests/aws/services/sqs/test_sqs.snapshot.json>,
//! `test_dead_letter_queue_message_attributes`, recorded 2024-04-30: a message received once,
//! moved by the next receive, shows `ApproximateReceiveCount` "2" at its first receive from the
//! dead-letter queue). AWS accepts a queue as its own dead-letter queue (the same suite,
//! `test_set_empty_redrive_policy`), and a dead-letter queue whose redrive policy leads back to
//! its source (a user's recipe of 2017 relies on it:
//! <https://gist.github.com/ssunday/928aa2105ad623f45586a0f0b3c19064>).
//!
//! So on AWS a message in a cycle whose receive count has reached every queue's
//! `maxReceiveCount` is never returned again: each receive on the queue that holds it moves it
//! to the next, until its retention period ends. The playground does the same, one queue per
//! receive call: a message moved into a queue that would move it on at its next receive does not
//! wake that queue's long pollers (their poll would return nothing either way), so a cycle can
//! never become a chain of wakes at one virtual moment.
mod common;
use common::*;
use engine::{EventKind, Sim};
use serde_json::json;
use std::sync::mpsc;
use std::time::Duration;

/// `a` ⇄ `b`, each moving a message after `max` receives; visibility `visibility` seconds.
fn cycle(sim: &mut Sim, max_a: u32, max_b: u32, visibility: &str) {
    queue(sim, "a", json!({"VisibilityTimeout": visibility}));
    queue(sim, "b", json!({"VisibilityTimeout": visibility, "RedrivePolicy": redrive("a", max_b)}));
    ok(sim, "SetQueueAttributes", json!({"QueueUrl": "a", "Attributes": {"RedrivePolicy": redrive("b", max_a)}}));
}

/// (from, to, receive count) of every `MovedToDeadLetterQueue` in the log.
fn moves(sim: &Sim) -> Vec<(String, String, u32)> {
    sim.events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MovedToDeadLetterQueue { queue, dead_letter_queue, receive_count, .. } => {
                Some((queue.to_string(), dead_letter_queue.to_string(), *receive_count))
            }
            _ => None,
        })
        .collect()
}

/// Runs `f` on `sim` in a thread, and fails the test if it has not returned within 30 s: a
/// loop cannot be interrupted, so the watchdog waits for the answer (milliseconds when right).
fn within_30s(sim: Sim, f: impl FnOnce(&mut Sim) + Send + 'static) -> Sim {
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let mut sim = sim;
        f(&mut sim);
        let _ = done.send(sim);
    });
    finished.recv_timeout(Duration::from_secs(30)).expect("the simulation did not return within 30 s: it loops")
}

#[test]
fn a_dead_letter_queue_keeps_the_receive_count_the_message_had_in_its_source() {
    // SQS (AWS, observed; the module's doc gives the recording): a message received once and
    // moved by the next receive (maxReceiveCount 1) shows ApproximateReceiveCount "2" at its first
    // receive from the dead-letter queue, its MessageId unchanged (SQS developer guide: moved
    // "with its original message ID").
    let mut sim = Sim::new(1);
    queue(&mut sim, "dlq", json!({}));
    queue(&mut sim, "src", json!({"RedrivePolicy": redrive("dlq", 1)}));
    let id = send(&mut sim, "src", "message-1");
    let first = ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "src", "VisibilityTimeout": 0}));
    assert_eq!(first["Messages"].as_array().map(Vec::len), Some(1));
    let second = ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "src", "VisibilityTimeout": 0}));
    assert_eq!(second["Messages"], json!([]), "the second receive moves it instead of returning it");
    let dead = receive(&mut sim, "dlq", 1);
    assert_eq!(dead[0]["MessageId"], id);
    assert_eq!(dead[0]["Attributes"]["ApproximateReceiveCount"], "2");
}

#[test]
fn a_redrive_policy_may_close_a_cycle_of_queues() {
    // SQS: a dead-letter queue may have a redrive policy of its own, also one leading back to its
    // source (accepted by AWS; the documentation is silent). ListDeadLetterSourceQueues lists
    // each queue as the other's source.
    let mut sim = Sim::new(1);
    cycle(&mut sim, 1, 1, "30");
    for (dlq, source) in [("a", "b"), ("b", "a")] {
        let sources = ok(&mut sim, "ListDeadLetterSourceQueues", json!({"QueueUrl": dlq}));
        assert_eq!(sources["queueUrls"], json!([format!("https://sqs.us-east-1.amazonaws.com/000000000000/{source}")]));
    }
}

#[test]
fn in_a_cycle_each_receive_moves_an_exhausted_message_one_queue_on_and_returns_nothing() {
    // SQS (the module's doc): the receive count goes with the message, so a message that has
    // reached both queues' maxReceiveCount is moved by every receive of the queue that holds it,
    // and no receive returns it.
    let mut sim = Sim::new(1);
    cycle(&mut sim, 1, 1, "1");
    let id = send(&mut sim, "a", "poison");
    assert_eq!(receive(&mut sim, "a", 1).len(), 1, "received once from a");
    secs(&mut sim, 1);
    for (from, to) in [("a", "b"), ("b", "a"), ("a", "b")] {
        assert!(receive(&mut sim, from, 10).is_empty(), "a receive on {from} moves it to {to}");
        assert_eq!(counts(&mut sim, to), (1, 0, 0), "it waits in {to}, visible");
        assert_eq!(counts(&mut sim, from), (0, 0, 0));
    }
    assert_eq!(moves(&sim), [("a".into(), "b".into(), 1), ("b".into(), "a".into(), 1), ("a".into(), "b".into(), 1)]);
    let in_b = ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "b", "VisibilityTimeout": 0}));
    assert_eq!(in_b["Messages"], json!([]), "b's receive moves it on as well");
    assert_eq!(counts(&mut sim, "a"), (1, 0, 0));
    let received = sim.events().iter().filter(|e| matches!(&e.kind, EventKind::Received { .. })).count();
    assert_eq!(received, 1, "only the first receive returned {id}");
}

/// The issue's input: `a` ⇄ `b` with maxReceiveCount 1, one message sent and received once,
/// 2 s later a worker on each queue.
fn issue_cycle_with_workers() -> Sim {
    let mut sim = Sim::new(1);
    cycle(&mut sim, 1, 1, "30");
    send(&mut sim, "a", "poison");
    receive(&mut sim, "a", 1);
    secs(&mut sim, 2);
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "wa", "QueueUrl": "a"}));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "wb", "QueueUrl": "b"}));
    sim
}

#[test]
fn a_dead_letter_cycle_with_a_worker_on_each_queue_does_not_spin_at_one_virtual_moment() {
    // Regression: the message moved between a and b without virtual time passing — each move
    // woke the other queue's long-polling worker, whose receive moved it back — and the engine
    // never returned. Now a move into a queue that would move the message on at its next receive
    // wakes no one there: the message moves once per receive call, at the workers' own polls.
    let sim = within_30s(issue_cycle_with_workers(), |sim| sim.advance_by(3_600_000));
    let moves = moves(&sim);
    // The message is visible again at 30 s; from then on each queue's worker moves it once per
    // 20 s long poll: about 180 moves in the hour, never two by one queue in a row.
    assert!((100..=400).contains(&moves.len()), "{} moves in an hour", moves.len());
    assert!(moves.windows(2).all(|w| w[0].1 == w[1].0), "each move starts where the last one ended");
    let at: Vec<_> = sim.events().iter().filter(|e| e.kind.name() == "MovedToDeadLetterQueue").map(|e| e.at).collect();
    assert!(at.windows(3).all(|w| w[0] < w[2]), "never more than two moves at one virtual moment");
    let mut sim = sim;
    for worker in ["wa", "wb"] {
        let w = ok(&mut sim, "DescribeWorker", json!({"WorkerName": worker}));
        assert_eq!(w["Stats"]["Received"], 0, "{worker} never receives the message: {w}");
    }
}

#[test]
fn a_message_moved_into_a_queue_that_may_still_return_it_wakes_that_queues_worker() {
    // SQS long polling: a waiting ReceiveMessage is answered as soon as a message is available.
    // A message moved from a (maxReceiveCount 1) into b (maxReceiveCount 3) has been received
    // once: b may return it, so b's waiting worker gets it at once, with its count going on.
    let mut sim = Sim::new(1);
    cycle(&mut sim, 1, 3, "30");
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "wb", "QueueUrl": "b", "ProcessingTime": "1s", "FailureProbability": "1"}),
    );
    send(&mut sim, "a", "poison");
    receive(&mut sim, "a", 1);
    ok(
        &mut sim,
        "ChangeMessageVisibility",
        json!({"QueueUrl": "a", "ReceiptHandle": "rh-1-1", "VisibilityTimeout": 0}),
    );
    let moved_at = sim.now();
    assert!(receive(&mut sim, "a", 1).is_empty(), "moved to b");
    let from_b: Vec<(engine::SimTime, u32)> = sim
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Received { queue, receive_count, .. } if &**queue == "b" => Some((e.at, *receive_count)),
            _ => None,
        })
        .collect();
    assert_eq!(from_b, [(moved_at, 2)], "b's worker received it at the moment it arrived, its count going on");
}

#[test]
fn a_new_redrive_policy_on_a_queue_holding_a_moved_message_wakes_its_worker() {
    // A message waiting in b because b would move it on does not wake b's long-polling worker;
    // once b's redrive policy allows more receives it is receivable, and the waiting worker gets
    // it then (SQS long polling answers as soon as a message is available), not at its next poll.
    let mut sim = Sim::new(1);
    cycle(&mut sim, 1, 1, "1");
    let failing = json!({"WorkerName": "wb", "QueueUrl": "b", "ProcessingTime": "1s", "FailureProbability": "1"});
    ok(&mut sim, "CreateWorker", failing);
    send(&mut sim, "a", "poison");
    receive(&mut sim, "a", 1);
    secs(&mut sim, 1);
    assert!(receive(&mut sim, "a", 1).is_empty(), "moved to b");
    assert_eq!(counts(&mut sim, "b"), (1, 0, 0), "it waits in b, visible; the worker was not woken");
    let w = ok(&mut sim, "DescribeWorker", json!({"WorkerName": "wb"}));
    assert_eq!(w["Stats"]["Received"], 0, "{w}");
    ok(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "b", "Attributes": {"RedrivePolicy": redrive("a", 5)}}));
    assert_eq!(counts(&mut sim, "b"), (0, 1, 0), "the worker received it at once");
    let w = ok(&mut sim, "DescribeWorker", json!({"WorkerName": "wb"}));
    assert_eq!(w["Stats"]["Received"], 1, "{w}");
}
