//! Incident drills (`public/drills/`): every drill fails its goal when left alone, holds after its
//! recorded fix and refuses each stored wrong fix; a bad file gets an error that names the field
//! and never a panic; a fix may use only what the drill lets a learner change; the same drill and
//! changes give the same verdict twice.

use engine::drill::{Drill, DrillIndex};
use engine::history::{Command, History};
use engine::time::SimTime;
use serde_json::{json, Value};

const PUBLIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../public");

fn load(id: &str) -> Drill {
    let text = std::fs::read_to_string(format!("{PUBLIC}/drills/{id}.json")).unwrap_or_else(|e| panic!("{id}: {e}"));
    Drill::parse(&text, &[]).unwrap_or_else(|e| panic!("{id}.json: {e}"))
}

fn index() -> DrillIndex {
    let text = std::fs::read_to_string(format!("{PUBLIC}/drills/index.json")).expect("the index is readable");
    DrillIndex::parse(&text).expect("the index parses")
}

/// A small drill: one queue whose worker prints every slip twice (no idempotency, every message
/// stored twice), a fix that makes it atomic. Mutated by the tests below.
fn small() -> Value {
    json!({
      "drill": "small", "title": "Two slips", "summary": "A worker prints duplicates.", "minutes": 3,
      "page": {"from": "Mei, warehouse", "report": "Two slips per order.", "at": "1m", "look_at": ["diagram", "event-log"]},
      "world": {"name": "w", "seed": 7, "steps": [
        {"action": "ConfigureSimulation", "params": {"DuplicateDeliveryProbability": "1"}},
        {"action": "CreateTopic", "params": {"Name": "orders"}},
        {"action": "CreateQueue", "params": {"QueueName": "packing"}},
        {"action": "Subscribe", "params": {"TopicArn": "orders", "Protocol": "sqs",
          "Endpoint": "arn:aws:sqs:us-east-1:000000000000:packing", "Attributes": {"RawMessageDelivery": "true"}}},
        {"action": "CreateWorker", "params": {"WorkerName": "w1", "QueueUrl": "packing", "Job": "packing", "Effect": "slip printed"}},
        {"action": "CreateProducer", "params": {"ProducerName": "checkout", "Design": "FanOut", "TopicArn": "orders", "Interval": "5s", "Count": 1000}},
        {"advance": "1m"}
      ]},
      "may_change": ["UpdateWorker:Idempotency", "SetQueueAttributes:VisibilityTimeout"],
      "window": "5m",
      "goal": [
        {"label": "No slip is printed twice", "probe": {"events": "SideEffectPerformed", "where": {"job": "packing", "times": 2}}, "is": 0, "from": "30s"},
        {"label": "Slips are printed", "probe": {"events": "SideEffectPerformed", "where": {"job": "packing"}}, "min": 10, "within": "4m"}
      ],
      "hints": ["Look at the event log."],
      "debrief": {"cause": "Every message arrives twice.", "rule": "Consumers must be idempotent.",
        "read": [{"title": "At-least-once delivery", "url": "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/standard-queues-at-least-once-delivery.html"}],
        "fix": [{"action": "UpdateWorker", "params": {"WorkerName": "w1", "Idempotency": "Atomic"}}]},
      "wrong_fixes": [{"label": "A longer timeout", "why": "The copies are two messages.",
        "fix": [{"action": "SetQueueAttributes", "params": {"QueueUrl": "packing", "Attributes": {"VisibilityTimeout": "120"}}}]}]
    })
}

fn parse(v: &Value) -> Result<Drill, String> {
    Drill::parse(&v.to_string(), &[]).map_err(|e| e.to_string())
}

/// The small drill with `value` at the JSON pointer `at` (a new key where the parent is an object).
fn with(at: &str, value: Value) -> Value {
    let mut v = small();
    let (parent, key) = at.rsplit_once('/').expect("a pointer");
    match v.pointer_mut(parent).expect("the parent exists") {
        Value::Object(m) => {
            m.insert(key.to_string(), value);
        }
        Value::Array(a) => a[key.parse::<usize>().expect("an index")] = value,
        _ => panic!("{at}: not a container"),
    }
    v
}

