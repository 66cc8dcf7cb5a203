//! The app's logic, in plain Rust with no signals: a story (the engine's `History`) loaded from a
//! scenario file, and the learner's commands, each an AWS action sent to the engine. The view
//! holds one `Playground` in a signal and draws the engine's snapshots. What the page offers for
//! a scenario (its one-click events, the workers it adds) comes from the scenario file.

use engine::filter::{FilterPolicy, FilterPolicyScope};
use engine::history::History;
use engine::lesson::{Lesson, Session};
use engine::scenario::{
    EmbedHint, Press, PublishPreset, PublishPresets, PublishTarget, RunOptions, Scenario, WorkerRules,
};
use engine::snapshot::QueueView;
use engine::{ApiError, Event, SimTime, Snapshot};
use serde_json::{json, Value};

/// The built-in scenarios, in the picker's order: (id, name). The page fetches each file from
/// `scenarios/<id>.json` when it is opened (`crate::fetch::scenario`), so none is compiled into
/// its bundle; a test checks these names against the files.
pub const BUILTIN: &[(&str, &str)] = &[
    ("quilt-store", "The quilt store"),
    ("workers", "Workers: pub-sub and work queues"),
    ("poison-dlq", "Poison message to the DLQ"),
    ("crash-visibility", "Crash and the visibility timeout"),
    ("duplicates", "Duplicates and idempotency"),
    ("fifo-groups", "FIFO groups"),
    ("eventbridge-orders", "EventBridge: rules route by content"),
    ("eventbridge-replay", "EventBridge: archive and replay after a fix"),
    ("webhook-retries", "SNS to a webhook: retries and the subscription DLQ"),
    ("sms-retries", "SMS and e-mail: SNS's short retry schedule"),
    ("lambda-destinations", "Lambda async: retries and destinations"),
    ("lambda-out-of-order", "Lambda async: no order between two invocations"),
    ("retry-amplification", "Lambda from SQS: who owns the retry"),
    ("outbox", "Dual write or outbox"),
];

/// The built-in scenarios' files, compiled in for the native tests and `Playground::builtin`
/// (the page fetches them instead): (id, file contents), in the order of [`BUILTIN`].
pub const SCENARIOS: &[(&str, &str)] = &[
    ("quilt-store", include_str!("../../public/scenarios/quilt-store.json")),
    ("workers", include_str!("../../public/scenarios/workers.json")),
    ("poison-dlq", include_str!("../../public/scenarios/poison-dlq.json")),
    ("crash-visibility", include_str!("../../public/scenarios/crash-visibility.json")),
    ("duplicates", include_str!("../../public/scenarios/duplicates.json")),
    ("fifo-groups", include_str!("../../public/scenarios/fifo-groups.json")),
    ("eventbridge-orders", include_str!("../../public/scenarios/eventbridge-orders.json")),
    ("eventbridge-replay", include_str!("../../public/scenarios/eventbridge-replay.json")),
    ("webhook-retries", include_str!("../../public/scenarios/webhook-retries.json")),
    ("sms-retries", include_str!("../../public/scenarios/sms-retries.json")),
    ("lambda-destinations", include_str!("../../public/scenarios/lambda-destinations.json")),
    ("lambda-out-of-order", include_str!("../../public/scenarios/lambda-out-of-order.json")),
    ("retry-amplification", include_str!("../../public/scenarios/retry-amplification.json")),
    ("outbox", include_str!("../../public/scenarios/outbox.json")),
];

/// The scenario the page opens with.
pub const DEFAULT_SCENARIO: &str = SCENARIOS[0].1;

/// Playback speeds, virtual seconds per real second.
/// Playback speeds: the label, and how many virtual milliseconds pass per 4 wall milliseconds
/// (integers, so no float is ever formatted or rounded for them).
pub const SPEEDS: &[(&str, u64)] =
    &[("0.25×", 1), ("0.5×", 2), ("1×", 4), ("2×", 8), ("4×", 16), ("8×", 32), ("16×", 64), ("32×", 128), ("64×", 256)];

/// How many quiet moments (timers that log nothing) a step passes over looking for one at
/// which something happens.
pub const QUIET_STEPS: usize = 10_000;

/// The index of 1× in [`SPEEDS`].
pub const DEFAULT_SPEED: usize = 2;

