//! Small helpers shared by the engine's integration tests.
#![allow(dead_code)]

use engine::{ApiError, Sim};
use serde_json::{json, Value};

pub const ACCOUNT_ARN: &str = "arn:aws:sqs:us-east-1:000000000000:";

/// Runs an action that must succeed.
pub fn ok(sim: &mut Sim, action: &str, params: Value) -> Value {
    sim.apply(action, &params).unwrap_or_else(|e| panic!("{action} failed: {e}"))
}

/// Runs an action that must fail, and checks it changed nothing.
pub fn fails(sim: &mut Sim, action: &str, params: Value) -> ApiError {
    let before = sim.snapshot();
    let events = sim.events().len();
    let err = match sim.apply(action, &params) {
        Ok(v) => panic!("{action} should have failed but returned {v}"),
        Err(e) => e,
    };
    assert_eq!(sim.snapshot(), before, "a failed {action} must leave the state unchanged");
    assert_eq!(sim.events().len(), events, "a failed {action} must not log events");
    err
}

pub fn queue(sim: &mut Sim, name: &str, attributes: Value) {
    ok(sim, "CreateQueue", json!({"QueueName": name, "Attributes": attributes}));
}

pub fn send(sim: &mut Sim, queue: &str, body: &str) -> String {
    ok(sim, "SendMessage", json!({"QueueUrl": queue, "MessageBody": body}))["MessageId"].as_str().unwrap().to_string()
}

/// Receives up to `max` messages with all system attributes.
pub fn receive(sim: &mut Sim, queue: &str, max: u32) -> Vec<Value> {
    let r = ok(
        sim,
        "ReceiveMessage",
        json!({"QueueUrl": queue, "MaxNumberOfMessages": max, "MessageSystemAttributeNames": ["All"], "MessageAttributeNames": ["All"]}),
    );
    r["Messages"].as_array().unwrap().clone()
}

pub fn attr(sim: &mut Sim, queue: &str, name: &str) -> String {
    let r = ok(sim, "GetQueueAttributes", json!({"QueueUrl": queue, "AttributeNames": [name]}));
    r["Attributes"][name].as_str().unwrap_or_else(|| panic!("{name} missing in {r}")).to_string()
}

/// (visible, in flight, delayed) as GetQueueAttributes reports them.
pub fn counts(sim: &mut Sim, queue: &str) -> (u64, u64, u64) {
    let r = ok(sim, "GetQueueAttributes", json!({"QueueUrl": queue, "AttributeNames": ["All"]}));
    let n = |k: &str| r["Attributes"][k].as_str().unwrap().parse::<u64>().unwrap();
    (
        n("ApproximateNumberOfMessages"),
        n("ApproximateNumberOfMessagesNotVisible"),
        n("ApproximateNumberOfMessagesDelayed"),
    )
}

pub fn secs(sim: &mut Sim, s: u64) {
    sim.advance_by(s * 1000);
}

pub fn redrive(dlq: &str, max: u32) -> String {
    json!({"deadLetterTargetArn": format!("{ACCOUNT_ARN}{dlq}"), "maxReceiveCount": max}).to_string()
}

pub fn event_names(sim: &Sim) -> Vec<&'static str> {
    sim.events().iter().map(|e| e.kind.name()).collect()
}

/// The sum over the first virtual day of an SNS metric of the topic `orders`.
pub fn metric_sum(sim: &mut Sim, metric: &str) -> u64 {
    let r = ok(
        sim,
        "GetMetricStatistics",
        json!({"Namespace": "AWS/SNS", "MetricName": metric, "Dimensions": [{"Name": "TopicName", "Value": "orders"}],
            "Period": 60, "Statistics": ["Sum"], "StartTime": "0s", "EndTime": "1d"}),
    );
    r["Datapoints"].as_array().unwrap().iter().map(|d| d["Sum"].as_u64().unwrap()).sum()
}
