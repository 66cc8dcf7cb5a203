//! Publish and PublishBatch, and the fan-out: each subscription's filter policy decides, then a
//! copy is on its way to it (`delivery` hands it over: an SNS envelope or, with raw delivery,
//! the message as published).

use crate::attributes::MessageAttributes;
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::filter::Verdict;
use crate::ids::{self, SnsId};
use crate::params::Params;
use crate::sim::Sim;
use crate::sns::TopicFifo;
use crate::sqs::fifo::{content_dedup_id, valid_fifo_token, MsgIdOrSns};
use crate::sqs::{attributes_size, batch_entries, sequence_number};
use crate::time::SimTime;
use crate::timers::Timer;
use serde_json::{json, Value};
use std::sync::Arc;

/// Publish takes messages up to 256 KB, attributes included.
/// What one message of Publish and of a PublishBatch entry carries.
const MESSAGE_PARAMS: &[&str] =
    &["Message", "Subject", "MessageStructure", "MessageAttributes", "MessageGroupId", "MessageDeduplicationId"];
/// Publish: a message and where it goes.
pub(crate) const PUBLISH_PARAMS: &[&str] = crate::actions::names!(&["TopicArn", "TargetArn"], MESSAGE_PARAMS);
const ENTRY_PARAMS: &[&str] = crate::actions::names!(&["Id"], MESSAGE_PARAMS);

pub const MAX_PUBLISH_BYTES: usize = 262_144;
/// With raw delivery, an SQS subscription takes at most 10 message attributes; SNS discards a
/// message with more, as a client-side error.
pub const MAX_RAW_ATTRIBUTES: usize = 10;

/// One copy of a published message on its way to one subscription.
#[derive(Clone, Debug)]
pub(crate) struct Delivery {
    pub topic: Name,
    pub subscription: Name,
    pub sns_id: SnsId,
    pub message: Arc<str>,
    pub subject: Option<String>,
    pub attributes: Arc<MessageAttributes>,
    /// The MD5 of `message`, once per publish, for every raw copy.
    pub md5: Arc<str>,
    pub published_at: SimTime,
    /// From a FIFO topic: passed to FIFO queues (a standard queue gets no group id). From a
    /// standard topic, a `MessageGroupId` given to Publish: passed to every queue.
    pub group: Option<Name>,
    pub dedup: Option<Name>,
    /// From a FIFO topic: the message's sequence number in the topic, shown in its envelope.
    pub sequence: Option<u64>,
    /// `SenderId` of the stored copy: the topic ARN, built once per publish.
    pub sender: Name,
    /// 1 for the first attempt; SNS's retries count on.
    pub attempt: u32,
    /// HTTP/S: the endpoint's answer to this attempt, on its way back to SNS.
    pub answer: Option<crate::world::HttpAnswer>,
}

/// A checked Publish, ready to fan out.
struct Checked {
    message: String,
    subject: Option<String>,
    attributes: MessageAttributes,
    /// FIFO topics: the message group and deduplication id.
    group: Option<String>,
    dedup: Option<String>,
}

/// SNS FIFO topic quotas: with FifoThroughputScope `Topic`, 3,000 messages per second per topic
/// (deduplication across the topic); with `MessageGroup`, the regional limit (30,000 in us-east-1)
/// and 300 messages per second per message group (deduplication within each group).
pub const FIFO_TOPIC_MPS: u32 = 3_000;
pub const FIFO_TOPIC_HIGH_THROUGHPUT_MPS: u32 = 30_000;
pub const FIFO_TOPIC_GROUP_MPS: u32 = 300;

/// The result of offering one checked message to a topic.
enum Outcome {
    Published(SnsId, Option<u64>),
    /// The first message's id and, from a FIFO topic, its sequence number.
    Deduplicated(SnsId, Option<u64>),
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new("InvalidParameter", message)
}

impl Sim {
    pub(crate) fn publish(&mut self, p: &Params) -> ApiResult<Value> {
        let (param, reference) = match (p.opt_str("TopicArn")?, p.opt_str("TargetArn")?) {
            (Some(t), _) => ("TopicArn", t),
            (None, Some(t)) => ("TargetArn", t),
            (None, None) => {
                return Err(invalid("Invalid parameter: TopicArn or TargetArn Reason: no value for required parameter"))
            }
        };
        // A mobile platform endpoint as TargetArn: the playground publishes to topics only, so
        // there is none to find (AWS, recorded: `test_publish_non_existent_target`).
        if param == "TargetArn" && ids::topic_name_from(reference).is_some_and(|n| n.starts_with("endpoint/")) {
            return Err(invalid(
                "Invalid parameter: TargetArn Reason: No endpoint found for the target arn specified \
                 (the playground publishes to topics: subscribe the endpoint to a topic and publish there)",
            ));
        }
        let topic = self.topic_ref_in(param, reference)?;
        let checked = check_publish(p, self.topics[&topic].fifo.as_ref(), None)?;
        self.topic_quota(&topic, &[&checked])?;
        Ok(outcome_json(self.offer(&topic, checked)))
    }

