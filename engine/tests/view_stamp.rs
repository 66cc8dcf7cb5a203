//! `Sim::view_stamp`: what lets a page redraw only the clock while nothing else changes. Equal
//! stamps must mean equal snapshots apart from the clock; the stamp must stay put while only
//! the clock moves (or it saves nothing); and it must move at every change, including those no
//! timer marks (a dependency's schedule window opening or closing).
use engine::history::History;
use engine::scenario::Scenario;
use engine::{SimTime, Snapshot};
use serde_json::json;

/// The snapshot without what is read from the clock alone.
fn timeless(mut s: Snapshot) -> Snapshot {
    s.now = SimTime::ZERO;
    for q in &mut s.queues {
        q.oldest_age_ms = 0;
    }
    s
}

fn workers_story() -> History {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../public/scenarios/workers.json"))
        .expect("the workers scenario is readable");
    let run = Scenario::parse(&text).expect("the workers scenario parses").run();
    assert!(run.failed() == 0, "the workers scenario runs");
    run.story
}

#[test]
fn equal_stamps_mean_equal_snapshots_apart_from_the_clock() {
    let mut h = workers_story();
    h.apply(
        "CreateDependency",
        &json!({"DependencyName": "slow", "Latency": "100ms",
            "Schedule": [{"Start": "30s", "Duration": "20s", "Latency": "5s"}]}),
    )
    .unwrap();
    let (mut last, mut before) = (h.sim().view_stamp(), timeless(h.sim().snapshot()));
    let (mut same, mut changed) = (0, 0);
    for i in 1..=1_200u64 {
        h.advance_to(h.sim().now().plus_ms(97));
        if i % 150 == 0 {
            h.apply("Publish", &json!({"TopicArn": "order-events", "Message": format!("{{\"order_id\": {i}}}")}))
                .unwrap();
        }
        let (stamp, now) = (h.sim().view_stamp(), timeless(h.sim().snapshot()));
        if stamp == last {
            assert_eq!(now, before, "at {}: the stamp stayed {stamp:?} but the snapshot changed", h.sim().now());
            same += 1;
        } else {
            changed += 1;
        }
        (last, before) = (stamp, now);
    }
    assert!(same > 100 && changed > 10, "both kinds of frame happen: {same} unchanged, {changed} changed");
}

#[test]
fn the_stamp_stays_while_only_the_clock_moves_and_changes_with_a_schedule_window() {
    let mut h = History::new(1);
    h.apply("CreateQueue", &json!({"QueueName": "q"})).unwrap();
    h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": "waiting"})).unwrap();
    h.apply(
        "CreateDependency",
        &json!({"DependencyName": "d", "Schedule": [{"Start": "10s", "Duration": "5s", "Down": true}]}),
    )
    .unwrap();
    let start = h.sim().view_stamp();
    h.advance_to(SimTime(9_999));
    assert_eq!(h.sim().view_stamp(), start, "a stored message and a waiting window: only the clock moved");
    let age = |h: &History| h.sim().snapshot().queues[0].oldest_age_ms;
    assert_eq!(age(&h), 9_999, "the age is read from the clock, not stored in the state");
    h.advance_to(SimTime(10_000));
    let down = h.sim().view_stamp();
    assert_ne!(down, start, "the window opened: the dependency is down, and no timer said so");
    assert!(h.sim().snapshot().world.dependencies[0].down);
    h.advance_to(SimTime(15_000));
    assert_ne!(h.sim().view_stamp(), down, "the window closed");
    assert!(!h.sim().snapshot().world.dependencies[0].down);
    let quiet = h.sim().view_stamp();
    h.apply("ReceiveMessage", &json!({"QueueUrl": "q"})).unwrap();
    assert_ne!(h.sim().view_stamp(), quiet, "an action changes the state");
    let received = h.sim().view_stamp();
    h.advance_to(SimTime(45_000));
    assert_ne!(h.sim().view_stamp(), received, "the visibility timeout fired at 45 s");
}
