//! Same seed, same story; no panic and no change on any bad input; time travel works with actors.
#[path = "world_helpers.rs"]
mod helpers;
use engine::history::History;
use engine::{event_log_jsonl, Sim, SimTime};
use helpers::*;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Every kind of actor at once, with duplicates, reordering, a crash and a bad afternoon.
fn busy_story(seed: u64) -> Sim {
    let mut sim = Sim::new(seed);
    ok(&mut sim, "ConfigureSimulation", json!({"DuplicateDeliveryProbability": "0.1", "ReorderProbability": "0.2"}));
    ok(&mut sim, "ConfigureMetrics", json!({"Resolution": "10s"}));
    ok(
        &mut sim,
        "CreateDependency",
        json!({"DependencyName": "email", "Latency": {"Min": "100ms", "Max": "900ms"},
        "ErrorRate": "0.05", "Capacity": 4, "Schedule": [{"Start": "1m", "Duration": "2m", "Down": true}]}),
    );
    ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
    for q in ["email", "packing"] {
        queue_with_dlq(&mut sim, q, 20, 4);
        ok(
            &mut sim,
            "Subscribe",
            json!({"TopicArn": "orders", "Protocol": "sqs",
            "Endpoint": format!("arn:aws:sqs:us-east-1:000000000000:{q}")}),
        );
    }
    for w in 0..3 {
        ok(
            &mut sim,
            "CreateWorker",
            json!({"WorkerName": format!("email-{w}"), "QueueUrl": "email", "Job": "email",
            "Dependency": "email", "Retry": {"Strategy": "ExponentialJitter", "MaxAttempts": 4, "Base": "200ms", "Cap": "5s"},
            "ProcessingTime": {"Min": "50ms", "Max": "500ms"}, "Idempotency": "CheckThenAct", "MaxNumberOfMessages": 3}),
        );
    }
    ok(
        &mut sim,
        "CreateFunction",
        json!({"FunctionName": "packer", "Behavior": {"Job": "packing", "FailureProbability": "0.1",
        "Idempotency": "Atomic", "Poison": {"Field": "data.phone", "LengthBelow": 13}}}),
    );
    ok(
        &mut sim,
        "CreateEventSourceMapping",
        json!({"EventSourceArn": "arn:aws:sqs:us-east-1:000000000000:packing",
        "FunctionName": "packer", "BatchSize": 5, "FunctionResponseTypes": ["ReportBatchItemFailures"]}),
    );
    ok(
        &mut sim,
        "PutMetricAlarm",
        json!({"AlarmName": "dlq", "Namespace": "AWS/SQS", "MetricName": "ApproximateNumberOfMessagesVisible",
        "Dimensions": [{"Name": "QueueName", "Value": "packing-dlq"}], "Statistic": "Maximum", "Period": 60,
        "EvaluationPeriods": 1, "Threshold": 0, "ComparisonOperator": "GreaterThanThreshold"}),
    );
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "checkout", "Design": "FanOut", "TopicArn": "orders",
        "Count": 200, "Interval": "700ms", "PoisonEvery": 17, "DuplicateEvery": 11}),
    );
    sim.advance_to(SimTime(45_000));
    ok(&mut sim, "CrashWorker", json!({"WorkerName": "email-1", "When": "AfterSideEffect"}));
    sim.advance_to(SimTime(200_000));
    ok(&mut sim, "RestartWorker", json!({"WorkerName": "email-1"}));
    sim.advance_to(SimTime(900_000));
    sim
}

#[test]
fn same_seed_same_story_with_every_actor_running() {
    // Design rule: one seed gives one event log; another seed gives another.
    let a = busy_story(99);
    let b = busy_story(99);
    assert!(a.events().len() > 2_000, "a busy story: {} events", a.events().len());
    assert_eq!(event_log_jsonl(a.events()), event_log_jsonl(b.events()));
    assert_eq!(a.snapshot(), b.snapshot());
    assert_ne!(event_log_jsonl(a.events()), event_log_jsonl(busy_story(100).events()));
}

#[test]
fn time_travel_rebuilds_the_actors_exactly() {
    // Design rule: a moment of a story is rebuilt from a checkpoint and the commands after it.
    let mut h = History::new(5);
    let cmds = [
        ("CreateQueue", json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "5"}})),
        (
            "CreateWorker",
            json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": {"Min": "1s", "Max": "9s"}, "FailureProbability": "0.3"}),
        ),
        ("CreateProducer", json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q", "Count": 100})),
    ];
    for (a, p) in &cmds {
        h.apply(a, p).unwrap();
    }
    h.advance_to(SimTime(120_000));
    let later = h.sim().snapshot();
    let log = event_log_jsonl(h.sim().events());
    h.seek(SimTime(30_000));
    assert!(h.sim().events().len() < later.events);
    h.seek(SimTime(120_000));
    assert_eq!(h.sim().snapshot(), later);
    assert_eq!(event_log_jsonl(h.sim().events()), log);
}

