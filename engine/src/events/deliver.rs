//! Handing an event to a target: attempts, retries, dead-letter queues.
//!
//! User guide, "Event retry policy and using dead-letter queues": "When an event isn't
//! successfully delivered to a target because of retriable errors, EventBridge retries sending the
//! event … By default, EventBridge retries sending the event for 24 hours and up to 185 times with
//! an exponential back off and jitter"; "If an event isn't delivered after all retry attempts are
//! exhausted, the event is dropped"; "for errors that result from missing permissions to a target,
//! or a target resource that no longer exists, all retry attempts fail until an action is taken …
//! Rather than retrying, EventBridge sends these events directly to the DLQ, if you have one."
//! Each DLQ message carries the message attributes `RULE_ARN`, `TARGET_ARN`, `ERROR_CODE` (e.g.
//! `NO_RESOURCE`, `THROTTLING`), `ERROR_MESSAGE`, `EXHAUSTED_RETRY_CONDITION`
//! (`MaximumRetryAttempts` or `MaximumEventAgeInSeconds`) and `RETRY_ATTEMPTS`.
//!
//! Modelled failures: the target queue, topic or bus does not exist (`NO_RESOURCE`, not retried);
//! the target queue is in a `SimulateServiceOutage` (`ERROR_FROM_TARGET`, a chosen code, retried);
//! the target queue's access policy does not allow `events.amazonaws.com` for the rule, or its key
//! is the AWS managed `alias/aws/sqs` (`NO_PERMISSIONS`, not retried; see `sqs::access`; a
//! dead-letter queue that refuses drops the event);
//! a FIFO queue refusing the send for its throughput quota (`THROTTLING`, retried), or lacking
//! content-based deduplication (`INVALID_PARAMETER`, not retried); an SNS publish refused.
//! Chosen (AWS documents only "exponential back off and jitter"): the n-th retry waits between
//! half and all of min(2^(n-1) s, 5 min), drawn from the world's generator. The body of a DLQ
//! message is the event itself, as matched (not the transformed input).

use super::put_events::EventRecord;
use super::targets::{destination_name, destination_of_dlq, Destination, Target};
use super::transform::Context;
use super::{EbEvent, EventsTimer};
use crate::attributes::{MessageAttributeValue, MessageAttributes};
use crate::event::{EventKind, Name};
use crate::sim::Sim;
use crate::sqs::access::EVENTS_PRINCIPAL;
use crate::sqs::{Accepted, Incoming};
use crate::time::{SimTime, MINUTE, SECOND};
use crate::timers::Timer;
use serde_json::Value;
use std::sync::Arc;

/// Bus-to-bus hops an event may take before it is dropped (a rule sending its bus's events back
/// to the same bus would loop forever). Not documented; chosen.
pub const MAX_BUS_HOPS: u32 = 5;
const BACKOFF_BASE_MS: u64 = SECOND;
const BACKOFF_CAP_MS: u64 = 5 * MINUTE;

/// One event on its way to one target.
#[derive(Clone, Debug)]
pub(crate) struct Delivery {
    pub(crate) record: Arc<EventRecord>,
    pub(crate) bus: Name,
    pub(crate) rule: Name,
    pub(crate) rule_arn: Name,
    /// The target as it was when the rule matched.
    pub(crate) target: Target,
    /// 1 for the first attempt.
    pub(crate) attempt: u32,
    /// When the first attempt was made (the event's age counts from here).
    pub(crate) first_at: SimTime,
}

/// Why an attempt failed.
struct Failure {
    code: &'static str,
    message: String,
    retriable: bool,
}

fn no_resource(message: String) -> Failure {
    Failure { code: "NO_RESOURCE", message, retriable: false }
}

impl Sim {
    pub(crate) fn attempt(&mut self, d: Delivery) {
        let payload = self.payload(&d);
        let outcome = match &d.target.destination {
            Destination::Queue(name) => self.send_to_queue(&d, name, payload),
            Destination::Topic(name) => self.publish_to_topic(name, payload),
            Destination::Bus(name) => self.forward_to_bus(&d, name),
            Destination::Function(name) => self.invoke_target(&d, name, payload),
        };
        match outcome {
            Ok(message_id) => self.emit(EventKind::EventBridge(EbEvent::DeliveredToTarget {
                bus: d.bus.clone(),
                rule: d.rule.clone(),
                target: d.target.id.clone(),
                event_id: d.record.id.clone(),
                destination: destination_name(&d.target.destination).to_string(),
                message_id,
                attempt: d.attempt,
            })),
            Err(failure) => self.failed(d, failure),
        }
    }