/// The slowest speed (an index of [`SPEEDS`], from `from` on) at which `virtual_ms` of story
/// plays within `real_ms` of wall time; the fastest when none does.
pub fn fitting_speed(from: usize, virtual_ms: u64, real_ms: u64) -> usize {
    (from..SPEEDS.len()).find(|&i| virtual_ms * 4 / SPEEDS[i].1 <= real_ms).unwrap_or(SPEEDS.len() - 1)
}

/// What the page's Publish button sends to (`Playground::publish_target`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sends {
    /// Publish to an SNS topic.
    Topic,
    /// PutEvents on an EventBridge bus.
    Bus,
    /// PlaceOrder with an order service (dual write or outbox).
    Service,
}

#[derive(Clone, Debug)]
pub struct Playground {
    pub id: String,
    /// Loaded from a built-in scenario's file (`id` names it), not from the learner's own.
    builtin: bool,
    pub name: String,
    pub description: String,
    history: History,
    source: String,
    /// Commands that built the scenario; undo stops there.
    base: usize,
    /// The scenario's one-click events (its `publish` section).
    publish: Option<PublishPresets>,
    /// The workers "+ Worker" adds (its `workers` section).
    workers: WorkerRules,
    /// The speed the scenario starts at, as an index into [`SPEEDS`] (its `speed`).
    speed: Option<usize>,
    /// What the scenario's compact embed says and offers besides Play (its `embed`).
    embed: Option<EmbedHint>,
    /// In a lesson: the story as the current step began (what Reset goes back to).
    step_start: Option<Box<History>>,
    /// In a drill: what the learner may change, and from when (see [`Limits`]).
    limits: Option<Limits>,
}

/// What a drill lets the learner change: every command the page sends is asked about first,
/// and one the drill does not allow is refused in words, with nothing changed.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The drill's `may_change` (`engine::drill::Allowed`).
    pub may_change: Vec<engine::drill::Allowed>,
    /// When the page arrived: a change before it cannot be judged.
    pub from: SimTime,
}

/// The code of a command a drill refuses.
pub const NOT_ALLOWED: &str = "NotAllowed";

impl Playground {
    /// Builds the story a scenario file describes, exactly as `fanout test` runs it (the
    /// engine's `Scenario::run_on`, on a History): `${name}` values, `save`, `advance` and
    /// `expect_error` steps included. A step whose action fails without `expect_error` is a load
    /// error naming the step, and so is a `save` that does not resolve; an expectation that does
    /// not hold is not (that is for `fanout test` to report).
    pub fn from_scenario(text: &str) -> Result<Playground, String> {
        let scenario = Scenario::parse(text).map_err(|e| e.to_string())?;
        let run = scenario.run_with(RunOptions { event_log: true, responses: false });
        // The engine's rule, the one `fanout test` applies: a `save` that stopped the run, or an
        // action that failed without `expect_error`.
        if let Some(refused) = run.refusal() {
            return Err(refused.to_string());
        }
        let history = run.story;
        Ok(Playground {
            id: String::new(),
            builtin: false,
            name: scenario.name,
            description: scenario.description,
            base: history.commands().len(),
            history,
            source: text.to_string(),
            publish: scenario.publish,
            workers: scenario.workers,
            speed: scenario.speed_quarters.and_then(|q| SPEEDS.iter().position(|s| s.1 == q)),
            embed: scenario.embed,
            step_start: None,
            limits: None,
        })
    }

    /// An empty story (no scenario yet): what the lesson page holds before a lesson opens.
    pub fn blank() -> Playground {
        Playground {
            id: String::new(),
            builtin: false,
            name: String::new(),
            description: String::new(),
            history: History::new(0),
            source: String::new(),
            base: 0,
            publish: None,
            workers: WorkerRules::default(),
            speed: None,
            embed: None,
            step_start: None,
            limits: None,
        }
    }

    /// A lesson's story on a fresh History: its scenario started by the engine's lesson player
    /// and played along the lesson's own path to `step` (0-based; [`Session::resume`]).
    /// `source` is the starting scenario's file (a built-in one's when the lesson names one),
    /// so that a share link of the story replays it in the sandbox.
    pub fn from_lesson(lesson: Lesson, source: String, step: usize) -> Result<(Playground, Session), String> {
        let mut history = History::new(lesson.scenario.seed);
        let (builtin, scenario) = (lesson.scenario_id.clone(), lesson.scenario.clone());
        let mut started = history.clone();
        Session::start(lesson.clone(), &mut started)?;
        let base = started.commands().len();
        let session = Session::resume(lesson, &mut history, step)?;
        let mut pg = Playground {
            id: builtin.clone().unwrap_or_default(),
            builtin: builtin.is_some(),
            name: scenario.name,
            description: scenario.description,
            base,
            source,
            publish: scenario.publish,
            workers: scenario.workers,
            // A lesson sets its own speed, step by step, and its panel is its embed's instruction.
            speed: None,
            embed: None,
            step_start: None,
            limits: None,
            history,
        };
        pg.mark_step_start();
        Ok((pg, session))
    }

