//! Producers: a checkout that emits the same deterministic stream of order events (`evt-4401`,
//! order 4401, …) in one of three designs, so the designs compare number for number:
//! - `FanOut`: publish once to a topic; each consumer's queue and workers do their own job.
//! - `SingleQueue`: send to one queue, where one worker does every job (one failure retries all).
//! - `Chain`: the coupled design: call every service in turn on the request path. Latency is the
//!   sum of the calls; the request succeeds only if every call does (availability is the product).
//!
//! `FanOut` and `SingleQueue` may also take `Jobs`: the calls whose answer the customer must see
//! (taking the payment), made in turn while the customer waits, before the event is published or
//! sent. The event goes out only when every call succeeded; checkout's latency is then the calls'
//! sum. The publish or send itself takes no virtual time: the playground has no documented figure.

use super::commands::Command;
use super::effects::Histogram;
use super::process::{Owner, Record, Run};
use super::spec::{self, has, invalid, Behavior, EventInfo, Span};
use super::{WorldEvent, WorldTimer};
use crate::attributes::{MessageAttributeValue, MessageAttributes};
use crate::error::{ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::sim::Sim;
use crate::timers::{Timer, TimerKey};
use crate::vecmap::VecMap;
use serde_json::{json, Value};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub(crate) enum Design {
    FanOut { topic: Name },
    SingleQueue { queue: Name },
    Chain { behavior: Arc<Behavior>, timeout_ms: Option<u64> },
}

impl Design {
    pub fn name(&self) -> &'static str {
        match self {
            Design::FanOut { .. } => "FanOut",
            Design::SingleQueue { .. } => "SingleQueue",
            Design::Chain { .. } => "Chain",
        }
    }

    /// The dependencies a `Chain` calls, in its jobs' order, each once.
    pub fn calls(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if let Design::Chain { behavior, .. } = self {
            for d in behavior.jobs.iter().filter_map(|j| j.dependency.as_deref()) {
                if !out.iter().any(|o| o == d) {
                    out.push(d.to_string());
                }
            }
        }
        out
    }

    /// The topic or queue it publishes or sends to, by name.
    pub fn sends_to(&self) -> Option<&str> {
        match self {
            Design::FanOut { topic } => Some(topic),
            Design::SingleQueue { queue } => Some(queue),
            Design::Chain { .. } => None,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct ProducerStats {
    pub produced: u64,
    /// Publishes or sends the service accepted: the checkout answered the customer.
    pub accepted: u64,
    pub rejected: u64,
    pub requests: u64,
    pub succeeded: u64,
    pub failed: u64,
    /// Failed after at least one service did its part: charged, but no slip.
    pub half_done: u64,
    pub latency: Histogram,
}

#[derive(Clone, Debug)]
pub(crate) struct Producer {
    pub name: Name,
    pub design: Design,
    pub interval_ms: u64,
    pub count: u64,
    pub first_order: u64,
    pub poison_every: u64,
    pub duplicate_every: u64,
    pub event_type: String,
    /// `Version`: the version every event carries (1 by default). Another version names its
    /// events `evt-<order>-v<version>`, so two producers can send one order's later states.
    pub version: u64,
    /// `Manual`: no timer; each `Produce` emits the next event (compare mode's checkout).
    pub manual: bool,
    /// `FanOut` or `SingleQueue` with `Jobs`: the calls made while the customer waits, before
    /// the event goes out, and the request's timeout.
    pub calls: Option<(Arc<Behavior>, Option<u64>)>,
    /// The event each request in flight hands over once its calls succeed.
    awaiting: VecMap<u64, Value>,
    timer: Option<TimerKey>,
    pub requests: VecMap<u64, Option<Run>>,
    next_request: u64,
    pub stopped: Option<String>,
    pub stats: ProducerStats,
}

pub(crate) const PRODUCER_KEYS: &[&str] = &[
    "ProducerName",
    "Design",
    "TopicArn",
    "QueueUrl",
    "Jobs",
    "RequestTimeout",
    "Interval",
    "Count",
    "StartAfter",
    "FirstOrderId",
    "PoisonEvery",
    "DuplicateEvery",
    "EventType",
    "Version",
    "Manual",
    "Poison",
];

impl Producer {
    /// Event `n` (from 1): the same for every design and every run.
    fn event(&self, n: u64, now_ms: u64, poison: bool) -> (String, Value) {
        let order = self.first_order + n - 1;
        let poison = poison || self.poison_every > 0 && n.is_multiple_of(self.poison_every);
        // A phone number missing a digit is the poison message of the seeds' SMS consumer.
        let phone = if poison { "+91987654321" } else { "+919876543210" };
        let id = match self.version {
            1 => format!("evt-{order}"),
            v => format!("evt-{order}-v{v}"),
        };
        let body = json!({
            "event_id": id,
            "event_type": self.event_type,
            "order_id": order,
            "version": self.version,
            "occurred_at_ms": now_ms,
            "data": { "phone": phone, "amount": 500 + order % 97 * 25 },
        });
        (id, body)
    }
}

impl Sim {
    pub(crate) fn create_producer(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("ProducerName")?;
        if !crate::ids::valid_resource_name(name, 80) {
            return Err(invalid(format!(
                "ProducerName \"{name}\": use 1 to 80 letters, digits, hyphens and underscores"
            )));
        }
        if self.world.producers.contains_key(name) {
            return Err(spec::conflict("Producer", name));
        }
        let deps = |d: &str| self.world.dependencies.contains_key(d);
        let request_path = |p: &Params| -> ApiResult<Arc<Behavior>> {
            let mut behavior = Behavior::new(name)?.updated(p, &deps)?;
            behavior.processing = Span::fixed(0);
            Ok(Arc::new(behavior))
        };
        let design = match p.str("Design")? {
            "FanOut" => Design::FanOut { topic: self.topic_ref(p.str("TopicArn")?)? },
            "SingleQueue" => Design::SingleQueue { queue: self.queue_ref(p.str("QueueUrl")?)? },
            "Chain" => {
                if !has(p, "Jobs") {
                    return Err(Service::Sim.missing("Jobs"));
                }
                Design::Chain { behavior: request_path(p)?, timeout_ms: spec::opt_duration(p, "RequestTimeout")? }
            }
            other => return Err(invalid(format!("Design \"{other}\" is not one of FanOut, SingleQueue, Chain"))),
        };
        let chained = matches!(design, Design::Chain { .. });
        if let (false, true) = (chained, has(p, "Poison")) {
            return Err(invalid("Poison is for the Chain design only"));
        }
        if !chained && has(p, "RequestTimeout") && !has(p, "Jobs") {
            return Err(invalid("RequestTimeout is for a request that makes calls: give Jobs too"));
        }
        let calls = if !chained && has(p, "Jobs") {
            Some((request_path(p)?, spec::opt_duration(p, "RequestTimeout")?))
        } else {
            None
        };
        let interval_ms = spec::opt_duration(p, "Interval")?.unwrap_or(1_000).max(1);
        let start_after = spec::opt_duration(p, "StartAfter")?.unwrap_or(0);
        let mut producer = Producer {
            name: name.into(),
            design,
            interval_ms,
            count: p.opt_int("Count", 1, 10_000_000)?.unwrap_or(100) as u64,
            first_order: p.opt_int("FirstOrderId", 0, 1_000_000_000_000)?.unwrap_or(4401) as u64,
            poison_every: p.opt_int("PoisonEvery", 0, 1_000_000)?.unwrap_or(0) as u64,
            duplicate_every: p.opt_int("DuplicateEvery", 0, 1_000_000)?.unwrap_or(0) as u64,
            event_type: p.opt_str("EventType")?.unwrap_or("OrderPlaced").to_string(),
            version: p.opt_int("Version", 1, 1_000_000)?.unwrap_or(1) as u64,
            manual: p.opt_bool("Manual")?.unwrap_or(false),
            calls,
            awaiting: VecMap::new(),
            timer: None,
            requests: VecMap::new(),
            next_request: 0,
            stopped: None,
            stats: ProducerStats::default(),
        };
        if let Design::Chain { behavior, .. } = &producer.design {
            self.declare_jobs(&behavior.jobs.clone());
        }
        if let Some((behavior, _)) = &producer.calls {
            self.declare_jobs(&behavior.jobs.clone());
        }
        if producer.manual && (has(p, "Count") || has(p, "Interval") || has(p, "StartAfter")) {
            return Err(invalid(
                "a Manual producer takes no Count, Interval or StartAfter: each Produce emits one event",
            ));
        }
        let at = self.now.plus_ms(start_after);
        producer.timer = (!producer.manual)
            .then(|| self.timers.schedule(at, Timer::World(WorldTimer::ProducerTick(producer.name.clone()))));
        let design = producer.design.name();
        self.world.producers.insert(producer.name.clone(), producer);
        self.ensure_ticking();
        self.emit(EventKind::World(WorldEvent::ProducerCreated { producer: name.into(), design }));
        Ok(json!({ "ProducerName": name }))
    }

    pub(crate) fn stop_producer(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("ProducerName")?;
        let producer = self.world.producers.get_mut(name).ok_or_else(|| spec::not_found("Producer", name))?;
        let manual = std::mem::take(&mut producer.manual);
        if let Some(t) = producer.timer.take() {
            self.timers.cancel(t);
        }
        if manual || producer.stopped.is_none() {
            producer.stopped = Some("stopped by StopProducer".into());
            let key = producer.name.clone();
            self.emit(EventKind::World(WorldEvent::ProducerStopped { producer: key, reason: "StopProducer".into() }));
        }
        Ok(json!({}))
    }

    pub(crate) fn describe_producer(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("ProducerName")?;
        let pr = self.world.producers.get(name).ok_or_else(|| spec::not_found("Producer", name))?;
        let s = &pr.stats;
        let (ok, all) = match pr.design {
            Design::Chain { .. } => (s.succeeded, s.requests),
            // With calls first, a request whose calls failed is not handed over: not accepted.
            _ => (s.accepted, s.produced),
        };
        let ppm = (ok * 1_000_000).checked_div(all).unwrap_or(0);
        Ok(json!({
            "ProducerName": name,
            "Design": pr.design.name(),
            "Produced": s.produced,
            "Count": pr.count,
            "Finished": pr.timer.is_none() && !pr.manual,
            "InFlightRequests": pr.requests.len(),
            "Accepted": s.accepted,
            "Rejected": s.rejected,
            "Requests": s.requests,
            "Succeeded": s.succeeded,
            "Failed": s.failed,
            "HalfDone": s.half_done,
            "AvailabilityPpm": ppm,
            "Availability": format!("{}.{:02}%", ppm / 10_000, ppm % 10_000 / 100),
            "Latency": s.latency.json(),
        }))
    }

    /// `Produce` {ProducerName, Poison}: a `Manual` producer emits its next event now (with a
    /// phone number one digit short when `Poison` is true), in its design.
    pub(crate) fn produce_one(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("ProducerName")?;
        let poison = p.opt_bool("Poison")?.unwrap_or(false);
        let pr = self.world.producers.get_mut(name).ok_or_else(|| spec::not_found("Producer", name))?;
        if !pr.manual {
            return Err(invalid(format!("Producer \"{name}\" is not Manual: it produces on its own timer")));
        }
        pr.stats.produced += 1;
        let n = pr.stats.produced;
        let (event_id, body) = pr.event(n, self.now.0, poison);
        let (key, design, event_type) = (pr.name.clone(), pr.design.clone(), pr.event_type.clone());
        self.produce(&key, &design, &event_id, &body, &event_type);
        Ok(json!({ "ProducerName": name, "EventId": event_id, "OrderId": body["order_id"] }))
    }

    pub(crate) fn on_producer_tick(&mut self, name: &Name) {
        let now = self.now;
        let Some(pr) = self.world.producers.get_mut(name) else { return };
        pr.timer = None;
        pr.stats.produced += 1;
        let n = pr.stats.produced;
        let (event_id, body) = pr.event(n, now.0, false);
        let copies = if pr.duplicate_every > 0 && n % pr.duplicate_every == 0 { 2 } else { 1 };
        let (design, event_type) = (pr.design.clone(), pr.event_type.clone());
        if n < pr.count {
            let key =
                self.timers.schedule(now.plus_ms(pr.interval_ms), Timer::World(WorldTimer::ProducerTick(name.clone())));
            self.world.producers.get_mut(name).expect("invariant: looked up above").timer = Some(key);
        }
        for _ in 0..copies {
            self.produce(name, &design, &event_id, &body, &event_type);
        }
        let pr = self.world.producers.get_mut(name).expect("invariant: looked up above");
        if pr.timer.is_none() && pr.stopped.is_none() {
            pr.stopped = Some("finished".into());
            let produced = pr.stats.produced;
            self.emit(EventKind::World(WorldEvent::ProducerFinished { producer: name.clone(), produced }));
        }
    }

    fn produce(&mut self, name: &Name, design: &Design, event_id: &str, body: &Value, event_type: &str) {
        let calls = self.world.producers.get(name).and_then(|p| p.calls.clone());
        if let (false, Some((behavior, timeout_ms))) = (matches!(design, Design::Chain { .. }), calls) {
            return self.start_request(name, behavior, timeout_ms, event_id, body, true);
        }
        if let Design::Chain { behavior, timeout_ms } = design {
            return self.start_request(name, behavior.clone(), *timeout_ms, event_id, body, false);
        }
        self.hand_over(name, design, &body.to_string(), event_type);
    }

    /// Publishes or sends the event (not for `Chain`); a refusal stops the producer. Whether it
    /// was accepted.
    fn hand_over(&mut self, name: &Name, design: &Design, text: &str, event_type: &str) -> bool {
        let text = text.to_string();
        let command = match design {
            Design::FanOut { topic } => {
                let mut attributes = MessageAttributes::new();
                attributes.insert("event_type".into(), MessageAttributeValue::string(event_type));
                Command::Publish { topic: topic.to_string(), message: text, attributes }
            }
            Design::SingleQueue { queue } => Command::Send { queue: queue.clone(), body: text },
            Design::Chain { .. } => return false,
        };
        let result = self.perform("Producer", vec![command]).pop().expect("one command, one result");
        let pr = self.world.producers.get_mut(name).expect("invariant: a producing producer exists");
        match result {
            Ok(_) => {
                pr.stats.accepted += 1;
                true
            }
            Err(e) => {
                pr.stats.rejected += 1;
                let reason = format!("{}: {}", e.code, e.message);
                if let Some(t) = pr.timer.take() {
                    self.timers.cancel(t);
                }
                pr.manual = false;
                pr.stopped = Some(reason.clone());
                self.emit(EventKind::World(WorldEvent::ProducerStopped { producer: name.clone(), reason }));
                false
            }
        }
    }

    /// Starts a request's calls; with `then_hand_over`, the event goes out once they succeed.
    fn start_request(
        &mut self,
        name: &Name,
        behavior: Arc<Behavior>,
        timeout_ms: Option<u64>,
        event_id: &str,
        body: &Value,
        then_hand_over: bool,
    ) {
        let now = self.now;
        let pr = self.world.producers.get_mut(name).expect("invariant: a producing producer exists");
        pr.next_request += 1;
        pr.stats.requests += 1;
        let r = pr.next_request;
        pr.requests.insert(r, None);
        if then_hand_over {
            pr.awaiting.insert(r, body.clone());
        }
        let info = EventInfo {
            event_id: event_id.into(),
            entity: body.get("order_id").map(|o| o.to_string().into()),
            version: Some(1),
            occurred_at: Some(now),
            poison: behavior.poison.as_ref().is_some_and(|p| p.matches(body, &body.to_string())),
        };
        let record = Record { message_id: None, receipt_handle: String::new(), receive_count: 1, sent_at: now, info };
        let mut run = Run::new(name.clone(), "".into(), behavior, vec![record], now);
        run.stop_on_failure = true;
        run.deadline = timeout_ms.map(|t| now.plus_ms(t));
        run.timeout_message = "timed out".into();
        self.world.metrics.count(super::metrics::MetricKey::producer("Requests", name), 1);
        self.start_run(&Owner::Request(name.clone(), r), run);
    }

    pub(crate) fn request_finished(&mut self, name: &Name, r: u64) {
        let now = self.now;
        let Some(pr) = self.world.producers.get_mut(name) else { return };
        let Some(run) = pr.requests.remove(&r).flatten() else { return };
        let latency = now.0 - run.started_at.0;
        pr.stats.latency.record(latency);
        let mut ok = run.aborted.is_none() && run.failures.is_empty();
        let mut failed_at = match &run.aborted {
            Some(reason) if *reason == run.timeout_message => Some("(timeout)".into()),
            _ => run.failed_job.clone(),
        };
        if let Some(body) = pr.awaiting.remove(&r) {
            // The calls are done: only now does the event go out, and only if they succeeded.
            if ok {
                let (design, event_type) = (pr.design.clone(), pr.event_type.clone());
                if !self.hand_over(name, &design, &body.to_string(), &event_type) {
                    ok = false;
                    failed_at = Some("(publish)".into());
                }
            }
        }
        let Some(pr) = self.world.producers.get_mut(name) else { return };
        let outcome = match (ok, run.effects) {
            (true, _) => "succeeded",
            (false, 0) => "failed",
            (false, _) => "half done",
        };
        if ok {
            pr.stats.succeeded += 1;
        } else {
            pr.stats.failed += 1;
            pr.stats.half_done += u64::from(run.effects > 0);
            self.world.metrics.count(super::metrics::MetricKey::producer("FailedRequests", name), 1);
        }
        self.world.metrics.sample(super::metrics::MetricKey::producer("RequestLatency", name), latency);
        let event_id = run.records[0].info.event_id.clone();
        self.emit(EventKind::World(WorldEvent::RequestCompleted {
            producer: name.clone(),
            event_id,
            outcome,
            failed_at: if ok { None } else { failed_at },
            latency_ms: latency,
        }));
    }
}
