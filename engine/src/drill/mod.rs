//! Incident drills: a broken system as data, for the learner to diagnose and fix with the
//! sandbox's own controls, and a goal the engine checks over a stretch of virtual time after the
//! fix. A drill file (`public/drills/<id>.json`, listed in order in `public/drills/index.json`):
//!
//! ```json
//! {"drill": "charged-twice", "title": "…", "summary": "…", "minutes": 10,
//!  "page": {"from": "Asha, support", "report": "Two customers say …", "at": "10m",
//!           "look_at": ["diagram", "queue-cards", "event-log", "inspector"]},
//!  "world": {"name": "…", "seed": 7, "steps": [...]},
//!  "may_change": ["UpdateWorker:Idempotency", "SetQueueAttributes:VisibilityTimeout"],
//!  "window": "30m",
//!  "goal": [{"label": "No card is charged twice", "probe": {"job": "billing", "field": "duplicates"}, "is": 0},
//!           {"label": "Orders keep flowing", "probe": {"queue": "billing", "field": "visible"}, "max": 20, "from": "5m"}],
//!  "hints": ["…", "…"],
//!  "debrief": {"cause": "…", "rule": "…", "read": [{"title": "…", "url": "https://docs.aws.amazon.com/…"}],
//!              "fix": [{"action": "UpdateWorker", "params": {...}}], "also_right": [{"label": "…", "fix": [...]}]},
//!  "wrong_fixes": [{"label": "…", "why": "…", "fix": [...]}]}
//! ```
//!
//! - The **world** is a scenario (a built-in id or an inline object) that reproduces the incident
//!   by itself: its steps build the system, and its actors (producers, workers, dependencies with
//!   schedules, Lambda mappings) keep the traffic and the failures coming as time plays.
//! - The **page** arrives at `page.at`: the world is played to that moment before the learner
//!   sees it; every change the learner makes comes after.
//! - **may_change** lists the sandbox's controls the learner may use ([`controls`]): a whole
//!   action (`"StartMessageMoveTask"`) or one attribute or option of it
//!   (`"SetQueueAttributes:MessageRetentionPeriod"`). Every fix stored in the file is checked
//!   against it when the file is read.
//! - The **goal** is a list of lesson checks ([`crate::lesson::Check`]: a probe and a test),
//!   watched for `window` after the fix ([`When`]): at the window's end, `within` a time of its
//!   start, or `from` a time on to its end. An `events` probe counts from the window's start (for
//!   `from`, from that mark).
//! - [`Drill::judge`] replays the world and the learner's changes at the moments they were made,
//!   plays the window and says pass, or "not yet" with what still fails, in words ([`Verdict`]).
//!   [`Drill::verify`] is what `fanout test` checks: left alone the goal fails, the recorded fix
//!   (and each `also_right` fix) makes it hold, and each stored wrong fix does not.
//!
//! Files: `parse.rs` (the format and its checks), `controls.rs` (what a learner may change),
//! `judge.rs` (the play and its verdict), `verify.rs` (the checks of `fanout test`), `index.rs`.

pub mod controls;
mod index;
mod judge;
mod parse;
mod verify;

pub use controls::Allowed;
pub use index::DrillIndex;
pub use judge::{GoalVerdict, Verdict};
pub use verify::{DrillCheck, DrillReport};

use crate::lesson::{Check, DocLink};
use crate::scenario::{Scenario, Step};
use crate::time::SimTime;

/// A parsed and checked drill.
#[derive(Clone, Debug, PartialEq)]
pub struct Drill {
    /// Lowercase letters, digits and hyphens: the file's name without `.json`.
    pub id: String,
    pub title: String,
    /// One line for the drill list.
    pub summary: String,
    /// How long it takes to solve without hints, roughly: 1 to 60.
    pub minutes: u32,
    pub page: Page,
    /// The built-in scenario the world is, or `None` for an inline one.
    pub world_id: Option<String>,
    /// The broken world: it reproduces the incident by itself when played.
    pub world: Scenario,
    /// What the learner may change, in the file's order.
    pub may_change: Vec<Allowed>,
    /// How long after the fix the goal is watched, in virtual ms.
    pub window_ms: u64,
    pub goal: Vec<Goal>,
    /// Unlocked one at a time, in order.
    pub hints: Vec<String>,
    pub debrief: Debrief,
    /// Plausible fixes that do not make the goal hold; at least one.
    pub wrong_fixes: Vec<Fix>,
}