    /// A drill's broken world on a fresh History, played to the moment the page arrives
    /// (`Drill::start`). `source` is the world's scenario file. Every command the learner sends
    /// after that is asked about first ([`Limits`]); Reset and Undo stop at the page.
    pub fn from_drill(drill: &engine::drill::Drill, source: String) -> Result<Playground, String> {
        let mut history = History::new(drill.world.seed);
        drill.start(&mut history)?;
        let world = &drill.world;
        let mut pg = Playground {
            id: drill.world_id.clone().unwrap_or_default(),
            builtin: false,
            name: world.name.clone(),
            description: world.description.clone(),
            base: history.commands().len(),
            history,
            source,
            publish: world.publish.clone(),
            workers: world.workers.clone(),
            speed: world.speed_quarters.and_then(|q| SPEEDS.iter().position(|s| s.1 == q)),
            embed: None,
            step_start: None,
            limits: Some(Limits { may_change: drill.may_change.clone(), from: drill.page.at }),
        };
        pg.mark_step_start();
        Ok(pg)
    }

    /// The learner's commands since the story's own (in a drill: since the page), each at the
    /// moment it was made, those ahead of the current moment included: what a drill judges.
    pub fn changes(&self) -> &[engine::history::Command] {
        self.history.commands().get(self.base..).unwrap_or_default()
    }

    /// Why a drill refuses this command, in words; `None` when it may be sent (always, outside
    /// a drill).
    pub fn refusal(&self, action: &str, params: &Value) -> Option<String> {
        let limits = self.limits.as_ref()?;
        if let Some(change) = engine::drill::controls::refused(&limits.may_change, action, params) {
            return Some(format!(
                "Not allowed in this drill: it does not let you change {change}. Nothing was changed."
            ));
        }
        (self.now() < limits.from).then(|| {
            format!(
                "Not allowed before the page arrived at {}: move the timeline past it to change anything.",
                limits.from
            )
        })
    }

    /// What a drill lets the learner change, as its `may_change` spells it; `None` outside a drill.
    pub fn may_change(&self) -> Option<Vec<String>> {
        self.limits.as_ref().map(|l| l.may_change.iter().map(engine::drill::Allowed::as_text).collect())
    }

    /// A read-only action (`Get…`, `Describe…`, `List…`) on the story as it is now: answered by
    /// a copy of the simulation, so nothing is recorded and nothing changes.
    pub fn read(&self, action: &str, params: &Value) -> Result<Value, ApiError> {
        if !engine::drill::controls::reads_only(action) {
            return Err(ApiError::new("InvalidAction", format!("{action} is not a read-only action.")));
        }
        self.history.sim().clone().apply(action, params)
    }

    /// Sends one of the learner's commands to the story; in a drill, only one it allows.
    fn send(&mut self, action: &str, params: &Value) -> Result<Value, ApiError> {
        match self.refusal(action, params) {
            Some(why) => Err(ApiError::new(NOT_ALLOWED, why)),
            None => self.history.apply(action, params),
        }
    }

    /// A lesson's step begins now: Reset comes back here.
    pub fn mark_step_start(&mut self) {
        self.step_start = Some(Box::new(self.history.clone()));
    }

    /// The story itself, for the lesson player (which acts on it through the scenario pipeline).
    pub fn story(&mut self) -> &mut History {
        &mut self.history
    }

    /// One of the built-in scenarios by id.
    pub fn builtin(id: &str) -> Result<Playground, String> {
        let (id, text) = SCENARIOS.iter().find(|(i, _)| *i == id).ok_or_else(|| format!("no scenario \"{id}\""))?;
        Playground::builtin_from(id, text)
    }

    /// The built-in scenario `id` from its file's `text` (as fetched by the page).
    pub fn builtin_from(id: &str, text: &str) -> Result<Playground, String> {
        let mut pg = Playground::from_scenario(text)?;
        pg.id = id.to_string();
        pg.builtin = true;
        Ok(pg)
    }