    /// Publish for the engine's own actors (a producer, an alarm action): a message and its
    /// attributes to a standard topic, checked as Publish checks them. Returns the message id.
    pub(crate) fn publish_message(
        &mut self,
        topic: &Name,
        message: String,
        attributes: MessageAttributes,
    ) -> ApiResult<SnsId> {
        let fifo = self.topics.get(topic).ok_or_else(|| not_found_topic(topic))?.fifo.as_ref();
        if fifo.is_some() {
            return Err(invalid("Invalid parameter: The MessageGroupId parameter is required for FIFO topics"));
        }
        check_size(&message, &attributes)?;
        let checked = Checked { message, subject: None, attributes, group: None, dedup: None };
        self.topic_quota(topic, &[&checked])?;
        match self.offer(topic, checked) {
            Outcome::Published(id, _) | Outcome::Deduplicated(id, _) => Ok(id),
        }
    }

    /// Checks a FIFO topic's quotas for these messages, counting them if they fit.
    fn topic_quota(&mut self, topic: &Name, messages: &[&Checked]) -> ApiResult<()> {
        let now = self.now;
        let Some(fifo) = self.topics.get_mut(topic).and_then(|t| t.fifo.as_mut()) else { return Ok(()) };
        let limit = if fifo.per_message_group { FIFO_TOPIC_HIGH_THROUGHPUT_MPS } else { FIFO_TOPIC_MPS };
        let mut rates = fifo.rates.clone();
        for m in messages {
            if !rates.allows("Publish", now, limit) {
                return Err(throttled(&format!("topic {topic}"), limit));
            }
            rates.count("Publish", now);
            if let (true, Some(g)) = (fifo.per_message_group, &m.group) {
                let key = format!("Publish/{g}");
                if !rates.allows(&key, now, FIFO_TOPIC_GROUP_MPS) {
                    return Err(throttled(&format!("message group {g}"), FIFO_TOPIC_GROUP_MPS));
                }
                rates.count(&key, now);
            }
        }
        fifo.rates = rates;
        Ok(())
    }

    /// FIFO topics drop a message whose deduplication id was published in the last five minutes
    /// (in the topic, or in its message group with FifoThroughputScope MessageGroup).
    fn offer(&mut self, topic: &Name, checked: Checked) -> Outcome {
        let now = self.now;
        let Some(fifo) = self.topics.get(topic).and_then(|t| t.fifo.as_ref()) else {
            return Outcome::Published(self.fan_out(topic, checked), None);
        };
        let scope = if fifo.per_message_group { checked.group.clone().unwrap_or_default() } else { String::new() };
        let dedup = checked.dedup.clone().unwrap_or_default();
        if let Some(MsgIdOrSns::Sns(first, sequence)) = fifo.dedup.seen(now, &scope, &dedup) {
            self.emit(EventKind::Deduplicated {
                resource: topic.clone(),
                message_id: first.to_string(),
                deduplication_id: dedup,
            });
            return Outcome::Deduplicated(first, Some(sequence));
        }
        let id = self.fan_out(topic, checked);
        let fifo = self.topics.get_mut(topic).and_then(|t| t.fifo.as_mut()).expect("invariant: checked above");
        fifo.dedup.record(now, &scope, &dedup, MsgIdOrSns::Sns(id, fifo.sequence));
        Outcome::Published(id, Some(fifo.sequence))
    }

