//! Workers: competing consumers with a poll loop in virtual time, crashes, pauses, slow-downs,
//! failures, poison messages and heartbeats, all through the SQS API's own semantics.
#[path = "world_helpers.rs"]
mod helpers;
use engine::Sim;
use helpers::*;
use serde_json::json;

#[test]
fn crashed_worker_message_returns_after_visibility_timeout() {
    // SQS: a received message is only hidden for the visibility timeout (30 s default); a consumer
    // that dies before DeleteMessage leaves it hidden until then, and then it is received again.
    let mut sim = Sim::new(1);
    queue(&mut sim, "packing", json!({"VisibilityTimeout": "30"}));
    send(&mut sim, "packing", &order(4417, 1, "+919876543210"));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "a", "QueueUrl": "packing", "ProcessingTime": "10s"}));
    assert_eq!(worker(&mut sim, "a")["HeldMessages"], json!(["msg-1"]));
    secs(&mut sim, 5);
    ok(&mut sim, "CrashWorker", json!({"WorkerName": "a"}));
    assert_eq!(worker(&mut sim, "a")["State"], "Crashed");
    assert_eq!(count_events(&sim, "WorkerCrashed"), 1);
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "b", "QueueUrl": "packing", "ProcessingTime": "1s"}));
    sim.advance_to(engine::SimTime(29_999));
    assert_eq!(counts(&mut sim, "packing"), (0, 1), "still hidden just before the timeout runs out");
    assert_eq!(job(&mut sim, "packing", &[])["SideEffects"], 0);
    sim.advance_to(engine::SimTime(30_000));
    assert_eq!(worker(&mut sim, "b")["HeldMessages"], json!(["msg-1"]), "the waiting worker takes it at once");
    secs(&mut sim, 2);
    assert_eq!(counts(&mut sim, "packing"), (0, 0));
    assert_eq!(job(&mut sim, "packing", &["evt-4417"])["EffectsByEvent"]["evt-4417"], 1);
}

#[test]
fn competing_workers_each_message_is_processed_by_one_worker() {
    // SQS: a queue gives each message to one receiver; three workers on one queue share the work.
    let mut sim = Sim::new(2);
    queue(&mut sim, "packing", json!({}));
    for i in 0..30 {
        send(&mut sim, "packing", &order(5000 + i, 1, "+919876543210"));
    }
    for w in ["w1", "w2", "w3"] {
        ok(
            &mut sim,
            "CreateWorker",
            json!({"WorkerName": w, "QueueUrl": "packing", "MaxNumberOfMessages": 2,
            "ProcessingTime": {"Min": "200ms", "Max": "800ms"}}),
        );
    }
    secs(&mut sim, 60);
    let j = job(&mut sim, "packing", &[]);
    assert_eq!((j["SideEffects"].clone(), j["DuplicateSideEffects"].clone()), (json!(30), json!(0)));
    let done: Vec<u64> = ["w1", "w2", "w3"].iter().map(|w| n(&worker(&mut sim, w)["Stats"]["Succeeded"])).collect();
    assert_eq!(done.iter().sum::<u64>(), 30);
    assert!(done.iter().all(|d| *d > 0), "every worker took a share: {done:?}");
}

#[test]
fn long_polling_worker_wakes_when_a_visibility_timeout_runs_out() {
    // SQS long polling returns as soon as a message is available, up to WaitTimeSeconds (max 20 s).
    let mut sim = Sim::new(3);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "7"}));
    send(&mut sim, "q", "hello");
    ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q"}));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "WaitTimeSeconds": 20}));
    assert_eq!(worker(&mut sim, "w")["State"], "Waiting");
    sim.advance_to(engine::SimTime(7_000));
    assert_eq!(worker(&mut sim, "w")["State"], "Processing", "woken at 7 s, not at its next poll at 20 s");
}

#[test]
fn idle_workers_poll_again_after_wait_time_seconds_without_spinning() {
    // Design rule: an empty long poll waits WaitTimeSeconds (at most 20 s on SQS): an idle hour
    // costs one receive per 20 s, and a message sent by hand is noticed at the next whole second.
    let mut sim = Sim::new(4);
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q"}));
    sim.advance_by(3_600_000);
    let empty = n(&worker(&mut sim, "w")["Stats"]["EmptyReceives"]);
    assert_eq!(empty, 181, "one receive at start and one every 20 s for an hour");
    sim.advance_by(500);
    send(&mut sim, "q", "by hand");
    secs(&mut sim, 1);
    assert_eq!(n(&worker(&mut sim, "w")["Stats"]["Succeeded"]), 1, "a message sent by hand is found within a second");
}