const KEYS: &[&str] = &[
    "WorkerName",
    "QueueUrl",
    "MaxNumberOfMessages",
    "WaitTimeSeconds",
    "VisibilityTimeout",
    "Heartbeat",
    "Interval",
    "ProcessingTime",
    "FailureProbability",
    "Poison",
    "Field",
    "LengthBelow",
    "Missing",
    "Equals",
    "BodyContains",
    "Job",
    "Effect",
    "Dependency",
    "Retry",
    "Strategy",
    "MaxAttempts",
    "Base",
    "Cap",
    "Timeout",
    "Jobs",
    "Idempotency",
    "When",
    "DependencyName",
    "Latency",
    "ErrorRate",
    "Down",
    "Capacity",
    "Schedule",
    "Start",
    "End",
    "Duration",
    "Min",
    "Max",
    "FunctionName",
    "Behavior",
    "EventSourceArn",
    "BatchSize",
    "MaximumBatchingWindowInSeconds",
    "ScalingConfig",
    "MaximumConcurrency",
    "FunctionResponseTypes",
    "Enabled",
    "UUID",
    "ProducerName",
    "Design",
    "TopicArn",
    "Count",
    "RequestTimeout",
    "PoisonEvery",
    "DuplicateEvery",
    "Resolution",
    "AlarmName",
    "Namespace",
    "MetricName",
    "Dimensions",
    "Name",
    "Value",
    "Statistic",
    "Statistics",
    "Period",
    "EvaluationPeriods",
    "Threshold",
    "ComparisonOperator",
    "AlarmActions",
    "AlarmNames",
    "StartTime",
    "EndTime",
    "EventIds",
    "EntityField",
];

const STRINGS: &[&str] = &[
    "q",
    "w",
    "w2",
    "f",
    "d",
    "p",
    "orders",
    "j",
    "arn:aws:sqs:us-east-1:000000000000:q",
    "arn:aws:sns:us-east-1:000000000000:orders",
    "1s",
    "0ms",
    "1ms",
    "500ms",
    "25s",
    "400d",
    "0.1",
    "1",
    "2",
    "-1",
    "Atomic",
    "CheckThenAct",
    "None",
    "LatestVersionWins",
    "Now",
    "AfterSideEffect",
    "Chain",
    "FanOut",
    "SingleQueue",
    "Exponential",
    "ExponentialJitter",
    "Fixed",
    "ReportBatchItemFailures",
    "Sum",
    "Maximum",
    "GreaterThanThreshold",
    "AWS/SQS",
    "Playground/Dependency",
    "ApproximateNumberOfMessagesVisible",
    "Calls",
    "QueueName",
    "DependencyName",
    "00000000-0000-4000-8000-000000000001",
    "",
    "data.phone",
    "evt-1",
];

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..2_000).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        prop::sample::select(STRINGS).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<_, _>>())),
        ]
    })
}

/// Each action's parameters from the engine's own table, those this test knows a likely value
/// for (so that many calls get past the first check).
fn keys_of(action: &str) -> Vec<&'static str> {
    let entry = engine::actions::find(action).expect("actions come from the table");
    entry.params.iter().copied().filter(|k| name_pair(k).is_some() || likely(k).is_some()).collect()
}

/// The playground's own actions and Lambda's, as the table lists them.
fn world_actions() -> Vec<&'static str> {
    use engine::error::Service;
    engine::actions::all().filter(|a| matches!(a.service, Service::Sim | Service::Lambda)).map(|a| a.name).collect()
}

fn name_pair(key: &str) -> Option<(&'static str, &'static str)> {
    match key {
        "WorkerName" => Some(("w", "w2")),
        "DependencyName" | "Dependency" => Some(("d", "d2")),
        "FunctionName" => Some(("f", "f2")),
        "ProducerName" => Some(("p", "p2")),
        "AlarmName" => Some(("a", "b")),
        _ => None,
    }
}

/// A likely value for a parameter name, or anything at all.
fn value_for(key: &'static str) -> BoxedStrategy<Value> {
    if let Some((a, b)) = name_pair(key) {
        return prop_oneof![8 => prop_oneof![Just(json!(a)), Just(json!(b))], 1 => value()].boxed();
    }
    match likely(key) {
        Some(v) => prop_oneof![8 => Just(v), 1 => value()].boxed(),
        None => value().boxed(),
    }
}

