//! The coupled designs against fan-out, over the same events and the same dependency schedule:
//! a checkout calling five services in turn (latency is the sum, availability the product), one
//! queue whose worker does every job (one failure retries them all), and one queue per consumer.
#[path = "world_helpers.rs"]
mod helpers;
use engine::Sim;
use helpers::*;
use serde_json::{json, Value};

const SERVICES: [(&str, &str, &str); 5] = [
    ("billing", "invoice written", "100ms"),
    ("packing", "slip printed", "100ms"),
    ("sms", "SMS sent", "500ms"),
    ("loyalty", "points added", "100ms"),
    ("analytics", "event recorded", "100ms"),
];

/// Five dependencies failing `error_rate` of calls each; the SMS gateway takes 25 s instead of
/// 0.5 s from 10 to 50 min when `bad_afternoon`.
fn dependencies(sim: &mut Sim, bad_afternoon: bool, error_rate: &str) {
    for (job, _, latency) in SERVICES {
        let mut p = json!({"DependencyName": format!("{job}-api"), "Latency": latency, "ErrorRate": error_rate});
        if job == "sms" && bad_afternoon {
            p["Schedule"] = json!([{"Start": "10m", "Duration": "40m", "Latency": "25s"}]);
        }
        ok(sim, "CreateDependency", p);
    }
}

fn jobs() -> Value {
    SERVICES
        .iter()
        .map(|(job, effect, _)| json!({"Job": job, "Effect": effect, "Dependency": format!("{job}-api")}))
        .collect()
}

fn queue_for(sim: &mut Sim, name: &str) {
    queue_with_dlq(sim, name, 120, 5);
}

/// Runs `events` orders, one a second, through `design`; returns the producer's and every job's numbers.
fn run(design: &str, bad_afternoon: bool, events: u64, seed: u64) -> Value {
    run_with(design, bad_afternoon, "0.001", events, seed)
}

fn run_with(design: &str, bad_afternoon: bool, error_rate: &str, events: u64, seed: u64) -> Value {
    let mut sim = Sim::new(seed);
    dependencies(&mut sim, bad_afternoon, error_rate);
    let mut producer = json!({"ProducerName": "checkout", "Design": design, "Count": events, "Interval": "1s"});
    match design {
        "Chain" => {
            producer["Jobs"] = jobs();
            producer["RequestTimeout"] = json!("10s");
        }
        "FanOut" => {
            ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
            for (job, effect, _) in SERVICES {
                queue_for(&mut sim, job);
                ok(
                    &mut sim,
                    "Subscribe",
                    json!({"TopicArn": "orders", "Protocol": "sqs",
                    "Endpoint": format!("arn:aws:sqs:us-east-1:000000000000:{job}"), "Attributes": {"RawMessageDelivery": "true"}}),
                );
                for w in 0..2 {
                    ok(
                        &mut sim,
                        "CreateWorker",
                        json!({"WorkerName": format!("{job}-{w}"), "QueueUrl": job,
                        "ProcessingTime": "10ms", "Job": job, "Effect": effect, "Dependency": format!("{job}-api")}),
                    );
                }
            }
            producer["TopicArn"] = json!("orders");
        }
        _ => {
            queue_for(&mut sim, "all-jobs");
            for w in 0..10 {
                ok(
                    &mut sim,
                    "CreateWorker",
                    json!({"WorkerName": format!("w{w}"), "QueueUrl": "all-jobs",
                    "ProcessingTime": "10ms", "Jobs": jobs()}),
                );
            }
            producer["QueueUrl"] = json!("all-jobs");
        }
    }
    ok(&mut sim, "CreateProducer", producer);
    sim.advance_to(engine::SimTime((events + 7_200) * 1_000));
    let mut out = json!({"checkout": ok(&mut sim, "DescribeProducer", json!({"ProducerName": "checkout"}))});
    for (job, _, _) in SERVICES {
        out[job] = job_summary(&mut sim, job);
    }
    out
}