    /// AWS, recorded (LocalStack's AWS-validated `test_publish_batch_exceptions`,
    /// `test_publish_batch_too_long_message`, `test_empty_or_wrong_message_attributes`): an entry of
    /// a FIFO batch without its group or deduplication id, a `MessageStructure` JSON without
    /// `default`, or a bad message attribute fails the whole call, not only that entry; the
    /// 256 KiB limit counts every entry's message and attributes together.
    pub(crate) fn publish_batch(&mut self, p: &Params) -> ApiResult<Value> {
        let topic = self.topic_ref(p.str("TopicArn")?)?;
        let entries = batch_entries(p, "PublishBatchRequestEntries")?;
        let total: usize = entries
            .iter()
            .map(|(_, e)| {
                e.get("Message").and_then(Value::as_str).map_or(0, str::len)
                    + raw_attributes_size(e.get("MessageAttributes"))
            })
            .sum();
        if total > MAX_PUBLISH_BYTES {
            return Err(ApiError::new(
                "BatchRequestTooLong",
                format!("The length of all the messages put together is more than the limit: {total} bytes with their message attributes; the limit is {MAX_PUBLISH_BYTES}."),
            ));
        }
        let fifo = self.topics[&topic].fifo.as_ref();
        let mut checked: Vec<(&str, ApiResult<Checked>)> = Vec::with_capacity(entries.len());
        for (n, (id, entry)) in entries.into_iter().enumerate() {
            let result = match Params::new(Service::Sns, "PublishBatch entry", entry, ENTRY_PARAMS) {
                Ok(ep) => {
                    check_whole_call(&ep, fifo, n + 1)?;
                    check_publish(&ep, fifo, Some(n + 1))
                }
                Err(e) => Err(e),
            };
            checked.push((id, result));
        }
        let good: Vec<&Checked> = checked.iter().filter_map(|(_, c)| c.as_ref().ok()).collect();
        self.topic_quota(&topic, &good)?;
        let mut successful = Vec::new();
        let mut failed = Vec::new();
        for (id, result) in checked {
            match result {
                Ok(c) => {
                    let mut out = outcome_json(self.offer(&topic, c));
                    out["Id"] = json!(id);
                    successful.push(out);
                }
                Err(e) => failed.push(json!({"Id": id, "Code": e.code, "Message": e.message, "SenderFault": true})),
            }
        }
        Ok(json!({ "Successful": successful, "Failed": failed }))
    }

    /// Gives every subscription of `topic` its own copy: filtered out now, or delivered after
    /// the simulated SNS latency. Returns the SNS message id.
    fn fan_out(&mut self, topic: &Name, checked: Checked) -> SnsId {
        self.counters.sns_message += 1;
        let id = SnsId(self.counters.sns_message);
        let t = self.topics.get_mut(topic).expect("invariant: resolved topic exists");
        t.published += 1;
        let sequence = t.fifo.as_mut().map(|f| {
            f.sequence += 1;
            f.sequence
        });
        let subscriptions = t.subscriptions.clone();
        let record_events = self.record_events;
        self.emit(EventKind::Published {
            topic: topic.clone(),
            sns_message_id: id,
            subscriptions: subscriptions.len(),
        });
        let message: Arc<str> = checked.message.into();
        let md5: Arc<str> = crate::sqs::md5::md5_hex(&message).into();
        let attributes = Arc::new(checked.attributes);
        let due = self.now.plus_ms(self.settings.sns_delivery_latency_ms);
        let sender: Name = ids::topic_arn(topic).into();
        for arn in subscriptions {
            let sub = self.subscriptions.get_mut(&arn).expect("invariant: a topic lists live subscriptions");
            if sub.pending_confirmation {
                // SNS delivers nothing to a subscription its endpoint has not confirmed.
                continue;
            }
            if let Some(filter) = &sub.filter {
                // The reason for a no-match is built only when the event log will record it.
                let verdict = if record_events {
                    filter.policy.evaluate(&attributes, &message)
                } else if filter.policy.matches(&attributes, &message) {
                    Verdict::Match
                } else {
                    Verdict::NoMatch(crate::filter::NoMatch { key: String::new(), reason: String::new() })
                };
                if let Verdict::NoMatch(why) = verdict {
                    sub.filtered_out += 1;
                    let endpoint = sub.endpoint.clone();
                    self.emit(EventKind::FilteredOut {
                        topic: topic.clone(),
                        subscription: arn,
                        endpoint: short_endpoint(&endpoint),
                        sns_message_id: id,
                        key: why.key,
                        reason: why.reason,
                    });
                    continue;
                }
            }
            let delivery = Delivery {
                topic: topic.clone(),
                subscription: arn,
                sns_id: id,
                message: message.clone(),
                subject: checked.subject.clone(),
                attributes: attributes.clone(),
                md5: md5.clone(),
                published_at: self.now,
                group: checked.group.as_deref().map(Name::from),
                dedup: checked.dedup.as_deref().map(Name::from),
                sequence,
                sender: sender.clone(),
                attempt: 1,
                answer: None,
            };
            self.timers.schedule(due, Timer::SnsDelivery(Box::new(delivery)));
        }
        id
    }
}

/// The queue name of a queue ARN, for events; the endpoint as given otherwise.
pub(super) fn short_endpoint(endpoint: &str) -> Name {
    ids::queue_name_from(endpoint).unwrap_or(endpoint).into()
}

