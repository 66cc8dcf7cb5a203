//! The lesson player: where a learner is in a lesson, driven by the page (on its `History`) and
//! by the headless check (on a bare `Sim`). It does not own the story: every call that acts takes
//! it, so the page keeps its own time travel, and the learner's commands go to the story as
//! always. A step's own steps and a checkpoint's solution run through the scenario pipeline
//! ([`run_steps`], the loop of `Scenario::run_on`) with the values saved so far.
//!
//! The page's loop for one step:
//! - `narration`: show [`Session::step`]'s text; [`Session::next`] on "continue".
//! - `run`: note `sim.now()`, [`Session::perform`], then seek the History back to that moment and
//!   play forward at [`Lesson::speed_of`]: the recorded commands replay on the way; show the facts.
//! - `predict`: ask the question; once the learner commits, perform and play as for `run`, then
//!   [`Session::answer`] gives the engine's value and [`Answer::judge`] the verdict and the why.
//! - `checkpoint`: show [`Session::goals`] as a checklist after each change (events count since
//!   the step began), the hint after `hint_after_s`, [`Session::show_me`] on "show me"; the step
//!   is done when [`Session::reached`].
//!
//! Saved progress is the lesson id and the step index: [`Session::resume`] rebuilds the story by
//! playing the lesson's own path up to that step (each checkpoint by its solution).

use super::probe::Context;
use super::{AnswerMode, Check, Choice, Lesson, LessonStep, Prediction, StepKind};
use crate::scenario::{run_steps, RunOptions, Step, StepOutcome, Story, Vars};
use crate::sim::Sim;
use serde_json::Value;

/// Where a learner is in a lesson.
#[derive(Clone, Debug)]
pub struct Session {
    lesson: Lesson,
    step: usize,
    /// The length of the event log when the current step began.
    mark: usize,
    vars: Vars,
    /// The last successful response of the current step's own run.
    response: Option<Value>,
}

/// What performing a list of scenario steps did.
#[derive(Clone, Debug, PartialEq)]
pub struct Performed {
    pub outcomes: Vec<StepOutcome>,
    /// Actions that failed without `expect_error`, and a `save` that did not resolve: what the
    /// page refuses. One line each, naming the scenario step (1-based within the list).
    pub errors: Vec<String>,
    /// Expectations (`expect`, `expect_error`) that did not hold: what `fanout test` reports.
    pub mismatches: Vec<String>,
}

impl Performed {
    fn nothing() -> Performed {
        Performed { outcomes: Vec::new(), errors: Vec::new(), mismatches: Vec::new() }
    }

    /// The expectations that held.
    pub fn expectations_met(&self) -> usize {
        self.outcomes.iter().filter(|o| o.check.as_ref().is_some_and(Vec::is_empty)).count()
    }
}

/// One line of a checklist (a checkpoint's goals, a run step's facts), now.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalStatus {
    pub label: String,
    pub holds: bool,
    /// What the probe read, or why it could not.
    pub value: Result<Value, String>,
    /// What the reading is measured in.
    pub unit: super::unit::Unit,
}

/// The engine's answer to a prediction, after the step's run.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// What the probe read, or why it could not.
    pub value: Result<Value, String>,
    /// What the reading is measured in.
    pub unit: super::unit::Unit,
    /// The ids of the choices whose test the value passes (one, in a lesson that passes `fanout test`).
    pub matching: Vec<String>,
}

/// How the learner's answer compares with the engine's.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement<'a> {
    pub correct: bool,
    /// The choice the engine's value makes right.
    pub right: Option<&'a Choice>,
    /// The learner's choice (for a typed number, the choice whose test the number passes).
    pub picked: Option<&'a Choice>,
}

impl Answer {
    /// Judges a picked choice id (choice mode) or a typed number (number mode, as text).
    pub fn judge<'a>(&self, prediction: &'a Prediction, given: &str) -> Judgement<'a> {
        let right = match self.matching.as_slice() {
            [one] => prediction.choices.iter().find(|c| c.id == *one),
            _ => None,
        };
        let picked = match prediction.answer {
            AnswerMode::Choice => prediction.choices.iter().find(|c| c.id == given),
            AnswerMode::Number => {
                let typed = Value::String(given.trim().to_string());
                prediction.choices.iter().find(|c| c.test.passes(&typed))
            }
        };
        let correct = match (prediction.answer, right) {
            (AnswerMode::Choice, Some(r)) => picked.is_some_and(|p| p.id == r.id),
            (AnswerMode::Number, Some(r)) => r.test.passes(&Value::String(given.trim().to_string())),
            (_, None) => false,
        };
        Judgement { correct, right, picked }
    }
}

impl Session {
    /// Starts a lesson on a fresh story seeded with `lesson.scenario.seed`: runs the scenario's
    /// steps with the event log on. Fails, naming the step, where the page would refuse the
    /// scenario (an action failing without `expect_error`, a `save` that does not resolve).
    pub fn start<S: Story>(lesson: Lesson, story: &mut S) -> Result<(Session, Performed), String> {
        story.set_event_recording(true);
        let mut session = Session { lesson, step: 0, mark: 0, vars: Vars::new(), response: None };
        let steps = session.lesson.scenario.steps.clone();
        let performed = session.run_list(story, &steps);
        if let Some(first) = performed.errors.first() {
            return Err(format!("scenario {first}"));
        }
        session.mark = story.sim().events().len();
        Ok((session, performed))
    }

