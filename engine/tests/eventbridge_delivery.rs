//! Amazon EventBridge: what happens to an event that a target cannot take (retries, dead-letter
//! queues, drops), archives and replays, and scheduled rules. Each test states the documented
//! fact it checks.
mod common;

use common::*;
use engine::{EventKind, Sim};
use serde_json::{json, Value};

const QUEUE_ARN: &str = "arn:aws:sqs:us-east-1:000000000000:";

fn setup(sim: &mut Sim, target_queue: &str, extra: Value) {
    ok(sim, "PutRule", json!({"Name": "orders", "EventPattern": "{\"source\": [\"shop\"]}"}));
    let mut t = json!({"Id": "t1", "Arn": format!("{QUEUE_ARN}{target_queue}")});
    t.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    ok(sim, "PutTargets", json!({"Rule": "orders", "Targets": [t]}));
}

fn put(sim: &mut Sim, n: u32) -> String {
    let r = ok(
        sim,
        "PutEvents",
        json!({"Entries": [{"Source": "shop", "DetailType": "OrderPlaced", "Detail": json!({"n": n}).to_string()}]}),
    );
    r["Entries"][0]["EventId"].as_str().unwrap().to_string()
}

fn attr<'a>(m: &'a Value, name: &str) -> Option<&'a str> {
    m["MessageAttributes"][name]["StringValue"].as_str()
}

fn eb_events(sim: &Sim) -> Vec<&engine::events::EbEvent> {
    sim.events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::EventBridge(x) => Some(x),
            _ => None,
        })
        .collect()
}

#[test]
fn a_deleted_target_queue_sends_the_event_straight_to_the_dlq_without_retries() {
    // "for errors that result from … a target resource that no longer exists … Rather than
    // retrying, EventBridge sends these events directly to the DLQ"; each DLQ message has
    // RULE_ARN, TARGET_ARN, ERROR_CODE, ERROR_MESSAGE and RETRY_ATTEMPTS.
    let mut sim = Sim::new(3);
    queue(&mut sim, "orders-q", json!({}));
    queue(&mut sim, "orders-dlq", json!({}));
    setup(&mut sim, "orders-q", json!({"DeadLetterConfig": {"Arn": format!("{QUEUE_ARN}orders-dlq")}}));
    ok(&mut sim, "DeleteQueue", json!({"QueueUrl": "orders-q"}));
    let id = put(&mut sim, 1);
    sim.advance_by(3_600_000);
    let m = receive(&mut sim, "orders-dlq", 10);
    assert_eq!(m.len(), 1);
    let body: Value = serde_json::from_str(m[0]["Body"].as_str().unwrap()).unwrap();
    assert_eq!(body["id"], id, "the DLQ keeps the event itself");
    assert_eq!(attr(&m[0], "RULE_ARN"), Some("arn:aws:events:us-east-1:000000000000:rule/orders"));
    assert_eq!(attr(&m[0], "TARGET_ARN"), Some("arn:aws:sqs:us-east-1:000000000000:orders-q"));
    assert_eq!(attr(&m[0], "ERROR_CODE"), Some("NO_RESOURCE"));
    assert!(attr(&m[0], "ERROR_MESSAGE").is_some_and(|s| s.contains("does not exist")));
    assert_eq!(attr(&m[0], "RETRY_ATTEMPTS"), Some("0"));
    assert_eq!(attr(&m[0], "EXHAUSTED_RETRY_CONDITION"), None, "nothing was retried");
    let names = event_names(&sim);
    assert_eq!(names.iter().filter(|n| **n == "TargetInvocationFailed").count(), 1, "one attempt in an hour");
    assert!(names.contains(&"SentToDeadLetterQueue"));
}

#[test]
fn without_a_dlq_the_undeliverable_event_is_dropped() {
    // "If an event isn't delivered after all retry attempts are exhausted, the event is dropped."
    let mut sim = Sim::new(3);
    setup(&mut sim, "never-created", json!({}));
    put(&mut sim, 1);
    assert!(eb_events(&sim)
        .iter()
        .any(|e| matches!(e, engine::events::EbEvent::EventDropped { error_code: "NO_RESOURCE", .. })));
}

/// A FIFO queue whose Send quota for this second is used up by 300 sends.
fn throttled_fifo(sim: &mut Sim, retry: Value) {
    queue(sim, "jobs.fifo", json!({"FifoQueue": "true", "ContentBasedDeduplication": "true"}));
    queue(sim, "jobs-dlq", json!({}));
    setup(
        sim,
        "jobs.fifo",
        json!({"SqsParameters": {"MessageGroupId": "g"}, "RetryPolicy": retry,
        "DeadLetterConfig": {"Arn": format!("{QUEUE_ARN}jobs-dlq")}}),
    );
    for i in 0..300 {
        ok(
            sim,
            "SendMessage",
            json!({"QueueUrl": "jobs.fifo", "MessageBody": format!("m{i}"), "MessageGroupId": "other"}),
        );
    }
}

