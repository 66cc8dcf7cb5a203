//! What the exports read of the routes beyond SNS to SQS: a function's asynchronous invocation
//! settings (`PutFunctionEventInvokeConfig`, the legacy `DeadLetterConfig`) and EventBridge's
//! custom buses, rules and targets. Read from the engine's state, in name order.

use crate::sim::Sim;
use crate::world::invoke_config::{destination_of, Destination};
use serde_json::{json, Value};

/// The bus every account has (`events::DEFAULT_BUS`).
pub const DEFAULT_BUS: &str = "default";

/// Where a destination, a dead-letter queue or a rule target sends, by kind and name.
#[derive(Clone, Debug, PartialEq)]
pub enum Dest {
    Queue(String),
    Topic(String),
    Function(String),
    Bus(String),
    /// An ARN the playground cannot read as one of the above, kept as written.
    Other(String),
}

impl Dest {
    pub fn of(arn: &str) -> Dest {
        match destination_of(arn) {
            Some(Destination::Queue(n)) => Dest::Queue(n.to_string()),
            Some(Destination::Topic(n)) => Dest::Topic(n.to_string()),
            Some(Destination::Function(n)) => Dest::Function(n.to_string()),
            Some(Destination::Bus(n)) => Dest::Bus(n.to_string()),
            None => Dest::Other(arn.to_string()),
        }
    }

    /// `queue charge-failed`, for comments.
    pub fn describe(&self) -> String {
        match self {
            Dest::Queue(n) => format!("the queue {n}"),
            Dest::Topic(n) => format!("the topic {n}"),
            Dest::Function(n) => format!("the function {n}"),
            Dest::Bus(n) => format!("the event bus {n}"),
            Dest::Other(a) => a.clone(),
        }
    }
}

/// `PutFunctionEventInvokeConfig` of one function (`$LATEST`, the only version the playground has).
#[derive(Clone, Debug, PartialEq)]
pub struct InvokeConfigSpec {
    pub function: String,
    /// `None`: not set, Lambda's default applies (and so it is not written either).
    pub max_retry_attempts: Option<u32>,
    pub max_event_age_s: Option<u32>,
    pub on_success: Option<Dest>,
    pub on_failure: Option<Dest>,
}

/// A custom event bus (the default bus every account has is never one).
#[derive(Clone, Debug, PartialEq)]
pub struct BusSpec {
    pub name: String,
    pub description: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RuleSpec {
    pub bus: String,
    pub name: String,
    pub description: Option<String>,
    /// The pattern's text exactly as given (numbers as written).
    pub pattern: Option<String>,
    pub schedule: Option<String>,
    pub state: &'static str,
    pub targets: Vec<TargetSpec>,
    pub notes: Vec<String>,
}

/// One target, with the optional parts exactly as `PutTargets` took them.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetSpec {
    pub id: String,
    pub dest: Dest,
    pub input: Option<String>,
    pub input_path: Option<String>,
    /// `InputPathsMap` (in the order given) and `InputTemplate`.
    pub transformer: Option<(Vec<(String, String)>, String)>,
    /// `RetryPolicy` as given: `MaximumRetryAttempts`, `MaximumEventAgeInSeconds`.
    pub retry: Option<(Option<u64>, Option<u64>)>,
    pub dead_letter: Option<Dest>,
    pub message_group_id: Option<String>,
    pub notes: Vec<String>,
}

impl TargetSpec {
    /// The scripts make queue and topic targets; functions and IAM roles (a bus target's) are
    /// the template's only.
    pub fn scripted(&self) -> bool {
        matches!(self.dest, Dest::Queue(_) | Dest::Topic(_))
    }

    /// What the scripts (boto3 and AWS CLI alike) say of a target of rule `rule` they cannot
    /// make: its destination is not in the simulation now, or is the template's only.
    pub fn not_made(&self, rule: &str) -> String {
        let why = if self.scripted() { "is not in the simulation now" } else { "is in the CloudFormation export only" };
        format!("{rule}: target {} ({}) {why}; not made", self.id, self.dest.describe())
    }

    /// What the scripts say of a target whose dead-letter queue is not one they make.
    pub fn dead_letter_not_made(&self, rule: &str, dlq: &Dest) -> String {
        format!("{rule}: target {}: its dead-letter queue ({}) is not in the simulation now", self.id, dlq.describe())
    }

