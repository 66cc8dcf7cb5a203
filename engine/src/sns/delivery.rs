//! SNS hands one copy to one subscription: an attempt, the endpoint's answer, SNS's retries
//! under the delivery policy, and at the end the subscription's dead-letter queue or the discard.
//!
//! SNS docs, "Amazon SNS dead-letter queues": a client-side error (the endpoint was deleted, its
//! policy does not let SNS in, a key SNS may not use) is not retried; a server-side error (the
//! endpoint is unavailable or answers with an error) is retried under the delivery policy of the
//! protocol (`delivery_policy`). "When Amazon SNS receives a client-side error, or continues to
//! receive a server-side error for a message beyond the number of retries specified by the
//! corresponding retry policy, Amazon SNS discards the message—unless a dead-letter queue is
//! attached to the subscription."
//!
//! CloudWatch (SNS docs, "Amazon SNS metrics"), per topic: `NumberOfNotificationsDelivered`;
//! `NumberOfNotificationsFailed` — "For Amazon SQS, email, SMS, or mobile push endpoints, the
//! metric increments by 1 when Amazon SNS stops attempting message deliveries. For HTTP or HTTPS
//! endpoints, the metric includes every failed delivery attempt, including retries"; `NumberOfNotificationsRedrivenToDlq` and
//! `NumberOfNotificationsFailedToRedriveToDlq`.

use super::delivery_policy::{RetryPolicy, AWS_MANAGED, CUSTOMER_MANAGED, HTTP_DEFAULT};
use super::publish::{envelope, short_endpoint, Delivery};
use super::MAX_RAW_ATTRIBUTES;
use crate::attributes::MessageAttributes;
use crate::event::{EventKind, Name};
use crate::ids::{self, MsgId};
use crate::sim::Sim;
use crate::sqs::access::SNS_PRINCIPAL;
use crate::sqs::{Accepted, Incoming};
use crate::time::SECOND;
use crate::timers::Timer;
use crate::world::MetricKey;
use std::sync::Arc;

/// The event SNS gives a function: one record with the notification in `Sns` (Lambda developer
/// guide, "Using Lambda with Amazon SNS", its example event). Unlike the envelope's `SigningCertURL`
/// and `UnsubscribeURL`, the record spells `SigningCertUrl` and `UnsubscribeUrl` (AWS, recorded:
/// LocalStack's AWS-validated `test_sns_topic_as_lambda_dead_letter_queue`).
fn lambda_event(d: &Delivery, subscription: &str) -> String {
    let q = |v: &str| serde_json::Value::String(v.to_string()).to_string();
    let attributes = super::publish::notification_attributes(d);
    let topic_arn = ids::topic_arn(&d.topic);
    format!(
        "{{\"Records\":[{{\"EventSource\":\"aws:sns\",\"EventVersion\":\"1.0\",\"EventSubscriptionArn\":{},\"Sns\":{{\"Type\":\"Notification\",\"MessageId\":{},\"TopicArn\":{},\"Subject\":{},\"Message\":{},\"Timestamp\":{},\"SignatureVersion\":\"1\",\"Signature\":{},\"SigningCertUrl\":{},\"UnsubscribeUrl\":{},\"MessageAttributes\":{}}}}}]}}",
        q(subscription),
        q(&d.sns_id.to_string()),
        q(&topic_arn),
        d.subject.as_deref().map_or("null".to_string(), q),
        q(&d.message),
        q(&d.published_at.iso8601()),
        q(super::publish::SIGNATURE),
        q(&super::publish::signing_cert_url()),
        q(&super::publish::unsubscribe_url(subscription)),
        attributes
    )
}

/// What a successful attempt did.
enum Done {
    Queue {
        queue: Name,
        message_id: MsgId,
        raw: bool,
    },
    /// The FIFO queue's own deduplication dropped it (its event says so).
    Deduplicated,
    Endpoint {
        status: Option<u16>,
    },
}