#[test]
fn a_throttled_delivery_is_retried_with_backoff_and_then_delivered() {
    // "When an event isn't successfully delivered to a target because of retriable errors,
    // EventBridge retries sending the event … with an exponential back off and jitter."
    let mut sim = Sim::new(5);
    throttled_fifo(&mut sim, json!({}));
    put(&mut sim, 1);
    let retry_at = eb_events(&sim).iter().find_map(|e| match e {
        engine::events::EbEvent::TargetInvocationFailed { error_code: "THROTTLING", retry_at, attempt: 1, .. } => {
            *retry_at
        }
        _ => None,
    });
    let retry_at = retry_at.expect("a retry is scheduled");
    assert!((500..=1000).contains(&retry_at.ms()), "the first retry waits half to all of a second: {retry_at}");
    sim.advance_by(5_000);
    // A retry within the same virtual second meets the same quota; a later one gets through.
    let delivered = eb_events(&sim).iter().find_map(|e| match e {
        engine::events::EbEvent::DeliveredToTarget { attempt, .. } => Some(*attempt),
        _ => None,
    });
    assert!(delivered.is_some_and(|a| a >= 2), "delivered on a retry: {delivered:?}");
    assert_eq!(counts(&mut sim, "jobs-dlq").0, 0);
}

#[test]
fn the_retry_delay_is_drawn_from_the_seed() {
    let retry_of = |seed: u64| {
        let mut sim = Sim::new(seed);
        throttled_fifo(&mut sim, json!({}));
        put(&mut sim, 1);
        sim.events().iter().find_map(|e| match &e.kind {
            EventKind::EventBridge(engine::events::EbEvent::TargetInvocationFailed { retry_at, .. }) => *retry_at,
            _ => None,
        })
    };
    assert_eq!(retry_of(11), retry_of(11), "same seed, same jitter");
    let distinct: std::collections::BTreeSet<_> = (0..20).map(retry_of).collect();
    assert!(distinct.len() > 1, "the jitter varies with the seed");
}

#[test]
fn with_no_retries_left_the_event_goes_to_the_dlq_naming_the_exhausted_condition() {
    // EXHAUSTED_RETRY_CONDITION is MaximumRetryAttempts or MaximumEventAgeInSeconds.
    let mut sim = Sim::new(5);
    throttled_fifo(&mut sim, json!({"MaximumRetryAttempts": 0}));
    put(&mut sim, 1);
    let m = receive(&mut sim, "jobs-dlq", 10);
    assert_eq!(m.len(), 1);
    assert_eq!(attr(&m[0], "ERROR_CODE"), Some("THROTTLING"));
    assert_eq!(attr(&m[0], "EXHAUSTED_RETRY_CONDITION"), Some("MaximumRetryAttempts"));
    assert_eq!(attr(&m[0], "RETRY_ATTEMPTS"), Some("0"));
}

#[test]
fn a_fifo_target_without_content_based_deduplication_fails_without_retry() {
    // SqsParameters: "If you specify an SQS FIFO queue as a target, the queue must have
    // content-based deduplication enabled."
    let mut sim = Sim::new(5);
    queue(&mut sim, "plain.fifo", json!({"FifoQueue": "true"}));
    setup(&mut sim, "plain.fifo", json!({"SqsParameters": {"MessageGroupId": "g"}}));
    put(&mut sim, 1);
    assert_eq!(counts(&mut sim, "plain.fifo").0, 0);
    assert!(event_names(&sim).contains(&"EventDropped"));
}

fn replay_world(sim: &mut Sim) {
    queue(sim, "orders-q", json!({}));
    setup(sim, "orders-q", json!({}));
    let bus = "arn:aws:events:us-east-1:000000000000:event-bus/default";
    ok(
        sim,
        "CreateArchive",
        json!({"ArchiveName": "all-orders", "EventSourceArn": bus, "EventPattern": "{\"source\": [\"shop\"]}"}),
    );
}

