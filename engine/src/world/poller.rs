//! The event source mapping's poller: it gathers a batch (up to ten messages per ReceiveMessage),
//! invokes the function when the batch is full or the batching window is over, keeps going while
//! concurrency allows, and deletes what succeeded. Without ReportBatchItemFailures the handler
//! throws on the first failing record and the whole batch returns to the queue; with it, the
//! handler reports the failed records and only those return.

use super::commands::{Command, Done};
use super::mapping::{uuid, Invocation, Mapping};
use super::process::{records_from, Owner, Run};
use super::watch::Waiter;
use super::{BatchItemFailure, BatchResponse, WorldEvent, WorldTimer};
use crate::event::EventKind;
use crate::sim::Sim;
use crate::time::{MINUTE, SECOND};
use crate::timers::Timer;

impl Sim {
    /// Concurrent batches allowed now: Lambda starts with five and adds up to 300 a minute while
    /// messages keep coming, up to 1,000 or the mapping's MaximumConcurrency.
    fn mapping_limit(&self, m: &Mapping) -> usize {
        let ramp = m.scale_since.map_or(5, |s| 5 + 300 * (self.now.0.saturating_sub(s.0) / MINUTE));
        ramp.min(u64::from(m.max_concurrency.unwrap_or(1000))) as usize
    }

    /// The mapping's poller: gather a batch (up to 10 messages per ReceiveMessage), invoke when the
    /// batch is full or the batching window is over, and keep going while concurrency allows.
    pub(crate) fn mapping_poll(&mut self, id: u64) {
        let Some(m) = self.world.mappings.get_mut(&id) else { return };
        if !m.enabled {
            return;
        }
        let queue = m.queue.clone();
        if let Some(t) = m.wait_timer.take() {
            self.timers.cancel(t);
        }
        self.stop_waiting(&queue, &Waiter::Mapping(id));
        loop {
            let m = &self.world.mappings[&id];
            if m.invocations.len() >= self.mapping_limit(m) {
                return;
            }
            let Some(behavior) = self.world.functions.get(&m.function).map(|f| f.behavior.clone()) else {
                return self.disable_mapping(id, "the function no longer exists".into());
            };
            let (batch_size, window_ms) = (m.batch_size as usize, u64::from(m.window_s) * SECOND);
            let mut gathered = m.gathered.len();
            while gathered < batch_size {
                let received = self.receive_as("Lambda", &queue, (batch_size - gathered).min(10), None);
                let records = match received {
                    Ok(r) => records_from(&r, &behavior),
                    Err(e) => {
                        return self.disable_mapping(id, format!("ReceiveMessage failed: {}: {}", e.code, e.message))
                    }
                };
                if records.is_empty() {
                    break;
                }
                let now = self.now;
                let m = self.world.mappings.get_mut(&id).expect("invariant: checked above");
                m.gather_since.get_or_insert(now);
                m.scale_since.get_or_insert(now);
                gathered += records.len();
                m.gathered.extend(records);
            }
            let now = self.now;
            let m = self.world.mappings.get_mut(&id).expect("invariant: checked above");
            if m.gathered.is_empty() {
                if m.invocations.is_empty() {
                    m.scale_since = None;
                }
                let key = self.timers.schedule(now.plus_secs(20), Timer::World(WorldTimer::MappingWait(id)));
                self.world.mappings.get_mut(&id).expect("invariant: checked above").wait_timer = Some(key);
                return self.wait_on(&queue, Waiter::Mapping(id));
            }
            let since = m.gather_since.unwrap_or(now);
            if m.gathered.len() >= batch_size || now.0 >= since.0.saturating_add(window_ms) {
                self.invoke(id);
                continue;
            }
            if m.window_timer.is_none() {
                let at = since.plus_ms(window_ms);
                let key = self.timers.schedule(at, Timer::World(WorldTimer::MappingWindow(id)));
                self.world.mappings.get_mut(&id).expect("invariant: checked above").window_timer = Some(key);
            }
            return self.wait_on(&queue, Waiter::Mapping(id));
        }
    }

    pub(crate) fn on_mapping_timer(&mut self, id: u64, window: bool) {
        if let Some(m) = self.world.mappings.get_mut(&id) {
            if window {
                m.window_timer = None;
            } else {
                m.wait_timer = None;
            }
        }
        self.mapping_poll(id);
    }

