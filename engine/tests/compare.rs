//! Compare mode: the four designs of the quilt store's checkout fed one command log (100
//! orders a second apart, the SMS provider at 25 s instead of 0.5 s for 40 s), measured alike.
//! The differences are the seeds': fan-out gives every job one copy and leaves checkout alone;
//! a work queue gives each order to one of its competing workers (an SQS message goes to one
//! receiver); one worker doing every job retries them all and writes the invoice again; direct calls make
//! checkout as slow as the calls' sum and as available as their product.

use engine::compare::measure::{measure, Measures};
use engine::compare::{Command, Compare, Entry, DESIGNS};
use engine::SimTime;

fn design_file(name: &str) -> String {
    let path = format!("{}/../public/designs/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// 100 orders at 0 s, 1 s, … 99 s; the SMS provider slow from 20 s to 60 s.
fn log() -> Vec<Entry> {
    let mut log: Vec<Entry> =
        (0..100).map(|i| Entry { at: SimTime(i * 1_000), command: Command::Order { poison: false } }).collect();
    log.push(Entry { at: SimTime(20_000), command: Command::sms_slow(40_000) });
    log.sort_by_key(|e| e.at);
    log
}

fn run_all(log: &[Entry], until: SimTime) -> Vec<(String, Measures)> {
    let files: Vec<(&str, String)> = DESIGNS.iter().map(|(n, _)| (*n, design_file(n))).collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let mut c = Compare::new(&refs).expect("the design files load");
    c.run(log, until).expect("every design takes every command");
    c.designs.iter().map(|(n, h)| (n.clone(), measure(h.sim()))).collect()
}

fn get<'a>(all: &'a [(String, Measures)], name: &str) -> &'a Measures {
    &all.iter().find(|(n, _)| n == name).expect("design measured").1
}

#[test]
fn one_log_one_slow_sms_window_four_designs_four_outcomes() {
    let all = run_all(&log(), SimTime(20 * 60_000));
    for (name, m) in &all {
        assert_eq!((m.checkouts, m.orders.len()), (100, 100), "{name}: every design got the same 100 orders");
        assert_eq!(m.orders[0].order_id, 4401, "{name}");
    }

    let fan = get(&all, "fanout");
    assert!(fan.orders.iter().all(|o| o.jobs == [1, 1, 1]), "fan-out: every job once per order");
    assert_eq!((fan.availability_ppm(), fan.latency_p95_ms), (Some(1_000_000), 0), "checkout unaffected");
    assert_eq!((fan.duplicates, fan.half_done), (0, 0));

    let wq = get(&all, "workqueue");
    assert!(
        wq.orders.iter().all(|o| o.jobs.iter().sum::<u32>() == 1),
        "work queue: each order reached exactly one of the competing workers"
    );
    assert_eq!(wq.half_done, 100, "so every order is left two jobs short");
    for job in 0..3 {
        assert!(wq.orders.iter().any(|o| o.jobs[job] == 1), "each worker got some orders (job {job})");
    }

    let one = get(&all, "oneworker");
    assert!(one.duplicates > 0, "one worker: a timed-out SMS sends the whole message back");
    let invoiced_again: Vec<_> = one.orders.iter().filter(|o| o.jobs[0] > 1).collect();
    assert!(!invoiced_again.is_empty(), "duplicate invoices");
    assert!(
        invoiced_again.iter().all(|o| o.jobs[1] == o.jobs[0]),
        "jobs retried together: every repeated invoice came with a repeated slip"
    );
    assert_eq!(one.availability_ppm(), Some(1_000_000), "checkout still answers at once");

    let direct = get(&all, "directcalls");
    let calm = &direct.orders[..20];
    assert!(calm.iter().all(|o| o.jobs == [1, 1, 1]));
    assert_eq!(direct.latency_p50_ms, 100 + 100 + 500, "latency the sum of the three calls");
    assert_eq!(direct.latency_p95_ms, 10_000, "the slow window's checkouts wait for the 10 s timeout");
    assert!(direct.half_done > 0, "invoiced and packed, then the SMS call failed");
}

#[test]
fn direct_calls_availability_is_the_product_of_the_calls() {
    let files = [("directcalls", design_file("directcalls"))];
    let mut c = Compare::new(&[(files[0].0, files[0].1.as_str())]).unwrap();
    c.run(&log(), SimTime(20 * 60_000)).unwrap();
    let sim = c.designs[0].1.sim();
    let m = measure(sim);
    // Each call's own success rate, from the dependency's stats: calls made and errors.
    let rate = |dep: &str| {
        let mut probe = sim.clone();
        let d = probe.apply("DescribeDependency", &serde_json::json!({"DependencyName": dep})).unwrap();
        let (calls, errors) = (d["Stats"]["Calls"].as_u64().unwrap(), d["Stats"]["Errors"].as_u64().unwrap());
        (calls - errors, calls)
    };
    let ((b_ok, b), (p_ok, p), (s_ok, s)) = (rate("billing-api"), rate("packing-api"), rate("sms-api"));
    assert!(s_ok < s, "the slow window made SMS calls fail");
    // succeeded / checkouts == (b_ok/b) * (p_ok/p) * (s_ok/s), cross-multiplied to stay exact.
    assert_eq!(m.succeeded * b * p * s, m.answered * b_ok * p_ok * s_ok);
    assert_eq!(m.availability_text(), "60.00%", "40 of 100 checkouts fell in the slow window");
}

