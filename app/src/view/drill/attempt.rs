//! One drill being played, in plain Rust with no signals: the drill, the checks made this
//! sitting, the engine's last verdict, the hints unlocked, and whether the learner gave up. The
//! engine decides every verdict ([`Drill::judge`]); this keeps what the page shows around it.

use crate::playground::Playground;
use engine::drill::{Drill, Verdict};
use serde_json::Value;

/// The drill being played, as the page holds it.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub drill: Drill,
    /// The recorded fix as commands ready to send (the world's saved names filled in), or why
    /// it could not be built.
    pub recorded: Result<Vec<(String, Value)>, String>,
    /// Fixes checked this sitting.
    pub checks: u64,
    /// Checks that did not pass: one hint unlocks after each.
    pub failed: usize,
    /// The engine's latest verdict, or why the changes could not be judged.
    pub verdict: Option<Result<Verdict, String>>,
    /// A check was asked for and runs at the next frame.
    pub checking: bool,
    /// The learner gave up: the debrief shows, and a later pass is not a solve.
    pub gave_up: bool,
    /// The recorded fix was sent, after giving up.
    pub applied: bool,
    /// The learner's fix in words: the changes judged by the latest check (or made when they
    /// gave up), for the debrief.
    pub fix: Vec<String>,
}

impl Attempt {
    pub fn new(drill: Drill) -> Attempt {
        let recorded = drill.recorded_fix();
        Attempt {
            drill,
            recorded,
            checks: 0,
            failed: 0,
            verdict: None,
            checking: false,
            gave_up: false,
            applied: false,
            fix: Vec::new(),
        }
    }

    /// The hints unlocked so far, gentlest first.
    pub fn hints(&self) -> &[String] {
        &self.drill.hints[..self.failed.min(self.drill.hints.len())]
    }

    /// Whether the latest check passed.
    pub fn passed(&self) -> bool {
        matches!(&self.verdict, Some(Ok(v)) if v.passed)
    }

    /// Judges the learner's changes on `pg` (every command since the page, at the moment it was
    /// made) with the moment they asked: the story's now. True when it passed.
    pub fn check(&mut self, pg: &Playground) -> bool {
        let changes = pg.changes();
        let verdict = self.drill.judge(changes, pg.now());
        self.checking = false;
        self.checks += 1;
        self.fix = described(pg);
        let passed = matches!(&verdict, Ok(v) if v.passed);
        if !passed {
            self.failed += 1;
        }
        self.verdict = Some(verdict);
        passed
    }

    /// The learner gives up: the debrief shows the recorded fix beside what they changed.
    pub fn give_up(&mut self, pg: &Playground) {
        if !self.gave_up {
            self.gave_up = true;
            self.fix = described(pg);
        }
    }
}

/// The learner's commands in a few words each ([`describe`]), a subscription named by the queue
/// it delivers to ("order-events → packing"): two subscriptions of one topic otherwise read alike.
fn described(pg: &Playground) -> Vec<String> {
    let s = pg.snapshot();
    let subs: Vec<(&str, &str)> = s
        .topics
        .iter()
        .flat_map(|t| &t.subscriptions)
        .map(|x| (x.arn.as_str(), x.queue.as_deref().unwrap_or(x.endpoint.as_str())))
        .collect();
    pg.changes()
        .iter()
        .map(|c| {
            let line = describe(&c.action, &c.params);
            let arn = c.params.get("SubscriptionArn").and_then(Value::as_str);
            match arn.and_then(|a| subs.iter().find(|(x, _)| *x == a)) {
                Some((arn, to)) => line.replacen(short(arn), &format!("{} → {to}", short(arn)), 1),
                None => line,
            }
        })
        .collect()
}

/// The parameters that name what a command changes, in the order looked for.
const TARGETS: &[&str] = &[
    "WorkerName",
    "QueueUrl",
    "QueueName",
    "SubscriptionArn",
    "UUID",
    "FunctionName",
    "AlarmName",
    "Rule",
    "SourceArn",
];

/// A command in a few words: the action, what it changes, and each name it sets with its value
/// ("UpdateWorker billing-w1: Idempotency = Atomic").
pub fn describe(action: &str, params: &Value) -> String {
    let mut out = action.to_string();
    if let Some(target) = TARGETS.iter().find_map(|k| params.get(*k).and_then(Value::as_str)) {
        out.push(' ');
        out.push_str(short(target));
    }
    let set: Vec<String> = engine::drill::controls::changes(action, params)
        .unwrap_or_default()
        .iter()
        .filter_map(|c| c.split_once(':'))
        .map(|(_, name)| {
            let value = params
                .get("Attributes")
                .and_then(|a| a.get(name))
                .or_else(|| {
                    (params.get("AttributeName").and_then(Value::as_str) == Some(name))
                        .then(|| &params["AttributeValue"])
                })
                .or_else(|| params.get(name));
            format!("{name} = {}", value.map(shown).unwrap_or_default())
        })
        .collect();
    if !set.is_empty() {
        out.push_str(": ");
        out.push_str(&set.join(", "));
    }
    out
}

/// A queue URL or an ARN by its resource's name: what follows the last `/`, or an ARN's sixth
/// part (`arn:aws:sns:us-east-1:000000000000:order-events:…` is `order-events`).
fn short(name: &str) -> &str {
    match name.strip_prefix("arn:") {
        Some(_) => name.split(':').nth(5).unwrap_or(name),
        None => name.rsplit('/').next().unwrap_or(name),
    }
}

