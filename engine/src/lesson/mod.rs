//! Lessons: guided tutorials as data. A lesson file (`public/lessons/<id>.json`, listed in order
//! in `public/lessons/index.json`) names its starting scenario and a list of steps:
//!
//! ```json
//! {"lesson": "visibility-timeout", "title": "…", "summary": "…", "minutes": 8, "speed": 4,
//!  "scenario": "crash-visibility",
//!  "steps": [
//!   {"kind": "narration", "text": "A worker holds order 4417 for *20 s*."},
//!   {"kind": "predict", "text": "…", "question": "…", "run": [{"advance": "5s"}],
//!    "probe": {"queue": "packing", "field": "visible"},
//!    "choices": [{"id": "zero", "label": "0", "is": 0, "why": "…"}, {"id": "one", "label": "1", "is": 1, "why": "…"}],
//!    "right": "zero", "reveal": "…"},
//!   {"kind": "run", "text": "…", "run": [...], "facts": [{"probe": {...}, "is": 2}]},
//!   {"kind": "checkpoint", "text": "…", "goals": [{"label": "…", "probe": {...}, "is": "Crashed"}],
//!    "hint": "…", "hint_after": 30, "solution": [{"action": "CrashWorker", "params": {...}}], "done": "…"},
//!   {"kind": "remember", "lines": ["…"], "read": [{"title": "…", "url": "https://docs.aws.amazon.com/…"}]}]}
//! ```
//!
//! A step's `run` and a checkpoint's `solution` are scenario steps, run through the scenario
//! pipeline ([`crate::scenario::Scenario::run_on`]'s loop) on the lesson's story, with the values
//! the scenario and earlier steps saved. A prediction's right answer is not text: it is the
//! choice whose test the engine's value passes, and [`Lesson::verify`] (what `fanout test` runs)
//! fails when that is not the choice the file marks `right`.
//!
//! Files: `parse.rs` (the format and its checks), `markup.rs` (`*emphasis*` and `` `code` ``),
//! `probe.rs` (what a check reads), `test.rs` (what it is checked against), `session.rs` (the
//! player the page and the tests drive), `verify.rs` (the headless play of `fanout test`),
//! `index.rs` (`index.json`), `drawn.rs` (what the stage draws, and that the text names
//! nothing else).

pub mod drawn;
pub mod index;
pub mod markup;
pub(crate) mod parse;
pub mod probe;
mod session;
pub mod test;
#[cfg(test)]
mod tests;
pub mod unit;
mod verify;

pub use index::{GlossaryEntry, LessonIndex, LessonListing, Part};
pub use probe::Probe;
pub use session::{Answer, GoalStatus, Judgement, Performed, Session};
pub use test::Test;
pub use verify::{LessonCheck, Report};

use crate::scenario::{Scenario, Step};

/// A parsed and checked lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// Lowercase letters, digits and hyphens: the file's name without `.json`.
    pub id: String,
    pub title: String,
    /// One line for the lesson list.
    pub summary: String,
    /// How long it takes a newcomer.
    pub minutes: u32,
    /// The suggested playback speed: virtual seconds per real second (1 to 64, a power of two).
    pub speed: u32,
    /// The built-in scenario it starts from, or `None` for an inline one.
    pub scenario_id: Option<String>,
    /// The starting scenario itself.
    pub scenario: Scenario,
    pub steps: Vec<LessonStep>,
}

/// One screen of a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonStep {
    /// What the page shows (markup: [`markup::spans`]). Empty only on a `remember` step.
    pub text: String,
    /// This step's playback speed, when it differs from the lesson's.
    pub speed: Option<u32>,
    /// The producer whose design the diagram draws while the step is shown (`"stage"`): its
    /// calls (Chain), its queue (SingleQueue) or its topic and what that feeds (FanOut), and
    /// nothing else the world holds. `None`: the whole world.
    pub stage: Option<String>,
    /// Resources the step's text names before they are drawn (`"appears"`): its run makes them,
    /// and its text says so ("once you commit, the bus gets two rules"). Every other resource a
    /// step names is drawn while its text is shown (see [`drawn`]).
    pub appears: Vec<String>,
    /// Where the step's run slows down for the moment its text is about (`"pace"`), in order.
    pub pace: Vec<Pace>,
    pub kind: StepKind,
}

/// A stretch of a step's run played at its own speed: from `from_ms` to `to_ms` after the run
/// begins (virtual time), at `speed` virtual seconds per real second. The rest of the run plays
/// at the step's speed, or faster when it would take long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    pub from_ms: u64,
    pub to_ms: u64,
    pub speed: u32,
}