/// Why an attempt failed, and whether SNS retries it.
struct Failure {
    server_side: bool,
    reason: String,
}

fn client(reason: String) -> Failure {
    Failure { server_side: false, reason }
}

fn server(reason: String) -> Failure {
    Failure { server_side: true, reason }
}

impl Sim {
    /// One attempt (or, for HTTP/S, the endpoint's answer to one) of a copy.
    pub(crate) fn deliver(&mut self, mut d: Delivery) {
        // Unsubscribed while the copy was on its way: nothing to deliver to.
        let Some(sub) = self.subscriptions.get(&d.subscription) else { return };
        let outcome = if sub.is_http() || sub.is_customer_managed() {
            match d.answer.take() {
                None => return self.start_endpoint_attempt(d),
                Some(a) if a.delivered => Ok(Done::Endpoint { status: a.status }),
                Some(a) => Err(server(a.reason)),
            }
        } else if sub.protocol == "lambda" {
            self.attempt_lambda(&d)
        } else {
            self.attempt_queue(&d)
        };
        match outcome {
            Ok(done) => self.delivered(d, done),
            Err(f) if f.server_side => self.retry_or_give_up(d, f.reason),
            Err(f) => self.give_up(d, f.reason),
        }
    }

    /// The copy as the endpoint receives it: the envelope, or the message and its attributes.
    fn copy_for(&self, d: &Delivery, raw: bool, fifo_queue: bool) -> Incoming {
        let body: Arc<str> = if raw { d.message.clone() } else { envelope(d).into() };
        let attributes = if raw { d.attributes.clone() } else { Arc::new(MessageAttributes::new()) };
        let mut incoming = Incoming::new(body, attributes, d.sender.clone());
        incoming.sns_id = Some(d.sns_id);
        if raw {
            incoming.md5 = Some(d.md5.clone());
        }
        // A FIFO topic's group and deduplication id go to FIFO queues only; a standard topic's
        // MessageGroupId to any queue (AWS, recorded: `test_fifo_topic_to_regular_sqs`,
        // `test_publish_message_group_id`).
        if fifo_queue {
            incoming.group = d.group.clone();
            incoming.dedup_id = d.dedup.clone();
        } else if d.sequence.is_none() {
            incoming.group = d.group.clone();
        }
        incoming
    }

    fn attempt_queue(&mut self, d: &Delivery) -> Result<Done, Failure> {
        let sub = &self.subscriptions[&d.subscription];
        let raw = sub.raw;
        let Some(queue) = sub.queue_name().and_then(|n| self.queue_ref(n).ok()) else {
            return Err(client("the queue does not exist (AWS.SimpleQueueService.NonExistentQueue); SNS does not retry client-side errors".into()));
        };
        if raw && d.attributes.len() > MAX_RAW_ATTRIBUTES {
            return Err(client(format!(
                "Number of message attributes [{}] exceeds the maximum allowed [{MAX_RAW_ATTRIBUTES}] for raw delivery",
                d.attributes.len()
            )));
        }
        self.service_may_send(&queue, SNS_PRINCIPAL, &|| ids::topic_arn(&d.topic))
            .map_err(|r| client(format!("{}: {}; SNS does not retry client-side errors", r.code, r.message)))?;
        if !self.world.outages.is_empty() && self.in_outage(&ids::queue_arn(&queue)) {
            return Err(server(format!("{queue} answered 503 ServiceUnavailable (SimulateServiceOutage)")));
        }
        let fifo = self.queues[&queue].fifo.is_some();
        let incoming = self.copy_for(d, raw, fifo);
        match self.accept(&queue, incoming) {
            Accepted::Stored(message_id) => {
                self.queue_mut(&queue).stats.sent += 1;
                Ok(Done::Queue { queue, message_id, raw })
            }
            Accepted::Deduplicated(_) => Ok(Done::Deduplicated),
        }
    }

