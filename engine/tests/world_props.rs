//! Properties of the simulated world over random crashes, duplicates, reorderings and failures:
//! atomic idempotency never repeats a side effect, and no published event is ever lost.
#[path = "world_helpers.rs"]
mod helpers;
use engine::{Sim, SimTime};
use helpers::*;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
struct Chaos {
    seed: u64,
    duplicate: &'static str,
    reorder: &'static str,
    failure: &'static str,
    workers: usize,
    max_messages: u32,
    visibility: u32,
    events: u64,
    duplicate_every: u64,
    poison_every: u64,
    lambda: bool,
    report_failures: bool,
    /// (second, worker, crash after the side effect rather than now, seconds until restart)
    crashes: Vec<(u64, usize, bool, u64)>,
}

fn chaos() -> impl Strategy<Value = Chaos> {
    (
        (any::<u64>(), prop::sample::select(vec!["0", "0.1", "0.5"]), prop::sample::select(vec!["0", "0.3"])),
        (prop::sample::select(vec!["0", "0.1", "0.3"]), 1usize..4, 1u32..=10, 1u32..15),
        (5u64..50, 0u64..4, 0u64..7, any::<bool>(), any::<bool>()),
        prop::collection::vec((0u64..300, 0usize..4, any::<bool>(), 1u64..40), 0..6),
    )
        .prop_map(|((seed, duplicate, reorder), (failure, workers, max_messages, visibility), rest, crashes)| {
            let (events, duplicate_every, poison_every, lambda, report_failures) = rest;
            Chaos {
                seed,
                duplicate,
                reorder,
                failure,
                workers,
                max_messages,
                visibility,
                events,
                duplicate_every,
                poison_every,
                lambda,
                report_failures,
                crashes,
            }
        })
}

/// Runs the chaos for an hour of virtual time with consumers in `mode`; returns the simulation.
fn run(c: &Chaos, mode: &str) -> Sim {
    let mut sim = Sim::new(c.seed);
    ok(
        &mut sim,
        "ConfigureSimulation",
        json!({"DuplicateDeliveryProbability": c.duplicate, "ReorderProbability": c.reorder}),
    );
    queue_with_dlq(&mut sim, "q", c.visibility.max(if c.lambda { 3 } else { 1 }), 4);
    let behavior = json!({"Job": "j", "Idempotency": mode, "FailureProbability": c.failure,
        "ProcessingTime": {"Min": "10ms", "Max": "2s"}, "Poison": {"Field": "data.phone", "LengthBelow": 13}});
    if c.lambda {
        ok(&mut sim, "CreateFunction", json!({"FunctionName": "f", "Behavior": behavior}));
        let types = if c.report_failures { json!(["ReportBatchItemFailures"]) } else { json!([]) };
        ok(
            &mut sim,
            "CreateEventSourceMapping",
            json!({"EventSourceArn": "arn:aws:sqs:us-east-1:000000000000:q",
            "FunctionName": "f", "BatchSize": c.max_messages, "FunctionResponseTypes": types}),
        );
    }
    for w in 0..c.workers {
        let mut p = behavior.clone();
        p["WorkerName"] = json!(format!("w{w}"));
        p["QueueUrl"] = json!("q");
        p["MaxNumberOfMessages"] = json!(c.max_messages);
        ok(&mut sim, "CreateWorker", p);
    }
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q",
        "Count": c.events, "Interval": "500ms", "DuplicateEvery": c.duplicate_every, "PoisonEvery": c.poison_every}),
    );
    let mut plan: Vec<(u64, String, Value)> = Vec::new();
    for &(at, w, after_effect, restart) in &c.crashes {
        let name = format!("w{}", w % c.workers);
        let when = if after_effect { "AfterSideEffect" } else { "Now" };
        plan.push((at * 1000, "CrashWorker".into(), json!({"WorkerName": name, "When": when})));
        plan.push(((at + restart) * 1000, "RestartWorker".into(), json!({"WorkerName": name})));
    }
    plan.sort_by_key(|(t, _, _)| *t);
    for (t, action, params) in plan {
        sim.advance_to(SimTime(t));
        // A crash of a crashed worker or a restart of a running one is refused: that is fine here.
        let _ = sim.apply(&action, &params);
    }
    for w in 0..c.workers {
        let _ = sim.apply("RestartWorker", &json!({"WorkerName": format!("w{w}")}));
    }
    sim.advance_to(SimTime(3_600_000));
    sim
}

/// The event ids of every message still stored in `queue_name`, whatever its state.
fn stored_event_ids(sim: &Sim, queue_name: &str) -> BTreeSet<String> {
    let snapshot = sim.snapshot();
    let q = snapshot.queues.iter().find(|q| q.name == queue_name).unwrap();
    q.messages
        .iter()
        .filter_map(|m| serde_json::from_str::<Value>(&m.body).ok())
        .filter_map(|b| b["event_id"].as_str().map(str::to_string))
        .collect()
}

/// The number of cases, or `WORLD_PROPTEST_CASES` for a deeper sweep.
fn cases(default: u32) -> u32 {
    std::env::var("WORLD_PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(48), ..ProptestConfig::default() })]

    #[test]
    fn with_atomic_idempotency_no_side_effect_ever_happens_twice(c in chaos()) {
        // Seeds: saving the event id and the effect in one transaction makes a duplicate a no-op,
        // whatever the crashes (even between effect and delete) and the at-least-once duplicates.
        let mut sim = run(&c, "Atomic");
        let j = job(&mut sim, "j", &[]);
        prop_assert_eq!(&j["DuplicateSideEffects"], &json!(0), "seed {}: {}", c.seed, j);
        prop_assert_eq!(&j["DuplicatedEvents"], &json!([]));
    }

    #[test]
    fn every_published_event_ends_processed_in_a_dlq_or_still_queued(c in chaos()) {
        // SQS: a message leaves a queue only by DeleteMessage, redrive to the DLQ, or retention;
        // with four days of retention, an event is never lost within an hour.
        let mut sim = run(&c, "None");
        let queued: BTreeSet<String> = stored_event_ids(&sim, "q").union(&stored_event_ids(&sim, "q-dlq")).cloned().collect();
        let ids: Vec<String> = (0..c.events).map(|i| format!("evt-{}", 4401 + i)).collect();
        let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let mut lost = Vec::new();
        for chunk in id_refs.chunks(100) {
            let effects = job(&mut sim, "j", chunk)["EffectsByEvent"].clone();
            lost.extend(chunk.iter().filter(|id| effects[**id] == 0 && !queued.contains(**id)).map(|s| s.to_string()));
        }
        prop_assert!(lost.is_empty(), "seed {}: lost {:?}", c.seed, lost);
    }
}
