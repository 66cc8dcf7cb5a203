//! Side effects counted per event id, and the idempotency modes that keep a duplicate from
//! printing a second slip: none, check-then-act, atomic, latest version wins.
#[path = "world_helpers.rs"]
mod helpers;
use engine::Sim;
use helpers::*;
use serde_json::json;

fn packing(sim: &mut Sim, queue_name: &str, mode: &str) {
    queue(sim, queue_name, json!({"VisibilityTimeout": "10"}));
    ok(
        sim,
        "CreateWorker",
        json!({"WorkerName": queue_name, "QueueUrl": queue_name, "Job": queue_name,
        "Effect": "slip printed", "Idempotency": mode, "ProcessingTime": "500ms"}),
    );
}

#[test]
fn duplicate_prints_two_slips_without_idempotency_and_one_with_the_atomic_mode() {
    // SQS standard queues deliver at least once, so a consumer sees duplicates; recording the event
    // id and the slip in one transaction (atomic) skips the second copy.
    let mut sim = Sim::new(1);
    ok(&mut sim, "ConfigureSimulation", json!({"DuplicateDeliveryProbability": "1"}));
    packing(&mut sim, "none", "None");
    packing(&mut sim, "atomic", "Atomic");
    for q in ["none", "atomic"] {
        send(&mut sim, q, &order(4417, 1, "+919876543210"));
    }
    secs(&mut sim, 10);
    assert_eq!(job(&mut sim, "none", &["evt-4417"])["EffectsByEvent"]["evt-4417"], 2, "two slips for order 4417");
    let atomic = job(&mut sim, "atomic", &["evt-4417"]);
    assert_eq!(atomic["EffectsByEvent"]["evt-4417"], 1);
    assert_eq!(atomic["Skipped"], 1);
    assert_eq!(count_events(&sim, "SideEffectSkipped"), 1);
    let dup = events_named(&sim, "SideEffectPerformed").into_iter().find(|e| e["times"] == 2).unwrap();
    assert_eq!((dup["job"].as_str(), dup["event_id"].as_str()), (Some("none"), Some("evt-4417")));
}

#[test]
fn check_then_act_prints_twice_when_the_worker_crashes_between_effect_and_commit() {
    // Seeds: "have I seen this event_id?", print, then record the id: a crash right after printing
    // leaves the id unrecorded, so the redelivered message prints a second slip.
    let mut sim = Sim::new(2);
    packing(&mut sim, "two-step", "CheckThenAct");
    ok(&mut sim, "CrashWorker", json!({"WorkerName": "two-step", "When": "AfterSideEffect"}));
    send(&mut sim, "two-step", &order(4417, 1, "+919876543210"));
    secs(&mut sim, 2);
    assert_eq!(worker(&mut sim, "two-step")["State"], "Crashed");
    let crash = events_named(&sim, "WorkerCrashed").remove(0);
    assert_eq!(crash["point"], "after its side effect, before recording the event id");
    ok(&mut sim, "RestartWorker", json!({"WorkerName": "two-step"}));
    secs(&mut sim, 12);
    assert_eq!(job(&mut sim, "two-step", &["evt-4417"])["EffectsByEvent"]["evt-4417"], 2);
    assert_eq!(counts(&mut sim, "two-step"), (0, 0));
}

#[test]
fn atomic_mode_prints_once_whatever_the_crash_point() {
    // Seeds: the check and the work saved together in one transaction; the redelivery after the
    // crash finds the id committed and is skipped (and deleted).
    let mut sim = Sim::new(3);
    packing(&mut sim, "atomic", "Atomic");
    ok(&mut sim, "CrashWorker", json!({"WorkerName": "atomic", "When": "AfterSideEffect"}));
    send(&mut sim, "atomic", &order(4417, 1, "+919876543210"));
    secs(&mut sim, 2);
    ok(&mut sim, "RestartWorker", json!({"WorkerName": "atomic"}));
    secs(&mut sim, 12);
    let j = job(&mut sim, "atomic", &["evt-4417"]);
    assert_eq!((j["EffectsByEvent"]["evt-4417"].clone(), j["Skipped"].clone()), (json!(1), json!(1)));
    assert_eq!(counts(&mut sim, "atomic"), (0, 0), "the skipped duplicate is deleted");
}

#[test]
fn check_then_act_lets_two_workers_race_on_concurrent_duplicates() {
    // Seeds: every worker must share one processed table, and check-and-record must be one step;
    // two copies received at once by two workers both pass the check before either records.
    for (mode, slips) in [("CheckThenAct", 2), ("Atomic", 1)] {
        let mut sim = Sim::new(4);
        ok(&mut sim, "ConfigureSimulation", json!({"DuplicateDeliveryProbability": "1"}));
        queue(&mut sim, "q", json!({}));
        for w in ["a", "b"] {
            ok(
                &mut sim,
                "CreateWorker",
                json!({"WorkerName": w, "QueueUrl": "q", "Job": "packing",
                "Idempotency": mode, "ProcessingTime": "1s"}),
            );
        }
        send(&mut sim, "q", &order(4417, 1, "+919876543210"));
        secs(&mut sim, 5);
        assert_eq!(job(&mut sim, "packing", &["evt-4417"])["EffectsByEvent"]["evt-4417"], slips, "{mode}");
    }
}

