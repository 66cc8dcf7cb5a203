//! Amazon SQS: storing messages, and what every SQS action shares (queue lookup, the FIFO
//! throughput quotas, batch entries, parameter lists).
//! The queue-management actions live in `manage`, sending in `send`; receiving, deleting and
//! visibility in `receive` (the response shape of a received message in `received`); the
//! queue's attributes in `config`; message groups and deduplication in `fifo`; dead-letter
//! redrive tasks in `move_task`.

pub(crate) mod access;
mod config;
pub(crate) mod fifo;
mod manage;
pub(crate) mod md5;
mod move_task;
pub mod policy;
mod queue;
mod receive;
mod received;
mod send;

pub use config::{DeduplicationScope, FifoConfig, FifoThroughputLimit, QueueConfig, RedriveAllow, RedrivePolicy};
pub(crate) use move_task::MoveTask;
pub use queue::{parse_receipt_handle, Message, MsgState, Queue, QueueStats};
pub(crate) use receive::{DELETE_PARAMS, VISIBILITY_PARAMS};
pub(crate) use received::Received;
pub(crate) use send::SEND_PARAMS;

use crate::attributes::MessageAttributes;
use crate::error::{ApiError, ApiResult};
use crate::event::{EventKind, Name};
use crate::ids::{self, MsgId, SnsId};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::SimTime;
use serde_json::Value;
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
    /// The `AWSTraceHeader` message system attribute.
    pub trace_header: Option<Arc<str>>,
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
            trace_header: None,
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
                trace_header: incoming.trace_header.clone(),
            });
            let visible_at = now.plus_secs(u64::from(incoming.delay_seconds));
            q.insert(msg, now, visible_at, &mut self.timers);
            if copy > 0 {
                self.emit(EventKind::DuplicateStored { queue: queue.clone(), message_id: id });
            }
        }
        id
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
    let mut out: Vec<(&str, &Value)> = Vec::with_capacity(entries.len());
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
        // At most ten entries: a look back through the ones already taken is enough.
        if out.iter().any(|(seen, _)| *seen == id) {
            return Err(ApiError::new("BatchEntryIdsNotDistinct", format!("Id {id} repeated.")));
        }
        out.push((id, entry));
    }
    Ok(out)
}