#[test]
fn paused_worker_stops_polling_and_resumes_where_the_queue_is() {
    // Design rule: pause finishes what the worker holds, then it stops receiving until resumed.
    let mut sim = Sim::new(5);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "one");
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "2s"}));
    ok(&mut sim, "PauseWorker", json!({"WorkerName": "w"}));
    assert_eq!(worker(&mut sim, "w")["State"], "Pausing");
    send(&mut sim, "q", "two");
    secs(&mut sim, 60);
    assert_eq!(worker(&mut sim, "w")["State"], "Paused");
    assert_eq!(counts(&mut sim, "q"), (1, 0), "the second message waits");
    ok(&mut sim, "ResumeWorker", json!({"WorkerName": "w"}));
    secs(&mut sim, 3);
    assert_eq!(counts(&mut sim, "q"), (0, 0));
    assert_eq!(n(&worker(&mut sim, "w")["Stats"]["Succeeded"]), 2);
}

#[test]
fn slow_worker_past_its_visibility_timeout_lets_a_second_worker_take_the_message() {
    // SQS: if processing outlasts the visibility timeout the message becomes visible again and
    // another consumer receives it; the first one's DeleteMessage then uses a stale handle.
    let mut sim = Sim::new(6);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "5"}));
    send(&mut sim, "q", &order(4417, 1, "+919876543210"));
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "slow", "QueueUrl": "q", "ProcessingTime": "8s", "Job": "packing"}),
    );
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "fast", "QueueUrl": "q", "ProcessingTime": "4s", "Job": "packing"}),
    );
    secs(&mut sim, 10);
    let j = job(&mut sim, "packing", &["evt-4417"]);
    assert_eq!(j["EffectsByEvent"]["evt-4417"], 2, "two slips for order 4417");
    assert_eq!(count_events(&sim, "DeleteIgnored"), 1, "the slow worker's handle is stale");
}

#[test]
fn heartbeat_keeps_a_slow_message_hidden() {
    // SQS: a consumer can extend its visibility timeout with ChangeMessageVisibility while busy
    // (a heartbeat); the total stays within 12 hours of the receive.
    let mut sim = Sim::new(7);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "5"}));
    send(&mut sim, "q", &order(4417, 1, "+919876543210"));
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "slow", "QueueUrl": "q", "ProcessingTime": "8s", "Job": "packing",
        "Heartbeat": {"Interval": "3s", "VisibilityTimeout": 5}}),
    );
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "fast", "QueueUrl": "q", "ProcessingTime": "1s", "Job": "packing"}),
    );
    secs(&mut sim, 12);
    assert_eq!(job(&mut sim, "packing", &["evt-4417"])["EffectsByEvent"]["evt-4417"], 1);
    assert_eq!(count_events(&sim, "HeartbeatSent"), 2);
    assert_eq!(count_events(&sim, "DeleteIgnored"), 0);
}

#[test]
fn poison_message_reaches_the_dlq_after_max_receive_count_while_good_messages_flow() {
    // SQS: the redrive policy moves a message to the DLQ on the receive after maxReceiveCount
    // receives; only the failing message leaves, the others are processed.
    let mut sim = Sim::new(8);
    queue_with_dlq(&mut sim, "sms", 2, 5);
    send(&mut sim, "sms", &order(4417, 1, "+91987654321"));
    for i in 0..5 {
        send(&mut sim, "sms", &order(4418 + i, 1, "+919876543210"));
    }
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "sms", "Job": "sms", "Effect": "SMS sent",
        "Poison": {"Field": "data.phone", "LengthBelow": 13}}),
    );
    secs(&mut sim, 60);
    assert_eq!(counts(&mut sim, "sms-dlq"), (1, 0));
    assert_eq!(counts(&mut sim, "sms"), (0, 0));
    let j = job(&mut sim, "sms", &["evt-4417", "evt-4418"]);
    assert_eq!(j["EffectsByEvent"], json!({"evt-4417": 0, "evt-4418": 1}));
    assert_eq!(j["SideEffects"], 5);
    assert_eq!(n(&worker(&mut sim, "w")["Stats"]["Failed"]), 5, "received and failed five times");
}

#[test]
fn failure_probability_makes_some_messages_retry_after_the_timeout() {
    // Design rule: a failed message is left alone and returns after its visibility timeout.
    let mut sim = Sim::new(9);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "3"}));
    for i in 0..40 {
        send(&mut sim, "q", &order(100 + i, 1, "+919876543210"));
    }
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "Job": "j", "MaxNumberOfMessages": 10,
        "FailureProbability": "0.3"}),
    );
    secs(&mut sim, 300);
    let j = job(&mut sim, "j", &[]);
    assert_eq!(j["DistinctEvents"], 40, "everything is processed in the end");
    let failed = n(&worker(&mut sim, "w")["Stats"]["Failed"]);
    assert!((5..=40).contains(&failed), "about 30% of the tries fail: {failed}");
}

