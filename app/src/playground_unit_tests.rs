//! The playground's own behaviour: loading, publishing, the speed, the quiet clock, bad input.

use super::*;

#[test]
fn every_builtin_scenario_loads() {
    for (id, _) in SCENARIOS {
        let pg = Playground::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let s = pg.snapshot();
        assert!(!s.queues.is_empty() || !s.topics.is_empty() || !s.eventbridge.buses.is_empty(), "{id}");
    }
}

#[test]
fn the_default_scenario_builds_the_quilt_store() {
    let pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("default scenario loads");
    let s = pg.snapshot();
    assert_eq!(s.topics[0].name, "order-events");
    let names: Vec<&str> = s.queues.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(names, ["billing", "packing", "sms", "sms-dlq"]);
}

#[test]
fn publishing_fans_out_and_the_sms_filter_drops_refunds() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).unwrap();
    pg.publish("OrderPlaced").unwrap();
    pg.publish("RefundIssued").unwrap();
    let s = pg.snapshot();
    let visible = |name: &str| s.queues.iter().find(|q| q.name == name).unwrap().visible;
    assert_eq!((visible("billing"), visible("packing"), visible("sms")), (2, 2, 1));
}

#[test]
fn a_story_is_quiet_until_its_next_timer_or_recorded_command() {
    // The quilt store with a message waiting and no consumer: its next timer is the
    // message's retention (4 days), so the clock may run a minute with nothing happening.
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).unwrap();
    pg.publish("OrderPlaced").unwrap();
    assert!(pg.quiet_for(60_000));
    let due = pg.history.next_due().expect("the retention timer");
    let to_due = due.ms() - pg.now().ms();
    assert!(pg.quiet_for(to_due - 1) && !pg.quiet_for(to_due), "due at {due}");
    // Back before a recorded command, the command is what comes next.
    let at = pg.now();
    pg.play_for(5_000);
    pg.publish("OrderPlaced").unwrap();
    pg.seek(at);
    assert!(pg.quiet_for(4_999) && !pg.quiet_for(5_000));
}

#[test]
fn a_fifo_scenario_publishes_with_a_group() {
    let mut pg = Playground::builtin("fifo-groups").unwrap();
    pg.publish("OrderPlaced").unwrap();
    assert!(pg.snapshot().queues[0].messages.iter().all(|m| m.group.is_some()));
}

