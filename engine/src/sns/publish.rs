//! Publish and PublishBatch, and SNS's delivery of each copy to a subscribed queue: the filter
//! policy decides, then the copy lands as an SNS envelope or, with raw delivery, as published.

use crate::attributes::MessageAttributes;
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::filter::Verdict;
use crate::ids::{self, SnsId};
use crate::params::Params;
use crate::sim::Sim;
use crate::sqs::{attributes_size, batch_entries, Incoming};
use crate::time::SimTime;
use crate::timers::Timer;
use serde_json::{json, Value};
use std::sync::Arc;

/// Publish takes messages up to 256 KB, attributes included.
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
    pub published_at: SimTime,
}

/// A checked Publish, ready to fan out.
struct Checked {
    message: String,
    subject: Option<String>,
    attributes: MessageAttributes,
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new("InvalidParameter", message)
}

impl Sim {
    pub(crate) fn publish(&mut self, p: &Value) -> ApiResult<Value> {
        let names = [
            "TopicArn",
            "TargetArn",
            "Message",
            "Subject",
            "MessageStructure",
            "MessageAttributes",
            "MessageGroupId",
            "MessageDeduplicationId",
        ];
        let p = Params::new(Service::Sns, "Publish", p, &names)?;
        let reference = match (p.opt_str("TopicArn")?, p.opt_str("TargetArn")?) {
            (Some(t), _) | (None, Some(t)) => t,
            (None, None) => {
                return Err(invalid("Invalid parameter: TopicArn or TargetArn Reason: no value for required parameter"))
            }
        };
        let topic = self.topic_ref(reference)?;
        let checked = check_publish(&p)?;
        let id = self.fan_out(&topic, checked);
        Ok(json!({ "MessageId": id }))
    }

