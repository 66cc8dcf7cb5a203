//! Dual write and the transactional outbox: an order service's database, the points where it can
//! crash, and what each design loses or repeats.
mod common;
use common::*;
use engine::Sim;
use serde_json::{json, Value};

fn setup(sim: &mut Sim, design: &str) {
    ok(sim, "CreateTopic", json!({"Name": "orders"}));
    queue(sim, "events", json!({}));
    ok(
        sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": format!("{ACCOUNT_ARN}events"), "Attributes": {"RawMessageDelivery": "true"}}),
    );
    ok(sim, "CreateOrderService", json!({"ServiceName": "shop", "Design": design, "TopicArn": "orders"}));
    if design == "Outbox" {
        ok(sim, "CreateOutboxRelay", json!({"RelayName": "relay", "ServiceName": "shop"}));
    }
}

fn place(sim: &mut Sim, order: u64) -> Value {
    ok(sim, "PlaceOrder", json!({"ServiceName": "shop", "OrderId": order}))
}

fn describe(sim: &mut Sim) -> Value {
    ok(sim, "DescribeOrderService", json!({"ServiceName": "shop"}))
}

fn event_ids(sim: &mut Sim) -> Vec<String> {
    receive(sim, "events", 10)
        .iter()
        .map(|m| {
            serde_json::from_str::<Value>(m["Body"].as_str().unwrap()).unwrap()["event_id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn a_dual_write_that_crashes_after_the_save_leaves_an_order_without_its_event() {
    // The dual-write problem: the database and the topic are two systems; a crash between the two
    // writes commits one and not the other, and nothing repairs it later.
    let mut sim = Sim::new(1);
    setup(&mut sim, "DualWrite");
    place(&mut sim, 1);
    ok(&mut sim, "CrashOrderService", json!({"ServiceName": "shop", "When": "AfterSave"}));
    place(&mut sim, 2);
    secs(&mut sim, 3_600);
    let d = describe(&mut sim);
    assert_eq!((d["Orders"].as_u64(), d["EventsPublished"].as_u64()), (Some(2), Some(1)));
    assert_eq!(d["OrdersWithoutEvent"], json!([2]));
    assert_eq!(event_ids(&mut sim), vec!["evt-1"], "an hour later, order 2's event has still not gone out");
}

#[test]
fn with_an_outbox_a_crash_after_the_save_loses_nothing() {
    // The transactional outbox: the order and its event are written in one transaction, so a
    // crash after it leaves the event in the outbox for the relay.
    let mut sim = Sim::new(1);
    setup(&mut sim, "Outbox");
    ok(&mut sim, "CrashOrderService", json!({"ServiceName": "shop", "When": "AfterSave"}));
    let r = place(&mut sim, 7);
    assert!(r["Outcome"].as_str().unwrap().contains("crashed"));
    assert_eq!(describe(&mut sim)["OutboxPending"], 1);
    secs(&mut sim, 2);
    assert_eq!(describe(&mut sim)["OutboxPending"], 0);
    assert_eq!(event_ids(&mut sim), vec!["evt-7"]);
}

#[test]
fn a_relay_that_crashes_after_publishing_publishes_the_row_again_with_the_same_event_id() {
    // The relay publishes, then marks the row sent: a crash between the two is at-least-once
    // delivery — the event goes out again, unchanged, when the relay is back.
    let mut sim = Sim::new(1);
    setup(&mut sim, "Outbox");
    ok(&mut sim, "CrashOrderService", json!({"ServiceName": "shop", "When": "AfterPublish"}));
    place(&mut sim, 9);
    secs(&mut sim, 2);
    assert_eq!(describe(&mut sim)["OutboxPending"], 1, "published, not marked sent");
    secs(&mut sim, 10);
    let d = describe(&mut sim);
    assert_eq!((d["OutboxPending"].as_u64(), d["DuplicatesPublished"].as_u64()), (Some(0), Some(1)));
    assert_eq!(event_ids(&mut sim), vec!["evt-9", "evt-9"]);
    let snap = sim.snapshot();
    let db = &snap.world.order_services[0].db;
    assert_eq!((db.outbox[0].published, db.outbox[0].sent_at.is_some()), (2, true));
    assert_eq!(db.transactions, 2, "the order with its row, then the mark");
}

#[test]
fn an_idempotent_consumer_performs_the_duplicated_event_once() {
    // Idempotent consumer: the event id and the side effect committed together; the second copy
    // of the event is skipped.
    let mut sim = Sim::new(1);
    setup(&mut sim, "Outbox");
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "mailer", "QueueUrl": "events", "WaitTimeSeconds": 20,
        "Job": "email", "Effect": "email sent", "Idempotency": "Atomic"}),
    );
    ok(&mut sim, "CrashOrderService", json!({"ServiceName": "shop", "When": "AfterPublish"}));
    place(&mut sim, 9);
    secs(&mut sim, 30);
    let job = ok(&mut sim, "DescribeJob", json!({"Job": "email", "EventIds": ["evt-9"]}));
    assert_eq!((job["SideEffects"].as_u64(), job["Skipped"].as_u64()), (Some(1), Some(1)));
}

#[test]
fn order_service_actions_are_validated_and_a_failure_changes_nothing() {
    // Playground rules: a known design and topic; a relay only for the outbox design; one row
    // per order id; no orders while the service restarts.
    let mut sim = Sim::new(1);
    setup(&mut sim, "DualWrite");
    let cases = [
        (
            "CreateOrderService",
            json!({"ServiceName": "x", "Design": "Saga", "TopicArn": "orders"}),
            "InvalidParameterValue",
        ),
        (
            "CreateOrderService",
            json!({"ServiceName": "x", "Design": "Outbox", "TopicArn": "arn:aws:sns:us-east-1:000000000000:missing"}),
            "NotFound",
        ),
        (
            "CreateOrderService",
            json!({"ServiceName": "shop", "Design": "Outbox", "TopicArn": "orders"}),
            "ResourceConflictException",
        ),
        ("CreateOutboxRelay", json!({"RelayName": "r", "ServiceName": "shop"}), "InvalidParameterValue"),
        ("CreateOutboxRelay", json!({"RelayName": "r", "ServiceName": "ghost"}), "ResourceNotFoundException"),
        ("CrashOrderService", json!({"ServiceName": "shop", "When": "Sometime"}), "InvalidParameterValue"),
        ("PlaceOrder", json!({"ServiceName": "shop"}), "MissingParameter"),
        ("PlaceOrder", json!({"ServiceName": "shop", "OrderId": 0}), "InvalidParameterValue"),
    ];
    for (action, params, code) in cases {
        assert_eq!(fails(&mut sim, action, params.clone()).code, code, "{action} {params}");
    }
    place(&mut sim, 1);
    assert_eq!(
        fails(&mut sim, "PlaceOrder", json!({"ServiceName": "shop", "OrderId": 1})).code,
        "ResourceConflictException"
    );
    ok(&mut sim, "CrashOrderService", json!({"ServiceName": "shop", "When": "AfterPublish"}));
    place(&mut sim, 2);
    assert_eq!(
        fails(&mut sim, "PlaceOrder", json!({"ServiceName": "shop", "OrderId": 3})).code,
        "ServiceUnavailableException"
    );
}
