//! `fanout`: run and test scenario files and lessons, and test filter policies, from the command
//! line. `test` tells a lesson file (a top-level `"lesson"` key) and the lesson index (`"lessons"`)
//! from a scenario by their shape, and plays a lesson headlessly (`engine::lesson`).
//!
//! ```text
//! fanout run FILE [--json]
//! fanout test FILE...
//! fanout test-filter --policy P --scope MessageAttributes|MessageBody --message M
//! fanout test-filter --jsonl < cases.jsonl
//! fanout actions
//! fanout export cloudformation|boto3|awscli|counts FILE
//! ```

use engine::drill::{self, Drill, DrillIndex};
use engine::filter::{FilterPolicy, FilterPolicyScope, Verdict};
use engine::lesson::{self, Lesson, LessonIndex};
use engine::scenario::{Run, RunOptions, Scenario};
use engine::{event_log_jsonl, ApiError, Sim};
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Running a scenario allocates and frees many small blocks (each step's JSON parameters and
/// response); mimalloc serves them faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage:
  fanout run FILE [--json]      print a scenario's timeline (--json: event log and final snapshot),
                                or a lesson's headless play with each check's value, or a drill's plays
  fanout test FILE...           check every expectation; ends with \"N passed, M failed\"
                                (a lesson file is played headlessly: predictions, checkpoints, facts;
                                a drill: left alone it fails its goal, its fix holds, its wrong fixes do not)
  fanout test-filter --policy P --scope MessageAttributes|MessageBody --message M
                                P and M are JSON or @file; M is {\"MessageAttributes\": {...}} or {\"Message\": \"...\"}
  fanout test-filter --jsonl    one {\"scope\", \"policy\", \"message\"} per line on stdin, one result per line out
  fanout actions                every action a scenario step can name: service, action, parameters
  fanout export FORMAT FILE     the scenario's topology for AWS: cloudformation (YAML), boto3 (Python), awscli (bash),
                                or counts (the engine's \"<queue> <ApproximateNumberOfMessages>\" lines at the end);
                                a lesson FILE exports the scenario it starts from, a drill FILE its broken world";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("test") => test(&args[1..]),
        Some("test-filter") => test_filter(&args[1..]),
        Some("actions") => actions(),
        Some("export") => export(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(USAGE.to_string()),
    };
    result.unwrap_or_else(|message| {
        eprintln!("fanout: {message}");
        ExitCode::from(2)
    })
}

/// The engine's action table, one action a line: `SQS ReceiveMessage QueueUrl, AttributeNames, …`.
fn actions() -> Result<ExitCode, String> {
    for a in engine::actions::all() {
        println!("{:<10} {:<30} {}", a.service.label(), a.name, a.params.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

/// A file's text; a file that is not UTF-8 is an error naming the first bad byte and where it is.
fn read_text(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        let (bytes, at) = (e.as_bytes(), e.utf8_error().valid_up_to());
        let (line, column) = line_and_column(bytes, at);
        format!("{path}: not valid UTF-8: {} at offset {at} (line {line}, column {column})", bad_byte(bytes, at))
    })
}

/// `byte 0xFF`: the first byte that is not UTF-8, `at` bytes into `bytes`.
fn bad_byte(bytes: &[u8], at: usize) -> String {
    bytes.get(at).map_or_else(|| "the end".to_string(), |b| format!("byte 0x{b:02X}"))
}

/// The line and column (in characters, from 1) of byte `at` of `bytes`, all valid UTF-8 before it.
fn line_and_column(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
    let line = before.matches('\n').count() + 1;
    (line, before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1)
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let json_out = args.iter().any(|a| a == "--json");
    let files: Vec<&String> = args.iter().filter(|a| *a != "--json").collect();
    let [path] = files.as_slice() else { return Err(format!("run takes one FILE\n{USAGE}")) };
    let text = read_text(path)?;
    if lesson::is_lesson(&text) && !json_out {
        return run_lesson(path, &text);
    }
    if drill::is_drill(&text) && !json_out {
        return run_drill(path, &text);
    }
    let scenario = Scenario::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let run = scenario.run();
    if json_out {
        let events: Vec<Value> =
            event_log_jsonl(run.events()).lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        let out = json!({ "scenario": scenario.name, "seed": scenario.seed, "events": events, "snapshot": run.sim().snapshot() });
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    } else {
        print_timeline(&scenario, &run);
    }
    Ok(if run.refusal().is_some() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn print_timeline(scenario: &Scenario, run: &Run) {
    println!("# {} (seed {})", scenario.name, scenario.seed);
    if !scenario.description.is_empty() {
        println!("# {}", scenario.description);
    }
    for o in &run.outcomes {
        match &o.result {
            None => println!("-- step {}: {}", o.step, o.label),
            Some(Ok(response)) => println!("-- step {}: {} -> {}", o.step, o.label, brief(response)),
            Some(Err(e)) => println!("-- step {}: {} -> error {}: {}", o.step, o.label, e.code, e.message),
        }
        for e in &run.events()[o.events.clone()] {
            println!("   {}", e.describe());
        }
    }
    match (&run.stopped, run.refusal()) {
        (Some(stop), _) => println!("stopped at {stop}"),
        (None, Some(refused)) => println!("the page refuses this file: {refused}"),
        (None, None) => {}
    }
    println!("== {} events, virtual time {}", run.events().len(), run.sim().now());
}

/// A lesson's headless play as a timeline: each step's kind and the events it caused, and the
/// checks that failed.
fn run_lesson(path: &str, text: &str) -> Result<ExitCode, String> {
    let lesson = parse_lesson(path, text)?;
    let (sim, report) = lesson.verify_on(Sim::new(lesson.scenario.seed));
    println!("# lesson {}: {} (seed {})", lesson.id, lesson.title, lesson.scenario.seed);
    let events = sim.events();
    let starts = &report.step_starts;
    println!("-- scenario");
    for e in &events[..starts.first().copied().unwrap_or(events.len())] {
        println!("   {}", e.describe());
    }
    for (i, start) in starts.iter().enumerate() {
        println!("-- step {}: {}", i + 1, lesson.steps[i].kind.name());
        for e in &events[*start..starts.get(i + 1).copied().unwrap_or(events.len())] {
            println!("   {}", e.describe());
        }
    }
    for check in &report.checks {
        let at = check.step.map_or("scenario".to_string(), |n| format!("step {n}"));
        let value = check.value.as_ref().map(|v| format!(" = {}", brief(v))).unwrap_or_default();
        match check.passed() {
            true => println!("ok     {at}: {}{value}", check.what),
            false => println!("failed {at}: {}{value}: {}", check.what, check.problems.join("; ")),
        }
    }
    println!("== {} events, virtual time {}", sim.events().len(), sim.now());
    Ok(if report.failed() == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn brief(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 160 {
        format!("{}…", text.chars().take(160).collect::<String>())
    } else {
        text
    }
}

fn test(files: &[String]) -> Result<ExitCode, String> {
    if files.is_empty() {
        return Err(format!("test takes at least one FILE\n{USAGE}"));
    }
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        // A lesson file or the lesson index: checked by the lesson player (below).
        let text = match read_text(path) {
            Ok(text) => text,
            Err(e) => {
                println!("FAIL {e}");
                failed += 1;
                continue;
            }
        };
        // A file that parses as a scenario is one: a scenario has none of the top-level keys
        // that make a file a lesson, the lesson index or an interview (`lesson::kind_of`). So
        // only a file that does not parse is asked what else it is, and a long scenario is read
        // once rather than twice.
        let scenario = match Scenario::parse(&text) {
            Ok(s) => s,
            Err(e) => {
                let (p, f) = match lesson::kind_of(&text) {
                    lesson::FileKind::Lesson => test_lesson(path, &text),
                    lesson::FileKind::Index => test_index(path, &text),
                    lesson::FileKind::Interview => test_interview(path, &text),
                    lesson::FileKind::Drill => test_drill(path, &text),
                    lesson::FileKind::DrillIndex => test_drill_index(path, &text),
                    lesson::FileKind::Scenario => {
                        println!("FAIL {path}: {e}");
                        (0, 1)
                    }
                };
                passed += p;
                failed += f;
                continue;
            }
        };
        let run = checked(&scenario);
        for o in &run.outcomes {
            match &o.check {
                Some(diffs) if !diffs.is_empty() => {
                    println!("FAIL {path}: step {} ({}):", o.step, o.label);
                    for d in diffs {
                        println!("     {d}");
                    }
                }
                // An action that failed without `expect_error` (or an `expect` to fail instead):
                // the page refuses the file for it, so `test` fails it too.
                None => {
                    if let Some(refused) = o.refusal() {
                        println!("FAIL {path}: {refused}");
                    }
                }
                Some(_) => {}
            }
        }
        if let Some(stop) = &run.stopped {
            println!("FAIL {path}: {stop}");
        }
        let (p, f) = (run.passed(), run.failed());
        if f == 0 {
            println!("ok   {path}: {p} expectations ({})", scenario.name);
        }
        passed += p;
        failed += f;
        // The process ends soon: leaving a large scenario and run to the OS is quicker than
        // freeing them piece by piece.
        std::mem::forget((scenario, run));
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The built-in scenarios a lesson may start from: `../scenarios/*.json` beside its folder
/// (`public/lessons/` → `public/scenarios/`), as (id, text), in name order.
fn builtin_scenarios(lesson_path: &str) -> Vec<(String, String)> {
    let dir = std::path::Path::new(lesson_path).parent().unwrap_or(std::path::Path::new(".")).join("../scenarios");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), std::fs::read_to_string(&p).ok()?)))
        .collect();
    out.sort();
    out
}

fn parse_lesson(path: &str, text: &str) -> Result<Lesson, String> {
    let builtins = builtin_scenarios(path);
    let pairs: Vec<(&str, &str)> = builtins.iter().map(|(id, t)| (id.as_str(), t.as_str())).collect();
    let lesson = Lesson::parse(text, &pairs).map_err(|e| format!("{path}: {e}"))?;
    let stem = std::path::Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if lesson.id != stem {
        return Err(format!("{path}: lesson: the id \"{}\" is not the file's name \"{stem}\"", lesson.id));
    }
    Ok(lesson)
}

/// Plays a lesson headlessly: `ok   FILE: N expectations (title)`, or a `FAIL` line per check
/// that did not hold, naming the lesson, the step and what differed. Returns (passed, failed).
fn test_lesson(path: &str, text: &str) -> (usize, usize) {
    let lesson = match parse_lesson(path, text) {
        Ok(l) => l,
        Err(message) => {
            println!("FAIL {message}");
            return (0, 1);
        }
    };
    let report = lesson.verify();
    for check in report.checks.iter().filter(|c| !c.passed()) {
        let at = check.step.map_or("scenario".to_string(), |n| format!("step {n}"));
        println!("FAIL {path}: lesson {}, {at}: {}:", lesson.id, check.what);
        for p in &check.problems {
            println!("     {p}");
        }
    }
    if report.failed() == 0 {
        println!("ok   {path}: {} expectations ({})", report.passed(), lesson.title);
    }
    (report.passed(), report.failed())
}

/// Checks the lesson index: each entry's file exists beside it and agrees with its listing.
fn test_index(path: &str, text: &str) -> (usize, usize) {
    let index = match LessonIndex::parse(text) {
        Ok(i) => i,
        Err(e) => {
            println!("FAIL {path}: {e}");
            return (0, 1);
        }
    };
    test_listings(path, "lessons", "lesson index", &index.lessons, |file, text| {
        parse_lesson(file, text).map(|l| (l.title, l.summary, l.minutes))
    })
}

/// Checks an index's listings (the lessons', the drills'): each entry's file exists beside the
/// index, parses, and agrees with its listing (title, summary, minutes).
fn test_listings(
    path: &str,
    key: &str,
    name: &str,
    listings: &[lesson::LessonListing],
    read: impl Fn(&str, &str) -> Result<(String, String, u32), String>,
) -> (usize, usize) {
    let dir = std::path::Path::new(path).parent().unwrap_or(std::path::Path::new("."));
    let (mut passed, mut failed) = (0, 0);
    for (i, entry) in listings.iter().enumerate() {
        let file = dir.join(format!("{}.json", entry.id));
        let file = file.to_string_lossy();
        let problem = match read_text(&file) {
            Err(e) => Some(e),
            Ok(text) => match read(&file, &text) {
                Err(e) => Some(e),
                Ok((title, summary, minutes))
                    if (&title, &summary, minutes) != (&entry.title, &entry.summary, entry.minutes) =>
                {
                    Some(format!("title, summary or minutes differ from {file}'s ({title:?}, {summary:?}, {minutes})"))
                }
                Ok(_) => None,
            },
        };
        match problem {
            Some(p) => {
                println!("FAIL {path}: {key}[{i}] ({}): {p}", entry.id);
                failed += 1;
            }
            None => passed += 1,
        }
    }
    if failed == 0 {
        println!("ok   {path}: {passed} expectations ({name})");
    }
    (passed, failed)
}

fn parse_drill(path: &str, text: &str) -> Result<Drill, String> {
    let builtins = builtin_scenarios(path);
    let pairs: Vec<(&str, &str)> = builtins.iter().map(|(id, t)| (id.as_str(), t.as_str())).collect();
    let drill = Drill::parse(text, &pairs).map_err(|e| format!("{path}: {e}"))?;
    let stem = std::path::Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if drill.id != stem {
        return Err(format!("{path}: drill: the id \"{}\" is not the file's name \"{stem}\"", drill.id));
    }
    Ok(drill)
}

/// Plays a drill every way `Drill::verify` asks: `ok   FILE: N expectations (title)`, or a `FAIL`
/// line per check that did not hold (left alone the goal holds, the recorded fix does not make it
/// hold, a wrong fix does), naming the drill and the play. Returns (passed, failed).
fn test_drill(path: &str, text: &str) -> (usize, usize) {
    let drill = match parse_drill(path, text) {
        Ok(d) => d,
        Err(message) => {
            println!("FAIL {message}");
            return (0, 1);
        }
    };
    let report = drill.verify();
    for check in report.checks.iter().filter(|c| !c.passed()) {
        println!("FAIL {path}: drill {}, {}:", drill.id, check.what);
        for p in &check.problems {
            println!("     {p}");
        }
    }
    if report.failed() == 0 {
        println!("ok   {path}: {} expectations ({})", report.passed(), drill.title);
    }
    (report.passed(), report.failed())
}

/// Checks the drill index: each entry's file exists beside it and agrees with its listing.
fn test_drill_index(path: &str, text: &str) -> (usize, usize) {
    let index = match DrillIndex::parse(text) {
        Ok(i) => i,
        Err(e) => {
            println!("FAIL {path}: {e}");
            return (0, 1);
        }
    };
    test_listings(path, "drills", "drill index", &index.drills, |file, text| {
        parse_drill(file, text).map(|d| (d.title, d.summary, d.minutes))
    })
}

/// A drill's plays, each with every goal's deciding reading: left alone, the recorded fix, the
/// fixes also right, the wrong fixes.
fn run_drill(path: &str, text: &str) -> Result<ExitCode, String> {
    let drill = parse_drill(path, text)?;
    println!("# drill {}: {} (seed {})", drill.id, drill.title, drill.world.seed);
    println!(
        "# paged at {} by {}; window {}",
        drill.page.at,
        drill.page.from,
        engine::time::format_duration(drill.window_ms)
    );
    let report = drill.verify();
    for check in &report.checks {
        match &check.verdict {
            Some(v) => {
                let verdict = if v.passed { "holds" } else { "not yet" };
                println!("-- {}: {verdict} (window {} to {})", check.what, v.start, v.end);
                for g in &v.goals {
                    println!("   {:<4} {}: {} at {}", if g.holds { "ok" } else { "no" }, g.label, g.shown, g.at);
                }
            }
            None => println!("-- {}", check.what),
        }
        for p in &check.problems {
            println!("failed {}: {p}", check.what);
        }
    }
    Ok(if report.failed() == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Runs a scenario through the page's pipeline, keeping only what `test` reads: the verdicts,
/// not the commands (no time travel here), the responses or the event log, none of which
/// changes what a step does (`engine/tests/scenario_files.rs` checks that).
fn checked(scenario: &Scenario) -> Run<Sim> {
    scenario.run_on(Sim::new(scenario.seed), RunOptions { event_log: false, responses: false })
}

/// A JSON argument, or `@file` for a file holding it.
fn json_arg(text: &str) -> Result<Value, String> {
    let owned;
    let body = match text.strip_prefix('@') {
        Some(path) => {
            owned = read_text(path)?;
            owned.as_str()
        }
        None => text,
    };
    serde_json::from_str(body).map_err(|e| format!("not valid JSON ({e}): {}", brief(&Value::String(body.to_string()))))
}

/// The result of one filter case, as `match`/`no match`/`invalid policy`.
enum FilterResult {
    Match,
    NoMatch(String),
    Invalid(String),
}

fn evaluate_case(policy: &Value, scope: &str, message: &Value) -> Result<FilterResult, String> {
    let scope: FilterPolicyScope = scope.parse()?;
    let policy_text = match policy {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let compiled = match FilterPolicy::compile(&policy_text, scope) {
        Ok(p) => p,
        Err(e) => return Ok(FilterResult::Invalid(e.message)),
    };
    let Value::Object(m) = message else { return Err("the message must be a JSON object".into()) };
    if let Some(k) = m.keys().find(|k| *k != "MessageAttributes" && *k != "Message") {
        return Err(format!("the message has an unknown key \"{k}\" (use MessageAttributes and/or Message)"));
    }
    let params = json!({ "Message": m.get("Message").cloned().unwrap_or(json!("{}")), "MessageAttributes": m.get("MessageAttributes").cloned().unwrap_or(json!({})) });
    let attributes = engine::sns::parse_publish_attributes(&params).map_err(|e: ApiError| e.message)?;
    let body = params["Message"].as_str().ok_or("\"Message\" must be a string (the published body)")?;
    Ok(match compiled.evaluate(&attributes, body) {
        Verdict::Match => FilterResult::Match,
        Verdict::NoMatch(why) => FilterResult::NoMatch(why.reason),
    })
}

fn test_filter(args: &[String]) -> Result<ExitCode, String> {
    if args.iter().any(|a| a == "--jsonl") {
        return test_filter_jsonl();
    }
    let mut policy = None;
    let mut scope = "MessageAttributes".to_string();
    let mut message = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        match flag.as_str() {
            "--policy" => policy = Some(json_arg(value)?),
            "--scope" => scope = value.clone(),
            "--message" => message = Some(json_arg(value)?),
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    let policy = policy.ok_or_else(|| format!("--policy is required\n{USAGE}"))?;
    let message = message.ok_or_else(|| format!("--message is required\n{USAGE}"))?;
    match evaluate_case(&policy, &scope, &message)? {
        FilterResult::Match => println!("match"),
        FilterResult::NoMatch(reason) => println!("no match: {reason}"),
        FilterResult::Invalid(error) => {
            println!("invalid policy: {error}");
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One `{"scope", "policy", "message"}` per line of stdin, one answer per line of stdout. A line
/// that is not UTF-8 or not a case is answered with `{"error"}` naming it, and the next line is
/// read: one bad line does not end the run.
fn test_filter_jsonl() -> Result<ExitCode, String> {
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let (mut bytes, mut offset) = (Vec::new(), 0);
    for n in 1.. {
        bytes.clear();
        let read = input.read_until(b'\n', &mut bytes).map_err(|e| format!("line {n}: cannot read: {e}"))?;
        if read == 0 {
            break;
        }
        let line = match std::str::from_utf8(&bytes) {
            Ok(line) => line,
            Err(e) => {
                let at = e.valid_up_to();
                let error = format!(
                    "line {n}: not valid UTF-8: {} at column {} (offset {} of the input)",
                    bad_byte(&bytes, at),
                    line_and_column(&bytes, at).1,
                    offset + at
                );
                writeln!(out, "{}", json!({ "error": error })).map_err(|e| e.to_string())?;
                offset += read;
                continue;
            }
        };
        offset += read;
        if line.trim().is_empty() {
            continue;
        }
        let result = serde_json::from_str::<Value>(line)
            .map_err(|e| format!("line {n}: not valid JSON ({e})"))
            .and_then(|case| {
                let scope = case.get("scope").and_then(Value::as_str).unwrap_or("MessageAttributes").to_string();
                let policy = case.get("policy").ok_or_else(|| format!("line {n}: \"policy\" is missing"))?;
                let message = case.get("message").ok_or_else(|| format!("line {n}: \"message\" is missing"))?;
                evaluate_case(policy, &scope, message).map_err(|e| format!("line {n}: {e}"))
            });
        let row = match result {
            Ok(FilterResult::Match) => json!({ "match": true }),
            Ok(FilterResult::NoMatch(reason)) => json!({ "match": false, "reason": reason }),
            Ok(FilterResult::Invalid(error)) | Err(error) => json!({ "error": error }),
        };
        writeln!(out, "{row}").map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `fanout export FORMAT FILE`: the scenario's final topology (and, for the scripts, its messages)
/// on stdout; for a lesson, its starting scenario's; for a drill, its broken world's. A scenario
/// whose run stops (a `save` that does not resolve) is an error.
fn export(args: &[String]) -> Result<ExitCode, String> {
    let [format, path] = args else { return Err(format!("export takes FORMAT and one FILE\n{USAGE}")) };
    let text = read_text(path)?;
    // A lesson exports the topology it starts from: its scenario.
    let scenario = if lesson::is_lesson(&text) {
        parse_lesson(path, &text)?.scenario
    } else if drill::is_drill(&text) {
        parse_drill(path, &text)?.world
    } else {
        Scenario::parse(&text).map_err(|e| format!("{path}: {e}"))?
    };
    let story = engine::export::story(&scenario).map_err(|e| format!("{path}: {e}"))?;
    let (sim, commands) = (story.sim(), story.commands());
    let text = match format.as_str() {
        "cloudformation" => engine::export::cloudformation(sim),
        "boto3" => engine::export::boto3(sim, commands),
        "awscli" => engine::export::awscli(sim, commands),
        "counts" => engine::export::queue_counts(sim),
        other => return Err(format!("unknown export format \"{other}\" (cloudformation, boto3, awscli or counts)")),
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// An interview walkthrough: each step's "try it" run in its design (`../designs/<design>.json`
/// beside the file's folder), its `expect`s checked as a scenario's. The same `ok`/`FAIL` lines.
fn test_interview(path: &str, text: &str) -> (usize, usize) {
    let interview = match engine::interview::Interview::parse(text) {
        Ok(i) => i,
        Err(e) => {
            println!("FAIL {path}: {e}");
            return (0, 1);
        }
    };
    let dir = std::path::Path::new(path).parent().unwrap_or(std::path::Path::new(".")).join("../designs");
    let (mut passed, mut failed) = (0, 0);
    // A complete walkthrough: a rubric per step, a model answer per follow-up, a try-it that checks.
    for gap in interview.gaps() {
        println!("FAIL {path}: {gap}");
        failed += 1;
    }
    for (i, step) in interview.steps.iter().enumerate() {
        let design = read_text(&dir.join(format!("{}.json", step.design)).to_string_lossy());
        let scenario = design
            .map_err(|e| format!("design {}: {e}", step.design))
            .and_then(|d| interview.try_scenario(i, &d))
            .and_then(|t| engine::Scenario::parse(&t).map_err(|e| e.to_string()));
        let scenario = match scenario {
            Ok(s) => s,
            Err(e) => {
                println!("FAIL {path}: step {}: {e}", interview.number(i));
                failed += 1;
                continue;
            }
        };
        let run = checked(&scenario);
        for o in &run.outcomes {
            let Some(diffs) = o.check.as_ref().filter(|d| !d.is_empty()) else { continue };
            println!("FAIL {path}: step {}, try-it step {} ({}):", interview.number(i), o.step, o.label);
            for d in diffs {
                println!("     {d}");
            }
        }
        if let Some(stop) = &run.stopped {
            println!("FAIL {path}: step {}: {stop}", interview.number(i));
        }
        passed += run.passed();
        failed += run.failed() + usize::from(run.stopped.is_some());
    }
    if failed == 0 {
        println!("ok   {path}: {passed} expectations ({})", interview.title);
    }
    (passed, failed)
}
