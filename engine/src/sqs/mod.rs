//! Amazon SQS: queues, sends, and the queue-management actions.
//! Receiving, deleting and visibility live in `receive`; dead-letter redrive tasks in `move_task`.

mod config;
pub(crate) mod fifo;
pub(crate) mod md5;
mod move_task;
mod queue;
mod receive;

pub use config::{DeduplicationScope, FifoConfig, FifoThroughputLimit, QueueConfig, RedriveAllow, RedrivePolicy};
pub(crate) use move_task::MoveTask;
pub use queue::{parse_receipt_handle, Message, MsgState, Queue, QueueStats};

use crate::attributes::MessageAttributes;
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids::{self, MsgId, SnsId};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::SimTime;
use crate::vecmap::VecMap;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// At most 10 message attributes per SQS message.
pub const MAX_MESSAGE_ATTRIBUTES: usize = 10;
/// Batch actions take 1 to 10 entries.
pub const MAX_BATCH_ENTRIES: usize = 10;

/// A message about to be stored in a queue, from whichever path brought it.
pub(crate) struct Incoming {
    pub body: Arc<str>,
    /// The body's MD5 when the sender already has it (one publish, many raw copies).
    pub md5: Option<Arc<str>>,
    pub attributes: Arc<MessageAttributes>,
    pub sender: Name,
    pub sns_id: Option<SnsId>,
    pub delay_seconds: u32,
    /// Set by a standard queue's redrive: the dead-letter queue keeps the original enqueue time.
    pub sent_at: Option<SimTime>,
    /// Set by redrive, which keeps the message id.
    pub id: Option<MsgId>,
    pub dead_letter_source: Option<Name>,
    pub receive_count: u32,
    pub first_receive_at: Option<SimTime>,
    /// FIFO: the message group and the deduplication id (explicit or from the content).
    pub group: Option<Name>,
    pub dedup_id: Option<Name>,
}

impl Incoming {
    pub fn new(body: Arc<str>, attributes: Arc<MessageAttributes>, sender: Name) -> Self {
        Incoming {
            body,
            md5: None,
            attributes,
            sender,
            sns_id: None,
            delay_seconds: 0,
            sent_at: None,
            id: None,
            dead_letter_source: None,
            receive_count: 0,
            first_receive_at: None,
            group: None,
            dedup_id: None,
        }
    }
}

/// FIFO queues: transactions per second per API action (and per message group in high throughput mode).
pub const FIFO_TPS: u32 = 300;
/// FIFO queues in high throughput mode, us-east-1: transactions per second per API action.
pub const FIFO_HIGH_THROUGHPUT_TPS: u32 = 70_000;

fn throttled(action: &str, limit: u32, scope: &str) -> ApiError {
    ApiError::new(
        "ThrottlingException",
        format!("Rate exceeded: {action} calls on {scope} are limited to {limit} per second. Batch up to 10 messages per call, spread the load over more message groups, or turn on high throughput mode."),
    )
}

fn not_for_this_queue_type(parameter: &str) -> ApiError {
    ApiError::new(
        "InvalidParameterValue",
        format!("Value for parameter {parameter} is invalid. Reason: The request include parameter that is not valid for this queue type."),
    )
}

fn queue_not_found() -> ApiError {
    ApiError::new("QueueDoesNotExist", "The specified queue does not exist.")
}

/// What happened to a message offered to a queue.
pub(crate) enum Accepted {
    Stored(MsgId),
    /// Dropped by FIFO deduplication; the id of the message first accepted.
    Deduplicated(MsgId),
}

/// `SequenceNumber`: large, increasing, given as a string (AWS: 128-bit, not consecutive).
pub(crate) fn sequence_number(n: u64) -> String {
    format!("{n:020}")
}

/// The sender id of messages sent directly by the playground's user.
pub const PLAYGROUND_SENDER: &str = "AIDAPLAYGROUND000000";

impl Sim {
    /// Resolves a queue named by name, URL or ARN to the name of an existing queue.
    pub(crate) fn queue_ref(&self, reference: &str) -> ApiResult<Name> {
        let name = ids::queue_name_from(reference).ok_or_else(queue_not_found)?;
        self.queues.get_key_value(name).map(|(k, _)| k.clone()).ok_or_else(queue_not_found)
    }

    pub(crate) fn queue_mut(&mut self, name: &Name) -> &mut Queue {
        self.queues.get_mut(name).expect("invariant: a resolved queue name exists")
    }

