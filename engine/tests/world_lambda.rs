//! Lambda with an SQS event source mapping, in the AWS shapes: batches, the batching window,
//! maximum concurrency, and partial batch responses (ReportBatchItemFailures).
#[path = "world_helpers.rs"]
mod helpers;
use engine::Sim;
use helpers::*;
use serde_json::{json, Value};

const ARN: &str = "arn:aws:sqs:us-east-1:000000000000:";

fn function(sim: &mut Sim, name: &str, behavior: Value) {
    ok(
        sim,
        "CreateFunction",
        json!({"FunctionName": name, "Runtime": "python3.12", "Handler": "app.handler",
        "Role": "arn:aws:iam::000000000000:role/r", "Timeout": 10, "Behavior": behavior}),
    );
}

fn mapping(sim: &mut Sim, queue_name: &str, function: &str, extra: Value) -> String {
    let mut p = json!({"EventSourceArn": format!("{ARN}{queue_name}"), "FunctionName": function, "BatchSize": 10});
    p.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    ok(sim, "CreateEventSourceMapping", p)["UUID"].as_str().unwrap().to_string()
}

fn stats(sim: &mut Sim, uuid: &str) -> Value {
    ok(sim, "GetEventSourceMapping", json!({"UUID": uuid}))["Stats"].clone()
}

/// 1,000 orders waiting in `queue_name`, then a function failing 10% of records, batch size 10.
fn reprocessing(report: bool) -> Value {
    let mut sim = Sim::new(42);
    queue(&mut sim, "orders", json!({"VisibilityTimeout": "60"}));
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "orders",
        "Count": 1000, "Interval": "1ms"}),
    );
    secs(&mut sim, 2);
    function(&mut sim, "handler", json!({"ProcessingTime": "50ms", "FailureProbability": "0.1", "Job": "orders"}));
    let types = if report { json!(["ReportBatchItemFailures"]) } else { json!([]) };
    let uuid = mapping(&mut sim, "orders", "handler", json!({"FunctionResponseTypes": types}));
    sim.advance_by(3_600_000);
    assert_eq!(counts(&mut sim, "orders"), (0, 0), "everything is processed in the end");
    let mut s = stats(&mut sim, &uuid);
    s["Effects"] = job(&mut sim, "orders", &[])["SideEffects"].clone();
    s
}

#[test]
fn without_report_batch_item_failures_one_failing_record_returns_the_whole_batch() {
    // AWS Lambda: by default, if the function fails while processing a batch, all messages in that
    // batch become visible again; at batch size 10 and 10% failures most batches fail.
    let plain = reprocessing(false);
    let delivered = n(&plain["RecordsDelivered"]);
    assert_eq!(n(&plain["RecordsDeleted"]), 1000);
    assert!(delivered > 2_000, "most of the work is done again: {delivered} deliveries for 1,000 messages");
    assert!(n(&plain["FailedInvocations"]) > 100);
    assert!(n(&plain["Effects"]) > 1_000, "records processed before the throw are redone: duplicates");
}

#[test]
fn with_report_batch_item_failures_only_the_failed_records_return() {
    // AWS Lambda: with ReportBatchItemFailures in FunctionResponseTypes the function returns
    // {"batchItemFailures": [{"itemIdentifier": id}]} and only those messages return to the queue.
    let partial = reprocessing(true);
    let delivered = n(&partial["RecordsDelivered"]);
    assert_eq!(n(&partial["RecordsDeleted"]), 1000);
    assert!((1_050..1_200).contains(&delivered), "about 1,000 / 0.9 deliveries: {delivered}");
    assert_eq!(n(&partial["FailedInvocations"]), 0);
    assert_eq!(n(&partial["Effects"]), 1000, "no record is processed twice");
    let plain = reprocessing(false);
    println!(
        "batch 10, 10% failures: without ReportBatchItemFailures {} deliveries ({} redelivered); with it {} ({} redelivered)",
        plain["RecordsDelivered"], plain["RecordsRedelivered"], partial["RecordsDelivered"], partial["RecordsRedelivered"]
    );
}

#[test]
fn a_partial_batch_response_names_the_failed_records_in_the_log() {
    // AWS Lambda: the partial batch response is {"batchItemFailures": [{"itemIdentifier": "<messageId>"}]}.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "60"}));
    for i in 0..3 {
        send(&mut sim, "q", &order(4417 + i, 1, if i == 1 { "+91987654321" } else { "+919876543210" }));
    }
    function(&mut sim, "f", json!({"Poison": {"Field": "data.phone", "LengthBelow": 13}}));
    mapping(&mut sim, "q", "f", json!({"FunctionResponseTypes": ["ReportBatchItemFailures"]}));
    secs(&mut sim, 5);
    let ret = events_named(&sim, "FunctionReturned").remove(0);
    assert_eq!(ret["response"], json!({"batchItemFailures": [{"itemIdentifier": "msg-2"}]}));
    assert_eq!(ret["deleted"], 2);
    assert_eq!(counts(&mut sim, "q"), (0, 1), "only the poison message is still in flight");
}

