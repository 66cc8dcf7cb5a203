//! A scenario's `workers` section: what kind of worker the page's "+ Worker" adds to each queue.
//!
//! ```json
//! "workers": {
//!   "default": {"WaitTimeSeconds": 20, "ProcessingTime": "2s", "Effect": "work done"},
//!   "queues": {"sms": {"Effect": "SMS sent", "Poison": {"Field": "data.phone", "LengthBelow": 15}}}
//! }
//! ```
//!
//! Both hold `CreateWorker` parameters except `WorkerName` and `QueueUrl`, which the page sets.
//! A queue's entry replaces the default's parameters key by key; a queue without one gets the
//! default. Parsing checks every rule with `CreateWorker` itself, on a throwaway world that has
//! the queue and the dependencies the scenario's steps create.

use super::Step;
use crate::sim::Sim;
use serde_json::{json, Map, Value};

/// `CreateWorker` parameters for the workers the page adds, by queue.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerRules {
    /// For every queue without an entry of its own, and under every entry.
    pub default: Map<String, Value>,
    /// By queue name, in name order: parameters that replace the default's.
    pub queues: Map<String, Value>,
}

impl WorkerRules {
    /// The `CreateWorker` parameters for a worker called `name` on `queue`. `Job` is `job`
    /// unless the rules name one.
    pub fn params(&self, queue: &str, name: &str, job: &str) -> Value {
        let mut params = self.default.clone();
        if let Some(Value::Object(own)) = self.queues.get(queue) {
            params.extend(own.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        params.entry("Job").or_insert_with(|| json!(job));
        params.insert("WorkerName".into(), json!(name));
        params.insert("QueueUrl".into(), json!(queue));
        Value::Object(params)
    }
}

const SECTION_KEYS: &[&str] = &["default", "queues"];
const SET_BY_THE_PAGE: &[&str] = &["WorkerName", "QueueUrl"];

/// Reads and checks the `workers` section against the scenario's steps (for its dependencies).
pub(crate) fn parse(value: Value, steps: &[Step]) -> Result<WorkerRules, String> {
    let Value::Object(mut map) = value else {
        return Err("\"workers\" must be an object such as {\"default\": {...}, \"queues\": {\"sms\": {...}}}".into());
    };
    if let Some(k) = map.keys().find(|k| !SECTION_KEYS.contains(&k.as_str())) {
        return Err(format!("workers: unknown key \"{k}\" (it has {})", SECTION_KEYS.join(", ")));
    }
    let default = match map.remove("default") {
        None => Map::new(),
        Some(Value::Object(d)) => d,
        Some(_) => return Err("workers.default must be an object of CreateWorker parameters".into()),
    };
    let queues = match map.remove("queues") {
        None => Map::new(),
        Some(Value::Object(q)) => q,
        Some(_) => return Err("workers.queues must be an object of queue name: CreateWorker parameters".into()),
    };
    let rules = WorkerRules { default, queues };
    check_rule(&rules, "workers.default", None, steps)?;
    for (queue, own) in &rules.queues {
        let at = format!("workers.queues.{queue}");
        if !own.is_object() {
            return Err(format!("{at} must be an object of CreateWorker parameters"));
        }
        check_rule(&rules, &at, Some(queue), steps)?;
    }
    Ok(rules)
}

/// Checks one rule by running `CreateWorker` with it on a throwaway world.
fn check_rule(rules: &WorkerRules, at: &str, queue: Option<&str>, steps: &[Step]) -> Result<(), String> {
    let own = queue.and_then(|q| rules.queues.get(q)).and_then(Value::as_object).unwrap_or(&rules.default);
    if let Some(k) = own.keys().find(|k| SET_BY_THE_PAGE.contains(&k.as_str())) {
        return Err(format!("{at}: \"{k}\" is set by the page (the worker's name and the queue it is added to)"));
    }
    let queue_name = queue.unwrap_or("a-queue");
    let mut sim = Sim::new(0);
    sim.set_event_recording(false);
    let mut create = json!({"QueueName": queue_name});
    if queue_name.ends_with(".fifo") {
        create["Attributes"] = json!({"FifoQueue": "true"});
    }
    sim.apply("CreateQueue", &create).map_err(|e| format!("{at}: {}", e.message))?;
    for step in steps {
        if let Step::Action { action, params, .. } = step {
            if action == "CreateDependency" {
                // A dependency a step creates may use saved values; one that fails here is left out.
                let _ = sim.apply(action, params);
            }
        }
    }
    let params = rules.params(queue_name, "check-w1", "check");
    sim.apply("CreateWorker", &params)
        .map_err(|e| format!("{at}: CreateWorker would fail: {}: {}", e.code, e.message))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_rule_replaces_the_default_key_by_key() {
        let rules = parse(
            json!({"default": {"WaitTimeSeconds": 20, "Effect": "work done"}, "queues": {"sms": {"Effect": "SMS sent"}}}),
            &[],
        )
        .unwrap();
        let sms = rules.params("sms", "sms-w1", "sms");
        assert_eq!(
            sms,
            json!({"WaitTimeSeconds": 20, "Effect": "SMS sent", "Job": "sms", "WorkerName": "sms-w1", "QueueUrl": "sms"})
        );
        assert_eq!(rules.params("billing", "b-w2", "billing")["Effect"], "work done");
        assert_eq!(
            WorkerRules::default().params("q", "q-w1", "q"),
            json!({"Job": "q", "WorkerName": "q-w1", "QueueUrl": "q"})
        );
    }

    #[test]
    fn bad_rules_say_where_and_what() {
        let e = parse(json!({"queues": {"sms": {"ProcessingTme": "2s"}}}), &[]).unwrap_err();
        assert!(e.starts_with("workers.queues.sms: CreateWorker would fail: ") && e.contains("ProcessingTme"), "{e}");
        let e = parse(json!({"default": {"QueueUrl": "x"}}), &[]).unwrap_err();
        assert!(e.starts_with("workers.default: \"QueueUrl\" is set by the page"), "{e}");
        let e = parse(json!({"default": {"WaitTimeSeconds": 99}}), &[]).unwrap_err();
        assert!(e.starts_with("workers.default: CreateWorker would fail") && e.contains("WaitTimeSeconds"), "{e}");
        assert!(parse(json!({"queues": {"sms": 3}}), &[])
            .unwrap_err()
            .contains("workers.queues.sms must be an object"));
        assert!(parse(json!({"default": {}, "extra": {}}), &[]).unwrap_err().contains("unknown key \"extra\""));
        assert!(parse(json!([]), &[]).is_err());
    }

    #[test]
    fn a_rule_may_call_a_dependency_the_scenario_creates() {
        let rule = json!({"queues": {"billing": {"Dependency": "payments"}}});
        assert!(parse(rule.clone(), &[]).unwrap_err().contains("payments"), "no such dependency yet");
        let steps = vec![Step::Action {
            action: "CreateDependency".into(),
            params: json!({"DependencyName": "payments"}),
            expect: None,
            expect_error: None,
            save: Vec::new(),
            templated: false,
        }];
        parse(rule, &steps).unwrap();
    }
}
