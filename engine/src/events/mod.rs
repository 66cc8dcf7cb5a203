//! Amazon EventBridge: event buses, rules, targets, archives and replays.
//!
//! An event put on a bus (`PutEvents`) is wrapped in the EventBridge envelope, offered to every
//! enabled rule of the bus whose event pattern matches it, and handed to each target of those
//! rules through the timer table (0 ms latency, so a delivery is an event in virtual time). A
//! failed delivery is retried per the target's `RetryPolicy` when the error is retriable, and
//! otherwise (or once retries are exhausted) goes to the target's dead-letter queue or is
//! dropped. Archives keep the events of a bus; a replay puts a time window of them back.
//!
//! - `pattern`: the event pattern language; `json`: JSON with numbers kept as written.
//! - `buses`, `rules`, `targets`: the resources and their actions; `schedule`: `rate()` and
//!   `cron()` schedules; `put_events`: the envelope and routing; `transform`: `Input`,
//!   `InputPath`, `InputTransformer`; `deliver`: attempts, retries, dead-letter queues;
//!   `archive`: archives and replays; `log`: the event log's EventBridge vocabulary; `view`:
//!   the snapshot; `clock`: calendar arithmetic.
//!
//! Simplified: event ids are readable counters (`evt-3`) where AWS uses UUIDs; every resource is
//! in us-east-1, account 000000000000.

mod archive;
mod buses;
pub(crate) mod clock;
mod deliver;
pub(crate) mod json;
mod log;
pub mod pattern;
mod put_events;
mod rules;
mod schedule;
mod targets;
mod transform;
mod view;

pub(crate) use archive::{Archive, Replay};
pub(crate) use deliver::Delivery;
pub use log::EbEvent;
pub use view::{ArchiveView, EventBridgeView, EventBusView, ReplayView, RuleView, TargetView};

use crate::error::{ApiError, ApiResult};
use crate::event::Name;
use crate::ids::{ACCOUNT, REGION};
use crate::sim::Sim;
use crate::time::SimTime;
use crate::timers::TimerKey;
use crate::vecmap::VecMap;
use pattern::EventPattern;

/// The bus every account has; it cannot be created or deleted.
pub const DEFAULT_BUS: &str = "default";

/// EventBridge's state. `Clone` is part of a checkpoint.
#[derive(Clone, Debug)]
pub struct EventBridge {
    pub(crate) buses: VecMap<Name, Bus>,
    pub(crate) archives: VecMap<Name, Archive>,
    pub(crate) replays: VecMap<Name, Replay>,
    /// The last event id handed out (`evt-N`).
    pub(crate) events: u64,
}

impl EventBridge {
    /// How many archived events have left their archive's retention by `now` (see
    /// `Sim::view_stamp`).
    pub(crate) fn expired_in_archives(&self, now: SimTime) -> u64 {
        self.archives.values().map(|a| (a.events.len() - a.kept(now).count()) as u64).sum()
    }
}

impl Default for EventBridge {
    fn default() -> Self {
        let mut buses = VecMap::new();
        let name: Name = DEFAULT_BUS.into();
        buses.insert(name.clone(), Bus::new(name, None, SimTime::ZERO));
        EventBridge { buses, archives: VecMap::new(), replays: VecMap::new(), events: 0 }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Bus {
    pub(crate) name: Name,
    pub(crate) arn: Name,
    pub(crate) description: Option<String>,
    pub(crate) created_at: SimTime,
    pub(crate) rules: VecMap<Name, rules::Rule>,
    /// Events put on this bus (replays included).
    pub(crate) received: u64,
}

impl Bus {
    fn new(name: Name, description: Option<String>, created_at: SimTime) -> Bus {
        Bus { arn: bus_arn(&name).into(), name, description, created_at, rules: VecMap::new(), received: 0 }
    }
}

/// What an EventBridge timer does.
#[derive(Clone, Debug)]
pub(crate) enum EventsTimer {
    /// An attempt to hand one event to one target (the first, or a retry).
    Deliver(Box<Delivery>),
    /// A scheduled rule's next run.
    Schedule { bus: Name, rule: Name },
    /// A replay puts the next minute of archived events back on its bus.
    Replay { replay: Name },
}

impl EventsTimer {
    pub fn cause(&self) -> &'static str {
        match self {
            EventsTimer::Deliver(_) => "EventBridgeDelivery",
            EventsTimer::Schedule { .. } => "ScheduleExpression",
            EventsTimer::Replay { .. } => "Replay",
        }
    }
}

const ARN_PREFIX: &str = "arn:aws:events:us-east-1:000000000000:";

pub(crate) fn bus_arn(name: &str) -> String {
    format!("arn:aws:events:{REGION}:{ACCOUNT}:event-bus/{name}")
}

/// Rules of the default bus are `rule/NAME`; of a custom bus, `rule/BUS/NAME`.
pub(crate) fn rule_arn(bus: &str, name: &str) -> String {
    match bus {
        DEFAULT_BUS => format!("arn:aws:events:{REGION}:{ACCOUNT}:rule/{name}"),
        _ => format!("arn:aws:events:{REGION}:{ACCOUNT}:rule/{bus}/{name}"),
    }
}

pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
    ApiError::new("ResourceNotFoundException", message)
}

pub(crate) fn validation(message: impl Into<String>) -> ApiError {
    ApiError::new("ValidationException", message)
}

/// Names of rules, targets, replays (1–64) and archives (1–48): letters, digits, `.`, `-`, `_`.
pub(crate) fn check_name(what: &str, name: &str, max: usize) -> ApiResult<()> {
    let ok = !name.is_empty()
        && name.len() <= max
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if ok {
        return Ok(());
    }
    Err(validation(format!(
        "1 validation error detected: Value '{name}' at '{what}' failed to satisfy constraint: Member must \
         satisfy regular expression pattern: [\\.\\-_A-Za-z0-9]+ and have length between 1 and {max}"
    )))
}

impl Sim {
    /// The bus named by name or ARN (`None` is the default bus).
    pub(crate) fn bus_ref(&self, reference: Option<&str>) -> ApiResult<Name> {
        let reference = reference.unwrap_or(DEFAULT_BUS);
        let name = reference.strip_prefix(ARN_PREFIX).and_then(|r| r.strip_prefix("event-bus/")).unwrap_or(reference);
        self.events
            .buses
            .get_key_value(name)
            .map(|(k, _)| k.clone())
            .ok_or_else(|| not_found(format!("Event bus {name} does not exist.")))
    }

    pub(crate) fn bus_mut(&mut self, name: &Name) -> &mut Bus {
        self.events.buses.get_mut(name).expect("invariant: a resolved bus exists")
    }

    pub(crate) fn on_events_timer(&mut self, timer: EventsTimer) {
        match timer {
            EventsTimer::Deliver(delivery) => self.attempt(*delivery),
            EventsTimer::Schedule { bus, rule } => self.on_schedule(&bus, &rule),
            EventsTimer::Replay { replay } => self.on_replay_tick(&replay),
        }
    }

    pub(crate) fn cancel_timer(&mut self, key: Option<TimerKey>) {
        if let Some(key) = key {
            self.timers.cancel(key);
        }
    }

    /// A pattern from a parameter, compiled (`InvalidEventPatternException` when invalid).
    pub(crate) fn compile_pattern(text: &str) -> ApiResult<(String, EventPattern)> {
        Ok((text.to_string(), EventPattern::compile(text)?))
    }
}