fn without(at: &str) -> Value {
    let mut v = small();
    let (parent, key) = at.rsplit_once('/').expect("a pointer");
    v.pointer_mut(parent).and_then(Value::as_object_mut).expect("an object").remove(key);
    v
}

#[test]
fn every_drill_fails_left_alone_holds_after_its_fix_and_refuses_each_wrong_fix() {
    let index = index();
    assert!(index.drills.len() >= 8, "at least eight drills, not {}", index.drills.len());
    for listing in &index.drills {
        let drill = load(&listing.id);
        assert_eq!(drill.id, listing.id);
        assert_eq!((&drill.title, &drill.summary, drill.minutes), (&listing.title, &listing.summary, listing.minutes));
        assert!(!drill.wrong_fixes.is_empty(), "{}: no wrong fix", drill.id);
        let report = drill.verify();
        let failures: Vec<String> = report
            .checks
            .iter()
            .filter(|c| !c.passed())
            .map(|c| format!("{}: {}: {}", drill.id, c.what, c.problems.join("; ")))
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        let plays = report.checks.iter().filter(|c| c.verdict.is_some()).count();
        assert_eq!(plays, 2 + drill.debrief.also_right.len() + drill.wrong_fixes.len(), "{}", drill.id);
    }
}

#[test]
fn every_drill_file_is_listed_in_the_index() {
    let listed: Vec<String> = index().drills.into_iter().map(|d| d.id).collect();
    let mut files: Vec<String> = std::fs::read_dir(format!("{PUBLIC}/drills"))
        .expect("public/drills")
        .map(|e| e.expect("an entry").path())
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(String::from))
        .filter(|id| id != "index")
        .collect();
    files.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(sorted, files);
}