#[test]
fn without_partial_responses_the_handler_throws_and_the_log_says_all_records_return() {
    // AWS Lambda: without ReportBatchItemFailures a failed invocation returns every record of the batch.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "60"}));
    for i in 0..3 {
        send(&mut sim, "q", &order(4417 + i, 1, if i == 1 { "+91987654321" } else { "+919876543210" }));
    }
    function(&mut sim, "f", json!({"Poison": {"Field": "data.phone", "LengthBelow": 13}}));
    mapping(&mut sim, "q", "f", json!({}));
    secs(&mut sim, 5);
    let failed = events_named(&sim, "FunctionFailed").remove(0);
    assert_eq!(failed["records_returned"], 3);
    assert_eq!(counts(&mut sim, "q"), (0, 3));
}

#[test]
fn a_function_that_outlasts_its_timeout_fails_the_whole_batch() {
    // AWS Lambda: Timeout (default 3 s, at most 900 s) stops the invocation; the batch returns.
    let mut sim = Sim::new(2);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "30"}));
    send(&mut sim, "q", "slow");
    ok(&mut sim, "CreateFunction", json!({"FunctionName": "f", "Behavior": {"ProcessingTime": "5s"}}));
    let uuid = mapping(&mut sim, "q", "f", json!({"FunctionResponseTypes": ["ReportBatchItemFailures"]}));
    secs(&mut sim, 4);
    let failed = events_named(&sim, "FunctionFailed").remove(0);
    assert_eq!(failed["error"], "Task timed out after 3.00 seconds");
    assert_eq!(n(&stats(&mut sim, &uuid)["Timeouts"]), 1);
}

#[test]
fn the_batching_window_gathers_records_until_the_batch_is_full_or_the_window_ends() {
    // AWS Lambda: MaximumBatchingWindowInSeconds (0-300) is how long Lambda gathers records before
    // invoking; BatchSize above 10 needs a window of at least 1 s (standard queues: up to 10,000).
    let mut sim = Sim::new(3);
    queue(&mut sim, "q", json!({}));
    function(&mut sim, "f", json!({"ProcessingTime": "1ms"}));
    let uuid = mapping(&mut sim, "q", "f", json!({"BatchSize": 100, "MaximumBatchingWindowInSeconds": 5}));
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q",
        "Count": 30, "Interval": "100ms"}),
    );
    secs(&mut sim, 10);
    let s = stats(&mut sim, &uuid);
    assert_eq!((n(&s["Invocations"]), n(&s["RecordsDeleted"])), (1, 30), "one invocation after the 5 s window");
    let invoked = events_named(&sim, "FunctionInvoked").remove(0);
    assert_eq!(invoked["at"], 5_000);
}

#[test]
fn maximum_concurrency_bounds_the_concurrent_invocations() {
    // AWS Lambda: ScalingConfig.MaximumConcurrency (2-1000) limits the concurrent invocations an SQS
    // event source can make; without it Lambda starts with five concurrent batches.
    for (scaling, expected) in [(Some(2), 2), (None, 5)] {
        let mut sim = Sim::new(4);
        queue(&mut sim, "q", json!({}));
        for i in 0..100 {
            send(&mut sim, "q", &order(i, 1, "+919876543210"));
        }
        function(&mut sim, "f", json!({"ProcessingTime": "1s"}));
        let extra = scaling.map_or(json!({}), |c| json!({"ScalingConfig": {"MaximumConcurrency": c}}));
        mapping(&mut sim, "q", "f", extra);
        let view = sim.snapshot().world.event_source_mappings.remove(0);
        assert_eq!(view.concurrent_invocations, expected);
        assert_eq!(sim.snapshot().world.functions[0].running, expected as u32);
    }
}

