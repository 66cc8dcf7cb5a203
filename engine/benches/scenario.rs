//! The scenario pipeline (`fanout test FILE`) on a fan-out load: a generated scenario file
//! creates a topic with five raw-delivery queue subscriptions, publishes N messages, then drains
//! every queue with ReceiveMessage (10 at a time, saving the ten receipt handles) and
//! DeleteMessageBatch (using them as `${h0}`…`${h9}`, expecting no failures), and finally checks
//! that every queue is empty. Times parsing it, running it as `fanout test` does (event log off)
//! and as the page loads it (event log on, checkpoints for time travel), per step of the file.
//!
//! Then scrubs a 10,000-event story (seek to random moments, each with the page's snapshot), the
//! time travel the checkpoints are for.
//!
//! `cargo bench -p fanout-engine --bench scenario`; `FANOUT_BENCH_PUBLISHES=500` changes N
//! (default 2,000), `FANOUT_BENCH_RUNS=1` the number of runs (default 5), and `FANOUT_BENCH_WRITE=path.json` also writes the generated file there, to
//! time `fanout test path.json` end to end.
use engine::history::History;
use engine::scenario::{RunOptions, Scenario};
use engine::SimTime;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const QUEUES: [&str; 5] = ["billing", "packing", "sms", "audit", "search"];
const BATCH: usize = 10;

/// The scenario file: setup, `n` publishes, then the drain of every queue and a final check.
fn scenario(n: usize) -> String {
    let mut steps = vec![json!({"action": "CreateTopic", "params": {"Name": "orders"}})];
    for q in QUEUES {
        steps.push(json!({"action": "CreateQueue", "params": {"QueueName": q}}));
        steps.push(json!({"action": "Subscribe", "params": {"TopicArn": "orders", "Protocol": "sqs",
            "Endpoint": format!("arn:aws:sqs:us-east-1:000000000000:{q}"), "Attributes": {"RawMessageDelivery": "true"}}}));
    }
    for i in 0..n {
        let body = json!({"order_id": 4417 + i, "event_type": "OrderPlaced", "total": 129}).to_string();
        steps.push(json!({"action": "Publish", "params": {"TopicArn": "orders", "Message": body,
            "MessageAttributes": {"event_type": {"DataType": "String", "StringValue": "OrderPlaced"}}}}));
    }
    let save: serde_json::Map<String, Value> =
        (0..BATCH).map(|i| (format!("h{i}"), json!(format!("Messages.{i}.ReceiptHandle")))).collect();
    let entries: Vec<Value> =
        (0..BATCH).map(|i| json!({"Id": i.to_string(), "ReceiptHandle": format!("${{h{i}}}")})).collect();
    for q in QUEUES {
        for _ in 0..n / BATCH {
            steps.push(json!({"action": "ReceiveMessage", "params": {"QueueUrl": q, "MaxNumberOfMessages": BATCH},
                "save": save}));
            steps.push(json!({"action": "DeleteMessageBatch", "params": {"QueueUrl": q, "Entries": entries},
                "expect": {"Failed": []}}));
        }
        steps.push(json!({"action": "GetQueueAttributes", "params": {"QueueUrl": q, "AttributeNames": ["All"]},
            "expect": {"Attributes": {"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesNotVisible": "0"}}}));
    }
    json!({"name": format!("fan-out of {n} publishes to {} queues", QUEUES.len()), "seed": 1, "steps": steps})
        .to_string()
}

