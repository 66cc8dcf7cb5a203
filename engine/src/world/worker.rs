//! Workers: competing consumers on one queue. Each runs a poll loop (ReceiveMessage with
//! MaxNumberOfMessages, long polling in virtual time), processes what it got one message after
//! another, and deletes each message that succeeded. A learner can pause, resume, slow down,
//! make it fail, crash it (now, or right after its next side effect), and restart it.

use super::process::{records_from, Owner, Run};
use super::spec::{self, invalid, Behavior, BEHAVIOR_KEYS};
use super::watch::Waiter;
use super::{WorldEvent, WorldTimer};
use crate::error::{ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids::{self, MsgId};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::SECOND;
use crate::timers::{Timer, TimerKey};
use serde_json::{json, Value};
use std::sync::Arc;

pub(crate) const NOW: &str = "now";
pub(crate) const AFTER_EFFECT: &str = "after its side effect, before the commit";

/// With WaitTimeSeconds 0 (short polling), an idle worker polls again after this long.
const SHORT_POLL_SLEEP_MS: u64 = SECOND;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WorkerState {
    Waiting,
    Processing,
    Paused,
    Crashed,
    Stopped,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Heartbeat {
    pub interval_ms: u64,
    pub visibility_timeout: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WorkerStats {
    pub received: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub crashes: u64,
    pub empty_receives: u64,
    pub heartbeats: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct Worker {
    pub name: Name,
    pub queue: Name,
    pub max_messages: u32,
    pub wait_seconds: u32,
    pub visibility_timeout: Option<u32>,
    pub heartbeat: Option<Heartbeat>,
    pub behavior: Arc<Behavior>,
    pub state: WorkerState,
    pub run: Option<Run>,
    pub crash_armed: bool,
    pub pause_requested: bool,
    pub stop_reason: Option<String>,
    wait_timer: Option<TimerKey>,
    heartbeat_timer: Option<TimerKey>,
    pub stats: WorkerStats,
}

impl Worker {
    pub fn state_name(&self) -> &'static str {
        match self.state {
            WorkerState::Processing if self.pause_requested => "Pausing",
            WorkerState::Waiting => "Waiting",
            WorkerState::Processing => "Processing",
            WorkerState::Paused => "Paused",
            WorkerState::Crashed => "Crashed",
            WorkerState::Stopped => "Stopped",
        }
    }

    pub fn held(&self) -> Vec<MsgId> {
        self.run.as_ref().map(|r| r.held().iter().filter_map(|r| r.message_id).collect()).unwrap_or_default()
    }
}

const POLL_KEYS: &[&str] = &["MaxNumberOfMessages", "WaitTimeSeconds", "VisibilityTimeout", "Heartbeat"];

fn parse_heartbeat(value: &Value) -> ApiResult<Option<Heartbeat>> {
    if value.as_object().is_some_and(|m| m.is_empty()) {
        return Ok(None);
    }
    let p = Params::new(Service::Sim, "Heartbeat", value, &["Interval", "VisibilityTimeout"])?;
    let interval_ms = spec::opt_duration(&p, "Interval")?.ok_or_else(|| Service::Sim.missing("Heartbeat.Interval"))?;
    if interval_ms < SECOND {
        return Err(invalid("Heartbeat.Interval must be at least 1s"));
    }
    let visibility_timeout = p
        .opt_int("VisibilityTimeout", 1, 43_200)?
        .ok_or_else(|| Service::Sim.missing("Heartbeat.VisibilityTimeout"))? as u32;
    Ok(Some(Heartbeat { interval_ms, visibility_timeout }))
}

impl Sim {
    fn worker_ref(&self, p: &Params) -> ApiResult<Name> {
        let name = p.str("WorkerName")?;
        self.world.workers.get_key_value(name).map(|(k, _)| k.clone()).ok_or_else(|| spec::not_found("Worker", name))
    }

    fn deps_exist(&self) -> impl Fn(&str) -> bool + '_ {
        |d| self.world.dependencies.contains_key(d)
    }

    /// Applies the poll settings present in `p` to `w`.
    fn poll_settings(p: &Params, w: &mut Worker) -> ApiResult<()> {
        if let Some(n) = p.opt_int("MaxNumberOfMessages", 1, 10)? {
            w.max_messages = n as u32;
        }
        if let Some(n) = p.opt_int("WaitTimeSeconds", 0, 20)? {
            w.wait_seconds = n as u32;
        }
        if let Some(v) = p.raw("VisibilityTimeout") {
            w.visibility_timeout = if v.is_null() { None } else { p.opt_int("VisibilityTimeout", 0, 43_200)?.map(|n| n as u32) };
        }
        if let Some(v) = p.raw("Heartbeat") {
            w.heartbeat = parse_heartbeat(v)?;
        }
        Ok(())
    }

    /// `CreateWorker`: a consumer that starts polling its queue at once.
    pub(crate) fn create_worker(&mut self, p: &Value) -> ApiResult<Value> {
        let mut keys = vec!["WorkerName", "QueueUrl"];
        keys.extend_from_slice(POLL_KEYS);
        keys.extend_from_slice(BEHAVIOR_KEYS);
        let p = Params::new(Service::Sim, "CreateWorker", p, &keys)?;
        let name = p.str("WorkerName")?;
        if !ids::valid_resource_name(name, 80) {
            return Err(invalid(format!("WorkerName \"{name}\": use 1 to 80 letters, digits, hyphens and underscores")));
        }
        if self.world.workers.contains_key(name) {
            return Err(spec::conflict("Worker", name));
        }
        let queue = self.queue_ref(p.str("QueueUrl")?)?;
        let behavior = Behavior::new(&queue)?.updated(&p, &self.deps_exist())?;
        let mut worker = Worker {
            name: name.into(),
            queue: queue.clone(),
            max_messages: 1,
            wait_seconds: 20,
            visibility_timeout: None,
            heartbeat: None,
            behavior: Arc::new(behavior),
            state: WorkerState::Waiting,
            run: None,
            crash_armed: false,
            pause_requested: false,
            stop_reason: None,
            wait_timer: None,
            heartbeat_timer: None,
            stats: WorkerStats::default(),
        };
        Self::poll_settings(&p, &mut worker)?;
        let key = worker.name.clone();
        self.declare_jobs(&worker.behavior.jobs.clone());
        self.world.workers.insert(key.clone(), worker);
        self.ensure_ticking();
        self.emit(EventKind::World(WorldEvent::WorkerCreated { worker: key.clone(), queue }));
        self.worker_poll(&key);
        Ok(json!({ "WorkerName": name }))
    }

    /// `UpdateWorker`: new poll settings or behaviour, from the next message on (slow it down,
    /// make it fail, give it a poison predicate, a heartbeat or another idempotency mode).
    pub(crate) fn update_worker(&mut self, p: &Value) -> ApiResult<Value> {
        let mut keys = vec!["WorkerName"];
        keys.extend_from_slice(POLL_KEYS);
        keys.extend_from_slice(BEHAVIOR_KEYS);
        let p = Params::new(Service::Sim, "UpdateWorker", p, &keys)?;
        let name = self.worker_ref(&p)?;
        let mut w = self.world.workers[&name].clone();
        w.behavior = Arc::new(w.behavior.updated(&p, &self.deps_exist())?);
        Self::poll_settings(&p, &mut w)?;
        let settings: Vec<String> = keys[1..].iter().filter(|k| p.has(k)).map(|k| k.to_string()).collect();
        let restart_heartbeat = p.has("Heartbeat") && w.run.is_some();
        self.declare_jobs(&w.behavior.jobs.clone());
        self.world.workers.insert(name.clone(), w);
        if restart_heartbeat {
            self.schedule_heartbeat(&name);
        }
        self.emit(EventKind::World(WorldEvent::WorkerUpdated { worker: name, settings }));
        Ok(json!({}))
    }

    pub(crate) fn pause_worker(&mut self, p: &Value) -> ApiResult<Value> {
        let p = Params::new(Service::Sim, "PauseWorker", p, &["WorkerName"])?;
        let name = self.worker_ref(&p)?;
        let w = self.world.workers.get_mut(&name).expect("invariant: resolved worker exists");
        match w.state {
            WorkerState::Crashed | WorkerState::Stopped => {
                return Err(invalid(format!("worker {name} is {}; restart it first (RestartWorker)", w.state_name())))
            }
            WorkerState::Paused => return Ok(json!({})),
            WorkerState::Processing if w.pause_requested => return Ok(json!({})),
            // It finishes the messages it holds, then stops polling.
            WorkerState::Processing => w.pause_requested = true,
            WorkerState::Waiting => {
                w.state = WorkerState::Paused;
                let (queue, timer) = (w.queue.clone(), w.wait_timer.take());
                if let Some(t) = timer {
                    self.timers.cancel(t);
                }
                self.stop_waiting(&queue, &Waiter::Worker(name.clone()));
            }
        }
        self.emit(EventKind::World(WorldEvent::WorkerPaused { worker: name }));
        Ok(json!({}))
    }

    pub(crate) fn resume_worker(&mut self, p: &Value) -> ApiResult<Value> {
        let p = Params::new(Service::Sim, "ResumeWorker", p, &["WorkerName"])?;
        let name = self.worker_ref(&p)?;
        let w = self.world.workers.get_mut(&name).expect("invariant: resolved worker exists");
        match w.state {
            WorkerState::Crashed | WorkerState::Stopped => {
                return Err(invalid(format!("worker {name} is {}; use RestartWorker", w.state_name())))
            }
            WorkerState::Processing if w.pause_requested => w.pause_requested = false,
            WorkerState::Waiting | WorkerState::Processing => return Ok(json!({})),
            WorkerState::Paused => w.state = WorkerState::Waiting,
        }
        self.emit(EventKind::World(WorldEvent::WorkerResumed { worker: name.clone() }));
        self.worker_poll(&name);
        Ok(json!({}))
    }

    /// `CrashWorker`: `When` is `Now` (default), or `AfterSideEffect`: the worker dies right after
    /// its next side effect, before it commits the event id and before it deletes the message.
    pub(crate) fn crash_worker(&mut self, p: &Value) -> ApiResult<Value> {
        let p = Params::new(Service::Sim, "CrashWorker", p, &["WorkerName", "When"])?;
        let name = self.worker_ref(&p)?;
        let w = &self.world.workers[&name];
        if matches!(w.state, WorkerState::Crashed | WorkerState::Stopped) {
            return Err(invalid(format!("worker {name} is already {}; RestartWorker brings it back", w.state_name())));
        }
        match p.opt_str("When")?.unwrap_or("Now") {
            "Now" => self.crash_worker_now(&name, NOW),
            "AfterSideEffect" => {
                self.world.workers.get_mut(&name).expect("invariant: resolved worker exists").crash_armed = true;
                self.emit(EventKind::World(WorldEvent::WorkerCrashArmed { worker: name, point: AFTER_EFFECT }));
            }
            other => return Err(invalid(format!("When \"{other}\" is not Now or AfterSideEffect"))),
        }
        Ok(json!({}))
    }

    pub(crate) fn restart_worker(&mut self, p: &Value) -> ApiResult<Value> {
        let p = Params::new(Service::Sim, "RestartWorker", p, &["WorkerName"])?;
        let name = self.worker_ref(&p)?;
        let w = self.world.workers.get_mut(&name).expect("invariant: resolved worker exists");
        if !matches!(w.state, WorkerState::Crashed | WorkerState::Stopped) {
            return Err(invalid(format!(
                "worker {name} is {}; only a crashed or stopped worker restarts (try ResumeWorker or CrashWorker)",
                w.state_name()
            )));
        }
        w.state = WorkerState::Waiting;
        w.stop_reason = None;
        self.emit(EventKind::World(WorldEvent::WorkerRestarted { worker: name.clone() }));
        self.worker_poll(&name);
        Ok(json!({}))
    }

    /// `DeleteWorker`: the worker goes away; what it held returns after the visibility timeout.
    pub(crate) fn delete_worker(&mut self, p: &Value) -> ApiResult<Value> {
        let p = Params::new(Service::Sim, "DeleteWorker", p, &["WorkerName"])?;
        let name = self.worker_ref(&p)?;
        let held = self.world.workers[&name].held();
        self.silence_worker(&name);
        self.world.workers.remove(&name);
        self.emit(EventKind::World(WorldEvent::WorkerDeleted { worker: name, held }));
        Ok(json!({}))
    }

    pub(crate) fn describe_worker(&mut self, p: &Value) -> ApiResult<Value> {
        let p = Params::new(Service::Sim, "DescribeWorker", p, &["WorkerName"])?;
        let name = self.worker_ref(&p)?;
        let w = &self.world.workers[&name];
        let held: Vec<String> = w.held().iter().map(MsgId::to_string).collect();
        let b = &w.behavior;
        Ok(json!({
            "WorkerName": &*w.name,
            "QueueUrl": ids::queue_url(&w.queue),
            "State": w.state_name(),
            "StopReason": w.stop_reason,
            "HeldMessages": held,
            "CrashArmed": w.crash_armed,
            "MaxNumberOfMessages": w.max_messages,
            "WaitTimeSeconds": w.wait_seconds,
            "ProcessingTime": b.processing.describe(),
            "Idempotency": b.idempotency.as_str(),
            "Jobs": b.jobs.iter().map(|j| j.job.to_string()).collect::<Vec<_>>(),
            "Stats": {
                "Received": w.stats.received,
                "Succeeded": w.stats.succeeded,
                "Failed": w.stats.failed,
                "Crashes": w.stats.crashes,
                "EmptyReceives": w.stats.empty_receives,
                "Heartbeats": w.stats.heartbeats,
            },
        }))
    }

    /// Cancels everything a worker has pending and drops what it holds (the messages stay in
    /// flight until their visibility timeout). Returns nothing; the caller logs why.
    fn silence_worker(&mut self, name: &Name) {
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

    fn stop_worker(&mut self, name: &Name, reason: String) {
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
        let mut params = json!({
            "QueueUrl": &*queue,
            "MaxNumberOfMessages": w.max_messages,
            "AttributeNames": ["ApproximateReceiveCount", "SentTimestamp"],
        });
        if let Some(v) = w.visibility_timeout {
            params["VisibilityTimeout"] = json!(v);
        }
        let wait_ms = if w.wait_seconds == 0 { SHORT_POLL_SLEEP_MS } else { u64::from(w.wait_seconds) * SECOND };
        let behavior = w.behavior.clone();
        let visibility = w.visibility_timeout;
        if let Some(t) = timer {
            self.timers.cancel(t);
        }
        self.stop_waiting(&queue, &Waiter::Worker(name.clone()));
        let previous = std::mem::replace(&mut self.cause, "Worker");
        let response = self.receive_message(&params);
        self.cause = previous;
        let response = match response {
            Ok(r) => r,
            Err(e) => return self.stop_worker(name, format!("ReceiveMessage failed: {}: {}", e.code, e.message)),
        };
        let records = records_from(&response, &behavior);
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
        let timeout_s = visibility.or_else(|| self.queues.get(&queue).map(|q| q.config.visibility_timeout)).unwrap_or(30);
        self.note_visible_at(&queue, now.plus_secs(u64::from(timeout_s)));
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
        let params = json!({ "QueueUrl": &**queue, "ReceiptHandle": handle });
        // The queue may have been deleted meanwhile; the worker carries on.
        let _ = self.delete_message(&params);
        if let Some(w) = self.world.workers.get_mut(name) {
            w.stats.succeeded += 1;
        }
    }

    fn schedule_heartbeat(&mut self, name: &Name) {
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
        let mut extended = 0;
        for handle in handles {
            let params = json!({ "QueueUrl": &*queue, "ReceiptHandle": handle, "VisibilityTimeout": hb.visibility_timeout });
            extended += usize::from(self.change_message_visibility(&params).is_ok());
        }
        let until = self.now.plus_secs(u64::from(hb.visibility_timeout));
        if let Some(w) = self.world.workers.get_mut(name) {
            w.stats.heartbeats += 1;
        }
        self.note_visible_at(&queue, until);
        self.emit(EventKind::World(WorldEvent::HeartbeatSent {
            worker: name.clone(),
            queue,
            messages: extended,
            visible_again_at: until,
        }));
        self.schedule_heartbeat(name);
    }
}
