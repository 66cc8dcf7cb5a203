//! The headless play of a lesson, as `fanout test` runs it: through the same [`Session`] the page
//! drives, on a bare `Sim` with the event log on. Every prediction is answered by the engine and
//! compared with the choice the file marks right; every checkpoint must not hold before its
//! solution and must hold after it; every run step's facts and every scenario step's `expect`
//! must hold; no action may fail unless its step expects it to.

use super::session::{Performed, Session};
use super::{Lesson, StepKind};
use crate::scenario::Story;
use crate::sim::Sim;
use crate::snapshot::Snapshot;

/// One check of a lesson and what differed (nothing, when it passed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonCheck {
    /// The lesson step (1-based); `None` for the starting scenario.
    pub step: Option<usize>,
    /// What was checked: `prediction "two"`, `checkpoint`, `fact: visible(sms) is 2`, `expect`.
    pub what: String,
    pub problems: Vec<String>,
    /// What the engine read, for a prediction or a fact.
    pub value: Option<serde_json::Value>,
}

impl LessonCheck {
    /// Whether nothing differed.
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Every check of one headless play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub checks: Vec<LessonCheck>,
    /// Where each lesson step began in the event log (index 0: step 1), for a timeline.
    pub step_starts: Vec<usize>,
}

impl Report {
    /// How many checks passed.
    pub fn passed(&self) -> usize {
        self.checks.iter().filter(|c| c.passed()).count()
    }

    /// How many checks failed.
    pub fn failed(&self) -> usize {
        self.checks.len() - self.passed()
    }

    fn add(&mut self, step: Option<usize>, what: impl Into<String>, problems: Vec<String>) {
        self.checks.push(LessonCheck { step, what: what.into(), problems, value: None });
    }

    /// Keeps what the engine read for the check just added.
    fn read(&mut self, value: &Result<serde_json::Value, String>) {
        if let (Some(last), Ok(v)) = (self.checks.last_mut(), value) {
            last.value = Some(v.clone());
        }
    }

    /// One check per fact, from the statuses [`Session::goals`] gave for them (in order).
    fn facts(&mut self, step: Option<usize>, facts: &[super::Check], statuses: &[super::GoalStatus]) {
        for (fact, status) in facts.iter().zip(statuses) {
            let expected = format!("{} {}", fact.probe.describe(), fact.test.describe());
            let problems = match (&status.value, status.holds) {
                (_, true) => Vec::new(),
                (Ok(v), false) => vec![format!("expected {expected}, the engine has {v}")],
                (Err(e), false) => vec![format!("expected {expected}, but there is no value: {e}")],
            };
            self.add(step, format!("fact: {expected}"), problems);
            self.read(&status.value);
        }
    }

    /// One check per step whose text names a resource: each is drawn while that text is shown
    /// (see [`super::drawn`]), and each name in its `appears` is drawn once it has run.
    fn names_drawn(&mut self, steps: &[super::LessonStep], seen: &[(usize, Snapshot, Snapshot)]) {
        use super::drawn;
        let mut known: Vec<String> = Vec::new();
        for (_, before, after) in seen {
            for n in drawn::resources(before).into_iter().chain(drawn::resources(after)) {
                if !known.contains(&n) {
                    known.push(n);
                }
            }
        }
        for (i, before, after) in seen {
            let step = &steps[*i];
            let names = drawn::texts(step).iter().any(|(_, t, _)| !drawn::named(t, &known).is_empty());
            if !names && step.appears.is_empty() {
                continue;
            }
            let mut problems: Vec<String> =
                drawn::check_step(i + 1, step, before, after, &known).iter().map(|p| p.describe()).collect();
            for n in drawn::appears_unused(step, after) {
                problems
                    .push(format!("\"appears\" lists \"{n}\", which the diagram does not draw once the step has run"));
            }
            self.add(Some(i + 1), "names drawn", problems);
        }
    }

    /// A check for each step whose facts or goals have a label that names a unit its reading is
    /// not shown in, or does a sum the reading does not show ([`super::unit::label_problem`]).
    fn labels(&mut self, steps: &[super::LessonStep]) {
        for (i, step) in steps.iter().enumerate() {
            let checks = match &step.kind {
                StepKind::Run { facts, .. } => facts.as_slice(),
                StepKind::Predict(p) => p.facts.as_slice(),
                StepKind::Checkpoint(c) => c.goals.as_slice(),
                _ => &[],
            };
            let problems: Vec<String> =
                checks.iter().filter_map(|c| super::unit::label_problem(&c.label, c.probe.unit())).collect();
            if !problems.is_empty() {
                self.add(Some(i + 1), "labels in the reading's unit", problems);
            }
        }
    }