impl Pace {
    /// The window `t_ms` (since the run began) falls in, if any.
    pub fn at(pace: &[Pace], t_ms: u64) -> Option<&Pace> {
        pace.iter().find(|p| p.from_ms <= t_ms && t_ms < p.to_ms)
    }

    /// How much of a run of `span_ms` the windows cover.
    pub fn covered(pace: &[Pace], span_ms: u64) -> u64 {
        pace.iter().map(|p| p.to_ms.min(span_ms).saturating_sub(p.from_ms)).sum()
    }
}

/// What a step does.
#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    /// Text only; the learner continues.
    Narration,
    /// The lesson acts itself, then states facts the engine checks.
    Run { run: Vec<Step>, facts: Vec<Check> },
    /// A question asked before the step's run; the engine's value after it decides the answer.
    Predict(Prediction),
    /// The lesson waits until the learner reaches the goals.
    Checkpoint(Checkpoint),
    /// The last screen: a few rules and what to read next.
    Remember { lines: Vec<String>, read: Vec<DocLink> },
}

impl StepKind {
    /// `narration`, `run`, `predict`, `checkpoint` or `remember`, as in the file.
    pub fn name(&self) -> &'static str {
        match self {
            StepKind::Narration => "narration",
            StepKind::Run { .. } => "run",
            StepKind::Predict(_) => "predict",
            StepKind::Checkpoint(_) => "checkpoint",
            StepKind::Remember { .. } => "remember",
        }
    }
}

/// A probe and the test its value must pass, with what the page shows for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The line on the checklist (goals), or the fact in words (facts, optional there).
    pub label: String,
    pub probe: Probe,
    pub test: Test,
    /// `"after": "<another check's label>"`: this check holds only once that one holds too. A
    /// goal about an outcome ("no slip printed twice", "still there after 2 minutes") is then
    /// not shown met before the thing it speaks of has happened. The index of that check.
    pub after: Option<usize>,
}

/// Predict, then see.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub question: String,
    /// Pick a choice, or type a whole number.
    pub answer: AnswerMode,
    /// What runs after the learner commits.
    pub run: Vec<Step>,
    /// What decides the right answer, read after the run.
    pub probe: Probe,
    pub choices: Vec<Choice>,
    /// The id of the choice the author believes right; `fanout test` checks it against the engine.
    pub right: String,
    /// Shown after the answer, whichever it was.
    pub reveal: String,
    /// Facts shown with the reveal, checked like a run step's.
    pub facts: Vec<Check>,
}

/// How the learner answers a prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerMode {
    Choice,
    /// A typed whole number; the choices explain the expected and the tempting values.
    Number,
}

/// One answer to a prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub id: String,
    pub label: String,
    /// The engine's value makes this choice right when it passes this test.
    pub test: Test,
    /// Why it is right, or why it was tempting and wrong.
    pub why: String,
}

/// A goal the learner reaches by acting.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Shown as a checklist, each line ticking when it holds (events count since the step began).
    pub goals: Vec<Check>,
    pub hint: String,
    /// Seconds of the learner's time before the hint appears.
    pub hint_after_s: u32,
    /// What "show me" performs.
    pub solution: Vec<Step>,
    /// Shown when every goal holds.
    pub done: String,
    /// The controls the checkpoint asks for, shown beside it (`"controls": ["retention:sms-dlq",
    /// "add-worker:packing"]`): what the learner needs within reach of the step, not only on a
    /// queue card below the fold.
    pub controls: Vec<Reach>,
}

/// A control a checkpoint puts within reach: what it acts on, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// "+ Worker" on a queue.
    AddWorker(String),
    /// ReceiveMessage on a queue, as a consumer would.
    Receive(String),
    /// StartMessageMoveTask from a dead-letter queue back to its sources.
    Redrive(String),
    Purge(String),
    /// A queue's settings.
    Visibility(String),
    Retention(String),
    MaxReceive(String),
    /// A worker's buttons: crash or restart, pause or resume.
    Worker(String),
    /// StartReplay of an EventBridge archive, everything it keeps up to now, to its bus.
    Replay(String),
    /// A dependency taken down and brought back (UpdateDependency's `Down`), as an outage would.
    Dependency(String),
    /// The page's Publish of one of the scenario's events (its preset, by name), beside the
    /// checkpoint: on a phone the page's own Publish is a screen away.
    Publish(String),
    /// A worker made idempotent: the event id and the effect in one transaction
    /// (UpdateWorker's `Idempotency` `Atomic`), as the inspector's button does.
    Idempotent(String),
}

