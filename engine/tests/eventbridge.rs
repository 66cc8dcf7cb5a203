//! Amazon EventBridge: buses, rules, PutEvents, targets and input transformation, each test
//! stating the documented fact it checks. Delivery failures, retries, dead-letter queues,
//! archives, replays and schedules are in `eventbridge_delivery.rs`.
mod common;

use common::*;
use engine::Sim;
use serde_json::{json, Value};

pub const QUEUE_ARN: &str = "arn:aws:sqs:us-east-1:000000000000:";

fn rule(sim: &mut Sim, name: &str, pattern: Value) {
    ok(sim, "PutRule", json!({"Name": name, "EventPattern": pattern.to_string()}));
}

fn target(sim: &mut Sim, rule: &str, id: &str, queue: &str) {
    ok(sim, "PutTargets", json!({"Rule": rule, "Targets": [{"Id": id, "Arn": format!("{QUEUE_ARN}{queue}")}]}));
}

fn put(sim: &mut Sim, source: &str, detail_type: &str, detail: Value) -> Value {
    ok(
        sim,
        "PutEvents",
        json!({"Entries": [{"Source": source, "DetailType": detail_type, "Detail": detail.to_string()}]}),
    )
}

fn bodies(sim: &mut Sim, queue: &str) -> Vec<Value> {
    receive(sim, queue, 10).iter().map(|m| serde_json::from_str(m["Body"].as_str().unwrap()).unwrap()).collect()
}

#[test]
fn a_rule_delivers_the_events_its_pattern_matches_to_a_queue_in_the_envelope() {
    // "Rules use event patterns to select events and send them to targets"; the envelope has
    // version, id, detail-type, source, account, time, region, resources and detail.
    let mut sim = Sim::new(1);
    queue(&mut sim, "big-orders", json!({}));
    rule(&mut sim, "big", json!({"source": ["shop"], "detail": {"total": [{"numeric": [">=", 100]}]}}));
    target(&mut sim, "big", "q", "big-orders");
    let r = put(&mut sim, "shop", "OrderPlaced", json!({"order": 1, "total": 250}));
    assert_eq!(r["FailedEntryCount"], 0);
    let id = r["Entries"][0]["EventId"].as_str().unwrap().to_string();
    put(&mut sim, "shop", "OrderPlaced", json!({"order": 2, "total": 20}));
    let got = receive(&mut sim, "big-orders", 10);
    assert_eq!(got.len(), 1, "only the matching event is delivered");
    let raw = got[0]["Body"].as_str().unwrap();
    assert!(raw.starts_with("{\"version\":\"0\",\"id\":"), "AWS's field order: {raw}");
    let e: Value = serde_json::from_str(raw).unwrap();
    assert_eq!(e["id"], id);
    assert_eq!(
        (e["version"].as_str(), e["source"].as_str(), e["detail-type"].as_str()),
        (Some("0"), Some("shop"), Some("OrderPlaced"))
    );
    assert_eq!((e["account"].as_str(), e["region"].as_str()), (Some("000000000000"), Some("us-east-1")));
    assert_eq!(e["time"], "2026-01-01T00:00:00Z", "the time of the PutEvents call, whole seconds");
    assert_eq!(e["resources"], json!([]));
    assert_eq!(e["detail"], json!({"order": 1, "total": 250}));
}

#[test]
fn a_rule_on_a_custom_bus_sees_only_that_buss_events() {
    // "You associate a rule with a specific event bus, so the rule only applies to events received by that event bus."
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    let arn = ok(&mut sim, "CreateEventBus", json!({"Name": "orders"}))["EventBusArn"].as_str().unwrap().to_string();
    assert_eq!(arn, "arn:aws:events:us-east-1:000000000000:event-bus/orders");
    let r = ok(
        &mut sim,
        "PutRule",
        json!({"Name": "r", "EventBusName": "orders", "EventPattern": "{\"source\": [\"shop\"]}"}),
    );
    assert_eq!(r["RuleArn"], "arn:aws:events:us-east-1:000000000000:rule/orders/r");
    ok(
        &mut sim,
        "PutTargets",
        json!({"Rule": "r", "EventBusName": arn, "Targets": [{"Id": "t", "Arn": format!("{QUEUE_ARN}q")}]}),
    );
    put(&mut sim, "shop", "OnDefault", json!({}));
    ok(
        &mut sim,
        "PutEvents",
        json!({"Entries": [{"Source": "shop", "DetailType": "OnOrders", "Detail": "{}", "EventBusName": "orders"}]}),
    );
    let got = bodies(&mut sim, "q");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["detail-type"], "OnOrders");
}