fn job_summary(sim: &mut Sim, name: &str) -> Value {
    let j = job(sim, name, &[]);
    json!({"events": j["DistinctEvents"], "duplicates": j["DuplicateSideEffects"],
           "e2e_mean_ms": j["EndToEndLatency"]["MeanMs"], "e2e_max_ms": j["EndToEndLatency"]["MaxMs"]})
}

#[test]
fn five_services_at_99_9_percent_give_about_99_5_percent_on_the_request_path() {
    // Seeds: a producer calling its consumers directly has the product of their availabilities:
    // five dependencies at 99.9% each give about 99.5% (0.999^5 = 0.995).
    let chain = run("Chain", false, 20_000, 11);
    let ppm = n(&chain["checkout"]["AvailabilityPpm"]);
    println!("chain of five at 99.9%: availability {} over 20,000 requests", chain["checkout"]["Availability"]);
    assert!((993_000..=997_000).contains(&ppm), "about 99.5%: {ppm} ppm");
    assert!(n(&chain["checkout"]["HalfDone"]) > 0, "some fail after the invoice was written");
}

#[test]
fn the_chain_latency_is_the_sum_of_its_calls() {
    // Seeds: the producer's latency is the sum of every consumer's: 100+100+500+100+100 ms.
    let chain = run_with("Chain", false, "0", 300, 12);
    let latency = &chain["checkout"]["Latency"];
    assert_eq!((latency["MeanMs"].clone(), latency["MaxMs"].clone()), (json!(900), json!(900)));
}

#[test]
fn a_slow_sms_call_stalls_the_coupled_checkout_but_not_the_fan_out_one() {
    // Seeds: with the SMS provider at 25 s for 40 minutes the coupled checkout times out and leaves
    // orders half done; with fan-out the checkout replies at once, billing and packing do not notice,
    // and the SMS queue grows and drains. Same events, same schedule, same seed.
    let chain = run("Chain", true, 3_600, 5);
    let fan_out = run("FanOut", true, 3_600, 5);
    let single = run("SingleQueue", true, 3_600, 5);
    for (name, r) in [("Chain", &chain), ("FanOut", &fan_out), ("SingleQueue", &single)] {
        println!(
            "{name:<11} checkout {} latency mean {} ms p99 {} ms half-done {} | billing {} | sms {}",
            r["checkout"]["Availability"],
            r["checkout"]["Latency"]["MeanMs"],
            r["checkout"]["Latency"]["P99Ms"],
            r["checkout"]["HalfDone"],
            r["billing"],
            r["sms"]
        );
    }
    let chain_ppm = n(&chain["checkout"]["AvailabilityPpm"]);
    assert!(chain_ppm < 400_000, "most checkouts in the 40-minute window time out: {chain_ppm} ppm");
    assert!(n(&chain["checkout"]["HalfDone"]) > 2_000, "invoiced and packed, but the request failed");
    assert_eq!(fan_out["checkout"]["Availability"], "100.00%");
    for (job, _, _) in SERVICES {
        assert_eq!(fan_out[job]["events"], 3_600, "fan-out: every {job} job done in the end");
    }
    assert!(n(&fan_out["billing"]["e2e_mean_ms"]) < 2_000, "billing does not notice the SMS provider");
    assert!(n(&fan_out["sms"]["e2e_max_ms"]) > 600_000, "the SMS queue grew during the bad afternoon");
    assert!(n(&single["billing"]["e2e_mean_ms"]) > 60_000, "one shared queue: billing waits behind SMS");
}

