//! Helpers shared by the `world_*` tests (included with `#[path]`); on its own it holds no tests.
#![allow(dead_code)]

use engine::Sim;
use serde_json::{json, Value};

/// Runs an action that must succeed.
pub fn ok(sim: &mut Sim, action: &str, params: Value) -> Value {
    sim.apply(action, &params).unwrap_or_else(|e| panic!("{action} failed: {e}"))
}

/// Runs an action that must fail with `code`, and checks that it changed nothing.
pub fn fails_with(sim: &mut Sim, action: &str, params: Value, code: &str) -> String {
    let before = sim.snapshot();
    let events = sim.events().len();
    let err = match sim.apply(action, &params) {
        Ok(v) => panic!("{action} {params} should have failed but returned {v}"),
        Err(e) => e,
    };
    assert_eq!(err.code, code, "{action} {params}: {}", err.message);
    assert_eq!(sim.snapshot(), before, "a failed {action} must leave the state unchanged");
    assert_eq!(sim.events().len(), events, "a failed {action} must not log events");
    err.message
}

pub fn queue(sim: &mut Sim, name: &str, attributes: Value) {
    ok(sim, "CreateQueue", json!({"QueueName": name, "Attributes": attributes}));
}

/// A queue with a dead-letter queue `<name>-dlq` after `max` receives.
pub fn queue_with_dlq(sim: &mut Sim, name: &str, visibility: u32, max: u32) {
    let dlq = format!("{name}-dlq");
    queue(sim, &dlq, json!({"MessageRetentionPeriod": "1209600"}));
    let policy =
        json!({"deadLetterTargetArn": format!("arn:aws:sqs:us-east-1:000000000000:{dlq}"), "maxReceiveCount": max});
    queue(sim, name, json!({"VisibilityTimeout": visibility.to_string(), "RedrivePolicy": policy.to_string()}));
}

/// An order event as the producers make it.
pub fn order(id: u64, version: u64, phone: &str) -> String {
    json!({"event_id": format!("evt-{id}"), "event_type": "OrderPlaced", "order_id": id, "version": version,
           "data": {"phone": phone}})
    .to_string()
}

pub fn send(sim: &mut Sim, queue: &str, body: &str) {
    ok(sim, "SendMessage", json!({"QueueUrl": queue, "MessageBody": body}));
}

/// (visible, in flight) as GetQueueAttributes reports them.
pub fn counts(sim: &mut Sim, queue: &str) -> (u64, u64) {
    let r = ok(sim, "GetQueueAttributes", json!({"QueueUrl": queue, "AttributeNames": ["All"]}));
    let n = |k: &str| r["Attributes"][k].as_str().unwrap().parse::<u64>().unwrap();
    (n("ApproximateNumberOfMessages"), n("ApproximateNumberOfMessagesNotVisible"))
}

pub fn job(sim: &mut Sim, name: &str, ids: &[&str]) -> Value {
    ok(sim, "DescribeJob", json!({"Job": name, "EventIds": ids}))
}

pub fn worker(sim: &mut Sim, name: &str) -> Value {
    ok(sim, "DescribeWorker", json!({"WorkerName": name}))
}

/// How many events of this name are in the log.
pub fn count_events(sim: &Sim, name: &str) -> usize {
    sim.events().iter().filter(|e| e.kind.name() == name).count()
}

/// The log's events of this name, as JSON.
pub fn events_named(sim: &Sim, name: &str) -> Vec<Value> {
    sim.events().iter().filter(|e| e.kind.name() == name).map(|e| serde_json::to_value(e).unwrap()).collect()
}

pub fn secs(sim: &mut Sim, s: u64) {
    sim.advance_by(s * 1000);
}

pub fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}
