//! A received message in the ReceiveMessage response shape: the system attributes asked for by
//! `AttributeNames` / `MessageSystemAttributeNames`, and the message attributes asked for by
//! `MessageAttributeNames`.

use super::md5::md5_of_attributes;
use super::Message;
use crate::attributes::MessageAttributes;
use crate::ids::MsgId;
use crate::time::SimTime;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// The system attribute names ReceiveMessage accepts.
pub(super) const SYSTEM_ATTRIBUTES: &[&str] = &[
    "All",
    "SenderId",
    "SentTimestamp",
    "ApproximateReceiveCount",
    "ApproximateFirstReceiveTimestamp",
    "SequenceNumber",
    "MessageDeduplicationId",
    "MessageGroupId",
    "AWSTraceHeader",
    "DeadLetterQueueSourceArn",
];

/// A received message as the engine's own actors see it: typed, nothing to parse back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Received {
    pub message_id: MsgId,
    pub receipt_handle: String,
    pub body: Arc<str>,
    /// `ApproximateReceiveCount`, this receive included.
    pub receive_count: u32,
    /// When the message was sent (`SentTimestamp`).
    pub sent_at: SimTime,
}

impl Received {
    pub(super) fn of(msg: &Message) -> Received {
        Received {
            message_id: msg.id,
            receipt_handle: msg.receipt_handle(),
            body: msg.body.clone(),
            receive_count: msg.receive_count,
            sent_at: msg.sent_at,
        }
    }
}

/// A received message in the ReceiveMessage response shape, with the requested attributes.
pub(super) fn message_json(msg: &Message, system: &[&str], user: &[&str]) -> Value {
    let mut out = Map::new();
    out.insert("MessageId".into(), Value::String(msg.id.text()));
    out.insert("ReceiptHandle".into(), Value::String(msg.receipt_handle()));
    out.insert("MD5OfBody".into(), Value::String(String::from(&*msg.md5)));
    out.insert("Body".into(), Value::String(String::from(&*msg.body)));
    let attrs = system_attributes(msg, system);
    if !attrs.is_empty() {
        out.insert("Attributes".into(), Value::Object(attrs));
    }
    if user.is_empty() || msg.attributes.is_empty() {
        return Value::Object(out);
    }
    let selected = selected_attributes(&msg.attributes, user);
    if let Some(md5) = md5_of_attributes(&selected) {
        out.insert("MD5OfMessageAttributes".into(), Value::String(md5));
        out.insert("MessageAttributes".into(), serde_json::to_value(&selected).unwrap_or_default());
    }
    Value::Object(out)
}

fn system_attributes(msg: &Message, system: &[&str]) -> Map<String, Value> {
    let all = system.contains(&"All");
    let want = |n: &str| all || system.contains(&n);
    let text = |s: &str| Value::String(s.to_string());
    let mut attrs = Map::new();
    if want("SenderId") {
        attrs.insert("SenderId".into(), text(&msg.sender));
    }
    if want("SentTimestamp") {
        attrs.insert("SentTimestamp".into(), json!(msg.sent_at.epoch_ms().to_string()));
    }
    if want("ApproximateReceiveCount") {
        attrs.insert("ApproximateReceiveCount".into(), json!(msg.receive_count.to_string()));
    }
    if let (true, Some(t)) = (want("ApproximateFirstReceiveTimestamp"), msg.first_receive_at) {
        attrs.insert("ApproximateFirstReceiveTimestamp".into(), json!(t.epoch_ms().to_string()));
    }
    if let (true, Some(g)) = (want("MessageGroupId"), &msg.group) {
        attrs.insert("MessageGroupId".into(), text(g));
    }
    if let (true, Some(d)) = (want("MessageDeduplicationId"), &msg.dedup_id) {
        attrs.insert("MessageDeduplicationId".into(), text(d));
    }
    if let (true, Some(n)) = (want("SequenceNumber"), msg.sequence) {
        attrs.insert("SequenceNumber".into(), json!(super::sequence_number(n)));
    }
    if let (true, Some(h)) = (want("AWSTraceHeader"), &msg.trace_header) {
        attrs.insert("AWSTraceHeader".into(), text(h));
    }
    if let (true, Some(src)) = (want("DeadLetterQueueSourceArn"), &msg.dead_letter_source) {
        attrs.insert("DeadLetterQueueSourceArn".into(), text(src));
    }
    attrs
}

/// The message attributes `MessageAttributeNames` asks for: `All`, `.*` and `*` (AWS, observed)
/// mean every one; `prefix.*` those whose name starts with `prefix`; otherwise exact names.
fn selected_attributes(attributes: &MessageAttributes, wanted: &[&str]) -> MessageAttributes {
    let matches = |name: &str| {
        wanted.iter().any(|w| {
            matches!(*w, "All" | ".*" | "*")
                || *w == name
                || w.strip_suffix(".*").is_some_and(|pre| name.starts_with(pre))
        })
    };
    attributes.iter().filter(|(k, _)| matches(k)).map(|(k, v)| (k.clone(), v.clone())).collect()
}
