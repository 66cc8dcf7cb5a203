//! Filtered fan-out: one topic with 1,000 SQS subscriptions, each with its own filter policy
//! (exact lists, prefixes, suffixes, numeric ranges, anything-but, exists, AND of several keys,
//! `$or`, and nested MessageBody-scope policies). Measures publishes per second through the
//! engine, and the cost of one filter evaluation on its own.
//!
//! `cargo bench -p fanout-engine --bench filter`
use engine::filter::{FilterPolicy, FilterPolicyScope, Verdict};
use engine::Sim;
use serde_json::{json, Value};
use std::hint::black_box;
use std::time::Instant;

const SUBSCRIPTIONS: usize = 1_000;
const PUBLISHES: usize = 5_000;
const MESSAGES: usize = 64;

/// A small, fixed pseudo-random sequence (SplitMix64), so every run builds the same world.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const EVENTS: [&str; 8] = [
    "OrderPlaced",
    "OrderShipped",
    "OrderCancelled",
    "RefundIssued",
    "PaymentFailed",
    "CartAbandoned",
    "ReviewPosted",
    "StockLow",
];
const REGIONS: [&str; 6] = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-south-1", "sa-east-1"];
const TIERS: [&str; 4] = ["bronze", "silver", "gold", "platinum"];
const COUNTRIES: [&str; 6] = ["US", "CA", "MX", "DE", "FR", "JP"];

/// The `i`-th subscription's policy and scope: a realistic mix, most of them selective.
fn policy(i: usize, r: &mut Mix) -> (Value, FilterPolicyScope) {
    let event = |r: &mut Mix| EVENTS[r.below(8) as usize];
    let region = |r: &mut Mix| REGIONS[r.below(6) as usize];
    let attributes = FilterPolicyScope::MessageAttributes;
    match i % 10 {
        0 => (json!({"event_type": [event(r), event(r)]}), attributes),
        1 => (json!({"store": [{"prefix": format!("{}-{}", region(r), r.below(20))}]}), attributes),
        2 => {
            let low = r.below(900) as i64;
            (json!({"price": [{"numeric": [">=", low, "<", low + 50]}]}), attributes)
        }
        3 => (json!({"event_type": [{"anything-but": [event(r), event(r)]}], "region": [region(r)]}), attributes),
        4 => (json!({"coupon": [{"exists": true}], "customer_tier": [TIERS[r.below(4) as usize]]}), attributes),
        5 => {
            let policy = json!({"event_type": [event(r)], "price": [{"numeric": [">", r.below(500)]}],
                                "region": [{"prefix": &region(r)[..2]}]});
            (policy, attributes)
        }
        6 => (json!({"email": [{"suffix": format!("@shop{}.example", r.below(30))}]}), attributes),
        7 => (
            json!({"$or": [{"event_type": [event(r)], "region": [region(r)]}, {"price": [{"numeric": [">", 990]}]}]}),
            attributes,
        ),
        8 => {
            let policy = json!({"order": {"type": ["wholesale", "b2b"], "total": [{"numeric": [">=", r.below(10_000)]}]},
                                "shipping": {"country": [COUNTRIES[r.below(6) as usize], COUNTRIES[r.below(6) as usize]]}});
            (policy, FilterPolicyScope::MessageBody)
        }
        _ => {
            let policy = json!({"event_type": [event(r)], "order": {"items": [{"numeric": [">", r.below(8)]}]}});
            (policy, FilterPolicyScope::MessageBody)
        }
    }
}

/// A published message in the Publish shape: six attributes and a JSON body.
fn message(r: &mut Mix) -> Value {
    let event = EVENTS[r.below(8) as usize];
    let region = REGIONS[r.below(6) as usize];
    let mut attributes = json!({
        "event_type": {"DataType": "String", "StringValue": event},
        "store": {"DataType": "String", "StringValue": format!("{region}-{}-shop", r.below(20))},
        "price": {"DataType": "Number", "StringValue": format!("{}.{:02}", r.below(1000), r.below(100))},
        "region": {"DataType": "String", "StringValue": region},
        "customer_tier": {"DataType": "String", "StringValue": TIERS[r.below(4) as usize]},
        "email": {"DataType": "String", "StringValue": format!("c{}@shop{}.example", r.below(10_000), r.below(30))},
    });
    if r.below(3) == 0 {
        attributes["coupon"] = json!({"DataType": "String", "StringValue": "SPRING"});
    }
    let order_type = ["retail", "wholesale", "b2b"][r.below(3) as usize];
    let body = json!({
        "event_type": event,
        "order": {"id": r.below(1_000_000), "type": order_type,
                  "total": r.below(12_000), "items": r.below(10)},
        "shipping": {"country": COUNTRIES[r.below(6) as usize], "city": "Springfield"},
    });
    json!({"TopicArn": "orders", "Message": body.to_string(), "MessageAttributes": attributes})
}