impl Reach {
    /// The kinds a lesson file may name, as it writes them.
    pub const KINDS: &'static [&'static str] = &[
        "add-worker",
        "receive",
        "redrive",
        "purge",
        "visibility",
        "retention",
        "max-receive",
        "worker",
        "replay",
        "dependency",
        "publish",
        "idempotent",
    ];

    /// Reads `"<kind>:<name>"`.
    pub fn parse(text: &str) -> Result<Reach, String> {
        let (kind, name) = text.split_once(':').filter(|(_, n)| !n.is_empty()).ok_or_else(|| {
            format!("\"{text}\" is not \"<control>:<name>\" (a control is one of {})", Reach::KINDS.join(", "))
        })?;
        let name = name.to_string();
        Ok(match kind {
            "add-worker" => Reach::AddWorker(name),
            "receive" => Reach::Receive(name),
            "redrive" => Reach::Redrive(name),
            "purge" => Reach::Purge(name),
            "visibility" => Reach::Visibility(name),
            "retention" => Reach::Retention(name),
            "max-receive" => Reach::MaxReceive(name),
            "worker" => Reach::Worker(name),
            "replay" => Reach::Replay(name),
            "dependency" => Reach::Dependency(name),
            "publish" => Reach::Publish(name),
            "idempotent" => Reach::Idempotent(name),
            other => return Err(format!("\"{other}\" is not a control (they are {})", Reach::KINDS.join(", "))),
        })
    }
}

/// An AWS documentation page to read next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocLink {
    pub title: String,
    /// Always under `https://docs.aws.amazon.com/`.
    pub url: String,
}

/// A lesson file that cannot be used, with where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    /// 1-based step number, when the problem is in a step.
    pub step: Option<usize>,
    /// The step's kind, when known.
    pub kind: Option<&'static str>,
    /// The field, as a dotted path within the step or the file (`choices[2].why`).
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.step, self.kind) {
            (Some(n), Some(k)) => write!(f, "step {n} ({k}): ")?,
            (Some(n), None) => write!(f, "step {n}: ")?,
            _ => {}
        }
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for LessonError {}

/// What a JSON file the CLI is given holds, told by its top-level keys, read once (a large
/// scenario file is not parsed again for each kind it is not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Lesson,
    Index,
    Interview,
    /// An incident drill (`"drill"`, [`crate::drill`]).
    Drill,
    /// The drill index (`"drills"`).
    DrillIndex,
    /// Anything else: read as a scenario (which says what is wrong with it).
    Scenario,
}

/// The kind of file `text` is: a lesson (`"lesson"`), the lesson index (`"lessons"`), an
/// interview walkthrough (`"interview"` holding a text), a drill (`"drill"`), the drill index
/// (`"drills"`), else a scenario.
pub fn kind_of(text: &str) -> FileKind {
    let keys = parse::top_level_keys(text).unwrap_or_default();
    let has = |key: &str| keys.iter().any(|k| k == key);
    if has("lesson") {
        FileKind::Lesson
    } else if has("lessons") {
        FileKind::Index
    } else if has("interview") && crate::interview::is_interview(text) {
        FileKind::Interview
    } else if has("drill") {
        FileKind::Drill
    } else if has("drills") {
        FileKind::DrillIndex
    } else {
        FileKind::Scenario
    }
}

/// Whether a file is a lesson (a top-level `"lesson"` key) rather than a scenario or the index.
/// Reads only the top-level keys; malformed JSON is not a lesson.
pub fn is_lesson(text: &str) -> bool {
    parse::top_level_keys(text).is_some_and(|keys| keys.iter().any(|k| k == "lesson"))
}

/// Whether a file is the lesson index (a top-level `"lessons"` key).
pub fn is_index(text: &str) -> bool {
    parse::top_level_keys(text).is_some_and(|keys| keys.iter().any(|k| k == "lessons"))
}

impl Lesson {
    /// Parses and checks a lesson. `builtins` are the built-in scenarios as (id, file text), as
    /// the page has them (`public/scenarios/<id>.json`); an inline scenario needs none.
    pub fn parse(text: &str, builtins: &[(&str, &str)]) -> Result<Lesson, LessonError> {
        parse::lesson(text, builtins)
    }

    /// The step's playback speed: its own, or the lesson's.
    pub fn speed_of(&self, step: usize) -> u32 {
        self.steps.get(step).and_then(|s| s.speed).unwrap_or(self.speed)
    }
}