    /// A queue and the timer table, borrowed together.
    pub(crate) fn queue_parts(&mut self, name: &Name) -> (&mut Queue, &mut crate::timers::Timers) {
        (self.queues.get_mut(name).expect("invariant: a resolved queue name exists"), &mut self.timers)
    }

    /// Stores a message in `queue`: assigns its id, draws at-least-once duplicates and
    /// best-effort reordering (standard queues), and starts its delay. Returns the id.
    pub(crate) fn store(&mut self, queue: &Name, incoming: Incoming) -> MsgId {
        let id = incoming.id.unwrap_or_else(|| {
            self.counters.message += 1;
            MsgId(self.counters.message)
        });
        // At-least-once delivery and best-effort order are standard-queue traits; FIFO has neither.
        let standard = self.queues[queue].fifo.is_none();
        let copies =
            if standard && incoming.id.is_none() && self.rng.chance_ppm(self.settings.duplicate_ppm) { 2 } else { 1 };
        let now = self.now;
        let md5: Arc<str> = incoming.md5.clone().unwrap_or_else(|| md5::md5_hex(&incoming.body).into());
        for copy in 0..copies {
            self.counters.copy += 1;
            let key = self.counters.copy;
            let reorder = standard && self.rng.chance_ppm(self.settings.reorder_ppm);
            let jump = if reorder { 1 + self.rng.below(3) as u64 } else { 0 };
            let q = self.queues.get_mut(queue).expect("invariant: store targets an existing queue");
            let sequence = q.fifo.as_mut().map(|f| f.next_sequence());
            let order = q.take_order().saturating_sub(jump * 4 + 2 * u64::from(jump > 0));
            let msg = Box::new(Message {
                key,
                id,
                body: incoming.body.clone(),
                md5: md5.clone(),
                attributes: incoming.attributes.clone(),
                sent_at: incoming.sent_at.unwrap_or(now),
                first_receive_at: incoming.first_receive_at,
                receive_count: incoming.receive_count,
                state: MsgState::Visible,
                order,
                state_timer: None,
                sender: incoming.sender.clone(),
                sns_id: incoming.sns_id,
                dead_letter_source: incoming.dead_letter_source.clone(),
                duplicate: copy > 0,
                group: incoming.group.clone(),
                dedup_id: incoming.dedup_id.clone(),
                sequence,
            });
            let visible_at = now.plus_secs(u64::from(incoming.delay_seconds));
            q.insert(msg, now, visible_at, &mut self.timers);
            if copy > 0 {
                self.emit(EventKind::DuplicateStored { queue: queue.clone(), message_id: id });
            }
        }
        id
    }

    pub(crate) fn create_queue(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("QueueName")?;
        if !ids::valid_resource_name(name, 80) {
            return Err(Service::Sqs.invalid_value(format!(
                "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length (queue name \"{name}\")."
            )));
        }
        let attributes = p.string_map("Attributes")?;
        let fifo = attributes.get("FifoQueue").is_some_and(|v| v == "true");
        if fifo != name.ends_with(".fifo") {
            return Err(Service::Sqs.invalid_value(if fifo {
                format!("The name of a FIFO queue must end with the .fifo suffix (\"{name}\").")
            } else {
                format!("\"{name}\" ends with .fifo, which only FIFO queues may: add the attribute FifoQueue \"true\".")
            }));
        }
        if let Some(existing) = self.queues.get(name) {
            let current = existing.config.to_attributes();
            if let Some((k, _)) = attributes.iter().find(|(k, v)| current.get(*k) != Some(*v)) {
                return Err(ApiError::new(
                    "QueueNameExists",
                    format!("A queue already exists with the same name and a different value for attribute {k}"),
                ));
            }
            return Ok(json!({ "QueueUrl": existing.url() }));
        }
        if let Some(deleted_at) = self.deleted_queues.get(name) {
            if self.now.0 < deleted_at.0 + 60_000 {
                return Err(ApiError::new(
                    "QueueDeletedRecently",
                    format!("You must wait 60 seconds after deleting a queue before you can create another with the same name (\"{name}\")."),
                ));
            }
        }
        let base = QueueConfig { fifo: fifo.then(FifoConfig::default), ..QueueConfig::default() };
        let config = self.config_with(&base, &attributes, &ids::queue_arn(name))?;
        let queue = Queue::new(name, config, self.now);
        let url = queue.url();
        let key = queue.name.clone();
        self.queues.insert(key.clone(), queue);
        self.emit(EventKind::QueueCreated { queue: key });
        Ok(json!({ "QueueUrl": url }))
    }