#[test]
fn an_archive_keeps_the_matching_events_of_its_bus() {
    let mut sim = Sim::new(1);
    replay_world(&mut sim);
    put(&mut sim, 1);
    put(&mut sim, 2);
    ok(&mut sim, "PutEvents", json!({"Entries": [{"Source": "other", "DetailType": "x", "Detail": "{}"}]}));
    let d = ok(&mut sim, "DescribeArchive", json!({"ArchiveName": "all-orders"}));
    assert_eq!(d["EventCount"], 2, "the archive's pattern keeps only shop events");
    assert_eq!(d["State"], "ENABLED");
    assert_eq!(
        fails(
            &mut sim,
            "CreateArchive",
            json!({"ArchiveName": "all-orders",
        "EventSourceArn": "arn:aws:events:us-east-1:000000000000:event-bus/default"})
        )
        .code,
        "ResourceAlreadyExistsException"
    );
    assert_eq!(
        fails(
            &mut sim,
            "CreateArchive",
            json!({"ArchiveName": "x",
        "EventSourceArn": "arn:aws:events:us-east-1:000000000000:event-bus/nope"})
        )
        .code,
        "ResourceNotFoundException"
    );
    assert_eq!(
        fails(
            &mut sim,
            "CreateArchive",
            json!({"ArchiveName": "x", "EventPattern": "{}",
        "EventSourceArn": "arn:aws:events:us-east-1:000000000000:event-bus/default"})
        )
        .code,
        "InvalidEventPatternException"
    );
}

#[test]
fn a_replay_redelivers_the_archived_events_of_its_window_marked_with_replay_name() {
    // A replay puts the events of a time window back on the bus; replayed events carry replay-name.
    let mut sim = Sim::new(1);
    replay_world(&mut sim);
    ok(&mut sim, "DeleteQueue", json!({"QueueUrl": "orders-q"}));
    put(&mut sim, 1);
    put(&mut sim, 2);
    sim.advance_by(61_000);
    queue(&mut sim, "orders-q", json!({}));
    let r = ok(
        &mut sim,
        "StartReplay",
        json!({"ReplayName": "fix", "EventSourceArn": "arn:aws:events:us-east-1:000000000000:archive/all-orders",
        "EventStartTime": "2026-01-01T00:00:00Z", "EventEndTime": "2026-01-01T00:01:00Z",
        "Destination": {"Arn": "arn:aws:events:us-east-1:000000000000:event-bus/default"}}),
    );
    assert_eq!(r["State"], "STARTING");
    sim.advance_by(120_000);
    let m = receive(&mut sim, "orders-q", 10);
    assert_eq!(m.len(), 2);
    let body: Value = serde_json::from_str(m[0]["Body"].as_str().unwrap()).unwrap();
    assert_eq!(body["replay-name"], "fix");
    let d = ok(&mut sim, "DescribeReplay", json!({"ReplayName": "fix"}));
    assert_eq!(d["State"], "COMPLETED");
    assert!(d.get("ReplayEndTime").is_some());
    assert_eq!(fails(&mut sim, "CancelReplay", json!({"ReplayName": "fix"})).code, "IllegalStatusException");
}

#[test]
fn a_rule_can_leave_replayed_events_out() {
    // A pattern on replay-name with exists false matches only original events.
    let mut sim = Sim::new(1);
    queue(&mut sim, "orders-q", json!({}));
    ok(
        &mut sim,
        "PutRule",
        json!({"Name": "live-only", "EventPattern": "{\"source\": [\"shop\"], \"replay-name\": [{\"exists\": false}]}"}),
    );
    ok(
        &mut sim,
        "PutTargets",
        json!({"Rule": "live-only", "Targets": [{"Id": "t", "Arn": format!("{QUEUE_ARN}orders-q")}]}),
    );
    ok(
        &mut sim,
        "CreateArchive",
        json!({"ArchiveName": "a", "EventSourceArn": "arn:aws:events:us-east-1:000000000000:event-bus/default"}),
    );
    put(&mut sim, 1);
    ok(
        &mut sim,
        "StartReplay",
        json!({"ReplayName": "again", "EventSourceArn": "arn:aws:events:us-east-1:000000000000:archive/a",
        "EventStartTime": 1_767_225_600, "EventEndTime": 1_767_225_660,
        "Destination": {"Arn": "arn:aws:events:us-east-1:000000000000:event-bus/default"}}),
    );
    sim.advance_by(60_000);
    assert_eq!(counts(&mut sim, "orders-q").0, 1, "only the original");
    assert!(event_names(&sim).contains(&"RuleNotMatched"));
}

