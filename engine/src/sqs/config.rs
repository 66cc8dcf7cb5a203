//! A queue's configurable attributes: their AWS names, ranges, defaults and validation.

use crate::error::{ApiError, ApiResult};
use crate::ids;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// `RedrivePolicy`: where a message goes after `maxReceiveCount` receives without a delete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RedrivePolicy {
    #[serde(rename = "deadLetterTargetArn")]
    pub dead_letter_target_arn: String,
    #[serde(rename = "maxReceiveCount")]
    pub max_receive_count: u32,
}

/// `RedriveAllowPolicy`: which source queues may use this queue as their dead-letter queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum RedriveAllow {
    AllowAll,
    DenyAll,
    ByQueue(Vec<String>),
}

/// Every configurable attribute of a queue, with the AWS defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueueConfig {
    /// `VisibilityTimeout`, seconds: default 30, 0 to 43,200 (12 hours).
    pub visibility_timeout: u32,
    /// `DelaySeconds`: default 0, 0 to 900 (15 minutes).
    pub delay_seconds: u32,
    /// `MessageRetentionPeriod`, seconds: default 345,600 (4 days), 60 to 1,209,600 (14 days).
    pub retention_period: u32,
    /// `MaximumMessageSize`, bytes: 1,024 to 1,048,576; the default is the maximum, 1 MiB (since August 2025).
    pub maximum_message_size: u32,
    /// `ReceiveMessageWaitTimeSeconds`: default 0, 0 to 20.
    pub receive_wait_time: u32,
    pub redrive_policy: Option<RedrivePolicy>,
    pub redrive_allow: Option<RedriveAllow>,
    /// `Policy`, `KmsMasterKeyId`, `SqsManagedSseEnabled`, …: kept and returned, not enforced.
    pub passthrough: BTreeMap<String, String>,
}

impl Default for QueueConfig {
    fn default() -> Self {
        QueueConfig {
            visibility_timeout: 30,
            delay_seconds: 0,
            retention_period: 345_600,
            maximum_message_size: 1_048_576,
            receive_wait_time: 0,
            redrive_policy: None,
            redrive_allow: None,
            passthrough: BTreeMap::new(),
        }
    }
}

/// Attributes stored as given, without effect in the playground (access policies, encryption).
const PASSTHROUGH: &[&str] = &["Policy", "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "SqsManagedSseEnabled"];
/// FIFO attributes: the playground does not model FIFO queues yet.
const FIFO_ONLY: &[&str] = &["FifoQueue", "ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit"];

pub const SETTABLE: &[&str] = &[
    "DelaySeconds",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "ReceiveMessageWaitTimeSeconds",
    "VisibilityTimeout",
    "RedrivePolicy",
    "RedriveAllowPolicy",
];

fn invalid_value(name: &str, value: &str, reason: &str) -> ApiError {
    ApiError::new(
        "InvalidAttributeValue",
        format!("Invalid value for the parameter {name}: \"{value}\". Reason: {reason}"),
    )
}

fn seconds(name: &str, value: &str, min: u32, max: u32) -> ApiResult<u32> {
    match value.trim().parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(invalid_value(name, value, &format!("must be a whole number from {min} to {max}."))),
    }
}

impl QueueConfig {
    /// Applies `Attributes` from CreateQueue or SetQueueAttributes to a copy of this config.
    /// `queue_exists` looks up a dead-letter target by name and returns its RedriveAllowPolicy.
    pub fn with_attributes(
        &self,
        attributes: &BTreeMap<String, String>,
        queue_arn: &str,
        dlq_allow: &dyn Fn(&str) -> Option<Option<RedriveAllow>>,
    ) -> ApiResult<QueueConfig> {
        let mut c = self.clone();
        for (name, value) in attributes {
            match name.as_str() {
                "VisibilityTimeout" => c.visibility_timeout = seconds(name, value, 0, 43_200)?,
                "DelaySeconds" => c.delay_seconds = seconds(name, value, 0, 900)?,
                "MessageRetentionPeriod" => c.retention_period = seconds(name, value, 60, 1_209_600)?,
                "MaximumMessageSize" => c.maximum_message_size = seconds(name, value, 1_024, 1_048_576)?,
                "ReceiveMessageWaitTimeSeconds" => c.receive_wait_time = seconds(name, value, 0, 20)?,
                "RedrivePolicy" if value.trim().is_empty() => c.redrive_policy = None,
                "RedrivePolicy" => c.redrive_policy = Some(parse_redrive_policy(value, queue_arn, dlq_allow)?),
                "RedriveAllowPolicy" if value.trim().is_empty() => c.redrive_allow = None,
                "RedriveAllowPolicy" => c.redrive_allow = Some(parse_redrive_allow(value)?),
                n if PASSTHROUGH.contains(&n) => {
                    c.passthrough.insert(name.clone(), value.clone());
                }
                n if FIFO_ONLY.contains(&n) => {
                    if n == "FifoQueue" && value == "false" {
                        continue;
                    }
                    return Err(invalid_value(
                        name,
                        value,
                        "FIFO queues are not modelled by the playground yet; use a standard queue.",
                    ));
                }
                _ => {
                    return Err(ApiError::new(
                        "InvalidAttributeName",
                        format!("Unknown Attribute {name}. Queue attributes are {}.", SETTABLE.join(", ")),
                    ))
                }
            }
        }
        Ok(c)
    }

