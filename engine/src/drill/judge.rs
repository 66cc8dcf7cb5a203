//! Playing a drill and judging a fix. Every judgement starts from nothing: a fresh `Sim` seeded
//! from the world, the world's steps, the clock played to the page, then the learner's changes at
//! the moments they were made, then the window, looked at [`LOOKS`] times and at each goal's own
//! mark. The same drill and changes give the same verdict, natively and in wasm.
//!
//! The page drives it so:
//! - [`Drill::start`] builds the broken world on the page's `History` and plays it to the page.
//! - Before sending a learner's command, [`Drill::refusal`] says whether the drill allows it.
//! - On "check my fix", [`Drill::judge`] with the commands made since the page (as the History
//!   keeps them) and the moment the learner asked: [`Verdict::passed`], or [`Verdict::not_yet`].
//! - "Give up" applies [`Drill::recorded_fix`] to the story, and the debrief shows it.

use super::{Drill, Fix, When};
use crate::history::Command;
use crate::lesson::probe::Context;
use crate::lesson::test::Test;
use crate::lesson::unit::Unit;
use crate::scenario::{fill, run_steps, RunOptions, Step, Story, Vars};
use crate::sim::Sim;
use crate::time::{format_duration, SimTime, HORIZON};
use serde_json::Value;

/// How many evenly spaced looks the window gets, besides its start, its end and the goals' marks.
pub const LOOKS: u64 = 120;

/// The engine's verdict on a fix.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Every goal held.
    pub passed: bool,
    pub goals: Vec<GoalVerdict>,
    /// The window the goal was watched over: from the fix (or the moment the learner asked) on.
    pub start: SimTime,
    pub end: SimTime,
}

/// One goal, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalVerdict {
    pub label: String,
    pub holds: bool,
    /// The reading that decided: the one at the end; for `within`, the first that held, else the
    /// one at the mark; for `from`, the first that failed, else the one at the end. `Err` says why
    /// there was none (no such queue, say).
    pub value: Result<Value, String>,
    /// When that reading was taken.
    pub at: SimTime,
    /// What the reading is measured in.
    pub unit: Unit,
    /// The reading as the page shows it, in its unit: "3 messages", "2m 30s", "\"ALARM\"".
    pub shown: String,
    /// Why it does not hold, in words; empty when it holds.
    pub why: String,
}

impl Verdict {
    /// "Not yet": one line per goal that does not hold, in words. Empty when the fix passed.
    pub fn not_yet(&self) -> Vec<String> {
        self.goals.iter().filter(|g| !g.holds).map(|g| format!("\"{}\": {}", g.label, g.why)).collect()
    }
}

impl Drill {
    /// Builds the broken world on `story` as the page shows it: runs the world's steps (event log
    /// on) and plays the clock to the page. Fails, naming the step, where the world's own steps
    /// fail (the page refuses the drill then).
    pub fn start<S: Story>(&self, story: &mut S) -> Result<(), String> {
        story.set_event_recording(true);
        self.build(story, RunOptions::default())?;
        story.advance_to(self.page.at);
        Ok(())
    }

    /// The change of this call the drill does not allow, as `may_change` spells it; `None` when
    /// the learner may make it (reading is always allowed).
    pub fn refusal(&self, action: &str, params: &Value) -> Option<String> {
        super::controls::refused(&self.may_change, action, params)
    }