    /// SNS invokes the function asynchronously: Lambda's queue accepts the event (202), and what
    /// the function then does is Lambda's business (its retries, its destinations). A deleted
    /// function is a client-side error; a Lambda outage a server-side one.
    fn attempt_lambda(&mut self, d: &Delivery) -> Result<Done, Failure> {
        let sub = &self.subscriptions[&d.subscription];
        let name = crate::world::function_name(&sub.endpoint).to_string();
        let Some(function) = self.world.functions.get_key_value(name.as_str()).map(|(k, _)| k.clone()) else {
            return Err(client(format!(
                "ResourceNotFoundException: Function not found: {}; SNS does not retry client-side errors",
                sub.endpoint
            )));
        };
        if self.in_outage(&sub.endpoint) {
            return Err(server(format!("{name} answered 500 ServiceException (SimulateServiceOutage)")));
        }
        let payload = lambda_event(d, &sub.arn);
        self.invoke_async(&function, payload, ids::topic_arn(&d.topic).into());
        Ok(Done::Endpoint { status: Some(202) })
    }

    /// Posts the copy to the subscription's URL (or hands it to the mailbox, phone or device);
    /// the answer comes back when the endpoint gives it. With an HTTP/S delivery policy's
    /// `throttlePolicy.maxReceivesPerSecond`, a copy over the rate waits for the next second.
    fn start_endpoint_attempt(&mut self, mut d: Delivery) {
        let now = self.now;
        let sub = self.subscriptions.get_mut(&d.subscription).expect("invariant: checked by the caller");
        if let Some(max) = sub.delivery_policy.as_ref().and_then(|(_, p)| p.max_receives_per_second) {
            if !sub.throttle.allows("deliver", now, max) {
                let next_second = crate::time::SimTime((now.0 / SECOND + 1) * SECOND);
                self.timers.schedule(next_second, Timer::SnsDelivery(Box::new(d)));
                return;
            }
            sub.throttle.count("deliver", now);
        }
        let (url, protocol) = (sub.endpoint.clone(), sub.protocol.clone());
        let answer = match crate::world::EndpointKind::of_protocol(&protocol) {
            Some(kind) if sub.is_customer_managed() => {
                // `email-json` gets the notification's JSON; the others get the message's text.
                let text: Arc<str> = if protocol == "email-json" { envelope(&d).into() } else { d.message.clone() };
                self.recipient_send(kind, &url, &d.sns_id.to_string(), text)
            }
            _ => self.http_post(&url, &d.sns_id.to_string()),
        };
        let at = answer.at;
        d.answer = Some(answer);
        if at <= now {
            self.deliver(d);
        } else {
            self.timers.schedule(at, Timer::SnsDelivery(Box::new(d)));
        }
    }

    fn count(&mut self, metric: &'static str, topic: &Name) {
        self.world.metrics.count(MetricKey::topic(metric, topic), 1);
    }

    fn delivered(&mut self, d: Delivery, done: Done) {
        let retried = d.attempt > 1;
        let Some(sub) = self.subscriptions.get_mut(&d.subscription) else { return };
        if retried {
            sub.retrying = sub.retrying.saturating_sub(1);
        }
        if matches!(done, Done::Deduplicated) {
            return;
        }
        sub.delivered += 1;
        let event = match done {
            Done::Queue { queue, message_id, raw } => EventKind::DeliveredToQueue {
                topic: d.topic.clone(),
                subscription: d.subscription,
                queue,
                sns_message_id: d.sns_id,
                message_id,
                raw,
            },
            // Only here is the endpoint's short name needed (a queue delivery names its queue).
            Done::Endpoint { status } => EventKind::DeliveredToEndpoint {
                topic: d.topic.clone(),
                subscription: d.subscription,
                endpoint: short_endpoint(&sub.endpoint),
                sns_message_id: d.sns_id,
                attempt: d.attempt,
                status,
            },
            Done::Deduplicated => unreachable!("returned above"),
        };
        self.count("NumberOfNotificationsDelivered", &d.topic);
        self.emit(event);
    }