/// The incident report the learner is paged with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// Who writes, and where: "Priya, finance, in #orders-oncall".
    pub from: String,
    /// The report, in the on-call channel's voice (markup: [`crate::lesson::markup::spans`]).
    pub report: String,
    /// When the page arrives: the world is played to here first.
    pub at: SimTime,
    /// The parts of the stage the learner may look at, in the file's order.
    pub look_at: Vec<View>,
}

/// A part of the stage a drill shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Diagram,
    QueueCards,
    Metrics,
    EventLog,
    Inspector,
}

impl View {
    /// Every view, as a drill file writes it.
    pub const ALL: &'static [(&'static str, View)] = &[
        ("diagram", View::Diagram),
        ("queue-cards", View::QueueCards),
        ("metrics", View::Metrics),
        ("event-log", View::EventLog),
        ("inspector", View::Inspector),
    ];

    /// The name, as a drill file writes it.
    pub fn as_str(self) -> &'static str {
        View::ALL.iter().find(|(_, v)| *v == self).map_or("", |(t, _)| t)
    }
}

/// One predicate of the goal.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The label, the probe and the test (a drill's checks have no `after`).
    pub check: Check,
    pub when: When,
}

/// When, in the window after the fix, a goal must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// At the window's end; an `events` probe counts the whole window.
    AtEnd,
    /// At some look no later than this many ms after the window starts ("the alarm is in ALARM
    /// within 2 minutes"); an `events` probe counts from the window's start.
    Within(u64),
    /// At every look from this many ms after the window starts to its end ("from 5 minutes on,
    /// at most 20 messages wait"); an `events` probe counts from that mark.
    From(u64),
}

/// What the learner reads once the drill is solved, or given up.
#[derive(Clone, Debug, PartialEq)]
pub struct Debrief {
    /// What went wrong, in the incident's terms.
    pub cause: String,
    /// The AWS rule behind it.
    pub rule: String,
    /// Its documentation: at least one page under `https://docs.aws.amazon.com/`.
    pub read: Vec<DocLink>,
    /// The recorded fix: what "give up" performs, set beside the learner's.
    pub fix: Fix,
    /// Other fixes that are right too (two fixes may both be right); `fanout test` checks each.
    pub also_right: Vec<Fix>,
}

/// A fix: AWS actions made at one moment, all of them among the drill's `may_change`.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    /// For a wrong or an also-right fix, what it is in a few words; "the recorded fix" for the
    /// debrief's own.
    pub label: String,
    /// Why it is wrong (or right); empty for the debrief's own fix, which `rule` explains.
    pub why: String,
    /// Action steps only (no `advance`, no `expect`, no `save`); `${name}` as the world saved.
    pub steps: Vec<Step>,
}

/// A drill file that cannot be used, with where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrillError {
    /// A JSON path in the file: `goal[1].within`, `debrief.fix[0]`, `page.at`; empty for the
    /// whole file.
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for DrillError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for DrillError {}

/// Whether a file is a drill (a top-level `"drill"` key) rather than a scenario or a lesson.
pub fn is_drill(text: &str) -> bool {
    crate::lesson::parse::top_level_keys(text).is_some_and(|keys| keys.iter().any(|k| k == "drill"))
}

impl Drill {
    /// Parses and checks a drill. `builtins` are the built-in scenarios as (id, file text), for
    /// a world given by id; an inline world needs none.
    pub fn parse(text: &str, builtins: &[(&str, &str)]) -> Result<Drill, DrillError> {
        parse::drill(text, builtins)
    }
}