#[test]
fn put_events_answers_each_entry_in_order_and_counts_the_failures() {
    // "Each entry in the response array corresponds to an entry in the request array in order";
    // "Detail, DetailType, and Source are required … EventBridge fails that entry".
    let mut sim = Sim::new(1);
    let r = ok(
        &mut sim,
        "PutEvents",
        json!({"Entries": [
            {"Source": "a", "DetailType": "t", "Detail": "{}"},
            {"Source": "a", "DetailType": "t"},
            {"Source": "a", "DetailType": "t", "Detail": "[1]"},
            {"Source": "aws.ec2", "DetailType": "t", "Detail": "{}"},
            {"Source": "a", "DetailType": "t", "Detail": "{}", "EventBusName": "nope"},
            {"Source": "a", "DetailType": "t", "Detail": "{}", "Time": "2026-01-01T00:00:00Z"},
        ]}),
    );
    assert_eq!(r["FailedEntryCount"], 4);
    let codes: Vec<Value> =
        r["Entries"].as_array().unwrap().iter().map(|e| e.get("ErrorCode").cloned().unwrap_or(Value::Null)).collect();
    assert_eq!(
        codes,
        [
            Value::Null,
            json!("InvalidArgument"),
            json!("MalformedDetail"),
            json!("NotAuthorizedForSourceException"),
            json!("ResourceNotFoundException"),
            Value::Null
        ]
    );
    assert_eq!(r["Entries"][0]["EventId"], "evt-1");
    assert_eq!(r["Entries"][5]["EventId"], "evt-2");
}

#[test]
fn put_events_refuses_a_request_that_breaks_its_limits_and_changes_nothing() {
    let mut sim = Sim::new(1);
    // "If you submit a request in which none of the entries have each of these properties, EventBridge fails the entire request."
    let e = fails(&mut sim, "PutEvents", json!({"Entries": [{"Source": "a"}, {"DetailType": "t"}]}));
    assert_eq!(e.code, "ValidationException");
    // At most 10 entries.
    let eleven: Vec<Value> = (0..11).map(|_| json!({"Source": "a", "DetailType": "t", "Detail": "{}"})).collect();
    assert_eq!(fails(&mut sim, "PutEvents", json!({"Entries": eleven})).code, "ValidationException");
    // "The total entry size must be less than 256KB."
    let big = format!("{{\"x\": \"{}\"}}", "a".repeat(262_144));
    assert_eq!(
        fails(&mut sim, "PutEvents", json!({"Entries": [{"Source": "a", "DetailType": "t", "Detail": big}]})).code,
        "ValidationException"
    );
    assert_eq!(fails(&mut sim, "PutEvents", json!({"Entries": []})).code, "ValidationException");
}

#[test]
fn invalid_rules_are_refused_with_the_aws_error_and_change_nothing() {
    let mut sim = Sim::new(1);
    ok(&mut sim, "CreateEventBus", json!({"Name": "custom"}));
    let cases = [
        (json!({"Name": "r", "EventPattern": "{\"source\": \"shop\"}"}), "InvalidEventPatternException"),
        (json!({"Name": "r", "EventPattern": "{}"}), "InvalidEventPatternException"),
        (json!({"Name": "r"}), "ValidationException"),
        (json!({"Name": "bad name", "EventPattern": "{\"a\": [1]}"}), "ValidationException"),
        (json!({"Name": "r", "EventPattern": "{\"a\": [1]}", "State": "ON"}), "ValidationException"),
        (json!({"Name": "r", "ScheduleExpression": "rate(5 hour)"}), "ValidationException"),
        // "You can only create scheduled rules using the default event bus."
        (
            json!({"Name": "r", "ScheduleExpression": "rate(5 minutes)", "EventBusName": "custom"}),
            "ValidationException",
        ),
        (json!({"Name": "r", "EventPattern": "{\"a\": [1]}", "EventBusName": "missing"}), "ResourceNotFoundException"),
        (json!({"Name": "r", "EventPattern": "{\"a\": [1]}", "Color": "red"}), "ValidationException"),
    ];
    for (params, code) in cases {
        assert_eq!(fails(&mut sim, "PutRule", params.clone()).code, code, "{params}");
    }
    assert_eq!(fails(&mut sim, "DescribeRule", json!({"Name": "ghost"})).code, "ResourceNotFoundException");
    assert_eq!(fails(&mut sim, "EnableRule", json!({"Name": "ghost"})).code, "ResourceNotFoundException");
}