fn throttled(scope: &str, limit: u32) -> ApiError {
    ApiError::new("Throttled", format!("Rate exceeded: {scope} takes at most {limit} messages per second."))
}

fn outcome_json(outcome: Outcome) -> Value {
    match outcome {
        Outcome::Published(id, None) | Outcome::Deduplicated(id, None) => json!({ "MessageId": id.text() }),
        Outcome::Published(id, Some(seq)) | Outcome::Deduplicated(id, Some(seq)) => {
            json!({ "MessageId": id.text(), "SequenceNumber": sequence_number(seq) })
        }
    }
}

/// FIFO topics need a `MessageGroupId` and a deduplication id (given, or the SHA-256 of the
/// message with ContentBasedDeduplication). A standard topic refuses a deduplication id and takes a
/// `MessageGroupId`, which its SQS subscriptions receive (AWS, recorded 2025-08: LocalStack's
/// AWS-validated `test_publish_message_group_id`; the API reference still says the group id is
/// for FIFO topics only — SQS standard queues take one since fair queues, 2025-07).
fn check_fifo_publish(
    p: &Params,
    fifo: Option<&TopicFifo>,
    message: &str,
) -> ApiResult<(Option<String>, Option<String>)> {
    let group = p.opt_str("MessageGroupId")?;
    let dedup = p.opt_str("MessageDeduplicationId")?;
    for (name, value) in [("MessageGroupId", group), ("MessageDeduplicationId", dedup)] {
        if value.is_some_and(|v| !valid_fifo_token(v)) {
            return Err(invalid(format!("Invalid parameter: {name} Reason: 1 to 128 letters, digits and punctuation")));
        }
    }
    let Some(fifo) = fifo else {
        if dedup.is_some() {
            return Err(invalid(
                "Invalid parameter: MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type",
            ));
        }
        return Ok((group.map(str::to_string), None));
    };
    let group =
        group.ok_or_else(|| invalid("Invalid parameter: The MessageGroupId parameter is required for FIFO topics"))?;
    let dedup = match dedup {
        Some(d) => d.to_string(),
        None if fifo.content_based_deduplication => content_dedup_id(message),
        None => {
            return Err(invalid(
                "Invalid parameter: The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
            ))
        }
    };
    Ok((Some(group.to_string()), Some(dedup)))
}

/// The checks of a PublishBatch entry that fail the whole call (see `publish_batch`).
fn check_whole_call(p: &Params, fifo: Option<&TopicFifo>, entry: usize) -> ApiResult<()> {
    attributes_of(p, Some(entry))?;
    let message = p.opt_str("Message")?.unwrap_or("");
    if p.opt_str("MessageStructure")? == Some("json") {
        per_protocol_message(message)?;
    }
    check_fifo_publish(p, fifo, message).map(|_| ())
}

/// The message attributes, checked as SNS checks them (`message_attributes`), then as SQS and
/// SNS both do; every refusal of an attribute is `ParameterValueInvalid`.
fn attributes_of(p: &Params, entry: Option<usize>) -> ApiResult<MessageAttributes> {
    super::message_attributes::check(p.raw("MessageAttributes"), entry)?;
    p.message_attributes("MessageAttributes").map_err(|e| match e.message.starts_with("The message attribute") {
        true => ApiError::new("ParameterValueInvalid", e.message),
        false => e,
    })
}

/// The bytes of raw `MessageAttributes` as the batch limit counts them: each name, data type
/// and value.
fn raw_attributes_size(raw: Option<&Value>) -> usize {
    let Some(Value::Object(map)) = raw else { return 0 };
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map_or(0, str::len);
    map.iter().map(|(name, v)| name.len() + text(v, "DataType") + text(v, "StringValue") + text(v, "BinaryValue")).sum()
}

/// Validates a Publish (or a batch entry) without touching the simulation.
fn check_publish(p: &Params, fifo: Option<&TopicFifo>, entry: Option<usize>) -> ApiResult<Checked> {
    let message = p.opt_str("Message")?.unwrap_or("");
    if message.is_empty() {
        return Err(invalid("Invalid parameter: Empty message"));
    }
    let subject = p.opt_str("Subject")?;
    if let Some(s) = subject {
        if s.is_empty() || s.chars().count() > 100 || s.chars().any(char::is_control) {
            return Err(invalid("Invalid parameter: Subject (1 to 100 printable characters, no line breaks)"));
        }
    }
    let message = match p.opt_str("MessageStructure")? {
        None => message.to_string(),
        Some("json") => per_protocol_message(message)?,
        Some(other) => {
            return Err(invalid(format!("Invalid parameter: MessageStructure \"{other}\" (the only value is json)")))
        }
    };
    let attributes = attributes_of(p, entry)?;
    check_size(&message, &attributes)?;
    let (group, dedup) = check_fifo_publish(p, fifo, &message)?;
    Ok(Checked { message, subject: subject.map(str::to_string), attributes, group, dedup })
}