    /// Starts a lesson and plays its own path to step `step` (0-based): each run performed, each
    /// checkpoint reached by its solution. What the learner did by hand is not replayed.
    pub fn resume<S: Story>(lesson: Lesson, story: &mut S, step: usize) -> Result<Session, String> {
        let (mut session, _) = Session::start(lesson, story)?;
        while session.step < step.min(session.lesson.steps.len().saturating_sub(1)) {
            session.perform(story);
            session.show_me(story);
            session.next(story.sim());
        }
        Ok(session)
    }

    /// The lesson being played.
    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// The current step's index, from 0.
    pub fn step_index(&self) -> usize {
        self.step
    }

    /// The current step.
    pub fn step(&self) -> &LessonStep {
        &self.lesson.steps[self.step]
    }

    /// Whether the current step is the last (the `remember` screen).
    pub fn at_end(&self) -> bool {
        self.step + 1 >= self.lesson.steps.len()
    }

    /// Moves to the next step; events count from here for it. Returns false at the end.
    pub fn next(&mut self, sim: &Sim) -> bool {
        if self.at_end() {
            return false;
        }
        self.step += 1;
        self.mark = sim.events().len();
        self.response = None;
        true
    }

    /// Performs the current step's own scenario steps (a `run` or `predict` step); nothing for
    /// the other kinds.
    pub fn perform<S: Story>(&mut self, story: &mut S) -> Performed {
        let steps = match &self.step().kind {
            StepKind::Run { run, .. } => run.clone(),
            StepKind::Predict(p) => p.run.clone(),
            _ => return Performed::nothing(),
        };
        let performed = self.run_list(story, &steps);
        self.response =
            performed.outcomes.iter().rev().find_map(|o| o.result.as_ref().and_then(|r| r.as_ref().ok()).cloned());
        performed
    }

    /// "Show me": performs the current checkpoint's recorded solution; nothing for other kinds.
    pub fn show_me<S: Story>(&mut self, story: &mut S) -> Performed {
        match &self.step().kind {
            StepKind::Checkpoint(c) => {
                let steps = c.solution.clone();
                self.run_list(story, &steps)
            }
            _ => Performed::nothing(),
        }
    }

    /// The current checkpoint's goals (or a run or predict step's facts) as they stand in `sim`.
    pub fn goals(&self, sim: &Sim) -> Vec<GoalStatus> {
        let checks: &[Check] = match &self.step().kind {
            StepKind::Checkpoint(c) => &c.goals,
            StepKind::Run { facts, .. } => facts,
            StepKind::Predict(p) => &p.facts,
            _ => &[],
        };
        let ctx = self.context(sim);
        let read: Vec<(Result<Value, String>, bool)> = checks
            .iter()
            .map(|c| {
                let value = c.probe.read(&ctx);
                let holds = value.as_ref().is_ok_and(|v| c.test.passes(v));
                (value, holds)
            })
            .collect();
        // A check `after` another holds only once that one (and what it waits for) holds too.
        let holds = |mut i: usize| loop {
            if !read[i].1 {
                return false;
            }
            match checks[i].after {
                Some(j) => i = j,
                None => return true,
            }
        };
        checks
            .iter()
            .zip(&read)
            .enumerate()
            .map(|(i, (c, (value, _)))| GoalStatus {
                label: c.label.clone(),
                holds: holds(i),
                value: value.clone(),
                unit: c.probe.unit(),
            })
            .collect()
    }

    /// Whether every goal of the current checkpoint holds.
    pub fn reached(&self, sim: &Sim) -> bool {
        matches!(self.step().kind, StepKind::Checkpoint(_)) && self.goals(sim).iter().all(|g| g.holds)
    }

    /// The engine's answer to the current prediction, read now (after [`Session::perform`]).
    pub fn answer(&self, sim: &Sim) -> Option<Answer> {
        let StepKind::Predict(p) = &self.step().kind else { return None };
        let value = p.probe.read(&self.context(sim));
        let matching = match &value {
            Ok(v) => p.choices.iter().filter(|c| c.test.passes(v)).map(|c| c.id.clone()).collect(),
            Err(_) => Vec::new(),
        };
        Some(Answer { value, matching, unit: p.probe.unit() })
    }

    fn context<'a>(&'a self, sim: &'a Sim) -> Context<'a> {
        Context::new(sim, self.mark, &self.vars, self.response.as_ref())
    }

    fn run_list<S: Story>(&mut self, story: &mut S, steps: &[Step]) -> Performed {
        let options = RunOptions { event_log: true, responses: true };
        let (outcomes, stopped) = run_steps(story, steps, &mut self.vars, options);
        let (mut errors, mut mismatches) = (Vec::new(), Vec::new());
        for o in &outcomes {
            if let Some(e) = o.unexpected_error() {
                errors.push(format!("step {} ({}) failed: {}: {}", o.step, o.label, e.code, e.message));
            } else if let Some(diffs) = o.check.as_ref().filter(|d| !d.is_empty()) {
                mismatches.push(format!("step {} ({}): {}", o.step, o.label, diffs.join("; ")));
            }
        }
        if let Some(stop) = stopped {
            errors.push(format!("stopped at {stop}"));
        }
        Performed { outcomes, errors, mismatches }
    }
}
