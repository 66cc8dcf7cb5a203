//! Downstream dependencies (an email provider, a payment API) with a schedule of bad times, a
//! capacity, and the retry strategies callers use against them: none, fixed, exponential, and
//! exponential with full jitter, `sleep = random(0, min(cap, base * 2^attempt))`.

use super::spec::{self, has, invalid, opt_duration, opt_probability, Span};
use crate::error::{ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::rng::Pcg32;
use crate::sim::Sim;
use crate::time::SimTime;
use serde_json::{json, Value};

/// How a caller retries a failed call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strategy {
    None,
    Fixed,
    Exponential,
    ExponentialJitter,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RetryPolicy {
    pub strategy: Strategy,
    /// Calls in all, the first included. 1 for `None`; 3 by default otherwise.
    pub max_attempts: u32,
    pub base_ms: u64,
    pub cap_ms: u64,
    /// The caller gives up on a call after this long (the dependency keeps working on it).
    pub timeout_ms: Option<u64>,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy { strategy: Strategy::None, max_attempts: 1, base_ms: 100, cap_ms: 20_000, timeout_ms: None }
    }
}

impl RetryPolicy {
    /// `{"Strategy": "ExponentialJitter", "MaxAttempts": 5, "Base": "100ms", "Cap": "20s", "Timeout": "5s"}`.
    pub fn parse(value: &Value) -> ApiResult<RetryPolicy> {
        let p = Params::new(Service::Sim, "Retry", value, &["Strategy", "MaxAttempts", "Base", "Cap", "Timeout"])?;
        let strategy = match p.opt_str("Strategy")?.unwrap_or("None") {
            "None" => Strategy::None,
            "Fixed" => Strategy::Fixed,
            "Exponential" => Strategy::Exponential,
            "ExponentialJitter" => Strategy::ExponentialJitter,
            other => {
                return Err(invalid(format!(
                    "Retry.Strategy \"{other}\" is not one of None, Fixed, Exponential, ExponentialJitter"
                )))
            }
        };
        let default_attempts = if strategy == Strategy::None { 1 } else { 3 };
        let max_attempts = p.opt_int("MaxAttempts", 1, 20)?.map_or(default_attempts, |n| n as u32);
        if strategy == Strategy::None && max_attempts > 1 {
            return Err(invalid(
                "Retry.MaxAttempts above 1 needs a Strategy (Fixed, Exponential or ExponentialJitter)",
            ));
        }
        let base_ms = opt_duration(&p, "Base")?.unwrap_or(100);
        let cap_ms = opt_duration(&p, "Cap")?.unwrap_or(20_000);
        if cap_ms < base_ms {
            return Err(invalid("Retry.Cap must not be shorter than Retry.Base"));
        }
        let timeout_ms = opt_duration(&p, "Timeout")?;
        if timeout_ms == Some(0) {
            return Err(invalid("Retry.Timeout must be at least 1ms"));
        }
        Ok(RetryPolicy { strategy, max_attempts, base_ms, cap_ms, timeout_ms })
    }

    /// The sleep before retry number `retry` (0 for the first retry).
    pub fn backoff_ms(&self, retry: u32, rng: &mut Pcg32) -> u64 {
        let ceiling = self.base_ms.saturating_mul(1u64 << retry.min(40)).min(self.cap_ms);
        match self.strategy {
            Strategy::None => 0,
            Strategy::Fixed => self.base_ms,
            Strategy::Exponential => ceiling,
            Strategy::ExponentialJitter => rng.up_to(ceiling),
        }
    }
}

/// What a dependency is like at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Conditions {
    pub latency: Span,
    pub error_ppm: u32,
    pub down: bool,
    /// Concurrent calls it serves; more are rejected at once (throttled). `None`: unlimited.
    pub capacity: Option<u32>,
}

