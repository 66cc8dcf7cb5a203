//! SendMessage and SendMessageBatch: checking a message, then storing it (or acknowledging a
//! FIFO duplicate) and answering with its digests.

use super::md5::{md5_hex, md5_of_attributes};
use super::{
    attributes_size, batch_entries, fifo, not_for_this_queue_type, sequence_number, Accepted, Incoming, Queue,
    MAX_MESSAGE_ATTRIBUTES, PLAYGROUND_SENDER,
};
use crate::attributes::{MessageAttributeValue, MessageAttributes};
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids::MsgId;
use crate::params::Params;
use crate::sim::Sim;
use serde_json::{json, Value};
use std::sync::Arc;

/// The fields a message has, whether sent alone or as a batch entry.
const MESSAGE_FIELDS: &[&str] = &[
    "MessageBody",
    "DelaySeconds",
    "MessageAttributes",
    "MessageSystemAttributes",
    "MessageGroupId",
    "MessageDeduplicationId",
];
pub(crate) const SEND_PARAMS: &[&str] = crate::actions::names!(&["QueueUrl"], MESSAGE_FIELDS);
const ENTRY_PARAMS: &[&str] = crate::actions::names!(&["Id"], MESSAGE_FIELDS);

/// SendMessageBatch: the bodies and message attributes of all entries together, at most 1 MiB
/// whatever the queue's MaximumMessageSize (API reference; AWS was observed to apply this
/// figure, not the queue's, to the whole batch).
pub const MAX_BATCH_BYTES: usize = 1_048_576;

/// The only message system attribute there is (API reference, SendMessage).
const TRACE_HEADER: &str = "AWSTraceHeader";

impl Sim {
    pub(crate) fn send_message(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let checked = self.check_send(&name, p)?;
        self.fifo_quota(&name, "Send", checked.group.as_deref())?;
        self.count_call(&name, "Send", checked.group.as_deref());
        Ok(self.send_checked(&name, checked).1)
    }

    /// Entries are sent one by one; one that fails on its own (too large for the queue, bad
    /// attributes) is a `Failed` entry and the others are sent. The whole call fails when the
    /// batch is over 1 MiB, or, on a FIFO queue, when an entry lacks its group or deduplication
    /// id — and then nothing is sent.
    pub(crate) fn send_message_batch(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let entries = batch_entries(p, "Entries")?;
        self.fifo_quota(&name, "Send", None)?;
        let total: usize = entries.iter().map(|(_, e)| entry_size(e)).sum();
        if total > MAX_BATCH_BYTES {
            return Err(ApiError::new(
                "BatchRequestTooLong",
                format!("Batch requests cannot be longer than {MAX_BATCH_BYTES} bytes. You have sent {total} bytes."),
            ));
        }
        check_fifo_batch(&self.queues[&name], &entries)?;
        self.count_call(&name, "Send", None);
        let mut successful = Vec::new();
        let mut failed = Vec::new();
        for (id, entry) in entries {
            let checked = Params::new(Service::Sqs, "SendMessageBatch entry", entry, ENTRY_PARAMS)
                .and_then(|ep| self.check_send(&name, &ep));
            match checked {
                Ok(checked) => {
                    let mut result = self.send_checked(&name, checked).1;
                    result["Id"] = json!(id);
                    successful.push(result);
                }
                Err(e) => failed.push(json!({"Id": id, "SenderFault": true, "Code": e.code, "Message": e.message})),
            }
        }
        Ok(json!({ "Successful": successful, "Failed": failed }))
    }

    /// SendMessage for the engine's own actors (a producer): a plain body to a standard queue,
    /// checked as SendMessage checks it. Returns the message id.
    pub(crate) fn send_body(&mut self, queue: &Name, body: &str) -> ApiResult<MsgId> {
        self.send_with_attributes(queue, body, MessageAttributes::new())
    }