#[test]
fn one_shared_queue_retries_every_job_when_one_fails() {
    // Seeds: a single consumer doing five jobs retries all five when one fails: the good jobs run
    // again (two confirmation emails); with a queue per consumer only the failing job retries.
    let mut sim = Sim::new(6);
    dependencies(&mut sim, false, "0.001");
    ok(&mut sim, "UpdateDependency", json!({"DependencyName": "sms-api", "ErrorRate": "0.5"}));
    queue_for(&mut sim, "all-jobs");
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "all-jobs", "ProcessingTime": "10ms", "Jobs": jobs()}),
    );
    ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
    for job in ["billing", "sms"] {
        let q = format!("{job}-own");
        queue_for(&mut sim, &q);
        ok(
            &mut sim,
            "Subscribe",
            json!({"TopicArn": "orders", "Protocol": "sqs",
            "Endpoint": format!("arn:aws:sqs:us-east-1:000000000000:{q}"), "Attributes": {"RawMessageDelivery": "true"}}),
        );
        ok(
            &mut sim,
            "CreateWorker",
            json!({"WorkerName": q.clone(), "QueueUrl": q.clone(), "ProcessingTime": "10ms",
            "Job": q, "Dependency": format!("{job}-api")}),
        );
    }
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "shared", "Design": "SingleQueue", "QueueUrl": "all-jobs", "Count": 50}),
    );
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "fan", "Design": "FanOut", "TopicArn": "orders", "Count": 50}),
    );
    sim.advance_by(3_600_000);
    let shared_billing = n(&job(&mut sim, "billing", &[])["DuplicateSideEffects"]);
    let own_billing = n(&job(&mut sim, "billing-own", &[])["DuplicateSideEffects"]);
    println!("SMS failing half the time: billing duplicates with one shared queue {shared_billing}, with its own queue {own_billing}");
    assert!(shared_billing > 10, "invoices written again: {shared_billing}");
    assert_eq!(own_billing, 0);
}

#[test]
fn producers_are_validated() {
    // Design rule: every parameter is checked, with an error that says what to change.
    let mut sim = Sim::new(7);
    fails_with(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "Carrier pigeon"}),
        "InvalidParameterValue",
    );
    fails_with(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "FanOut", "TopicArn": "arn:aws:sns:us-east-1:000000000000:nope"}),
        "NotFound",
    );
    fails_with(&mut sim, "CreateProducer", json!({"ProducerName": "p", "Design": "Chain"}), "MissingParameter");
    queue(&mut sim, "q", json!({}));
    fails_with(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q", "Jobs": []}),
        "InvalidParameterValue",
    );
    fails_with(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q", "Count": 0}),
        "InvalidParameterValue",
    );
    ok(&mut sim, "CreateProducer", json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q", "Count": 3}));
    fails_with(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q"}),
        "ResourceConflictException",
    );
    secs(&mut sim, 5);
    let p = ok(&mut sim, "DescribeProducer", json!({"ProducerName": "p"}));
    assert_eq!((p["Produced"].clone(), p["Finished"].clone()), (json!(3), json!(true)));
    assert_eq!(counts(&mut sim, "q"), (3, 0));
}

#[test]
fn stop_producer_ends_the_stream_of_events() {
    // Design rule: a producer emits Count events, one per Interval, until it finishes or is stopped.
    let mut sim = Sim::new(8);
    queue(&mut sim, "q", json!({}));
    ok(
        &mut sim,
        "CreateProducer",
        json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q", "Count": 100, "Interval": "1s"}),
    );
    sim.advance_by(4_500);
    ok(&mut sim, "StopProducer", json!({"ProducerName": "p"}));
    secs(&mut sim, 60);
    let p = ok(&mut sim, "DescribeProducer", json!({"ProducerName": "p"}));
    assert_eq!((p["Produced"].clone(), p["Finished"].clone()), (json!(5), json!(true)));
    assert_eq!(count_events(&sim, "ProducerStopped"), 1);
}

/// A fan-out checkout that takes the payment with a synchronous call before it publishes.
fn paying_checkout(sim: &mut Sim, payment: Value) {
    ok(sim, "CreateDependency", payment);
    ok(sim, "CreateTopic", json!({"Name": "orders"}));
    queue(sim, "packing", json!({}));
    ok(
        sim,
        "Subscribe",
        json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:000000000000:packing"}),
    );
    ok(
        sim,
        "CreateProducer",
        json!({"ProducerName": "checkout", "Design": "FanOut", "TopicArn": "orders", "Manual": true,
        "RequestTimeout": "10s", "Jobs": [{"Job": "payment", "Effect": "card charged", "Dependency": "payment-api"}]}),
    );
}

