//! The simulated world around the queues: the playground's own actors. Its actions join the AWS
//! ones in the one table of `crate::actions`; its timers share the engine's timer table; its events join the log.
//!
//! - `worker`, `poll`: competing consumers: their actions, and their poll loop, crashes and heartbeats.
//! - `process`: how any consumer processes records (work, failures, jobs, retries).
//! - `effects`: side effects counted per event id, and the idempotency modes.
//! - `lambda`, `mapping`, `poller`: Lambda functions, SQS event source mappings, their
//!   poller and partial batch responses; `async_invoke`, `invoke_config`, `destination`:
//!   asynchronous invocation, its retries, and the records sent to destinations.
//! - `dependency`: downstream services with a schedule and a capacity; retry strategies.
//! - `http`: simulated HTTP/S endpoints SNS delivers to; `recipient`: mailboxes, phones and
//!   devices (e-mail, SMS, mobile push); `outage`: server-side outages of queues and functions.
//! - `producer`: the same events through fan-out, one shared queue, or a coupled call chain.
//! - `outbox`, `relay`: an order service's dual write or transactional outbox, its database,
//!   its crash points, and the relay that publishes the outbox.
//! - `metrics`, `series`, `alarms`: CloudWatch-style series in virtual time (kept as runs of
//!   equal datapoints), and alarms on them.
//! - `commands`: what actors want done, run in one place that stamps their cause; typed receives.
//! - `watch`: long polling in virtual time, woken by the queues' receivable notices; `spec`: parameter shapes; `events`, `view`.
//!
//! Same seed, same story: every choice comes from the simulation's one generator, every
//! collection is ordered, and time is the virtual clock.

mod alarms;
mod async_invoke;
mod commands;
pub(crate) mod dependency;
mod destination;
mod effects;
mod events;
mod http;
pub(crate) mod invoke_config;
mod lambda;
mod mapping;
mod metrics;
mod outage;
mod outbox;
mod poll;
mod poller;
mod process;
mod producer;
mod recipient;
mod relay;
mod series;
mod spec;
mod view;
mod watch;
mod worker;

pub(crate) use alarms::PUT_KEYS;
pub(crate) use dependency::DEPENDENCY_KEYS;
pub use events::{BatchItemFailure, BatchResponse, WorldEvent};
pub(crate) use http::HttpAnswer;
pub(crate) use http::HTTP_ENDPOINT_KEYS;
pub use http::{EndpointKind, HttpEndpointView, HttpRequest, SNS_HTTP_TIMEOUT_MS};
pub(crate) use invoke_config::INVOKE_CONFIG_KEYS;
pub(crate) use lambda::INVOKE_KEYS;
pub(crate) use lambda::{function_name, FUNCTION_KEYS};
pub(crate) use mapping::MAPPING_SETTINGS;
pub(crate) use metrics::MetricKey;
pub(crate) use outbox::ORDER_SERVICE_KEYS;
pub use outbox::{OrderDb, OrderDesign, OrderRow, OrderServiceView, OutboxRow, RelayView};
pub(crate) use producer::PRODUCER_KEYS;
pub(crate) use recipient::{RECIPIENT_KEYS, RECIPIENT_UPDATE_KEYS};
pub(crate) use relay::RELAY_KEYS;
pub(crate) use spec::BEHAVIOR_KEYS;
pub use view::REPEATED_LISTED;
pub use view::{AlarmState, DurationMs, MappingState, WorkerStatus};
pub use view::{AlarmView, DependencyView, FunctionView, JobView, MappingView, ProducerView, WorkerView, WorldView};
pub(crate) use worker::POLL_KEYS;

use crate::event::Name;
use crate::sim::Sim;
use crate::vecmap::VecMap;

#[derive(Clone, Debug, Default)]
pub(crate) struct Counters {
    pub mapping: u64,
    pub invocation: u64,
    pub async_event: u64,
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
    /// Simulated endpoints by name: HTTP/S webhooks, and the mailboxes, phones and devices of
    /// e-mail, SMS and mobile push (`recipient.rs`).
    pub(crate) http_endpoints: VecMap<Name, http::HttpEndpoint>,
    /// `SimulateServiceOutage` windows, by the resource's ARN.
    pub(crate) outages: VecMap<Name, Vec<(crate::time::SimTime, crate::time::SimTime)>>,
    /// Events in the functions' asynchronous queues (and running), by their number.
    pub(crate) async_events: VecMap<u64, async_invoke::AsyncEvent>,
    /// Order services with their own databases (dual write or outbox), and outbox relays.
    pub(crate) order_services: VecMap<Name, outbox::OrderService>,
    pub(crate) relays: VecMap<Name, relay::OutboxRelay>,
}

impl World {
    /// How many schedule boundaries (a window's start or end) of the dependencies and the HTTP
    /// endpoints are at or before `t`: it grows whenever their conditions may change without a
    /// timer firing (see `Sim::view_stamp`).
    pub(crate) fn boundaries_passed(&self, t: crate::time::SimTime) -> u64 {
        let windows = self
            .dependencies
            .values()
            .flat_map(|d| &d.schedule)
            .chain(self.http_endpoints.values().flat_map(|e| &e.schedule));
        windows.map(|w| u64::from(w.start <= t) + u64::from(w.end <= t)).sum()
    }
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
    /// A message became receivable in a queue with waiting consumers.
    QueueWake(Name),
    /// A dependency finishes a call its caller gave up on, and frees the slot.
    Release(Name),
    ProducerTick(Name),
    MetricsTick,
    /// The asynchronous queue hands an event to its function (the first attempt or a retry).
    AsyncAttempt(u64),
    /// A crashed order service is back.
    OrderServiceRestart(Name),
    /// An outbox relay polls its outbox; a crashed relay is back.
    RelayTick(Name),
    RelayRestart(Name),
}

impl WorldTimer {
    pub fn cause(&self) -> &'static str {
        match self {
            WorldTimer::Run(owner) => owner.cause(),
            WorldTimer::WorkerWait(_) => "WaitTimeSeconds",
            WorldTimer::Heartbeat(_) => "Heartbeat",
            WorldTimer::MappingWait(_) | WorldTimer::MappingWindow(_) => "Lambda",
            WorldTimer::QueueWake(_) => "LongPoll",
            WorldTimer::Release(_) => "Dependency",
            WorldTimer::ProducerTick(_) => "Producer",
            WorldTimer::MetricsTick => "Metrics",
            WorldTimer::AsyncAttempt(_) => "LambdaAsync",
            WorldTimer::OrderServiceRestart(_) => "OrderService",
            WorldTimer::RelayTick(_) | WorldTimer::RelayRestart(_) => "OutboxRelay",
        }
    }
}

impl Sim {
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
            WorldTimer::Release(d) => {
                if let Some(dep) = self.world.dependencies.get_mut(&d) {
                    dep.in_flight = dep.in_flight.saturating_sub(1);
                }
            }
            WorldTimer::ProducerTick(p) => self.on_producer_tick(&p),
            WorldTimer::MetricsTick => self.on_metrics_tick(),
            WorldTimer::AsyncAttempt(id) => self.on_async_attempt(id),
            // The order service and its outbox relay.
            WorldTimer::OrderServiceRestart(s) => self.on_order_service_restart(&s),
            WorldTimer::RelayTick(r) => self.on_relay_tick(&r),
            WorldTimer::RelayRestart(r) => self.on_relay_restart(&r),
        }
    }
}