    /// SendMessage for the engine's own actors with message attributes (a Lambda dead-letter
    /// queue's `RequestID`, `ErrorCode`, `ErrorMessage`), checked as SendMessage checks them.
    pub(crate) fn send_with_attributes(
        &mut self,
        queue: &Name,
        body: &str,
        attributes: MessageAttributes,
    ) -> ApiResult<MsgId> {
        let q = self.queues.get(queue).ok_or_else(super::queue_not_found)?;
        check_body(body)?;
        if q.fifo.is_some() {
            return Err(Service::Sqs.missing("MessageGroupId"));
        }
        let delay = q.config.delay_seconds;
        check_message_size(q, body.len() + attributes_size(&attributes))?;
        let mut incoming = Incoming::new(body.into(), Arc::new(attributes), PLAYGROUND_SENDER.into());
        incoming.delay_seconds = delay;
        self.count_call(queue, "Send", None);
        let (id, _) = self.send_checked(queue, incoming);
        Ok(id)
    }

    /// Validates one message to send; changes nothing.
    fn check_send(&self, queue: &Name, p: &Params) -> ApiResult<Incoming> {
        let body = p.str("MessageBody")?;
        let q = &self.queues[queue];
        check_body(body)?;
        let (group, dedup_id) = self.check_fifo_send(q, p, body)?;
        let delay = delay_seconds(q, p)?;
        let attributes = message_attributes(p)?;
        check_message_size(q, body.len() + attributes_size(&attributes))?;
        let mut incoming = Incoming::new(body.into(), Arc::new(attributes), PLAYGROUND_SENDER.into());
        incoming.delay_seconds = delay;
        incoming.group = group;
        incoming.dedup_id = dedup_id;
        incoming.trace_header = trace_header(p)?;
        Ok(incoming)
    }
}

fn check_body(body: &str) -> ApiResult<()> {
    {
        if body.is_empty() {
            // AWS answers an empty body as a missing one (observed; the guide: "must not be empty").
            return Err(Service::Sqs.missing("MessageBody"));
        }
        if let Some(bad) = body.chars().find(|c| !valid_message_char(*c)) {
            return Err(ApiError::new(
                "InvalidMessageContents",
                format!("Invalid binary character '#x{:X}' was found in the message body, the set of allowed characters is #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF", bad as u32),
            ));
        }
    }
    Ok(())
}

fn check_message_size(q: &Queue, size: usize) -> ApiResult<()> {
    if size > q.config.maximum_message_size as usize {
        return Err(ApiError::new(
            "InvalidParameterValue",
            format!("One or more parameters are invalid. Reason: Message must be shorter than {} bytes (this one is {size}).", q.config.maximum_message_size),
        ));
    }
    Ok(())
}

impl Sim {
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
        let group = group.ok_or_else(|| Service::Sqs.missing("MessageGroupId"))?;
        let dedup = match dedup {
            Some(d) => d.to_string(),
            None if config.content_based_deduplication => fifo::content_dedup_id(body),
            None => return Err(no_deduplication_id()),
        };
        Ok((Some(group.into()), Some(dedup.into())))
    }

    /// Stores a checked message; its id (or the id of the message it duplicates) and the
    /// SendMessage response.
    fn send_checked(&mut self, queue: &Name, incoming: Incoming) -> (MsgId, Value) {
        let digest: Arc<str> = md5_hex(&incoming.body).into();
        let mut out = json!({ "MD5OfMessageBody": &*digest });
        let mut incoming = incoming;
        incoming.md5 = Some(digest);
        if let Some(m) = md5_of_attributes(&incoming.attributes) {
            out["MD5OfMessageAttributes"] = json!(m);
        }
        if let Some(m) = incoming.trace_header.as_deref().and_then(md5_of_trace_header) {
            out["MD5OfMessageSystemAttributes"] = json!(m);
        }
        let delay = incoming.delay_seconds;
        match self.accept(queue, incoming) {
            Accepted::Deduplicated(first) => {
                out["MessageId"] = json!(first);
                (first, out)
            }
            Accepted::Stored(id) => {
                let q = self.queue_mut(queue);
                q.stats.sent += 1;
                if let Some(f) = &q.fifo {
                    out["SequenceNumber"] = json!(sequence_number(f.sequence));
                }
                out["MessageId"] = json!(id);
                self.emit(EventKind::MessageSent { queue: queue.clone(), message_id: id, delay_seconds: delay });
                (id, out)
            }
        }
    }
}

fn no_deduplication_id() -> ApiError {
    Service::Sqs.invalid_value(
        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
    )
}