#[test]
fn invalid_replays_are_refused_and_change_nothing() {
    let mut sim = Sim::new(1);
    replay_world(&mut sim);
    ok(&mut sim, "CreateEventBus", json!({"Name": "other"}));
    let replay = |start: Value, end: Value, bus: &str| {
        json!({"ReplayName": "r", "EventSourceArn": "arn:aws:events:us-east-1:000000000000:archive/all-orders",
        "EventStartTime": start, "EventEndTime": end, "Destination": {"Arn": format!("arn:aws:events:us-east-1:000000000000:event-bus/{bus}")}})
    };
    assert_eq!(
        fails(&mut sim, "StartReplay", replay(json!(1_767_225_660), json!(1_767_225_600), "default")).code,
        "ValidationException"
    );
    // "you can replay events only to the same event bus that emitted the events".
    assert_eq!(
        fails(&mut sim, "StartReplay", replay(json!(1_767_225_600), json!(1_767_225_660), "other")).code,
        "ValidationException"
    );
    let mut missing = replay(json!(1_767_225_600), json!(1_767_225_660), "default");
    missing["EventSourceArn"] = json!("arn:aws:events:us-east-1:000000000000:archive/ghost");
    assert_eq!(fails(&mut sim, "StartReplay", missing).code, "ResourceNotFoundException");
    assert_eq!(fails(&mut sim, "DescribeReplay", json!({"ReplayName": "ghost"})).code, "ResourceNotFoundException");
    // Regression: a bad Description once failed after the replay's first step was scheduled.
    let mut bad = replay(json!(1_767_225_600), json!(1_767_225_660), "default");
    bad["Description"] = json!(5);
    assert_eq!(fails(&mut sim, "StartReplay", bad).code, "ValidationException");
}

#[test]
fn a_rate_rule_sends_a_scheduled_event_every_period_from_its_creation() {
    // "A rate expression starts when you create the scheduled event rule"; the scheduled event
    // has source aws.events, detail-type "Scheduled Event" and the rule ARN in resources.
    let mut sim = Sim::new(1);
    queue(&mut sim, "ticks", json!({}));
    sim.advance_by(10_000);
    ok(&mut sim, "PutRule", json!({"Name": "tick", "ScheduleExpression": "rate(1 minute)"}));
    ok(&mut sim, "PutTargets", json!({"Rule": "tick", "Targets": [{"Id": "t", "Arn": format!("{QUEUE_ARN}ticks")}]}));
    sim.advance_by(59_000);
    assert_eq!(counts(&mut sim, "ticks").0, 0);
    sim.advance_by(1_000);
    assert_eq!(counts(&mut sim, "ticks").0, 1, "one minute after creation");
    sim.advance_by(120_000);
    let m = receive(&mut sim, "ticks", 10);
    assert_eq!(m.len(), 3);
    let e: Value = serde_json::from_str(m[0]["Body"].as_str().unwrap()).unwrap();
    assert_eq!((e["source"].as_str(), e["detail-type"].as_str()), (Some("aws.events"), Some("Scheduled Event")));
    assert_eq!(e["resources"], json!(["arn:aws:events:us-east-1:000000000000:rule/tick"]));
    assert_eq!(e["time"], "2026-01-01T00:01:10Z");
    ok(&mut sim, "DisableRule", json!({"Name": "tick"}));
    let runs = |sim: &Sim| event_names(sim).iter().filter(|n| **n == "ScheduledEventSent").count();
    let before = runs(&sim);
    sim.advance_by(600_000);
    assert_eq!(runs(&sim), before, "a disabled rule does not run");
}

#[test]
fn a_cron_rule_runs_at_the_minutes_it_names() {
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "PutRule", json!({"Name": "quarter", "ScheduleExpression": "cron(0/15 * * * ? *)"}));
    ok(&mut sim, "PutTargets", json!({"Rule": "quarter", "Targets": [{"Id": "t", "Arn": format!("{QUEUE_ARN}q")}]}));
    sim.advance_by(60 * 60_000);
    assert_eq!(counts(&mut sim, "q").0, 4, "at :15, :30, :45 and :00");
}

#[test]
fn the_same_seed_tells_the_same_eventbridge_story() {
    let run = || {
        let mut sim = Sim::new(9);
        throttled_fifo(&mut sim, json!({"MaximumRetryAttempts": 3}));
        for n in 0..5 {
            put(&mut sim, n);
        }
        sim.advance_by(60_000);
        engine::event_log_jsonl(sim.events())
    };
    assert_eq!(run(), run());
}

#[test]
fn a_cron_schedule_stops_after_the_last_year_it_can_name() {
    // Cron years run from 1970 to 2199: a yearly rule runs on each 1 January up to 2199, then
    // never again, so time can run on to its end.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "PutRule", json!({"Name": "c", "ScheduleExpression": "cron(0 0 1 1 ? *)"}));
    ok(&mut sim, "PutTargets", json!({"Rule": "c", "Targets": [{"Id": "t", "Arn": format!("{QUEUE_ARN}q")}]}));
    sim.advance_to(engine::SimTime(u64::MAX));
    assert_eq!(event_names(&sim).iter().filter(|n| **n == "ScheduledEventSent").count(), 2199 - 2027 + 1);
}
