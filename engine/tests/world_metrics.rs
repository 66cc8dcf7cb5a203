//! CloudWatch-style metrics in virtual time, and alarms in the AWS shapes with OK/ALARM
//! transitions in the log; a dead-letter-queue alarm that pages the owner.
#[path = "world_helpers.rs"]
mod helpers;
use engine::{Sim, SimTime};
use helpers::*;
use serde_json::{json, Value};

fn alarm(sim: &mut Sim, name: &str, metric: &str, queue_name: &str, statistic: &str, actions: Value) {
    ok(
        sim,
        "PutMetricAlarm",
        json!({"AlarmName": name, "Namespace": "AWS/SQS", "MetricName": metric,
        "Dimensions": [{"Name": "QueueName", "Value": queue_name}], "Statistic": statistic, "Period": 60,
        "EvaluationPeriods": 1, "Threshold": 0, "ComparisonOperator": "GreaterThanThreshold", "AlarmActions": actions}),
    );
}

fn state(sim: &mut Sim, name: &str) -> String {
    let r = ok(sim, "DescribeAlarms", json!({"AlarmNames": [name]}));
    r["MetricAlarms"][0]["StateValue"].as_str().unwrap().to_string()
}

/// A poison message on `sms` (VisibilityTimeout 10 s, maxReceiveCount 3), a pager queue on the
/// `on-call` topic, and two alarms on the dead-letter queue.
fn poison_world() -> Sim {
    let mut sim = Sim::new(1);
    queue_with_dlq(&mut sim, "sms", 10, 3);
    ok(&mut sim, "CreateTopic", json!({"Name": "on-call"}));
    queue(&mut sim, "pager", json!({}));
    ok(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "on-call", "Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:000000000000:pager"}),
    );
    alarm(
        &mut sim,
        "sms-dlq-visible",
        "ApproximateNumberOfMessagesVisible",
        "sms-dlq",
        "Maximum",
        json!(["arn:aws:sns:us-east-1:000000000000:on-call"]),
    );
    alarm(&mut sim, "sms-dlq-sent", "NumberOfMessagesSent", "sms-dlq", "Sum", json!([]));
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "sms", "Job": "sms",
        "Poison": {"Field": "data.phone", "LengthBelow": 13}}),
    );
    sim.advance_to(SimTime(90_000));
    send(&mut sim, "sms", &order(4417, 1, "+91987654321"));
    sim
}

#[test]
fn a_dlq_alarm_goes_to_alarm_when_the_first_message_lands_and_pages_the_owner() {
    // Seeds: alarm on the DLQ's ApproximateNumberOfMessagesVisible above 0 (Maximum, 60 s, one
    // period); its action is an SNS topic that pages the owner.
    let mut sim = poison_world();
    assert_eq!(state(&mut sim, "sms-dlq-visible"), "OK", "evaluated at 60 s with an empty DLQ");
    sim.advance_to(SimTime(180_000));
    assert_eq!(counts(&mut sim, "sms-dlq"), (1, 0));
    let landed = events_named(&sim, "MovedToDeadLetterQueue").remove(0)["at"].as_u64().unwrap();
    assert_eq!(state(&mut sim, "sms-dlq-visible"), "ALARM");
    let change = events_named(&sim, "AlarmStateChanged").into_iter().find(|e| e["to"] == "ALARM").unwrap();
    assert_eq!(
        change["at"].as_u64().unwrap(),
        (landed / 60_000 + 1) * 60_000,
        "at the end of the minute it landed in (a minute is [start, end): a landing at 2:00 is in the third)"
    );
    assert_eq!(change["actions"], json!(["arn:aws:sns:us-east-1:000000000000:on-call"]));
    let page = ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "pager"}))["Messages"][0]["Body"].clone();
    let envelope: Value = serde_json::from_str(page.as_str().unwrap()).unwrap();
    let notification: Value = serde_json::from_str(envelope["Message"].as_str().unwrap()).unwrap();
    assert_eq!(
        (notification["AlarmName"].as_str(), notification["NewStateValue"].as_str()),
        (Some("sms-dlq-visible"), Some("ALARM"))
    );
    // CloudWatch writes the datapoints and the threshold with a decimal point in the reason.
    assert_eq!(
        notification["NewStateReason"],
        "Threshold Crossed: 1 out of the last 1 datapoints [1.0] was greater than the threshold (0.0).",
    );
}