#[test]
fn a_bad_drill_gets_an_error_that_names_the_field() {
    let cases: Vec<(Value, &str)> = vec![
        (with("/colour", json!("red")), "colour: unknown key (a drill has drill, title"),
        (with("/drill", json!("Small Drill")), "drill: must be the drill's id"),
        (with("/goal/1/within", json!("2h")), "goal[1].within: 2h is longer than the window (5m)"),
        (with("/goal/1/from", json!("1m")), "goal[1]: takes \"within\" or \"from\", not both"),
        (with("/goal/0/after", json!("Slips are printed")), "goal[0].after: a drill's goal is watched over a window"),
        (with("/goal/0/colour", json!(1)), "goal[0].colour: unknown key (a goal has label, probe, a test, and within or from)"),
        (with("/goal/0/probe", json!({"queue": "packing", "field": "size"})), "goal[0].probe: \"field\" \"size\" is not one of"),
        (with("/goal/0/probe", json!({"response": "Messages"})), "goal[0].probe: a goal cannot read a response"),
        (with("/goal", json!([])), "goal: must list at least one check"),
        (with("/window", json!("5 weeks")), "window: duration \"5 weeks\" has an unknown unit"),
        (with("/window", json!("30d")), "window: the page at 1m plus a window of 30d passes the 30 days"),
        (with("/page/at", json!("30s")), "page.at: 30s is before the world's own steps end (1m)"),
        (with("/page/look_at", json!(["diagram", "radar"])), "page.look_at[1]: must be one of diagram, queue-cards, metrics, event-log, inspector"),
        (with("/page/report", json!("<b>now</b>")), "page.report: contains \"<b>\""),
        (with("/may_change", json!(["UpdateDependency"])), "may_change[0]: \"UpdateDependency\" is not one of the sandbox's controls"),
        (with("/may_change", json!(["PurgeQueue:All"])), "may_change[0]: PurgeQueue is allowed whole or not at all"),
        (with("/may_change/1", json!("UpdateWorker:Idempotency")), "may_change[1]: \"UpdateWorker:Idempotency\" is listed twice"),
        (with("/hints", json!([])), "hints: must hold 1 to 5 hints"),
        (with("/debrief/read/0/url", json!("https://example.com/dlq")), "debrief.read[0].url: must be an AWS documentation address"),
        (without("/debrief/fix"), "debrief.fix: is missing: the recorded fix, as AWS actions"),
        (with("/debrief/fix", json!([{"advance": "1m"}])), "debrief.fix[0]: a fix is changes made at one moment: it has no \"advance\""),
        (
            with("/debrief/fix", json!([{"action": "UpdateWorker", "params": {"WorkerName": "w1"}, "expect": {}}])),
            "debrief.fix[0]: a fix step is an action and its params",
        ),
        (
            with("/wrong_fixes/0/fix/0/params/Attributes", json!({"DelaySeconds": "5"})),
            "wrong_fixes[0].fix[0]: the fix uses SetQueueAttributes:DelaySeconds, which this drill does not let a learner change",
        ),
        (
            with("/debrief/fix/0", json!({"action": "PurgeQueue", "params": {"QueueUrl": "packing"}})),
            "debrief.fix[0]: the fix uses PurgeQueue, which this drill does not let a learner change",
        ),
        (
            with("/debrief/fix/0/params/Heartbeat", json!({"Interval": "5s", "VisibilityTimeout": 30})),
            "debrief.fix[0]: the fix uses UpdateWorker:Heartbeat, which this drill does not let a learner change",
        ),
        (with("/debrief/fix/0/params/WorkerName", json!("${nobody}")), "debrief.fix[0]: \"${nobody}\" is not saved by any earlier step"),
        (with("/wrong_fixes", json!([])), "wrong_fixes: must list at least one plausible wrong fix"),
        (without("/wrong_fixes/0/why"), "wrong_fixes[0].why: is missing"),
        (with("/world", json!("nowhere")), "world: no built-in scenario \"nowhere\""),
        (with("/world/steps/1/params/Nme", json!("x")), ""),
    ];
    for (file, want) in cases {
        match parse(&file) {
            Err(e) if !want.is_empty() => assert!(e.starts_with(want), "expected «{want}…», got «{e}»"),
            Err(e) => panic!("expected the file to parse (the world's steps are run later), got {e}"),
            Ok(_) if want.is_empty() => {}
            Ok(_) => panic!("expected «{want}…», but the file parsed"),
        }
    }
    assert!(parse(&small()).is_ok(), "the base file parses: {:?}", parse(&small()).err());
    let not_json = Drill::parse("{\"drill\": \"x\",}", &[]).unwrap_err().to_string();
    assert!(not_json.starts_with("not valid JSON: trailing comma"), "{not_json}");
}

#[test]
fn a_world_whose_own_steps_fail_is_reported_not_played() {
    let broken = with("/world/steps/1/params/Nme", json!("x"));
    let drill = parse(&broken).expect("it parses");
    let report = drill.verify();
    assert_eq!(report.failed(), 1);
    let problem = &report.checks[0].problems[0];
    assert!(problem.contains("step 2: CreateTopic failed: InvalidParameter:"), "{problem}");
    assert!(drill.judge(&[], drill.page.at).unwrap_err().contains("the world's step 2: CreateTopic failed"));
}

#[test]
fn the_small_drill_passes_with_its_fix_and_says_what_still_fails_without_it() {
    let drill = parse(&small()).expect("the small drill");
    let report = drill.verify();
    assert_eq!(report.failed(), 0, "{:?}", report.checks);
    let alone = drill.judge(&[], drill.page.at).expect("a verdict");
    assert!(!alone.passed);
    let not_yet = alone.not_yet();
    assert_eq!(not_yet.len(), 1, "{not_yet:?}");
    assert!(
        not_yet[0].starts_with("\"No slip is printed twice\": it must hold from 30s after the change on, but "),
        "{}",
        not_yet[0]
    );
    assert!(not_yet[0].ends_with("; it must be 0 side effects"), "{}", not_yet[0]);
    let slips = &alone.goals[1];
    assert!(slips.holds && slips.why.is_empty(), "{slips:?}");
}

