//! Running a scenario: the one pipeline that both `fanout test` and the page's loader use
//! ([`Scenario::run_on`]). The page runs the steps on a [`History`], so that each successful
//! action is kept as a command it can take back or travel before (a failed one changes nothing
//! and is not kept); `fanout test`, which never travels, runs them on a bare [`Sim`]. Either way
//! each step does the same: a History applies a command exactly as its Sim does.

use super::template::{self, Vars};
use super::{contains, err, resolve_path, Scenario, ScenarioError, Step};
use crate::error::ApiError;
use crate::event::Event;
use crate::history::History;
use crate::sim::Sim;
use crate::time::SimTime;
use serde_json::Value;
use std::borrow::Cow;

/// What one step did.
#[derive(Clone, Debug, PartialEq)]
pub struct StepOutcome {
    /// 1-based.
    pub step: usize,
    pub label: String,
    /// The action's response or error; `None` for an `advance` step.
    pub result: Option<Result<Value, ApiError>>,
    /// `None` when the step had no expectation; `Some(diffs)` otherwise (empty = passed).
    pub check: Option<Vec<String>>,
    /// Events the step produced, as indexes into the log.
    pub events: std::ops::Range<usize>,
    /// Whether the step said it expects an error (`expect_error`).
    pub expects_error: bool,
}

impl StepOutcome {
    /// The error of an action that failed without the step expecting it to.
    pub fn unexpected_error(&self) -> Option<&ApiError> {
        match &self.result {
            Some(Err(e)) if !self.expects_error => Some(e),
            _ => None,
        }
    }

    /// Why the page refuses a file for this step: its action failed without `expect_error`
    /// (`step 3: CreateWorker failed: InvalidParameterValue: …`).
    pub fn refusal(&self) -> Option<ScenarioError> {
        self.unexpected_error().map(|e| {
            err(
                Some(self.step),
                format!(
                    "{} failed: {}: {}; a step that is meant to fail needs \"expect_error\"",
                    self.label, e.code, e.message
                ),
            )
        })
    }
}

/// What a scenario's steps run on: a [`Sim`], or a [`History`] that also keeps every successful
/// command.
pub trait Story {
    fn sim(&self) -> &Sim;
    fn set_event_recording(&mut self, on: bool);
    fn advance_to(&mut self, t: SimTime);
    fn apply(&mut self, action: &str, params: &Value) -> Result<Value, ApiError>;
    /// `apply`, for parameters made for this one call (a History keeps them as they are).
    fn apply_owned(&mut self, action: &str, params: Value) -> Result<Value, ApiError> {
        self.apply(action, &params)
    }
}

impl Story for Sim {
    fn sim(&self) -> &Sim {
        self
    }
    fn set_event_recording(&mut self, on: bool) {
        Sim::set_event_recording(self, on);
    }
    fn advance_to(&mut self, t: SimTime) {
        Sim::advance_to(self, t);
    }
    fn apply(&mut self, action: &str, params: &Value) -> Result<Value, ApiError> {
        Sim::apply(self, action, params)
    }
}

impl Story for History {
    fn sim(&self) -> &Sim {
        History::sim(self)
    }
    fn set_event_recording(&mut self, on: bool) {
        History::set_event_recording(self, on);
    }
    fn advance_to(&mut self, t: SimTime) {
        History::advance_to(self, t);
    }
    fn apply(&mut self, action: &str, params: &Value) -> Result<Value, ApiError> {
        History::apply(self, action, params)
    }
    fn apply_owned(&mut self, action: &str, params: Value) -> Result<Value, ApiError> {
        History::apply_owned(self, action, params)
    }
}

/// A scenario run to its end, or to the step that stopped it.
#[derive(Clone, Debug)]
pub struct Run<S = History> {
    /// What the steps built: for a History, its commands are the actions that succeeded.
    pub story: S,
    pub outcomes: Vec<StepOutcome>,
    /// A problem that stopped the run (a `save` path that does not resolve).
    pub stopped: Option<ScenarioError>,
}

impl<S: Story> Run<S> {
    pub fn sim(&self) -> &Sim {
        self.story.sim()
    }

    pub fn events(&self) -> &[Event] {
        self.story.sim().events()
    }

    /// Expectations that held.
    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.check.as_ref().is_some_and(Vec::is_empty)).count()
    }

    /// Expectations that did not hold, plus one if the run stopped early, plus one for each
    /// action that failed without `expect_error` and had no `expect` to fail instead: every
    /// reason the page has to refuse the file ([`Run::refusal`]) counts.
    pub fn failed(&self) -> usize {
        let unchecked_errors = self.outcomes.iter().filter(|o| o.check.is_none() && o.unexpected_error().is_some());
        self.outcomes.iter().filter(|o| o.check.as_ref().is_some_and(|d| !d.is_empty())).count()
            + usize::from(self.stopped.is_some())
            + unchecked_errors.count()
    }

    /// Why the page refuses to load the file this run comes from, or `None` when it loads: the
    /// problem that stopped the run (a `save` that does not resolve), else the first step whose
    /// action failed without `expect_error` ([`StepOutcome::refusal`]). The one rule for the
    /// page's loader and for `fanout test`, which fails such a file, so that the two agree.
    pub fn refusal(&self) -> Option<ScenarioError> {
        self.stopped.clone().or_else(|| self.outcomes.iter().find_map(StepOutcome::refusal))
    }
}