#[test]
fn an_alarm_on_number_of_messages_sent_stays_silent_for_a_dlq() {
    // SQS: NumberOfMessagesSent does not count messages moved to a dead-letter queue by redrive,
    // so an alarm on it never fires for the DLQ; alarm on ApproximateNumberOfMessagesVisible.
    let mut sim = poison_world();
    sim.advance_to(SimTime(600_000));
    assert_eq!(counts(&mut sim, "sms-dlq"), (1, 0));
    assert_eq!(state(&mut sim, "sms-dlq-sent"), "OK");
    assert_eq!(state(&mut sim, "sms-dlq-visible"), "ALARM");
}

#[test]
fn queue_metrics_are_series_in_virtual_time() {
    // CloudWatch: SQS publishes ApproximateNumberOfMessagesVisible, …NotVisible,
    // ApproximateAgeOfOldestMessage (seconds) and the per-period NumberOfMessagesSent/Received/Deleted.
    let mut sim = Sim::new(2);
    ok(&mut sim, "ConfigureMetrics", json!({"Resolution": "10s"}));
    queue(&mut sim, "q", json!({}));
    for i in 0..5 {
        send(&mut sim, "q", &order(i, 1, "x"));
    }
    sim.advance_to(SimTime(25_000));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "2s", "Job": "j"}));
    sim.advance_to(SimTime(60_000));
    let get = |sim: &mut Sim, metric: &str, stat: &str| -> Vec<u64> {
        let r = ok(
            sim,
            "GetMetricStatistics",
            json!({"Namespace": "AWS/SQS", "MetricName": metric,
            "Dimensions": [{"Name": "QueueName", "Value": "q"}], "StartTime": "0s", "EndTime": "60s",
            "Period": 10, "Statistics": [stat]}),
        );
        r["Datapoints"].as_array().unwrap().iter().map(|d| n(&d[stat])).collect()
    };
    assert_eq!(get(&mut sim, "ApproximateNumberOfMessagesVisible", "Maximum"), vec![5, 5, 2, 0, 0, 0]);
    assert_eq!(get(&mut sim, "ApproximateAgeOfOldestMessage", "Maximum"), vec![10, 20, 30, 0, 0, 0]);
    assert_eq!(get(&mut sim, "NumberOfMessagesDeleted", "Sum"), vec![0, 0, 2, 3, 0, 0]);
    let lag = ok(
        &mut sim,
        "GetMetricStatistics",
        json!({"Namespace": "Playground/SQS", "MetricName": "ConsumerLag",
        "Dimensions": [{"Name": "QueueName", "Value": "q"}], "StartTime": "0s", "EndTime": "60s", "Period": 10, "Statistics": ["Maximum"]}),
    );
    let lag: Vec<u64> = lag["Datapoints"].as_array().unwrap().iter().map(|d| n(&d["Maximum"])).collect();
    assert_eq!(lag, vec![5, 5, 3, 0, 0, 0], "messages not yet deleted, visible or in flight");
    let r = ok(
        &mut sim,
        "GetMetricStatistics",
        json!({"Namespace": "Playground/Job", "MetricName": "EndToEndLatency",
        "Dimensions": [{"Name": "Job", "Value": "j"}], "Period": 60, "Statistics": ["Average", "SampleCount", "Maximum"]}),
    );
    let d = &r["Datapoints"][0];
    assert_eq!(
        (d["SampleCount"].clone(), d["Maximum"].clone(), d["Unit"].clone()),
        (json!(5), json!(35_000), json!("Milliseconds"))
    );
    assert_eq!(d["Timestamp"], "2026-01-01T00:00:00.000Z");
}

#[test]
fn the_world_schedules_nothing_until_it_has_something_to_measure() {
    // Design rule: a scenario of queues alone keeps its timers and log exactly as before issue 6.
    let mut sim = Sim::new(3);
    queue(&mut sim, "q", json!({}));
    send(&mut sim, "q", "x");
    assert_eq!(sim.next_event_at(), Some(SimTime(4 * 86_400_000)), "only the queue's retention timer");
    ok(&mut sim, "CreateDependency", json!({"DependencyName": "d"}));
    assert_eq!(sim.next_event_at(), Some(SimTime(60_000)), "the metrics tick starts with the first actor");
}