    /// The delivery policy of the subscription's protocol.
    fn retry_policy(&self, subscription: &Name) -> RetryPolicy {
        match self.subscriptions.get(subscription) {
            Some(s) if s.is_http() => s.delivery_policy.as_ref().map_or(HTTP_DEFAULT, |(_, p)| p.retry),
            Some(s) if s.is_customer_managed() => CUSTOMER_MANAGED,
            _ => AWS_MANAGED,
        }
    }

    /// A server-side error: the next retry the policy allows, or the end.
    fn retry_or_give_up(&mut self, mut d: Delivery, reason: String) {
        let http = self.subscriptions.get(&d.subscription).is_some_and(|s| s.is_http());
        if http {
            self.count("NumberOfNotificationsFailed", &d.topic);
        }
        let policy = self.retry_policy(&d.subscription);
        let retry_at = policy.delay_before_retry(d.attempt).map(|ms| self.now.plus_ms(ms));
        let sub = self.subscriptions.get_mut(&d.subscription).expect("invariant: checked by deliver");
        if d.attempt == 1 && retry_at.is_some() {
            sub.retrying += 1;
        }
        let endpoint = short_endpoint(&sub.endpoint);
        self.emit(EventKind::DeliveryAttemptFailed {
            topic: d.topic.clone(),
            subscription: d.subscription.clone(),
            endpoint,
            sns_message_id: d.sns_id,
            attempt: d.attempt,
            reason: reason.clone(),
            retry_at,
        });
        match retry_at {
            Some(at) => {
                d.attempt += 1;
                self.timers.schedule(at, Timer::SnsDelivery(Box::new(d)));
            }
            None => {
                let retries = d.attempt - 1;
                self.give_up(d, format!("{reason}; the delivery policy's {retries} retries are exhausted"));
            }
        }
    }

    /// SNS stops trying: the copy goes to the subscription's dead-letter queue, or is discarded.
    fn give_up(&mut self, d: Delivery, reason: String) {
        let sub = self.subscriptions.get_mut(&d.subscription).expect("invariant: checked by deliver");
        sub.failed += 1;
        if d.attempt > 1 {
            sub.retrying = sub.retrying.saturating_sub(1);
        }
        let (http, raw) = (sub.is_http(), sub.raw);
        let endpoint = short_endpoint(&sub.endpoint);
        let dead_letter_queue = sub.dead_letter_arn.as_deref().and_then(ids::queue_name_from).map(str::to_string);
        if !http {
            self.count("NumberOfNotificationsFailed", &d.topic);
        }
        // The copy keeps its group and deduplication id when the dead-letter queue is FIFO: the
        // DLQ decides, not the endpoint (which may be deleted, or a standard queue or function).
        let fifo = dead_letter_queue.and_then(|n| self.queues.get(n.as_str())).is_some_and(|q| q.fifo.is_some());
        let copy = self.copy_for(&d, raw, fifo);
        let (dead_letter_queue, reason) = match self.redrive_to_subscription_dlq(&d.subscription, copy) {
            Ok(Some(dlq)) => {
                self.count("NumberOfNotificationsRedrivenToDlq", &d.topic);
                if let Some(s) = self.subscriptions.get_mut(&d.subscription) {
                    s.redriven += 1;
                }
                (Some(dlq), reason)
            }
            Ok(None) => (None, reason),
            Err(why) => {
                self.count("NumberOfNotificationsFailedToRedriveToDlq", &d.topic);
                (None, format!("{reason}; {why}"))
            }
        };
        self.emit(EventKind::DeliveryFailed {
            topic: d.topic,
            subscription: d.subscription,
            endpoint,
            sns_message_id: d.sns_id,
            reason,
            dead_letter_queue,
        });
    }
}
