//! Random redrive graphs, cycles included, with consumers on the queues, for a virtual hour: the
//! run always ends, no virtual moment holds more than a few events per message and consumer (a
//! chain of zero-time reactions would hold them without end), the hour holds a bounded number of
//! events, and no message is lost or made up. See `redrive_cycles.rs` for the AWS facts.
mod common;
use engine::{EventKind, Sim, SimTime};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::Duration;

const ARN: &str = "arn:aws:sqs:us-east-1:000000000000:";
const HOUR_MS: u64 = 3_600_000;

#[derive(Clone, Debug)]
struct Consumer {
    /// WaitTimeSeconds: 0 is short polling (again after 1 s), else long polling.
    wait_seconds: u32,
    max_messages: u32,
    /// The receive's own VisibilityTimeout, or the queue's.
    visibility: Option<u32>,
    failure: &'static str,
    processing: &'static str,
}

#[derive(Clone, Debug)]
struct QueueSpec {
    visibility: u32,
    /// The dead-letter queue (an index into the graph's queues: itself, or another that may
    /// lead back) and maxReceiveCount.
    redrive: Option<(usize, u32)>,
    consumers: Vec<Consumer>,
    /// A Lambda function reading the queue through an event source mapping: its batch size.
    lambda: Option<u32>,
}

#[derive(Clone, Debug)]
struct Graph {
    seed: u64,
    fifo: bool,
    queues: Vec<QueueSpec>,
    /// (virtual second, queue) of each send.
    sends: Vec<(u64, usize)>,
}

fn consumer() -> impl Strategy<Value = Consumer> {
    (
        prop::sample::select(vec![0u32, 1, 20]),
        1u32..=10,
        prop::option::of(prop::sample::select(vec![0u32, 2, 30])),
        prop::sample::select(vec!["0", "0.5", "1", "1"]),
        prop::sample::select(vec!["200ms", "1s", "5s"]),
    )
        .prop_map(|(wait_seconds, max_messages, visibility, failure, processing)| Consumer {
            wait_seconds,
            max_messages,
            visibility,
            failure,
            processing,
        })
}

fn graph() -> impl Strategy<Value = Graph> {
    (1usize..=5).prop_flat_map(|n| {
        // Mostly with a redrive policy, so that most graphs hold a cycle (or a queue that is its
        // own dead-letter queue), and mostly with a consumer.
        let redrive = prop_oneof![1 => Just(None), 4 => (0..n, 1u32..=4).prop_map(Some)];
        let queue = (
            prop::sample::select(vec![0u32, 1, 5, 30]),
            redrive,
            prop::collection::vec(consumer(), 0..=2),
            prop::option::of(prop::sample::select(vec![1u32, 10])),
        )
            .prop_map(|(visibility, redrive, consumers, lambda)| QueueSpec {
                visibility,
                redrive,
                consumers,
                lambda,
            });
        (any::<u64>(), any::<bool>(), prop::collection::vec(queue, n), prop::collection::vec((0u64..600, 0..n), 1..=12))
            .prop_map(|(seed, fifo, queues, sends)| Graph { seed, fifo, queues, sends })
    })
}

fn name(g: &Graph, i: usize) -> String {
    if g.fifo {
        format!("q{i}.fifo")
    } else {
        format!("q{i}")
    }
}

fn apply(sim: &mut Sim, action: &str, params: Value) {
    sim.apply(action, &params).unwrap_or_else(|e| panic!("{action} {params}: {e}"));
}

/// The graph's queues (redrive policies set once all exist, so that they may form cycles), its
/// consumers, and its sends at their times, run to one virtual hour.
fn run(g: &Graph) -> Sim {
    let mut sim = Sim::new(g.seed);
    for (i, q) in g.queues.iter().enumerate() {
        // An event source mapping needs the queue's visibility timeout at least the function's (1 s).
        let visibility = if q.lambda.is_some() { q.visibility.max(1) } else { q.visibility };
        let mut attributes = json!({"VisibilityTimeout": visibility.to_string()});
        if g.fifo {
            attributes["FifoQueue"] = json!("true");
        }
        apply(&mut sim, "CreateQueue", json!({"QueueName": name(g, i), "Attributes": attributes}));
    }
    for (i, q) in g.queues.iter().enumerate() {
        let Some((dlq, max)) = q.redrive else { continue };
        let policy = json!({"deadLetterTargetArn": format!("{ARN}{}", name(g, dlq)), "maxReceiveCount": max});
        let attributes = json!({"RedrivePolicy": policy.to_string()});
        apply(&mut sim, "SetQueueAttributes", json!({"QueueUrl": name(g, i), "Attributes": attributes}));
    }
    for (i, q) in g.queues.iter().enumerate() {
        for (k, c) in q.consumers.iter().enumerate() {
            let mut p = json!({"WorkerName": format!("w{i}-{k}"), "QueueUrl": name(g, i),
                "WaitTimeSeconds": c.wait_seconds, "MaxNumberOfMessages": c.max_messages,
                "FailureProbability": c.failure, "ProcessingTime": c.processing});
            if let Some(v) = c.visibility {
                p["VisibilityTimeout"] = json!(v);
            }
            apply(&mut sim, "CreateWorker", p);
        }
        if let Some(batch) = q.lambda {
            let behavior = json!({"ProcessingTime": "500ms", "FailureProbability": "0.5"});
            let function = json!({"FunctionName": format!("f{i}"), "Timeout": 1, "Behavior": behavior});
            apply(&mut sim, "CreateFunction", function);
            let mapping = json!({"EventSourceArn": format!("{ARN}{}", name(g, i)), "FunctionName": format!("f{i}"),
                "BatchSize": batch});
            apply(&mut sim, "CreateEventSourceMapping", mapping);
        }
    }
    let mut sends = g.sends.clone();
    sends.sort();
    for (n, (second, queue)) in sends.iter().enumerate() {
        sim.advance_to(SimTime(second * 1000));
        let mut p = json!({"QueueUrl": name(g, *queue), "MessageBody": format!("m{n}")});
        if g.fifo {
            p["MessageGroupId"] = json!(format!("g{}", n % 3));
            p["MessageDeduplicationId"] = json!(format!("d{n}"));
        }
        apply(&mut sim, "SendMessage", p);
    }
    sim.advance_to(SimTime(HOUR_MS));
    sim
}