/// A stretch of time with different conditions: "25 s instead of 0.5 s for 40 minutes".
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub start: SimTime,
    pub end: SimTime,
    pub latency: Option<Span>,
    pub error_ppm: Option<u32>,
    pub down: Option<bool>,
    pub capacity: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct DependencyStats {
    pub calls: u64,
    pub errors: u64,
    pub throttled: u64,
    pub timeouts: u64,
    pub max_in_flight: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct Dependency {
    pub name: Name,
    pub base: Conditions,
    pub schedule: Vec<Window>,
    pub in_flight: u32,
    pub stats: DependencyStats,
}

impl Dependency {
    /// The conditions at `t`: the base, overridden by every window that contains `t`, in order.
    pub fn at(&self, t: SimTime) -> Conditions {
        conditions_at(self.base, &self.schedule, t)
    }
}

/// The conditions at `t`: `base`, overridden by every window of `schedule` that contains `t`,
/// in order (a dependency's, or a simulated HTTP endpoint's).
pub(crate) fn conditions_at(base: Conditions, schedule: &[Window], t: SimTime) -> Conditions {
    let mut c = base;
    for w in schedule.iter().filter(|w| w.start <= t && t < w.end) {
        c.latency = w.latency.unwrap_or(c.latency);
        c.error_ppm = w.error_ppm.unwrap_or(c.error_ppm);
        c.down = w.down.unwrap_or(c.down);
        c.capacity = w.capacity.or(c.capacity);
    }
    c
}

/// A call as decided when it starts.
pub(crate) struct CallPlan {
    /// When the caller has its answer.
    pub finish_at: SimTime,
    pub ok: bool,
    pub reason: String,
    /// When the dependency is done with it, if it took a slot the caller must give back.
    pub holds_slot_until: Option<SimTime>,
}

pub(crate) const DEPENDENCY_KEYS: &[&str] = &["DependencyName", "Latency", "ErrorRate", "Down", "Capacity", "Schedule"];

pub(crate) fn parse_window(value: &Value) -> ApiResult<Window> {
    let names = ["Start", "End", "Duration", "Latency", "ErrorRate", "Down", "Capacity"];
    let p = Params::new(Service::Sim, "Schedule entry", value, &names)?;
    let start = SimTime(opt_duration(&p, "Start")?.ok_or_else(|| Service::Sim.missing("Schedule.Start"))?);
    let end = match (opt_duration(&p, "End")?, opt_duration(&p, "Duration")?) {
        (Some(end), None) => SimTime(end),
        (None, Some(d)) => start.plus_ms(d),
        _ => return Err(invalid(
            "each Schedule entry needs End or Duration (not both), e.g. {\"Start\": \"10m\", \"Duration\": \"40m\"}",
        )),
    };
    if end <= start {
        return Err(invalid("a Schedule entry must end after it starts"));
    }
    let latency = p.raw("Latency").map(|v| Span::parse(v, "Latency")).transpose()?;
    let capacity = p.opt_int("Capacity", 1, 1_000_000)?.map(|n| n as u32);
    Ok(Window {
        start,
        end,
        latency,
        error_ppm: opt_probability(&p, "ErrorRate")?,
        down: p.opt_bool("Down")?,
        capacity,
    })
}

impl Sim {
    pub(crate) fn create_dependency(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("DependencyName")?;
        if name.is_empty() || name.len() > 80 {
            return Err(invalid("DependencyName must be 1 to 80 characters"));
        }
        if self.world.dependencies.contains_key(name) {
            return Err(spec::conflict("Dependency", name));
        }
        let base = Conditions { latency: Span::fixed(500), error_ppm: 0, down: false, capacity: None };
        let dep = Dependency {
            name: name.into(),
            base,
            schedule: Vec::new(),
            in_flight: 0,
            stats: DependencyStats::default(),
        };
        let dep = configured(dep, p)?;
        self.world.dependencies.insert(dep.name.clone(), dep);
        self.ensure_ticking();
        self.emit(EventKind::World(super::WorldEvent::DependencyCreated { dependency: name.into() }));
        Ok(json!({ "DependencyName": name }))
    }

    /// Changes a dependency now: its base conditions, or its whole schedule.
    pub(crate) fn update_dependency(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("DependencyName")?;
        let dep = self.world.dependencies.get(name).ok_or_else(|| spec::not_found("Dependency", name))?;
        let updated = configured(dep.clone(), p)?;
        let key = updated.name.clone();
        self.world.dependencies.insert(key.clone(), updated);
        let settings = DEPENDENCY_KEYS[1..].iter().filter(|k| has(p, k)).map(|k| k.to_string()).collect();
        self.emit(EventKind::World(super::WorldEvent::DependencyUpdated { dependency: key, settings }));
        Ok(json!({}))
    }

    pub(crate) fn describe_dependency(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("DependencyName")?;
        let dep = self.world.dependencies.get(name).ok_or_else(|| spec::not_found("Dependency", name))?;
        let now = dep.at(self.now);
        Ok(json!({
            "DependencyName": name,
            "Latency": now.latency.describe(),
            "ErrorRatePpm": now.error_ppm,
            "Down": now.down,
            "Capacity": now.capacity,
            "InFlight": dep.in_flight,
            "Stats": {
                "Calls": dep.stats.calls,
                "Errors": dep.stats.errors,
                "Throttled": dep.stats.throttled,
                "Timeouts": dep.stats.timeouts,
                "MaxInFlight": dep.stats.max_in_flight,
            },
        }))
    }

    /// Starts a call to `name` now: throttled at once when over capacity, else it takes the
    /// latency of the moment and fails when the dependency is down or draws an error. A caller
    /// with a timeout gives up early; the dependency keeps the slot until it is done.
    pub(crate) fn plan_call(&mut self, name: &Name, timeout_ms: Option<u64>) -> CallPlan {
        let now = self.now;
        let Some(dep) = self.world.dependencies.get(name) else {
            return CallPlan { finish_at: now, ok: false, reason: "no such dependency".into(), holds_slot_until: None };
        };
        let c = dep.at(now);
        let key = |metric| super::metrics::MetricKey::dependency(metric, name);
        self.world.metrics.count(key("Calls"), 1);
        if c.capacity.is_some_and(|cap| dep.in_flight >= cap) {
            let dep = self.world.dependencies.get_mut(name).expect("invariant: looked up above");
            dep.stats.calls += 1;
            dep.stats.errors += 1;
            dep.stats.throttled += 1;
            self.world.metrics.count(key("Errors"), 1);
            self.world.metrics.count(key("Throttles"), 1);
            return CallPlan {
                finish_at: now,
                ok: false,
                reason: "throttled: over capacity".into(),
                holds_slot_until: None,
            };
        }
        let latency = c.latency.draw(&mut self.rng);
        let failed = c.down || self.rng.chance_ppm(c.error_ppm);
        let server_done = now.plus_ms(latency);
        let (finish_at, ok, reason) = match timeout_ms {
            Some(t) if t < latency => (now.plus_ms(t), false, format!("timed out after {t}ms")),
            _ if c.down => (server_done, false, "unavailable".to_string()),
            _ if failed => (server_done, false, "error response".to_string()),
            _ => (server_done, true, String::new()),
        };
        let dep = self.world.dependencies.get_mut(name).expect("invariant: looked up above");
        dep.in_flight += 1;
        dep.stats.calls += 1;
        dep.stats.max_in_flight = dep.stats.max_in_flight.max(dep.in_flight);
        let in_flight = dep.in_flight;
        if !ok {
            dep.stats.errors += 1;
            self.world.metrics.count(key("Errors"), 1);
        }
        if finish_at < server_done {
            dep.stats.timeouts += 1;
        }
        self.world.metrics.sample(key("ConcurrentCalls"), u64::from(in_flight));
        self.world.metrics.sample(key("Latency"), latency);
        CallPlan { finish_at, ok, reason, holds_slot_until: Some(server_done) }
    }

    /// Gives a call's slot back now, or when the dependency finishes it if that is later.
    pub(crate) fn release_slot(&mut self, name: &Name, server_done: SimTime) {
        if server_done > self.now {
            let timer = crate::timers::Timer::World(super::WorldTimer::Release(name.clone()));
            self.timers.schedule(server_done, timer);
        } else if let Some(dep) = self.world.dependencies.get_mut(name) {
            dep.in_flight = dep.in_flight.saturating_sub(1);
        }
    }
}

fn configured(mut dep: Dependency, p: &Params) -> ApiResult<Dependency> {
    if let Some(v) = p.raw("Latency") {
        dep.base.latency = Span::parse(v, "Latency")?;
    }
    if let Some(ppm) = opt_probability(p, "ErrorRate")? {
        dep.base.error_ppm = ppm;
    }
    if let Some(down) = p.opt_bool("Down")? {
        dep.base.down = down;
    }
    if has(p, "Capacity") {
        // 0 means unlimited, as when it is absent.
        dep.base.capacity = p.opt_int("Capacity", 0, 1_000_000)?.filter(|n| *n > 0).map(|n| n as u32);
    }
    if has(p, "Schedule") {
        let entries = p.object_list("Schedule")?;
        if entries.len() > 50 {
            return Err(invalid("Schedule takes at most 50 entries"));
        }
        dep.schedule = Vec::with_capacity(entries.len());
        for entry in entries {
            dep.schedule.push(parse_window(entry)?);
        }
    }
    Ok(dep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_to_the_cap_and_jitter_stays_under_it() {
        let mut rng = Pcg32::new(1);
        let p = RetryPolicy {
            strategy: Strategy::Exponential,
            max_attempts: 9,
            base_ms: 100,
            cap_ms: 1_000,
            timeout_ms: None,
        };
        let sleeps: Vec<u64> = (0..6).map(|r| p.backoff_ms(r, &mut rng)).collect();
        assert_eq!(sleeps, vec![100, 200, 400, 800, 1_000, 1_000]);
        let j = RetryPolicy { strategy: Strategy::ExponentialJitter, ..p };
        assert!((0..50).all(|r| j.backoff_ms(r % 8, &mut rng) <= 1_000));
        assert_eq!(p.backoff_ms(u32::MAX, &mut rng), 1_000, "huge attempt numbers saturate");
    }
}
