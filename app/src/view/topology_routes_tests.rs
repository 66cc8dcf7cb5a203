//! The diagram against the route scenarios: EventBridge buses
//! beside the topics with a row for each rule's target, the target's dead-letter queue under
//! it, and what is not a queue (a webhook, a function, a missing queue) drawn as what it is.

use super::parts::diagram_markup;
use super::Layout;
use crate::playground::{Playground, BUILTIN, SCENARIOS};
use crate::view::Selection;

#[test]
fn every_built_in_scenario_is_offered_and_loads_under_its_name() {
    let ids: Vec<&str> = SCENARIOS.iter().map(|(id, _)| *id).collect();
    assert_eq!(BUILTIN.iter().map(|(id, _)| *id).collect::<Vec<_>>(), ids);
    for (id, name) in BUILTIN {
        let pg = Playground::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(pg.name, *name, "{id}: the picker's name is the file's");
    }
}

#[test]
fn a_bus_is_drawn_with_a_row_for_each_rules_target() {
    let pg = Playground::builtin("eventbridge-orders").unwrap();
    let layout = Layout::of_now(&pg.snapshot());
    let buses: Vec<&str> =
        layout.topics.iter().enumerate().filter(|(i, _)| layout.is_bus(*i)).map(|(_, (n, _))| n.as_str()).collect();
    assert_eq!(buses, ["shop"], "the default bus, with no rule and no event, is not drawn");
    let rows: Vec<(&str, &str)> =
        layout.rows.iter().map(|r| (r.rule.as_ref().map_or("", |b| b.name.as_str()), r.queue.as_str())).collect();
    // Rules in name order, as ListRules gives them.
    assert_eq!(rows, [("audit", "audit"), ("big-orders", "big-orders"), ("shipping", "warehouse-v1")]);
    // The scenario put 4417 (total 250) and 4418 (total 40): big-orders matched one, audit both.
    let matched: Vec<u64> = layout.rows.iter().map(|r| r.rule.as_ref().map_or(0, |b| b.matched)).collect();
    assert_eq!(matched, [2, 1, 0]);
    assert_eq!(layout.rows[0].rule.as_ref().map(|b| b.input), Some("InputTransformer"));
    assert_eq!(layout.row_of("big-orders").map(|r| r.visible), Some(1));
    // The deleted target is drawn as missing, its dead-letter queue under its badge; the DLQ
    // has no row of its own.
    let warehouse = layout.row_of("warehouse-v1").unwrap();
    assert!(warehouse.endpoint.as_ref().is_some_and(|e| e.down), "{:?}", warehouse.endpoint);
    assert_eq!(warehouse.sub_dlq, Some(("shipping-dlq".to_string(), 0)));
    assert!(layout.row_of("shipping-dlq").is_none());
    // The bus's archive is noted under it, with the events it keeps.
    assert_eq!(layout.notes, [(0, "archive shop-archive: 2 events".to_string())]);
    // Every row hangs from the bus.
    assert!(layout.rows.iter().all(|r| r.topic == Some(0)));
    let markup = diagram_markup(&layout);
    for id in [
        "diagram-bus-shop",
        "diagram-rule-big-orders",
        "diagram-rule-audit",
        "diagram-rule-shipping",
        "rule-audit-matched",
    ] {
        assert!(markup.contains(&format!("data-testid=\"{id}\"")), "{id} in the markup");
    }
    assert!(markup.contains("data-select=\"rule:shop/big-orders\""));
    assert_eq!(Selection::parse_attr("rule:shop/audit"), Some(Selection::Rule("shop/audit".into())));
}

#[test]
fn a_shipment_put_by_the_page_goes_to_the_target_dead_letter_queue() {
    let mut pg = Playground::builtin("eventbridge-orders").unwrap();
    pg.publish("OrderShipped").expect("put the event");
    pg.publish("BigOrder").expect("put the event");
    let layout = Layout::of_now(&pg.snapshot());
    // No retry for a target that does not exist: the event is in the DLQ at once.
    assert_eq!(layout.row_of("warehouse-v1").and_then(|r| r.sub_dlq.clone()), Some(("shipping-dlq".to_string(), 1)));
    assert_eq!(layout.row_of("big-orders").map(|r| r.visible), Some(2));
    let shipping = layout.rows.iter().find(|r| r.rule.as_ref().is_some_and(|b| b.name == "shipping")).unwrap();
    assert_eq!(shipping.rule.as_ref().map(|b| b.matched), Some(1));
}