#[test]
fn the_learners_changes_are_judged_at_the_moments_they_were_made() {
    let drill = parse(&small()).expect("the small drill");
    let at = |ms: u64, action: &str, params: Value| Command { at: SimTime(ms), action: action.into(), params };
    let fix = at(90_000, "UpdateWorker", json!({"WorkerName": "w1", "Idempotency": "Atomic"}));
    let verdict = drill.judge(std::slice::from_ref(&fix), SimTime(100_000)).expect("a verdict");
    assert!(verdict.passed, "{:?}", verdict.not_yet());
    assert_eq!((verdict.start, verdict.end), (SimTime(100_000), SimTime(400_000)), "from the moment asked, 5 minutes");
    // A change the drill does not allow, one before the page, one out of order, one the engine refuses.
    let purge = at(90_000, "PurgeQueue", json!({"QueueUrl": "packing"}));
    assert_eq!(
        drill.judge(&[purge], SimTime(90_000)).unwrap_err(),
        "the change at 00:01:30.000 uses PurgeQueue, which this drill does not let a learner change"
    );
    let delay = at(90_000, "SetQueueAttributes", json!({"QueueUrl": "packing", "Attributes": {"DelaySeconds": "5"}}));
    assert!(drill.judge(&[delay], SimTime(90_000)).unwrap_err().contains("uses SetQueueAttributes:DelaySeconds"));
    let early = at(30_000, "UpdateWorker", json!({"WorkerName": "w1", "Idempotency": "Atomic"}));
    assert!(drill.judge(&[early], SimTime(90_000)).unwrap_err().contains("comes before the page at 00:01:00.000"));
    let later = at(120_000, "UpdateWorker", json!({"WorkerName": "w1", "Idempotency": "None"}));
    assert!(drill.judge(&[later, fix.clone()], SimTime(130_000)).unwrap_err().contains("changes go in time order"));
    let nobody = at(90_000, "UpdateWorker", json!({"WorkerName": "w9", "Idempotency": "Atomic"}));
    assert!(drill.judge(&[nobody], SimTime(90_000)).unwrap_err().contains("failed: ResourceNotFoundException"));
    // Reading is always allowed and changes nothing.
    let look = at(80_000, "GetQueueAttributes", json!({"QueueUrl": "packing", "AttributeNames": ["All"]}));
    assert!(drill.judge(&[look, fix], SimTime(100_000)).expect("a verdict").passed);
    assert_eq!(drill.refusal("PurgeQueue", &json!({"QueueUrl": "packing"})).as_deref(), Some("PurgeQueue"));
    assert_eq!(drill.refusal("UpdateWorker", &json!({"WorkerName": "w1", "Idempotency": "Atomic"})), None);
}

#[test]
fn the_same_drill_and_changes_give_the_same_verdict_twice() {
    for id in ["charged-twice", "nine-good-records"] {
        let drill = load(id);
        let first = drill.verify();
        let second = drill.verify();
        assert_eq!(first, second, "{id}: two plays of verify differ");
        let alone = drill.judge(&[], drill.page.at).expect("a verdict");
        assert_eq!(alone, drill.judge(&[], drill.page.at).expect("a verdict"), "{id}");
    }
}