/// FIFO: a batch entry without `MessageGroupId`, or without `MessageDeduplicationId` on a queue
/// without content-based deduplication, fails the whole batch with InvalidParameterValue (AWS,
/// observed: not a `Failed` entry as for other errors, and nothing is sent).
fn check_fifo_batch(q: &Queue, entries: &[(&str, &Value)]) -> ApiResult<()> {
    let Some(config) = &q.config.fifo else { return Ok(()) };
    let absent = |e: &Value, k: &str| e.get(k).is_none_or(Value::is_null);
    for (_, entry) in entries {
        if absent(entry, "MessageGroupId") {
            return Err(Service::Sqs.invalid_value("The request must contain the parameter MessageGroupId."));
        }
        if absent(entry, "MessageDeduplicationId") && !config.content_based_deduplication {
            return Err(no_deduplication_id());
        }
    }
    Ok(())
}

/// `DelaySeconds`, 0 to 900: the message's own, or the queue's. A FIFO queue refuses a
/// per-message delay other than 0; with 0 the queue's delay applies (AWS, observed: the API
/// reference says FIFO queues take no per-message DelaySeconds at all).
fn delay_seconds(q: &Queue, p: &Params) -> ApiResult<u32> {
    match (p.opt_int("DelaySeconds", 0, 900)?, q.fifo.is_some()) {
        (Some(d), true) if d > 0 => Err(not_for_this_queue_type("DelaySeconds")),
        (Some(d), false) => Ok(d as u32),
        _ => Ok(q.config.delay_seconds),
    }
}

/// `MessageAttributes`, at most 10, none with an empty value (SQS developer guide: "The Name,
/// Type, Value, and the message body must not be empty or null").
fn message_attributes(p: &Params) -> ApiResult<MessageAttributes> {
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
    let empty = |v: &MessageAttributeValue| v.string_value.as_deref().or(v.binary_value.as_deref()) == Some("");
    if let Some((name, v)) = attributes.iter().find(|(_, v)| empty(v)) {
        return Err(Service::Sqs.invalid_value(format!(
            "Message (user) attribute '{name}' must contain a non-empty value of type '{}'.",
            v.base_type()
        )));
    }
    Ok(attributes)
}

/// `MessageSystemAttributes`: only `AWSTraceHeader`, of type String (API reference). Its size
/// does not count toward the message's. Simplified: the X-Ray header format is not checked.
fn trace_header(p: &Params) -> ApiResult<Option<Arc<str>>> {
    let system = p.message_attributes("MessageSystemAttributes")?;
    if let Some(other) = system.keys().find(|k| k.as_str() != TRACE_HEADER) {
        return Err(Service::Sqs.invalid_value(format!(
            "Message system attribute name '{other}' is invalid: the only message system attribute is {TRACE_HEADER}."
        )));
    }
    let Some(header) = system.get(TRACE_HEADER) else { return Ok(None) };
    match (header.data_type.as_str(), header.string_value.as_deref()) {
        ("String", Some(value)) if !value.is_empty() => Ok(Some(value.into())),
        _ => Err(Service::Sqs.invalid_value(format!(
            "Message system attribute '{TRACE_HEADER}' must be a non-empty value of DataType String."
        ))),
    }
}

/// `MD5OfMessageSystemAttributes`: the message-attribute digest over the system attributes.
fn md5_of_trace_header(header: &str) -> Option<String> {
    let mut system = MessageAttributes::new();
    system.insert(TRACE_HEADER.to_string(), MessageAttributeValue::string(header));
    md5_of_attributes(&system)
}

/// A batch entry's share of the 1 MiB: its body and its message attributes' names, types and
/// values, read as sent (before the entry is checked).
fn entry_size(entry: &Value) -> usize {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map_or(0, str::len);
    let attributes = entry.get("MessageAttributes").and_then(Value::as_object).map_or(0, |attrs| {
        attrs
            .iter()
            .map(|(name, v)| name.len() + text(v, "DataType") + text(v, "StringValue") + text(v, "BinaryValue"))
            .sum()
    });
    text(entry, "MessageBody") + attributes
}

/// The characters SQS allows in a message body.
fn valid_message_char(c: char) -> bool {
    matches!(c as u32, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}