    /// The same story under another name and description: a lesson's story taken to the
    /// sandbox says where it came from, not what its scenario said before the lesson began. Its
    /// scenario file says them too (then it is the learner's own, not a built-in one's), so a
    /// share link of it keeps them.
    pub fn retitled(mut self, name: &str, description: &str) -> Result<Playground, String> {
        let mut file: serde_json::Value = serde_json::from_str(&self.source).map_err(|e| e.to_string())?;
        let fields = file.as_object_mut().ok_or("the scenario file is not one JSON object")?;
        fields.insert("name".into(), name.into());
        fields.insert("description".into(), description.into());
        self.source = file.to_string();
        self.id = String::new();
        self.builtin = false;
        self.name = name.to_string();
        self.description = description.to_string();
        Ok(self)
    }

    /// What the scenario's compact embed says and offers besides Play (its file's `embed`).
    pub fn embed_hint(&self) -> Option<&EmbedHint> {
        self.embed.as_ref()
    }

    /// Whether the story started from a built-in scenario's file, as shipped.
    pub fn is_builtin(&self) -> bool {
        self.builtin
    }

    /// The story: the engine's History (its seed, commands and current simulation).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The scenario file this story started from, as it was loaded.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// When the scenario was built: its last command's moment (0 s for most). An embed that
    /// plays an author's story from its start seeks here.
    pub fn built_at(&self) -> SimTime {
        self.base.checked_sub(1).and_then(|i| self.history.commands().get(i)).map_or(SimTime(0), |c| c.at)
    }

    /// How many of the story's commands built the scenario (the learner's come after).
    pub fn base(&self) -> usize {
        self.base
    }

    /// The speed the scenario suggests, as an index into [`SPEEDS`]; 1× when it sets none.
    pub fn speed_index(&self) -> usize {
        self.speed.unwrap_or(DEFAULT_SPEED)
    }

    /// Back to the scenario's start (in a lesson, to the start of the current step).
    pub fn reset(&mut self) {
        if let Some(start) = &self.step_start {
            self.history = (**start).clone();
            return;
        }
        if let Ok(fresh) = Playground::from_scenario(&self.source) {
            let id = std::mem::take(&mut self.id);
            *self = Playground { id, ..fresh };
        }
    }

    /// Whether there is a learner's command to take back (the scenario's own setup stays).
    /// In a lesson, undo stops at the start of the current step.
    pub fn can_undo(&self) -> bool {
        let floor = self.step_start.as_ref().map_or(self.base, |h| h.applied().max(self.base));
        self.history.applied() > floor
    }

    pub fn undo(&mut self) -> bool {
        self.can_undo() && self.history.undo()
    }

    /// What Undo would take back: the latest applied command's action and when it was given
    /// (the story goes back to that moment).
    pub fn undoable(&self) -> Option<(String, SimTime)> {
        if !self.can_undo() {
            return None;
        }
        let h = &self.history;
        h.commands().get(h.applied().checked_sub(1)?).map(|c| (c.action.clone(), c.at))
    }

    pub fn snapshot(&self) -> Snapshot {
        self.history.sim().snapshot_limited(200)
    }

    /// The engine now, to read (compare mode measures it).
    pub fn sim(&self) -> &engine::Sim {
        self.history.sim()
    }

    /// What changes when anything but the clock changes (`Sim::view_stamp`).
    pub fn view_stamp(&self) -> (u64, u64) {
        self.history.sim().view_stamp()
    }

    pub fn now(&self) -> SimTime {
        self.history.sim().now()
    }

    /// The events this scenario offers to publish with one click, in order.
    pub fn presets(&self) -> &[PublishPreset] {
        self.publish.as_ref().map_or(&[], |p| p.presets.as_slice())
    }

    /// What Publish sends to, for the page, in the story's `snapshot`: the topic's, the bus's
    /// or the order service's name, whether the topic is FIFO, and which of the three it is.
    /// `None` when there is nothing to publish to.
    pub fn publish_target(&self, snapshot: &Snapshot) -> Option<(String, bool, Sends)> {
        match self.publish.as_ref().map(|p| &p.target) {
            Some(PublishTarget::Bus(bus)) => return Some((bus.clone(), false, Sends::Bus)),
            Some(PublishTarget::Service(s)) => return Some((s.clone(), false, Sends::Service)),
            _ => {}
        }
        let wanted = self.topic_wanted();
        let topic = match wanted {
            Some(w) => snapshot.topics.iter().find(|t| t.name == w || t.arn == w),
            None => snapshot.topics.first(),
        };
        topic.map(|t| (t.name.clone(), t.fifo, Sends::Topic))
    }