    fn config_with(&self, base: &QueueConfig, attrs: &VecMap<String, String>, arn: &str) -> ApiResult<QueueConfig> {
        let lookup = |dlq: &str| self.queues.get(dlq).map(|q| (q.config.redrive_allow.clone(), q.fifo.is_some()));
        base.with_attributes(attrs, arn, &lookup)
    }

    pub(crate) fn delete_queue(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let mut queue = self.queues.remove(&name).expect("invariant: resolved queue exists");
        let lost = queue.clear(&mut self.timers);
        let orphaned: Vec<u64> =
            self.move_tasks.values().filter(|t| t.is_running() && t.source == name).map(|t| t.number).collect();
        for task in orphaned {
            self.end_task(task, "FAILED", Some("AWS.SimpleQueueService.NonExistentQueue".into()));
        }
        self.deleted_queues.insert(name.clone(), self.now);
        self.emit(EventKind::QueueDeleted { queue: name, messages_lost: lost });
        Ok(json!({}))
    }

    pub(crate) fn get_queue_url(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("QueueName")?;
        let queue = self.queues.get(name).ok_or_else(queue_not_found)?;
        Ok(json!({ "QueueUrl": queue.url() }))
    }

    pub(crate) fn list_queues(&mut self, p: &Params) -> ApiResult<Value> {
        let prefix = p.opt_str("QueueNamePrefix")?.unwrap_or("");
        let max = p.opt_int("MaxResults", 1, 1000)?.unwrap_or(1000) as usize;
        let urls: Vec<String> =
            self.queues.values().filter(|q| q.name.starts_with(prefix)).take(max).map(Queue::url).collect();
        Ok(json!({ "QueueUrls": urls }))
    }