    fn payload(&self, d: &Delivery) -> String {
        let event: Value = serde_json::from_str(&d.record.text).unwrap_or(Value::Null);
        let ingestion = super::clock::rfc3339_seconds(super::clock::epoch_ms(d.first_at));
        let ctx = Context {
            event: &event,
            event_text: &d.record.text,
            rule_arn: &d.rule_arn,
            rule_name: &d.rule,
            ingestion_time: &ingestion,
        };
        d.target.input.render(&ctx)
    }

    fn send_to_queue(&mut self, d: &Delivery, name: &str, body: String) -> Result<Option<String>, Failure> {
        let queue = self.queue_ref(name).map_err(|_| no_resource(format!("The queue {name} does not exist.")))?;
        // "If the target resource is unavailable", EventBridge retries under the target's
        // RetryPolicy. AWS lists the DLQ error codes without saying which one a queue's 503
        // gets; `ERROR_FROM_TARGET` is chosen.
        if !self.world.outages.is_empty() && self.in_outage(&crate::ids::queue_arn(&queue)) {
            return Err(Failure {
                code: "ERROR_FROM_TARGET",
                message: format!("ServiceUnavailable: the queue {name} is in a simulated outage"),
                retriable: true,
            });
        }
        // Missing permissions are not retried: "all retry attempts fail until an action is taken".
        self.service_may_send(&queue, EVENTS_PRINCIPAL, &|| d.rule_arn.to_string()).map_err(|r| Failure {
            code: "NO_PERMISSIONS",
            message: format!("{}: {}", r.code, r.message),
            retriable: false,
        })?;
        let fifo = self.queues[&queue].config.fifo.as_ref().map(|f| f.content_based_deduplication);
        let mut incoming = Incoming::new(body.into(), Arc::new(MessageAttributes::new()), d.rule_arn.clone());
        if let Some(content_based) = fifo {
            if !content_based {
                return Err(Failure {
                    code: "INVALID_PARAMETER",
                    message: format!(
                        "The FIFO queue {name} needs ContentBasedDeduplication for an EventBridge target."
                    ),
                    retriable: false,
                });
            }
            let group = d.target.message_group_id.clone().unwrap_or_default();
            self.fifo_quota(&queue, "Send", Some(&group)).map_err(|e| Failure {
                code: "THROTTLING",
                message: e.message,
                retriable: true,
            })?;
            self.count_call(&queue, "Send", Some(&group));
            incoming.dedup_id = Some(crate::sqs::fifo::content_dedup_id(&incoming.body).into());
            incoming.group = Some(group.into());
        }
        let id = match self.accept(&queue, incoming) {
            Accepted::Stored(id) | Accepted::Deduplicated(id) => id,
        };
        self.queue_mut(&queue).stats.sent += 1;
        Ok(Some(id.to_string()))
    }

    fn publish_to_topic(&mut self, name: &str, message: String) -> Result<Option<String>, Failure> {
        let topic = self.topic_ref(name).map_err(|_| no_resource(format!("The topic {name} does not exist.")))?;
        match self.publish_message(&topic, message, Default::default()) {
            Ok(id) => Ok(Some(id.to_string())),
            Err(e) => Err(Failure {
                code: if e.code == "Throttled" { "THROTTLING" } else { "INVALID_PARAMETER" },
                retriable: e.code == "Throttled",
                message: format!("{}: {}", e.code, e.message),
            }),
        }
    }

    /// A Lambda target is invoked asynchronously: the delivery is done when Lambda queues it.
    fn invoke_target(&mut self, d: &Delivery, name: &str, payload: String) -> Result<Option<String>, Failure> {
        let Some(function) = self.world.functions.get_key_value(name).map(|(k, _)| k.clone()) else {
            return Err(no_resource(format!("Function not found: {}", d.target.arn)));
        };
        Ok(Some(self.invoke_async(&function, payload, d.rule_arn.clone())))
    }

    fn forward_to_bus(&mut self, d: &Delivery, name: &str) -> Result<Option<String>, Failure> {
        let bus = self.bus_ref(Some(name)).map_err(|e| no_resource(e.message))?;
        if d.record.hops >= MAX_BUS_HOPS {
            return Err(Failure {
                code: "LOOP_DETECTED",
                message: format!("the event already crossed {MAX_BUS_HOPS} event buses (the playground stops a bus-to-bus loop here)"),
                retriable: false,
            });
        }
        let mut record = (*d.record).clone();
        record.hops += 1;
        self.route(&bus, Arc::new(record), None);
        Ok(None)
    }

