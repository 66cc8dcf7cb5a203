//! Workers: competing consumers on one queue. Each runs a poll loop (ReceiveMessage with
//! MaxNumberOfMessages, long polling in virtual time), processes what it got one message after
//! another, and deletes each message that succeeded. A learner can pause, resume, slow down,
//! make it fail, crash it (now, or right after its next side effect), and restart it.

use super::process::Run;
use super::spec::{self, has, invalid, Behavior};
use super::watch::Waiter;
use super::WorkerStatus;
use super::WorldEvent;
use crate::error::{ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids::{self, MsgId};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::SECOND;
use crate::timers::TimerKey;
use serde_json::{json, Value};
use std::sync::Arc;

pub(crate) const NOW: &str = "now";
/// Where `CrashWorker` with `When: AfterSideEffect` strikes: right after the next side effect.
pub(crate) const ARMED: &str = "right after its next side effect, before the commit";
pub(crate) const AFTER_EFFECT_BEFORE_RECORD: &str = "after its side effect, before recording the event id";
pub(crate) const AFTER_EFFECT_BEFORE_DELETE: &str = "after its side effect, before DeleteMessage";
pub(crate) const AFTER_COMMIT_BEFORE_DELETE: &str =
    "after committing its side effect with the event id (one transaction), before DeleteMessage";

/// With WaitTimeSeconds 0 (short polling), an idle worker polls again after this long.
pub(crate) const SHORT_POLL_SLEEP_MS: u64 = SECOND;

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
    pub(crate) wait_timer: Option<TimerKey>,
    pub(crate) heartbeat_timer: Option<TimerKey>,
    pub stats: WorkerStats,
}

impl Worker {
    pub fn status(&self) -> WorkerStatus {
        match self.state {
            WorkerState::Processing if self.pause_requested => WorkerStatus::Pausing,
            WorkerState::Waiting => WorkerStatus::Waiting,
            WorkerState::Processing => WorkerStatus::Processing,
            WorkerState::Paused => WorkerStatus::Paused,
            WorkerState::Crashed => WorkerStatus::Crashed,
            WorkerState::Stopped => WorkerStatus::Stopped,
        }
    }

    pub fn state_name(&self) -> &'static str {
        self.status().as_str()
    }

    pub fn held(&self) -> Vec<MsgId> {
        self.run.as_ref().map(|r| r.held().iter().filter_map(|r| r.message_id).collect()).unwrap_or_default()
    }
}

pub(crate) const POLL_KEYS: &[&str] = &["MaxNumberOfMessages", "WaitTimeSeconds", "VisibilityTimeout", "Heartbeat"];

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
        if let Some(v) = p.opt_int("VisibilityTimeout", 0, 43_200)? {
            w.visibility_timeout = Some(v as u32);
        }
        if let Some(v) = p.raw("Heartbeat") {
            w.heartbeat = parse_heartbeat(v)?;
        }
        Ok(())
    }

    /// `CreateWorker`: a consumer that starts polling its queue at once.
    pub(crate) fn create_worker(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("WorkerName")?;
        if !ids::valid_resource_name(name, 80) {
            return Err(invalid(format!(
                "WorkerName \"{name}\": use 1 to 80 letters, digits, hyphens and underscores"
            )));
        }
        if self.world.workers.contains_key(name) {
            return Err(spec::conflict("Worker", name));
        }
        let queue = self.queue_ref(p.str("QueueUrl")?)?;
        let behavior = Behavior::new(&queue)?.updated(p, &self.deps_exist())?;
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
        Self::poll_settings(p, &mut worker)?;
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
    pub(crate) fn update_worker(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.worker_ref(p)?;
        let mut w = self.world.workers[&name].clone();
        w.behavior = Arc::new(w.behavior.updated(p, &self.deps_exist())?);
        Self::poll_settings(p, &mut w)?;
        let settings: Vec<String> = p.given().filter(|k| *k != "WorkerName").map(String::from).collect();
        let restart_heartbeat = has(p, "Heartbeat") && w.run.is_some();
        self.declare_jobs(&w.behavior.jobs.clone());
        self.world.workers.insert(name.clone(), w);
        if restart_heartbeat {
            self.schedule_heartbeat(&name);
        }
        self.emit(EventKind::World(WorldEvent::WorkerUpdated { worker: name, settings }));
        Ok(json!({}))
    }

    pub(crate) fn pause_worker(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.worker_ref(p)?;
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

    pub(crate) fn resume_worker(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.worker_ref(p)?;
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
    pub(crate) fn crash_worker(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.worker_ref(p)?;
        let w = &self.world.workers[&name];
        if matches!(w.state, WorkerState::Crashed | WorkerState::Stopped) {
            return Err(invalid(format!("worker {name} is already {}; RestartWorker brings it back", w.state_name())));
        }
        match p.opt_str("When")?.unwrap_or("Now") {
            "Now" => self.crash_worker_now(&name, NOW),
            "AfterSideEffect" => {
                self.world.workers.get_mut(&name).expect("invariant: resolved worker exists").crash_armed = true;
                self.emit(EventKind::World(WorldEvent::WorkerCrashArmed { worker: name, point: ARMED }));
            }
            other => return Err(invalid(format!("When \"{other}\" is not Now or AfterSideEffect"))),
        }
        Ok(json!({}))
    }

    pub(crate) fn restart_worker(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.worker_ref(p)?;
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
    pub(crate) fn delete_worker(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.worker_ref(p)?;
        let held = self.world.workers[&name].held();
        self.silence_worker(&name);
        self.world.workers.remove(&name);
        self.emit(EventKind::World(WorldEvent::WorkerDeleted { worker: name, held }));
        Ok(json!({}))
    }

    pub(crate) fn describe_worker(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.worker_ref(p)?;
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
            "IdempotencyStore": b.store.as_str(),
            "EntityField": b.entity_field,
            "VersionField": b.version_field,
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
}