#[test]
fn invalid_targets_are_refused_with_the_aws_error_and_change_nothing() {
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    queue(&mut sim, "jobs.fifo", json!({"FifoQueue": "true", "ContentBasedDeduplication": "true"}));
    rule(&mut sim, "r", json!({"source": ["shop"]}));
    let q = format!("{QUEUE_ARN}q");
    let t = |extra: Value| {
        let mut t = json!({"Id": "t1", "Arn": q});
        t.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        json!({"Rule": "r", "Targets": [t]})
    };
    let cases = [
        // RetryPolicy: MaximumRetryAttempts 0–185, MaximumEventAgeInSeconds 60–86,400.
        (t(json!({"RetryPolicy": {"MaximumRetryAttempts": 186}})), "ValidationException"),
        (t(json!({"RetryPolicy": {"MaximumEventAgeInSeconds": 59}})), "ValidationException"),
        (t(json!({"RetryPolicy": {"MaximumEventAgeInSeconds": 86_401}})), "ValidationException"),
        (t(json!({"RetryPolicy": {"MaximumRetryAttempts": -1}})), "ValidationException"),
        // "You can't use a FIFO queue for a DLQ in EventBridge."
        (t(json!({"DeadLetterConfig": {"Arn": format!("{QUEUE_ARN}jobs.fifo")}})), "ValidationException"),
        (t(json!({"Input": "not json"})), "ValidationException"),
        (t(json!({"Input": "{}", "InputPath": "$.detail"})), "ValidationException"),
        (t(json!({"InputTransformer": {"InputPathsMap": {"a": "$.detail"}}})), "ValidationException"),
        (t(json!({"SqsParameters": {"MessageGroupId": "g"}})), "ValidationException"),
        (t(json!({"KinesisParameters": {"PartitionKeyPath": "$"}})), "ValidationException"),
        (json!({"Rule": "r", "Targets": [{"Id": "t1", "Arn": "not-an-arn"}]}), "ValidationException"),
        // Lambda targets are simulated (issue 16); a Kinesis stream is not.
        (
            json!({"Rule": "r", "Targets": [{"Id": "t1", "Arn": "arn:aws:kinesis:us-east-1:000000000000:stream/s"}]}),
            "ValidationException",
        ),
        // A FIFO queue target needs SqsParameters.MessageGroupId.
        (
            json!({"Rule": "r", "Targets": [{"Id": "t1", "Arn": format!("{QUEUE_ARN}jobs.fifo")}]}),
            "ValidationException",
        ),
        (json!({"Rule": "r", "Targets": [{"Id": "bad id!", "Arn": q}]}), "ValidationException"),
        (json!({"Rule": "ghost", "Targets": [{"Id": "t1", "Arn": q}]}), "ResourceNotFoundException"),
        (json!({"Rule": "r", "Targets": []}), "ValidationException"),
    ];
    for (params, code) in cases {
        assert_eq!(fails(&mut sim, "PutTargets", params.clone()).code, code, "{params}");
    }
}

#[test]
fn a_rule_has_at_most_five_targets() {
    // "Each rule can have up to five (5) targets associated with it at one time."
    let mut sim = Sim::new(1);
    rule(&mut sim, "r", json!({"source": ["shop"]}));
    let targets = |ids: std::ops::Range<u32>| -> Value {
        ids.map(|i| json!({"Id": format!("t{i}"), "Arn": format!("{QUEUE_ARN}q{i}")})).collect()
    };
    ok(&mut sim, "PutTargets", json!({"Rule": "r", "Targets": targets(0..5)}));
    let e = fails(&mut sim, "PutTargets", json!({"Rule": "r", "Targets": targets(5..6)}));
    assert_eq!(e.code, "LimitExceededException");
    // Updating an existing target is not adding one.
    ok(&mut sim, "PutTargets", json!({"Rule": "r", "Targets": targets(4..5)}));
    let listed = ok(&mut sim, "ListTargetsByRule", json!({"Rule": "r"}));
    assert_eq!(listed["Targets"].as_array().unwrap().len(), 5);
}

