//! The simulated world at scale: 100 workers on 10 queues for one simulated day. A fan-out
//! producer publishes one order a second to a topic with ten raw-delivery queues (864,000
//! messages a day); each queue has ten competing workers (up to 5 messages a receive, 200 ms to
//! 2 s each, 1% failures, atomic idempotency) and a dead-letter queue; metrics tick every minute
//! with an alarm on each dead-letter queue. Reports simulated seconds per wall-clock second.
//!
//! `cargo bench -p fanout-engine --bench world`; `FANOUT_BENCH_HOURS=2` simulates fewer hours.
use engine::{Sim, SimTime};
use serde_json::{json, Value};
use std::time::Instant;

const QUEUES: usize = 10;
const WORKERS_PER_QUEUE: usize = 10;
const HOUR_MS: u64 = 3_600_000;

fn ok(sim: &mut Sim, action: &str, params: Value) {
    if let Err(e) = sim.apply(action, &params) {
        panic!("{action} failed: {e}");
    }
}

fn world(hours: u64, record_events: bool) -> Sim {
    let mut sim = Sim::new(2026);
    sim.set_event_recording(record_events);
    ok(&mut sim, "ConfigureSimulation", json!({"DuplicateDeliveryProbability": "0.001"}));
    ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
    for q in 0..QUEUES {
        let (name, dlq) = (format!("consumer-{q}"), format!("consumer-{q}-dlq"));
        ok(&mut sim, "CreateQueue", json!({"QueueName": dlq, "Attributes": {"MessageRetentionPeriod": "1209600"}}));
        let redrive =
            json!({"deadLetterTargetArn": format!("arn:aws:sqs:us-east-1:000000000000:{dlq}"), "maxReceiveCount": 5});
        ok(
            &mut sim,
            "CreateQueue",
            json!({"QueueName": name, "Attributes": {"VisibilityTimeout": "30", "RedrivePolicy": redrive.to_string()}}),
        );
        ok(
            &mut sim,
            "Subscribe",
            json!({"TopicArn": "orders", "Protocol": "sqs",
            "Endpoint": format!("arn:aws:sqs:us-east-1:000000000000:{name}"), "Attributes": {"RawMessageDelivery": "true"}}),
        );
        for w in 0..WORKERS_PER_QUEUE {
            ok(
                &mut sim,
                "CreateWorker",
                json!({"WorkerName": format!("{name}-w{w}"), "QueueUrl": name, "Job": name,
                "MaxNumberOfMessages": 5, "ProcessingTime": {"Min": "200ms", "Max": "2s"}, "FailureProbability": "0.01",
                "Idempotency": "Atomic"}),
            );
        }
        ok(
            &mut sim,
            "PutMetricAlarm",
            json!({"AlarmName": format!("{dlq}-not-empty"), "Namespace": "AWS/SQS",
            "MetricName": "ApproximateNumberOfMessagesVisible", "Dimensions": [{"Name": "QueueName", "Value": dlq}],
            "Statistic": "Maximum", "Period": 60, "EvaluationPeriods": 1, "Threshold": 0, "ComparisonOperator": "GreaterThanThreshold"}),
        );
    }
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "checkout", "Design": "FanOut", "TopicArn": "orders",
        "Count": hours * 3_600, "Interval": "1s"}),
    );
    sim
}

fn run(hours: u64, record_events: bool) {
    let mut sim = world(hours, record_events);
    let started = Instant::now();
    let end = SimTime(hours * HOUR_MS);
    let mut hour = 0;
    while sim.now() < end {
        hour += 1;
        sim.advance_to(SimTime(hour * HOUR_MS));
    }
    let wall = started.elapsed().as_secs_f64();
    let view = sim.snapshot_limited(0).world;
    let effects: u64 = view.jobs.iter().map(|j| j.side_effects).sum();
    let received: u64 = view.workers.iter().map(|w| w.received).sum();
    let simulated = (hours * 3_600) as f64;
    println!(
        "world: {} workers on {QUEUES} queues, {hours} h simulated in {wall:.2} s wall (event log {}): {:.0} simulated seconds per wall second; {received} messages received, {effects} side effects, {} events",
        view.workers.len(),
        if record_events { "on" } else { "off" },
        simulated / wall,
        sim.events().len()
    );
}

fn main() {
    let hours = std::env::var("FANOUT_BENCH_HOURS").ok().and_then(|h| h.parse().ok()).unwrap_or(24);
    run(hours, false);
    run(hours.min(1), true);
}