/// A message with its attributes may be at most 256 KiB.
fn check_size(message: &str, attributes: &MessageAttributes) -> ApiResult<()> {
    let size = message.len() + attributes_size(attributes);
    if size > MAX_PUBLISH_BYTES {
        return Err(invalid(format!(
            "Invalid parameter: Message too long ({size} bytes; the limit is {MAX_PUBLISH_BYTES})"
        )));
    }
    Ok(())
}

fn not_found_topic(topic: &str) -> ApiError {
    ApiError::new("NotFound", format!("Topic does not exist: {topic}"))
}

/// `MessageStructure: json`: the message is a JSON object of per-protocol texts; SQS
/// subscriptions get the `sqs` entry, or `default`, which is required.
fn per_protocol_message(message: &str) -> ApiResult<String> {
    let parsed: Value = serde_json::from_str(message)
        .map_err(|_| invalid("Invalid parameter: Message Structure - JSON message body failed to parse"))?;
    let default = parsed.get("default").and_then(Value::as_str);
    if default.is_none() {
        return Err(invalid("Invalid parameter: Message Structure - No default entry in JSON message body"));
    }
    Ok(parsed.get("sqs").and_then(Value::as_str).or(default).unwrap_or_default().to_string())
}

/// The JSON envelope SNS wraps a message in for a subscription without raw delivery, fields in
/// the order AWS sends them. Simplified: the signature is a placeholder, never a real one.
/// The message attributes as an SNS notification shows them (the envelope, a function's
/// event): `{"name": {"Type": …, "Value": …}}`.
pub(super) fn notification_attributes(d: &Delivery) -> Value {
    Value::Object(crate::vecmap::json_object(d.attributes.iter().map(|(k, v)| {
        let value = v.string_value.clone().or_else(|| v.binary_value.clone()).unwrap_or_default();
        (k.clone(), json!({ "Type": v.data_type, "Value": value }))
    })))
}

/// The placeholder signature of a standard topic's notification: the playground signs nothing.
pub(super) const SIGNATURE: &str = "EXAMPLE-not-signed-by-the-playground";

/// Where a notification says its signing certificate is (a placeholder: nothing is signed).
pub(super) fn signing_cert_url() -> String {
    format!("https://sns.{}.amazonaws.com/SimpleNotificationService-playground.pem", ids::REGION)
}

/// The link a notification gives to unsubscribe its subscription.
pub(super) fn unsubscribe_url(subscription: &str) -> String {
    format!("https://sns.{}.amazonaws.com/?Action=Unsubscribe&SubscriptionArn={subscription}", ids::REGION)
}

pub(super) fn envelope(d: &Delivery) -> String {
    let q = |v: &str| Value::String(v.to_string()).to_string();
    let mut out = String::from("{");
    let mut field = |name: &str, value: String| {
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&q(name));
        out.push(':');
        out.push_str(&value);
    };
    let topic_arn = ids::topic_arn(&d.topic);
    field("Type", q("Notification"));
    field("MessageId", q(&d.sns_id.to_string()));
    // A FIFO topic's notification carries its SequenceNumber and is not signed (AWS, recorded:
    // LocalStack's AWS-validated `test_message_to_fifo_sqs`, 2025-08).
    if let Some(seq) = d.sequence {
        field("SequenceNumber", q(&sequence_number(seq)));
    }
    field("TopicArn", q(&topic_arn));
    if let Some(s) = &d.subject {
        field("Subject", q(s));
    }
    field("Message", q(&d.message));
    field("Timestamp", q(&d.published_at.iso8601()));
    if d.sequence.is_none() {
        field("SignatureVersion", q("1"));
        field("Signature", q(SIGNATURE));
        field("SigningCertURL", q(&signing_cert_url()));
    }
    field("UnsubscribeURL", q(&unsubscribe_url(&d.subscription)));
    if !d.attributes.is_empty() {
        field("MessageAttributes", notification_attributes(d).to_string());
    }
    out.push('}');
    out
}

/// Reads the `MessageAttributes` of a Publish-shaped object, checked as Publish checks them
/// (for the filter tester, which takes messages in the Publish shape).
pub fn parse_publish_attributes(params: &Value) -> ApiResult<MessageAttributes> {
    let p = Params::new(Service::Sns, "Publish", params, &["Message", "MessageAttributes"])?;
    attributes_of(&p, None)
}