    /// The topic the `publish` section names, if it names one.
    /// The topic the `publish` section names (by name or ARN), if it names one: where the
    /// page's Publish sends.
    pub(crate) fn topic_wanted(&self) -> Option<&str> {
        match self.publish.as_ref().map(|p| &p.target) {
            Some(PublishTarget::Topic(t)) => Some(t.as_str()),
            _ => None,
        }
    }

    /// The bus the `publish` section names, if it names one.
    fn bus(&self) -> Option<&str> {
        match self.publish.as_ref().map(|p| &p.target) {
            Some(PublishTarget::Bus(b)) => Some(b.as_str()),
            _ => None,
        }
    }

    /// The topic to publish to (the scenario's `publish.topic`, else its first topic): its
    /// ARN, whether it is FIFO, and how many messages it has had.
    fn topic(&self) -> Result<(String, bool, u64), ApiError> {
        let snapshot = self.history.sim().snapshot_limited(0);
        let wanted = self.topic_wanted();
        let topic =
            match wanted {
                Some(w) => snapshot.topics.iter().find(|t| t.name == w || t.arn == w).ok_or_else(|| {
                    ApiError::new("NotFound", format!("This scenario's topic \"{w}\" does not exist."))
                })?,
                None => snapshot
                    .topics
                    .first()
                    .ok_or_else(|| ApiError::new("NotFound", "This scenario has no topic to publish to."))?,
            };
        Ok((topic.arn.clone(), topic.fifo, topic.published))
    }

    /// How many events the bus `bus` has had (the `{{n}}` of the next one).
    fn bus_events(&self, bus: &str) -> Result<u64, ApiError> {
        let snapshot = self.history.sim().snapshot_limited(0);
        let found = snapshot.eventbridge.buses.iter().find(|b| b.name == bus || b.arn == bus);
        found
            .map(|b| b.received)
            .ok_or_else(|| ApiError::new("NotFound", format!("This scenario's bus \"{bus}\" does not exist.")))
    }

    /// Puts one event on the bus: PutEvents' answer, or its one entry's error as the error.
    fn put_event(&mut self, params: &Value) -> Result<Value, ApiError> {
        let answer = self.send("PutEvents", params)?;
        match answer["Entries"].get(0) {
            Some(e) if e.get("ErrorCode").is_some() => Err(ApiError::new(
                e["ErrorCode"].as_str().unwrap_or_default(),
                e["ErrorMessage"].as_str().unwrap_or_default(),
            )),
            _ => Ok(answer),
        }
    }

    /// Publishes the scenario's preset called `name` to its topic: the preset's body and
    /// attributes, filled in for the topic's next message number and the current time. With a
    /// bus, puts it on the bus as one PutEvents entry.
    pub fn publish(&mut self, name: &str) -> Result<Value, ApiError> {
        let preset =
            self.presets().iter().find(|p| p.name == name).ok_or_else(|| {
                ApiError::new("NotFound", format!("This scenario has no event \"{name}\" to publish."))
            })?;
        if let Some(bus) = self.bus() {
            return self.put_event(&preset.put_events_params(bus, self.bus_events(bus)? + 1, self.now()));
        }
        if let Some(PublishTarget::Service(service)) = self.publish.as_ref().map(|p| &p.target) {
            let service = preset.service.as_deref().unwrap_or(service);
            let snapshot = self.history.sim().snapshot_limited(0);
            let orders =
                snapshot.world.order_services.iter().find(|s| s.name == service).map_or(0, |s| s.db.orders.len());
            let params = preset.place_order_params(service, orders as u64 + 1);
            return self.send("PlaceOrder", &params);
        }
        let (arn, _, published) = self.topic()?;
        let params = preset.params(&arn, published + 1, self.now());
        self.send("Publish", &params)
    }

