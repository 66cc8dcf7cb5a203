//! The script exports (`engine::export::boto3`, `awscli`), the story they send again
//! (`export::story`), the engine's counts in the scripts' format (`queue_counts`), and `fanout
//! export`. Each message call is read back from the script text (Python string literals, shell
//! words holding JSON) and compared with the command the engine ran; `scripts/export_check.sh`
//! runs the scripts against moto.
mod common;

use common::{ok, queue};
use engine::history::Command;
use engine::{export, Scenario, Sim};
use serde_json::{json, Map, Value};
use std::path::PathBuf;

fn path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn scenario(rel: &str) -> Scenario {
    Scenario::parse(&std::fs::read_to_string(path(rel)).expect("the file reads")).expect("the scenario parses")
}

fn scenario_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["../public/scenarios", "tests/scenarios"] {
        for entry in std::fs::read_dir(path(dir)).expect("a directory") {
            let p = entry.expect("an entry").path();
            if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// The message calls of a story, as the engine ran them: (action, params).
fn message_commands(commands: &[Command]) -> Vec<(String, Value)> {
    let sends = ["Publish", "PublishBatch", "SendMessage", "SendMessageBatch"];
    commands
        .iter()
        .filter(|c| sends.contains(&c.action.as_str()))
        .map(|c| (c.action.clone(), c.params.clone()))
        .collect()
}

/// Reads one Python string literal at the start of `s`: its value and the text after it.
fn py_literal(s: &str) -> (String, &str) {
    let mut chars = s.char_indices();
    let (_, q) = chars.next().expect("a literal");
    assert!(q == '"' || q == '\'', "a quoted literal at {s:.40}");
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c == q => return (out, &s[i + 1..]),
            '\\' => {
                let (_, e) = chars.next().expect("an escape");
                let mut hex = |n: usize| {
                    let digits: String = (0..n).map(|_| chars.next().expect("hex digits").1).collect();
                    char::from_u32(u32::from_str_radix(&digits, 16).expect("hex")).expect("a char")
                };
                out.push(match e {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'x' => hex(2),
                    'u' => hex(4),
                    'U' => hex(8),
                    other => other,
                });
            }
            c => out.push(c),
        }
    }
    panic!("an unclosed literal in {s:.60}")
}

