//! A malformed lesson gets an error that says what and where (step, kind, field), never a panic.

use super::{is_index, is_lesson, AnswerMode, Lesson, LessonError, StepKind};
use serde_json::{json, Value};

const SCENARIO: &str = r#"{"name": "tiny", "seed": 1, "steps": [
  {"action": "CreateQueue", "params": {"QueueName": "q"}, "save": {"url": "QueueUrl"}}]}"#;

fn predict() -> Value {
    json!({"kind": "predict", "text": "You send one message.", "question": "How many are visible?",
      "run": [{"action": "SendMessage", "params": {"QueueUrl": "${url}", "MessageBody": "hi"}}],
      "probe": {"queue": "q", "field": "visible"},
      "choices": [{"id": "zero", "label": "0", "is": 0, "why": "It was sent."},
                  {"id": "one", "label": "1", "is": 1, "why": "Nobody received it."}],
      "right": "one", "reveal": "One visible."})
}

fn checkpoint() -> Value {
    json!({"kind": "checkpoint", "text": "Receive it.",
      "goals": [{"label": "It is in flight", "probe": {"queue": "q", "field": "in_flight"}, "is": 1}],
      "hint": "Press Receive.", "hint_after": 10,
      "solution": [{"action": "ReceiveMessage", "params": {"QueueUrl": "q"}}], "done": "Done."})
}

fn remember() -> Value {
    json!({"kind": "remember", "lines": ["A sent message is visible until received."],
      "read": [{"title": "Visibility timeout", "url": "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html"}]})
}

fn lesson() -> Value {
    json!({"lesson": "tiny", "title": "A tiny lesson", "summary": "One queue.", "minutes": 5, "speed": 4,
      "scenario": "tiny", "steps": [predict(), checkpoint(), remember()]})
}

fn parse(v: &Value) -> Result<Lesson, LessonError> {
    Lesson::parse(&v.to_string(), &[("tiny", SCENARIO)])
}

fn error(v: &Value) -> String {
    parse(v).expect_err("the lesson is refused").to_string()
}