/// A value as the debrief shows it: a string as it is, anything else as compact JSON, at most
/// 80 characters.
fn shown(v: &Value) -> String {
    let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use engine::SimTime;
    use serde_json::json;

    fn drill(id: &str) -> Drill {
        let text = std::fs::read_to_string(format!("{}/../public/drills/{id}.json", env!("CARGO_MANIFEST_DIR")))
            .expect("the drill file");
        Drill::parse(&text, &[]).expect("the drill parses")
    }

    #[test]
    fn charged_twice_is_solved_with_the_workers_idempotency_and_not_by_waiting() {
        let d = drill("charged-twice");
        let mut pg = Playground::from_drill(&d, String::new()).expect("the world builds");
        assert_eq!(pg.now(), d.page.at, "the page arrives once the world is played to it");
        let mut attempt = Attempt::new(d);
        pg.play_for(60_000);
        assert!(!attempt.check(&pg), "left alone, the incident goes on");
        assert_eq!(attempt.hints().len(), 1, "a hint unlocks after a check that fails");
        let Some(Ok(v)) = &attempt.verdict else { panic!("judged") };
        assert!(v.not_yet()[0].contains("charged a second time"), "{:?}", v.not_yet());
        for w in ["billing-w1", "billing-w2"] {
            pg.set_idempotency(w, "Atomic").expect("the drill allows it");
        }
        pg.play_for(30_000);
        assert!(attempt.check(&pg), "{:?}", attempt.verdict);
        assert_eq!(
            attempt.fix,
            ["UpdateWorker billing-w1: Idempotency = Atomic", "UpdateWorker billing-w2: Idempotency = Atomic"]
        );
        assert_eq!(attempt.checks, 2);
    }

    #[test]
    fn a_change_the_drill_does_not_allow_is_refused_in_words_and_changes_nothing() {
        let d = drill("charged-twice");
        let mut pg = Playground::from_drill(&d, String::new()).expect("the world builds");
        let before = (pg.history().commands().len(), pg.snapshot());
        let e = pg.purge("billing").expect_err("PurgeQueue is not allowed here");
        assert_eq!(e.code, crate::playground::NOT_ALLOWED);
        assert!(e.message.contains("does not let you change PurgeQueue"), "{}", e.message);
        let e = pg.set_queue_attribute("billing", "MessageRetentionPeriod", "60").expect_err("not allowed");
        assert!(e.message.contains("SetQueueAttributes:MessageRetentionPeriod"), "{}", e.message);
        assert!(pg.add_dead_letter_queue("billing").is_err(), "CreateQueue is not allowed here");
        assert_eq!((pg.history().commands().len(), pg.snapshot()), before, "nothing changed");
        pg.seek(SimTime(60_000));
        let e = pg.set_idempotency("billing-w1", "Atomic").expect_err("before the page");
        assert!(e.message.contains("before the page"), "{}", e.message);
    }

    #[test]
    fn three_more_drills_are_solved_with_the_pages_own_controls() {
        // slow-consumer: the queue's visibility timeout, in the inspector.
        let d = drill("slow-consumer");
        let mut pg = Playground::from_drill(&d, String::new()).unwrap();
        pg.play_for(20_000);
        pg.set_queue_attribute("packing", "VisibilityTimeout", "120").unwrap();
        assert!(Attempt::new(d).check(&pg), "slow-consumer");
        // poison-order: a dead-letter queue after 5 receives.
        let d = drill("poison-order");
        let mut pg = Playground::from_drill(&d, String::new()).unwrap();
        pg.add_dead_letter_queue("sms").unwrap();
        let mut a = Attempt::new(d);
        assert!(a.check(&pg), "poison-order: {:?}", a.verdict);
        assert_eq!(a.fix[0], "CreateQueue sms-dlq");
        assert!(a.fix[1].starts_with("SetQueueAttributes sms: RedrivePolicy = {"), "{:?}", a.fix);
        // nine-good-records: the mapping reports the records that failed.
        let d = drill("nine-good-records");
        let mut pg = Playground::from_drill(&d, String::new()).unwrap();
        let uuid = pg.snapshot().world.event_source_mappings[0].uuid.clone();
        pg.set_report_failures(&uuid, true).unwrap();
        let mut a = Attempt::new(d);
        assert!(a.check(&pg), "nine-good-records: {:?}", a.verdict);
    }

    #[test]
    fn a_command_reads_as_what_it_changes() {
        let sub = "arn:aws:sns:us-east-1:000000000000:order-events:7";
        assert_eq!(
            describe(
                "SetSubscriptionAttributes",
                &json!({"SubscriptionArn": sub, "AttributeName": "RedrivePolicy", "AttributeValue": "{}"})
            ),
            "SetSubscriptionAttributes order-events: RedrivePolicy = {}"
        );
        assert_eq!(
            describe("StartMessageMoveTask", &json!({"SourceArn": "arn:aws:sqs:us-east-1:000000000000:loyalty-dlq"})),
            "StartMessageMoveTask loyalty-dlq"
        );
        assert_eq!(
            describe(
                "UpdateEventSourceMapping",
                &json!({"UUID": "m-1", "FunctionResponseTypes": ["ReportBatchItemFailures"]})
            ),
            "UpdateEventSourceMapping m-1: FunctionResponseTypes = [\"ReportBatchItemFailures\"]"
        );
        assert!(describe("SetQueueAttributes", &json!({"QueueUrl": "q", "Attributes": {"Policy": "x".repeat(200)}}))
            .ends_with('…'));
    }
}