/// `run`, in a thread that must answer within 60 s (a loop cannot be interrupted).
fn run_within_a_minute(g: &Graph) -> Sim {
    let (done, finished) = mpsc::channel();
    let graph = g.clone();
    std::thread::spawn(move || {
        let _ = done.send(run(&graph));
    });
    match finished.recv_timeout(Duration::from_secs(60)) {
        Ok(sim) => sim,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("seed {}: an hour of {g:?} did not end within 60 s of real time", g.seed)
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("seed {}: the run of {g:?} panicked", g.seed),
    }
}

fn consumers(g: &Graph) -> usize {
    g.queues.iter().map(|q| q.consumers.len() + usize::from(q.lambda.is_some())).sum()
}

/// The most events one virtual moment may hold: at the moment, each message may be sent, moved
/// once by each receive there (one per consumer), received by each consumer, made visible, and
/// each consumer may start and end one poll and one processing step. A chain of wakes at one
/// moment would pass any such bound.
fn moment_bound(g: &Graph) -> usize {
    let (messages, consumers, queues) = (g.sends.len(), consumers(g), g.queues.len());
    8 * (messages + 1) * (consumers + queues + 1) + 8 * (consumers + queues)
}

/// The most events the hour may hold. Every consumer spends at least 200 ms on each message it
/// receives (a Lambda function 500 ms per batch) and at least 1 s between empty polls, so it
/// makes at most 5 receives a second with at most 10 messages each; each received message causes
/// a bounded number of events (received, processed or failed, visible again, moved, deleted).
fn hour_bound(g: &Graph) -> usize {
    let receives = consumers(g) * 5 * 3_600;
    100 + 8 * g.sends.len() + 12 * 10 * receives
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(40), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_redrive_graphs_with_consumers_run_an_hour_in_bounded_events(g in graph()) {
        let sim = run_within_a_minute(&g);
        let events = sim.events();
        prop_assert!(events.len() <= hour_bound(&g), "seed {}: {} events in the hour (bound {})", g.seed, events.len(), hour_bound(&g));
        let mut per_moment: BTreeMap<SimTime, usize> = BTreeMap::new();
        for e in events {
            *per_moment.entry(e.at).or_default() += 1;
        }
        let (busiest, count) = per_moment.iter().max_by_key(|(_, n)| **n).map(|(t, n)| (*t, *n)).unwrap_or_default();
        prop_assert!(count <= moment_bound(&g), "seed {}: {count} events at {busiest} (bound {})", g.seed, moment_bound(&g));
        // Nothing is lost or made up: each message sent is deleted once or still stored
        // (retention is four days; FIFO deduplication ids are all different).
        let deleted = events.iter().filter(|e| matches!(e.kind, EventKind::Deleted { .. })).count();
        let stored: usize = sim.snapshot().queues.iter().map(|q| q.visible + q.in_flight + q.delayed).sum();
        prop_assert_eq!(deleted + stored, g.sends.len(), "seed {}: sent {}, deleted {}, stored {}", g.seed, g.sends.len(), deleted, stored);
    }
}

/// The number of cases, or `REDRIVE_PROPTEST_CASES` for a deeper sweep.
fn cases(default: u32) -> u32 {
    std::env::var("REDRIVE_PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(default)
}

#[test]
fn a_three_queue_ring_whose_counts_are_spent_moves_its_message_round_at_the_workers_polls() {
    // a → b → c → a, maxReceiveCount 1 everywhere, a long-polling worker on each: once the
    // message has been received, it is moved on at each poll of the queue that holds it, and
    // the hour holds a few hundred moves, none two at one moment by the same queue.
    let g = Graph {
        seed: 7,
        fifo: false,
        queues: (0..3)
            .map(|i| QueueSpec {
                visibility: 1,
                redrive: Some(((i + 1) % 3, 1)),
                consumers: vec![Consumer {
                    wait_seconds: 20,
                    max_messages: 1,
                    visibility: None,
                    failure: "1",
                    processing: "1s",
                }],
                lambda: None,
            })
            .collect(),
        sends: vec![(0, 0)],
    };
    let sim = run_within_a_minute(&g);
    let moves: Vec<(SimTime, String)> = sim
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MovedToDeadLetterQueue { queue, .. } => Some((e.at, queue.to_string())),
            _ => None,
        })
        .collect();
    assert!((100..=1_000).contains(&moves.len()), "{} moves", moves.len());
    assert!(moves.windows(2).all(|w| w[0] != w[1]), "one queue moves it at most once a moment");
}
