//! The `fanout` command line: `run` (timeline or JSON), `test` (expectations, totals, exit code),
//! readable errors for malformed scenario files, and `test-filter` in its three answers and JSONL.
use engine::Scenario;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const LESSONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios");

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn ran(output: Output) -> Ran {
    let ran = Ran {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    };
    assert!(!ran.stderr.contains("panicked"), "fanout panicked:\n{}", ran.stderr);
    ran
}

/// Runs `fanout`; a run that has not ended after 60 s is killed and fails the test (an input
/// that hangs the engine must fail a test, not hang the suite).
fn fanout(args: &[&str]) -> Ran {
    let child = Command::new(env!("CARGO_BIN_EXE_fanout"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fanout starts");
    let pid = child.id();
    let (done, ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    match ended.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(output) => ran(output.expect("fanout runs")),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("fanout {args:?} did not end within 60 s: it hangs")
        }
    }
}

fn fanout_with_stdin(args: &[&str], input: &str) -> Ran {
    fanout_with_stdin_bytes(args, input.as_bytes())
}

fn fanout_with_stdin_bytes(args: &[&str], input: &[u8]) -> Ran {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fanout starts");
    child.stdin.take().expect("stdin").write_all(input).expect("stdin takes the input");
    ran(child.wait_with_output().expect("fanout ends"))
}

/// Writes a scenario (or any file) under a directory of this test process's own.
fn temp_file(name: &str, text: &str) -> PathBuf {
    temp_file_bytes(name, text.as_bytes())
}

fn temp_file_bytes(name: &str, text: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fanout-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the file is written");
    path
}

fn lesson(name: &str) -> String {
    format!("{LESSONS}/{name}")
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A queue, one message, and a check of the count: expecting `count` messages.
fn counting_scenario(count: &str) -> String {
    json!({"name": "count", "seed": 1, "steps": [
        {"action": "CreateQueue", "params": {"QueueName": "q"}},
        {"action": "SendMessage", "params": {"QueueUrl": "q", "MessageBody": "hi"}, "expect": {"MessageId": "msg-1"}},
        {"action": "GetQueueAttributes", "params": {"QueueUrl": "q", "AttributeNames": ["ApproximateNumberOfMessages"]},
         "expect": {"Attributes": {"ApproximateNumberOfMessages": count}}}
    ]})
    .to_string()
}

#[test]
fn run_prints_a_timeline_of_steps_and_their_events() {
    // `run FILE` prints the scenario's name and seed, each step with its response, the events it
    // caused, and a closing line with the event count and the virtual time.
    let out = fanout(&["run", &lesson("crash-visibility.json")]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "# A worker crashes mid-message (seed 1)");
    assert!(lines.iter().any(|l| l.starts_with("-- step 1: CreateQueue -> {\"QueueUrl\":")), "{}", out.stdout);
    assert!(lines.iter().any(|l| l.starts_with("-- step 5: advance 29.999s")), "{}", out.stdout);
    let expired = lines.iter().find(|l| l.contains("VisibilityExpired")).expect("the timeout appears");
    assert!(expired.trim_start().starts_with("00:00:30.000"), "{expired}");
    assert!(lines.last().unwrap().starts_with("== ") && lines.last().unwrap().ends_with("virtual time 00:00:30.000"));
}

#[test]
fn run_json_gives_the_event_log_and_the_final_snapshot() {
    // `run FILE --json` prints one JSON document: the scenario, its seed, every event in order and
    // the final snapshot of all queues.
    let out = fanout(&["run", &lesson("poison-to-dlq.json"), "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).expect("stdout is one JSON document");
    assert_eq!(doc["scenario"], "Poison message to the dead-letter queue");
    assert_eq!(doc["seed"], 1);
    let events = doc["events"].as_array().expect("an event list");
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["seq"], i, "events are numbered in order");
    }
    assert_eq!(events.iter().filter(|e| e["event"] == "MovedToDeadLetterQueue").count(), 1);
    let queues = doc["snapshot"]["queues"].as_array().expect("the snapshot lists queues");
    let dlq = queues.iter().find(|q| q["name"] == "orders-dlq").expect("the DLQ is in the snapshot");
    assert_eq!(dlq["messages"][0]["message_id"], "msg-1");
    assert_eq!(doc["snapshot"]["events"], events.len());
}

#[test]
fn test_counts_every_expectation_and_ends_with_the_totals() {
    // `test FILE...` checks every expectation of every file and ends with "N passed, M failed".
    let files = [lesson("seeds-filter.json"), lesson("delete-stale-handle.json")];
    let expected: usize =
        files.iter().map(|f| Scenario::parse(&std::fs::read_to_string(f).unwrap()).unwrap().run().passed()).sum();
    let out = fanout(&["test", &files[0], &files[1]]);
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(out.stdout.contains(&format!("ok   {}: ", files[0])), "{}", out.stdout);
    assert_eq!(out.stdout.lines().last(), Some(format!("{expected} passed, 0 failed").as_str()));
}

#[test]
fn a_failing_expectation_shows_a_readable_diff_and_exits_non_zero() {
    // A wrong expectation names the file, the step and the path, with expected and actual values;
    // the totals count it and the exit code is non-zero.
    let path = temp_file("wrong-count.json", &counting_scenario("2"));
    let out = fanout(&["test", path_str(&path)]);
    assert_eq!(out.code, Some(1));
    assert!(out.stdout.contains(&format!("FAIL {}: step 3 (GetQueueAttributes):", path.display())), "{}", out.stdout);
    assert!(out.stdout.contains("Attributes.ApproximateNumberOfMessages: expected \"2\", got \"1\""), "{}", out.stdout);
    assert_eq!(out.stdout.lines().last(), Some("1 passed, 1 failed"));
    let good = temp_file("right-count.json", &counting_scenario("1"));
    let out = fanout(&["test", path_str(&good), path_str(&path)]);
    assert_eq!((out.code, out.stdout.lines().last()), (Some(1), Some("3 passed, 1 failed")));
}

/// Runs a broken scenario through `run` and `test`: both say what is wrong (each of `what`),
/// and `test`, which takes several files, names the file.
fn rejects(name: &str, text: &str, what: &[&str]) {
    let path = temp_file(name, text);
    let shown = path.display().to_string();
    let run = fanout(&["run", path_str(&path)]);
    assert_ne!(run.code, Some(0), "run accepted {name}");
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(said.contains(&shown) || said.contains("stopped at"), "run does not name {shown}:\n{said}");
    assert!(what.iter().all(|w| said.contains(w)), "run of {name} should say {what:?}:\n{said}");
    let test = fanout(&["test", path_str(&path)]);
    assert_eq!(test.code, Some(1), "test of {name}: {}", test.stdout);
    let fail = test.stdout.lines().find(|l| l.starts_with("FAIL")).expect("a FAIL line");
    assert!(
        fail.contains(&shown) && what.iter().all(|w| fail.contains(w)),
        "test of {name} should name the file and say {what:?}: {fail}"
    );
    assert_eq!(test.stdout.lines().last(), Some("0 passed, 1 failed"));
}

#[test]
fn bad_json_is_reported_with_its_line_and_column() {
    // A scenario that is not JSON: the file, "not valid JSON" and where the parser stopped.
    rejects(
        "bad.json",
        "{\"name\": \"x\",\n \"steps\": [\n  {\"advance\": \"1s\"},,\n]}",
        &["not valid JSON", "line 3 column 21"],
    );
}

#[test]
fn an_unknown_step_key_is_reported_with_its_step_number() {
    // A misspelt key (`parms`) is refused, naming the step, rather than silently ignored.
    let text =
        json!({"name": "x", "steps": [{"advance": "1s"}, {"action": "CreateQueue", "parms": {"QueueName": "q"}}]});
    rejects("typo.json", &text.to_string(), &["step 2: unknown key \"parms\""]);
}

#[test]
fn an_unknown_placeholder_is_reported_with_its_step_number() {
    // `${handle}` must be saved by an earlier step; the check happens before anything runs.
    let text = json!({"name": "x", "steps": [
        {"action": "CreateQueue", "params": {"QueueName": "q"}},
        {"action": "DeleteMessage", "params": {"QueueUrl": "q", "ReceiptHandle": "${handle}"}}]});
    rejects("placeholder.json", &text.to_string(), &["step 2: \"${handle}\" is not saved by any earlier step"]);
}

#[test]
fn a_save_path_that_does_not_resolve_stops_the_run_at_that_step() {
    // Saving `Messages.0.ReceiptHandle` from an empty receive stops the run and says where the
    // path ends.
    let text = json!({"name": "x", "steps": [
        {"action": "CreateQueue", "params": {"QueueName": "q"}},
        {"action": "ReceiveMessage", "params": {"QueueUrl": "q"}, "save": {"handle": "Messages.0.ReceiptHandle"}},
        {"action": "DeleteMessage", "params": {"QueueUrl": "q", "ReceiptHandle": "${handle}"}}]});
    rejects(
        "save.json",
        &text.to_string(),
        &["step 2: ", "path Messages.0.ReceiptHandle does not resolve: Messages has 0 elements, no \"0\""],
    );
}

#[test]
fn a_bad_publish_preset_is_reported_with_where_it_is() {
    // The page's presets are part of the file: a placeholder it does not know is refused before
    // anything runs, naming the preset and the path inside its body.
    let text = json!({"name": "x", "steps": [], "publish": {"topic": "t", "presets": [
        {"name": "OrderPlaced", "body": "{}"}, {"name": "Refund", "body": {"data": {"at": "{{today}}"}}}]}});
    rejects(
        "presets.json",
        &text.to_string(),
        &["publish.presets[1] (Refund): body.data.at: unknown placeholder \"{{today}}\""],
    );
}

#[test]
fn a_worker_rule_that_create_worker_refuses_is_reported_with_its_queue() {
    // Worker rules are checked by CreateWorker itself: a misspelt parameter names the queue's rule.
    let text = json!({"name": "x", "steps": [], "workers": {"queues": {"sms": {"Efect": "SMS sent"}}}});
    rejects("workers.json", &text.to_string(), &["workers.queues.sms: CreateWorker would fail: ", "Efect"]);
}

#[test]
fn an_advance_past_thirty_days_is_refused_naming_the_step() {
    // Regression: `{"advance": "999999999999h"}` passed validation and ran for ever. An advance
    // that would take the clock past 30 days of virtual time is refused when the file is read.
    let text = json!({"name": "x", "steps": [
        {"action": "CreateQueue", "params": {"QueueName": "q"}},
        {"action": "CreateWorker", "params": {"WorkerName": "w", "QueueUrl": "q"}},
        {"advance": "999999999999h"}]});
    rejects("forever.json", &text.to_string(), &["step 3: advance \"999999999999h\"", "past the 30 days"]);
    let export = fanout(&["export", "counts", path_str(&temp_file("forever.json", &text.to_string()))]);
    assert_eq!(export.code, Some(2));
    assert!(export.stderr.contains("step 3: advance"), "{}", export.stderr);
}

#[test]
fn test_ends_a_dead_letter_cycle_with_a_worker_on_each_queue() {
    // Regression: with `a` and `b` each other's dead-letter queue and a worker on each, `fanout
    // test` spun at 100% CPU and `run` grew its memory until the allocator aborted.
    let cycle = lesson("dlq-cycle.json");
    let out = fanout(&["test", &cycle]);
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(out.stdout.starts_with("ok "), "{}", out.stdout);
    let run = fanout(&["run", &cycle]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.contains("MovedToDeadLetterQueue msg-1 moved from b to a after 1 receive"), "{}", run.stdout);
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    // A file that cannot be read is named, with the reason, and the exit code says failure.
    let out = fanout(&["run", "/nonexistent/scenario.json"]);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("/nonexistent/scenario.json: cannot read"), "{}", out.stderr);
}

const EVENT_POLICY: &str = r#"{"event_type": ["OrderPlaced", "OrderShipped"]}"#;

fn attributes_message(event_type: &str) -> String {
    json!({"MessageAttributes": {"event_type": {"DataType": "String", "StringValue": event_type}}}).to_string()
}

#[test]
fn test_filter_answers_match() {
    // A message whose attribute is one of the policy's values matches.
    let message = attributes_message("OrderShipped");
    let out = fanout(&["test-filter", "--policy", EVENT_POLICY, "--scope", "MessageAttributes", "--message", &message]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), "match\n"));
}