/// Reads the shell word at the start of `s` (`'…'`, `$'…'` and `"$VAR"` pieces), a variable
/// read as `<VAR>`; returns its value and the text after it.
fn shell_word(s: &str) -> (String, &str) {
    let mut out = String::new();
    let mut rest = s;
    loop {
        if let Some(r) = rest.strip_prefix('\'') {
            let end = r.find('\'').expect("a closing quote");
            out.push_str(&r[..end]);
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix("$'") {
            let mut bytes = Vec::new();
            let mut it = r.char_indices();
            let end = loop {
                let (i, c) = it.next().expect("a closing quote");
                match c {
                    '\'' => break i,
                    '\\' => match it.next().expect("an escape").1 {
                        'n' => bytes.push(b'\n'),
                        'x' => {
                            let hex: String = (0..2).map(|_| it.next().expect("hex").1).collect();
                            bytes.push(u8::from_str_radix(&hex, 16).expect("hex"));
                        }
                        other => bytes.extend(other.to_string().as_bytes()),
                    },
                    c => bytes.extend(c.to_string().as_bytes()),
                }
            };
            out.push_str(&String::from_utf8(bytes).expect("UTF-8"));
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix("\"$") {
            let end = r.find('"').expect("a closing double quote");
            out.push_str(&format!("<{}>", &r[..end]));
            rest = &r[end + 1..];
        } else {
            return (out, rest);
        }
    }
}

fn story(rel: &str) -> engine::history::History {
    export::story(&scenario(rel)).expect("the story plays")
}

#[test]
fn a_story_ends_where_the_scenario_run_ends_and_keeps_only_what_succeeded() {
    for file in scenario_files() {
        let s = Scenario::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let run = s.run();
        let h = export::story(&s).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(h.sim().snapshot(), run.sim().snapshot(), "{}", file.display());
        let succeeded = run.outcomes.iter().filter(|o| matches!(o.result, Some(Ok(_)))).count();
        assert_eq!(h.commands().len(), succeeded, "{}", file.display());
    }
}

#[test]
fn the_boto3_script_sends_every_message_again_exactly_in_order() {
    let h = story("tests/scenarios/export-hostile.json");
    let script = export::boto3(h.sim(), h.commands());
    let sent = message_commands(h.commands());
    let calls: Vec<&str> = script
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("sns.publish(") || l.starts_with("sqs.send_message("))
        .collect();
    assert_eq!(calls.len(), sent.len());
    for ((action, params), line) in sent.iter().zip(&calls) {
        let key = if action == "Publish" { "Message" } else { "MessageBody" };
        let at = line.find(&format!(" {key}=")).or_else(|| line.find(&format!("({key}="))).expect("the body argument");
        let (body, _) = py_literal(&line[at + key.len() + 2..]);
        assert_eq!(body, params[key].as_str().unwrap(), "{line}");
        let target = if action == "Publish" { "TopicArn=topic[" } else { "QueueUrl=queue[" };
        assert!(line.contains(target), "{line}");
    }
    let bodies: Vec<&str> = sent.iter().filter_map(|(_, p)| p.get("Message").and_then(Value::as_str)).collect();
    assert!(bodies.iter().any(|b| b.contains("$(rm -rf /)") && b.contains('\u{202e}')), "the story is hostile enough");
}

#[test]
fn the_awscli_script_passes_each_request_as_the_exact_json() {
    // Every call's --cli-input-json word, read as the shell reads it, is the engine's parameters.
    let h = story("tests/scenarios/export-hostile.json");
    let script = export::awscli(h.sim(), h.commands());
    let requests: Vec<Value> = script
        .lines()
        .filter_map(|l| l.strip_prefix("aws_ sns publish ").or_else(|| l.strip_prefix("aws_ sqs send-message ")))
        .map(|rest| {
            let (word, after) = shell_word(rest);
            assert_eq!(after, " >/dev/null");
            serde_json::from_str(&word).unwrap_or_else(|e| panic!("not JSON ({e}): {word}"))
        })
        .collect();
    let sent = message_commands(h.commands());
    assert_eq!(requests.len(), sent.len());
    for (request, (_, params)) in requests.iter().zip(&sent) {
        let mut want: Map<String, Value> = params.as_object().unwrap().clone();
        let mut got = request.as_object().unwrap().clone();
        let target = ["TopicArn", "QueueUrl"].iter().find(|k| want.contains_key(**k)).unwrap();
        want.remove(*target);
        let var = got.remove(*target).unwrap();
        assert!(var.as_str().unwrap().starts_with("<T") || var.as_str().unwrap().starts_with("<Q"), "{var}");
        if let Some(Value::String(d)) = want.get("DelaySeconds").cloned() {
            want.insert("DelaySeconds".into(), json!(d.parse::<i64>().unwrap()));
        }
        assert_eq!(Value::Object(got), Value::Object(want));
    }
}

#[test]
fn both_scripts_count_every_queue_in_name_order_like_the_engine() {
    // The documented output: one "<queue name> <ApproximateNumberOfMessages>" line per queue.
    let h = story("tests/scenarios/quilt-store-orders.json");
    let mut sim = h.sim().clone();
    let names: Vec<String> = sim.snapshot().queues.iter().map(|q| q.name.clone()).collect();
    let mut want = String::new();
    for n in &names {
        let r = ok(
            &mut sim,
            "GetQueueAttributes",
            json!({"QueueUrl": n, "AttributeNames": ["ApproximateNumberOfMessages"]}),
        );
        want.push_str(&format!("{n} {}\n", r["Attributes"]["ApproximateNumberOfMessages"].as_str().unwrap()));
    }
    assert_eq!(export::queue_counts(h.sim()), want);
    assert_eq!(want, "billing 3\npacking 3\nsms 2\nsms-dlq 0\n", "three events in, the refund filtered from sms");
    let awscli = export::awscli(h.sim(), h.commands());
    let printed: Vec<String> =
        awscli.lines().filter_map(|l| l.strip_prefix("printf '%s %s\\n' ")).map(|r| shell_word(r).0).collect();
    assert_eq!(printed, names);
    let boto3 = export::boto3(h.sim(), h.commands());
    let created: Vec<String> =
        boto3.lines().filter_map(|l| l.trim().strip_prefix("queue[").map(|r| py_literal(r).0)).collect();
    assert_eq!(created, names, "the script prints its queues in the order it made them");
}

#[test]
fn a_message_whose_topic_is_gone_is_not_sent_again_and_the_script_says_so() {
    let mut sim = Sim::new(1);
    ok(&mut sim, "CreateTopic", json!({"Name": "old"}));
    queue(&mut sim, "billing", json!({}));
    let publish = json!({"TopicArn": "old", "Message": "hello"});
    ok(&mut sim, "Publish", publish.clone());
    ok(&mut sim, "DeleteTopic", json!({"TopicArn": "old"}));
    let commands = vec![Command { at: sim.now(), action: "Publish".into(), params: publish }];
    let script = export::boto3(&sim, &commands);
    assert!(!script.contains("sns.publish("), "{script}");
    assert!(script.lines().any(|l| l.contains("# ") && l.contains("publish to old: not sent again")), "{script}");
    let awscli = export::awscli(&sim, &commands);
    assert!(!awscli.contains("aws_ sns publish"));
}

#[test]
fn scripts_default_to_aws_in_us_east_1_and_take_an_endpoint() {
    let h = story("../public/scenarios/quilt-store.json");
    let boto3 = export::boto3(h.sim(), h.commands());
    assert!(
        boto3.contains("\"--endpoint-url\", default=None") && boto3.contains("\"--region\", default=\"us-east-1\"")
    );
    let awscli = export::awscli(h.sim(), h.commands());
    assert!(awscli.contains("ENDPOINT_URL=\"\"") && awscli.contains("REGION=\"us-east-1\""));
    assert!(
        awscli.lines().filter(|l| l.starts_with("aws_ ") || l.contains("=$(aws_ ")).all(|l| l.contains(" '{")),
        "all JSON input"
    );
}

fn fanout(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fanout")).args(args).output().expect("fanout runs");
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn fanout_export_prints_each_format_and_refuses_what_it_cannot_do() {
    let file = path("tests/scenarios/quilt-store-orders.json");
    let file = file.to_str().unwrap();
    let h = story("tests/scenarios/quilt-store-orders.json");
    let want = [
        ("cloudformation", export::cloudformation(h.sim())),
        ("boto3", export::boto3(h.sim(), h.commands())),
        ("awscli", export::awscli(h.sim(), h.commands())),
        ("counts", export::queue_counts(h.sim())),
    ];
    for (format, text) in want {
        let (code, stdout, stderr) = fanout(&["export", format, file]);
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "{format}");
        assert_eq!(stdout, text, "{format}");
    }
    let (code, _, stderr) = fanout(&["export", "terraform", file]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("unknown export format \"terraform\""), "{stderr}");
    let (code, _, stderr) = fanout(&["export", "cloudformation", "no-such-file.json"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no-such-file.json"), "{stderr}");
    let (code, _, stderr) = fanout(&["export", "cloudformation"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("export takes FORMAT and one FILE"), "{stderr}");
    // A lesson exports the scenario it starts from (the visibility-timeout lesson's own queue).
    let lesson = path("../public/lessons/visibility-timeout.json");
    let (code, stdout, stderr) = fanout(&["export", "cloudformation", lesson.to_str().unwrap()]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    assert!(stdout.contains("AWSTemplateFormatVersion") && stdout.contains("Type: AWS::SQS::Queue"), "{stdout}");
}