#[test]
fn lambda_actions_are_validated_with_the_lambda_error_codes() {
    // AWS Lambda: bad values answer InvalidParameterValueException; a missing function
    // ResourceNotFoundException; the function timeout must not exceed the queue's visibility timeout.
    let mut sim = Sim::new(5);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "30"}));
    fails_with(
        &mut sim,
        "CreateFunction",
        json!({"FunctionName": "f", "Timeout": 901}),
        "InvalidParameterValueException",
    );
    fails_with(&mut sim, "CreateFunction", json!({"FunctionName": "bad name"}), "InvalidParameterValueException");
    fails_with(
        &mut sim,
        "CreateFunction",
        json!({"FunctionName": "f", "Behavior": {"FailureProbability": "2"}}),
        "InvalidParameterValueException",
    );
    ok(&mut sim, "CreateFunction", json!({"FunctionName": "f", "Timeout": 60}));
    fails_with(&mut sim, "CreateFunction", json!({"FunctionName": "f"}), "ResourceConflictException");
    let base = |extra: Value| {
        let mut p = json!({"EventSourceArn": format!("{ARN}q"), "FunctionName": "f"});
        p.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        p
    };
    let msg = fails_with(&mut sim, "CreateEventSourceMapping", base(json!({})), "InvalidParameterValueException");
    assert!(msg.contains("less than Function timeout"), "{msg}");
    ok(&mut sim, "UpdateFunctionConfiguration", json!({"FunctionName": "f", "Timeout": 5}));
    fails_with(&mut sim, "CreateEventSourceMapping", base(json!({"BatchSize": 11})), "InvalidParameterValueException");
    fails_with(
        &mut sim,
        "CreateEventSourceMapping",
        base(json!({"BatchSize": 10_001, "MaximumBatchingWindowInSeconds": 1})),
        "InvalidParameterValueException",
    );
    fails_with(
        &mut sim,
        "CreateEventSourceMapping",
        base(json!({"ScalingConfig": {"MaximumConcurrency": 1}})),
        "InvalidParameterValueException",
    );
    fails_with(
        &mut sim,
        "CreateEventSourceMapping",
        base(json!({"FunctionResponseTypes": ["Everything"]})),
        "InvalidParameterValueException",
    );
    fails_with(
        &mut sim,
        "CreateEventSourceMapping",
        base(json!({"FunctionName": "ghost"})),
        "ResourceNotFoundException",
    );
    fails_with(
        &mut sim,
        "CreateEventSourceMapping",
        base(json!({"EventSourceArn": format!("{ARN}nope")})),
        "InvalidParameterValueException",
    );
    fails_with(&mut sim, "GetEventSourceMapping", json!({"UUID": "nope"}), "ResourceNotFoundException");
    let uuid = ok(
        &mut sim,
        "CreateEventSourceMapping",
        base(json!({"BatchSize": 10_000, "MaximumBatchingWindowInSeconds": 300})),
    )["UUID"]
        .as_str()
        .unwrap()
        .to_string();
    fails_with(&mut sim, "DeleteFunction", json!({"FunctionName": "f"}), "ResourceConflictException");
    ok(&mut sim, "DeleteEventSourceMapping", json!({"UUID": uuid}));
    ok(&mut sim, "DeleteFunction", json!({"FunctionName": "f"}));
}

#[test]
fn disabling_a_mapping_stops_its_invocations_and_enabling_it_resumes_them() {
    // AWS Lambda: UpdateEventSourceMapping with Enabled false pauses polling; true resumes it.
    let mut sim = Sim::new(6);
    queue(&mut sim, "q", json!({}));
    function(&mut sim, "f", json!({"ProcessingTime": "100ms"}));
    let uuid = mapping(&mut sim, "q", "f", json!({}));
    let r = ok(&mut sim, "UpdateEventSourceMapping", json!({"UUID": uuid, "Enabled": false}));
    assert_eq!(r["State"], "Disabled");
    send(&mut sim, "q", "one");
    secs(&mut sim, 30);
    assert_eq!(counts(&mut sim, "q"), (1, 0), "nobody polls a disabled mapping");
    ok(&mut sim, "UpdateEventSourceMapping", json!({"UUID": uuid, "Enabled": true}));
    secs(&mut sim, 1);
    assert_eq!(counts(&mut sim, "q"), (0, 0));
    sim.advance_to(engine::SimTime(60_000));
    let m = ok(
        &mut sim,
        "GetMetricStatistics",
        json!({"Namespace": "AWS/Lambda", "MetricName": "Invocations",
        "Dimensions": [{"Name": "FunctionName", "Value": "f"}], "StartTime": "0s", "EndTime": "1m", "Period": 60, "Statistics": ["Sum"]}),
    );
    assert_eq!(m["Datapoints"][0]["Sum"], 1);
}

#[test]
fn without_maximum_concurrency_lambda_adds_pollers_while_the_backlog_lasts() {
    // AWS Lambda: with messages available Lambda starts five concurrent batches and adds up to
    // 300 more a minute, up to 1,000.
    let mut sim = Sim::new(7);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "900"}));
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q", "Count": 20_000, "Interval": "1ms"}),
    );
    secs(&mut sim, 20);
    ok(&mut sim, "CreateFunction", json!({"FunctionName": "f", "Timeout": 900, "Behavior": {"ProcessingTime": "60s"}}));
    mapping(&mut sim, "q", "f", json!({"BatchSize": 1}));
    let running = |sim: &Sim| sim.snapshot_limited(0).world.functions[0].running;
    assert_eq!(running(&sim), 5);
    sim.advance_by(60_000);
    assert_eq!(running(&sim), 305, "one minute later");
}