struct Measured {
    parse: Duration,
    /// As `fanout test` runs it: the event log off.
    test: Duration,
    /// As the page loads it: the event log on, with checkpoints for time travel.
    page: Duration,
    steps: usize,
    events: usize,
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

fn measure(text: &str) -> Measured {
    let (scenario, parse) =
        timed(|| Scenario::parse(text).unwrap_or_else(|e| panic!("the generated scenario parses: {e}")));
    let (run, test) = timed(|| scenario.run_with(RunOptions { event_log: false, responses: false }));
    assert!(run.stopped.is_none() && run.failed() == 0, "every expectation holds: {:?}", run.stopped);
    drop(run);
    let (run, page) = timed(|| scenario.run_with(RunOptions { event_log: true, responses: false }));
    assert!(run.stopped.is_none() && run.failed() == 0, "every expectation holds: {:?}", run.stopped);
    let measured = Measured { parse, test, page, steps: scenario.steps.len(), events: run.events().len() };
    drop(run);
    measured
}

/// A story of about 10,000 events, like the page's when it has played a while: sends every
/// 400 ms to a queue with a 2 s visibility timeout, a receive every other send, duplicates on.
fn long_story() -> History {
    let mut h = History::new(9);
    let ok = |r: Result<Value, engine::ApiError>| r.unwrap_or_else(|e| panic!("{e}"));
    ok(h.apply("ConfigureSimulation", &json!({"DuplicateDeliveryProbability": "0.3"})));
    ok(h.apply("CreateQueue", &json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "2"}})));
    let mut i = 0u64;
    while h.sim().events().len() < 10_000 {
        h.advance_to(SimTime(i * 400));
        ok(h.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": format!("m{i}")})));
        if i.is_multiple_of(2) {
            ok(h.apply("ReceiveMessage", &json!({"QueueUrl": "q", "MaxNumberOfMessages": 3})));
        }
        i += 1;
    }
    h
}

/// Scrubs the long story: seeks to 400 moments spread by a fixed generator, each followed by the
/// page's snapshot (200 messages a queue). Returns the time of each seek plus snapshot.
fn scrub() -> (usize, Vec<Duration>) {
    let mut h = long_story();
    let (events, end) = (h.sim().events().len(), h.end().0);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let times = (0..400)
        .map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let t = SimTime((x >> 33) % (end + 1));
            timed(|| {
                h.seek(t);
                h.sim().snapshot_limited(200)
            })
            .1
        })
        .collect();
    (events, times)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let n: usize = std::env::var("FANOUT_BENCH_PUBLISHES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000);
    let runs: usize = std::env::var("FANOUT_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let text = scenario(n);
    if let Ok(path) = std::env::var("FANOUT_BENCH_WRITE") {
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        println!("wrote {path} ({} bytes)", text.len());
    }
    println!("Scenario pipeline: a generated file of N publishes to 5 raw queues, drained with");
    println!("ReceiveMessage (10, saving handles) + DeleteMessageBatch (${{h0}}…, expect): parse it, run it as");
    println!("`fanout test` does (event log off), and as the page loads it (log on, checkpoints).");
    println!();
    println!(
        "{:>6} {:>6} {:>7} | {:>8} {:>8} {:>8} | {:>12} {:>12}",
        "N", "steps", "events", "parse", "test", "page", "µs/step test", "µs/step page"
    );
    println!("{}", "-".repeat(82));
    for _ in 0..runs {
        let m = measure(&text);
        let per_step = |d: Duration| (m.parse + d).as_secs_f64() * 1e6 / m.steps as f64;
        println!(
            "{:>6} {:>6} {:>7} | {:>6.1}ms {:>6.1}ms {:>6.1}ms | {:>12.2} {:>12.2}",
            n,
            m.steps,
            m.events,
            ms(m.parse),
            ms(m.test),
            ms(m.page),
            per_step(m.test),
            per_step(m.page),
        );
    }
    println!();
    println!("µs/step: parse plus run, per step of the file.");
    let (events, mut times) = scrub();
    times.sort();
    let at = |q: usize| ms(times[(times.len() * q / 100).min(times.len() - 1)]);
    println!();
    println!(
        "Seek + snapshot in a {events}-event story, {} random moments: p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        times.len(),
        at(50),
        at(95),
        ms(*times.last().expect("some seeks"))
    );
}