    /// The recorded fix as (action, params) ready to apply, its `${name}`s filled in with what
    /// the world saved: what "give up" performs.
    pub fn recorded_fix(&self) -> Result<Vec<(String, Value)>, String> {
        let mut sim = Sim::new(self.world.seed);
        sim.set_event_recording(false);
        let vars = self.build(&mut sim, RunOptions { event_log: false, responses: false })?;
        Ok(self
            .debrief
            .fix
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Action { action, params, .. } => {
                    let mut p = params.clone();
                    fill(&mut p, &vars);
                    Some((action.clone(), p))
                }
                Step::Advance { .. } => None,
            })
            .collect())
    }

    /// Judges the learner's changes: `changes` are the commands made since the page, each at the
    /// moment it was made (as the page's `History` keeps them), and `asked` the moment the learner
    /// asked for a verdict. The window starts at the later of `asked` and the last change, never
    /// before the page, and lasts the drill's `window`. `Err` says why the changes cannot be
    /// judged: one made before the page or out of time order, one the drill does not allow, one
    /// the engine refuses, a window past the 30-day horizon.
    pub fn judge(&self, changes: &[Command], asked: SimTime) -> Result<Verdict, String> {
        let (mut sim, vars) = self.world()?;
        let mut last = self.page.at;
        for c in changes {
            if c.at < self.page.at {
                return Err(format!("the change {} at {} comes before the page at {}", c.action, c.at, self.page.at));
            }
            if c.at < last {
                return Err(format!(
                    "the change {} at {} comes before the one at {last}: changes go in time order",
                    c.action, c.at
                ));
            }
            if let Some(change) = self.refusal(&c.action, &c.params) {
                return Err(format!(
                    "the change at {} uses {change}, which this drill does not let a learner change",
                    c.at
                ));
            }
            sim.advance_to(c.at);
            sim.apply(&c.action, &c.params)
                .map_err(|e| format!("the change {} at {} failed: {}: {}", c.action, c.at, e.code, e.message))?;
            last = c.at;
        }
        self.watch(sim, &vars, asked.max(last))
    }

    /// Judges a stored fix, applied the moment the page arrives.
    pub fn judge_fix(&self, fix: &Fix) -> Result<Verdict, String> {
        let (mut sim, mut vars) = self.world()?;
        let options = RunOptions { event_log: false, responses: false };
        let (outcomes, stopped) = run_steps(&mut sim, &fix.steps, &mut vars, options);
        if let Some(o) = outcomes.iter().find(|o| o.unexpected_error().is_some()) {
            let e = o.unexpected_error().expect("invariant: found above");
            return Err(format!("step {} ({}) failed: {}: {}", o.step, o.label, e.code, e.message));
        }
        if let Some(stop) = stopped {
            return Err(stop.to_string());
        }
        self.watch(sim, &vars, self.page.at)
    }

    /// The broken world, built on a fresh `Sim` without its event log and played to the page.
    fn world(&self) -> Result<(Sim, Vars), String> {
        let mut sim = Sim::new(self.world.seed);
        sim.set_event_recording(false);
        let vars = self.build(&mut sim, RunOptions { event_log: false, responses: false })?;
        sim.advance_to(self.page.at);
        Ok((sim, vars))
    }

    /// Runs the world's steps on `story`; the values they saved.
    fn build<S: Story>(&self, story: &mut S, options: RunOptions) -> Result<Vars, String> {
        let mut vars = Vars::new();
        let (outcomes, stopped) = run_steps(story, &self.world.steps, &mut vars, options);
        if let Some(stop) = stopped {
            return Err(format!("the world stopped at {stop}"));
        }
        if let Some(refused) = outcomes.iter().find_map(|o| o.refusal()) {
            return Err(format!("the world's {refused}"));
        }
        Ok(vars)
    }

    /// Plays the window from `start` with the event log on and judges every goal.
    fn watch(&self, mut sim: Sim, vars: &Vars, start: SimTime) -> Result<Verdict, String> {
        let end = start.0.checked_add(self.window_ms).filter(|e| *e <= HORIZON.0).ok_or_else(|| {
            format!(
                "a window of {} from {start} passes the 30 days of virtual time a story may cover",
                format_duration(self.window_ms)
            )
        })?;
        sim.advance_to(start);
        sim.set_event_recording(true);
        let since = sim.events().len();
        let looks = self.looks();
        let mut marks: Vec<(u64, usize)> = Vec::new();
        let mut states: Vec<State> = self.goal.iter().map(|_| State::default()).collect();
        for offset in looks {
            sim.advance_to(start.plus_ms(offset));
            let now = sim.now();
            if self.goal.iter().any(|g| g.when == When::From(offset)) {
                marks.push((offset, sim.events().len()));
            }
            let base = Context::new(&sim, since, vars, None);
            for (goal, state) in self.goal.iter().zip(states.iter_mut()) {
                let read = |ctx: &Context| {
                    let value = goal.check.probe.read(ctx);
                    let holds = value.as_ref().is_ok_and(|v| goal.check.test.passes(v));
                    (value, holds)
                };
                match goal.when {
                    When::AtEnd if offset == self.window_ms => state.set(read(&base), now),
                    When::Within(w) if offset <= w && !state.holds => state.set(read(&base), now),
                    When::From(s) if offset >= s && (state.value.is_none() || state.holds) => {
                        let mark = marks.iter().find(|(o, _)| *o == s).map_or(since, |(_, m)| *m);
                        state.set(read(&Context::new(&sim, mark, vars, None)), now);
                    }
                    _ => {}
                }
            }
        }
        let goals: Vec<GoalVerdict> = self
            .goal
            .iter()
            .zip(states)
            .map(|(goal, state)| {
                let value = state.value.unwrap_or_else(|| Err("not read".into()));
                let unit = goal.check.probe.unit();
                let why = if state.holds {
                    String::new()
                } else {
                    why(goal.when, &value, unit, &goal.check.test, state.at.0 - start.0, self.window_ms)
                };
                let shown = match &value {
                    Ok(v) => reading(v, unit),
                    Err(e) => format!("no reading ({e})"),
                };
                GoalVerdict {
                    label: goal.check.label.clone(),
                    holds: state.holds,
                    value,
                    at: state.at,
                    unit,
                    shown,
                    why,
                }
            })
            .collect();
        Ok(Verdict { passed: goals.iter().all(|g| g.holds), goals, start, end: SimTime(end) })
    }

    /// The offsets into the window at which the goal is looked at, in order: the start, [`LOOKS`]
    /// evenly spaced moments (the last is the end), and each goal's `within` or `from` mark.
    fn looks(&self) -> Vec<u64> {
        let w = self.window_ms;
        let mut looks: Vec<u64> = (0..=LOOKS).map(|k| w / LOOKS * k).collect();
        looks.dedup();
        let marks = self.goal.iter().filter_map(|g| match g.when {
            When::Within(t) | When::From(t) => Some(t),
            When::AtEnd => None,
        });
        // Each put in its place (a few marks: a sort would bring its code into the page).
        for t in std::iter::once(w).chain(marks) {
            if let Err(at) = looks.binary_search(&t) {
                looks.insert(at, t);
            }
        }
        looks
    }
}

