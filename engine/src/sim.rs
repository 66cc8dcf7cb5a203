//! The simulation: state, virtual clock, timers and the event log, driven by AWS actions.
//!
//! Reads like a protocol engine: queries (`now`, `snapshot`, `events`), one input (`apply`),
//! and time (`next_event_at`, `advance_to`, `step`). Nothing here reads a clock or the OS.

use crate::error::{ApiError, ApiResult};
use crate::event::{Event, EventKind, Name};
use crate::params::Params;
use crate::rng::Pcg32;
use crate::sns::{Subscription, Topic};
use crate::sqs::{MoveTask, Queue};
use crate::time::SimTime;
use crate::timers::{Timer, Timers};
use crate::vecmap::VecMap;
use serde_json::Value;

/// Settings of the simulated world that AWS leaves to chance or to the network.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Chance, in parts per million, that a standard queue stores a second copy of a message
    /// (at-least-once delivery). 0 unless a scenario turns it on.
    pub duplicate_ppm: u32,
    /// Chance, in parts per million, that a message jumps ahead of up to three earlier ones
    /// (best-effort ordering). 0 unless a scenario turns it on.
    pub reorder_ppm: u32,
    /// Time from Publish to a copy landing in a subscribed queue. 0 by default.
    pub sns_delivery_latency_ms: u64,
    /// `RequireQueuePolicies`: SNS and EventBridge may send only to queues whose access policy
    /// allows them, as on AWS. Off by default: a queue without a policy accepts its own
    /// account's topics and rules (see `sqs::access`).
    pub require_queue_policies: bool,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Counters {
    pub message: u64,
    pub copy: u64,
    pub sns_message: u64,
    pub subscription: u64,
    pub move_task: u64,
}

/// A new [`Sim::revision`]: unique in the process. Views compare it; the simulation never
/// reads it, so it changes nothing the engine does or logs.
fn fresh_revision() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The whole simulated world. `Clone` is a full checkpoint.
#[derive(Clone, Debug)]
pub struct Sim {
    pub(crate) now: SimTime,
    /// Which state this is, apart from the clock: a fresh number whenever an action or a timer
    /// may have changed anything (see [`Sim::view_stamp`]). A clone keeps it, and is the same
    /// state.
    revision: u64,
    pub(crate) seed: u64,
    pub(crate) rng: Pcg32,
    pub(crate) timers: Timers,
    pub(crate) log: Vec<Event>,
    pub(crate) cause: &'static str,
    pub(crate) counters: Counters,
    pub(crate) settings: Settings,
    pub(crate) topics: VecMap<Name, Topic>,
    /// Subscriptions by ARN.
    pub(crate) subscriptions: VecMap<Name, Subscription>,
    pub(crate) queues: VecMap<Name, Queue>,
    /// When each deleted queue name was freed (a name can be reused only 60 s later).
    pub(crate) deleted_queues: VecMap<Name, SimTime>,
    pub(crate) move_tasks: VecMap<u64, MoveTask>,
    pub(crate) record_events: bool,
    /// The playground's actors: workers, Lambda functions, dependencies, alarms.
    pub(crate) world: crate::world::World,
    /// Amazon EventBridge: event buses, rules, targets, archives and replays.
    pub(crate) events: crate::events::EventBridge,
}

impl Sim {
    /// An empty world at time 0 whose random choices all come from `seed`.
    pub fn new(seed: u64) -> Sim {
        Sim {
            now: SimTime::ZERO,
            revision: fresh_revision(),
            seed,
            rng: Pcg32::new(seed),
            timers: Timers::default(),
            log: Vec::new(),
            cause: "",
            counters: Counters::default(),
            settings: Settings::default(),
            topics: VecMap::new(),
            subscriptions: VecMap::new(),
            queues: VecMap::new(),
            deleted_queues: VecMap::new(),
            move_tasks: VecMap::new(),
            record_events: true,
            world: crate::world::World::default(),
            events: crate::events::EventBridge::default(),
        }
    }

    /// Turns the event log off (benchmarks of raw throughput) or on. On by default.
    pub fn set_event_recording(&mut self, on: bool) {
        self.record_events = on;
        self.revision = fresh_revision();
    }

    /// Two numbers that stay equal while nothing a [`Snapshot`](crate::Snapshot) shows changes
    /// but the clock: equal stamps mean equal snapshots, apart from `now` and what is read from
    /// it directly (a queue's `oldest_age_ms`). The first is the state's revision (a new one
    /// after every action and every timer that fired); the second counts the moments up to now
    /// at which a view changes without a timer (a dependency's or an HTTP endpoint's schedule
    /// window opening or closing; an archived event leaving its archive's retention). A page
    /// redraws what shows the state only when the stamp changes, and only the clock at other
    /// frames.
    pub fn view_stamp(&self) -> (u64, u64) {
        (self.revision, self.world.boundaries_passed(self.now) + self.archive_expiries(self.now))
    }

