//! Issue 49, the last read of the newer lessons (event-design, interview-method,
//! lambda-destinations, idempotent-consumers): a question whose answer the diagram showed
//! before the run, screens with two ideas, a stage that showed another number than its text,
//! counts that carried over from an earlier screen, a rollback of a printed slip, and AWS facts
//! (destinations, ordering) stated wrong. One check each, that would have caught it.
mod common;

use common::*;
use engine::event_log_jsonl;
use engine::lesson::{Lesson, Probe, Session, StepKind};
use engine::Sim;
use serde_json::{json, Value};

const PUBLIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../public");

fn load(id: &str) -> Lesson {
    let text = std::fs::read_to_string(format!("{PUBLIC}/lessons/{id}.json")).unwrap_or_else(|e| panic!("{id}: {e}"));
    Lesson::parse(&text, &[]).unwrap_or_else(|e| panic!("{id}.json: {e}"))
}

/// The index (from 0) of the first step of `lesson` that `is` picks.
fn step_where(lesson: &Lesson, is: impl Fn(&engine::lesson::LessonStep) -> bool) -> usize {
    lesson.steps.iter().position(is).expect("the lesson has such a step")
}

/// A sim played along the lesson's own path to the start of step `index` (from 0).
fn at_start_of(lesson: &Lesson, index: usize) -> Sim {
    let mut sim = Sim::new(lesson.scenario.seed);
    let session = Session::resume(lesson.clone(), &mut sim, index).expect("it resumes");
    assert_eq!(session.step_index(), index);
    sim
}

/// How many events of `kind` the log holds whose `field` is `value`.
fn logged(sim: &Sim, kind: &str, field: &str, value: &str) -> usize {
    event_log_jsonl(sim.events())
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|e| e["event"] == kind && e[field] == value)
        .count()
}

#[test]
fn the_vip_question_is_asked_before_the_diagram_shows_any_copy_kept_from_vip() {
    // event-design 4 asked how many messages vip would hold while vip's filter already read
    // "3 filtered out": the thin events of step 2 had met it. Now vip and its filter appear in
    // the step before the question, so its count starts at 0 and the drop comes with the run.
    let lesson = load("event-design");
    let ask = step_where(
        &lesson,
        |s| matches!(&s.kind, StepKind::Predict(p) if matches!(&p.probe, Probe::Queue { queue, .. } if queue == "vip")),
    );
    let mut sim = Sim::new(lesson.scenario.seed);
    let mut session = Session::resume(lesson, &mut sim, ask).expect("it resumes");
    let subscribed = ok(&mut sim, "ListSubscriptionsByTopic", json!({"TopicArn": "order-events"}));
    let endpoints: Vec<&str> =
        subscribed["Subscriptions"].as_array().expect("a list").iter().filter_map(|s| s["Endpoint"].as_str()).collect();
    assert!(
        endpoints.iter().any(|e| e.ends_with(":vip")),
        "vip is subscribed when the question is asked: {endpoints:?}"
    );
    assert_eq!(logged(&sim, "FilteredOut", "endpoint", "vip"), 0, "no copy has been kept from vip before the run");
    assert!(session.perform(&mut sim).errors.is_empty());
    assert_eq!(logged(&sim, "FilteredOut", "endpoint", "vip"), 1, "the thin event's drop comes with the run");
}