    /// The attributes as GetQueueAttributes returns them (all values are strings).
    pub fn to_attributes(&self) -> BTreeMap<String, String> {
        let mut m = BTreeMap::new();
        m.insert("VisibilityTimeout".into(), self.visibility_timeout.to_string());
        m.insert("DelaySeconds".into(), self.delay_seconds.to_string());
        m.insert("MessageRetentionPeriod".into(), self.retention_period.to_string());
        m.insert("MaximumMessageSize".into(), self.maximum_message_size.to_string());
        m.insert("ReceiveMessageWaitTimeSeconds".into(), self.receive_wait_time.to_string());
        if let Some(p) = &self.redrive_policy {
            m.insert("RedrivePolicy".into(), serde_json::to_string(p).unwrap_or_default());
        }
        if let Some(a) = &self.redrive_allow {
            m.insert("RedriveAllowPolicy".into(), redrive_allow_json(a));
        }
        m.insert("SqsManagedSseEnabled".into(), "true".into());
        m.extend(self.passthrough.clone());
        m
    }
}

fn parse_redrive_policy(
    value: &str,
    queue_arn: &str,
    dlq_allow: &dyn Fn(&str) -> Option<Option<RedriveAllow>>,
) -> ApiResult<RedrivePolicy> {
    // A malformed redrive policy is InvalidParameterValue on AWS, unlike the other attributes.
    let bad = |reason: &str| {
        ApiError::new(
            "InvalidParameterValue",
            format!("Value {value} for parameter RedrivePolicy is invalid. Reason: {reason}"),
        )
    };
    let json: Value = serde_json::from_str(value).map_err(|e| bad(&format!("not valid JSON ({e}).")))?;
    let Value::Object(map) = json else { return Err(bad("must be a JSON object.")) };
    if let Some(k) = map.keys().find(|k| *k != "deadLetterTargetArn" && *k != "maxReceiveCount") {
        return Err(bad(&format!("unknown key \"{k}\"; use deadLetterTargetArn and maxReceiveCount.")));
    }
    let arn = map
        .get("deadLetterTargetArn")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("Redrive policy does not contain mandatory attribute: deadLetterTargetArn."))?;
    let count = match map.get("maxReceiveCount") {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => s.parse::<u64>().ok(),
        _ => return Err(bad("Redrive policy does not contain mandatory attribute: maxReceiveCount.")),
    };
    let count = count
        .filter(|n| (1..=1000).contains(n))
        .ok_or_else(|| bad("Invalid value for maxReceiveCount, valid values are from 1 to 1000 both inclusive."))?;
    let dlq_name = match ids::queue_name_from(arn) {
        Some(n) if arn.starts_with("arn:") => n,
        _ => return Err(bad("deadLetterTargetArn must be a queue ARN (arn:aws:sqs:us-east-1:000000000000:NAME).")),
    };
    match dlq_allow(dlq_name) {
        None => Err(bad(&format!("Dead letter target does not exist: no queue named \"{dlq_name}\"."))),
        Some(Some(RedriveAllow::DenyAll)) => {
            Err(bad(&format!("the dead-letter queue \"{dlq_name}\" has a RedriveAllowPolicy of denyAll.")))
        }
        Some(Some(RedriveAllow::ByQueue(arns))) if !arns.iter().any(|a| a == queue_arn) => Err(bad(&format!(
            "the dead-letter queue \"{dlq_name}\" allows only these source queues in its RedriveAllowPolicy: {}.",
            arns.join(", ")
        ))),
        Some(_) => Ok(RedrivePolicy { dead_letter_target_arn: arn.to_string(), max_receive_count: count as u32 }),
    }
}

fn parse_redrive_allow(value: &str) -> ApiResult<RedriveAllow> {
    let bad = |reason: &str| invalid_value("RedriveAllowPolicy", value, reason);
    let json: Value = serde_json::from_str(value).map_err(|e| bad(&format!("not valid JSON ({e}).")))?;
    let permission = json.get("redrivePermission").and_then(Value::as_str);
    let arns = json.get("sourceQueueArns");
    match (permission, arns) {
        (Some("allowAll"), None) => Ok(RedriveAllow::AllowAll),
        (Some("denyAll"), None) => Ok(RedriveAllow::DenyAll),
        (Some("byQueue"), Some(Value::Array(list))) if (1..=10).contains(&list.len()) => list
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| bad("sourceQueueArns must be queue ARNs.")))
            .collect::<ApiResult<Vec<_>>>()
            .map(RedriveAllow::ByQueue),
        (Some("byQueue"), _) => Err(bad("byQueue needs sourceQueueArns with 1 to 10 queue ARNs.")),
        (Some("allowAll" | "denyAll"), Some(_)) => Err(bad("sourceQueueArns goes only with byQueue.")),
        _ => Err(bad("redrivePermission must be allowAll, denyAll or byQueue.")),
    }
}

fn redrive_allow_json(a: &RedriveAllow) -> String {
    match a {
        RedriveAllow::AllowAll => r#"{"redrivePermission":"allowAll"}"#.to_string(),
        RedriveAllow::DenyAll => r#"{"redrivePermission":"denyAll"}"#.to_string(),
        RedriveAllow::ByQueue(arns) => {
            serde_json::json!({"redrivePermission": "byQueue", "sourceQueueArns": arns}).to_string()
        }
    }
}
