//! Targets: `PutTargets`, `RemoveTargets`, `ListTargetsByRule`.
//!
//! API reference, PutTargets: "The maximum number of entries per request is 10"; "Each rule can
//! have up to five (5) targets associated with it at one time" (more is
//! `LimitExceededException`); target ids are 1–64 characters `[\.\-_A-Za-z0-9]+`. RetryPolicy:
//! `MaximumRetryAttempts` 0–185, `MaximumEventAgeInSeconds` 60–86,400; the user guide's default is
//! "24 hours and up to 185 times". SqsParameters: the message group of a FIFO queue target, and "If
//! you specify an SQS FIFO queue as a target, the queue must have content-based deduplication
//! enabled". Dead-letter queues: "Only standard queues are supported. You can't use a FIFO queue
//! for a DLQ in EventBridge" ("Event retry policy and using dead-letter queues").
//!
//! Simulated target kinds: SQS queues, SNS topics, event buses and Lambda functions (invoked
//! asynchronously: EventBridge's delivery succeeds when Lambda queues the event; the function's
//! errors are then retried by Lambda, under its own settings) of this account and region.
//! AWS does not look the target up at PutTargets (a target "that no longer exists" fails at
//! delivery), so neither does the playground.

use super::transform::{self, Input};
use super::{check_name, validation, EbEvent};
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids;
use crate::params::Params;
use crate::sim::Sim;
use serde_json::{json, Map, Value};

/// "Each rule can have up to five (5) targets associated with it at one time."
pub const MAX_TARGETS_PER_RULE: usize = 5;
/// "The maximum number of entries per request is 10."
pub const MAX_TARGETS_PER_REQUEST: usize = 10;
/// The documented default: retries "for 24 hours and up to 185 times".
pub const DEFAULT_MAX_RETRY_ATTEMPTS: u32 = 185;
pub const DEFAULT_MAX_EVENT_AGE_SECONDS: u32 = 86_400;

const TARGET_FIELDS: &[&str] = &[
    "Id",
    "Arn",
    "RoleArn",
    "Input",
    "InputPath",
    "InputTransformer",
    "SqsParameters",
    "DeadLetterConfig",
    "RetryPolicy",
];

/// Where a target delivers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Destination {
    Queue(String),
    Topic(String),
    Bus(String),
    /// A Lambda function, invoked asynchronously.
    Function(String),
}

#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub(crate) id: String,
    pub(crate) arn: String,
    pub(crate) destination: Destination,
    pub(crate) input: Input,
    /// As given, for `ListTargetsByRule`.
    pub(crate) raw: Map<String, Value>,
    pub(crate) max_retry_attempts: u32,
    pub(crate) max_event_age_seconds: u32,
    pub(crate) dead_letter_arn: Option<String>,
    /// `SqsParameters.MessageGroupId` (FIFO queues).
    pub(crate) message_group_id: Option<String>,
}

fn not_simulated(target: &str, arn: &str, what: &str) -> ApiError {
    validation(format!("Target {target}: {what} ({arn}) is not simulated by the playground; use an SQS queue, an SNS topic, an event bus or a Lambda function of account {} in {}.", ids::ACCOUNT, ids::REGION))
}

/// Reads a target's ARN into what the playground can deliver to.
fn destination(target: &str, arn: &str) -> ApiResult<Destination> {
    let local = |service: &str| format!("arn:aws:{service}:{}:{}:", ids::REGION, ids::ACCOUNT);
    if !arn.starts_with("arn:") || arn.split(':').count() < 6 {
        return Err(validation(format!(
            "Parameter {arn} is not valid. Reason: Provided Arn is not in correct format."
        )));
    }
    if let Some(name) = arn.strip_prefix(&local("sqs")).filter(|n| ids::valid_resource_name(n, 80)) {
        return Ok(Destination::Queue(name.to_string()));
    }
    if let Some(name) = arn.strip_prefix(&local("sns")).filter(|n| ids::valid_resource_name(n, 256)) {
        return Ok(Destination::Topic(name.to_string()));
    }
    if let Some(name) = arn.strip_prefix(&local("events")).and_then(|r| r.strip_prefix("event-bus/")) {
        return Ok(Destination::Bus(name.to_string()));
    }
    if let Some(name) = arn.strip_prefix(&local("lambda")).and_then(|r| r.strip_prefix("function:")) {
        let name = name.strip_suffix(":$LATEST").unwrap_or(name);
        if !name.is_empty() && !name.contains(':') {
            return Ok(Destination::Function(name.to_string()));
        }
    }
    Err(not_simulated(target, arn, "this target type or account"))
}

