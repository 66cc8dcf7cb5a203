//! Share links: a round trip for every built-in scenario with a random command log, and one
//! test per kind of bad link, each refused with its own message.

use super::*;
use crate::playground::{Playground, SCENARIOS};
use proptest::prelude::*;

/// The whole way a link goes, but for the browser's deflate: JSON, frame, base64url, and back.
fn through_link(share: &Share) -> Result<Playground, BadLink> {
    let link = to_base64url(&frame(&share.to_json()));
    let bytes = payload(&link)?;
    let parsed = Share::parse(unframe(&bytes)?)?;
    assert_eq!(&parsed, share, "the link reads back as it was written");
    parsed.replay()
}

/// One learner's action, from a random number: publish, play on, add or crash a worker,
/// receive, purge, step back.
fn act(pg: &mut Playground, op: u8, arg: u16) {
    let queues: Vec<String> = pg.snapshot().queues.iter().map(|q| q.name.clone()).collect();
    // A scenario with no queue (a Lambda function's story) gets an unknown queue: the engine refuses.
    let queue = queues.get(arg as usize % queues.len().max(1)).map_or("none", String::as_str);
    let _ = match op % 7 {
        0 | 1 => {
            let names: Vec<String> = pg.presets().iter().map(|p| p.name.clone()).collect();
            if names.is_empty() {
                return;
            }
            pg.publish(&names[arg as usize % names.len()]).map(|_| ())
        }
        2 => {
            pg.play_for(u64::from(arg) * 10);
            Ok(())
        }
        3 => pg.add_worker(queue).map(|_| ()),
        4 => {
            let workers: Vec<String> = pg.snapshot().world.workers.iter().map(|w| w.name.clone()).collect();
            match workers.first() {
                Some(w) => pg.worker("CrashWorker", w).map(|_| ()),
                None => Ok(()),
            }
        }
        5 => pg.receive(queue).map(|_| ()),
        _ => pg.purge(queue).map(|_| ()),
    };
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn a_link_replays_the_same_clock_counts_and_event_log(
        scenario in 0..SCENARIOS.len(),
        ops in proptest::collection::vec((any::<u8>(), any::<u16>()), 0..25),
        back in any::<u16>(),
    ) {
        let mut pg = Playground::builtin(SCENARIOS[scenario].0).unwrap();
        for (op, arg) in ops {
            act(&mut pg, op, arg);
        }
        // Sometimes shared from a moment before the story's end (after a scrub back).
        if back % 3 == 0 {
            let t = pg.now().ms().saturating_sub(u64::from(back));
            pg.seek(SimTime(t));
        }
        let pick = pg.snapshot().queues.first().map(|q| Pick::Queue(q.name.clone()));
        let share = Share::of(&pg, pick);
        let copy = through_link(&share).unwrap_or_else(|e| panic!("{}: {e}", SCENARIOS[scenario].0));
        prop_assert_eq!(copy.now(), pg.now());
        prop_assert_eq!(copy.snapshot(), pg.snapshot());
        prop_assert_eq!(copy.events(), pg.events());
        prop_assert_eq!(copy.history().commands(), pg.history().commands());
    }
}

#[test]
fn a_story_loaded_from_a_file_travels_whole_in_its_link() {
    let text = SCENARIOS[3].1.replace("\"seed\"", "\"description\": \"mine\", \"seed\"");
    let mut pg = Playground::from_scenario(&text).unwrap();
    pg.publish("OrderPlaced").unwrap();
    let share = Share::of(&pg, None);
    assert!(matches!(share.start, Start::File(_)));
    assert_eq!(through_link(&share).unwrap().snapshot(), pg.snapshot());
}

fn link_of(pg: &Playground) -> String {
    to_base64url(&frame(&Share::of(pg, None).to_json()))
}

/// Opens a link as the page does (without deflate); the message, when it is refused.
fn open(link: &str) -> Result<Playground, String> {
    let bytes = payload(link).map_err(|e| e.to_string())?;
    let text = unframe(&bytes).map_err(|e| e.to_string())?;
    Share::parse(text).and_then(|s| s.replay()).map_err(|e| e.to_string())
}

fn open_json(json: &str) -> String {
    open(&to_base64url(&frame(json))).expect_err("refused")
}

fn quilt_with_publishes() -> Playground {
    let mut pg = Playground::builtin("quilt-store").unwrap();
    pg.publish("OrderPlaced").unwrap();
    pg.play_for(1_500);
    pg.publish("RefundIssued").unwrap();
    pg
}

#[test]
fn a_truncated_link_is_damaged() {
    let link = link_of(&quilt_with_publishes());
    let cut = &link[..link.len() - 8];
    assert_eq!(open(cut).err().unwrap(), BadLink::Damaged.to_string());
}

#[test]
fn a_tampered_link_is_damaged() {
    let link = link_of(&quilt_with_publishes());
    let mut chars: Vec<char> = link.chars().collect();
    let i = chars.len() / 2;
    chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
    let tampered: String = chars.into_iter().collect();
    assert_eq!(open(&tampered).err().unwrap(), BadLink::Damaged.to_string());
}