fn world(policies: &[(Value, FilterPolicyScope)], recording: bool) -> Sim {
    let mut sim = Sim::new(1);
    sim.set_event_recording(recording);
    let mut ok = |action: &str, params: Value| sim.apply(action, &params).unwrap_or_else(|e| panic!("{action}: {e}"));
    ok("CreateTopic", json!({"Name": "orders"}));
    for (i, (policy, scope)) in policies.iter().enumerate() {
        let queue = format!("q{i}");
        ok("CreateQueue", json!({"QueueName": queue}));
        let attributes = json!({"RawMessageDelivery": "true", "FilterPolicyScope": scope.as_str(),
                                "FilterPolicy": policy.to_string()});
        let endpoint = format!("arn:aws:sqs:us-east-1:000000000000:{queue}");
        ok(
            "Subscribe",
            json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": endpoint, "Attributes": attributes}),
        );
    }
    sim
}

fn main() {
    let mut r = Mix(4417);
    let policies: Vec<(Value, FilterPolicyScope)> = (0..SUBSCRIPTIONS).map(|i| policy(i, &mut r)).collect();
    let messages: Vec<Value> = (0..MESSAGES).map(|_| message(&mut r)).collect();
    let body_scoped = policies.iter().filter(|(_, s)| *s == FilterPolicyScope::MessageBody).count();
    println!("Filtered fan-out: 1 topic, {SUBSCRIPTIONS} SQS subscriptions with filter policies ({body_scoped} in MessageBody scope),");
    println!("{PUBLISHES} publishes cycling through {MESSAGES} messages of 6-7 attributes and a JSON body.");
    println!();
    println!(
        "{:>9} | {:>12} {:>12} | {:>14} | {:>15}",
        "events", "publishes/s", "us/publish", "ns/subscription", "copies/publish"
    );
    println!("{}", "-".repeat(74));
    for recording in [true, false] {
        let mut sim = world(&policies, recording);
        let start = Instant::now();
        for m in messages.iter().cycle().take(PUBLISHES) {
            sim.apply("Publish", m).expect("publish");
        }
        let elapsed = start.elapsed();
        let stored: usize = sim.snapshot_limited(0).queues.iter().map(|q| q.visible).sum();
        println!(
            "{:>9} | {:>12.0} {:>12.1} | {:>14.1} | {:>15.1}",
            if recording { "on" } else { "off" },
            PUBLISHES as f64 / elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1e6 / PUBLISHES as f64,
            elapsed.as_nanos() as f64 / (PUBLISHES * SUBSCRIPTIONS) as f64,
            stored as f64 / PUBLISHES as f64,
        );
    }

    // The filter alone: the same policies against the same messages, outside the engine.
    let compiled: Vec<FilterPolicy> = policies
        .iter()
        .map(|(p, scope)| FilterPolicy::compile(&p.to_string(), *scope).expect("a valid policy"))
        .collect();
    let parsed: Vec<(engine::attributes::MessageAttributes, String)> = messages
        .iter()
        .map(|m| {
            let publish_shape = json!({"Message": m["Message"], "MessageAttributes": m["MessageAttributes"]});
            let attributes = engine::sns::parse_publish_attributes(&publish_shape).expect("valid attributes");
            (attributes, m["Message"].as_str().expect("a body").to_string())
        })
        .collect();
    println!();
    println!("{:>26} | {:>14} {:>14} | {:>10}", "one filter evaluation", "evaluate (ns)", "matches (ns)", "match rate");
    println!("{}", "-".repeat(72));
    let kinds = [
        "exact list",
        "prefix",
        "numeric range",
        "anything-but + exact",
        "exists + exact",
        "AND of 3 keys",
        "suffix",
        "$or",
        "body: nested, numeric",
        "body: exact + nested",
    ];
    let rows = kinds.iter().enumerate().map(|(k, label)| (*label, Some(k))).chain([("all 1,000 policies", None)]);
    for (label, kind) in rows {
        let chosen: Vec<&FilterPolicy> =
            compiled.iter().enumerate().filter(|(i, _)| kind.is_none_or(|k| i % 10 == k)).map(|(_, p)| p).collect();
        let rounds = if kind.is_some() { 50 } else { 10 };
        let evaluations = (rounds * parsed.len() * chosen.len()) as f64;
        let mut matched = 0u64;
        let start = Instant::now();
        for _ in 0..rounds {
            for (attributes, body) in &parsed {
                for policy in &chosen {
                    matched += u64::from(black_box(policy.evaluate(attributes, body)) == Verdict::Match);
                }
            }
        }
        let explained = start.elapsed().as_nanos() as f64 / evaluations;
        let start = Instant::now();
        for _ in 0..rounds {
            for (attributes, body) in &parsed {
                for policy in &chosen {
                    black_box(policy.matches(attributes, body));
                }
            }
        }
        let plain = start.elapsed().as_nanos() as f64 / evaluations;
        let rate = 100.0 * matched as f64 / evaluations;
        println!("{label:>26} | {explained:>14.1} {plain:>14.1} | {rate:>9.2}%");
    }
}