#[test]
fn update_worker_slows_it_down_from_the_next_message() {
    // Design rule: UpdateWorker changes behaviour at any moment; the message in hand keeps its time.
    let mut sim = Sim::new(10);
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "100ms", "Job": "j"}));
    ok(&mut sim, "UpdateWorker", json!({"WorkerName": "w", "ProcessingTime": "25s"}));
    send(&mut sim, "q", &order(1, 1, "x"));
    assert_eq!(worker(&mut sim, "w")["ProcessingTime"], "25000ms");
    secs(&mut sim, 20);
    assert_eq!(job(&mut sim, "j", &[])["SideEffects"], 0, "still working");
    secs(&mut sim, 6);
    assert_eq!(job(&mut sim, "j", &[])["SideEffects"], 1);
    assert_eq!(count_events(&sim, "WorkerUpdated"), 1);
}

#[test]
fn a_worker_whose_queue_is_deleted_stops_and_says_why() {
    // SQS: ReceiveMessage on a deleted queue fails with QueueDoesNotExist; the worker stops.
    let mut sim = Sim::new(11);
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q"}));
    ok(&mut sim, "DeleteQueue", json!({"QueueUrl": "q"}));
    secs(&mut sim, 21);
    let w = worker(&mut sim, "w");
    assert_eq!(w["State"], "Stopped");
    assert!(w["StopReason"].as_str().unwrap().contains("QueueDoesNotExist"));
    fails_with(&mut sim, "ResumeWorker", json!({"WorkerName": "w"}), "InvalidParameterValue");
}

#[test]
fn worker_actions_are_validated_like_the_aws_ones() {
    // Design rule: playground actions answer bad input with an AWS-style error that says what to change.
    let mut sim = Sim::new(12);
    queue(&mut sim, "q", json!({}));
    fails_with(&mut sim, "CreateWorker", json!({"WorkerName": "w"}), "MissingParameter");
    fails_with(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "nope"}), "QueueDoesNotExist");
    fails_with(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "MaxNumberOfMessages": 11}),
        "InvalidParameterValue",
    );
    fails_with(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "0ms"}),
        "InvalidParameterValue",
    );
    fails_with(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "Idempotency": "Maybe"}),
        "InvalidParameterValue",
    );
    fails_with(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "Dependency": "ghost"}),
        "ResourceNotFoundException",
    );
    fails_with(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "Poison": {"Field": "x"}}),
        "InvalidParameterValue",
    );
    fails_with(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "Colour": "red"}),
        "InvalidParameterValue",
    );
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q"}));
    fails_with(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q"}), "ResourceConflictException");
    fails_with(&mut sim, "RestartWorker", json!({"WorkerName": "w"}), "InvalidParameterValue");
    fails_with(&mut sim, "CrashWorker", json!({"WorkerName": "w", "When": "Later"}), "InvalidParameterValue");
    fails_with(&mut sim, "PauseWorker", json!({"WorkerName": "ghost"}), "ResourceNotFoundException");
    ok(&mut sim, "CrashWorker", json!({"WorkerName": "w"}));
    fails_with(&mut sim, "CrashWorker", json!({"WorkerName": "w"}), "InvalidParameterValue");
    ok(&mut sim, "RestartWorker", json!({"WorkerName": "w"}));
    ok(&mut sim, "DeleteWorker", json!({"WorkerName": "w"}));
    fails_with(&mut sim, "DescribeWorker", json!({"WorkerName": "w"}), "ResourceNotFoundException");
}

#[test]
fn a_deleted_worker_abandons_what_it_held_until_the_visibility_timeout() {
    // SQS: only DeleteMessage removes a message; one held by a consumer that goes away returns
    // when its visibility timeout runs out.
    let mut sim = Sim::new(13);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "10"}));
    send(&mut sim, "q", "held");
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "5s"}));
    ok(&mut sim, "DeleteWorker", json!({"WorkerName": "w"}));
    assert_eq!(events_named(&sim, "WorkerDeleted")[0]["held"], json!(["msg-1"]));
    sim.advance_to(engine::SimTime(9_999));
    assert_eq!(counts(&mut sim, "q"), (0, 1));
    sim.advance_to(engine::SimTime(10_000));
    assert_eq!(counts(&mut sim, "q"), (1, 0));
}

#[test]
fn the_worker_view_says_its_poison_rule_until_it_is_removed() {
    // Playground actor: the poison rule a learner's lesson removes ("the worker has no poison rule
    // any more") is part of what the worker's view shows, as the failure's reason says it.
    let mut sim = Sim::new(8);
    queue_with_dlq(&mut sim, "sms", 2, 5);
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "sms", "Job": "sms", "Poison": {"Field": "data.phone", "LengthBelow": 13}}),
    );
    let rule = |sim: &Sim| sim.snapshot().world.workers[0].fails_on.clone();
    assert_eq!(rule(&sim).as_deref(), Some("data.phone is shorter than 13 characters"));
    ok(&mut sim, "UpdateWorker", json!({"WorkerName": "w", "Poison": {}}));
    assert_eq!(rule(&sim), None);
}