#[test]
fn a_link_that_is_not_base64url_says_so() {
    let e = open("eyJ2Ijox+/==").err().unwrap();
    assert!(e.contains("not base64url"), "{e}");
    // Letters a link has, in a number no link has: cut short, not foreign.
    assert!(open("abcde").err().unwrap().contains("cut short"), "an impossible length");
}

#[test]
fn json_of_the_wrong_shape_names_what_is_wrong() {
    assert!(open_json("[1, 2, 3]").contains("not a JSON object"));
    assert!(open_json(r#"{"v": 1, "scenario": "quilt-store", "seed": 7, "now": 0, "log": "x"}"#).contains("\"log\""));
    let e = open_json(r#"{"v": 1, "scenario": "quilt-store", "seed": 7, "now": 0, "log": [[0, "Publish"]]}"#);
    assert!(e.contains("command 1 is not [time in ms, action, parameters]"), "{e}");
    assert!(open_json("{not json").contains("not JSON"));
    assert!(open_json(r#"{"v": 1, "scenario": "quilt-store", "seed": 8, "now": 0, "log": []}"#).contains("seed 8"));
}

#[test]
fn a_newer_format_asks_for_a_newer_page() {
    let e = open_json(r#"{"v": 2, "scenario": "quilt-store", "seed": 7, "now": 0, "log": []}"#);
    assert_eq!(e, BadLink::Newer(2).to_string());
    assert!(e.contains("newer playground (format 2"), "{e}");
}

#[test]
fn a_command_the_engine_refuses_is_named_with_its_error() {
    let seed = Playground::builtin("quilt-store").unwrap().history().seed();
    let json = format!(
        r#"{{"v": 1, "scenario": "quilt-store", "seed": {seed}, "now": 0, "log": [[0, "PurgeQueue", {{"QueueUrl": "no-such-queue"}}]]}}"#
    );
    let e = open_json(&json);
    assert!(e.contains("command 1 (PurgeQueue at") && e.contains("QueueDoesNotExist"), "{e}");
}

#[test]
fn an_unknown_scenario_is_refused() {
    let e = open_json(r#"{"v": 1, "scenario": "quilt-stroe", "seed": 7, "now": 0, "log": []}"#);
    assert!(e.contains("its scenario does not load") && e.contains("quilt-stroe"), "{e}");
}

#[test]
fn too_large_links_are_refused_before_the_work() {
    let long = "A".repeat(MAX_LINK_CHARS + 4);
    assert!(open(&long).err().unwrap().contains("too large"));
    let inflated = vec![b' '; MAX_DECODED_BYTES + 1];
    assert!(unframe(&inflated).unwrap_err().to_string().contains("too large"));
    let seed = Playground::builtin("quilt-store").unwrap().history().seed();
    let far =
        format!(r#"{{"v": 1, "scenario": "quilt-store", "seed": {seed}, "now": {}, "log": []}}"#, MAX_TIME_MS + 1);
    assert!(open_json(&far).contains("too large"));
    let many = format!(
        r#"{{"v": 1, "scenario": "quilt-store", "seed": {seed}, "now": 0, "log": [{}]}}"#,
        vec![r#"[0, "ListQueues", {}]"#; MAX_COMMANDS + 1].join(",")
    );
    assert!(open_json(&many).contains("commands; at most"));
}

#[test]
fn base64url_round_trips_every_length() {
    for n in 0..40u8 {
        let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37).wrapping_add(n)).collect();
        assert_eq!(from_base64url(&to_base64url(&bytes)).unwrap(), bytes, "{n} bytes");
    }
    assert_eq!(to_base64url(b"\xfb\xff"), "-_8");
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926, "the standard check value");
}

#[test]
fn a_link_carries_the_speed_and_any_selection() {
    let mut pg = Playground::builtin("eventbridge-orders").unwrap();
    pg.publish("BigOrder").unwrap();
    for pick in [Pick::Rule("shop/big-orders".into()), Pick::Service("shop-outbox".into()), Pick::Queue("audit".into())]
    {
        let mut share = Share::of(&pg, Some(pick.clone()));
        share.speed = Some(4);
        let text = share.to_json();
        assert!(text.contains("\"speed\":\"4×\""), "{text}");
        let back = Share::parse(&text).unwrap();
        assert_eq!((back.pick, back.speed), (Some(pick), Some(4)));
    }
    // A link made before the speed was carried opens at the scenario's speed.
    let old = Share::of(&pg, None).to_json();
    assert_eq!(Share::parse(&old).unwrap().speed, None);
    let bad = old.replace("\"v\":1", "\"v\":1,\"speed\":\"9×\"");
    assert!(matches!(Share::parse(&bad), Err(BadLink::WrongShape(w)) if w.contains("\"9×\" is not one of")));
}

#[test]
fn a_link_cut_to_an_impossible_length_is_cut_short_not_foreign() {
    let link = link_of(&quilt_with_publishes());
    // Some cut of the last five characters leaves a length no base64url text has (4n + 1).
    let cut = (1..=5).map(|k| &link[..link.len() - k]).find(|l| l.len() % 4 == 1).expect("a cut of length 4n+1");
    assert_eq!(payload(cut), Err(BadLink::Damaged));
    assert_eq!(payload(&format!("{link}%%")), Err(BadLink::NotBase64));
}