    pub(crate) fn get_queue_attributes(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let wanted = p.str_list("AttributeNames")?;
        let all = self.queue_attributes(&self.queues[&name]);
        let mut out = Map::new();
        for w in &wanted {
            if *w == "All" {
                out.extend(all.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))));
            } else if let Some(v) = all.get(*w) {
                out.insert(w.to_string(), Value::String(v.clone()));
            } else if !QUEUE_ATTRIBUTE_NAMES.contains(w) {
                return Err(ApiError::new("InvalidAttributeName", format!("Unknown Attribute {w}.")));
            }
        }
        Ok(json!({ "Attributes": out }))
    }

    /// Every attribute GetQueueAttributes can return for a queue, as strings.
    pub(crate) fn queue_attributes(&self, q: &Queue) -> VecMap<String, String> {
        let mut m = q.config.to_attributes();
        m.insert("ApproximateNumberOfMessages".into(), q.visible_count().to_string());
        m.insert("ApproximateNumberOfMessagesNotVisible".into(), q.inflight.to_string());
        m.insert("ApproximateNumberOfMessagesDelayed".into(), q.delayed.to_string());
        m.insert("CreatedTimestamp".into(), (q.created_at.epoch_ms() / 1000).to_string());
        m.insert("LastModifiedTimestamp".into(), (q.modified_at.epoch_ms() / 1000).to_string());
        m.insert("QueueArn".into(), q.arn.to_string());
        m
    }

    pub(crate) fn set_queue_attributes(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let attributes = p.string_map("Attributes")?;
        let config = self.config_with(&self.queues[&name].config, &attributes, &ids::queue_arn(&name))?;
        let now = self.now;
        let q = self.queues.get_mut(&name).expect("invariant: resolved queue exists");
        q.config = config;
        q.modified_at = now;
        // A new retention period applies to the messages already there.
        q.schedule_retention(&mut self.timers);
        self.emit(EventKind::QueueAttributesSet { queue: name, attributes: attributes.into_keys().collect() });
        Ok(json!({}))
    }

    pub(crate) fn list_dead_letter_source_queues(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let arn = ids::queue_arn(&name);
        let urls: Vec<String> = self
            .queues
            .values()
            .filter(|q| q.config.redrive_policy.as_ref().is_some_and(|r| r.dead_letter_target_arn == arn))
            .map(Queue::url)
            .collect();
        Ok(json!({ "queueUrls": urls }))
    }

    pub(crate) fn send_message(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let checked = self.check_send(&name, p)?;
        self.fifo_quota(&name, "Send", checked.group.as_deref())?;
        self.count_call(&name, "Send", checked.group.as_deref());
        Ok(self.send_checked(&name, checked))
    }

    pub(crate) fn send_message_batch(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let entries = batch_entries(p, "Entries")?;
        self.fifo_quota(&name, "Send", None)?;
        self.count_call(&name, "Send", None);
        let limit = self.queues[&name].config.maximum_message_size as usize;
        let total: usize =
            entries.iter().map(|(_, e)| e.get("MessageBody").and_then(Value::as_str).map_or(0, str::len)).sum();
        if total > limit {
            return Err(ApiError::new(
                "BatchRequestTooLong",
                format!("Batch requests cannot be longer than {limit} bytes. You have sent {total} bytes."),
            ));
        }
        let mut successful = Vec::new();
        let mut failed = Vec::new();
        for (id, entry) in entries {
            let checked = Params::new(Service::Sqs, "SendMessageBatch entry", entry, ENTRY_PARAMS)
                .and_then(|ep| self.check_send(&name, &ep));
            match checked {
                Ok(checked) => {
                    let mut result = self.send_checked(&name, checked);
                    result["Id"] = json!(id);
                    successful.push(result);
                }
                Err(e) => failed.push(json!({"Id": id, "SenderFault": true, "Code": e.code, "Message": e.message})),
            }
        }
        Ok(json!({ "Successful": successful, "Failed": failed }))
    }

    /// Validates one message to send; changes nothing.
    fn check_send(&self, queue: &Name, p: &Params) -> ApiResult<Incoming> {
        let body = p.str("MessageBody")?;
        let q = &self.queues[queue];
        if body.is_empty() {
            return Err(ApiError::new("InvalidParameterValue", "The request must contain a non-empty MessageBody."));
        }
        if let Some(bad) = body.chars().find(|c| !valid_message_char(*c)) {
            return Err(ApiError::new(
                "InvalidMessageContents",
                format!("Invalid binary character '#x{:X}' was found in the message body, the set of allowed characters is #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF", bad as u32),
            ));
        }
        let (group, dedup_id) = self.check_fifo_send(q, p, body)?;
        let delay = p.opt_int("DelaySeconds", 0, 900)?;
        if delay.is_some() && q.fifo.is_some() {
            return Err(not_for_this_queue_type("DelaySeconds"));
        }
        let delay = delay.map_or(q.config.delay_seconds, |d| d as u32);
        let attributes = p.message_attributes("MessageAttributes")?;
        if attributes.len() > MAX_MESSAGE_ATTRIBUTES {
            return Err(ApiError::new(
                "InvalidParameterValue",
                format!(
                    "Number of message attributes [{}] exceeds the allowed maximum [{MAX_MESSAGE_ATTRIBUTES}].",
                    attributes.len()
                ),
            ));
        }
        let size = body.len() + attributes_size(&attributes);
        if size > q.config.maximum_message_size as usize {
            return Err(ApiError::new(
                "InvalidParameterValue",
                format!("One or more parameters are invalid. Reason: Message must be shorter than {} bytes (this one is {size}).", q.config.maximum_message_size),
            ));
        }
        let mut incoming = Incoming::new(body.into(), Arc::new(attributes), PLAYGROUND_SENDER.into());
        incoming.delay_seconds = delay;
        incoming.group = group;
        incoming.dedup_id = dedup_id;
        Ok(incoming)
    }

    /// FIFO queues require `MessageGroupId` and a deduplication id (given, or the body's SHA-256
    /// with ContentBasedDeduplication); standard queues refuse a deduplication id and take a
    /// group id (fair queues, not modelled beyond keeping it).
    fn check_fifo_send(&self, q: &Queue, p: &Params, body: &str) -> ApiResult<(Option<Name>, Option<Name>)> {
        let group = p.opt_str("MessageGroupId")?;
        let dedup = p.opt_str("MessageDeduplicationId")?;
        for (name, value) in [("MessageGroupId", group), ("MessageDeduplicationId", dedup)] {
            if value.is_some_and(|v| !fifo::valid_fifo_token(v)) {
                return Err(Service::Sqs.invalid_value(format!(
                    "Value for parameter {name} is invalid. Reason: 1 to 128 letters, digits and punctuation."
                )));
            }
        }
        let Some(config) = &q.config.fifo else {
            if dedup.is_some() {
                return Err(not_for_this_queue_type("MessageDeduplicationId"));
            }
            return Ok((group.map(Name::from), None));
        };
        let group = group.ok_or_else(|| {
            ApiError::new("MissingParameter", "The request must contain the parameter MessageGroupId.")
        })?;
        let dedup = match dedup {
            Some(d) => d.to_string(),
            None if config.content_based_deduplication => fifo::content_dedup_id(body),
            None => {
                return Err(Service::Sqs.invalid_value(
                    "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
                ))
            }
        };
        Ok((Some(group.into()), Some(dedup.into())))
    }

    fn send_checked(&mut self, queue: &Name, incoming: Incoming) -> Value {
        let digest: Arc<str> = md5::md5_hex(&incoming.body).into();
        let mut out = json!({ "MD5OfMessageBody": &*digest });
        let mut incoming = incoming;
        incoming.md5 = Some(digest);
        if let Some(m) = md5::md5_of_attributes(&incoming.attributes) {
            out["MD5OfMessageAttributes"] = json!(m);
        }
        let delay = incoming.delay_seconds;
        match self.accept(queue, incoming) {
            Accepted::Deduplicated(first) => out["MessageId"] = json!(first),
            Accepted::Stored(id) => {
                let q = self.queue_mut(queue);
                q.stats.sent += 1;
                if let Some(f) = &q.fifo {
                    out["SequenceNumber"] = json!(sequence_number(f.sequence));
                }
                out["MessageId"] = json!(id);
                self.emit(EventKind::MessageSent { queue: queue.clone(), message_id: id, delay_seconds: delay });
            }
        }
        out
    }

    /// Stores a message, unless FIFO deduplication drops it: a deduplication id accepted in the
    /// last five minutes (in the queue, or in the message group with DeduplicationScope
    /// messageGroup) is acknowledged with the first message's id and not stored — also when the
    /// first message was already received and deleted.
    pub(crate) fn accept(&mut self, queue: &Name, incoming: Incoming) -> Accepted {
        let now = self.now;
        let q = &self.queues[queue];
        let key = match (&q.fifo, &q.config.fifo, &incoming.dedup_id) {
            (Some(_), Some(config), Some(dedup)) => {
                let scope = match (config.deduplication_scope, &incoming.group) {
                    (DeduplicationScope::MessageGroup, Some(g)) => g.to_string(),
                    _ => String::new(),
                };
                Some((scope, dedup.to_string()))
            }
            _ => None,
        };
        if let Some((scope, dedup)) = &key {
            let seen = q.fifo.as_ref().and_then(|f| f.dedup.seen(now, scope, dedup));
            if let Some(fifo::MsgIdOrSns::Sqs(first)) = seen {
                self.emit(EventKind::Deduplicated {
                    resource: queue.clone(),
                    message_id: first.to_string(),
                    deduplication_id: dedup.clone(),
                });
                return Accepted::Deduplicated(first);
            }
        }
        let id = self.store(queue, incoming);
        if let (Some((scope, dedup)), Some(f)) = (key, self.queue_mut(queue).fifo.as_mut()) {
            f.dedup.record(now, &scope, &dedup, fifo::MsgIdOrSns::Sqs(id));
        }
        Accepted::Stored(id)
    }

    /// The FIFO throughput quotas (us-east-1 figures, SQS developer guide "Amazon SQS message
    /// quotas"): 300 transactions per second per API action per queue, a batch counting as one;
    /// in high throughput mode 70,000 per action per queue, and 300 per message group.
    pub(crate) fn fifo_quota(&self, queue: &Name, action: &str, group: Option<&str>) -> ApiResult<()> {
        let q = &self.queues[queue];
        let Some(config) = &q.config.fifo else { return Ok(()) };
        let high = config.high_throughput();
        let limit = if high { FIFO_HIGH_THROUGHPUT_TPS } else { FIFO_TPS };
        if !q.rates.allows(action, self.now, limit) {
            return Err(throttled(action, limit, "this queue"));
        }
        if let (true, Some(g)) = (high, group) {
            if !q.rates.allows(&format!("{action}/{g}"), self.now, FIFO_TPS) {
                return Err(throttled(action, FIFO_TPS, &format!("message group {g}")));
            }
        }
        Ok(())
    }

    pub(crate) fn count_call(&mut self, queue: &Name, action: &str, group: Option<&str>) {
        let now = self.now;
        let q = self.queue_mut(queue);
        let Some(config) = &q.config.fifo else { return };
        let high = config.high_throughput();
        q.rates.count(action, now);
        if let (true, Some(g)) = (high, group) {
            q.rates.count(&format!("{action}/{g}"), now);
        }
    }

    pub(crate) fn purge_queue(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let now = self.now;
        let (q, timers) = self.queue_parts(&name);
        if q.last_purge.is_some_and(|t| now.0 < t.0 + 60_000) {
            return Err(ApiError::new(
                "PurgeQueueInProgress",
                format!("Only one PurgeQueue operation on {name} is allowed every 60 seconds."),
            ));
        }
        q.last_purge = Some(now);
        // Simplified: AWS may take up to 60 s to finish a purge; here it is immediate.
        let removed = q.clear(timers);
        q.stats.purged += removed as u64;
        self.emit(EventKind::Purged { queue: name, messages: removed });
        Ok(json!({}))
    }
}