fn likely(key: &str) -> Option<Value> {
    match key {
        "QueueUrl" | "Job" => Some(json!("q")),
        "Schedule" => Some(json!([{"Start": "10s", "Duration": "1m", "Down": true}])),
        "Heartbeat" => Some(json!({"Interval": "2s", "VisibilityTimeout": 10})),
        "Retry" => Some(json!({"Strategy": "ExponentialJitter", "MaxAttempts": 3, "Timeout": "1s"})),
        "Poison" => Some(json!({"BodyContains": "evt-4403"})),
        "Behavior" => Some(json!({"ProcessingTime": "200ms", "FailureProbability": "0.2", "Dependency": "d"})),
        "Jobs" => Some(json!([{"Job": "a", "Dependency": "d"}, {"Job": "b"}])),
        "ScalingConfig" => Some(json!({"MaximumConcurrency": 2})),
        "FunctionResponseTypes" => Some(json!(["ReportBatchItemFailures"])),
        "ErrorRate" | "FailureProbability" => Some(json!("0.3")),
        "Capacity" | "BatchSize" | "Count" | "MaxNumberOfMessages" => Some(json!(3)),
        "Timeout" => Some(json!(2)),
        "Idempotency" => Some(json!("Atomic")),
        "When" => Some(json!("AfterSideEffect")),
        "Resolution" => Some(json!("10s")),
        "WaitTimeSeconds" => Some(json!(5)),
        "Effect" => Some(json!("slip printed")),
        "MaximumBatchingWindowInSeconds" => Some(json!(1)),
        "Enabled" | "Down" => Some(json!(true)),
        "AlarmActions" => Some(json!(["arn:aws:sns:us-east-1:000000000000:orders"])),
        "AlarmNames" => Some(json!(["a"])),
        "StartTime" => Some(json!("0s")),
        "EndTime" => Some(json!("5m")),
        "EventIds" => Some(json!(["evt-4401"])),
        "PoisonEvery" | "DuplicateEvery" => Some(json!(2)),
        "TopicArn" => Some(json!("orders")),
        "EventSourceArn" => Some(json!("arn:aws:sqs:us-east-1:000000000000:q")),
        "UUID" => Some(json!("00000000-0000-4000-8000-000000000001")),
        "Namespace" => Some(json!("AWS/SQS")),
        "MetricName" => Some(json!("ApproximateNumberOfMessagesVisible")),
        "Dimensions" => Some(json!([{"Name": "QueueName", "Value": "q"}])),
        "Statistic" => Some(json!("Maximum")),
        "Statistics" => Some(json!(["Sum", "Average"])),
        "Period" => Some(json!(60)),
        "EvaluationPeriods" => Some(json!(1)),
        "Threshold" => Some(json!(0)),
        "ComparisonOperator" => Some(json!("GreaterThanThreshold")),
        "Design" => Some(json!("SingleQueue")),
        "ProcessingTime" | "Latency" | "Interval" => Some(json!("300ms")),
        _ => None,
    }
}

fn step() -> impl Strategy<Value = (Option<&'static str>, Value, u64)> {
    let call = prop::sample::select(world_actions()).prop_flat_map(|action| {
        let keys = keys_of(action);
        let entries: Vec<BoxedStrategy<Option<(&'static str, Value)>>> = keys
            .into_iter()
            .map(|k| prop::option::weighted(0.8, value_for(k).prop_map(move |v| (k, v))).boxed())
            .collect();
        (Just(action), entries).prop_map(|(action, kv)| {
            let map: Map<String, Value> = kv.into_iter().flatten().map(|(k, v)| (k.to_string(), v)).collect();
            (action, Value::Object(map))
        })
    });
    (prop::option::weighted(0.85, call), 0u64..90_000).prop_map(|(call, advance)| match call {
        Some((action, params)) => (Some(action), params, advance),
        None => (None, Value::Null, advance),
    })
}

/// The number of cases, or `WORLD_PROPTEST_CASES` for a deeper sweep.
fn cases(default: u32) -> u32 {
    std::env::var("WORLD_PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(128), ..ProptestConfig::default() })]

    #[test]
    fn no_input_panics_and_a_refused_action_changes_nothing(steps in prop::collection::vec(step(), 1..40)) {
        // Design rule: every parameter is validated with an AWS-style error; a failed action leaves
        // the simulation exactly as it was and logs nothing.
        let mut sim = Sim::new(3);
        queue(&mut sim, "q", json!({}));
        ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
        ok(&mut sim, "CreateDependency", json!({"DependencyName": "d"}));
        ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "Dependency": "d"}));
        for (action, params, advance) in steps {
            match action {
                Some(action) => {
                    let before = sim.snapshot();
                    let events = sim.events().len();
                    let result = sim.apply(action, &params);
                    if std::env::var("WORLD_FUZZ_VERBOSE").is_ok() {
                        eprintln!("{action} {} -> {}", params, result.as_ref().map(|_| "ok".to_string()).unwrap_or_else(|e| e.code.clone()));
                    }
                    if let Err(e) = result {
                        prop_assert!(!e.message.is_empty());
                        prop_assert_eq!(sim.events().len(), events, "{} {} logged events on error", action, params);
                        prop_assert!(sim.snapshot() == before, "{} {} changed the state on error {}", action, params, e);
                    }
                }
                None => sim.advance_by(advance),
            }
        }
        sim.advance_by(3_600_000);
    }
}