#[test]
fn a_broken_scenario_says_where() {
    let err =
        Playground::from_scenario(r#"{"name": "x", "steps": [{"action": "CreateQueue", "params": {}}]}"#).unwrap_err();
    assert!(err.contains("step 1") && err.contains("QueueName"), "{err}");
}

#[test]
fn the_policy_check_reports_errors_and_changes_nothing() {
    assert!(check_filter_policy(r#"{"event_type": ["OrderPlaced"]}"#, "MessageAttributes").is_ok());
    assert!(check_filter_policy("", "MessageAttributes").is_ok());
    let e = check_filter_policy(r#"{"event_type": [{"prefx": "Order"}]}"#, "MessageAttributes").unwrap_err();
    assert!(e.contains("event_type"), "{e}");
}

#[test]
fn workers_consume_and_a_crash_keeps_the_message_in_flight() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).unwrap();
    pg.add_worker("packing").unwrap();
    pg.publish("OrderPlaced").unwrap();
    let packing = |pg: &Playground| pg.snapshot().queues.into_iter().find(|q| q.name == "packing").unwrap();
    // A long-polling worker takes a message the moment it is published.
    assert_eq!(packing(&pg).in_flight, 1, "the worker took it");
    let received_at = pg.now();
    pg.play_for(1_000);
    pg.worker("CrashWorker", "packing-w1").unwrap();
    pg.play_for(28_999);
    assert_eq!(packing(&pg).in_flight, 1, "still hidden after the crash");
    pg.play_for(1);
    assert_eq!(pg.now(), received_at.plus_ms(30_000));
    assert_eq!(packing(&pg).visible, 1, "back 30 s after the receive: the visibility timeout");
    assert!(pg.worker("NoSuchAction", "x").is_err());
}

#[test]
fn step_back_returns_to_the_latest_moment_an_event_was_logged() {
    let mut pg = Playground::builtin("crash-visibility").unwrap();
    // The crashed worker's message is visible again when its 30 s visibility timeout ends.
    let expired = pg.step().expect("the visibility timer is due");
    assert_eq!(expired, SimTime(30_000));
    let at_expiry = pg.snapshot();
    pg.play_for(10_000);
    assert!(pg.events().iter().all(|e| e.at <= expired), "nothing happens after the expiry");
    // Back from 40 s: to the expiry at 30 s, not by a fixed amount, and to the same state.
    assert_eq!(pg.step_back(), expired);
    assert_eq!(pg.snapshot(), at_expiry);
    // Then to the scenario's setup at 0, where step back stays.
    assert_eq!(pg.step_back(), SimTime::ZERO);
    assert_eq!(pg.snapshot().queues[0].in_flight, 1, "the crashed worker's message is hidden again");
    assert_eq!(pg.step_back(), SimTime::ZERO);
    assert_eq!(pg.end(), SimTime(40_000), "the timeline keeps its length after going back");
}

#[test]
fn seek_travels_both_ways_and_redo_puts_back_what_undo_took() {
    let mut pg = Playground::builtin("crash-visibility").unwrap();
    pg.seek(SimTime(30_000));
    let later = pg.snapshot();
    pg.seek(SimTime(10_000));
    assert_eq!(pg.snapshot().queues[0].in_flight, 1);
    pg.seek(SimTime(30_000));
    assert_eq!(pg.snapshot(), later);
    assert!(!pg.can_redo());
    pg.publish("OrderPlaced").unwrap();
    let published = pg.snapshot();
    assert!(pg.undo() && pg.can_redo());
    assert_ne!(pg.snapshot(), published);
    assert!(pg.redo() && !pg.can_redo());
    assert_eq!(pg.snapshot(), published);
}

#[test]
fn step_forward_and_step_back_stop_at_the_same_moments() {
    // The workers scenario with a few publishes: workers poll, take, finish and delete.
    let mut pg = Playground::builtin("workers").unwrap();
    for name in ["OrderPlaced", "OrderPlaced", "RefundIssued"] {
        if pg.presets().iter().any(|p| p.name == name) {
            pg.publish(name).unwrap();
        }
    }
    let start = pg.now();
    let mut forward = vec![start];
    while let Some(t) = pg.step() {
        assert!(pg.events().iter().any(|e| e.at == t), "a step forward stops where something happens ({t})");
        forward.push(t);
        if forward.len() > 40 {
            break;
        }
    }
    assert!(forward.len() > 3, "the story goes on: {forward:?}");
    let mut back = vec![pg.now()];
    while *back.last().unwrap() > start {
        back.push(pg.step_back());
    }
    back.reverse();
    assert_eq!(back, forward, "the same moments both ways");
}

#[test]
fn undo_then_redo_restores_the_clock_too() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).unwrap();
    pg.publish("OrderPlaced").unwrap();
    pg.play_for(34_000);
    let played = pg.snapshot();
    assert!(pg.undo());
    assert_eq!(pg.now(), SimTime::ZERO);
    assert!(pg.redo());
    assert_eq!(pg.now(), SimTime(34_000));
    assert_eq!(pg.snapshot(), played);
}

#[test]
fn each_scenario_reaches_its_key_moment_within_about_a_minute_at_its_speed() {
    // (scenario, what it shows, a preset to publish first): the moment must come within
    // 70 s of real time at the scenario's own speed.
    let cases: [(&str, &str, Option<&str>); 4] = [
        ("workers", "MovedToDeadLetterQueue", Some("PoisonOrder")),
        ("crash-visibility", "VisibilityExpired", None),
        ("fifo-groups", "VisibilityExpired", None),
        ("duplicates", "DuplicateStored", Some("OrderPlaced")),
    ];
    for (id, kind, preset) in cases {
        let mut pg = Playground::builtin(id).unwrap();
        let start = pg.now();
        // SPEEDS: virtual ms per 4 real ms.
        let per_4ms = SPEEDS[pg.speed_index()].1;
        let real_ms = |virtual_ms: u64| virtual_ms * 4 / per_4ms;
        if let Some(p) = preset {
            for _ in 0..4 {
                pg.publish(p).unwrap();
            }
        }
        let mut found = None;
        for _ in 0..600 {
            pg.play_for(1_000);
            if let Some(e) = pg.events().iter().find(|e| e.kind.name() == kind && e.at >= start) {
                found = Some(e.at);
                break;
            }
        }
        let at = found.unwrap_or_else(|| panic!("{id}: no {kind} within 10 minutes"));
        let real = real_ms(at.ms() - start.ms());
        assert!(real <= 70_000, "{id}: {kind} after {} ms of real time at {}", real, SPEEDS[pg.speed_index()].0);
    }
    assert_eq!(Playground::builtin("quilt-store").unwrap().speed_index(), DEFAULT_SPEED, "no speed: 1×");
}

#[test]
fn custom_attributes_must_be_json() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).unwrap();
    let before = pg.snapshot();
    assert!(pg.publish_custom("hello", "{not json", "").is_err());
    assert_eq!(pg.snapshot(), before);
}
