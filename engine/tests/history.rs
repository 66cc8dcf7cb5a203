//! Time travel: any moment is rebuilt by checkpoint and replay; acting in the past forks the
//! story; undo and redo take back and put back whole commands.
mod common;
use engine::history::History;
use engine::{SimTime, Snapshot};
use serde_json::json;

fn story() -> History {
    let mut h = History::new(9);
    h.apply("ConfigureSimulation", &json!({"DuplicateDeliveryProbability": "0.3"})).unwrap();
    h.apply("CreateQueue", &json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "2"}})).unwrap();
    for i in 0..1500u64 {
        h.advance_to(SimTime(i * 400));
        h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": format!("m{i}")})).unwrap();
        if i % 2 == 0 {
            h.apply("ReceiveMessage", &json!({"QueueUrl": "q", "MaxNumberOfMessages": 3})).unwrap();
        }
    }
    h
}

fn at(h: &mut History, t: u64) -> (Snapshot, usize) {
    h.seek(SimTime(t));
    (h.sim().snapshot(), h.sim().events().len())
}

#[test]
fn seeking_back_and_forth_rebuilds_the_same_moments() {
    let mut h = story();
    assert!(h.sim().events().len() > 5000, "a long story: {}", h.sim().events().len());
    let mut straight = story();
    let early = at(&mut straight, 123_456);
    let late = at(&mut straight, 500_000);
    assert_eq!(at(&mut h, 123_456), early);
    assert_eq!(at(&mut h, 500_000), late);
    assert_eq!(at(&mut h, 123_456), early);
}

#[test]
fn acting_after_going_back_discards_the_future() {
    let mut h = story();
    let end = h.end();
    h.seek(SimTime(1000));
    let before = h.commands().len();
    h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": "a new branch"})).unwrap();
    assert!(h.commands().len() < before, "commands after 1 s were dropped");
    assert!(h.end() < end);
    h.seek(SimTime(600_000));
    let bodies: Vec<String> = h.sim().snapshot().queues[0].messages.iter().map(|m| m.body.clone()).collect();
    assert!(bodies.iter().all(|b| b == "a new branch" || b.trim_start_matches('m').parse::<u64>().unwrap() < 3));
}

#[test]
fn undo_takes_back_a_command_and_redo_puts_it_back() {
    let mut h = History::new(1);
    h.apply("CreateQueue", &json!({"QueueName": "q"})).unwrap();
    h.advance_to(SimTime(5000));
    h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": "x"})).unwrap();
    let with = h.sim().snapshot();
    assert!(h.undo());
    assert_eq!(h.sim().now(), SimTime(5000));
    assert_eq!(h.sim().snapshot().queues[0].visible, 0);
    assert!(h.redo());
    assert_eq!(h.sim().snapshot(), with);
    assert!(h.undo() && h.undo());
    assert!(h.sim().snapshot().queues.is_empty());
    assert!(!h.undo());
    h.apply("CreateQueue", &json!({"QueueName": "other"})).unwrap();
    assert!(!h.can_redo(), "a new command clears what could be redone");
}

#[test]
fn redo_returns_to_the_moment_undo_left_clock_included() {
    // A message sent at 5 s with a 2 s visibility timeout, received, then played on to 34 s:
    // undo goes back to 5 s as if the receive had not been; redo brings back 34 s, and the
    // state there (the message visible again after its timeout) is the one undo left.
    let mut h = History::new(3);
    h.apply("CreateQueue", &json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "2"}})).unwrap();
    h.advance_to(SimTime(5000));
    h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": "x"})).unwrap();
    h.apply("ReceiveMessage", &json!({"QueueUrl": "q"})).unwrap();
    h.advance_to(SimTime(34_000));
    let (played, events) = (h.sim().snapshot(), h.sim().events().len());
    assert!(h.undo());
    assert_eq!(h.sim().now(), SimTime(5000), "undo returns to the command's moment");
    assert_eq!(h.sim().snapshot().queues[0].in_flight, 0);
    assert!(h.redo());
    assert_eq!(h.sim().now(), SimTime(34_000), "redo brings the played time back");
    assert_eq!(h.sim().snapshot(), played);
    assert_eq!(h.sim().events().len(), events);
    // Twice over, and the other way round, it stays exact.
    assert!(h.undo() && h.undo());
    assert!(h.redo() && h.redo());
    assert_eq!(h.sim().snapshot(), played);
}

#[test]
fn a_failed_command_is_not_recorded() {
    let mut h = History::new(1);
    assert!(h.apply("SendMessage", &json!({"QueueUrl": "nope", "MessageBody": "x"})).is_err());
    assert!(h.commands().is_empty());
}

#[test]
fn a_story_rebuilds_from_its_commands() {
    let h = story();
    let copy = History::from_commands(h.seed(), h.commands()).unwrap();
    assert_eq!(copy.sim().snapshot(), h.sim().snapshot());
    let mut broken = h.commands().to_vec();
    broken[1].params = json!({"QueueName": "bad name!"});
    assert_eq!(History::from_commands(h.seed(), &broken).unwrap_err().0, 1);
}