#[test]
fn test_filter_answers_no_match_with_the_reason() {
    // A non-matching message gets "no match:" and the key and value that failed.
    let message = attributes_message("RefundIssued");
    let out = fanout(&["test-filter", "--policy", EVENT_POLICY, "--scope", "MessageAttributes", "--message", &message]);
    assert_eq!(out.code, Some(0));
    assert!(out.stdout.starts_with("no match: ") && out.stdout.lines().count() == 1, "{}", out.stdout);
    assert!(out.stdout.contains("event_type") && out.stdout.contains("RefundIssued"), "{}", out.stdout);
}

#[test]
fn test_filter_answers_invalid_policy_with_the_error() {
    // A policy value that is not a list is invalid; the answer says so and the exit code is 1.
    let message = attributes_message("OrderPlaced");
    let policy = r#"{"event_type": "OrderPlaced"}"#;
    let out = fanout(&["test-filter", "--policy", policy, "--scope", "MessageAttributes", "--message", &message]);
    assert_eq!(out.code, Some(1));
    assert!(out.stdout.starts_with("invalid policy: ") && out.stdout.contains("event_type"), "{}", out.stdout);
}

#[test]
fn test_filter_reads_policy_and_message_from_files_in_body_scope() {
    // `@file` arguments, and MessageBody scope with a nested policy and a numeric range.
    let policy = temp_file(
        "policy.json",
        r#"{"order_total": [{"numeric": [">=", 5000]}], "shipping_address": {"country": ["US", "CA"]}}"#,
    );
    let body = json!({"order_total": 7500, "shipping_address": {"country": "CA"}}).to_string();
    let message = temp_file("message.json", &json!({"Message": body}).to_string());
    let (p, m) = (format!("@{}", policy.display()), format!("@{}", message.display()));
    let out = fanout(&["test-filter", "--policy", &p, "--scope", "MessageBody", "--message", &m]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), "match\n"));
}