fn retry_policy(target: &str, raw: &Map<String, Value>) -> ApiResult<(u32, u32)> {
    let Some(value) = raw.get("RetryPolicy").filter(|v| !v.is_null()) else {
        return Ok((DEFAULT_MAX_RETRY_ATTEMPTS, DEFAULT_MAX_EVENT_AGE_SECONDS));
    };
    let name = format!("Target {target} RetryPolicy");
    let p = Params::new(Service::Events, &name, value, &["MaximumRetryAttempts", "MaximumEventAgeInSeconds"])?;
    let attempts = p.opt_int("MaximumRetryAttempts", 0, 185)?.map_or(DEFAULT_MAX_RETRY_ATTEMPTS, |v| v as u32);
    let age = p.opt_int("MaximumEventAgeInSeconds", 60, 86_400)?.map_or(DEFAULT_MAX_EVENT_AGE_SECONDS, |v| v as u32);
    Ok((attempts, age))
}

/// Checks one entry of `Targets`; changes nothing.
fn parse_target(raw: &Value) -> ApiResult<Target> {
    let p = Params::new(Service::Events, "PutTargets target", raw, TARGET_FIELDS)?;
    let id = p.str("Id")?;
    check_name("targets.member.id", id, 64)?;
    let arn = p.str("Arn")?;
    let destination = destination(id, arn)?;
    let map = raw.as_object().cloned().unwrap_or_default();
    p.opt_str("RoleArn")?;
    let input = transform::parse(id, &map)?;
    let (max_retry_attempts, max_event_age_seconds) = retry_policy(id, &map)?;
    let dead_letter_arn = match map.get("DeadLetterConfig").filter(|v| !v.is_null()) {
        None => None,
        Some(dlc) => {
            let dp = Params::new(Service::Events, "DeadLetterConfig", dlc, &["Arn"])?;
            let dlq = dp.str("Arn")?;
            match destination_of_dlq(dlq) {
                Some(name) if name.ends_with(".fifo") => {
                    return Err(validation(format!("Target {id}: a dead-letter queue must be a standard queue; EventBridge can't use the FIFO queue {name}.")))
                }
                Some(_) => Some(dlq.to_string()),
                None => return Err(validation(format!("Target {id}: DeadLetterConfig.Arn {dlq} is not the ARN of an SQS queue in {}.", ids::REGION))),
            }
        }
    };
    let message_group_id = match map.get("SqsParameters").filter(|v| !v.is_null()) {
        None => None,
        Some(sp) => {
            let sp = Params::new(Service::Events, "SqsParameters", sp, &["MessageGroupId"])?;
            sp.opt_str("MessageGroupId")?.map(str::to_string)
        }
    };
    match (&destination, &message_group_id) {
        (Destination::Queue(q), None) if q.ends_with(".fifo") => {
            return Err(validation(format!("Parameter(s) SqsParameters must be specified for target: {id}.")))
        }
        (Destination::Queue(q), Some(_)) if !q.ends_with(".fifo") => {
            return Err(validation(format!("Target {id}: SqsParameters are only for FIFO queue targets.")))
        }
        (Destination::Topic(_) | Destination::Bus(_) | Destination::Function(_), Some(_)) => {
            return Err(validation(format!("Target {id}: SqsParameters are only for SQS queue targets.")))
        }
        (_, Some(g)) if g.is_empty() || g.chars().count() > 128 => {
            return Err(validation(format!("Target {id}: MessageGroupId is 1 to 128 characters.")))
        }
        _ => {}
    }
    Ok(Target {
        id: id.to_string(),
        arn: arn.to_string(),
        destination,
        input,
        raw: map,
        max_retry_attempts,
        max_event_age_seconds,
        dead_letter_arn,
        message_group_id,
    })
}

/// The queue name of a dead-letter queue ARN of this account and region.
pub(crate) fn destination_of_dlq(arn: &str) -> Option<&str> {
    arn.starts_with("arn:aws:sqs:").then(|| ids::queue_name_from(arn)).flatten()
}