    fn invoke(&mut self, id: u64) {
        let now = self.now;
        self.world.counters.invocation += 1;
        let inv = self.world.counters.invocation;
        let m = self.world.mappings.get_mut(&id).expect("invariant: invoked mapping exists");
        let records = std::mem::take(&mut m.gathered);
        m.gather_since = None;
        let window_timer = m.window_timer.take();
        m.stats.invocations += 1;
        m.stats.records += records.len() as u64;
        m.stats.redelivered += records.iter().filter(|r| r.receive_count > 1).count() as u64;
        m.invocations.insert(inv, Invocation::default());
        let (queue, function, stop_on_failure) = (m.queue.clone(), m.function.clone(), !m.report_failures);
        if let Some(t) = window_timer {
            self.timers.cancel(t);
        }
        let f = self.world.functions.get_mut(&function).expect("invariant: a mapping's function exists");
        f.stats.invocations += 1;
        f.running += 1;
        let (running, timeout_s, behavior) = (f.running, f.timeout_s, f.behavior.clone());
        self.world.metrics.count(super::metrics::MetricKey::function("Invocations", &function), 1);
        self.world
            .metrics
            .sample(super::metrics::MetricKey::function("ConcurrentExecutions", &function), u64::from(running));
        let message_ids = records.iter().filter_map(|r| r.message_id).collect();
        self.emit(EventKind::World(WorldEvent::FunctionInvoked {
            function: function.clone(),
            uuid: uuid(id),
            invocation: inv,
            message_ids,
        }));
        let mut run = Run::new(function, queue, behavior, records, now);
        run.deadline = Some(now.plus_secs(u64::from(timeout_s)));
        run.timeout_message = format!("Task timed out after {timeout_s}.00 seconds");
        run.stop_on_failure = stop_on_failure;
        self.start_run(&Owner::Invocation(id, inv), run);
    }

    /// The invocation ended: delete what succeeded, log the response, and poll again.
    pub(crate) fn invocation_finished(&mut self, id: u64, inv: u64) {
        let now = self.now;
        let Some(m) = self.world.mappings.get_mut(&id) else { return };
        let Some(run) = m.invocations.remove(&inv).and_then(|i| i.run) else { return };
        let (queue, report) = (m.queue.clone(), m.report_failures);
        let function = run.actor.clone();
        if let Some(f) = self.world.functions.get_mut(&function) {
            f.running = f.running.saturating_sub(1);
        }
        self.world.metrics.sample(super::metrics::MetricKey::function("Duration", &function), now.0 - run.started_at.0);
        if let Some(error) = run.aborted.clone() {
            let timed_out = error == run.timeout_message;
            if let Some(f) = self.world.functions.get_mut(&function) {
                f.stats.errors += 1;
                f.stats.timeouts += u64::from(timed_out);
            }
            let m = self.world.mappings.get_mut(&id).expect("invariant: looked up above");
            m.stats.failed_invocations += 1;
            m.stats.timeouts += u64::from(timed_out);
            m.last_result = "PROBLEM: Function call failed";
            self.world.metrics.count(super::metrics::MetricKey::function("Errors", &function), 1);
            let error = if timed_out { error } else { format!("Unhandled: {error}") };
            self.emit(EventKind::World(WorldEvent::FunctionFailed {
                function,
                uuid: uuid(id),
                invocation: inv,
                error,
                records_returned: run.records.len(),
            }));
        } else {
            let receipt_handles = run.succeeded.iter().map(|i| run.records[*i].receipt_handle.clone()).collect();
            let delete = Command::DeleteBatch { queue: queue.clone(), receipt_handles };
            let deleted = match self.perform("Lambda", vec![delete]).pop() {
                Some(Ok(Done::Applied(n))) => n,
                _ => 0,
            };
            let failures: Vec<BatchItemFailure> = run
                .failures
                .iter()
                .map(|(i, _)| BatchItemFailure {
                    item_identifier: run.records[*i].message_id.map(|m| m.to_string()).unwrap_or_default(),
                })
                .collect();
            let m = self.world.mappings.get_mut(&id).expect("invariant: looked up above");
            m.stats.deleted += deleted as u64;
            m.stats.item_failures += failures.len() as u64;
            m.last_result = "OK";
            let response = BatchResponse { batch_item_failures: if report { failures } else { Vec::new() } };
            self.emit(EventKind::World(WorldEvent::FunctionReturned {
                function,
                uuid: uuid(id),
                invocation: inv,
                response,
                deleted,
            }));
        }
        self.mapping_poll(id);
    }
}
