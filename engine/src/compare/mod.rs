//! Compare mode: the same system built in several designs (fan-out, a work queue, one worker
//! doing every job, direct calls), each its own simulation, fed one command log at the same
//! virtual moments, and measured the same way (see [`measure`]).
//!
//! Every design is a scenario file (`public/designs/<name>.json`) with a `Manual` producer called
//! `checkout` and the dependencies `billing-api`, `packing-api` and `sms-api`, so an entry of
//! the log is one engine command that means the same in every design: `Produce` places the
//! next order, `UpdateDependency` with a `Schedule` window degrades a dependency for a while.

pub mod measure;

use crate::history::History;
use crate::scenario::{RunOptions, Scenario};
use crate::time::SimTime;
use crate::{ApiError, Sim};
use serde_json::{json, Value};

/// The designs compare mode offers, in menu order: (name, label).
pub const DESIGNS: &[(&str, &str)] =
    &[("fanout", "Fan-out"), ("workqueue", "Work queue"), ("oneworker", "One worker"), ("directcalls", "Direct calls")];

/// The three jobs every design does for an order, in the order the table names them.
pub const JOBS: [&str; 3] = ["billing", "packing", "sms"];

/// The producer every design places orders with.
pub const CHECKOUT: &str = "checkout";

/// One thing the learner does to every design at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Place the next order (a poison one has a phone number one digit short).
    Order { poison: bool },
    /// Make `dependency` slow (`latency_ms`) or down from now for `for_ms`.
    Degrade { dependency: String, latency_ms: Option<u64>, down: bool, for_ms: u64 },
}

/// A command and the virtual moment it is given at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub at: SimTime,
    pub command: Command,
}

impl Command {
    /// "SMS slow: 25 s for `for_ms`".
    pub fn sms_slow(for_ms: u64) -> Command {
        Command::Degrade { dependency: "sms-api".into(), latency_ms: Some(25_000), down: false, for_ms }
    }

    /// "SMS provider down for `for_ms`".
    pub fn sms_down(for_ms: u64) -> Command {
        Command::Degrade { dependency: "sms-api".into(), latency_ms: None, down: true, for_ms }
    }

    /// The engine command this is in `sim` now: the same in every design that got the same log
    /// (a degradation keeps the dependency's windows that have not ended yet).
    pub fn action(&self, sim: &Sim) -> (&'static str, Value) {
        match self {
            Command::Order { poison } => ("Produce", json!({"ProducerName": CHECKOUT, "Poison": poison})),
            Command::Degrade { dependency, latency_ms, down, for_ms } => {
                let now = sim.now();
                let mut schedule: Vec<Value> = sim
                    .world
                    .dependencies
                    .get(dependency.as_str())
                    .map(|d| d.schedule.iter().filter(|w| w.end > now).map(window_json).collect())
                    .unwrap_or_default();
                let mut w = json!({"Start": format!("{}ms", now.0), "Duration": format!("{for_ms}ms")});
                if let Some(ms) = latency_ms {
                    w["Latency"] = json!(format!("{ms}ms"));
                }
                if *down {
                    w["Down"] = json!(true);
                }
                schedule.push(w);
                ("UpdateDependency", json!({"DependencyName": dependency, "Schedule": schedule}))
            }
        }
    }
}

fn window_json(w: &crate::world::dependency::Window) -> Value {
    let mut v = json!({"Start": format!("{}ms", w.start.0), "End": format!("{}ms", w.end.0)});
    if let Some(l) = w.latency {
        v["Latency"] = if l.min == l.max { json!(format!("{}ms", l.min)) } else { json!(l.describe()) };
    }
    if let Some(p) = w.error_ppm {
        v["ErrorRate"] = json!(format!("0.{p:06}"));
    }
    if let Some(d) = w.down {
        v["Down"] = json!(d);
    }
    if let Some(c) = w.capacity {
        v["Capacity"] = json!(c);
    }
    v
}

/// A design's story built from its scenario file, as the page and `fanout test` build it.
pub fn load(text: &str) -> Result<History, String> {
    let scenario = Scenario::parse(text).map_err(|e| e.to_string())?;
    let run = scenario.run_with(RunOptions { event_log: true, responses: false });
    match run.stopped {
        Some(stop) => Err(stop.to_string()),
        None => Ok(run.story),
    }
}

/// Several designs on one clock: every command goes to each at the same virtual moment.
pub struct Compare {
    /// (design name, its story).
    pub designs: Vec<(String, History)>,
}

impl Compare {
    /// Builds each design from its (name, scenario file text).
    pub fn new(files: &[(&str, &str)]) -> Result<Compare, String> {
        let designs = files
            .iter()
            .map(|(name, text)| load(text).map(|h| (name.to_string(), h)).map_err(|e| format!("{name}: {e}")))
            .collect::<Result<_, _>>()?;
        Ok(Compare { designs })
    }

    /// Gives `command` to every design now. On error (in any design) the designs that took it
    /// already keep it; the error names the design.
    pub fn apply(&mut self, command: &Command) -> Result<(), ApiError> {
        for (name, story) in &mut self.designs {
            let (action, params) = command.action(story.sim());
            story.apply(action, &params).map_err(|e| ApiError::new(&e.code, format!("{name}: {}", e.message)))?;
        }
        Ok(())
    }

    /// Moves every design's clock to `t`.
    pub fn advance_to(&mut self, t: SimTime) {
        for (_, story) in &mut self.designs {
            story.advance_to(t);
        }
    }

    /// Runs a command log, in order of time, then on to `until`.
    pub fn run(&mut self, log: &[Entry], until: SimTime) -> Result<(), ApiError> {
        for entry in log {
            self.advance_to(entry.at);
            self.apply(&entry.command)?;
        }
        self.advance_to(until);
        Ok(())
    }

    /// One design's story by name.
    pub fn design(&self, name: &str) -> Option<&History> {
        self.designs.iter().find(|(n, _)| n == name).map(|(_, h)| h)
    }
}