impl Sim {
    /// All entries are checked before any is stored: a bad entry fails the whole call, the state
    /// unchanged (so `FailedEntries` is always empty here).
    pub(crate) fn put_targets(&mut self, p: &Params) -> ApiResult<Value> {
        let (bus, rule) = self.rule_ref(p.opt_str("EventBusName")?, p.str("Rule")?)?;
        let entries = p.object_list("Targets")?;
        if entries.is_empty() || entries.len() > MAX_TARGETS_PER_REQUEST {
            return Err(validation(format!(
                "1 validation error detected: Value at 'targets' failed to satisfy constraint: Member must have length between 1 and {MAX_TARGETS_PER_REQUEST} (got {}).",
                entries.len()
            )));
        }
        let mut targets = Vec::with_capacity(entries.len());
        for entry in entries {
            targets.push(parse_target(entry)?);
        }
        for (i, t) in targets.iter().enumerate() {
            if targets[..i].iter().any(|o| o.id == t.id) {
                return Err(validation(format!("Target id {} is given twice in one request.", t.id)));
            }
        }
        let existing = &self.events.buses[&bus].rules[&rule].targets;
        let after = existing.len() + targets.iter().filter(|t| !existing.contains_key(&t.id)).count();
        if after > MAX_TARGETS_PER_RULE {
            return Err(ApiError::new(
                "LimitExceededException",
                format!("The requested resource exceeds the maximum number allowed: a rule has at most {MAX_TARGETS_PER_RULE} targets (this would make {after})."),
            ));
        }
        let ids: Vec<String> = targets.iter().map(|t| t.id.clone()).collect();
        let entry = self.rule_mut(&bus, &rule);
        for t in targets {
            entry.targets.insert(t.id.clone(), t);
        }
        self.emit(EventKind::EventBridge(EbEvent::TargetsPut { bus, rule, targets: ids }));
        Ok(json!({ "FailedEntryCount": 0, "FailedEntries": [] }))
    }

    /// Ids the rule does not have are reported in `FailedEntries`; the others are removed.
    pub(crate) fn remove_targets(&mut self, p: &Params) -> ApiResult<Value> {
        let (bus, rule) = self.rule_ref(p.opt_str("EventBusName")?, p.str("Rule")?)?;
        p.opt_bool("Force")?;
        let ids = p.str_list("Ids")?;
        if ids.is_empty() || ids.len() > MAX_TARGETS_PER_REQUEST {
            return Err(validation(format!("Ids must list 1 to {MAX_TARGETS_PER_REQUEST} target ids.")));
        }
        let mut failed = Vec::new();
        let mut removed = Vec::new();
        let entry = self.rule_mut(&bus, &rule);
        for id in ids {
            match entry.targets.remove(id) {
                Some(_) => removed.push(id.to_string()),
                None => failed.push(json!({"TargetId": id, "ErrorCode": "ResourceNotFoundException",
                    "ErrorMessage": format!("Target {id} is not on rule {rule}.")})),
            }
        }
        if !removed.is_empty() {
            self.emit(EventKind::EventBridge(EbEvent::TargetsRemoved { bus, rule, targets: removed }));
        }
        Ok(json!({ "FailedEntryCount": failed.len(), "FailedEntries": failed }))
    }

    pub(crate) fn list_targets_by_rule(&mut self, p: &Params) -> ApiResult<Value> {
        let (bus, rule) = self.rule_ref(p.opt_str("EventBusName")?, p.str("Rule")?)?;
        let items: Vec<(&str, Value)> = self.events.buses[&bus].rules[&rule]
            .targets
            .values()
            .map(|t| (t.id.as_str(), Value::Object(t.raw.clone())))
            .collect();
        let (targets, next) = super::buses::page(items, p, 100)?;
        let mut out = json!({ "Targets": targets });
        if let Some(token) = next {
            out["NextToken"] = json!(token);
        }
        Ok(out)
    }
}

/// The target's name for events: the queue, topic or bus it delivers to.
pub(crate) fn destination_name(d: &Destination) -> Name {
    match d {
        Destination::Queue(n) | Destination::Topic(n) | Destination::Bus(n) | Destination::Function(n) => {
            n.as_str().into()
        }
    }
}
