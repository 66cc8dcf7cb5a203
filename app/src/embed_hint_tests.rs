//! Every built-in scenario plays its point in a compact embed (`controls=min`, issue 51): the
//! one control its `embed` hint names (if any), then Play, and within a minute of wall time at
//! the scenario's own speed the event that is its point is logged.

use crate::playground::{Playground, BUILTIN, SPEEDS};

/// Each built-in scenario's point: an event its story logs once it is played from the embed.
const POINTS: &[(&str, &str)] = &[
    ("quilt-store", "DeliveredToQueue"),
    ("workers", "SideEffectPerformed"),
    ("poison-dlq", "MovedToDeadLetterQueue"),
    ("crash-visibility", "VisibilityExpired"),
    ("duplicates", "SideEffectSkipped"),
    ("fifo-groups", "VisibilityExpired"),
    ("eventbridge-orders", "RuleMatched"),
    ("eventbridge-replay", "ReplayEnded"),
    ("webhook-retries", "DeliveredToEndpoint"),
    ("sms-retries", "DeliveredToEndpoint"),
    ("lambda-destinations", "AsyncRecordSent"),
    ("lambda-out-of-order", "SideEffectSkipped"),
    ("retry-amplification", "MovedToDeadLetterQueue"),
    ("outbox", "OrderServiceCrashed"),
];

/// Wall milliseconds a reader waits at most for the point, at the scenario's speed.
const WAIT_WALL_MS: u64 = 60_000;

#[test]
fn every_builtin_scenario_plays_its_point_from_its_embeds_controls() {
    for (id, _) in BUILTIN {
        let point = POINTS.iter().find(|(p, _)| p == id).map(|(_, e)| *e);
        let point = point.unwrap_or_else(|| panic!("{id}: add its point to POINTS"));
        let mut pg = Playground::builtin(id).unwrap();
        let hint = pg.embed_hint().cloned().unwrap_or_else(|| panic!("{id}: its file has no \"embed\" hint"));
        let from = pg.events().len();
        if let Some(press) = hint.press {
            // Pressed as the hint says (four times when it says so).
            let times = if hint.say.contains("four times") { 4 } else { 1 };
            for _ in 0..times {
                pg.press(press).unwrap_or_else(|e| panic!("{id}: {}: {}", press.label(), e.message));
            }
        }
        let speed = SPEEDS[pg.speed_index()].1;
        pg.play_for(WAIT_WALL_MS * speed / 4);
        assert!(
            pg.events()[from..].iter().any(|e| e.kind.name() == point),
            "{id}: {point} within {} s of wall time at its speed, after \"{}\"",
            WAIT_WALL_MS / 1000,
            hint.say
        );
    }
}

#[test]
fn a_scenario_that_names_a_control_needs_it() {
    for (id, _) in BUILTIN {
        let mut pg = Playground::builtin(id).unwrap();
        let Some(_press) = pg.embed_hint().and_then(|h| h.press) else { continue };
        let point = POINTS.iter().find(|(p, _)| p == id).map(|(_, e)| *e).unwrap();
        let from = pg.events().len();
        pg.play_for(WAIT_WALL_MS * SPEEDS[pg.speed_index()].1 / 4);
        assert!(
            !pg.events()[from..].iter().any(|e| e.kind.name() == point),
            "{id}: Play alone already shows {point}; its hint need not name a control"
        );
    }
}