/// What one message of SendMessage and of a SendMessageBatch entry carries.
const MESSAGE_PARAMS: &[&str] = &[
    "MessageBody",
    "DelaySeconds",
    "MessageAttributes",
    "MessageSystemAttributes",
    "MessageGroupId",
    "MessageDeduplicationId",
];
pub(crate) const SEND_PARAMS: &[&str] = crate::actions::names!(&["QueueUrl"], MESSAGE_PARAMS);
const ENTRY_PARAMS: &[&str] = crate::actions::names!(&["Id"], MESSAGE_PARAMS);

/// Every name GetQueueAttributes accepts, including FIFO and encryption ones a standard queue
/// does not return.
const QUEUE_ATTRIBUTE_NAMES: &[&str] = &[
    "All",
    "Policy",
    "VisibilityTimeout",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "ApproximateNumberOfMessages",
    "ApproximateNumberOfMessagesNotVisible",
    "CreatedTimestamp",
    "LastModifiedTimestamp",
    "QueueArn",
    "ApproximateNumberOfMessagesDelayed",
    "DelaySeconds",
    "ReceiveMessageWaitTimeSeconds",
    "RedrivePolicy",
    "FifoQueue",
    "ContentBasedDeduplication",
    "KmsMasterKeyId",
    "KmsDataKeyReusePeriodSeconds",
    "DeduplicationScope",
    "FifoThroughputLimit",
    "RedriveAllowPolicy",
    "SqsManagedSseEnabled",
];