#[test]
fn latest_version_wins_ignores_an_older_event_that_arrives_late() {
    // Seeds: store the latest version seen per order and ignore any event older than it; standard
    // queues may deliver out of order.
    let mut sim = Sim::new(5);
    queue(&mut sim, "q", json!({}));
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "Job": "orders",
        "Idempotency": "LatestVersionWins", "EntityField": "order_id", "VersionField": "version"}),
    );
    let cancelled = json!({"event_id": "evt-9001", "event_type": "OrderCancelled", "order_id": 4417, "version": 2});
    let placed = json!({"event_id": "evt-9000", "event_type": "OrderPlaced", "order_id": 4417, "version": 1});
    send(&mut sim, "q", &cancelled.to_string());
    send(&mut sim, "q", &placed.to_string());
    send(&mut sim, "q", &cancelled.to_string());
    secs(&mut sim, 5);
    let j = job(&mut sim, "orders", &["evt-9000", "evt-9001"]);
    assert_eq!(j["EffectsByEvent"], json!({"evt-9000": 0, "evt-9001": 1}), "no slip printed for a cancelled order");
    assert_eq!(j["Skipped"], 2);
    let reasons: Vec<String> =
        events_named(&sim, "SideEffectSkipped").iter().map(|e| e["reason"].as_str().unwrap().to_string()).collect();
    assert!(reasons.iter().all(|r| r.starts_with("stale: version")), "{reasons:?}");
}

#[test]
fn an_older_version_applied_after_a_newer_one_is_logged_and_counted_unless_the_consumer_keeps_the_latest() {
    // SQS: a standard queue may deliver messages out of order, so a consumer that applies
    // whatever comes applies version 1 after version 2; keeping the latest version per entity
    // (the seeds' fix) skips it instead.
    for (mode, applied_late) in [("None", 1), ("Atomic", 1), ("LatestVersionWins", 0)] {
        let mut sim = Sim::new(5);
        queue(&mut sim, "q", json!({}));
        ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "Job": "status", "Idempotency": mode}));
        let shipped = json!({"event_id": "evt-4417-3", "event_type": "OrderShipped", "order_id": 4417, "version": 3});
        let paid = json!({"event_id": "evt-4417-2", "event_type": "OrderPaid", "order_id": 4417, "version": 2});
        send(&mut sim, "q", &shipped.to_string());
        secs(&mut sim, 2);
        send(&mut sim, "q", &paid.to_string());
        secs(&mut sim, 2);
        let j = job(&mut sim, "status", &[]);
        assert_eq!(j["OutOfOrder"], applied_late, "{mode}");
        let late = events_named(&sim, "StaleVersionApplied");
        assert_eq!(late.len(), applied_late as usize, "{mode}");
        if let Some(e) = late.first() {
            assert_eq!(
                (e["event_id"].as_str(), e["version"].as_u64(), e["newer"].as_u64()),
                (Some("evt-4417-2"), Some(2), Some(3))
            );
        }
    }
}

#[test]
fn end_to_end_latency_runs_from_publish_to_the_side_effect() {
    // Seeds: the store records the time from OrderPlaced to the SMS being sent for every order.
    let mut sim = Sim::new(6);
    ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
    queue(&mut sim, "sms", json!({}));
    ok(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "sqs",
        "Endpoint": "arn:aws:sqs:us-east-1:000000000000:sms", "Attributes": {"RawMessageDelivery": "true"}}),
    );
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "sms", "Job": "sms", "ProcessingTime": "1500ms"}),
    );
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "checkout", "Design": "FanOut", "TopicArn": "orders",
        "Count": 3, "Interval": "10s"}),
    );
    secs(&mut sim, 60);
    let e2e = &job(&mut sim, "sms", &[])["EndToEndLatency"];
    assert_eq!(
        (e2e["Count"].clone(), e2e["MeanMs"].clone(), e2e["MaxMs"].clone()),
        (json!(3), json!(1500), json!(1500))
    );
}

#[test]
fn the_job_view_names_the_events_done_more_than_once() {
    // The view's side of the duplicates: which events a job did twice or more, and how often,
    // as DescribeJob's EffectsByEvent counts them (the first few, in event order).
    let mut sim = Sim::new(4);
    ok(&mut sim, "ConfigureSimulation", json!({"DuplicateDeliveryProbability": "1"}));
    queue(&mut sim, "q", json!({}));
    for w in ["a", "b"] {
        ok(
            &mut sim,
            "CreateWorker",
            json!({"WorkerName": w, "QueueUrl": "q", "Job": "packing", "ProcessingTime": "1s"}),
        );
    }
    for id in 4417..4422 {
        send(&mut sim, "q", &order(id, 1, "+919876543210"));
    }
    secs(&mut sim, 10);
    let by_event = job(&mut sim, "packing", &["evt-4417", "evt-4418"])["EffectsByEvent"].clone();
    let view = sim.snapshot().world.jobs;
    let packing = view.iter().find(|j| j.job == "packing").expect("the packing job");
    assert!(packing.duplicates > 0, "every message is delivered twice");
    assert_eq!(
        packing.repeated.len(),
        engine::world::REPEATED_LISTED,
        "four listed, of five repeated: {:?}",
        packing.repeated
    );
    assert_eq!(packing.repeated[0].0, "evt-4417");
    assert_eq!(json!(packing.repeated[0].1), by_event["evt-4417"]);
    assert_eq!(json!(packing.repeated[1].1), by_event["evt-4418"]);

    let mut calm = Sim::new(4);
    queue(&mut calm, "q", json!({}));
    ok(&mut calm, "CreateWorker", json!({"WorkerName": "a", "QueueUrl": "q", "Job": "packing"}));
    send(&mut calm, "q", &order(4417, 1, "+919876543210"));
    secs(&mut calm, 5);
    assert_eq!(calm.snapshot().world.jobs[0].repeated, Vec::<(String, u32)>::new(), "no duplicate, no list");
}