    fn archive_expiries(&self, now: SimTime) -> u64 {
        self.events.expired_in_archives(now)
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The whole event log so far.
    pub fn events(&self) -> &[Event] {
        &self.log
    }

    /// Runs one AWS action (or one of the playground's own) at the current virtual time, then
    /// fires whatever became due at this same instant (a zero-latency SNS delivery, say).
    /// On error, nothing has changed.
    pub fn apply(&mut self, action: &str, params: &Value) -> ApiResult<Value> {
        let Some(entry) = crate::actions::find(action) else {
            let known: Vec<&str> = crate::actions::action_names().collect();
            return Err(ApiError::new(
                "InvalidAction",
                format!("Unknown action \"{action}\". The playground knows: {}.", known.join(", ")),
            ));
        };
        let checked = Params::new(entry.service, entry.name, params, entry.params)?;
        self.revision = fresh_revision();
        self.cause = entry.name;
        let result = (entry.handler)(self, &checked);
        if result.is_ok() {
            self.raise_receivable();
            self.advance_to(self.now);
        }
        result
    }

    /// When the next timer is due, if any: the engine's `poll_timeout`.
    pub fn next_event_at(&self) -> Option<SimTime> {
        self.timers.next_due()
    }

    /// Moves the clock to `t`, firing every timer due on the way, in (time, scheduling) order.
    /// Time never goes backwards: an earlier `t` fires only what is due now.
    pub fn advance_to(&mut self, t: SimTime) {
        while let Some((at, timer)) = self.timers.pop_due(t) {
            self.now = self.now.max(at);
            self.cause = timer.cause();
            self.revision = fresh_revision();
            self.fire(timer);
            self.raise_receivable();
        }
        self.now = self.now.max(t);
    }

    pub fn advance_by(&mut self, ms: u64) {
        self.advance_to(self.now.plus_ms(ms));
    }

    /// Jumps to the next due timer and fires everything due then. `None` when nothing is pending.
    pub fn step(&mut self) -> Option<SimTime> {
        let at = self.next_event_at()?;
        self.advance_to(at);
        Some(at)
    }

    fn fire(&mut self, timer: Timer) {
        match timer {
            Timer::VisibilityTimeout { queue, key } => self.on_visibility_timeout(&queue, key),
            Timer::DelayEnds { queue, key } => self.on_delay_end(&queue, key),
            Timer::Retention { queue } => self.on_retention(&queue),
            Timer::SnsDelivery(delivery) => self.deliver(*delivery),
            Timer::MoveTaskTick { task } => self.on_move_task_tick(task),
            Timer::World(timer) => self.on_world_timer(timer),
            Timer::Events(timer) => self.on_events_timer(timer),
        }
    }

    pub(crate) fn emit(&mut self, kind: EventKind) {
        if self.record_events {
            let seq = self.log.len() as u64;
            self.log.push(Event { seq, at: self.now, cause: self.cause, kind });
        }
    }

    /// `ConfigureSimulation`: the playground's knobs for what AWS leaves to chance.
    /// Probabilities are decimal strings from "0" to "1" with up to six decimals.
    pub(crate) fn configure_simulation(&mut self, params: &Params) -> ApiResult<Value> {
        use crate::error::Service;
        let mut next = self.settings.clone();
        let mut changed = Vec::new();
        if let Some(v) = params.opt_str("DuplicateDeliveryProbability")? {
            next.duplicate_ppm = parse_probability("DuplicateDeliveryProbability", v)?;
            changed.push(("DuplicateDeliveryProbability", v.to_string()));
        }
        if let Some(v) = params.opt_str("ReorderProbability")? {
            next.reorder_ppm = parse_probability("ReorderProbability", v)?;
            changed.push(("ReorderProbability", v.to_string()));
        }
        if let Some(v) = params.opt_str("SnsDeliveryLatency")? {
            next.sns_delivery_latency_ms = crate::time::parse_duration(v)
                .map_err(|e| Service::Sim.invalid_value(format!("SnsDeliveryLatency: {e}")))?;
            changed.push(("SnsDeliveryLatency", v.to_string()));
        }
        if let Some(v) = params.opt_bool("RequireQueuePolicies")? {
            next.require_queue_policies = v;
            changed.push(("RequireQueuePolicies", v.to_string()));
        }
        self.settings = next;
        for (setting, value) in changed {
            self.emit(EventKind::SimulationConfigured { setting: setting.to_string(), value });
        }
        Ok(serde_json::json!({}))
    }
}

/// "0.05" → 50,000 parts per million, exactly (no floating point).
pub(crate) fn parse_probability(name: &str, text: &str) -> ApiResult<u32> {
    let bad = || {
        ApiError::new(
            "InvalidParameterValue",
            format!("{name} must be a decimal from 0 to 1 with at most six decimals, not \"{text}\"."),
        )
    };
    let (whole, frac) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    if whole.is_empty() && frac.is_empty() || frac.len() > 6 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let whole: u32 = match whole {
        "" | "0" => 0,
        "1" => 1,
        _ => return Err(bad()),
    };
    let frac_ppm: u32 = if frac.is_empty() { 0 } else { format!("{frac:0<6}").parse().map_err(|_| bad())? };
    let ppm = whole * 1_000_000 + frac_ppm;
    if ppm > 1_000_000 {
        return Err(bad());
    }
    Ok(ppm)
}