#[test]
fn the_timeline_keeps_its_length_after_seeking_back_until_the_story_forks() {
    let mut h = History::new(1);
    h.apply("CreateQueue", &json!({"QueueName": "q"})).unwrap();
    h.advance_to(SimTime(30_000));
    h.seek(SimTime(10_000));
    assert_eq!(h.end(), SimTime(30_000), "played to 30 s, looking at 10 s");
    h.seek(SimTime(30_000));
    assert_eq!(h.sim().now(), SimTime(30_000));
    h.seek(SimTime(10_000));
    h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": "fork"})).unwrap();
    assert_eq!(h.end(), SimTime(10_000), "acting at 10 s discarded the rest");
}

/// The story up to `t` replayed on a bare Sim: what any moment must be, checkpoints or not.
fn replayed(h: &History, t: u64) -> engine::Sim {
    let mut sim = engine::Sim::new(h.seed());
    for c in h.commands().iter().filter(|c| c.at <= SimTime(t)) {
        sim.advance_to(c.at);
        sim.apply(&c.action, &c.params).expect("a recorded command replays");
    }
    sim.advance_to(SimTime(t));
    sim
}

#[test]
fn seeking_back_rebuilds_the_event_log_byte_for_byte() {
    // A checkpoint keeps no events of its own: going back cuts the story's log to the moment,
    // and that must be exactly the log of the story replayed from the start.
    let mut h = story();
    for t in [590_000, 123_456, 400, 300_000, 0] {
        h.seek(SimTime(t));
        let truth = replayed(&h, t);
        assert_eq!(engine::event_log_jsonl(h.sim().events()), engine::event_log_jsonl(truth.events()), "at {t} ms");
        assert_eq!(h.sim().snapshot(), truth.snapshot(), "at {t} ms");
    }
}

#[test]
fn a_story_with_its_event_log_off_still_travels() {
    // Without a log there are no checkpoints but the first: going back replays from the start.
    let logged = story();
    let mut h = History::new(9);
    h.set_event_recording(false);
    for c in logged.commands() {
        h.advance_to(c.at);
        h.apply(&c.action, &c.params).unwrap();
    }
    h.seek(SimTime(123_456));
    assert!(h.sim().events().is_empty());
    let (mut want, got) = (replayed(&logged, 123_456).snapshot(), h.sim().snapshot());
    want.events = 0;
    assert_eq!(got, want);
}

#[test]
fn a_burst_of_commands_at_one_moment_is_rebuilt_exactly_from_a_checkpoint_inside_it() {
    // 1,500 sends at 0 s log far more events than one checkpoint's take, so checkpoints fall
    // between commands of the same moment; a seek to 0 s must still apply every one of them.
    let burst = || {
        let mut h = History::new(3);
        h.apply("CreateQueue", &json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "5"}})).unwrap();
        for i in 0..1500u64 {
            h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": format!("m{i}")})).unwrap();
            if i % 100 == 0 {
                h.apply("ReceiveMessage", &json!({"QueueUrl": "q", "MaxNumberOfMessages": 10})).unwrap();
            }
        }
        h
    };
    let mut straight = burst();
    let at_zero = at(&mut straight, 0);
    assert_eq!(at_zero.0.queues[0].visible + at_zero.0.queues[0].in_flight, 1500);
    let mut h = burst();
    h.advance_to(SimTime(60_000));
    let later = at(&mut h, 60_000);
    assert_eq!(at(&mut h, 0), at_zero);
    assert_eq!(at(&mut h, 60_000), later);
    assert_eq!(at(&mut h, 0), at_zero);
}

#[test]
fn a_seek_back_into_a_quiet_stretch_is_the_moment_a_straight_run_reaches() {
    // A message received at 1 s with a 30 s visibility timeout: nothing happens from 1 s until
    // it is visible again at 31 s, and nothing after that.
    let quiet = |until: u64| {
        let mut h = History::new(5);
        h.apply("CreateQueue", &json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "30"}})).unwrap();
        h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": "x"})).unwrap();
        h.advance_to(SimTime(1_000));
        h.apply("ReceiveMessage", &json!({"QueueUrl": "q"})).unwrap();
        h.advance_to(SimTime(until));
        h
    };
    let mut h = quiet(90_000);
    for t in [60_000, 31_000, 20_000, 1_000, 45_000, 10_000, 500] {
        let mut straight = quiet(t);
        assert_eq!(at(&mut h, t), at(&mut straight, t), "at {t} ms");
        assert_eq!(h.sim().next_event_at(), straight.sim().next_event_at(), "what comes next, at {t} ms");
    }
    assert_eq!(h.end(), SimTime(90_000), "the timeline keeps its length");
    h.seek(SimTime(20_000));
    assert_eq!(h.step(), Some(SimTime(31_000)), "the visibility timer is still ahead");
    assert_eq!(h.sim().snapshot().queues[0].visible, 1);
}
