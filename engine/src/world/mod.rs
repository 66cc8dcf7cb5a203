//! The simulated world around the queues: the playground's own actors. Its actions join the AWS
//! ones in `Sim::apply`; its timers share the engine's timer table; its events join the log.
//!
//! - `worker`, `poll`: competing consumers: their actions, and their poll loop, crashes and heartbeats.
//! - `process`: how any consumer processes records (work, failures, jobs, retries).
//! - `effects`: side effects counted per event id, and the idempotency modes.
//! - `lambda`, `mapping`, `poller`: Lambda functions, SQS event source mappings, their
//!   poller and partial batch responses.
//! - `dependency`: downstream services with a schedule and a capacity; retry strategies.
//! - `producer`: the same events through fan-out, one shared queue, or a coupled call chain.
//! - `metrics`, `alarms`: CloudWatch-style series in virtual time, and alarms on them.
//! - `watch`: long polling in virtual time; `spec`: parameter shapes; `events`, `view`.
//!
//! Same seed, same story: every choice comes from the simulation's one generator, every
//! collection is ordered, and time is the virtual clock.

mod alarms;
mod dependency;
mod effects;
mod events;
mod lambda;
mod mapping;
mod metrics;
mod poll;
mod poller;
mod process;
mod producer;
mod spec;
mod view;
mod watch;
mod worker;

pub use events::{BatchItemFailure, BatchResponse, WorldEvent};
pub use view::{AlarmView, DependencyView, FunctionView, JobView, MappingView, ProducerView, WorkerView, WorldView};

use crate::error::ApiResult;
use crate::event::Name;
use crate::sim::Sim;
use crate::vecmap::VecMap;
use serde_json::Value;

/// The playground's own actions handled here, in the same validated style as the AWS ones.
pub const ACTIONS: &[&str] = &[
    // Workers
    "CreateWorker",
    "UpdateWorker",
    "PauseWorker",
    "ResumeWorker",
    "CrashWorker",
    "RestartWorker",
    "DeleteWorker",
    "DescribeWorker",
    "DescribeJob",
    // Downstream dependencies
    "CreateDependency",
    "UpdateDependency",
    "DescribeDependency",
    // AWS Lambda
    "CreateFunction",
    "UpdateFunctionConfiguration",
    "DeleteFunction",
    "CreateEventSourceMapping",
    "UpdateEventSourceMapping",
    "DeleteEventSourceMapping",
    "GetEventSourceMapping",
    // Producers and the coupled designs
    "CreateProducer",
    "StopProducer",
    "DescribeProducer",
    // Amazon CloudWatch
    "ConfigureMetrics",
    "GetMetricStatistics",
    "PutMetricAlarm",
    "DescribeAlarms",
    "DeleteAlarms",
];

#[derive(Clone, Debug, Default)]
pub(crate) struct Counters {
    pub mapping: u64,
    pub invocation: u64,
}

/// The actors' state. `Clone` is part of a checkpoint: big tables share their storage.
#[derive(Clone, Debug, Default)]
pub struct World {
    pub(crate) counters: Counters,
    pub(crate) workers: VecMap<Name, worker::Worker>,
    pub(crate) functions: VecMap<Name, lambda::Function>,
    pub(crate) mappings: VecMap<u64, mapping::Mapping>,
    pub(crate) dependencies: VecMap<Name, dependency::Dependency>,
    pub(crate) producers: VecMap<Name, producer::Producer>,
    /// Side effects and idempotency stores, by job.
    pub(crate) ledger: VecMap<Name, effects::JobLedger>,
    pub(crate) metrics: metrics::Metrics,
    pub(crate) alarms: VecMap<Name, alarms::Alarm>,
    pub(crate) watch: watch::Watches,
    /// The long-poll sweep, scheduled while any consumer waits.
    pub(crate) sweep: Option<crate::timers::TimerKey>,
}