/// The characters SQS allows in a message body.
fn valid_message_char(c: char) -> bool {
    matches!(c as u32, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// Attribute names, types and values count toward the message size.
pub(crate) fn attributes_size(attributes: &MessageAttributes) -> usize {
    attributes
        .iter()
        .map(|(k, v)| {
            k.len()
                + v.data_type.len()
                + v.string_value.as_ref().map_or(0, String::len)
                + v.binary_value.as_ref().map_or(0, String::len)
        })
        .sum()
}

/// Checks a batch's entries as SQS and SNS both do: 1 to 10 entries, each with a distinct `Id`
/// of up to 80 letters, digits, hyphens and underscores. Returns (Id, entry) pairs.
pub(crate) fn batch_entries<'a>(p: &Params<'a>, name: &str) -> ApiResult<Vec<(&'a str, &'a Value)>> {
    let entries = p.object_list(name)?;
    if entries.is_empty() {
        return Err(ApiError::new("EmptyBatchRequest", "There should be at least one entry in the request."));
    }
    if entries.len() > MAX_BATCH_ENTRIES {
        return Err(ApiError::new(
            "TooManyEntriesInBatchRequest",
            format!("Maximum number of entries per request are {MAX_BATCH_ENTRIES}. You have sent {}.", entries.len()),
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for entry in entries {
        let id = entry.get("Id").and_then(Value::as_str).unwrap_or("");
        let valid =
            !id.is_empty() && id.len() <= 80 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(ApiError::new(
                "InvalidBatchEntryId",
                format!("A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long (got \"{id}\")."),
            ));
        }
        if !seen.insert(id) {
            return Err(ApiError::new("BatchEntryIdsNotDistinct", format!("Id {id} repeated.")));
        }
        out.push((id, entry));
    }
    Ok(out)
}