#[test]
fn checkout_takes_the_payment_while_the_customer_waits_and_publishes_only_after_it() {
    // The seed articles: "The user must see the result before moving on, like whether a payment
    // went through. That needs a direct call with a clear yes or no"; "Use a synchronous call for
    // the step that must succeed". Fan-out takes only what may happen later (invoice, slip, SMS).
    let mut sim = Sim::new(9);
    paying_checkout(&mut sim, json!({"DependencyName": "payment-api", "Latency": "300ms"}));
    ok(&mut sim, "Produce", json!({"ProducerName": "checkout"}));
    assert_eq!(count_events(&sim, "Published"), 0, "nothing is published while the payment is in flight");
    sim.advance_to(engine::SimTime(299));
    assert_eq!(count_events(&sim, "Published"), 0);
    sim.advance_to(engine::SimTime(300));
    assert_eq!(count_events(&sim, "Published"), 1, "published the moment the payment answered");
    assert_eq!(counts(&mut sim, "packing"), (1, 0));
    let p = ok(&mut sim, "DescribeProducer", json!({"ProducerName": "checkout"}));
    assert_eq!(
        (p["Accepted"].clone(), p["Succeeded"].clone(), p["Availability"].clone(), p["Latency"]["MaxMs"].clone()),
        (json!(1), json!(1), json!("100.00%"), json!(300)),
        "checkout's latency is the payment call's: the publish itself takes no virtual time; {p}"
    );
    assert_eq!(job(&mut sim, "payment", &["evt-4401"])["EffectsByEvent"]["evt-4401"], 1, "the card was charged once");
}

#[test]
fn a_failed_payment_fails_the_checkout_and_publishes_nothing() {
    // The customer sees the payment fail; no invoice, slip or SMS follows an order never paid.
    let mut sim = Sim::new(10);
    paying_checkout(&mut sim, json!({"DependencyName": "payment-api", "Latency": "300ms", "Down": true}));
    ok(&mut sim, "Produce", json!({"ProducerName": "checkout"}));
    secs(&mut sim, 20);
    assert_eq!(count_events(&sim, "Published"), 0);
    assert_eq!(counts(&mut sim, "packing"), (0, 0));
    let p = ok(&mut sim, "DescribeProducer", json!({"ProducerName": "checkout"}));
    assert_eq!(
        (p["Accepted"].clone(), p["Failed"].clone(), p["HalfDone"].clone(), p["Availability"].clone()),
        (json!(0), json!(1), json!(0), json!("0.00%")),
        "{p}"
    );
    let done = events_named(&sim, "RequestCompleted").remove(0);
    assert_eq!((done["outcome"].as_str(), done["failed_at"].as_str()), (Some("failed"), Some("payment")), "{done}");
}

#[test]
fn calls_before_the_event_are_for_fan_out_and_single_queue_with_jobs() {
    // Design rule: Poison stays the Chain's; a RequestTimeout needs calls to time.
    let mut sim = Sim::new(11);
    ok(&mut sim, "CreateDependency", json!({"DependencyName": "payment-api"}));
    queue(&mut sim, "q", json!({}));
    let base = json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q"});
    let with = |k: &str, v: Value| {
        let mut p = base.clone();
        p[k] = v;
        p
    };
    let message = fails_with(&mut sim, "CreateProducer", with("RequestTimeout", json!("10s")), "InvalidParameterValue");
    assert!(message.contains("give Jobs"), "{message}");
    let poison = with("Poison", json!({"Field": "data.phone", "LengthBelow": 13}));
    fails_with(&mut sim, "CreateProducer", poison, "InvalidParameterValue");
    let jobs = json!([{"Job": "payment", "Effect": "card charged", "Dependency": "payment-api"}]);
    ok(&mut sim, "CreateProducer", with("Jobs", jobs));
    secs(&mut sim, 5);
    let p = ok(&mut sim, "DescribeProducer", json!({"ProducerName": "p"}));
    let accepted = p["Accepted"].as_u64().unwrap();
    assert!(accepted >= 4 && p["Succeeded"] == p["Accepted"], "each order sent once its payment succeeded: {p}");
    assert_eq!(counts(&mut sim, "q"), (accepted, 0));
}