    fn failed(&mut self, d: Delivery, f: Failure) {
        let retries_done = d.attempt - 1;
        let exhausted = if !f.retriable {
            None
        } else if retries_done >= d.target.max_retry_attempts {
            Some("MaximumRetryAttempts")
        } else {
            let retry_at = self.now.plus_ms(self.backoff(d.attempt));
            let deadline = d.first_at.plus_secs(u64::from(d.target.max_event_age_seconds));
            if retry_at <= deadline {
                self.emit(self.invocation_failed(&d, &f, Some(retry_at)));
                let next = Delivery { attempt: d.attempt + 1, ..d };
                self.timers.schedule(retry_at, Timer::Events(EventsTimer::Deliver(Box::new(next))));
                return;
            }
            Some("MaximumEventAgeInSeconds")
        };
        self.emit(self.invocation_failed(&d, &f, None));
        self.send_to_dead_letter_queue(&d, &f, exhausted);
    }

    /// The wait before the retry that follows attempt `attempt`: equal jitter over an exponential.
    fn backoff(&mut self, attempt: u32) -> u64 {
        let exponential = BACKOFF_BASE_MS.saturating_mul(1u64 << (attempt - 1).min(20)).min(BACKOFF_CAP_MS);
        exponential / 2 + self.rng.up_to(exponential / 2)
    }

    fn invocation_failed(&self, d: &Delivery, f: &Failure, retry_at: Option<SimTime>) -> EventKind {
        EventKind::EventBridge(EbEvent::TargetInvocationFailed {
            bus: d.bus.clone(),
            rule: d.rule.clone(),
            target: d.target.id.clone(),
            event_id: d.record.id.clone(),
            error_code: f.code,
            reason: f.message.clone(),
            attempt: d.attempt,
            retry_at,
        })
    }

    fn send_to_dead_letter_queue(&mut self, d: &Delivery, f: &Failure, exhausted: Option<&str>) {
        let dlq = d.target.dead_letter_arn.as_deref().and_then(destination_of_dlq).map(str::to_string);
        let dropped = |reason: String| {
            EventKind::EventBridge(EbEvent::EventDropped {
                bus: d.bus.clone(),
                rule: d.rule.clone(),
                target: d.target.id.clone(),
                event_id: d.record.id.clone(),
                error_code: f.code,
                reason,
            })
        };
        let Some(dlq_name) = dlq else {
            self.emit(dropped("the target has no dead-letter queue".into()));
            return;
        };
        let Ok(queue) = self.queue_ref(&dlq_name) else {
            self.emit(dropped(format!(
                "its dead-letter queue {dlq_name} does not exist (InvocationsFailedToBeSentToDLQ)"
            )));
            return;
        };
        if let Err(r) = self.service_may_send(&queue, EVENTS_PRINCIPAL, &|| d.rule_arn.to_string()) {
            self.emit(dropped(format!(
                "its dead-letter queue {dlq_name} refused it ({}: {}) (InvocationsFailedToBeSentToDLQ)",
                r.code, r.message
            )));
            return;
        }
        let mut attributes = MessageAttributes::new();
        let mut put = |k: &str, v: &str| {
            attributes.insert(k.to_string(), MessageAttributeValue::string(v));
        };
        put("RULE_ARN", &d.rule_arn);
        put("TARGET_ARN", &d.target.arn);
        put("ERROR_CODE", f.code);
        put("ERROR_MESSAGE", &f.message);
        if let Some(condition) = exhausted {
            put("EXHAUSTED_RETRY_CONDITION", condition);
        }
        put("RETRY_ATTEMPTS", &(d.attempt - 1).to_string());
        let incoming = Incoming::new(d.record.text.clone(), Arc::new(attributes), d.rule_arn.clone());
        let id = self.store(&queue, incoming);
        self.queue_mut(&queue).stats.sent += 1;
        self.emit(EventKind::EventBridge(EbEvent::SentToDeadLetterQueue {
            bus: d.bus.clone(),
            rule: d.rule.clone(),
            target: d.target.id.clone(),
            event_id: d.record.id.clone(),
            dead_letter_queue: queue,
            error_code: f.code,
            message_id: id.to_string(),
        }));
    }
}
