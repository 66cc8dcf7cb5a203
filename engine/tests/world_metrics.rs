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

/// One queue metric's values, one per datapoint, from `GetMetricStatistics` over `0s..end`.
fn stat(
    sim: &mut Sim,
    namespace: &str,
    metric: &str,
    queue_name: &str,
    period: u64,
    stat: &str,
    end: &str,
) -> Vec<u64> {
    let r = ok(
        sim,
        "GetMetricStatistics",
        json!({"Namespace": namespace, "MetricName": metric,
        "Dimensions": [{"Name": "QueueName", "Value": queue_name}], "StartTime": "0s", "EndTime": end,
        "Period": period, "Statistics": [stat]}),
    );
    r["Datapoints"].as_array().unwrap().iter().map(|d| n(&d[stat])).collect()
}

#[test]
fn queue_metrics_are_series_in_virtual_time() {
    // CloudWatch: SQS publishes ApproximateNumberOfMessagesVisible, …NotVisible,
    // ApproximateAgeOfOldestMessage (seconds) and the per-period NumberOfMessagesSent/Received/Deleted.
    let mut sim = Sim::new(2);
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "CreateDependency", json!({"DependencyName": "d"}));
    for i in 0..5 {
        send(&mut sim, "q", &order(i, 1, "x"));
    }
    sim.advance_to(SimTime(70_000));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "2s", "Job": "j"}));
    sim.advance_to(SimTime(120_000));
    let get = |sim: &mut Sim, metric: &str, s: &str| stat(sim, "AWS/SQS", metric, "q", 60, s, "120s");
    assert_eq!(get(&mut sim, "ApproximateNumberOfMessagesVisible", "Maximum"), vec![5, 0]);
    assert_eq!(get(&mut sim, "ApproximateAgeOfOldestMessage", "Maximum"), vec![60, 0]);
    assert_eq!(get(&mut sim, "NumberOfMessagesSent", "Sum"), vec![5, 0]);
    assert_eq!(get(&mut sim, "NumberOfMessagesDeleted", "Sum"), vec![0, 5]);
    let r = ok(
        &mut sim,
        "GetMetricStatistics",
        json!({"Namespace": "Playground/Job", "MetricName": "EndToEndLatency",
        "Dimensions": [{"Name": "Job", "Value": "j"}], "Period": 60, "Statistics": ["Average", "SampleCount", "Maximum"]}),
    );
    let d = &r["Datapoints"][0];
    assert_eq!(
        (d["SampleCount"].clone(), d["Maximum"].clone(), d["Unit"].clone()),
        (json!(5), json!(80_000), json!("Milliseconds"))
    );
    assert_eq!(d["Timestamp"], "2026-01-01T00:01:00.000Z");
}

#[test]
fn sqs_sends_its_metrics_once_a_minute_whatever_the_resolution() {
    // Documented fact this checks: "CloudWatch metrics for your Amazon SQS queues are automatically
    // collected and pushed to CloudWatch at one-minute intervals"
    // (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/monitoring-using-cloudwatch.html).
    // A finer ConfigureMetrics resolution is the playground's own series' (ConsumerLag here), not SQS's.
    let mut sim = Sim::new(2);
    ok(&mut sim, "ConfigureMetrics", json!({"Resolution": "10s"}));
    queue(&mut sim, "q", json!({}));
    for i in 0..5 {
        send(&mut sim, "q", &order(i, 1, "x"));
    }
    sim.advance_to(SimTime(25_000));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "2s", "Job": "j"}));
    sim.advance_to(SimTime(120_000));
    let visible =
        |sim: &mut Sim| stat(sim, "AWS/SQS", "ApproximateNumberOfMessagesVisible", "q", 10, "Maximum", "120s");
    assert_eq!(visible(&mut sim), vec![0, 0], "one datapoint a minute, read at its end, in the bucket of its start");
    let deleted = stat(&mut sim, "AWS/SQS", "NumberOfMessagesDeleted", "q", 10, "Sum", "120s");
    assert_eq!(deleted, vec![5, 0], "the minute's count, all five deleted in the first minute");
    let points = sim.queue_metric_points("ApproximateNumberOfMessagesVisible", "q");
    assert_eq!(points.iter().map(|(t, _)| t.0).collect::<Vec<_>>(), vec![60_000, 120_000], "the chart's points");
    let lag = stat(&mut sim, "Playground/SQS", "ConsumerLag", "q", 10, "Maximum", "60s");
    assert_eq!(lag, vec![5, 5, 3, 0, 0, 0], "the playground's own series: every 10 s");
}

#[test]
fn a_ten_second_alarm_on_a_queue_metric_mostly_sees_missing_data() {
    // Documented fact this checks (PutMetricAlarm, Period): "If you specify a period of 10, 20, or
    // 30 for a metric that does not have sub-minute resolution, the alarm still attempts to gather
    // data at the period rate that you specify. In this case, it does not receive data for the
    // attempts that do not correspond to a one-minute data resolution, and the alarm might often
    // lapse into INSUFFICENT_DATA status."
    // (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricAlarm.html)
    // SQS's metrics have one datapoint a minute, so a 10-second alarm finds one in six periods.
    let mut sim = poison_world();
    ok(
        &mut sim,
        "PutMetricAlarm",
        json!({"AlarmName": "fast", "Namespace": "AWS/SQS", "MetricName": "ApproximateNumberOfMessagesVisible",
        "Dimensions": [{"Name": "QueueName", "Value": "sms-dlq"}], "Statistic": "Maximum", "Period": 10,
        "EvaluationPeriods": 1, "Threshold": 0, "ComparisonOperator": "GreaterThanThreshold"}),
    );
    sim.advance_to(SimTime(180_000));
    assert_eq!(counts(&mut sim, "sms-dlq"), (1, 0), "the poison message is in the DLQ");
    let mut states = Vec::new();
    for t in (190_000..=420_000).step_by(10_000) {
        sim.advance_to(SimTime(t));
        states.push(state(&mut sim, "fast"));
    }
    let alarm = states.iter().filter(|s| *s == "ALARM").count();
    let insufficient = states.iter().filter(|s| *s == "INSUFFICIENT_DATA").count();
    assert_eq!((alarm, insufficient, states.len()), (4, 20, 24), "{states:?}");
    assert!(
        states.iter().enumerate().all(|(i, s)| (s == "ALARM") == (190 + 10 * i as u64).is_multiple_of(60)),
        "in ALARM only at the end of each minute, when SQS's datapoint arrives: {states:?}"
    );
    assert_eq!(state(&mut sim, "sms-dlq-visible"), "ALARM", "the 60-second alarm on the same metric stays in ALARM");
    let sixty: Vec<Value> =
        events_named(&sim, "AlarmStateChanged").into_iter().filter(|e| e["alarm"] == "sms-dlq-visible").collect();
    assert_eq!(sixty.len(), 2, "OK, then ALARM once: {sixty:?}");
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
    // CloudWatch: alarm Period is 10, 20, 30 or a multiple of 60, whatever the metric's resolution;
    // Period x EvaluationPeriods is at most one day below an hour's period; GetMetricStatistics
    // returns at most 1,440 datapoints.
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
        with("Period", json!(15)),
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
    ok(&mut sim, "PutMetricAlarm", with("Period", json!(10)));
    assert_eq!(sim.next_event_at(), Some(SimTime(10_000)), "a 10-second alarm is evaluated every 10 s");
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