#[test]
fn a_well_formed_lesson_parses_and_plays_with_its_checks_passing() {
    let l = parse(&lesson()).unwrap();
    assert_eq!((l.id.as_str(), l.scenario_id.as_deref(), l.steps.len()), ("tiny", Some("tiny"), 3));
    assert!(matches!(&l.steps[0].kind, StepKind::Predict(p) if p.answer == AnswerMode::Choice));
    let report = l.verify();
    assert_eq!((report.passed(), report.failed()), (2, 0), "{:?}", report.checks);
    assert!(is_lesson(&lesson().to_string()) && !is_lesson(SCENARIO) && !is_lesson("not json"));
    assert!(is_index(r#"{"lessons": []}"#) && !is_index(SCENARIO));
}

#[test]
fn an_unknown_step_kind_is_named_with_the_known_ones() {
    let mut v = lesson();
    v["steps"][1]["kind"] = json!("quiz");
    assert_eq!(
        error(&v),
        "step 2: kind: unknown kind \"quiz\" (a lesson step is narration, run, predict, checkpoint, remember)"
    );
}

#[test]
fn a_prediction_without_a_probe_is_refused() {
    let mut v = lesson();
    v["steps"][0].as_object_mut().unwrap().remove("probe");
    let e = error(&v);
    assert!(e.starts_with("step 1 (predict): probe: is missing: a prediction needs a probe"), "{e}");
}

#[test]
fn a_right_answer_that_is_not_a_choice_is_refused() {
    let mut v = lesson();
    v["steps"][0]["right"] = json!("two");
    assert_eq!(error(&v), "step 1 (predict): right: \"two\" is not among the choices (zero, one)");
}

#[test]
fn html_in_any_text_is_refused_with_the_tag_and_the_field() {
    let mut v = lesson();
    v["steps"][0]["text"] = json!("You send <b>one</b> message.");
    let e = error(&v);
    assert!(e.starts_with("step 1 (predict): text: contains \"<b>\", which looks like HTML"), "{e}");
    let mut v = lesson();
    v["steps"][0]["choices"][1]["why"] = json!("Nobody <em>received</em> it.");
    assert!(error(&v).starts_with("step 1 (predict): choices[1].why: contains \"<em>\""), "{}", error(&v));
    let mut v = lesson();
    v["title"] = json!("<script>x</script>");
    assert!(error(&v).starts_with("title: contains \"<script>\""));
    let mut v = lesson();
    v["steps"][0]["text"] = json!("Fewer than 3 < 5 is fine, and so is `a<b`.");
    parse(&v).expect("a lone < is text");
}

#[test]
fn an_unknown_scenario_id_lists_the_built_in_ones() {
    let mut v = lesson();
    v["scenario"] = json!("quilt-stroe");
    assert_eq!(error(&v), "scenario: no built-in scenario \"quilt-stroe\" (the built-in ones are: tiny)");
}

/// A change to the good lesson, and what its error must say.
type Case = (fn(&mut Value), &'static str);

#[test]
fn other_mistakes_say_where_and_what() {
    let cases: Vec<Case> = vec![
        (|v| v["steps"][0]["choices"][0]["colour"] = json!(1), "step 1 (predict): choices[0].colour: unknown key"),
        (|v| v["steps"][0]["run"][0]["actoin"] = json!("x"), "step 1 (predict): run[0]: unknown key \"actoin\""),
        (|v| v["steps"][0]["run"][0]["params"]["QueueUrl"] = json!("${nope}"), "run[0]: \"${nope}\" is not saved"),
        (|v| v["steps"][0]["probe"] = json!({"queue": "q", "field": "wet"}), "probe: \"field\" \"wet\" is not one of"),
        (
            |v| v["steps"][0]["probe"] = json!({"action": "PurgeQueue", "params": {"QueueUrl": "q"}}),
            "probe action \"PurgeQueue\" would act",
        ),
        (
            |v| v["steps"][1]["goals"][0]["probe"] = json!({"response": "Messages"}),
            "goals[0].probe: a goal cannot read a response",
        ),
        (|v| v["steps"][1]["hint_after"] = json!(2), "step 2 (checkpoint): hint_after: must be"),
        (
            |v| v["steps"][2]["read"][0]["url"] = json!("https://example.com/x"),
            "read[0].url: must be an AWS documentation",
        ),
        (|v| v["steps"][2]["lines"] = json!(["a.", "b.", "c.", "d.", "e.", "f."]), "lines: must hold 1 to 5 lines"),
        (|v| v["steps"][0]["text"] = json!("an *open emphasis"), "text: an *emphasis* is opened but never closed"),
        (|v| v["steps"][0]["choices"][0]["is"] = json!(0.5), "choices[0]: \"is\" must hold whole numbers only"),
        (|v| v["speed"] = json!(3), "speed: must be one of 1, 2, 4"),
        (|v| v["lesson"] = json!("Tiny Lesson"), "lesson: must be the lesson's id"),
        (|v| v["colour"] = json!("red"), "colour: unknown key"),
        (
            |v| {
                v["steps"].as_array_mut().unwrap().pop();
            },
            "steps: a lesson ends with one \"remember\" step",
        ),
        (
            |v| {
                v["steps"].as_array_mut().unwrap().remove(1);
            },
            "steps: a lesson needs at least one \"checkpoint\"",
        ),
        (
            |v| {
                let steps = v["steps"].as_array_mut().unwrap();
                steps.insert(0, json!({"kind": "narration", "text": "A."}));
                steps.insert(0, json!({"kind": "narration", "text": "B."}));
            },
            "steps: a prediction comes early",
        ),
    ];
    for (i, (change, want)) in cases.into_iter().enumerate() {
        let mut v = lesson();
        change(&mut v);
        let e = error(&v);
        assert!(e.contains(want), "case {i}: {e}\n  wanted: {want}");
    }
    assert!(Lesson::parse("{\"lesson\": ", &[]).unwrap_err().to_string().starts_with("not valid JSON"));
    assert!(Lesson::parse("[1, 2]", &[]).unwrap_err().to_string().contains("must be a JSON object"));
}

#[test]
fn a_goal_after_another_is_not_met_until_that_one_is() {
    // "Nothing is visible" holds at once (the queue starts empty); written `after` the receive,
    // it is not shown met until the receive has happened.
    let mut v = lesson();
    v["steps"][1]["goals"] = json!([
        {"label": "It was received", "probe": {"events": "Received"}, "min": 1},
        {"label": "Nothing is visible", "probe": {"queue": "q", "field": "visible"}, "is": 0, "after": "It was received"},
        {"label": "It was received a while ago", "probe": {"events": "Received", "field": "elapsed_ms", "pick": "first"}, "min": 5000}
    ]);
    v["steps"][1]["solution"] = json!([{"action": "ReceiveMessage", "params": {"QueueUrl": "q"}}, {"advance": "5s"}]);
    let l = parse(&v).unwrap();
    let report = l.verify();
    assert_eq!(report.failed(), 0, "{:?}", report.checks);
    let mut sim = crate::Sim::new(1);
    let (mut s, _) = super::Session::start(l, &mut sim).unwrap();
    s.perform(&mut sim);
    assert!(s.next(&sim), "on to the checkpoint");
    let held = |s: &super::Session, sim: &crate::Sim| s.goals(sim).iter().map(|g| g.holds).collect::<Vec<_>>();
    // The message is visible before anything (the prediction sent it): nothing held yet.
    sim.apply("ReceiveMessage", &json!({"QueueUrl": "q", "VisibilityTimeout": 0})).unwrap();
    sim.apply("ReceiveMessage", &json!({"QueueUrl": "q"})).unwrap();
    assert_eq!(held(&s, &sim), [true, true, false], "received, nothing visible; not yet 5 s ago");
    sim.advance_to(sim.now().plus_ms(5_000));
    assert_eq!(held(&s, &sim), [true, true, true]);
    assert_eq!(s.goals(&sim)[2].value, Ok(json!(5_000)), "elapsed_ms: how long ago the first receive was");
}

#[test]
fn since_previous_ms_reads_the_gap_to_the_event_before_earlier_steps_included() {
    // lambda-async reads the wait between two attempts, not how long ago the later one began:
    // the prediction's run sends at 0 s and 2 s; the checkpoint's sends at 9 s.
    let mut v = lesson();
    v["steps"][0]["run"] = json!([
        {"action": "SendMessage", "params": {"QueueUrl": "${url}", "MessageBody": "a"}}, {"advance": "2s"},
        {"action": "SendMessage", "params": {"QueueUrl": "${url}", "MessageBody": "b"}}]);
    v["steps"][0]["choices"][1]["is"] = json!(2);
    v["steps"][0]["facts"] = json!([{"label": "The second send came after the first", "probe":
        {"events": "MessageSent", "field": "since_previous_ms", "pick": "last"}, "is": 2000}]);
    v["steps"][1]["goals"] = json!([
        {"label": "A send came 7 s after the one before", "probe":
            {"events": "MessageSent", "field": "since_previous_ms", "pick": "first"}, "is": 7000},
        {"label": "Gaps since this step began", "probe":
            {"events": "MessageSent", "field": "since_previous_ms", "pick": "all"}, "is": [7000]}]);
    v["steps"][1]["solution"] = json!([{"advance": "7s"},
        {"action": "SendMessage", "params": {"QueueUrl": "q", "MessageBody": "c"}}]);
    let report = parse(&v).unwrap().verify();
    assert_eq!(report.failed(), 0, "{:?}", report.checks);
    v["steps"][0]["facts"][0]["probe"]["pick"] = json!("first");
    v["steps"][0]["facts"][0]["is"] = json!(null);
    let report = parse(&v).unwrap().verify();
    assert_eq!(report.failed(), 0, "the first send has no send before it: {:?}", report.checks);
}

#[test]
fn an_after_that_names_no_other_check_or_loops_is_refused() {
    let mut v = lesson();
    v["steps"][1]["goals"] =
        json!([{"label": "A", "probe": {"queue": "q", "field": "visible"}, "is": 0, "after": "B"}]);
    assert!(error(&v).contains("goals[0].after: \"B\" is not the label of another check"), "{}", error(&v));
    v["steps"][1]["goals"] = json!([
        {"label": "A", "probe": {"queue": "q", "field": "visible"}, "is": 0, "after": "B"},
        {"label": "B", "probe": {"queue": "q", "field": "visible"}, "is": 0, "after": "A"}]);
    assert!(error(&v).contains("go round in a loop"), "{}", error(&v));
}

#[test]
fn a_stage_names_a_producer_that_exists_once_its_step_has_run() {
    // The step's `stage` is a producer's name; `fanout test` checks the producer exists when
    // the step has run (the diagram then draws only its design).
    let mut v = lesson();
    v["steps"][0]["run"] = json!([
        {"action": "CreateProducer", "params": {"ProducerName": "shop", "Design": "SingleQueue", "QueueUrl": "q", "Manual": true}},
        {"action": "SendMessage", "params": {"QueueUrl": "${url}", "MessageBody": "hi"}}
    ]);
    v["steps"][0]["stage"] = json!("shop");
    let parsed = parse(&v).expect("the lesson parses");
    assert_eq!(parsed.steps[0].stage.as_deref(), Some("shop"));
    assert_eq!(parsed.verify().failed(), 0, "{:?}", parsed.verify().checks);
    v["steps"][1]["stage"] = json!("nobody");
    let report = parse(&v).expect("the lesson parses").verify();
    assert_eq!(report.failed(), 1);
    let problems: Vec<String> = report.checks.iter().flat_map(|c| c.problems.clone()).collect();
    assert_eq!(problems, ["the stage names producer \"nobody\", which does not exist when the step has run"]);
    v["steps"][1]["stage"] = json!(7);
    assert!(error(&v).contains("stage"), "{}", error(&v));
}

#[test]
fn a_pace_window_slows_part_of_a_run_and_must_lie_inside_it() {
    let mut v = lesson();
    v["steps"][0]["run"].as_array_mut().unwrap().push(json!({"advance": "60s"}));
    v["steps"][0]["pace"] = json!([{"from": "10s", "to": "20s", "speed": 1}, {"from": "30s", "to": "40s", "speed": 2}]);
    let parsed = parse(&v).expect("the lesson parses");
    let pace = &parsed.steps[0].pace;
    assert_eq!(pace.len(), 2);
    assert_eq!(super::Pace::at(pace, 15_000).map(|p| p.speed), Some(1));
    assert_eq!(super::Pace::at(pace, 20_000), None, "a window ends where its `to` is");
    assert_eq!(super::Pace::covered(pace, 35_000), 15_000);
    assert_eq!(parsed.verify().failed(), 0, "{:?}", parsed.verify().checks);
    // A window past the run's end is a check that fails, saying where.
    v["steps"][0]["pace"] = json!([{"from": "50s", "to": "70s", "speed": 1}]);
    let report = parse(&v).expect("the lesson parses").verify();
    let problems: Vec<String> = report.checks.iter().flat_map(|c| c.problems.clone()).collect();
    assert_eq!(problems, ["a window ends 70000 ms into the run, which lasts 60000 ms"]);
    // Malformed windows are refused with the window and the field.
    for (pace, said) in [
        (json!({"from": "1s"}), "must be a list"),
        (json!([{"from": "2s", "to": "1s", "speed": 1}]), "1: to must come after from"),
        (json!([{"from": "1s", "to": "2s", "speed": 3}]), "1: speed: must be one of"),
        (
            json!([{"from": "1s", "to": "5s", "speed": 1}, {"from": "4s", "to": "6s", "speed": 1}]),
            "2: must begin after",
        ),
        (json!([{"from": "soon", "to": "5s", "speed": 1}]), "1: from:"),
        (json!([{"from": "1s", "to": "5s", "speed": 1, "pause": true}]), "1: pause: unknown key"),
    ] {
        v["steps"][0]["pace"] = pace;
        let e = error(&v);
        assert!(e.contains("pace") && e.contains(said), "{e}");
    }
}

#[test]
fn a_step_that_names_what_its_diagram_does_not_draw_fails_saying_which_step_and_name() {
    // Step 1's run makes the queue `late`; its text names it before it is drawn.
    let mut v = lesson();
    v["steps"][0]["text"] = json!("You send one message to `q`, then make the queue `late`.");
    v["steps"][0]["run"]
        .as_array_mut()
        .unwrap()
        .push(json!({"action": "CreateQueue", "params": {"QueueName": "late"}}));
    // The dependency `loyalty-db` exists, but with queues on the diagram it is never drawn.
    v["steps"][1]["text"] = json!("Receive it; loyalty-db is down.");
    v["steps"][1]["solution"].as_array_mut().unwrap().insert(
        0,
        json!({"action": "CreateDependency", "params": {"DependencyName": "loyalty-db", "Latency": "100ms", "Down": true}}),
    );
    let report = parse(&v).expect("the lesson parses").verify();
    let failed: Vec<(Option<usize>, &str, Vec<String>)> =
        report.checks.iter().filter(|c| !c.passed()).map(|c| (c.step, c.what.as_str(), c.problems.clone())).collect();
    assert_eq!(
        failed,
        [
            (
                Some(1),
                "names drawn",
                vec!["text names \"late\", which the diagram draws only once the step's run has made it: say so in the text, and list it in the step's \"appears\"".to_string()]
            ),
            (
                Some(2),
                "names drawn",
                vec!["text names \"loyalty-db\", which the diagram does not draw at this step: draw it, or do not name it".to_string()]
            ),
        ]
    );
    // Listed in `appears`, the queue passes; a name its run never draws does not.
    v["steps"][0]["appears"] = json!(["late"]);
    v["steps"][1]["text"] = json!("Receive it.");
    let report = parse(&v).expect("the lesson parses").verify();
    assert_eq!(report.failed(), 0, "{:?}", report.checks);
    v["steps"][0]["appears"] = json!(["late", "never"]);
    let report = parse(&v).expect("the lesson parses").verify();
    let problems: Vec<String> = report.checks.iter().flat_map(|c| c.problems.clone()).collect();
    assert_eq!(problems, ["\"appears\" lists \"never\", which the diagram does not draw once the step has run"]);
    v["steps"][0]["appears"] = json!("late");
    assert!(error(&v).contains("appears"), "{}", error(&v));
}

#[test]
fn the_stage_draws_one_producer_and_no_dependency_beside_queues() {
    use super::drawn;
    let scenario = crate::scenario::Scenario::parse(
        r#"{"name": "two producers", "seed": 1, "steps": [
      {"action": "CreateTopic", "params": {"Name": "orders"}},
      {"action": "CreateQueue", "params": {"QueueName": "sms-dlq"}},
      {"action": "CreateQueue", "params": {"QueueName": "sms", "Attributes": {"RedrivePolicy": "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:sms-dlq\",\"maxReceiveCount\":\"5\"}"}}},
      {"action": "Subscribe", "params": {"TopicArn": "arn:aws:sns:us-east-1:000000000000:orders", "Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:000000000000:sms"}},
      {"action": "CreateDependency", "params": {"DependencyName": "sms-api", "Latency": "100ms"}},
      {"action": "CreateProducer", "params": {"ProducerName": "checkout", "Design": "FanOut", "TopicArn": "orders", "Manual": true}},
      {"action": "CreateProducer", "params": {"ProducerName": "payments", "Design": "FanOut", "TopicArn": "orders", "Manual": true}}]}"#,
    )
    .expect("the scenario parses");
    let run = scenario.run();
    assert!(run.stopped.is_none() && run.failed() == 0, "{:?}", run.stopped);
    let s = run.sim().snapshot();
    assert_eq!(drawn::drawn(&s), ["orders", "sms", "sms-dlq", "checkout"]);
    for name in ["payments", "sms-api", "orders", "sms-dlq"] {
        assert!(drawn::resources(&s).iter().any(|n| n == name), "{name}");
    }
}
