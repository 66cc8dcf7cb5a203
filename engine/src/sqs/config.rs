//! A queue's configurable attributes: their AWS names, ranges, defaults and validation.

use crate::error::{ApiError, ApiResult};
use crate::ids;
use crate::vecmap::VecMap;
use serde::Serialize;
use serde_json::Value;

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

/// `DeduplicationScope`: deduplication across the whole queue or within each message group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DeduplicationScope {
    #[serde(rename = "queue")]
    Queue,
    #[serde(rename = "messageGroup")]
    MessageGroup,
}

/// `FifoThroughputLimit`: one quota for the queue, or a quota per message group (high throughput).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FifoThroughputLimit {
    #[serde(rename = "perQueue")]
    PerQueue,
    #[serde(rename = "perMessageGroupId")]
    PerMessageGroupId,
}

/// The attributes only FIFO queues have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FifoConfig {
    /// `ContentBasedDeduplication`: the SHA-256 of the body is the deduplication id. Default false.
    pub content_based_deduplication: bool,
    pub deduplication_scope: DeduplicationScope,
    pub throughput_limit: FifoThroughputLimit,
}

impl Default for FifoConfig {
    fn default() -> Self {
        FifoConfig {
            content_based_deduplication: false,
            deduplication_scope: DeduplicationScope::Queue,
            throughput_limit: FifoThroughputLimit::PerQueue,
        }
    }
}

impl FifoConfig {
    /// High throughput mode: per-message-group quotas with message-group deduplication.
    pub fn high_throughput(&self) -> bool {
        self.throughput_limit == FifoThroughputLimit::PerMessageGroupId
            && self.deduplication_scope == DeduplicationScope::MessageGroup
    }
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
    /// `Policy` (checked when set, enforced on SNS and EventBridge sends), `KmsMasterKeyId`,
    /// `SqsManagedSseEnabled`, …: kept and returned as given.
    pub passthrough: VecMap<String, String>,
    /// Set for FIFO queues (`FifoQueue` "true"), fixed when the queue is created.
    pub fifo: Option<FifoConfig>,
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
            passthrough: VecMap::new(),
            fifo: None,
        }
    }
}