/// A goal's deciding reading so far.
#[derive(Default)]
struct State {
    value: Option<Result<Value, String>>,
    holds: bool,
    at: SimTime,
}

impl State {
    fn set(&mut self, (value, holds): (Result<Value, String>, bool), at: SimTime) {
        (self.value, self.holds, self.at) = (Some(value), holds, at);
    }
}

/// Why a goal does not hold, in words a learner reads beside the goal's own label (which says
/// what is read): when it was read, what it read, what it needs. "it must hold from 1 min
/// after the change on, but 1 min 15 s after it, it read 3 failed deliveries; it must be 0
/// failed deliveries".
fn why(when: When, value: &Result<Value, String>, unit: Unit, test: &Test, at: u64, window: u64) -> String {
    let reading = match value {
        Ok(v) => format!("it read {}", reading(v, unit)),
        Err(e) => return format!("there was nothing to read at {} after the change: {e}", format_duration(at)),
    };
    let need = need(test, unit);
    match when {
        When::AtEnd => {
            format!("at the end of the {} after the change, {reading}; it must be {need}", format_duration(window))
        }
        When::Within(w) => {
            format!(
                "it never held within {} of the change: at that mark {reading}; it must be {need}",
                format_duration(w)
            )
        }
        When::From(s) => format!(
            "it must hold from {} after the change on, but {} after it, {reading}; it must be {need}",
            format_duration(s),
            format_duration(at)
        ),
    }
}

/// A reading in its unit: "3 messages", "2m 30s", "12.50%", `"OK"`.
pub(crate) fn reading(v: &Value, unit: Unit) -> String {
    let n = crate::lesson::test::number_of(v).filter(|_| !v.is_array());
    match (unit, n) {
        (Unit::Count(one, _), Some(1)) => format!("1 {one}"),
        (Unit::Count(_, many), Some(n)) => format!("{n} {many}"),
        (Unit::Ms, Some(n)) if n >= 0 => format_duration(n as u64),
        (Unit::Seconds, Some(n)) => format!("{n} s"),
        (Unit::Ppm, Some(n)) => format!("{}.{:02}%", n / 10_000, n % 10_000 / 100),
        // A setting that is not there ("RedrivePolicy" unset): said, not written as JSON.
        _ if v.is_null() => "not set".to_string(),
        _ => {
            let text = v.to_string();
            if text.chars().count() > 80 {
                format!("{}…", text.chars().take(80).collect::<String>())
            } else {
                text
            }
        }
    }
}

/// What a test needs, after "it must be": "0", "at least 1", "anything but \"OK\"".
fn need(test: &Test, unit: Unit) -> String {
    let n = |x: i64| reading(&Value::from(x), unit);
    match test {
        Test::Is(v) => reading(v, unit),
        // "it read not set; it must be set", not "anything but not set".
        Test::IsNot(v) if v.is_null() => "set".into(),
        Test::IsNot(v) => format!("anything but {}", reading(v, unit)),
        Test::Between { min: Some(a), max: Some(b) } if a == b => n(*a),
        Test::Between { min: Some(a), max: Some(b) } => format!("between {} and {}", n(*a), n(*b)),
        Test::Between { min: Some(a), max: None } => format!("at least {}", n(*a)),
        Test::Between { min: None, max: Some(b) } => format!("at most {}", n(*b)),
        Test::Between { min: None, max: None } => "anything".into(),
    }
}