    /// Publishes a body and attributes written by the learner. `attributes` is the Publish
    /// shape's `MessageAttributes` object, as JSON text (empty for none). With a bus, the body
    /// is the event's detail and `attributes` its source and detail-type, as
    /// `{"Source": …, "DetailType": …}`.
    pub fn publish_custom(&mut self, body: &str, attributes: &str, group: &str) -> Result<Value, ApiError> {
        if let Some(bus) = self.bus().map(str::to_string) {
            let head: Value = serde_json::from_str(attributes).map_err(|e| {
                ApiError::new("InvalidParameter", format!("Source and detail-type are not valid JSON: {e}"))
            })?;
            let entry = json!({"EventBusName": bus, "Source": head["Source"], "DetailType": head["DetailType"], "Detail": body});
            return self.put_event(&json!({"Entries": [entry]}));
        }
        let (arn, fifo, _) = self.topic()?;
        let attributes: Value = if attributes.trim().is_empty() {
            json!({})
        } else {
            serde_json::from_str(attributes)
                .map_err(|e| ApiError::new("InvalidParameter", format!("Message attributes are not valid JSON: {e}")))?
        };
        let mut params = json!({"TopicArn": arn, "Message": body, "MessageAttributes": attributes});
        if fifo || !group.is_empty() {
            params["MessageGroupId"] = json!(group);
        }
        self.send("Publish", &params)
    }

    /// Receives up to ten messages from a queue, as a consumer would (and does not delete them).
    pub fn receive(&mut self, queue: &str) -> Result<Value, ApiError> {
        self.send("ReceiveMessage", &json!({"QueueUrl": queue, "MaxNumberOfMessages": 10}))
    }

    /// Deletes an in-flight message with its latest receipt handle.
    pub fn delete(&mut self, queue: &str, receipt_handle: &str) -> Result<Value, ApiError> {
        self.send("DeleteMessage", &json!({"QueueUrl": queue, "ReceiptHandle": receipt_handle}))
    }

    pub fn purge(&mut self, queue: &str) -> Result<Value, ApiError> {
        self.send("PurgeQueue", &json!({"QueueUrl": queue}))
    }

    /// Moves a dead-letter queue's messages back to their source queues.
    pub fn redrive(&mut self, dlq: &QueueView) -> Result<Value, ApiError> {
        self.send("StartMessageMoveTask", &json!({"SourceArn": dlq.arn, "MaxNumberOfMessagesPerSecond": 5}))
    }

    /// Replays everything `archive` keeps, up to this second, to the bus it archives
    /// (StartReplay), as a team does once a consumer is fixed. It is named `replay-N`, N the
    /// number of commands applied so far: unique in the story, since AWS keeps a replay under
    /// its name and undoing one takes its command away with it.
    pub fn replay(&mut self, archive: &str, bus_arn: &str) -> Result<Value, ApiError> {
        let name = format!("replay-{}", self.history.applied());
        let (start, end) = (engine::time::EPOCH_MS / 1000, (engine::time::EPOCH_MS + self.now().0) / 1000 + 1);
        self.send(
            "StartReplay",
            &json!({
                "ReplayName": name,
                "EventSourceArn": format!("arn:aws:events:us-east-1:000000000000:archive/{archive}"),
                "EventStartTime": start,
                "EventEndTime": end,
                "Destination": {"Arn": bus_arn},
            }),
        )
    }

    pub fn set_queue_attribute(&mut self, queue: &str, name: &str, value: &str) -> Result<Value, ApiError> {
        self.send("SetQueueAttributes", &json!({"QueueUrl": queue, "Attributes": {name: value}}))
    }

    /// Sets a subscription's redrive maxReceiveCount, keeping its dead-letter target.
    pub fn set_max_receive_count(&mut self, q: &QueueView, count: &str) -> Result<Value, ApiError> {
        let dlq = q
            .dead_letter_queue
            .as_deref()
            .ok_or_else(|| ApiError::new("InvalidParameterValue", "This queue has no dead-letter queue."))?;
        self.set_redrive(&q.name, dlq, count)
    }

    /// Sets `queue`'s redrive policy: its dead-letter queue `dlq` after `count` receives.
    pub fn set_redrive(&mut self, queue: &str, dlq: &str, count: &str) -> Result<Value, ApiError> {
        let policy = json!({"deadLetterTargetArn": engine::ids::queue_arn(dlq), "maxReceiveCount": count}).to_string();
        self.set_queue_attribute(queue, "RedrivePolicy", &policy)
    }

    /// Adds a worker (a competing consumer) to a queue, of the kind the scenario's `workers`
    /// section gives that queue (`CreateWorker`'s defaults if it has none). Workers are named
    /// `<queue>-w<n>` and do the job named after the queue unless the rules name one.
    pub fn add_worker(&mut self, queue: &str) -> Result<Value, ApiError> {
        let snapshot = self.history.sim().snapshot_limited(0);
        let stem: String = queue.trim_end_matches(".fifo").chars().map(|c| if c == '.' { '-' } else { c }).collect();
        let n = (1..).find(|n| !snapshot.world.workers.iter().any(|w| w.name == format!("{stem}-w{n}"))).unwrap_or(1);
        let params = self.workers.params(queue, &format!("{stem}-w{n}"), &stem);
        self.send("CreateWorker", &params)
    }