/// What an actor's timer does when it fires.
#[derive(Clone, Debug)]
pub(crate) enum WorldTimer {
    /// A processing step of a worker, an invocation or a request is due.
    Run(process::Owner),
    /// A worker's long poll ran out empty.
    WorkerWait(Name),
    Heartbeat(Name),
    MappingWait(u64),
    MappingWindow(u64),
    /// A message may have become visible in a queue with waiting consumers.
    QueueWake(Name),
    /// Once a second while consumers wait: wake those whose queue has visible messages.
    Sweep,
    /// A dependency finishes a call its caller gave up on, and frees the slot.
    Release(Name),
    ProducerTick(Name),
    MetricsTick,
}

impl WorldTimer {
    pub fn cause(&self) -> &'static str {
        match self {
            WorldTimer::Run(owner) => owner.cause(),
            WorldTimer::WorkerWait(_) => "WaitTimeSeconds",
            WorldTimer::Heartbeat(_) => "Heartbeat",
            WorldTimer::MappingWait(_) | WorldTimer::MappingWindow(_) => "Lambda",
            WorldTimer::QueueWake(_) | WorldTimer::Sweep => "LongPoll",
            WorldTimer::Release(_) => "Dependency",
            WorldTimer::ProducerTick(_) => "Producer",
            WorldTimer::MetricsTick => "Metrics",
        }
    }
}

impl Sim {
    pub(crate) fn world_action(&mut self, action: &'static str, p: &Value) -> ApiResult<Value> {
        match action {
            "CreateWorker" => self.create_worker(p),
            "UpdateWorker" => self.update_worker(p),
            "PauseWorker" => self.pause_worker(p),
            "ResumeWorker" => self.resume_worker(p),
            "CrashWorker" => self.crash_worker(p),
            "RestartWorker" => self.restart_worker(p),
            "DeleteWorker" => self.delete_worker(p),
            "DescribeWorker" => self.describe_worker(p),
            "DescribeJob" => self.describe_job(p),
            "CreateDependency" => self.create_dependency(p),
            "UpdateDependency" => self.update_dependency(p),
            "DescribeDependency" => self.describe_dependency(p),
            "CreateFunction" => self.create_function(p),
            "UpdateFunctionConfiguration" => self.update_function_configuration(p),
            "DeleteFunction" => self.delete_function(p),
            "CreateEventSourceMapping" => self.create_event_source_mapping(p),
            "UpdateEventSourceMapping" => self.update_event_source_mapping(p),
            "DeleteEventSourceMapping" => self.delete_event_source_mapping(p),
            "GetEventSourceMapping" => self.get_event_source_mapping(p),
            "CreateProducer" => self.create_producer(p),
            "StopProducer" => self.stop_producer(p),
            "DescribeProducer" => self.describe_producer(p),
            "ConfigureMetrics" => self.configure_metrics(p),
            "GetMetricStatistics" => self.get_metric_statistics(p),
            "PutMetricAlarm" => self.put_metric_alarm(p),
            "DescribeAlarms" => self.describe_alarms(p),
            "DeleteAlarms" => self.delete_alarms(p),
            _ => unreachable!("every name in world::ACTIONS is dispatched, and only those reach here: {action}"),
        }
    }

    pub(crate) fn on_world_timer(&mut self, timer: WorldTimer) {
        // At the very end of virtual time a timer "later" is a timer now: the actors stop there
        // rather than reschedule themselves forever.
        if self.now == crate::time::SimTime(u64::MAX) {
            return;
        }
        match timer {
            WorldTimer::Run(owner) => self.drive(&owner),
            WorldTimer::WorkerWait(w) => self.on_worker_wait(&w),
            WorldTimer::Heartbeat(w) => self.on_heartbeat(&w),
            WorldTimer::MappingWait(m) => self.on_mapping_timer(m, false),
            WorldTimer::MappingWindow(m) => self.on_mapping_timer(m, true),
            WorldTimer::QueueWake(q) => self.on_queue_wake(&q),
            WorldTimer::Sweep => self.on_sweep(),
            WorldTimer::Release(d) => {
                if let Some(dep) = self.world.dependencies.get_mut(&d) {
                    dep.in_flight = dep.in_flight.saturating_sub(1);
                }
            }
            WorldTimer::ProducerTick(p) => self.on_producer_tick(&p),
            WorldTimer::MetricsTick => self.on_metrics_tick(),
        }
    }
}
