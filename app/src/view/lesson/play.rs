//! One lesson being played, in plain Rust with no signals: the engine's [`Session`] and what the
//! page shows around it (the learner's answer, the engine's verdict, where the step's run ends).
//! The engine decides every answer and every goal; this only keeps the order of things: a run
//! is performed on the story at once, then the story is sought back to where it began, and the
//! page's clock plays it forward on the diagram until [`Play::until`] (the recorded commands
//! replay on the way, the state at the end is exactly the performed one).

use crate::playground::Playground;
use engine::lesson::{Answer, GoalStatus, Judgement, Lesson, Session, StepKind};
use engine::SimTime;

/// Where the current step stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// Narration and remember screens, and a checkpoint waiting for the learner.
    #[default]
    Ready,
    /// A prediction waiting for the learner's answer.
    Asking,
    /// The step's run (or a checkpoint's solution) plays on the diagram until `until`.
    Playing,
    /// The run has played: the facts (and for a prediction the verdict) are shown.
    Shown,
}

/// The lesson player as the page holds it.
#[derive(Clone, Debug)]
pub struct Play {
    pub session: Session,
    pub phase: Phase,
    /// The learner's committed answer: a choice id, or a typed number as text.
    pub given: Option<String>,
    /// The engine's answer, read right after the run was performed.
    pub answer: Option<Answer>,
    /// A run or prediction step's facts, read at the same moment.
    pub facts: Vec<GoalStatus>,
    /// Where the run being played ends.
    pub until: Option<SimTime>,
    /// The last moment of the run at which the diagram changes (its last event): after it,
    /// the run holds for [`HOLD_MS`] of wall time and then shows its result (no dead air).
    pub last_change: Option<SimTime>,
    /// How much of the run's story, in virtual ms, was passed over because nothing changed.
    pub passed_ms: u64,
    /// Where the step's latest run ended (kept once it has played, unlike `until`).
    pub ran_until: Option<SimTime>,
    /// Where it began, and how it is paced: the speed (an index of `SPEEDS`) it plays at outside
    /// the step's pace windows, and the window it is in now, by where it begins (`None`:
    /// outside them).
    pub from: SimTime,
    pub base_speed: usize,
    pub window: Option<u64>,
    /// A checkpoint's clock waits for the learner's first command: the number of their
    /// commands when it opened (`None` once the clock has started, or outside a checkpoint).
    pub clock_waits: Option<usize>,
    /// In a checkpoint, the number of the learner's commands the diagram was last brought into
    /// view for (on a phone each command shows its effect there; `None` outside a checkpoint).
    pub acted: Option<usize>,
    /// What "Show me" did, one line per control used, while its solution plays.
    pub shown: Vec<String>,
    /// Whether the checkpoint's goals have all held once (it stays reached).
    pub reached: bool,
    /// What went wrong performing the step (an action the engine refused), one line each.
    pub errors: Vec<String>,
    /// What the step's own run had refused on purpose (an action with `expect_error`): the
    /// action and AWS's words, shown with the facts, so a text that says "which is refused"
    /// is seen to be.
    pub refused: Vec<String>,
}

impl Play {
    /// Opens `lesson` at `step` (0-based) on a fresh story, playing the lesson's own path to it.
    /// `source` is the starting scenario's file (see [`Playground::from_lesson`]).
    pub fn open(lesson: Lesson, source: String, step: usize) -> Result<(Playground, Play), String> {
        let (mut pg, session) = Playground::from_lesson(lesson, source, step)?;
        let mut play = Play::fresh(session);
        play.enter(&mut pg);
        Ok((pg, play))
    }

    fn fresh(session: Session) -> Play {
        let phase = match session.step().kind {
            StepKind::Predict(_) => Phase::Asking,
            _ => Phase::Ready,
        };
        Play {
            session,
            phase,
            given: None,
            answer: None,
            facts: Vec::new(),
            until: None,
            last_change: None,
            passed_ms: 0,
            ran_until: None,
            from: SimTime::ZERO,
            base_speed: 0,
            window: None,
            clock_waits: None,
            acted: None,
            shown: Vec::new(),
            reached: false,
            errors: Vec::new(),
            refused: Vec::new(),
        }
    }

    /// What a step does as it opens: a `run` step performs its run.
    fn enter(&mut self, pg: &mut Playground) {
        if matches!(self.session.step().kind, StepKind::Run { .. }) {
            self.perform(pg);
        }
    }

    /// 1-based step number and the number of steps.
    pub fn position(&self) -> (usize, usize) {
        (self.session.step_index() + 1, self.session.lesson().steps.len())
    }

    /// The lesson's id.
    pub fn id(&self) -> &str {
        &self.session.lesson().id
    }

    /// The lesson's title.
    pub fn title(&self) -> &str {
        &self.session.lesson().title
    }