#[test]
fn event_design_gives_the_envelope_the_repeat_and_the_correlation_id_a_screen_each() {
    // event-design 7 listed the envelope's fields, taught skipping a repeat and named the
    // correlation id on one screen, and took an SMS for OrderShipped for granted.
    let lesson = load("event-design");
    let said = |s: &engine::lesson::LessonStep| {
        let mut t = s.text.clone();
        if let StepKind::Predict(p) = &s.kind {
            t = format!("{t} {} {}", p.question, p.reveal);
        }
        t
    };
    let envelope = step_where(&lesson, |s| s.text.contains("`occurred_at`"));
    let repeat = step_where(&lesson, |s| matches!(&s.kind, StepKind::Predict(p) if p.question.contains("order 4423")));
    let correlation = step_where(&lesson, |s| s.text.contains("*correlation id*"));
    assert!(envelope < repeat && repeat < correlation, "{envelope}, {repeat}, {correlation}");
    assert!(matches!(lesson.steps[envelope].kind, StepKind::Narration));
    assert!(!said(&lesson.steps[repeat]).contains("correlation"), "the repeat's screen is about the event id only");
    assert!(!said(&lesson.steps[repeat]).contains("`occurred_at`"));
    let StepKind::Run { facts, .. } = &lesson.steps[correlation].kind else { panic!("the correlation id is a run") };
    assert!(!facts.is_empty(), "the correlation id's screen checks what it says");
    // The scenario's sms queue takes every event (no filter policy), so its worker texts for
    // OrderShipped too; the screen says so instead of assuming it.
    assert!(said(&lesson.steps[repeat]).contains("`sms` gets every event on the topic"));
    let mut sim = at_start_of(&lesson, repeat);
    let subs = ok(&mut sim, "ListSubscriptionsByTopic", json!({"TopicArn": "order-events"}));
    let sms = subs["Subscriptions"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|s| s["Endpoint"].as_str().is_some_and(|e| e.ends_with(":sms")));
    let arn = sms.and_then(|s| s["SubscriptionArn"].as_str()).expect("sms is subscribed").to_string();
    let attributes = ok(&mut sim, "GetSubscriptionAttributes", json!({"SubscriptionArn": arn}));
    assert!(attributes["Attributes"].get("FilterPolicy").is_none(), "{attributes}");
}

#[test]
fn interview_method_names_its_interview_steps_shows_the_latency_it_states_and_asks_about_each_screens_own_counts() {
    let lesson = load("interview-method");
    // The panel counts screens ("2 / 11"); a screen that said "Step 1" read as the wrong one.
    for (i, s) in lesson.steps.iter().enumerate().skip(1) {
        let bare = s.text.split(['.', ':']).any(|part| {
            let part = part.trim_start();
            part.starts_with("Step ") && part[5..].starts_with(|c: char| c.is_ascii_digit())
        });
        assert!(!bare, "step {}: a bare \"Step N\" in {:?}", i + 1, s.text);
    }
    let runs = lesson.steps.iter().filter(|s| matches!(s.kind, StepKind::Run { .. } | StepKind::Predict(_)));
    assert!(runs.clone().all(|s| s.text.starts_with("Interview step ") || s.text.starts_with("Still interview step ")));
    // What the SMS provider's box shows when the screen opens is what its text says it is then.
    let sms_latency = |index: usize| {
        let mut sim = at_start_of(&lesson, index);
        ok(&mut sim, "DescribeDependency", json!({"DependencyName": "sms-api"}))["Latency"].clone()
    };
    let coupled = step_where(&lesson, |s| s.text.starts_with("Interview step 1 of 7"));
    assert!(lesson.steps[coupled].text.contains("slows from 500 ms to 25 s"));
    assert_eq!(sms_latency(coupled), sms_latency(0), "{}", lesson.steps[coupled].text);
    let fan_out = step_where(&lesson, |s| s.text.starts_with("Interview step 3 of 7"));
    assert!(lesson.steps[fan_out].text.contains("still takes 4 s"));
    let publish = step_where(&lesson, |s| s.text.starts_with("Interview step 2 of 7"));
    let mut sim = at_start_of(&lesson, fan_out);
    let now = ok(&mut sim, "DescribeDependency", json!({"DependencyName": "sms-api"}))["Latency"].clone();
    let mut set = at_start_of(&lesson, publish);
    ok(&mut set, "UpdateDependency", json!({"DependencyName": "sms-api", "Latency": "4s"}));
    let four = ok(&mut set, "DescribeDependency", json!({"DependencyName": "sms-api"}))["Latency"].clone();
    assert_eq!(now, four, "sms-api answers in 4 s when step 3 of 7 opens");
    // Counts carry over from screen to screen; a question counts what happens in its own run.
    for (i, s) in lesson.steps.iter().enumerate() {
        if let StepKind::Predict(p) = &s.kind {
            assert!(
                !matches!(p.probe, Probe::Job { .. }),
                "step {}: the question reads a total since the story began: {:?}",
                i + 1,
                p.question
            );
        }
    }
    // One idea a screen: the 60 s the learner sets, then SQS's refusal of 43,201 s.
    let refusal = step_where(&lesson, |s| s.text.contains("43,201"));
    let StepKind::Run { run, .. } = &lesson.steps[refusal].kind else { panic!("the refusal is a run") };
    assert_eq!(run.len(), 1, "the refusal's screen only shows the refusal");
}