#[test]
fn test_filter_jsonl_answers_one_line_per_case_including_bad_ones() {
    // --jsonl: one answer per non-empty input line, in order; a bad case becomes {"error"} on
    // its own line and the others still get their answers.
    let cases = [
        json!({"scope": "MessageAttributes", "policy": EVENT_POLICY, "message": serde_json::from_str::<Value>(&attributes_message("OrderPlaced")).unwrap()}).to_string(),
        json!({"policy": {"event_type": ["OrderPlaced"]}, "message": serde_json::from_str::<Value>(&attributes_message("RefundIssued")).unwrap()}).to_string(),
        json!({"policy": {"event_type": "OrderPlaced"}, "message": {"MessageAttributes": {}}}).to_string(),
        "{this is not json".to_string(),
        String::new(),
        json!({"scope": "MessageBody", "policy": {"n": [{"numeric": ["<", 3]}]}, "message": {"Message": "{\"n\": 2}"}}).to_string(),
        json!({"scope": "Body", "policy": {"n": [1]}, "message": {"Message": "{}"}}).to_string(),
    ];
    let out = fanout_with_stdin(&["test-filter", "--jsonl"], &cases.join("\n"));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let rows: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).expect("each answer is JSON")).collect();
    assert_eq!(rows.len(), 6, "one answer per non-empty line:\n{}", out.stdout);
    assert_eq!(rows[0], json!({"match": true}));
    assert_eq!(rows[1]["match"], false);
    assert!(rows[1]["reason"].as_str().unwrap().contains("RefundIssued"), "{}", rows[1]);
    assert!(rows[2]["error"].as_str().unwrap().contains("event_type"), "{}", rows[2]);
    assert!(rows[3]["error"].as_str().unwrap().starts_with("line 4: not valid JSON"), "{}", rows[3]);
    assert_eq!(rows[4], json!({"match": true}));
    assert!(rows[5]["error"].as_str().unwrap().contains("line 7"), "{}", rows[5]);
}