    /// Performs the step's own run, reads the engine's answer and facts at its end, then seeks
    /// the story back to where it began, for the page to play it forward.
    fn perform(&mut self, pg: &mut Playground) {
        let from = pg.now();
        let performed = self.session.perform(pg.story());
        self.refused = refused(&performed.outcomes);
        self.errors = performed.errors;
        self.answer = self.session.answer(pg.sim());
        self.facts = self.session.goals(pg.sim());
        self.play_back(pg, from);
    }

    /// Seeks back to `from` and lets the page play to where the story now stands.
    fn play_back(&mut self, pg: &mut Playground, from: SimTime) {
        let to = pg.now();
        self.last_change = pg.events().iter().rev().map(|e| e.at).find(|at| *at >= from && *at <= to);
        pg.seek(from);
        (self.until, self.ran_until, self.from, self.window) = (Some(to), Some(to), from, None);
        self.passed_ms = 0;
        self.phase = Phase::Playing;
    }

    /// The learner commits an answer to the prediction: the run is performed.
    pub fn commit(&mut self, pg: &mut Playground, given: &str) {
        if self.phase == Phase::Asking && !given.trim().is_empty() {
            self.given = Some(given.trim().to_string());
            self.perform(pg);
        }
    }

    /// The verdict on the committed answer, once the run has played.
    pub fn judgement(&self) -> Option<Judgement<'_>> {
        let StepKind::Predict(p) = &self.session.step().kind else { return None };
        let (answer, given) = (self.answer.as_ref()?, self.given.as_deref()?);
        (self.phase == Phase::Shown).then(|| answer.judge(p, given))
    }

    /// While the run plays, the speed to switch to at `now`, when `now` crosses into or out
    /// of one of the step's pace windows; `None` otherwise (so a speed the learner picks within
    /// a stretch stays theirs).
    pub fn pace_switch(&mut self, now: SimTime) -> Option<usize> {
        self.until?;
        let pace = &self.session.step().pace;
        let t = now.ms().saturating_sub(self.from.ms());
        let window = engine::lesson::Pace::at(pace, t);
        if window.map(|w| w.from_ms) == self.window {
            return None;
        }
        self.window = window.map(|w| w.from_ms);
        Some(window.map_or(self.base_speed, |w| speed_index(w.speed)))
    }

    /// The speed (an index of `SPEEDS`) the run plays at `t`: its pace window's, or its base.
    pub fn speed_at(&self, t: SimTime) -> usize {
        let since = t.ms().saturating_sub(self.from.ms());
        engine::lesson::Pace::at(&self.session.step().pace, since).map_or(self.base_speed, |w| speed_index(w.speed))
    }

    /// Where the playback of the run stops and the result shows: [`HOLD_MS`] of wall time
    /// after the run's last change (at the speed it plays there), or the run's end if sooner.
    /// What follows the last change is quiet: the story is then sought to the run's end, so the
    /// state shown is exactly the performed one.
    pub fn shown_until(&self) -> Option<SimTime> {
        self.until.map(|until| self.shown_within(until))
    }

    fn shown_within(&self, until: SimTime) -> SimTime {
        let Some(last) = self.last_change else { return self.from.min(until) };
        let per_4ms = crate::playground::SPEEDS[self.speed_at(last)].1;
        last.plus_ms(HOLD_MS * per_4ms / 4).min(until)
    }

    /// The latest run's plan, in virtual ms, as the page plays it: where it began, its last
    /// change, where its result shows, where it ends, and the speed at its last change (virtual
    /// ms per 4 real ms, as `SPEEDS`). `None` before the step has run anything.
    pub fn plan(&self) -> Option<(u64, Option<u64>, u64, u64, u64)> {
        let until = self.ran_until?;
        let speed = crate::playground::SPEEDS[self.speed_at(self.last_change.unwrap_or(self.from))].1;
        let last = self.last_change.map(SimTime::ms);
        Some((self.from.ms(), last, self.shown_within(until).ms(), until.ms(), speed))
    }

    /// "Show me": performs the checkpoint's recorded solution and plays it.
    pub fn show_me(&mut self, pg: &mut Playground) {
        if matches!(self.session.step().kind, StepKind::Checkpoint(_)) && self.phase == Phase::Ready {
            if let StepKind::Checkpoint(c) = &self.session.step().kind {
                self.shown = c.solution.iter().filter_map(said).collect();
            }
            // From the story as the step opened: what the learner did since (half a fix, or a
            // moment missed while time ran) cannot make the recorded solution fail.
            pg.reset();
            self.clock_waits = None;
            self.acted = None;
            let from = pg.now();
            let performed = self.session.show_me(pg.story());
            self.errors = performed.errors;
            self.play_back(pg, from);
        }
    }

    /// The run being played reaches its end now (the page's clock got there, or the learner
    /// moved on): the story stands exactly where the run left it.
    pub fn finish(&mut self, pg: &mut Playground) {
        if let Some(t) = self.until.take() {
            if pg.now() != t {
                pg.seek(t);
            }
            self.phase = match self.session.step().kind {
                StepKind::Checkpoint(_) => Phase::Ready,
                _ => Phase::Shown,
            };
        }
        self.check(pg);
    }

    /// Re-reads the checkpoint's goals; true when they have just been reached.
    pub fn check(&mut self, pg: &Playground) -> bool {
        let now = !self.reached && self.session.reached(pg.sim());
        self.reached |= now;
        now
    }

    /// Whether the learner may go on: a prediction once answered and played, a checkpoint once
    /// reached, a run once played, never past the last screen.
    pub fn can_continue(&self) -> bool {
        !self.session.at_end()
            && match self.session.step().kind {
                StepKind::Predict(_) => self.phase == Phase::Shown,
                StepKind::Checkpoint(_) => self.reached,
                _ => true,
            }
    }

    /// To the next step (finishing a run still playing). False when the learner may not go on.
    pub fn next(&mut self, pg: &mut Playground) -> bool {
        if self.phase == Phase::Playing {
            self.finish(pg);
        }
        if !self.can_continue() {
            return false;
        }
        let mut session = self.session.clone();
        if !session.next(pg.sim()) {
            return false;
        }
        pg.mark_step_start();
        *self = Play::fresh(session);
        self.enter(pg);
        true
    }
}

