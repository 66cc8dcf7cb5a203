//! Throughput of the engine on the fan-out path: publish N messages to a topic with five
//! raw-delivery queue subscriptions, then drain every queue with ReceiveMessage (10 at a time)
//! and DeleteMessageBatch. One operation is one message copy delivered, received or deleted
//! (15 per published message). Peak heap comes from a counting global allocator.
//!
//! `cargo bench -p fanout-engine --bench throughput`; `FANOUT_BENCH_MAX=100000` stops at that N.
use engine::Sim;
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// `System`, counting the bytes in use and the most ever in use.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = IN_USE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        IN_USE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, new_size);
        if !q.is_null() {
            IN_USE.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const QUEUES: [&str; 5] = ["billing", "packing", "sms", "audit", "search"];
const COPIES_OPS: u64 = 3; // delivered, received, deleted

fn ok(sim: &mut Sim, action: &str, params: &Value) -> Value {
    sim.apply(action, params).unwrap_or_else(|e| panic!("{action}: {e}"))
}

fn world(recording: bool) -> Sim {
    let mut sim = Sim::new(1);
    sim.set_event_recording(recording);
    ok(&mut sim, "CreateTopic", &json!({"Name": "orders"}));
    for q in QUEUES {
        ok(&mut sim, "CreateQueue", &json!({"QueueName": q}));
        let endpoint = format!("arn:aws:sqs:us-east-1:000000000000:{q}");
        let params = json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": endpoint,
                            "Attributes": {"RawMessageDelivery": "true"}});
        ok(&mut sim, "Subscribe", &params);
    }
    sim
}

/// Receives and deletes until the queue is empty; returns how many messages it drained.
fn drain(sim: &mut Sim, queue: &str) -> u64 {
    let receive = json!({"QueueUrl": queue, "MaxNumberOfMessages": 10});
    let mut drained = 0;
    loop {
        let response = ok(sim, "ReceiveMessage", &receive);
        let messages = response["Messages"].as_array().expect("a message list");
        if messages.is_empty() {
            return drained;
        }
        let entries: Vec<Value> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| json!({"Id": i.to_string(), "ReceiptHandle": m["ReceiptHandle"]}))
            .collect();
        drained += entries.len() as u64;
        let deleted = ok(sim, "DeleteMessageBatch", &json!({"QueueUrl": queue, "Entries": entries}));
        assert_eq!(deleted["Failed"].as_array().map(Vec::len), Some(0), "every delete succeeds");
    }
}

struct Measured {
    publish: Duration,
    drain: Duration,
    peak_bytes: usize,
    events: usize,
}

fn measure(n: u64, recording: bool) -> Measured {
    let mut sim = world(recording);
    let publish = json!({
        "TopicArn": "orders",
        "Message": "{\"order_id\":4417,\"event_type\":\"OrderPlaced\",\"total\":129.5}",
        "MessageAttributes": {"event_type": {"DataType": "String", "StringValue": "OrderPlaced"}},
    });
    let baseline = IN_USE.load(Relaxed);
    PEAK.store(baseline, Relaxed);
    let start = Instant::now();
    for _ in 0..n {
        ok(&mut sim, "Publish", &publish);
    }
    let published = start.elapsed();
    let start = Instant::now();
    let drained: u64 = QUEUES.iter().map(|q| drain(&mut sim, q)).sum();
    let drain_time = start.elapsed();
    assert_eq!(drained, n * QUEUES.len() as u64, "every copy is drained");
    let measured = Measured {
        publish: published,
        drain: drain_time,
        peak_bytes: PEAK.load(Relaxed) - baseline,
        events: sim.events().len(),
    };
    drop(sim);
    measured
}

fn main() {
    let max: u64 = std::env::var("FANOUT_BENCH_MAX").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    println!("Fan-out throughput: 1 topic -> 5 raw SQS subscriptions; publish N, then drain with");
    println!("ReceiveMessage (10) + DeleteMessageBatch. ops = copies delivered + received + deleted = 15 N.");
    println!();
    println!(
        "{:>9} {:>6} | {:>10} {:>10} | {:>12} {:>8} | {:>11} {:>9} | {:>10}",
        "N", "events", "publish", "drain", "ops/s", "ns/op", "bytes/msg", "B/copy", "log events"
    );
    println!("{}", "-".repeat(104));
    for n in [1_000u64, 10_000, 100_000, 1_000_000].into_iter().filter(|n| *n <= max) {
        for recording in [true, false] {
            let m = measure(n, recording);
            let ops = n * QUEUES.len() as u64 * COPIES_OPS;
            let total = m.publish + m.drain;
            println!(
                "{:>9} {:>6} | {:>8.1}ms {:>8.1}ms | {:>12.0} {:>8.1} | {:>11.0} {:>9.0} | {:>10}",
                n,
                if recording { "on" } else { "off" },
                m.publish.as_secs_f64() * 1e3,
                m.drain.as_secs_f64() * 1e3,
                ops as f64 / total.as_secs_f64(),
                total.as_nanos() as f64 / ops as f64,
                m.peak_bytes as f64 / n as f64,
                m.peak_bytes as f64 / (n * QUEUES.len() as u64) as f64,
                m.events,
            );
        }
    }
    println!();
    println!("bytes/msg: peak heap above the empty world, per published message (5 stored copies).");
}