#[test]
fn test_filter_jsonl_answers_a_line_that_is_not_utf8_and_goes_on() {
    // Regression: one line of invalid UTF-8 ended the whole run with "stream did not contain
    // valid UTF-8" and no line number. Now that line is answered with an error naming it and
    // where its bad byte is, and the next lines are answered as usual.
    let good = json!({"policy": {"event_type": ["OrderPlaced"]}, "message": serde_json::from_str::<Value>(&attributes_message("OrderPlaced")).unwrap()}).to_string();
    let mut input = format!("{good}\n").into_bytes();
    input.extend_from_slice(b"{\"policy\": {\"a\": [\"caf\xe9\"]}}\n");
    input.extend_from_slice(format!("{good}\n").as_bytes());
    let out = fanout_with_stdin_bytes(&["test-filter", "--jsonl"], &input);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let rows: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).expect("each answer is JSON")).collect();
    let offset = good.len() + 1 + 22;
    assert_eq!(
        rows,
        [
            json!({"match": true}),
            json!({"error": format!("line 2: not valid UTF-8: byte 0xE9 at column 23 (offset {offset} of the input)")}),
            json!({"match": true})
        ]
    );
}

#[test]
fn a_file_that_is_not_utf8_is_reported_with_the_offset_of_its_bad_byte() {
    // Regression: a scenario file with a bad byte was "stream did not contain valid UTF-8", with
    // no clue where. Now run, test and export name the byte, its offset, line and column.
    let path = temp_file_bytes("latin1.json", b"{\"name\": \"x\",\n \"description\": \"caf\xe9\", \"steps\": []}");
    let shown = path.display().to_string();
    let said = format!("{shown}: not valid UTF-8: byte 0xE9 at offset 34 (line 2, column 21)");
    let test = fanout(&["test", path_str(&path)]);
    assert_eq!(test.code, Some(1));
    assert_eq!(test.stdout.lines().next(), Some(format!("FAIL {said}").as_str()));
    for command in [vec!["run", path_str(&path)], vec!["export", "counts", path_str(&path)]] {
        let out = fanout(&command);
        assert_eq!((out.code, out.stderr.trim()), (Some(2), format!("fanout: {said}").as_str()), "{command:?}");
    }
}