// The lessons use CloudWatch alarms: the lesson page has them, the routes build does not.
#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "play_tests.rs"]
mod tests;

/// The actions of a run that failed as their step expected (`expect_error`): "Action: AWS's
/// message", one line each.
pub fn refused(outcomes: &[engine::scenario::StepOutcome]) -> Vec<String> {
    outcomes
        .iter()
        .filter(|o| o.expects_error)
        .filter_map(|o| match &o.result {
            Some(Err(e)) => Some(format!("{}: {}", o.label, e.message)),
            _ => None,
        })
        .collect()
}

/// The index in `SPEEDS` of `speed` virtual seconds per real second (`SPEEDS[i].1` counts
/// quarters of a virtual ms per real ms: 4 is 1×).
pub fn speed_index(speed: u32) -> usize {
    use crate::playground::SPEEDS;
    SPEEDS.iter().position(|s| s.1 >= u64::from(speed) * 4).unwrap_or(SPEEDS.len() - 1)
}

/// How long, in real ms, a run holds after its last change before its result shows.
pub const HOLD_MS: u64 = 1_500;

/// A run's stretches outside its pace windows play longest this long, in real ms: the step's
/// own speed when they fit, else the slowest speed at which they do, else the fastest.
pub const RUN_MS: u64 = 30_000;

/// The speed (an index of `SPEEDS`) a run of `span_ms`, `covered_ms` of it in pace windows,
/// plays at outside them, for a step whose speed is `speed`. A long run is played fast, never
/// skipped: what it shows would be hidden otherwise (the learner can skip it).
pub fn run_speed(span_ms: u64, covered_ms: u64, speed: u32) -> usize {
    crate::playground::fitting_speed(speed_index(speed), span_ms.saturating_sub(covered_ms), RUN_MS)
}