    /// The queue a compact embed's "+ Worker" serves: the first that has no consumer and is no
    /// dead-letter queue.
    pub fn idle_queue(snapshot: &Snapshot) -> Option<String> {
        let consumed = |q: &str| snapshot.world.workers.iter().any(|w| w.queue == q);
        snapshot.queues.iter().find(|q| q.dead_letter_sources.is_empty() && !consumed(&q.name)).map(|q| q.name.clone())
    }

    /// Performs the control a scenario's embed hint names (`engine::scenario::Press`): publishes
    /// the hint's preset (else the first), or adds a worker to [`Playground::idle_queue`].
    pub fn press(&mut self, press: Press) -> Result<Value, ApiError> {
        let missing = |what: &str| ApiError::new("InvalidParameterValue", format!("This story has {what}."));
        match press {
            Press::Publish => {
                let named = self.embed.as_ref().and_then(|h| h.preset.clone());
                let preset = named.or_else(|| self.presets().first().map(|p| p.name.clone()));
                self.publish(&preset.ok_or_else(|| missing("no event to publish"))?)
            }
            Press::AddWorker => {
                let queue =
                    Playground::idle_queue(&self.snapshot()).ok_or_else(|| missing("a worker on every queue"))?;
                self.add_worker(&queue)
            }
        }
    }

    /// `CrashWorker`, `RestartWorker`, `PauseWorker`, `ResumeWorker` or `DeleteWorker`.
    pub fn worker(&mut self, action: &str, name: &str) -> Result<Value, ApiError> {
        self.send(action, &json!({"WorkerName": name}))
    }

    /// Slows a worker down to 20 s a message, or back to 2 s.
    pub fn set_worker_slow(&mut self, name: &str, slow: bool) -> Result<Value, ApiError> {
        let time = if slow { "20s" } else { "2s" };
        self.send("UpdateWorker", &json!({"WorkerName": name, "ProcessingTime": time}))
    }

    /// Sets how a worker guards against doing one event twice (`UpdateWorker`'s `Idempotency`):
    /// `None`, `CheckThenAct` (check the id, act, then record it) or `Atomic` (the id and the
    /// effect in one transaction).
    pub fn set_idempotency(&mut self, name: &str, mode: &str) -> Result<Value, ApiError> {
        self.send("UpdateWorker", &json!({"WorkerName": name, "Idempotency": mode}))
    }

    /// Turns a Lambda event source mapping's `ReportBatchItemFailures` on or off: with it, a
    /// function's answer names the records that failed, and only those go back to the queue.
    pub fn set_report_failures(&mut self, uuid: &str, on: bool) -> Result<Value, ApiError> {
        let types: &[&str] = if on { &["ReportBatchItemFailures"] } else { &[] };
        self.send("UpdateEventSourceMapping", &json!({"UUID": uuid, "FunctionResponseTypes": types}))
    }

    /// Gives `queue` a dead-letter queue: creates `<queue>-dlq` (kept 14 days, the longest
    /// retention) unless it exists, and a redrive policy to it after 5 receives. Both commands
    /// or neither: in a drill, each must be allowed; if the second fails the first is taken back.
    pub fn add_dead_letter_queue(&mut self, queue: &str) -> Result<Value, ApiError> {
        let dlq = match queue.strip_suffix(".fifo") {
            Some(stem) => format!("{stem}-dlq.fifo"),
            None => format!("{queue}-dlq"),
        };
        let exists = self.history.sim().snapshot_limited(0).queues.iter().any(|q| q.name == dlq);
        let mut attributes = json!({"MessageRetentionPeriod": "1209600"});
        if dlq.ends_with(".fifo") {
            attributes["FifoQueue"] = json!("true");
        }
        let create = json!({"QueueName": dlq, "Attributes": attributes});
        let policy = json!({"deadLetterTargetArn": engine::ids::queue_arn(&dlq), "maxReceiveCount": 5}).to_string();
        let redrive = json!({"QueueUrl": queue, "Attributes": {"RedrivePolicy": policy}});
        for (action, params) in [("CreateQueue", &create), ("SetQueueAttributes", &redrive)] {
            if let Some(why) = self.refusal(action, params).filter(|_| action != "CreateQueue" || !exists) {
                return Err(ApiError::new(NOT_ALLOWED, why));
            }
        }
        if !exists {
            self.send("CreateQueue", &create)?;
        }
        self.send("SetQueueAttributes", &redrive).inspect_err(|_| {
            if !exists {
                self.history.undo();
            }
        })
    }