#[test]
fn test_fails_a_file_whose_action_fails_without_expect_error_as_the_page_refuses_it() {
    // Regression: `fanout test` answered "ok … 0 expectations" for a scenario whose CreateWorker
    // failed (ProcessingTime "0ms"), a file the page refuses to load. Both now ask the engine's
    // one rule (`Run::refusal`): test fails the file, naming the step, and run exits non-zero.
    let text = json!({"name": "x", "steps": [
        {"action": "CreateQueue", "params": {"QueueName": "q"}},
        {"action": "CreateWorker", "params": {"WorkerName": "w", "QueueUrl": "q", "ProcessingTime": "0ms"}},
        {"action": "CreateQueue", "params": {"QueueName": "r"}, "expect": {"QueueUrl": "https://sqs.us-east-1.amazonaws.com/000000000000/r"}}]});
    let path = temp_file("refused.json", &text.to_string());
    let refusal = Scenario::parse(&text.to_string()).unwrap().run().refusal().expect("the page refuses it");
    assert_eq!(refusal.step, Some(2));
    let test = fanout(&["test", path_str(&path)]);
    assert_eq!(test.code, Some(1), "{}", test.stdout);
    assert_eq!(
        test.stdout,
        format!("FAIL {}: {refusal}\n1 passed, 1 failed\n", path.display()),
        "the same words as the page's load error"
    );
    assert!(refusal
        .to_string()
        .starts_with("step 2: CreateWorker failed: InvalidParameterValue: ProcessingTime must be at least 1ms"));
    let run = fanout(&["run", path_str(&path)]);
    assert_eq!(run.code, Some(1));
    assert!(run.stdout.contains(&format!("the page refuses this file: {refusal}")), "{}", run.stdout);
    // With expect_error the same step is a passing expectation, and the file loads.
    let mut expected = text.clone();
    expected["steps"][1]["expect_error"] = json!({"Code": "InvalidParameterValue"});
    let expected = expected.to_string();
    let test = fanout(&["test", path_str(&temp_file("expected.json", &expected))]);
    assert_eq!((test.code, test.stdout.lines().last()), (Some(0), Some("2 passed, 0 failed")), "{}", test.stdout);
}

#[test]
fn actions_lists_the_engines_one_table() {
    let r = fanout(&["actions"]);
    assert_eq!(r.code, Some(0));
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), engine::actions::all().count(), "one line per table entry");
    let receive = lines.iter().find(|l| l.contains(" ReceiveMessage ")).expect("ReceiveMessage listed");
    assert!(receive.starts_with("SQS") && receive.contains("QueueUrl, AttributeNames"), "{receive}");
    assert!(lines.iter().any(|l| l.starts_with("Playground") && l.contains(" CrashWorker ")));
}