#[test]
fn the_page_starts_the_world_on_its_history_and_give_up_fills_in_the_saved_values() {
    let drill = load("nine-good-records");
    let mut story = History::new(drill.world.seed);
    drill.start(&mut story).expect("the world builds");
    assert_eq!(story.sim().now(), drill.page.at);
    // The page's world (event log on, a History) is the judge's (event log off, a bare Sim).
    let options = engine::scenario::RunOptions { event_log: false, responses: false };
    let mut judged = drill.world.run_on(engine::Sim::new(drill.world.seed), options).story;
    judged.advance_to(drill.page.at);
    let picture = |sim: &engine::Sim| {
        let mut v = serde_json::to_value(sim.snapshot()).expect("a snapshot");
        v.as_object_mut().expect("an object").remove("events"); // the length of the event log
        v
    };
    assert!(picture(story.sim()) == picture(&judged), "the learner sees the world the judge plays");
    let fix = drill.recorded_fix().expect("the recorded fix");
    assert_eq!(fix.len(), 1);
    let (action, params) = &fix[0];
    assert_eq!(action, "UpdateEventSourceMapping");
    let uuid = params["UUID"].as_str().expect("a UUID");
    assert!(!uuid.contains("${"), "the placeholder is filled: {uuid}");
    // Applied by the learner at the page, the recorded fix passes as a change.
    let change = Command { at: drill.page.at, action: action.clone(), params: params.clone() };
    assert!(drill.judge(&[change], drill.page.at).expect("a verdict").passed);
}

/// A tiny deterministic generator for the mutations below (no OS randomness in tests either).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

#[test]
fn mutated_drill_files_are_refused_or_played_never_panicking() {
    let base = serde_json::to_string_pretty(&small()).expect("text");
    let bytes = base.as_bytes();
    // Cut short at many places.
    for cut in (0..bytes.len()).step_by(37) {
        let text = String::from_utf8_lossy(&bytes[..cut]);
        assert!(Drill::parse(&text, &[]).is_err(), "cut at {cut} parses");
    }
    // Characters swapped for others that keep it JSON-ish.
    let mut rng = Lcg(4417);
    let swaps = [b'"', b'{', b'}', b'[', b']', b':', b',', b'0', b'9', b'-', b' ', b'x'];
    for _ in 0..300 {
        let mut m = bytes.to_vec();
        for _ in 0..1 + rng.next() % 3 {
            let i = (rng.next() as usize) % m.len();
            m[i] = swaps[(rng.next() as usize) % swaps.len()];
        }
        let text = String::from_utf8_lossy(&m);
        if let Ok(drill) = Drill::parse(&text, &[]) {
            let _ = drill.judge(&[], drill.page.at);
        }
    }
    // Every value replaced by the wrong kind of value.
    let mut pointers = Vec::new();
    collect_pointers(&small(), String::new(), &mut pointers);
    for p in pointers {
        for wrong in [json!(null), json!(-1), json!("x"), json!([]), json!({}), json!(1.5), json!(true)] {
            let mut v = small();
            *v.pointer_mut(&p).expect("the pointer exists") = wrong;
            if let Ok(drill) = parse(&v) {
                let _ = drill.verify();
            }
        }
    }
}

fn collect_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| collect_pointers(x, format!("{at}/{k}"), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| collect_pointers(x, format!("{at}/{i}"), out)),
        _ => {}
    }
    if !at.is_empty() {
        out.push(at);
    }
}

#[test]
fn every_control_a_drill_may_grant_is_an_engine_action() {
    for control in engine::drill::controls::CONTROLS {
        assert!(engine::actions::find(control.action).is_some(), "{} is not an action", control.action);
    }
}

#[test]
fn an_unmet_goal_says_when_it_was_read_what_it_read_and_what_it_needs_in_words() {
    // A learner reads the reason beside the goal's own label: no probe description, no JSON, no
    // "anything but not set" (a fresh walk found both in the silent-subscription drill).
    let drill = load("silent-subscription");
    let alone = drill.judge(&[], drill.page.at).expect("a verdict");
    let dlq = alone.goals.iter().find(|g| g.label.contains("subscription dead-letter queue")).expect("the DLQ goal");
    assert!(!dlq.holds);
    assert_eq!(dlq.shown, "not set");
    assert!(dlq.why.ends_with("it read not set; it must be set"), "{}", dlq.why);
    for g in alone.goals.iter().filter(|g| !g.holds) {
        assert!(!g.why.contains('{') && !g.why.contains("events"), "{}: {}", g.label, g.why);
    }
}