#[test]
fn the_same_log_gives_the_same_numbers_and_a_poison_order_goes_to_the_dead_letter_queues() {
    let mut log = log();
    log.push(Entry { at: SimTime(100_000), command: Command::Order { poison: true } });
    let a = run_all(&log, SimTime(20 * 60_000));
    assert_eq!(a, run_all(&log, SimTime(20 * 60_000)), "replayable: one log, one outcome");
    // The poison order has a phone one digit short: the SMS step fails on every receive, so
    // after maxReceiveCount (3) receives SQS moves it to the dead-letter queue.
    let poison = |name: &str| get(&a, name).orders[100].clone();
    assert_eq!(poison("fanout").jobs, [1, 1, 0], "billing and packing did their part");
    assert_eq!(get(&a, "fanout").dlq_messages, 1);
    assert_eq!(poison("oneworker").jobs, [0, 0, 0], "one worker fails the whole message");
    assert_eq!(get(&a, "oneworker").dlq_messages, 1);
    assert_eq!(poison("directcalls").jobs, [0, 0, 0]);
    assert_eq!(get(&a, "directcalls").checkouts - get(&a, "directcalls").succeeded, 41);
}

/// SQS delivers each message to one receiver: consumers on one queue compete. The playground
/// serves the consumer that has waited longest first, so idle workers take turns.
#[test]
fn idle_competing_workers_on_one_queue_take_turns() {
    let mut c = Compare::new(&[("workqueue", design_file("workqueue").as_str())]).unwrap();
    let orders: Vec<Entry> =
        (0..6).map(|i| Entry { at: SimTime(i * 1_000), command: Command::Order { poison: false } }).collect();
    c.run(&orders, SimTime(10_000)).unwrap();
    let m = measure(c.designs[0].1.sim());
    let who: Vec<usize> = m.orders.iter().map(|o| o.jobs.iter().position(|n| *n == 1).unwrap()).collect();
    assert_eq!(who, [0, 1, 2, 0, 1, 2], "billing, packing, sms, then billing again");
}

#[test]
fn a_manual_producer_emits_only_on_produce() {
    let mut sim = engine::Sim::new(1);
    sim.apply("CreateQueue", &serde_json::json!({"QueueName": "q"})).unwrap();
    let create = |extra: serde_json::Value| {
        let mut p = serde_json::json!({"ProducerName": "p", "Design": "SingleQueue", "QueueUrl": "q", "Manual": true});
        p.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        p
    };
    let e = sim.apply("CreateProducer", &create(serde_json::json!({"Count": 5}))).unwrap_err();
    assert!(e.message.contains("Manual"), "{}", e.message);
    sim.apply("CreateProducer", &create(serde_json::json!({}))).unwrap();
    sim.advance_by(60_000);
    assert_eq!(sim.snapshot().queues[0].visible, 0, "no timer of its own");
    let r = sim.apply("Produce", &serde_json::json!({"ProducerName": "p"})).unwrap();
    assert_eq!((r["EventId"].as_str(), r["OrderId"].as_u64()), (Some("evt-4401"), Some(4401)));
    assert_eq!(sim.snapshot().queues[0].visible, 1);
    sim.apply("StopProducer", &serde_json::json!({"ProducerName": "p"})).unwrap();
    assert!(sim.apply("Produce", &serde_json::json!({"ProducerName": "p"})).is_err(), "stopped");
}

#[test]
fn mid_run_an_order_still_held_is_in_progress_not_half_done() {
    // Read every 5 s of the first two minutes, the slow SMS window included: fan-out leaves no
    // order half done, however far behind its SMS queue is; the work queue's settled orders are.
    let mut seen_in_progress = false;
    for s in (5..=120).step_by(5) {
        let all = run_all(&log(), SimTime(s * 1_000));
        let (fan, wq) = (get(&all, "fanout"), get(&all, "workqueue"));
        assert_eq!(fan.half_done, 0, "at {s} s fan-out has no half-done order");
        assert!(wq.half_done >= fan.half_done, "at {s} s");
        seen_in_progress |= fan.in_progress > 1;
        for m in [fan, wq] {
            let held = m.orders.iter().filter(|o| o.in_progress).count() as u64;
            assert_eq!(held, m.in_progress, "at {s} s");
            assert!(m.orders.iter().all(|o| !(o.in_progress && o.half_done())));
        }
    }
    assert!(seen_in_progress, "the slow SMS provider holds fan-out's orders for a while");
}