    /// A performed list's expectations (one check each) and its errors (one failed check).
    fn performed(&mut self, step: Option<usize>, list: &str, performed: &Performed) {
        for o in &performed.outcomes {
            if let Some(diffs) = &o.check {
                let what = format!("{list} step {} ({}) expect", o.step, o.label);
                self.add(step, what, diffs.clone());
            }
        }
        if !performed.errors.is_empty() {
            self.add(step, format!("{list} runs"), performed.errors.clone());
        }
    }
}

impl Lesson {
    /// Plays the lesson headlessly on a fresh `Sim` and reports every check.
    pub fn verify(&self) -> Report {
        self.verify_on(Sim::new(self.scenario.seed)).1
    }

    /// Plays the lesson headlessly on `story` (fresh, seeded with the scenario's seed); returns
    /// the story as the play left it, for its event log.
    pub fn verify_on<S: Story>(&self, mut story: S) -> (S, Report) {
        let mut report = Report::default();
        let mut session = match Session::start(self.clone(), &mut story) {
            Ok((session, performed)) => {
                report.performed(None, "scenario", &performed);
                session
            }
            Err(e) => {
                report.add(None, "scenario", vec![e]);
                return (story, report);
            }
        };
        // The story as each step begins and once it has run, for what the stage draws.
        let mut seen: Vec<(usize, Snapshot, Snapshot)> = Vec::new();
        loop {
            let n = Some(session.step_index() + 1);
            let before = story.sim().snapshot_limited(0);
            report.step_starts.push(story.sim().events().len());
            let begun = story.sim().now();
            let kind = session.step().kind.clone();
            match &kind {
                StepKind::Narration | StepKind::Remember { .. } => {}
                StepKind::Run { facts, .. } => {
                    let performed = session.perform(&mut story);
                    report.performed(n, "run", &performed);
                    report.facts(n, facts, &session.goals(story.sim()));
                }
                StepKind::Predict(p) => {
                    let performed = session.perform(&mut story);
                    report.performed(n, "run", &performed);
                    let answer = session.answer(story.sim()).expect("invariant: a predict step has an answer");
                    let problems = match (&answer.value, answer.matching.as_slice()) {
                        (Err(why), _) => vec![format!("the probe {} has no value: {why}", p.probe.describe())],
                        (Ok(_), [one]) if *one == p.right => Vec::new(),
                        (Ok(v), []) => vec![format!("{} is {v}, which matches no choice", p.probe.describe())],
                        (Ok(v), ids) => vec![format!(
                            "{} is {v}, which makes {} right, but the lesson marks \"{}\" right",
                            p.probe.describe(),
                            ids.iter().map(|i| format!("\"{i}\"")).collect::<Vec<_>>().join(" and "),
                            p.right
                        )],
                    };
                    report.add(n, format!("prediction (right: \"{}\")", p.right), problems);
                    report.read(&answer.value);
                    report.facts(n, &p.facts, &session.goals(story.sim()));
                }
                StepKind::Checkpoint(_) => {
                    let mut problems = Vec::new();
                    if session.reached(story.sim()) {
                        problems.push("every goal already holds before the learner acts".to_string());
                    }
                    let performed = session.show_me(&mut story);
                    report.performed(n, "solution", &performed);
                    for goal in session.goals(story.sim()).into_iter().filter(|g| !g.holds) {
                        let value = match &goal.value {
                            Ok(v) => v.to_string(),
                            Err(e) => format!("no value ({e})"),
                        };
                        problems
                            .push(format!("after the solution, the goal \"{}\" does not hold: {value}", goal.label));
                    }
                    report.add(n, "checkpoint", problems);
                }
            }
            // The stage draws a producer's design: the producer exists once the step has run.
            if let Some(stage) = session.step().stage.clone() {
                let exists = story.sim().world_view().producers.iter().any(|p| p.name == stage);
                let problems = if exists {
                    Vec::new()
                } else {
                    vec![format!("the stage names producer \"{stage}\", which does not exist when the step has run")]
                };
                report.add(n, format!("stage \"{stage}\""), problems);
            }
            // A pace window slows the run for its moment: it must lie inside the run.
            let pace = &session.step().pace;
            if !pace.is_empty() {
                let ran = story.sim().now().ms().saturating_sub(begun.ms());
                let problems = pace
                    .iter()
                    .filter(|w| w.to_ms > ran)
                    .map(|w| format!("a window ends {} ms into the run, which lasts {ran} ms", w.to_ms))
                    .collect();
                report.add(n, "pace", problems);
            }
            seen.push((session.step_index(), before, story.sim().snapshot_limited(0)));
            if !session.next(story.sim()) {
                break;
            }
        }
        report.names_drawn(&self.steps, &seen);
        report.labels(&self.steps);
        (story, report)
    }
}