#[test]
fn a_webhook_and_a_function_are_drawn_as_what_they_are() {
    let pg = Playground::builtin("webhook-retries").unwrap();
    let layout = Layout::of_now(&pg.snapshot());
    let partner = layout.row_of("https://partner.example.com/sns").expect("the webhook's row");
    let e = partner.endpoint.as_ref().expect("drawn as an endpoint");
    assert_eq!((e.kind, e.label.as_str(), e.down), ("HTTPS", "partner", true));
    // Attempts at 0 s (two: no delay for the first retry) have failed; the next waits 5 s.
    assert_eq!(
        (e.stat.as_str(), e.more.as_str()),
        ("3 sent · 1 ok · 2 failed", "down · 1 copy waits to retry"),
        "{e:?}"
    );
    let ledger = layout.row_of("ledger").unwrap();
    assert_eq!(ledger.sub_dlq, Some(("ledger-sns-dlq".to_string(), 1)), "the blocked copy, at once");

    let pg = Playground::builtin("lambda-destinations").unwrap();
    let layout = Layout::of_now(&pg.snapshot());
    let charge = layout.row_of("arn:aws:lambda:us-east-1:000000000000:function:charge").expect("the function's row");
    let e = charge.endpoint.as_ref().expect("drawn as a function");
    assert_eq!((e.kind, e.label.as_str()), ("λ function", "charge"));
    assert_eq!(e.more, "ok → charge-ok · failed → charge-failed");
}

#[test]
fn a_phone_and_a_mailbox_are_drawn_as_what_they_are_with_their_retries_waiting() {
    let pg = Playground::builtin("sms-retries").unwrap();
    let layout = Layout::of_now(&pg.snapshot());
    let kind = |address: &str| {
        let row = layout.row_of(address).unwrap_or_else(|| panic!("a row for {address}"));
        let e = row.endpoint.clone().expect("drawn as an endpoint");
        (e.kind, e.label, e.stat, e.more, e.down)
    };
    // The first attempt at 0 s failed for both (the carrier and the mail server are down);
    // the next waits 10 s. The mailbox had also confirmed its subscription.
    let down = "down · 1 copy waits to retry".to_string();
    assert_eq!(kind("+919800000000"), ("SMS", "asha".into(), "1 sent · 0 ok · 1 failed".into(), down.clone(), true));
    assert_eq!(kind("ops@quilts.example"), ("e-mail", "ops".into(), "2 sent · 1 ok · 1 failed".into(), down, true));
    assert_eq!(layout.row_of("ops@quilts.example").and_then(|r| r.sub_dlq.clone()), Some(("ops-email-dlq".into(), 0)));
}

#[test]
fn order_services_stand_in_the_producers_place_with_their_databases() {
    let mut pg = Playground::builtin("outbox").unwrap();
    // The scenario placed 4401 (dual write, published) and 5501 (outbox, its row sent by the
    // relay within the scenario's first 2 s).
    let layout = Layout::of_now(&pg.snapshot());
    let lines: Vec<(&str, &str, &str)> =
        layout.services.iter().map(|s| (s.name.as_str(), s.design, s.line.as_str())).collect();
    assert_eq!(
        lines,
        [("shop-dualwrite", "dual write", "1 order · 0 lost"), ("shop-outbox", "outbox", "1 order · 0 unsent")]
    );
    // Stacked 76 apart around the topic's line, inside the diagram with their captions.
    assert_eq!(layout.service_y(1) - layout.service_y(0), 76);
    assert!(layout.service_y(0) - 24 >= 0 && layout.service_y(1) + 56 <= layout.height(), "{layout:?}");
    // The outbox's relay is drawn under its database, with the rows it published.
    let relays: Vec<_> = layout.services.iter().map(|s| s.relay.clone()).collect();
    assert_eq!(relays, [None, Some(("relay shop-outbox-relay: 1 published".to_string(), false))]);
    // A crash between save and publish loses 4402's event for good.
    pg.publish("DualWriteCrash").expect("place the order");
    let layout = Layout::of_now(&pg.snapshot());
    assert_eq!(layout.services[0].line, "crashed · 2 orders · 1 lost");
    assert!(layout.services[0].crashed);
    let markup = diagram_markup(&layout);
    assert!(markup.contains("data-testid=\"diagram-service-shop-outbox\""));
    assert!(markup.contains("data-select=\"service:shop-dualwrite\""));
    assert_eq!(Selection::parse_attr("service:shop-outbox"), Some(Selection::Service("shop-outbox".into())));
    // The narrow diagram puts them side by side and starts the topic under their captions.
    let narrow = layout.narrow();
    assert_eq!(narrow.lift, 38, "side by side, and a relay's caption a line under the outbox's");
    assert_eq!(narrow.topics[0].1, super::N_TOP + 38 + 30);
    // Side by side, each caption keeps to its box's width: the database's line alone.
    let markup = diagram_markup(&narrow);
    assert!(markup.contains(">2 orders · 1 lost</text>"), "the crash is the box's colour, not words that overrun");
}