#[test]
fn idempotent_consumers_commits_the_id_with_a_database_write_not_with_a_printed_slip() {
    // idempotent-consumers 5 said the id and a printed slip are saved "together, or neither":
    // paper cannot be rolled back. The transaction holds the slip's print job, a database row.
    let lesson = load("idempotent-consumers");
    let step = step_where(&lesson, |s| matches!(s.kind, StepKind::Checkpoint(_)) && s.text.contains("transaction"));
    let StepKind::Checkpoint(c) = &lesson.steps[step].kind else { unreachable!() };
    let text = &lesson.steps[step].text;
    assert!(text.contains("not a printed slip") && text.contains("print job in its database"), "{text}");
    assert!(c.goals.iter().all(|g| !g.label.contains("with the slip,")), "a goal commits a print job, not paper");
    assert!(c.done.contains("print job") && !c.done.contains("slip are saved together"), "{}", c.done);
}

#[test]
fn lambda_destinations_names_every_destination_kind_and_no_order_from_a_standard_topic() {
    // The AWS page "Capturing records of Lambda asynchronous invocations": a standard SQS queue,
    // a standard SNS topic, an S3 bucket (on failure only), a function or an EventBridge bus.
    // SNS standard topics order messages on a best-effort basis only; the remember screen had
    // fan-out chosen "for order".
    let lesson = load("lambda-destinations");
    let StepKind::Remember { lines, .. } = &lesson.steps.last().expect("a last step").kind else {
        panic!("the lesson ends with its remember screen")
    };
    let kinds = lines.iter().find(|l| l.contains("EventBridge")).expect("a line lists the destinations");
    for kind in ["SQS queue", "SNS topic", "EventBridge bus", "function", "for OnFailure only an S3"] {
        assert!(kinds.contains(kind), "{kind:?} missing from {kinds:?}");
    }
    let fan_out = lines.iter().find(|l| l.starts_with("Choose fan-out")).expect("a line says when to fan out");
    assert!(fan_out.ends_with("a standard topic does not promise order."), "{fan_out}");
    // The step that sets OnSuccess to a topic lists only what OnSuccess can be.
    let topic = step_where(&lesson, |s| s.appears.iter().any(|a| a == "points-events"));
    assert!(
        lesson.steps[topic].text.contains("OnSuccess can be a standard queue or topic"),
        "{}",
        lesson.steps[topic].text
    );
    assert!(!lesson.steps[topic].text.contains("S3"), "S3 takes OnFailure records only");
}

#[test]
fn the_correlation_id_event_design_teaches_has_its_row_in_the_facts_table_at_its_step() {
    // docs/facts.md listed every fact event-design checks but the correlation id it teaches.
    let lesson = load("event-design");
    let step = step_where(&lesson, |s| s.text.contains("*correlation id*")) + 1;
    let table =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/facts.md")).expect("docs/facts.md");
    let row = table
        .lines()
        .find(|l| l.starts_with("| ") && l.contains("correlation id"))
        .expect("a row for the correlation id");
    let cells: Vec<&str> = row.split(" | ").collect();
    assert_eq!((cells[3], cells[4]), ("event-design", step.to_string().as_str()), "{row}");
}