#[test]
fn a_rule_with_targets_cannot_be_deleted_until_they_are_removed() {
    // DeleteRule: "Before you can delete the rule, you must remove all targets"; "If you call
    // delete rule multiple times for the same rule, all calls will succeed."
    let mut sim = Sim::new(1);
    rule(&mut sim, "r", json!({"source": ["shop"]}));
    target(&mut sim, "r", "t", "q");
    assert_eq!(fails(&mut sim, "DeleteRule", json!({"Name": "r"})).code, "ValidationException");
    let removed = ok(&mut sim, "RemoveTargets", json!({"Rule": "r", "Ids": ["t", "ghost"]}));
    assert_eq!(removed["FailedEntryCount"], 1);
    ok(&mut sim, "DeleteRule", json!({"Name": "r"}));
    ok(&mut sim, "DeleteRule", json!({"Name": "r"}));
    assert_eq!(fails(&mut sim, "DescribeRule", json!({"Name": "r"})).code, "ResourceNotFoundException");
}

#[test]
fn buses_are_unique_and_the_default_bus_stays() {
    let mut sim = Sim::new(1);
    ok(&mut sim, "CreateEventBus", json!({"Name": "b"}));
    assert_eq!(fails(&mut sim, "CreateEventBus", json!({"Name": "b"})).code, "ResourceAlreadyExistsException");
    assert_eq!(fails(&mut sim, "CreateEventBus", json!({"Name": "default"})).code, "ResourceAlreadyExistsException");
    assert_eq!(fails(&mut sim, "CreateEventBus", json!({"Name": "a/b"})).code, "ValidationException");
    assert_eq!(fails(&mut sim, "DeleteEventBus", json!({"Name": "default"})).code, "ValidationException");
    let listed = ok(&mut sim, "ListEventBuses", json!({}));
    let names: Vec<&str> =
        listed["EventBuses"].as_array().unwrap().iter().map(|b| b["Name"].as_str().unwrap()).collect();
    assert_eq!(names, ["b", "default"]);
    ok(&mut sim, "DeleteEventBus", json!({"Name": "b"}));
    assert_eq!(fails(&mut sim, "DescribeEventBus", json!({"Name": "b"})).code, "ResourceNotFoundException");
}

#[test]
fn a_disabled_rule_matches_nothing_until_enabled() {
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "PutRule", json!({"Name": "r", "EventPattern": "{\"source\": [\"shop\"]}", "State": "DISABLED"}));
    target(&mut sim, "r", "t", "q");
    put(&mut sim, "shop", "t", json!({"n": 1}));
    assert_eq!(ok(&mut sim, "DescribeRule", json!({"Name": "r"}))["State"], "DISABLED");
    ok(&mut sim, "EnableRule", json!({"Name": "r"}));
    put(&mut sim, "shop", "t", json!({"n": 2}));
    let got = bodies(&mut sim, "q");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["detail"]["n"], 2);
}

#[test]
fn test_event_pattern_answers_result_and_requires_the_envelope_fields() {
    // TestEventPattern returns {"Result": true|false}; an event without its envelope fields is
    // refused (which ones: test_event_pattern_does_not_require_resources).
    let mut sim = Sim::new(1);
    let event = json!({"id": "1", "account": "1", "source": "shop", "time": "2026-01-01T00:00:00Z", "region": "us-east-1",
        "resources": [], "detail-type": "t", "detail": {"total": 250}});
    let yes = ok(
        &mut sim,
        "TestEventPattern",
        json!({"EventPattern": "{\"detail\": {\"total\": [{\"numeric\": [\">\", 100]}]}}", "Event": event.to_string()}),
    );
    assert_eq!(yes, json!({"Result": true}));
    let no = ok(
        &mut sim,
        "TestEventPattern",
        json!({"EventPattern": "{\"source\": [\"other\"]}", "Event": event.to_string()}),
    );
    assert_eq!(no, json!({"Result": false}));
    let bad = fails(
        &mut sim,
        "TestEventPattern",
        json!({"EventPattern": "{\"source\": \"shop\"}", "Event": event.to_string()}),
    );
    assert_eq!(bad.code, "InvalidEventPatternException");
    let partial = fails(
        &mut sim,
        "TestEventPattern",
        json!({"EventPattern": "{\"source\": [\"shop\"]}", "Event": "{\"source\": \"shop\"}"}),
    );
    assert_eq!(partial.code, "ValidationException");
}