    /// The target's optional fields that hold no ARN, as `PutTargets` takes them.
    pub fn plain_fields(&self) -> Vec<(&'static str, Value)> {
        let mut out = Vec::new();
        if let Some(i) = &self.input {
            out.push(("Input", json!(i)));
        }
        if let Some(p) = &self.input_path {
            out.push(("InputPath", json!(p)));
        }
        if let Some((paths, template)) = &self.transformer {
            let mut t = serde_json::Map::new();
            if !paths.is_empty() {
                let map = crate::vecmap::json_object(paths.iter().map(|(k, v)| (k.clone(), json!(v))));
                t.insert("InputPathsMap".into(), Value::Object(map));
            }
            t.insert("InputTemplate".into(), json!(template));
            out.push(("InputTransformer", Value::Object(t)));
        }
        if let Some(g) = &self.message_group_id {
            out.push(("SqsParameters", json!({ "MessageGroupId": g })));
        }
        if let Some((attempts, age)) = self.retry {
            let mut r = serde_json::Map::new();
            if let Some(n) = attempts {
                r.insert("MaximumRetryAttempts".into(), json!(n));
            }
            if let Some(n) = age {
                r.insert("MaximumEventAgeInSeconds".into(), json!(n));
            }
            out.push(("RetryPolicy", Value::Object(r)));
        }
        out
    }
}

impl Sim {
    /// Each function's invoke configuration and legacy dead-letter target, by function name.
    pub(crate) fn export_invoke_configs(&self) -> Vec<InvokeConfigSpec> {
        let functions = self.world.functions.values();
        functions
            .filter_map(|f| {
                let c = f.invoke_config.as_ref()?;
                Some(InvokeConfigSpec {
                    function: f.name.to_string(),
                    max_retry_attempts: c.maximum_retry_attempts,
                    max_event_age_s: c.maximum_event_age_seconds,
                    on_success: c.on_success.as_deref().map(Dest::of),
                    on_failure: c.on_failure.as_deref().map(Dest::of),
                })
            })
            .collect()
    }

    /// The function's `DeadLetterConfig.TargetArn`, read.
    pub(crate) fn export_dead_letter(&self, function: &str) -> Option<Dest> {
        self.world.functions.get(function)?.dead_letter_target.as_deref().map(Dest::of)
    }

    /// The custom buses and every rule (of any bus) with its targets.
    pub(crate) fn export_eventbridge(&self) -> (Vec<BusSpec>, Vec<RuleSpec>) {
        let buses = self.events.buses.values();
        let custom = buses.clone().filter(|b| &*b.name != DEFAULT_BUS);
        let specs = custom.map(|b| BusSpec { name: b.name.to_string(), description: b.description.clone() }).collect();
        let rules = buses
            .flat_map(|b| b.rules.values())
            .map(|r| {
                let mut notes = Vec::new();
                if r.role_arn.is_some() {
                    notes.push("Its RoleArn is left out: it names the playground's account.".to_string());
                }
                RuleSpec {
                    bus: r.bus.to_string(),
                    name: r.name.to_string(),
                    description: r.description.clone(),
                    pattern: r.pattern.as_ref().map(|p| p.0.clone()),
                    schedule: r.schedule.as_ref().map(|s| s.text.clone()),
                    state: r.state(),
                    targets: r.targets.values().map(|t| target_spec(&t.id, &t.arn, &t.raw)).collect(),
                    notes,
                }
            })
            .collect();
        (specs, rules)
    }

    /// Archives and replays: not exported, said instead.
    pub(crate) fn eventbridge_left_out(&self, out: &mut Vec<String>) {
        for a in self.events.archives.values() {
            out.push(format!(
                "archive {} of event bus {}: the exports do not make archives; create it again with CreateArchive",
                a.name, a.bus
            ));
        }
        for r in self.events.replays.values() {
            out.push(format!(
                "replay {} on event bus {}: a one-off run; start it again with StartReplay",
                r.name, r.bus
            ));
        }
    }
}

/// A target from what `PutTargets` took (the engine checked every field already).
fn target_spec(id: &str, arn: &str, raw: &serde_json::Map<String, Value>) -> TargetSpec {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let transformer = raw.get("InputTransformer").filter(|v| v.is_object()).map(|t| {
        let paths = t["InputPathsMap"]
            .as_object()
            .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))).collect::<Vec<_>>());
        (paths.unwrap_or_default(), t["InputTemplate"].as_str().unwrap_or_default().to_string())
    });
    let retry = raw
        .get("RetryPolicy")
        .filter(|v| v.is_object())
        .map(|r| (r["MaximumRetryAttempts"].as_u64(), r["MaximumEventAgeInSeconds"].as_u64()));
    let mut notes = Vec::new();
    if raw.get("RoleArn").is_some_and(|v| !v.is_null()) {
        notes.push(format!("Target {id}: its RoleArn is left out: it names the playground's account."));
    }
    TargetSpec {
        id: id.to_string(),
        dest: Dest::of(arn),
        input: text(raw.get("Input")),
        input_path: text(raw.get("InputPath")),
        transformer,
        retry,
        dead_letter: text(raw.get("DeadLetterConfig").and_then(|d| d.get("Arn"))).as_deref().map(Dest::of),
        message_group_id: text(raw.get("SqsParameters").and_then(|s| s.get("MessageGroupId"))),
        notes,
    }
}
