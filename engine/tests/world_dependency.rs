//! Downstream dependencies with a schedule and a capacity, and the retry strategies callers use
//! against them: the retry storm against a recovering dependency, and its absence with jitter.
#[path = "world_helpers.rs"]
mod helpers;
use engine::Sim;
use helpers::*;
use serde_json::{json, Value};

#[test]
fn a_bad_afternoon_makes_the_email_provider_slow_for_its_window_only() {
    // Seeds: "25 s instead of 0.5 s for 40 minutes": a schedule window overrides the base latency.
    let mut sim = Sim::new(1);
    ok(
        &mut sim,
        "CreateDependency",
        json!({"DependencyName": "email-provider", "Latency": "500ms",
        "Schedule": [{"Start": "10m", "Duration": "40m", "Latency": "25s"}]}),
    );
    queue(&mut sim, "email", json!({"VisibilityTimeout": "60"}));
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "email", "ProcessingTime": "1ms",
        "Job": "email", "Effect": "email sent", "Dependency": "email-provider"}),
    );
    let dep =
        |sim: &mut Sim| ok(sim, "DescribeDependency", json!({"DependencyName": "email-provider"}))["Latency"].clone();
    assert_eq!(dep(&mut sim), "500ms");
    send(&mut sim, "email", &order(1, 1, "x"));
    sim.advance_to(engine::SimTime(20 * 60_000));
    assert_eq!(dep(&mut sim), "25000ms");
    send(&mut sim, "email", &order(2, 1, "x"));
    sim.advance_to(engine::SimTime(60 * 60_000));
    assert_eq!(dep(&mut sim), "500ms");
    let e2e = job(&mut sim, "email", &[])["EndToEndLatency"].clone();
    assert_eq!(e2e["MaxMs"], 25_001, "sent by hand, taken at once by the long-polling worker: 25 s + 1 ms");
}

#[test]
fn calls_over_capacity_are_throttled_at_once() {
    // Design rule: a dependency serves Capacity concurrent calls; more are rejected immediately.
    let mut sim = Sim::new(2);
    ok(&mut sim, "CreateDependency", json!({"DependencyName": "api", "Latency": "2s", "Capacity": 3}));
    queue(&mut sim, "q", json!({}));
    for i in 0..5 {
        send(&mut sim, "q", &order(i, 1, "x"));
    }
    for w in 0..5 {
        ok(
            &mut sim,
            "CreateWorker",
            json!({"WorkerName": format!("w{w}"), "QueueUrl": "q", "ProcessingTime": "1ms",
            "Job": "j", "Dependency": "api"}),
        );
    }
    secs(&mut sim, 1);
    let d = ok(&mut sim, "DescribeDependency", json!({"DependencyName": "api"}));
    assert_eq!((d["InFlight"].clone(), d["Stats"]["Throttled"].clone()), (json!(3), json!(2)));
}

#[test]
fn a_caller_that_times_out_leaves_the_dependency_working_on_the_call() {
    // Design rule: a client timeout frees the caller, not the server: the slot is busy until done.
    let mut sim = Sim::new(3);
    ok(&mut sim, "CreateDependency", json!({"DependencyName": "api", "Latency": "10s", "Capacity": 1}));
    queue(&mut sim, "q", json!({"VisibilityTimeout": "60"}));
    send(&mut sim, "q", &order(1, 1, "x"));
    ok(
        &mut sim,
        "CreateWorker",
        json!({"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "1ms", "Job": "j",
        "Dependency": "api", "Retry": {"Strategy": "Fixed", "MaxAttempts": 2, "Base": "1s", "Timeout": "2s"}}),
    );
    secs(&mut sim, 4);
    let d = ok(&mut sim, "DescribeDependency", json!({"DependencyName": "api"}));
    assert_eq!(d["InFlight"], 1, "the first call still holds the only slot");
    assert_eq!(d["Stats"]["Throttled"], 1, "so the retry at 3 s is throttled");
    secs(&mut sim, 10);
    assert_eq!(ok(&mut sim, "DescribeDependency", json!({"DependencyName": "api"}))["InFlight"], 0);
}