/// Attributes stored as given: the access policy (see `policy`) and encryption.
const PASSTHROUGH: &[&str] = &["Policy", "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "SqsManagedSseEnabled"];

/// Attributes GetQueueAttributes returns that no call sets.
const READ_ONLY: &[&str] = &[
    "ApproximateNumberOfMessages",
    "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed",
    "CreatedTimestamp",
    "LastModifiedTimestamp",
    "QueueArn",
];

/// Every name GetQueueAttributes accepts (`All` too), including FIFO and encryption ones a
/// standard queue does not return.
pub(crate) fn is_attribute_name(name: &str) -> bool {
    name == "All" || [SETTABLE, FIFO_SETTABLE, PASSTHROUGH, READ_ONLY].iter().any(|names| names.contains(&name))
}

/// SSE-KMS and SSE-SQS exclude each other: one call cannot set a KMS key and turn SQS-managed
/// encryption on (AWS, observed, with this message).
fn check_one_encryption(attributes: &VecMap<String, String>) -> ApiResult<()> {
    let kms = attributes.get("KmsMasterKeyId").is_some_and(|k| !k.is_empty());
    if kms && attributes.get("SqsManagedSseEnabled").is_some_and(|v| v == "true") {
        return Err(ApiError::new(
            "InvalidAttributeName",
            "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.",
        ));
    }
    Ok(())
}

/// What a dead-letter target lookup tells: `None` if no such queue, else its
/// RedriveAllowPolicy and whether it is a FIFO queue.
pub type DlqLookup<'a> = dyn Fn(&str) -> Option<(Option<RedriveAllow>, bool)> + 'a;

/// Attributes only FIFO queues accept.
pub const FIFO_SETTABLE: &[&str] =
    &["FifoQueue", "ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit"];

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

fn unknown_attribute(name: &str, fifo: bool) -> ApiError {
    ApiError::new(
        "InvalidAttributeName",
        format!(
            "Unknown Attribute {name}. {} queue attributes are {}.",
            if fifo { "FIFO" } else { "Standard" },
            if fifo { [SETTABLE, FIFO_SETTABLE].concat().join(", ") } else { SETTABLE.join(", ") }
        ),
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
    /// `dlq_lookup` finds a dead-letter target by name: its RedriveAllowPolicy and whether it is FIFO.
    pub fn with_attributes(
        &self,
        attributes: &VecMap<String, String>,
        queue_arn: &str,
        dlq_lookup: &DlqLookup,
    ) -> ApiResult<QueueConfig> {
        check_one_encryption(attributes)?;
        let mut c = self.clone();
        for (name, value) in attributes {
            match (name.as_str(), c.fifo.as_mut()) {
                // A standard queue knows no FifoQueue attribute, not even "false" (AWS, observed).
                ("FifoQueue", None) => return Err(unknown_attribute(name, false)),
                ("FifoQueue", Some(_)) if value != "true" => {
                    return Err(invalid_value(
                        name,
                        value,
                        "a queue's type is fixed when it is created (FIFO names end in .fifo).",
                    ))
                }
                ("FifoQueue", Some(_)) => {}
                ("DeduplicationScope" | "FifoThroughputLimit", None) => {
                    return Err(ApiError::new(
                        "InvalidAttributeName",
                        format!("You can specify the {name} only when FifoQueue is set to true."),
                    ))
                }
                ("ContentBasedDeduplication", Some(f)) => {
                    f.content_based_deduplication = match value.as_str() {
                        "true" => true,
                        "false" => false,
                        _ => return Err(invalid_value(name, value, "must be true or false.")),
                    }
                }
                ("DeduplicationScope", Some(f)) => {
                    f.deduplication_scope = match value.as_str() {
                        "queue" => DeduplicationScope::Queue,
                        "messageGroup" => DeduplicationScope::MessageGroup,
                        _ => return Err(invalid_value(name, value, "must be queue or messageGroup.")),
                    }
                }
                ("FifoThroughputLimit", Some(f)) => {
                    f.throughput_limit = match value.as_str() {
                        "perQueue" => FifoThroughputLimit::PerQueue,
                        "perMessageGroupId" => FifoThroughputLimit::PerMessageGroupId,
                        _ => return Err(invalid_value(name, value, "must be perQueue or perMessageGroupId.")),
                    }
                }
                _ => c.apply_common(name, value, queue_arn, dlq_lookup)?,
            }
        }
        if let Some(f) = &c.fifo {
            if f.throughput_limit == FifoThroughputLimit::PerMessageGroupId
                && f.deduplication_scope != DeduplicationScope::MessageGroup
            {
                return Err(invalid_value(
                    "FifoThroughputLimit",
                    "perMessageGroupId",
                    "perMessageGroupId needs DeduplicationScope messageGroup (high throughput mode).",
                ));
            }
        }
        Ok(c)
    }

    fn apply_common(&mut self, name: &str, value: &str, queue_arn: &str, dlq_lookup: &DlqLookup) -> ApiResult<()> {
        let c = self;
        let fifo = c.fifo.is_some();
        match name {
            "VisibilityTimeout" => c.visibility_timeout = seconds(name, value, 0, 43_200)?,
            "DelaySeconds" => c.delay_seconds = seconds(name, value, 0, 900)?,
            "MessageRetentionPeriod" => c.retention_period = seconds(name, value, 60, 1_209_600)?,
            "MaximumMessageSize" => c.maximum_message_size = seconds(name, value, 1_024, 1_048_576)?,
            "ReceiveMessageWaitTimeSeconds" => c.receive_wait_time = seconds(name, value, 0, 20)?,
            "RedrivePolicy" if value.trim().is_empty() => c.redrive_policy = None,
            "RedrivePolicy" => {
                // A queue may be its own dead-letter queue (AWS accepts it); it is looked up as it
                // is now, since at CreateQueue it does not exist yet.
                let own = (c.redrive_allow.clone(), fifo);
                let lookup =
                    |dlq: &str| if ids::queue_arn(dlq) == queue_arn { Some(own.clone()) } else { dlq_lookup(dlq) };
                c.redrive_policy = Some(parse_redrive_policy(value, queue_arn, fifo, &lookup)?)
            }
            "RedriveAllowPolicy" if value.trim().is_empty() => c.redrive_allow = None,
            "RedriveAllowPolicy" => c.redrive_allow = Some(parse_redrive_allow(value)?),
            // AWS answers a malformed access policy "InvalidAttributeValue: Invalid value for the
            // parameter Policy." (observed); the reason is the playground's. Empty means none.
            "Policy" if !value.trim().is_empty() => {
                super::policy::QueuePolicy::parse(value).map_err(|why| {
                    ApiError::new(
                        "InvalidAttributeValue",
                        format!("Invalid value for the parameter Policy. Reason: {why}."),
                    )
                })?;
                c.passthrough.insert(name.to_string(), value.to_string());
            }
            "KmsMasterKeyId" | "KmsDataKeyReusePeriodSeconds" | "SqsManagedSseEnabled" => {
                c.set_encryption(name, value)?
            }
            n if PASSTHROUGH.contains(&n) => {
                c.passthrough.insert(name.to_string(), value.to_string());
            }
            _ => return Err(unknown_attribute(name, fifo)),
        }
        Ok(())
    }

    /// The encryption attributes, stored without effect. As AWS was observed to answer: a KMS key
    /// turns `SqsManagedSseEnabled` to "false", and it stays false when the key is cleared (set
    /// to ""); an empty key and the default reuse period (300 s) are not listed.
    fn set_encryption(&mut self, name: &str, value: &str) -> ApiResult<()> {
        let cleared = match name {
            "KmsMasterKeyId" => value.is_empty(),
            "KmsDataKeyReusePeriodSeconds" => value == "300",
            _ if value == "true" || value == "false" => false,
            _ => return Err(invalid_value(name, value, "must be true or false.")),
        };
        if name == "KmsMasterKeyId" && !cleared {
            self.passthrough.insert("SqsManagedSseEnabled".into(), "false".into());
        }
        if cleared {
            self.passthrough.remove(name);
        } else {
            self.passthrough.insert(name.to_string(), value.to_string());
        }
        Ok(())
    }

    /// The attributes as GetQueueAttributes returns them (all values are strings).
    pub fn to_attributes(&self) -> VecMap<String, String> {
        let mut m = VecMap::new();
        m.insert("VisibilityTimeout".into(), self.visibility_timeout.to_string());
        m.insert("DelaySeconds".into(), self.delay_seconds.to_string());
        m.insert("MessageRetentionPeriod".into(), self.retention_period.to_string());
        m.insert("MaximumMessageSize".into(), self.maximum_message_size.to_string());
        m.insert("ReceiveMessageWaitTimeSeconds".into(), self.receive_wait_time.to_string());
        if let Some(p) = &self.redrive_policy {
            // As its `Serialize` writes it, through the `Value` printer every other JSON here takes.
            let policy = serde_json::json!({
                "deadLetterTargetArn": p.dead_letter_target_arn,
                "maxReceiveCount": p.max_receive_count,
            });
            m.insert("RedrivePolicy".into(), policy.to_string());
        }
        if let Some(a) = &self.redrive_allow {
            m.insert("RedriveAllowPolicy".into(), redrive_allow_json(a));
        }
        m.insert("SqsManagedSseEnabled".into(), "true".into());
        if let Some(f) = &self.fifo {
            m.insert("FifoQueue".into(), "true".into());
            m.insert("ContentBasedDeduplication".into(), f.content_based_deduplication.to_string());
            let scope = serde_json::to_value(f.deduplication_scope).unwrap_or_default();
            m.insert("DeduplicationScope".into(), scope.as_str().unwrap_or_default().into());
            let limit = serde_json::to_value(f.throughput_limit).unwrap_or_default();
            m.insert("FifoThroughputLimit".into(), limit.as_str().unwrap_or_default().into());
        }
        m.extend(self.passthrough.clone());
        m
    }
}

fn parse_redrive_policy(value: &str, queue_arn: &str, fifo: bool, dlq_lookup: &DlqLookup) -> ApiResult<RedrivePolicy> {
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
    match dlq_lookup(dlq_name) {
        None => Err(bad(&format!("Dead letter target does not exist: no queue named \"{dlq_name}\"."))),
        Some((_, dlq_fifo)) if dlq_fifo != fifo => Err(bad(&format!(
            "Dead-letter queue must be same type of queue as the source: this queue is {}, \"{dlq_name}\" is {}.",
            if fifo { "FIFO" } else { "standard" },
            if dlq_fifo { "FIFO" } else { "standard" }
        ))),
        Some((Some(RedriveAllow::DenyAll), _)) => {
            Err(bad(&format!("the dead-letter queue \"{dlq_name}\" has a RedriveAllowPolicy of denyAll.")))
        }
        Some((Some(RedriveAllow::ByQueue(arns)), _)) if !arns.iter().any(|a| a == queue_arn) => Err(bad(&format!(
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