    pub fn set_filter_policy(&mut self, subscription_arn: &str, policy: &str) -> Result<Value, ApiError> {
        let params =
            json!({"SubscriptionArn": subscription_arn, "AttributeName": "FilterPolicy", "AttributeValue": policy});
        self.send("SetSubscriptionAttributes", &params)
    }

    /// Any command in the engine's language (an AWS action or the playground's own), applied
    /// now as the learner's: undo takes it back.
    pub fn apply(&mut self, action: &str, params: &Value) -> Result<Value, ApiError> {
        self.send(action, params)
    }

    /// Every event of the story up to now, oldest first (`seq` is the index).
    pub fn events(&self) -> &[Event] {
        self.history.sim().events()
    }

    /// A queue's CloudWatch-style metric up to now, as (end of period, maximum) points.
    pub fn queue_metric_points(&self, metric: &str, queue: &str) -> Vec<(SimTime, u64)> {
        self.history.sim().queue_metric_points(metric, queue)
    }

    /// The latest moment of the story: where the timeline ends.
    pub fn end(&self) -> SimTime {
        self.history.end().max(self.now())
    }

    /// Whether `ms` more of virtual time would pass with nothing happening: no timer due and no
    /// recorded command to replay before then.
    pub fn quiet_for(&self, ms: u64) -> bool {
        self.history.next_due().is_none_or(|t| t > self.now().plus_ms(ms))
    }

    /// The next moment a timer falls due or a recorded command replays, if any.
    pub fn next_due(&self) -> Option<SimTime> {
        self.history.next_due()
    }

    /// Lets `ms` of virtual time pass, replaying the story's recorded commands on the way; never
    /// past the engine's horizon (`engine::time::HORIZON`, 30 days), where the clock stops.
    pub fn play_for(&mut self, ms: u64) {
        let t = self.now().plus_ms(ms).min(engine::time::HORIZON);
        self.history.advance_to(t);
    }

    /// Whether the clock has reached the horizon: playing on would go nowhere.
    pub fn at_horizon(&self) -> bool {
        self.now() >= engine::time::HORIZON
    }

    /// To the next moment at which something happens: the next moment an event is logged (a
    /// timer or a recorded command that changes nothing visible is passed over), the same
    /// moments [`step_back`](Self::step_back) stops at. `None`, and the clock where it was, when
    /// nothing that logs an event is due within [`QUIET_STEPS`] steps.
    pub fn step(&mut self) -> Option<SimTime> {
        let (logged, was) = (self.events().len(), self.now());
        let mut at = self.history.step()?;
        for _ in 1..QUIET_STEPS {
            if self.events().len() > logged {
                return Some(at);
            }
            match self.history.step() {
                Some(t) => at = t,
                None => break,
            }
        }
        if self.events().len() > logged {
            return Some(at);
        }
        self.history.seek(was);
        None
    }

    /// Back to the latest moment before now at which an event was logged, or to the start.
    pub fn step_back(&mut self) -> SimTime {
        let now = self.now();
        let previous = self.events().iter().rev().map(|e| e.at).find(|at| *at < now).unwrap_or(SimTime::ZERO);
        self.history.seek(previous);
        previous
    }

    /// Rebuilds the story as it was (or will be) at `t`.
    pub fn seek(&mut self, t: SimTime) {
        self.history.seek(t);
    }

    /// Whether an undone command can be put back.
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Puts back the commands the latest undo took back.
    pub fn redo(&mut self) -> bool {
        self.history.redo()
    }
}

/// Checks a filter policy the way Subscribe does, without changing anything: the live
/// validation of the policy editor. `Ok` for an empty policy (no filter).
pub fn check_filter_policy(policy: &str, scope: &str) -> Result<(), String> {
    if policy.trim().is_empty() {
        return Ok(());
    }
    let scope: FilterPolicyScope = scope.parse()?;
    FilterPolicy::compile(policy, scope).map(|_| ()).map_err(|e| e.message)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "playground_unit_tests.rs"]
mod tests;

#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "playground_tests.rs"]
mod scenario_tests;