    pub(crate) fn publish_batch(&mut self, p: &Value) -> ApiResult<Value> {
        let p = Params::new(Service::Sns, "PublishBatch", p, &["TopicArn", "PublishBatchRequestEntries"])?;
        let topic = self.topic_ref(p.str("TopicArn")?)?;
        let entries = batch_entries(&p, "PublishBatchRequestEntries")?;
        let total: usize =
            entries.iter().map(|(_, e)| e.get("Message").and_then(Value::as_str).map_or(0, str::len)).sum();
        if total > MAX_PUBLISH_BYTES {
            return Err(ApiError::new(
                "BatchRequestTooLong",
                format!("The length of all the batch messages put together is more than the limit ({MAX_PUBLISH_BYTES} bytes): {total}."),
            ));
        }
        let names = [
            "Id",
            "Message",
            "Subject",
            "MessageStructure",
            "MessageAttributes",
            "MessageGroupId",
            "MessageDeduplicationId",
        ];
        let mut successful = Vec::new();
        let mut failed = Vec::new();
        for (id, entry) in entries {
            match Params::new(Service::Sns, "PublishBatch entry", entry, &names).and_then(|ep| check_publish(&ep)) {
                Ok(checked) => {
                    let message_id = self.fan_out(&topic, checked);
                    successful.push(json!({ "Id": id, "MessageId": message_id }));
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
        let subscriptions = t.subscriptions.clone();
        self.emit(EventKind::Published {
            topic: topic.clone(),
            sns_message_id: id,
            subscriptions: subscriptions.len(),
        });
        let message: Arc<str> = checked.message.into();
        let attributes = Arc::new(checked.attributes);
        let due = self.now.plus_ms(self.settings.sns_delivery_latency_ms);
        for arn in subscriptions {
            let sub = self.subscriptions.get_mut(&arn).expect("invariant: a topic lists live subscriptions");
            if let Some(filter) = &sub.filter {
                if let Verdict::NoMatch(why) = filter.policy.evaluate(&attributes, &message) {
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
                published_at: self.now,
            };
            self.timers.schedule(due, Timer::SnsDelivery(Box::new(delivery)));
        }
        id
    }

    /// SNS hands one copy to its subscription's queue.
    pub(crate) fn deliver(&mut self, d: Delivery) {
        // Unsubscribed while the copy was on its way: nothing to deliver to.
        let Some(sub) = self.subscriptions.get(&d.subscription) else { return };
        let endpoint = short_endpoint(&sub.endpoint);
        let queue = sub.queue_name().and_then(|n| self.queue_ref(n).ok());
        let raw = sub.raw;
        let failure = match &queue {
            None => Some("the queue does not exist (AWS.SimpleQueueService.NonExistentQueue); SNS does not retry client-side errors".to_string()),
            Some(_) if raw && d.attributes.len() > MAX_RAW_ATTRIBUTES => Some(format!(
                "Number of message attributes [{}] exceeds the maximum allowed [{MAX_RAW_ATTRIBUTES}] for raw delivery",
                d.attributes.len()
            )),
            Some(_) => None,
        };
        let body: Arc<str> = if raw { d.message.clone() } else { envelope(&d).into() };
        let attributes = if raw { d.attributes.clone() } else { Arc::new(MessageAttributes::new()) };
        let mut incoming = Incoming::new(body, attributes, ids::topic_arn(&d.topic).into());
        incoming.sns_id = Some(d.sns_id);
        match (queue, failure) {
            (Some(queue), None) => {
                let message_id = self.store(&queue, incoming);
                self.queue_mut(&queue).stats.sent += 1;
                if let Some(s) = self.subscriptions.get_mut(&d.subscription) {
                    s.delivered += 1;
                }
                self.emit(EventKind::DeliveredToQueue {
                    topic: d.topic,
                    subscription: d.subscription,
                    queue,
                    sns_message_id: d.sns_id,
                    message_id,
                    raw,
                });
            }
            (_, reason) => {
                let reason = reason.unwrap_or_default();
                let sub = self.subscriptions.get_mut(&d.subscription).expect("invariant: checked above");
                sub.failed += 1;
                let dlq = sub
                    .dead_letter_arn
                    .clone()
                    .and_then(|a| ids::queue_name_from(&a).and_then(|n| self.queue_ref(n).ok()));
                if let Some(dlq) = &dlq {
                    // The subscription's dead-letter queue keeps what SNS could not deliver.
                    self.store(dlq, incoming);
                    self.queue_mut(dlq).stats.sent += 1;
                }
                self.emit(EventKind::DeliveryFailed {
                    topic: d.topic,
                    subscription: d.subscription,
                    endpoint,
                    sns_message_id: d.sns_id,
                    reason,
                    dead_letter_queue: dlq,
                });
            }
        }
    }
}

/// The queue name of a queue ARN, for events; the endpoint as given otherwise.
fn short_endpoint(endpoint: &str) -> Name {
    ids::queue_name_from(endpoint).unwrap_or(endpoint).into()
}

/// Validates a Publish (or a batch entry) without touching the simulation.
fn check_publish(p: &Params) -> ApiResult<Checked> {
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
    for fifo_only in ["MessageGroupId", "MessageDeduplicationId"] {
        if p.has(fifo_only) {
            return Err(invalid(format!(
                "Invalid parameter: {fifo_only} Reason: The request includes {fifo_only} parameter that is not valid for this topic type"
            )));
        }
    }
    let message = match p.opt_str("MessageStructure")? {
        None => message.to_string(),
        Some("json") => per_protocol_message(message)?,
        Some(other) => {
            return Err(invalid(format!("Invalid parameter: MessageStructure \"{other}\" (the only value is json)")))
        }
    };
    let attributes = p.message_attributes("MessageAttributes")?;
    let size = message.len() + attributes_size(&attributes);
    if size > MAX_PUBLISH_BYTES {
        return Err(invalid(format!(
            "Invalid parameter: Message too long ({size} bytes; the limit is {MAX_PUBLISH_BYTES})"
        )));
    }
    Ok(Checked { message, subject: subject.map(str::to_string), attributes })
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
fn envelope(d: &Delivery) -> String {
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
    field("TopicArn", q(&topic_arn));
    if let Some(s) = &d.subject {
        field("Subject", q(s));
    }
    field("Message", q(&d.message));
    field("Timestamp", q(&d.published_at.iso8601()));
    field("SignatureVersion", q("1"));
    field("Signature", q("EXAMPLE-not-signed-by-the-playground"));
    field(
        "SigningCertURL",
        q(&format!("https://sns.{}.amazonaws.com/SimpleNotificationService-playground.pem", ids::REGION)),
    );
    field(
        "UnsubscribeURL",
        q(&format!("https://sns.{}.amazonaws.com/?Action=Unsubscribe&SubscriptionArn={}", ids::REGION, d.subscription)),
    );
    if !d.attributes.is_empty() {
        let attrs: serde_json::Map<String, Value> = d
            .attributes
            .iter()
            .map(|(k, v)| {
                let value = v.string_value.clone().or_else(|| v.binary_value.clone()).unwrap_or_default();
                (k.clone(), json!({ "Type": v.data_type, "Value": value }))
            })
            .collect();
        field("MessageAttributes", Value::Object(attrs).to_string());
    }
    out.push('}');
    out
}

/// Reads the `MessageAttributes` of a Publish-shaped object, checked as Publish checks them
/// (for the filter tester, which takes messages in the Publish shape).
pub fn parse_publish_attributes(params: &Value) -> ApiResult<MessageAttributes> {
    let p = Params::new(Service::Sns, "Publish", params, &["Message", "MessageAttributes"])?;
    p.message_attributes("MessageAttributes")
}