/// A step of a checkpoint's solution as the control a learner would use for it, in words:
/// "+ Worker on sms", "Publish to order-events", "let 30 s pass". Reads (`Get…`, `Describe…`,
/// `List…`) say nothing.
pub fn said(step: &engine::scenario::Step) -> Option<String> {
    use engine::scenario::Step;
    let (action, params) = match step {
        Step::Advance { ms, .. } => return Some(format!("Play for {}", crate::format::duration(*ms))),
        Step::Action { action, params, .. } => (action.as_str(), params),
    };
    if ["Get", "Describe", "List"].iter().any(|r| action.starts_with(r)) {
        return None;
    }
    let name = |keys: &[&str]| keys.iter().find_map(|k| params.get(*k).and_then(|v| v.as_str())).map(short);
    let on = name(&[
        "QueueUrl",
        "QueueName",
        "TopicArn",
        "FunctionName",
        "WorkerName",
        "DependencyName",
        "ProducerName",
        "Name",
        "SubscriptionArn",
        "EventBusName",
    ]);
    let flag = |key: &str| params.get(key).and_then(|v| v.as_bool().or_else(|| v.as_str().map(|s| s == "true")));
    Some(match (action, on) {
        ("CreateWorker", Some(q)) => format!("+ Worker on {q}"),
        ("Publish", Some(t)) => format!("Publish to {t}"),
        ("PublishBatch", Some(t)) => {
            let n = params.get("PublishBatchRequestEntries").and_then(|e| e.as_array()).map_or(0, Vec::len);
            format!("Publish {} to {t}", crate::format::count(n as u64, "event", "events"))
        }
        ("UpdateDependency", Some(d)) => match flag("Down") {
            Some(true) => format!("Take {d} down"),
            Some(false) => format!("Bring {d} back"),
            None => format!("Change {d}'s settings"),
        },
        ("PauseWorker", Some(w)) => format!("Pause {w}"),
        ("ResumeWorker", Some(w)) => format!("Resume {w}"),
        ("DeleteMessage", Some(q)) => format!("Delete the message from {q}"),
        ("CreateQueue", Some(q)) => format!("Create the queue {q}"),
        ("CreateProducer", Some(p)) => format!("Start {p}"),
        ("UpdateEventSourceMapping", _) => "Change the function's queue mapping".to_string(),
        ("SetSubscriptionAttributes", _) => {
            let attribute = params.get("AttributeName").and_then(|v| v.as_str()).unwrap_or("an attribute");
            format!("Set {attribute} on the subscription")
        }
        ("StartReplay", _) => "Replay the archive".to_string(),
        ("CrashWorker", Some(w)) => format!("Crash {w}"),
        ("RestartWorker", Some(w)) => format!("Restart {w}"),
        ("DeleteWorker", Some(w)) => format!("Remove {w}"),
        ("UpdateWorker", Some(w)) => format!("Change {w}'s settings"),
        ("ReceiveMessage", Some(q)) => format!("Receive from {q}"),
        ("SendMessage" | "SendMessageBatch", Some(q)) => format!("Send to {q}"),
        ("PurgeQueue", Some(q)) => format!("Purge {q}"),
        ("StartMessageMoveTask", _) => "Redrive the dead-letter queue".to_string(),
        ("PlaceOrder", _) => {
            let service = params.get("ServiceName").and_then(|v| v.as_str()).unwrap_or("the order service");
            format!("Place an order with {service}")
        }
        ("PutMetricAlarm", _) => "Create the alarm".to_string(),
        ("SetQueueAttributes", Some(q)) => {
            let names = params
                .get("Attributes")
                .and_then(|a| a.as_object())
                .map(|a| a.keys().cloned().collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            format!("Set {names} on {q}")
        }
        (action, Some(on)) => format!("{action} on {on}"),
        (action, None) => action.to_string(),
    })
}

/// A resource's name from its ARN or queue URL (the part after the last `:` or `/`).
fn short(s: &str) -> String {
    s.rsplit([':', '/']).next().unwrap_or(s).to_string()
}

#[cfg(test)]
mod said_tests {
    use engine::lesson::{Lesson, StepKind};

    /// Every step of every checkpoint's solution, as "Show me" lists it, in the words of the
    /// page's controls: never an API action's name ("PublishBatch", "UpdateDependency").
    #[test]
    fn show_me_says_every_solution_step_in_a_learners_words() {
        let public = concat!(env!("CARGO_MANIFEST_DIR"), "/../public");
        let scenarios: Vec<(String, String)> = crate::playground::BUILTIN
            .iter()
            .map(|(id, _)| (id.to_string(), std::fs::read_to_string(format!("{public}/scenarios/{id}.json")).unwrap()))
            .collect();
        let builtins: Vec<(&str, &str)> = scenarios.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let mut files: Vec<_> =
            std::fs::read_dir(format!("{public}/lessons")).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        let mut said = 0;
        for path in files.iter().filter(|p| !p.ends_with("index.json")) {
            let lesson = Lesson::parse(&std::fs::read_to_string(path).unwrap(), &builtins).unwrap();
            for (n, step) in lesson.steps.iter().enumerate() {
                let StepKind::Checkpoint(c) = &step.kind else { continue };
                for s in &c.solution {
                    let Some(line) = super::said(s) else { continue };
                    said += 1;
                    if let engine::scenario::Step::Action { action, .. } = s {
                        let api_word = action.chars().filter(char::is_ascii_uppercase).count() > 1;
                        assert!(
                            !(api_word && line.contains(action.as_str())),
                            "{} step {}: Show me says {line:?}",
                            lesson.id,
                            n + 1
                        );
                    }
                }
            }
        }
        assert!(said > 20, "{said} solution steps said");
    }

    #[test]
    fn a_provider_taken_down_and_brought_back_reads_as_what_the_learner_does() {
        let step = |down: bool| engine::scenario::Step::Action {
            action: "UpdateDependency".into(),
            params: serde_json::json!({"DependencyName": "email-b", "Down": down}),
            expect: None,
            expect_error: None,
            save: Vec::new(),
            templated: false,
        };
        assert_eq!(super::said(&step(true)).as_deref(), Some("Take email-b down"));
        assert_eq!(super::said(&step(false)).as_deref(), Some("Bring email-b back"));
    }
}
