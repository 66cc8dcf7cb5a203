//! The same scenario and seed give a byte-identical event log. The log of the determinism
//! scenario is kept in `tests/golden/`; the app's wasm tests compare a browser run with the same
//! file, so a native run and a WebAssembly run are checked against each other.
//! Regenerate after an intended change with `FANOUT_BLESS=1 cargo test --test golden`.

use engine::{event_log_jsonl, Scenario};

const SCENARIO: &str = include_str!("golden/determinism.json");
const GOLDEN_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/determinism.events.jsonl");

fn log() -> String {
    let scenario = Scenario::parse(SCENARIO).expect("the determinism scenario parses");
    let run = scenario.run();
    assert!(run.stopped.is_none(), "the determinism scenario runs to its end");
    event_log_jsonl(run.events())
}

#[test]
fn two_runs_with_one_seed_give_the_same_log() {
    assert_eq!(log(), log());
}

#[test]
fn the_log_matches_the_committed_golden_file() {
    let log = log();
    if std::env::var_os("FANOUT_BLESS").is_some() {
        std::fs::write(GOLDEN_PATH, &log).expect("golden file written");
    }
    let golden = std::fs::read_to_string(GOLDEN_PATH).expect("golden file present");
    assert!(log.lines().count() > 300, "the scenario exercises enough to be worth comparing");
    if log != golden {
        let first = log.lines().zip(golden.lines()).position(|(a, b)| a != b);
        panic!("the event log differs from the golden file (first differing line: {first:?}); if the change is intended, run FANOUT_BLESS=1 cargo test --test golden");
    }
}

#[test]
fn another_seed_tells_another_story() {
    let other = SCENARIO.replace("\"seed\": 20261129", "\"seed\": 7");
    assert_ne!(other, SCENARIO, "the seed was replaced");
    let run = Scenario::parse(&other).unwrap().run();
    assert_ne!(event_log_jsonl(run.events()), log());
}