fn transformed(target: Value, detail: Value) -> String {
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    rule(&mut sim, "r", json!({"source": ["shop"]}));
    let mut t = json!({"Id": "t", "Arn": format!("{QUEUE_ARN}q")});
    t.as_object_mut().unwrap().extend(target.as_object().unwrap().clone());
    ok(&mut sim, "PutTargets", json!({"Rule": "r", "Targets": [t]}));
    put(&mut sim, "shop", "OrderPlaced", detail);
    receive(&mut sim, "q", 1)[0]["Body"].as_str().unwrap().to_string()
}

#[test]
fn targets_receive_the_input_input_path_or_transformed_input() {
    // Input: "Valid JSON text passed to the target"; InputPath selects part of the event.
    assert_eq!(transformed(json!({"Input": "{\"fixed\": true}"}), json!({"a": 1})), "{\"fixed\": true}");
    assert_eq!(transformed(json!({"InputPath": "$.detail"}), json!({"a": 1})), "{\"a\":1}");
    assert_eq!(transformed(json!({"InputPath": "$.detail-type"}), json!({"a": 1})), "\"OrderPlaced\"");
    // InputTransformer: a string variable outside quotes becomes a JSON string, inside quotes it is inserted as it is.
    let t = json!({"InputTransformer": {"InputPathsMap": {"id": "$.detail.order", "kind": "$.detail-type"},
        "InputTemplate": "{\"order\": <id>, \"kind\": <kind>, \"text\": \"order <id> is <kind>\", \"rule\": <aws.events.rule-name>}"}});
    assert_eq!(
        transformed(t, json!({"order": 17})),
        "{\"order\": 17, \"kind\": \"OrderPlaced\", \"text\": \"order 17 is OrderPlaced\", \"rule\": \"r\"}"
    );
}

#[test]
fn an_sns_topic_target_publishes_the_event_to_the_topic() {
    let mut sim = Sim::new(1);
    queue(&mut sim, "sub", json!({}));
    ok(&mut sim, "CreateTopic", json!({"Name": "events"}));
    ok(
        &mut sim,
        "Subscribe",
        json!({"TopicArn": "events", "Protocol": "sqs", "Endpoint": format!("{QUEUE_ARN}sub"),
        "Attributes": {"RawMessageDelivery": "true"}}),
    );
    rule(&mut sim, "r", json!({"source": ["shop"]}));
    ok(
        &mut sim,
        "PutTargets",
        json!({"Rule": "r", "Targets": [{"Id": "t", "Arn": "arn:aws:sns:us-east-1:000000000000:events"}]}),
    );
    put(&mut sim, "shop", "t", json!({"n": 5}));
    let got = bodies(&mut sim, "sub");
    assert_eq!(got[0]["detail"]["n"], 5);
    assert!(event_names(&sim).contains(&"Published"));
}

#[test]
fn an_event_bus_target_puts_the_event_on_the_other_bus() {
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    ok(&mut sim, "CreateEventBus", json!({"Name": "audit"}));
    rule(&mut sim, "forward", json!({"source": ["shop"]}));
    ok(
        &mut sim,
        "PutTargets",
        json!({"Rule": "forward", "Targets": [{"Id": "t", "Arn": "arn:aws:events:us-east-1:000000000000:event-bus/audit"}]}),
    );
    ok(
        &mut sim,
        "PutRule",
        json!({"Name": "keep", "EventBusName": "audit", "EventPattern": "{\"source\": [\"shop\"]}"}),
    );
    ok(
        &mut sim,
        "PutTargets",
        json!({"Rule": "keep", "EventBusName": "audit", "Targets": [{"Id": "t", "Arn": format!("{QUEUE_ARN}q")}]}),
    );
    let id = put(&mut sim, "shop", "t", json!({}))["Entries"][0]["EventId"].clone();
    let got = bodies(&mut sim, "q");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["id"], id);
}

#[test]
fn a_fifo_queue_target_gets_the_message_group_of_its_sqs_parameters() {
    let mut sim = Sim::new(1);
    queue(&mut sim, "jobs.fifo", json!({"FifoQueue": "true", "ContentBasedDeduplication": "true"}));
    rule(&mut sim, "r", json!({"source": ["shop"]}));
    ok(
        &mut sim,
        "PutTargets",
        json!({"Rule": "r", "Targets": [{"Id": "t", "Arn": format!("{QUEUE_ARN}jobs.fifo"),
        "SqsParameters": {"MessageGroupId": "orders"}}]}),
    );
    put(&mut sim, "shop", "t", json!({"n": 1}));
    let m = receive(&mut sim, "jobs.fifo", 1);
    assert_eq!(m[0]["Attributes"]["MessageGroupId"], "orders");
}
