//! Asynchronous invocation: `Invoke` with `InvocationType: Event`, SNS's `lambda` subscriptions
//! and EventBridge's Lambda targets hand an event to the function's own queue, and Lambda runs
//! it, retries it, and finally sends a record of it to a destination.
//!
//! Lambda developer guide, "Asynchronous invocation": "Lambda places the event in a queue and
//! returns a success response without additional information. A separate process reads events
//! from the queue and sends them to your function." "If the function returns an error, Lambda
//! attempts to run it two more times, with a one-minute wait between the first two attempts, and
//! two minutes between the second and third attempts. Function errors include errors returned by
//! the function's code and errors returned by the function's runtime, such as timeouts."
//! `MaximumRetryAttempts` (0–2) and `MaximumEventAgeInSeconds` (60–21,600, default 6 hours)
//! tune this; "When an invocation event exceeds the maximum age or fails all retry attempts,
//! Lambda discards it" unless a destination (`OnFailure`) or a dead-letter queue keeps it.
//! "Even if your function doesn't return an error, it's possible for it to receive the same event
//! from Lambda multiple times", and nothing keeps events in order.
//!
//! Modelled: each event is picked from the queue after a seeded delay of up to one second, so two
//! events invoked together may run — and complete — in either order (the log's
//! `AsyncInvocationSucceeded` events show it). The maximum age: Lambda "keeps an event in the
//! asynchronous event queue" at most that long "before discarding it" (developer guide,
//! "Configuring error handling"), and AWS was recorded not to wait for it: with a 60 s maximum
//! and a retry a minute away, the `EventAgeExceeded` record reached the `OnFailure` destination
//! before 60 s had passed (LocalStack's AWS-validated `test_maxeventage`, 2025-11: "lambda doesn't
//! even wait for the full 60s"). So a failed attempt whose retry would be due after the maximum
//! age ends at once as `EventAgeExceeded`, not at the retry's due time; an event picked from the
//! queue when already too old ends so too. Not modelled: throttling and its
//! six-hour retries (concurrency is not limited here), duplicate deliveries from the queue,
//! versions and aliases (only `$LATEST`).

use super::process::{Owner, Record, Run};
use super::{WorldEvent, WorldTimer};
use crate::event::{EventKind, Name};
use crate::sim::Sim;
use crate::time::{SimTime, MINUTE, SECOND};
use crate::timers::Timer;
use serde_json::Value;
use std::sync::Arc;

/// Lambda's defaults: two retries, six hours.
pub const DEFAULT_MAXIMUM_RETRY_ATTEMPTS: u32 = 2;
pub const DEFAULT_MAXIMUM_EVENT_AGE_SECONDS: u32 = 21_600;
/// The longest the playground's queue waits before it hands an event to the function (chosen).
pub const MAX_PICKUP_DELAY_MS: u64 = SECOND;

/// One event in a function's asynchronous queue.
#[derive(Clone, Debug)]
pub(crate) struct AsyncEvent {
    pub id: u64,
    pub function: Name,
    pub payload: Arc<str>,
    /// Who invoked: `Invoke`, a topic ARN, a rule ARN, or a function (a destination).
    pub source: Name,
    pub enqueued_at: SimTime,
    /// Attempts started so far.
    pub attempts: u32,
    pub run: Option<Run>,
    /// The last attempt's error (`None` while it has not failed).
    pub last_error: Option<String>,
}

/// A request id in a UUID's shape that keeps its counter readable.
pub(crate) fn request_id(id: u64) -> String {
    format!("00000000-0000-4000-9000-{id:012}")
}

/// The text a function's code reads for its event id and fields: an SNS record's message, or
/// the payload itself.
fn event_text(payload: &str) -> String {
    let v: Value = serde_json::from_str(payload).unwrap_or(Value::Null);
    match v.pointer("/Records/0/Sns/Message").and_then(Value::as_str) {
        Some(m) => m.to_string(),
        None => payload.to_string(),
    }
}

impl Sim {
    /// Puts an event in `function`'s asynchronous queue (the function exists). Returns its request id.
    pub(crate) fn invoke_async(&mut self, function: &Name, payload: String, source: Name) -> String {
        self.world.counters.async_event += 1;
        let id = self.world.counters.async_event;
        let event = AsyncEvent {
            id,
            function: function.clone(),
            payload: payload.into(),
            source,
            enqueued_at: self.now,
            attempts: 0,
            run: None,
            last_error: None,
        };
        self.world.async_events.insert(id, event);
        self.world.metrics.count(super::MetricKey::function("AsyncEventsReceived", function), 1);
        self.ensure_ticking();
        let rid = request_id(id);
        let source = self.world.async_events[&id].source.clone();
        self.emit(EventKind::World(WorldEvent::AsyncInvocationQueued {
            function: function.clone(),
            request_id: rid.clone(),
            source,
        }));
        self.schedule_pickup(id, 0);
        rid
    }

    /// The queue hands the event to the function after `wait` plus a seeded pickup delay.
    fn schedule_pickup(&mut self, id: u64, wait: u64) {
        let at = self.now.plus_ms(wait + self.rng.up_to(MAX_PICKUP_DELAY_MS));
        self.timers.schedule(at, Timer::World(WorldTimer::AsyncAttempt(id)));
    }

    /// The function's `MaximumRetryAttempts` and `MaximumEventAgeInSeconds`.
    fn async_limits(&self, function: &Name) -> (u32, u32) {
        let c = self.world.functions.get(function).and_then(|f| f.invoke_config.as_ref());
        (
            c.and_then(|c| c.maximum_retry_attempts).unwrap_or(DEFAULT_MAXIMUM_RETRY_ATTEMPTS),
            c.and_then(|c| c.maximum_event_age_seconds).unwrap_or(DEFAULT_MAXIMUM_EVENT_AGE_SECONDS),
        )
    }

