//! A FIFO queue under load: send N messages, each in a message group of its own and with a
//! deduplication id of its own (the most groups and ids the FIFO bookkeeping can hold), all
//! within one five-minute deduplication interval (250 a second, under a FIFO queue's 300), then drain the queue with ReceiveMessage (10)
//! and DeleteMessageBatch. The groups and the deduplication ids are kept in sorted vectors
//! (`engine/src/vecmap.rs`), smaller in the browser bundle than B-trees: this shows what that
//! costs as N grows.
//!
//! `cargo bench -p fanout-engine --bench fifo`; `FANOUT_BENCH_MAX=20000` stops at that N.
use engine::Sim;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn ok(sim: &mut Sim, action: &str, params: &Value) -> Value {
    sim.apply(action, params).unwrap_or_else(|e| panic!("{action}: {e}"))
}

/// Sends `n` messages, then drains the queue; the time of each half.
fn measure(n: u64) -> (Duration, Duration) {
    let mut sim = Sim::new(1);
    sim.set_event_recording(false);
    ok(&mut sim, "CreateQueue", &json!({"QueueName": "orders.fifo", "Attributes": {"FifoQueue": "true"}}));
    let start = Instant::now();
    for i in 0..n {
        // 250 sends a virtual second: under the queue's 300 a second; 20,000 take 80 s.
        if i > 0 && i % 250 == 0 {
            sim.advance_by(1000);
        }
        // Ids sent in an order that is not sorted: inserts land all over the sorted vectors.
        let id = (i * 7919) % n;
        let params = json!({"QueueUrl": "orders.fifo", "MessageBody": format!("order {id}"),
                            "MessageGroupId": format!("order-{id}"), "MessageDeduplicationId": format!("dedup-{id}")});
        ok(&mut sim, "SendMessage", &params);
    }
    let sent = start.elapsed();
    let start = Instant::now();
    let receive = json!({"QueueUrl": "orders.fifo", "MaxNumberOfMessages": 10});
    let mut drained = 0;
    for call in 1.. {
        if call % 250 == 0 {
            sim.advance_by(1000);
        }
        let response = ok(&mut sim, "ReceiveMessage", &receive);
        let messages = response["Messages"].as_array().expect("a message list");
        if messages.is_empty() {
            break;
        }
        let entries: Vec<Value> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| json!({"Id": i.to_string(), "ReceiptHandle": m["ReceiptHandle"]}))
            .collect();
        drained += entries.len() as u64;
        ok(&mut sim, "DeleteMessageBatch", &json!({"QueueUrl": "orders.fifo", "Entries": entries}));
    }
    assert_eq!(drained, n, "every message is drained");
    (sent, start.elapsed())
}

fn main() {
    let max: u64 = std::env::var("FANOUT_BENCH_MAX").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    println!("FIFO queue: N messages, one group and one deduplication id each, sent within one");
    println!("five-minute interval, then drained with ReceiveMessage (10) + DeleteMessageBatch.");
    println!();
    println!("{:>7}  {:>10}  {:>10}  {:>12}", "N", "send ms", "drain ms", "µs / message");
    for n in [1_000u64, 5_000, 20_000].into_iter().filter(|&n| n <= max) {
        let (send, drain) = measure(n);
        let per = (send + drain).as_secs_f64() * 1e6 / n as f64;
        println!("{n:>7}  {:>10.1}  {:>10.1}  {per:>12.1}", send.as_secs_f64() * 1e3, drain.as_secs_f64() * 1e3);
    }
}
