//! The page loads a scenario file exactly as `fanout test` runs it, and what it offers (the
//! one-click events, the workers it adds) comes from the file.

use super::*;
use engine::scenario::{RunOptions, Scenario};
use engine::{event_log_jsonl, Sim};
use std::path::Path;

/// Every scenario file of the repository: the page's own and the engine's lessons.
fn scenario_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["public/scenarios", "engine/tests/scenarios"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("a readable scenario file");
            files.push((format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()), text));
        }
    }
    files
}

#[test]
fn the_page_and_fanout_test_give_the_same_event_log_for_every_scenario_file() {
    // The page's loader and the CLI run one pipeline: the page on a History, `fanout test` on a
    // bare Sim (here with its event log on, to compare). A file the page refuses is one whose
    // run has an action failing without `expect_error`, or a save that does not resolve.
    let mut loaded = 0;
    for (path, text) in scenario_files() {
        let scenario = Scenario::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let cli = scenario.run_on(Sim::new(scenario.seed), RunOptions::default());
        let refused = cli.refusal().is_some();
        match Playground::from_scenario(&text) {
            Ok(pg) => {
                assert!(!refused, "{path}: the page loaded a run that failed");
                let page = event_log_jsonl(pg.history.sim().events());
                assert!(page == event_log_jsonl(cli.events()), "{path}: the page's event log differs from the CLI's");
                assert_eq!(pg.history.sim().snapshot(), cli.sim().snapshot(), "{path}");
                loaded += 1;
            }
            // Every file the page offers loads; only the engine's own test files may be refused.
            Err(e) => assert!(refused && !path.starts_with("public/"), "{path}: the page refused it: {e}"),
        }
    }
    assert!(loaded > 20, "only {loaded} scenario files loaded in the page");
}

#[test]
fn saved_values_fill_later_steps_in_the_page() {
    // `save` keeps the receipt handle and `${handle}` uses it: the delete works, so after the
    // visibility timeout nothing comes back, and the story records the filled-in handle.
    let text = r#"{"name": "save", "seed": 3, "steps": [
        {"action": "CreateQueue", "params": {"QueueName": "q"}, "save": {"url": "QueueUrl"}},
        {"action": "SendMessage", "params": {"QueueUrl": "${url}", "MessageBody": "a"}},
        {"action": "ReceiveMessage", "params": {"QueueUrl": "q"}, "save": {"handle": "Messages.0.ReceiptHandle"}},
        {"action": "DeleteMessage", "params": {"QueueUrl": "q", "ReceiptHandle": "${handle}"}},
        {"advance": "1m"}]}"#;
    let pg = Playground::from_scenario(text).unwrap();
    let q = &pg.snapshot().queues[0];
    assert_eq!((q.visible, q.in_flight), (0, 0), "the message was deleted with the saved handle");
    let commands = pg.history.commands();
    assert_eq!(commands[3].params["ReceiptHandle"], "rh-1-1");
    assert_eq!(commands[1].params["QueueUrl"], "https://sqs.us-east-1.amazonaws.com/000000000000/q");
    assert_eq!(pg.now(), SimTime(60_000), "advance moved the clock");
}

#[test]
fn an_expected_error_loads_and_an_unexpected_one_names_its_step() {
    // An `expect_error` step is meant to fail: the page loads it, and the failed action is not a
    // command (it changed nothing). The same action without `expect_error` is a load error.
    let steps = |failing: &str| {
        format!(
            r#"{{"name": "e", "steps": [{{"action": "CreateQueue", "params": {{"QueueName": "q"}}}},
            {{"action": "SendMessage", "params": {{"QueueUrl": "missing", "MessageBody": "x"}}{failing}}},
            {{"action": "SendMessage", "params": {{"QueueUrl": "q", "MessageBody": "y"}}, "expect": {{"MessageId": "wrong"}}}}]}}"#
        )
    };
    let pg = Playground::from_scenario(&steps(r#", "expect_error": {"Code": "QueueDoesNotExist"}"#))
        .unwrap_or_else(|e| panic!("{e}"));
    let actions: Vec<&str> = pg.history.commands().iter().map(|c| c.action.as_str()).collect();
    assert_eq!(actions, ["CreateQueue", "SendMessage"], "the failed send is not recorded; the wrong expect is fine");
    assert_eq!(pg.snapshot().queues[0].visible, 1);
    let e = Playground::from_scenario(&steps("")).unwrap_err();
    // The engine's words, as `fanout test` prints them.
    assert!(
        e.starts_with("step 2: SendMessage failed: QueueDoesNotExist: The specified queue does not exist.")
            && e.contains("expect_error"),
        "{e}"
    );
}

#[test]
fn a_bad_presets_section_is_a_clear_load_error() {
    let text = r#"{"name": "p", "steps": [], "publish": {"topic": "t", "presets": [
        {"name": "OrderPlaced", "body": {"order_id": "{{order}}"}}]}}"#;
    let e = Playground::from_scenario(text).unwrap_err();
    assert_eq!(
        e,
        "publish.presets[0] (OrderPlaced): body.order_id: unknown placeholder \"{{order}}\" (use {{n}}, {{n+K}} or {{now}})"
    );
}

/// The scenarios the page had before presets and worker rules were data: the first six.
const SNS_SCENARIOS: usize = 6;