#[test]
fn a_replay_puts_the_archived_events_back_and_the_bus_notes_it() {
    let mut pg = Playground::builtin("eventbridge-replay").unwrap();
    let layout = Layout::of_now(&pg.snapshot());
    assert!(layout.notes.iter().any(|(_, n)| n == "replay after-fix: 2 replayed, running"), "{:?}", layout.notes);
    pg.play_for(120_000);
    let layout = Layout::of_now(&pg.snapshot());
    assert!(layout.notes.iter().any(|(_, n)| n == "replay after-fix: 3 replayed, completed"), "{:?}", layout.notes);
    // billing gets the three orders it missed; analytics leaves replayed events out.
    assert_eq!(layout.row_of("billing").map(|r| r.visible), Some(3));
    let analytics = layout.rows.iter().find(|r| r.rule.as_ref().is_some_and(|b| b.name == "analytics")).unwrap();
    assert_eq!(analytics.visible, 3);
}

#[test]
fn an_sqs_triggered_functions_failures_end_in_the_queues_dlq_never_in_on_failure() {
    let mut pg = Playground::builtin("retry-amplification").unwrap();
    pg.play_for(300_000);
    let layout = Layout::of_now(&pg.snapshot());
    let orders = layout.row_of("orders").unwrap();
    assert_eq!(orders.dlq, Some(("orders-dlq".to_string(), 5)), "all five after the third receive");
    assert_eq!(
        layout.row_of("ship-on-failure").map(|r| r.visible),
        Some(0),
        "OnFailure is for asynchronous invocations"
    );
    assert!(
        orders.consumers.iter().any(|c| c.label == "ship" && c.worker.is_none()),
        "the function, drawn with its λ glyph"
    );
    let markup = diagram_markup(&layout);
    assert!(
        markup.contains("data-testid=\"diagram-consumer-λ ship\" aria-label=\"Lambda function ship on orders: "),
        "its test id as before"
    );
}

#[test]
fn two_quick_asynchronous_invocations_complete_out_of_order_and_the_latest_version_wins() {
    use engine::EventKind;
    let mut pg = Playground::builtin("lambda-out-of-order").unwrap();
    pg.play_for(2_000);
    // The order the function finished them in, as the log says: the cancellation (evt-2) first.
    let done: Vec<(u64, String)> = pg
        .events()
        .iter()
        .filter(|e| e.kind.name() == "AsyncInvocationSucceeded")
        .map(|e| (e.at.ms(), e.kind.summary()))
        .collect();
    assert_eq!(done.len(), 2, "{done:?}");
    assert!(done[0].1.contains("(evt-2)") && done[1].1.contains("(evt-1)"), "{done:?}");
    // The description's times: the cancellation runs at 0.09 s, the placement at 0.58 s.
    let started: Vec<u64> =
        pg.events().iter().filter(|e| e.kind.name() == "AsyncInvocationStarted").map(|e| e.at.ms()).collect();
    assert_eq!(started, [93, 583]);
    let skipped =
        pg.events().iter().filter(|e| matches!(&e.kind, EventKind::World(_)) && e.kind.name() == "SideEffectSkipped");
    assert!(skipped.map(|e| e.kind.summary()).any(|s| s.contains("evt-1 skipped (stale")));
    // The side effects say stale, not "already done": the older version was never applied.
    let s = pg.snapshot();
    let skips: Vec<String> = s.world.jobs.iter().flat_map(crate::view::queues::skips).collect();
    assert_eq!(skips, ["1 skipped as stale"]);
}

#[test]
fn a_replay_from_the_page_puts_the_archive_back_on_its_bus() {
    let mut pg = Playground::builtin("eventbridge-orders").unwrap();
    let shop = "arn:aws:events:us-east-1:000000000000:event-bus/shop";
    pg.replay("shop-archive", shop).expect("StartReplay");
    let s = pg.snapshot();
    let r = &s.eventbridge.replays[0];
    assert!(r.name.starts_with("replay-") && r.replayed + r.pending == 2, "{r:?}");
    // A second replay gets its own name; an archive that does not exist is AWS's error.
    pg.replay("shop-archive", shop).expect("a second replay");
    let names: Vec<String> = pg.snapshot().eventbridge.replays.iter().map(|r| r.name.clone()).collect();
    assert!(names[0] != names[1], "{names:?}");
    assert_eq!(pg.replay("nope", shop).unwrap_err().code, "ResourceNotFoundException");
}