#[test]
fn alarms_and_metric_queries_are_validated_like_cloudwatch() {
    // CloudWatch: alarm Period is 10, 20, 30 or a multiple of 60; Period x EvaluationPeriods is at
    // most one day below an hour's period; GetMetricStatistics returns at most 1,440 datapoints.
    let mut sim = Sim::new(4);
    let base = json!({"AlarmName": "a", "Namespace": "AWS/SQS", "MetricName": "NumberOfMessagesSent",
        "Dimensions": [{"Name": "QueueName", "Value": "q"}], "Statistic": "Sum", "Period": 60,
        "EvaluationPeriods": 1, "Threshold": 0, "ComparisonOperator": "GreaterThanThreshold"});
    let with = |k: &str, v: Value| {
        let mut p = base.clone();
        p[k] = v;
        p
    };
    for p in [
        with("Period", json!(45)),
        with("Period", json!(10)),
        with("EvaluationPeriods", json!(1441)),
        with("Statistic", json!("Median")),
        with("ComparisonOperator", json!("Bigger")),
        with("Threshold", json!("lots")),
        with("TreatMissingData", json!("shrug")),
        with("AlarmActions", json!(["mailto:me"])),
        with("Dimensions", json!([{"Name": "QueueName", "Value": "q"}, {"Name": "X", "Value": "y"}])),
    ] {
        fails_with(&mut sim, "PutMetricAlarm", p, "InvalidParameterValue");
    }
    let mut missing = base.clone();
    missing.as_object_mut().unwrap().remove("Threshold");
    fails_with(&mut sim, "PutMetricAlarm", missing, "MissingParameter");
    // A threshold may come as text, as the AWS CLI passes it; it is read as a number.
    ok(&mut sim, "PutMetricAlarm", with("Threshold", json!(" 2.5 ")));
    let described = ok(&mut sim, "DescribeAlarms", json!({"AlarmNames": ["a"]}));
    assert_eq!(described["MetricAlarms"][0]["Threshold"], json!(2.5), "{described}");
    ok(&mut sim, "PutMetricAlarm", base.clone());
    assert_eq!(state(&mut sim, "a"), "INSUFFICIENT_DATA");
    fails_with(&mut sim, "DeleteAlarms", json!({"AlarmNames": ["b"]}), "ResourceNotFound");
    let query = json!({"Namespace": "AWS/SQS", "MetricName": "NumberOfMessagesSent", "Period": 60, "Statistics": ["Sum"],
        "StartTime": "0s", "EndTime": "2d"});
    fails_with(&mut sim, "GetMetricStatistics", query, "InvalidParameterCombination");
    fails_with(
        &mut sim,
        "GetMetricStatistics",
        json!({"Namespace": "AWS/SQS", "MetricName": "X", "Period": 7, "Statistics": ["Sum"]}),
        "InvalidParameterValue",
    );
    sim.advance_to(SimTime(60_000));
    fails_with(&mut sim, "ConfigureMetrics", json!({"Resolution": "1s"}), "InvalidParameterValue");
    ok(&mut sim, "DeleteAlarms", json!({"AlarmNames": ["a"]}));
}

#[test]
fn dependency_calls_and_errors_are_series_per_dependency() {
    // Design rule: every call to a dependency is counted, and every failed one (errors, throttles).
    let mut sim = Sim::new(5);
    ok(&mut sim, "CreateDependency", json!({"DependencyName": "email", "Latency": "100ms", "Down": true}));
    queue(&mut sim, "q", json!({"VisibilityTimeout": "100"}));
    send(&mut sim, "q", &order(1, 1, "x"));
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "1ms", "Job": "email",
        "Dependency": "email", "Retry": {"Strategy": "Fixed", "MaxAttempts": 4, "Base": "1s"}}),
    );
    sim.advance_to(SimTime(60_000));
    let sum = |sim: &mut Sim, metric: &str| {
        let r = ok(
            sim,
            "GetMetricStatistics",
            json!({"Namespace": "Playground/Dependency", "MetricName": metric,
            "Dimensions": [{"Name": "DependencyName", "Value": "email"}], "Period": 60, "Statistics": ["Sum"]}),
        );
        n(&r["Datapoints"][0]["Sum"])
    };
    assert_eq!((sum(&mut sim, "Calls"), sum(&mut sim, "Errors")), (4, 4));
    assert_eq!(count_events(&sim, "DependencyCallFailed"), 4);
    assert_eq!(count_events(&sim, "ProcessingFailed"), 1);
}
