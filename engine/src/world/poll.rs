//! A worker's life between actions: the poll loop (receive, process, or wait), deleting what
//! succeeded, heartbeats while busy, and the ways it stops (a crash, a missing queue).

use super::commands::Command;
use super::process::{records_from, Owner, Run};
use super::watch::Waiter;
use super::worker::{WorkerState, SHORT_POLL_SLEEP_MS};
use super::{WorldEvent, WorldTimer};
use crate::event::{EventKind, Name};
use crate::sim::Sim;
use crate::time::SECOND;
use crate::timers::{Timer, TimerKey};

impl Sim {
    /// Cancels everything a worker has pending and drops what it holds (the messages stay in
    /// flight until their visibility timeout). Returns nothing; the caller logs why.
    pub(crate) fn silence_worker(&mut self, name: &Name) {
        let Some(w) = self.world.workers.get_mut(name) else { return };
        let timers: Vec<TimerKey> = [w.wait_timer.take(), w.heartbeat_timer.take()].into_iter().flatten().collect();
        let run = w.run.take();
        let queue = w.queue.clone();
        for t in timers {
            self.timers.cancel(t);
        }
        if let Some(mut run) = run {
            self.abandon_run(&mut run);
        }
        self.stop_waiting(&queue, &Waiter::Worker(name.clone()));
    }

    pub(crate) fn crash_worker_now(&mut self, name: &Name, point: &'static str) {
        let Some(w) = self.world.workers.get(name) else { return };
        let (held, queue) = (w.held(), w.queue.clone());
        self.silence_worker(name);
        let w = self.world.workers.get_mut(name).expect("invariant: checked above");
        w.state = WorkerState::Crashed;
        w.crash_armed = false;
        w.pause_requested = false;
        w.stats.crashes += 1;
        self.emit(EventKind::World(WorldEvent::WorkerCrashed { worker: name.clone(), queue, point, held }));
    }

    pub(crate) fn stop_worker(&mut self, name: &Name, reason: String) {
        self.silence_worker(name);
        if let Some(w) = self.world.workers.get_mut(name) {
            w.state = WorkerState::Stopped;
            w.stop_reason = Some(reason.clone());
        }
        self.emit(EventKind::World(WorldEvent::WorkerStopped { worker: name.clone(), reason }));
    }

    /// One turn of the poll loop: receive; process what came, or wait for more.
    pub(crate) fn worker_poll(&mut self, name: &Name) {
        let Some(w) = self.world.workers.get_mut(name) else { return };
        if !matches!(w.state, WorkerState::Waiting | WorkerState::Processing) || w.run.is_some() {
            return;
        }
        if w.pause_requested {
            w.pause_requested = false;
            w.state = WorkerState::Paused;
            return;
        }
        let timer = w.wait_timer.take();
        let queue = w.queue.clone();
        let (max, visibility) = (w.max_messages as usize, w.visibility_timeout);
        let wait_ms = if w.wait_seconds == 0 { SHORT_POLL_SLEEP_MS } else { u64::from(w.wait_seconds) * SECOND };
        let behavior = w.behavior.clone();
        if let Some(t) = timer {
            self.timers.cancel(t);
        }
        self.stop_waiting(&queue, &Waiter::Worker(name.clone()));
        let received = match self.receive_as("Worker", &queue, max, visibility) {
            Ok(r) => r,
            Err(e) => return self.stop_worker(name, format!("ReceiveMessage failed: {}: {}", e.code, e.message)),
        };
        let records = records_from(&received, &behavior);
        let now = self.now;
        if records.is_empty() {
            self.world.metrics.count(super::metrics::MetricKey::queue("NumberOfEmptyReceives", &queue), 1);
            let key = self.timers.schedule(now.plus_ms(wait_ms), Timer::World(WorldTimer::WorkerWait(name.clone())));
            let w = self.world.workers.get_mut(name).expect("invariant: checked above");
            w.stats.empty_receives += 1;
            w.state = WorkerState::Waiting;
            w.wait_timer = Some(key);
            self.wait_on(&queue, Waiter::Worker(name.clone()));
            return;
        }
        let w = self.world.workers.get_mut(name).expect("invariant: checked above");
        w.stats.received += records.len() as u64;
        w.state = WorkerState::Processing;
        let run = Run::new(name.clone(), queue, behavior, records, now);
        self.schedule_heartbeat(name);
        self.start_run(&Owner::Worker(name.clone()), run);
    }

    pub(crate) fn on_worker_wait(&mut self, name: &Name) {
        if let Some(w) = self.world.workers.get_mut(name) {
            w.wait_timer = None;
        }
        self.worker_poll(name);
    }

    pub(crate) fn worker_run_finished(&mut self, name: &Name) {
        let Some(w) = self.world.workers.get_mut(name) else { return };
        w.run = None;
        if let Some(t) = w.heartbeat_timer.take() {
            self.timers.cancel(t);
        }
        self.worker_poll(name);
    }

    /// Deletes a message the worker finished (the receipt handle of its own receive).
    pub(crate) fn worker_delete(&mut self, name: &Name, queue: &Name, handle: &str) {
        let delete = Command::Delete { queue: queue.clone(), receipt_handle: handle.to_string() };
        // The queue may have been deleted meanwhile; the worker carries on.
        let _ = self.perform("Worker", vec![delete]);
        if let Some(w) = self.world.workers.get_mut(name) {
            w.stats.succeeded += 1;
        }
    }

    pub(crate) fn schedule_heartbeat(&mut self, name: &Name) {
        let now = self.now;
        let Some(w) = self.world.workers.get_mut(name) else { return };
        if let Some(t) = w.heartbeat_timer.take() {
            self.timers.cancel(t);
        }
        if let Some(hb) = w.heartbeat {
            let timer = Timer::World(WorldTimer::Heartbeat(name.clone()));
            let key = self.timers.schedule(now.plus_ms(hb.interval_ms), timer);
            if let Some(w) = self.world.workers.get_mut(name) {
                w.heartbeat_timer = Some(key);
            }
        }
    }

    /// ChangeMessageVisibility on every message the worker still holds: "I'm still working on it".
    pub(crate) fn on_heartbeat(&mut self, name: &Name) {
        let Some(w) = self.world.workers.get_mut(name) else { return };
        w.heartbeat_timer = None;
        let (Some(hb), Some(run)) = (w.heartbeat, w.run.as_ref()) else { return };
        let handles: Vec<String> = run.held().iter().map(|r| r.receipt_handle.clone()).collect();
        let queue = w.queue.clone();
        let commands = handles
            .into_iter()
            .map(|receipt_handle| Command::ChangeVisibility {
                queue: queue.clone(),
                receipt_handle,
                seconds: hb.visibility_timeout,
            })
            .collect();
        let extended = self.perform("Heartbeat", commands).iter().filter(|r| r.is_ok()).count();
        let until = self.now.plus_secs(u64::from(hb.visibility_timeout));
        if let Some(w) = self.world.workers.get_mut(name) {
            w.stats.heartbeats += 1;
        }
        self.emit(EventKind::World(WorldEvent::HeartbeatSent {
            worker: name.clone(),
            queue,
            messages: extended,
            visible_again_at: until,
        }));
        self.schedule_heartbeat(name);
    }
}