    /// The queue picks the event: too old, it fails as `EventAgeExceeded`; else an attempt starts.
    pub(crate) fn on_async_attempt(&mut self, id: u64) {
        let Some(e) = self.world.async_events.get(&id) else { return };
        let function = e.function.clone();
        let Some(f) = self.world.functions.get(&function) else {
            self.world.async_events.remove(&id);
            let reason = "the function was deleted".to_string();
            self.emit(EventKind::World(WorldEvent::AsyncEventDropped { function, request_id: request_id(id), reason }));
            return;
        };
        let (_, max_age_s) = self.async_limits(&function);
        let age_ms = self.now.0 - e.enqueued_at.0;
        if age_ms > u64::from(max_age_s) * SECOND {
            return self.async_gave_up(id, "EventAgeExceeded");
        }
        let (timeout_s, behavior) = (f.timeout_s, f.behavior.clone());
        let text = event_text(&e.payload);
        let info = behavior.inspect(&text, &request_id(id));
        let event_id = info.event_id.clone();
        let record = Record {
            message_id: None,
            receipt_handle: String::new(),
            receive_count: e.attempts + 1,
            sent_at: e.enqueued_at,
            info,
        };
        let now = self.now;
        let mut run = Run::new(function.clone(), "".into(), behavior, vec![record], now);
        run.deadline = Some(now.plus_secs(u64::from(timeout_s)));
        run.timeout_message = format!("Task timed out after {timeout_s}.00 seconds");
        run.stop_on_failure = true;
        let e = self.world.async_events.get_mut(&id).expect("invariant: looked up above");
        e.attempts += 1;
        let attempt = e.attempts;
        let f = self.world.functions.get_mut(&function).expect("invariant: looked up above");
        f.stats.invocations += 1;
        f.running += 1;
        let running = f.running;
        self.world.metrics.count(super::MetricKey::function("Invocations", &function), 1);
        self.world.metrics.sample(super::MetricKey::function("ConcurrentExecutions", &function), u64::from(running));
        self.world.metrics.sample(super::MetricKey::function("AsyncEventAge", &function), age_ms);
        self.emit(EventKind::World(WorldEvent::AsyncInvocationStarted {
            function,
            request_id: request_id(id),
            event_id,
            attempt,
        }));
        self.start_run(&Owner::Async(id), run);
    }

    /// An attempt ended: success goes to `OnSuccess`; a failure is retried or given up on.
    pub(crate) fn async_finished(&mut self, id: u64) {
        let now = self.now;
        let Some(e) = self.world.async_events.get_mut(&id) else { return };
        let Some(run) = e.run.take() else { return };
        let (function, attempt) = (e.function.clone(), e.attempts);
        if let Some(f) = self.world.functions.get_mut(&function) {
            f.running = f.running.saturating_sub(1);
        }
        self.world.metrics.sample(super::MetricKey::function("Duration", &function), now.0 - run.started_at.0);
        let event_id = run.records[0].info.event_id.clone();
        let error = run.aborted.clone().or_else(|| run.failures.first().map(|(_, why)| why.clone()));
        let Some(error) = error else {
            self.emit(EventKind::World(WorldEvent::AsyncInvocationSucceeded {
                function,
                request_id: request_id(id),
                event_id,
                attempt,
            }));
            let e = self.world.async_events.remove(&id).expect("invariant: looked up above");
            self.send_invocation_record(&e, "Success");
            return;
        };
        if let Some(f) = self.world.functions.get_mut(&function) {
            f.stats.errors += 1;
            f.stats.timeouts += u64::from(error == run.timeout_message);
        }
        self.world.metrics.count(super::MetricKey::function("Errors", &function), 1);
        let (max_retries, max_age_s) = self.async_limits(&function);
        // "a one-minute wait between the first two attempts, and two minutes between the second
        // and third".
        let wait = (attempt <= max_retries).then_some(if attempt == 1 { MINUTE } else { 2 * MINUTE });
        let e = self.world.async_events.get_mut(&id).expect("invariant: looked up above");
        e.last_error = Some(error.clone());
        // A retry that would come after the maximum age is not waited for (see the module doc).
        let too_old = wait.is_some_and(|w| now.0 + w - e.enqueued_at.0 > u64::from(max_age_s) * SECOND);
        let wait = wait.filter(|_| !too_old);
        self.emit(EventKind::World(WorldEvent::AsyncInvocationFailed {
            function,
            request_id: request_id(id),
            event_id,
            attempt,
            error,
            retry_at: wait.map(|w| now.plus_ms(w)),
        }));
        match wait {
            Some(w) => {
                let at = now.plus_ms(w);
                self.timers.schedule(at, Timer::World(WorldTimer::AsyncAttempt(id)));
            }
            None if too_old => self.async_gave_up(id, "EventAgeExceeded"),
            None => self.async_gave_up(id, "RetriesExhausted"),
        }
    }

    /// Lambda discards the event: its record goes to `OnFailure`, the event to the function's
    /// dead-letter queue; with neither it is lost.
    fn async_gave_up(&mut self, id: u64, condition: &'static str) {
        let Some(e) = self.world.async_events.remove(&id) else { return };
        self.world.metrics.count(super::MetricKey::function("AsyncEventsDropped", &e.function), 1);
        let kept = self.send_invocation_record(&e, condition);
        let kept = self.send_to_function_dlq(&e, condition) || kept;
        if !kept {
            self.emit(EventKind::World(WorldEvent::AsyncEventDropped {
                function: e.function.clone(),
                request_id: request_id(id),
                reason: format!("{condition}, and the function has no OnFailure destination or dead-letter queue"),
            }));
        }
    }
}