/// The body every publish button sent before presets were data (engine `Playground::publish`).
fn old_body(kind: &str, n: u64, now: SimTime) -> String {
    let (event_type, phone) =
        if kind == "PoisonOrder" { ("OrderPlaced", "+91 98765 4321") } else { (kind, "+91 98765 43210") };
    json!({
        "event_id": format!("evt-{n}"), "event_type": event_type, "order_id": 4416 + n, "version": 1,
        "occurred_at": now.iso8601(),
        "data": {"items": [{"sku": "quilt-queen", "qty": 1}], "amount": 4999, "phone": phone}
    })
    .to_string()
}

#[test]
fn the_builtin_presets_publish_byte_for_byte_what_the_page_published_before() {
    // Each SNS scenario offers the five order events; each publishes the same body,
    // attributes and (FIFO) group as the hard-coded publish did.
    for (id, _) in &SCENARIOS[..SNS_SCENARIOS] {
        let mut pg = Playground::builtin(id).unwrap();
        let names: Vec<&str> = pg.presets().iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["OrderPlaced", "OrderShipped", "OrderCancelled", "RefundIssued", "PoisonOrder"], "{id}");
        assert_eq!(pg.presets()[4].label, "Poison order (bad phone)");
        for kind in ["OrderPlaced", "RefundIssued", "PoisonOrder"] {
            let (_, fifo, published) = pg.topic().unwrap();
            let now = pg.now();
            pg.publish(kind).unwrap_or_else(|e| panic!("{id} {kind}: {e}"));
            let sent = &pg.history.commands().last().unwrap().params;
            let n = published + 1;
            assert_eq!(sent["Message"], old_body(kind, n, now), "{id} {kind}");
            let event_type = if kind == "PoisonOrder" { "OrderPlaced" } else { kind };
            assert_eq!(
                sent["MessageAttributes"],
                json!({"event_type": {"DataType": "String", "StringValue": event_type}})
            );
            let group = fifo.then(|| json!((4416 + n).to_string()));
            assert_eq!(sent.get("MessageGroupId"), group.as_ref(), "{id} {kind}");
            pg.history.advance_to(pg.now().plus_ms(1_500));
        }
    }
}

#[test]
fn an_unknown_preset_is_an_error_that_changes_nothing() {
    let mut pg = Playground::builtin("quilt-store").unwrap();
    let before = pg.snapshot();
    let e = pg.publish("OrderLost").unwrap_err();
    assert_eq!((e.code.as_str(), pg.snapshot()), ("NotFound", before));
}

/// The `CreateWorker` parameters "+ Worker" sent before the rules were data.
fn old_worker(queue: &str, name: &str) -> Value {
    let stem: String = queue.trim_end_matches(".fifo").replace('.', "-");
    let effect = match stem.as_str() {
        s if s.contains("billing") => "invoice written",
        s if s.contains("sms") => "SMS sent",
        s if s.contains("packing") => "slip printed",
        _ => "work done",
    };
    let mut params = json!({"WorkerName": name, "QueueUrl": queue, "WaitTimeSeconds": 20, "ProcessingTime": "2s",
                            "Job": stem, "Effect": effect});
    if stem.contains("sms") {
        params["Poison"] = json!({"Field": "data.phone", "LengthBelow": 15});
    }
    params
}

#[test]
fn the_builtin_worker_rules_add_the_workers_the_page_added_before() {
    // Every queue of every SNS scenario gets the worker the queue-name guess gave it.
    for (id, _) in &SCENARIOS[..SNS_SCENARIOS] {
        let mut pg = Playground::builtin(id).unwrap();
        for q in pg.snapshot().queues {
            let before = pg.snapshot().world.workers.len();
            pg.add_worker(&q.name).unwrap_or_else(|e| panic!("{id} {}: {e}", q.name));
            let sent = &pg.history.commands().last().unwrap().params;
            let name = sent["WorkerName"].as_str().expect("a worker name");
            assert!(name.starts_with(&format!("{}-w", q.name.trim_end_matches(".fifo"))), "{name}");
            assert_eq!(*sent, old_worker(&q.name, name), "{id} {}", q.name);
            assert_eq!(pg.snapshot().world.workers.len(), before + 1);
        }
    }
}

#[test]
fn a_queue_without_a_rule_gets_the_scenarios_default_worker() {
    let text = r#"{"name": "w", "steps": [{"action": "CreateQueue", "params": {"QueueName": "reports"}}],
        "workers": {"default": {"ProcessingTime": "5s", "Effect": "report filed"}, "queues": {"other": {"Effect": "x"}}}}"#;
    let mut pg = Playground::from_scenario(text).unwrap();
    pg.add_worker("reports").unwrap();
    pg.add_worker("reports").unwrap();
    let sent = &pg.history.commands().last().unwrap().params;
    assert_eq!(
        *sent,
        json!({"WorkerName": "reports-w2", "QueueUrl": "reports", "ProcessingTime": "5s", "Job": "reports", "Effect": "report filed"})
    );
}

#[test]
fn the_picker_names_each_builtin_scenario_as_its_file_does() {
    use crate::playground::BUILTIN;
    let ids: Vec<&str> = SCENARIOS.iter().map(|(id, _)| *id).collect();
    assert_eq!(BUILTIN.iter().map(|(id, _)| *id).collect::<Vec<_>>(), ids, "the same scenarios, in the same order");
    for ((id, name), (_, text)) in BUILTIN.iter().zip(SCENARIOS) {
        let file: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(file["name"], *name, "{id}: the picker's name is the file's");
        assert!(Playground::builtin(id).unwrap().is_builtin());
    }
    assert!(
        !Playground::from_scenario(SCENARIOS[0].1).unwrap().is_builtin(),
        "a file of the learner's own is not built in"
    );
}