/// What a run keeps besides each step's verdict. Neither changes what the steps do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// The event log (`Sim::events`, each outcome's `events`). On by default.
    pub event_log: bool,
    /// Each action's response, in `StepOutcome::result`; when off, a successful step's result
    /// is `Ok(Value::Null)` (errors are always kept). On by default.
    pub responses: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { event_log: true, responses: true }
    }
}

impl Scenario {
    /// Runs every step on a fresh story seeded from the scenario, keeping everything.
    pub fn run(&self) -> Run {
        self.run_with(RunOptions::default())
    }

    /// Runs every step on a fresh History seeded from the scenario.
    pub fn run_with(&self, options: RunOptions) -> Run {
        self.run_on(History::new(self.seed), options)
    }

    /// Runs every step on `story` (normally fresh and seeded from the scenario): `advance`
    /// moves the clock, an action is applied with its `${name}` placeholders filled in, checked
    /// against `expect` or `expect_error`, and its `save` paths kept for later steps. Running
    /// never panics.
    pub fn run_on<S: Story>(&self, mut story: S, options: RunOptions) -> Run<S> {
        story.set_event_recording(options.event_log);
        let mut vars = Vars::new();
        let (outcomes, stopped) = run_steps(&mut story, &self.steps, &mut vars, options);
        Run { story, outcomes, stopped }
    }
}

/// The step loop of [`Scenario::run_on`], on a story that goes on after it: a lesson runs its
/// steps' lists through it one after another, with the values saved so far in `vars`. Returns
/// each step's outcome (numbered from 1 within `steps`) and the problem that stopped the list.
pub(crate) fn run_steps<S: Story>(
    story: &mut S,
    steps: &[Step],
    vars: &mut Vars,
    options: RunOptions,
) -> (Vec<StepOutcome>, Option<ScenarioError>) {
    let mut outcomes = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let first = story.sim().events().len();
        let mut outcome = match step {
            Step::Advance { ms, text } => {
                story.advance_to(story.sim().now().plus_ms(*ms));
                StepOutcome {
                    step: i + 1,
                    label: format!("advance {text}"),
                    result: None,
                    check: None,
                    events: 0..0,
                    expects_error: false,
                }
            }
            Step::Action { action, params, expect, expect_error, save, templated } => {
                let result = if *templated {
                    let mut filled = params.clone();
                    template::fill(&mut filled, vars);
                    story.apply_owned(action, filled)
                } else {
                    story.apply(action, params)
                };
                let check = check_result(&result, expect.as_ref(), expect_error.as_ref());
                if let Ok(response) = &result {
                    if let Err(stop) = keep(response, save, vars) {
                        return (outcomes, Some(err(Some(i + 1), stop)));
                    }
                }
                let expects_error = expect_error.is_some();
                let result = if options.responses { result } else { result.map(|_| Value::Null) };
                StepOutcome {
                    step: i + 1,
                    label: action.clone(),
                    result: Some(result),
                    check,
                    events: 0..0,
                    expects_error,
                }
            }
        };
        outcome.events = first..story.sim().events().len();
        outcomes.push(outcome);
    }
    (outcomes, None)
}

/// Keeps each `save` path of `response` under its name (reusing the name's earlier value).
fn keep(response: &Value, save: &[(String, String)], vars: &mut Vars) -> Result<(), String> {
    for (name, path) in save {
        let value = resolve_path(response, path).map_err(|why| format!("save \"{name}\": {why}"))?;
        let text = match value {
            Value::String(s) => Cow::Borrowed(s.as_str()),
            other => Cow::Owned(other.to_string()),
        };
        if let Some(slot) = vars.get_mut(name.as_str()) {
            slot.clear();
            slot.push_str(&text);
        } else {
            vars.insert(name.clone(), text.into_owned());
        }
    }
    Ok(())
}

fn check_result(
    result: &Result<Value, ApiError>,
    expect: Option<&Value>,
    expect_error: Option<&Value>,
) -> Option<Vec<String>> {
    match (result, expect, expect_error) {
        (_, None, None) => None,
        (Ok(response), Some(expected), _) => Some(contains(expected, response, "")),
        (Err(e), Some(_), _) => Some(vec![format!("expected success, got error {}: {}", e.code, e.message)]),
        (Err(e), None, Some(expected)) => {
            let actual = serde_json::to_value(e).unwrap_or(Value::Null);
            Some(contains(expected, &actual, ""))
        }
        (Ok(response), None, Some(_)) => {
            Some(vec![format!("expected an error, but the action succeeded with {response}")])
        }
    }
}