/// 100 workers hit an email provider that is down for the first minute; returns the most calls it
/// took in one second after it recovered, and how many it throttled.
fn storm(strategy: &str) -> (u64, u64) {
    let mut sim = Sim::new(7);
    ok(&mut sim, "ConfigureMetrics", json!({"Resolution": "1s"}));
    ok(
        &mut sim,
        "CreateDependency",
        json!({"DependencyName": "email", "Latency": "200ms", "Capacity": 20,
        "Schedule": [{"Start": "0s", "End": "60s", "Down": true}]}),
    );
    queue(&mut sim, "q", json!({"VisibilityTimeout": "900"}));
    for i in 0..100 {
        send(&mut sim, "q", &order(i, 1, "x"));
    }
    for w in 0..100 {
        ok(
            &mut sim,
            "CreateWorker",
            json!({"WorkerName": format!("w{w}"), "QueueUrl": "q", "ProcessingTime": "10ms",
            "Job": "email", "Dependency": "email",
            "Retry": {"Strategy": strategy, "MaxAttempts": 12, "Base": "1s", "Cap": "64s"}}),
        );
    }
    sim.advance_to(engine::SimTime(400_000));
    let stats = ok(
        &mut sim,
        "GetMetricStatistics",
        json!({"Namespace": "Playground/Dependency", "MetricName": "Calls",
        "Dimensions": [{"Name": "DependencyName", "Value": "email"}], "StartTime": "60s", "EndTime": "400s",
        "Period": 1, "Statistics": ["Sum"]}),
    );
    let peak = stats["Datapoints"].as_array().unwrap().iter().map(|d| n(&d["Sum"])).max().unwrap();
    let d = ok(&mut sim, "DescribeDependency", json!({"DependencyName": "email"}));
    assert_eq!(job(&mut sim, "email", &[])["DistinctEvents"], 100, "{strategy}: every email is sent in the end");
    (peak, n(&d["Stats"]["Throttled"]))
}

#[test]
fn retries_without_jitter_storm_the_recovering_dependency_and_full_jitter_spreads_them() {
    // Seeds: synchronized retries arrive in waves (a thundering herd) that knock down a recovering
    // dependency; exponential backoff with full jitter, sleep = random(0, min(cap, base * 2^attempt)),
    // spreads them over the whole timeline.
    let (peak_exp, throttled_exp) = storm("Exponential");
    let (peak_jitter, throttled_jitter) = storm("ExponentialJitter");
    println!("after recovery: exponential peak {peak_exp} calls/s, {throttled_exp} throttled; full jitter peak {peak_jitter} calls/s, {throttled_jitter} throttled");
    assert!(peak_exp >= 90, "the wave after recovery: {peak_exp}");
    assert!(peak_jitter * 3 <= peak_exp, "jitter flattens it: {peak_jitter} vs {peak_exp}");
    assert!(throttled_jitter * 2 < throttled_exp, "{throttled_jitter} vs {throttled_exp}");
}

#[test]
fn dependency_actions_are_validated() {
    // Design rule: every parameter is checked, with an error that says what to change.
    let mut sim = Sim::new(4);
    let bad: Vec<Value> = vec![
        json!({"DependencyName": "d", "Latency": 5}),
        json!({"DependencyName": "d", "Latency": {"Min": "2s", "Max": "1s"}}),
        json!({"DependencyName": "d", "ErrorRate": "1.5"}),
        json!({"DependencyName": "d", "Schedule": [{"Start": "10m"}]}),
        json!({"DependencyName": "d", "Schedule": [{"Start": "10m", "End": "5m"}]}),
        json!({"DependencyName": "d", "Capacity": -1}),
        json!({"DependencyName": ""}),
    ];
    for p in bad {
        fails_with(&mut sim, "CreateDependency", p, "InvalidParameterValue");
    }
    ok(&mut sim, "CreateDependency", json!({"DependencyName": "d"}));
    fails_with(&mut sim, "CreateDependency", json!({"DependencyName": "d"}), "ResourceConflictException");
    fails_with(&mut sim, "UpdateDependency", json!({"DependencyName": "e", "Down": true}), "ResourceNotFoundException");
    ok(&mut sim, "UpdateDependency", json!({"DependencyName": "d", "Down": true}));
    assert_eq!(ok(&mut sim, "DescribeDependency", json!({"DependencyName": "d"}))["Down"], true);
    queue(&mut sim, "q", json!({}));
    let retry_bad = [
        json!({"Strategy": "Sometimes"}),
        json!({"MaxAttempts": 3}),
        json!({"Strategy": "Fixed", "MaxAttempts": 21}),
        json!({"Strategy": "Exponential", "Base": "2s", "Cap": "1s"}),
    ];
    for r in retry_bad {
        fails_with(
            &mut sim,
            "CreateWorker",
            json!({"WorkerName": "w", "QueueUrl": "q", "Dependency": "d", "Retry": r}),
            "InvalidParameterValue",
        );
    }
}
