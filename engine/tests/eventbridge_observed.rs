//! EventBridge as AWS answers it: behaviours recorded from real AWS responses by a widely used
//! emulator's validated test suite (`localstack/localstack`, `tests/aws/services/events/`, last
//! validated October 2025). Where the documentation says otherwise, the test says so and follows
//! the service; the fidelity notes in the README list them.
mod common;

use common::*;
use engine::Sim;
use serde_json::{json, Value};

const QUEUE_ARN: &str = "arn:aws:sqs:us-east-1:000000000000:";

fn rule(sim: &mut Sim, name: &str, pattern: Value) {
    ok(sim, "PutRule", json!({"Name": name, "EventPattern": pattern.to_string()}));
}

fn target(sim: &mut Sim, rule: &str, id: &str, queue: &str) {
    ok(sim, "PutTargets", json!({"Rule": rule, "Targets": [{"Id": id, "Arn": format!("{QUEUE_ARN}{queue}")}]}));
}

fn put(sim: &mut Sim, source: &str, detail_type: &str, detail: Value) {
    let entry = json!({"Source": source, "DetailType": detail_type, "Detail": detail.to_string()});
    ok(sim, "PutEvents", json!({"Entries": [entry]}));
}

fn bodies(sim: &mut Sim, queue: &str) -> Vec<Value> {
    receive(sim, queue, 10).iter().map(|m| serde_json::from_str(m["Body"].as_str().unwrap()).unwrap()).collect()
}

/// The envelope of the recorded test events: every field the API reference calls mandatory but
/// `resources`.
fn recorded_envelope(extra: Value) -> Value {
    let mut event = json!({"id": "1", "source": "test-source", "detail-type": "test-detail-type",
        "account": "123456789012", "region": "us-east-2", "time": "2022-07-13T13:48:01Z"});
    for (k, v) in extra.as_object().unwrap() {
        event[k] = v.clone();
    }
    event
}

fn test_event_pattern(sim: &mut Sim, pattern: Value, event: &Value) -> Value {
    ok(sim, "TestEventPattern", json!({"EventPattern": pattern.to_string(), "Event": event.to_string()}))["Result"]
        .clone()
}

/// The API reference lists `resources` among the mandatory fields of TestEventPattern's event; AWS
/// answers without it. Recorded (LocalStack's validated suite, `localstack/localstack`,
/// `tests/aws/services/events/event_pattern_templates/boolean.json5` and `boolean_NEG.json5`,
/// October 2025): `{"boolean": [false]}` on this event without `resources` → `true`, on one with
/// `"boolean": true` → `false`; 110 recorded events there lack `resources` and are answered.
/// The other six fields stay required: AWS refuses an event without them
/// (`test_events_patterns.snapshot.json`, `test_invalid_event_payload`: `{"testEvent": "value"}` →
/// `ValidationException` "Parameter Event is not valid."), and no recording drops only one.
#[test]
fn test_event_pattern_does_not_require_resources() {
    let mut sim = Sim::new(1);
    let event = recorded_envelope(json!({"boolean": false}));
    assert_eq!(test_event_pattern(&mut sim, json!({"boolean": [false]}), &event), json!(true));
    let other = recorded_envelope(json!({"boolean": true}));
    assert_eq!(test_event_pattern(&mut sim, json!({"boolean": [false]}), &other), json!(false));
    let pattern = json!({"boolean": [false]}).to_string();
    let err =
        fails(&mut sim, "TestEventPattern", json!({"EventPattern": pattern, "Event": "{\"testEvent\": \"value\"}"}));
    assert_eq!(err.code, "ValidationException");
    assert!(err.message.starts_with("Parameter Event is not valid."), "{}", err.message);
    for field in ["id", "account", "source", "time", "region", "detail-type"] {
        let mut without = event.clone();
        without.as_object_mut().unwrap().remove(field);
        let err = fails(&mut sim, "TestEventPattern", json!({"EventPattern": pattern, "Event": without.to_string()}));
        assert_eq!(err.code, "ValidationException", "{field}");
        assert!(err.message.contains(&format!("\"{field}\" is missing")), "{field}: {}", err.message);
    }
}

/// "EventBridge uses dot (.) as the joining character", and a dotted key in the event matches a
/// nested path in the pattern. Recorded (`localstack/localstack`,
/// `tests/aws/services/events/event_pattern_templates/dot_joining_event.json5`, October 2025):
/// `{"detail": {"state": {"status": ["running"]}}}` on `"detail": {"state.status": "running"}` →
/// `true`; `dot_joining_event_NEG.json5`: on `"detail": {"state.status": {"status": "running"}}`
/// → `false`; `dot_joining_pattern.json5` / `_NEG`: the pattern `{"detail": {"state.status":
/// ["running"]}}` on `"detail": {"state": {"status": "running"}}` → `true`, the pattern
/// `{"detail": {"state.status": {"status": ["running"]}}}` on it → `false`.
#[test]
fn a_dotted_key_in_the_event_matches_a_nested_path_in_the_pattern() {
    let mut sim = Sim::new(1);
    let nested_pattern = json!({"detail": {"state": {"status": ["running"]}}});
    let dotted_event = recorded_envelope(json!({"detail": {"state.status": "running"}}));
    assert_eq!(test_event_pattern(&mut sim, nested_pattern.clone(), &dotted_event), json!(true));
    let dotted_object = recorded_envelope(json!({"detail": {"state.status": {"status": "running"}}}));
    assert_eq!(test_event_pattern(&mut sim, nested_pattern.clone(), &dotted_object), json!(false));
    let nested_event = recorded_envelope(json!({"detail": {"state": {"status": "running"}}}));
    assert_eq!(
        test_event_pattern(&mut sim, json!({"detail": {"state.status": ["running"]}}), &nested_event),
        json!(true)
    );
    let dotted_pattern = json!({"detail": {"state.status": {"status": ["running"]}}});
    assert_eq!(test_event_pattern(&mut sim, dotted_pattern, &nested_event), json!(false));
    // The same through a rule: the dotted key may span any level, and an array of objects under it.
    queue(&mut sim, "running", json!({}));
    rule(&mut sim, "r", json!({"detail": {"state": {"status": {"code": [16]}}}}));
    target(&mut sim, "r", "q", "running");
    put(&mut sim, "ec2", "State", json!({"state.status": [{"code": 16}]}));
    put(&mut sim, "ec2", "State", json!({"state": {"status.code": 16}}));
    put(&mut sim, "ec2", "State", json!({"state.status": {"code": 80}}));
    put(&mut sim, "ec2", "State", json!({"state.status.code.x": 16}));
    assert_eq!(bodies(&mut sim, "running").len(), 2, "the two events whose detail.state.status.code is 16");
}

/// "For numbers, EventBridge uses string representation. For example, 300, 300.0, and 3.0e2 are
/// not considered equal" ("Event pattern syntax"); the service compares them as numbers.
/// Recorded (`localstack/localstack`,
/// `tests/aws/services/events/event_pattern_templates/number_comparison_float.json5`, October
/// 2025): `{"number": [300]}` on `"number": 300.0` → `true`. Other forms follow event-ruler's
/// numeric equality at numeric matching's documented precision (six decimals within ±5.0e9); a
/// number outside that range (an account id) matches by its text only.
#[test]
fn numbers_match_by_value_whatever_form_they_are_written_in() {
    let mut sim = Sim::new(1);
    let exact = |n: &str| format!("{{\"number\": [{n}]}}");
    assert!(number_matches(&mut sim, &exact("300"), "300.0"), "the recorded answer");
    for same in ["300", "3e2", "3.0e2", "300.00", "3E+2", "300.0000001"] {
        assert!(number_matches(&mut sim, &exact("300"), same), "300 and {same}");
        assert!(number_matches(&mut sim, &exact(same), "300"), "{same} and 300");
    }
    for other in ["300.000001", "301", "-300", "\"300\""] {
        assert!(!number_matches(&mut sim, &exact("300"), other), "300 and {other}");
    }
    assert!(number_matches(&mut sim, &exact("-0.5"), "-5e-1"));
    assert!(number_matches(&mut sim, &exact("5e9"), "5000000000.0"), "the edge of the range");
    assert!(number_matches(&mut sim, &exact("123456789012"), "123456789012"), "an account id, by its text");
    assert!(!number_matches(&mut sim, &exact("123456789012"), "123456789012.0"), "outside ±5.0e9 only the text");
    // anything-but and numeric already compared values; they agree with the exact form.
    assert!(!number_matches(&mut sim, r#"{"number": [{"anything-but": [300]}]}"#, "3e2"));
    assert!(number_matches(&mut sim, r#"{"number": [{"numeric": ["=", 300]}]}"#, "300.00"));
}

/// TestEventPattern's answer for `pattern` on the recorded envelope with `"number": <value>`, the
/// value written exactly as given (serde_json would rewrite `3e2` as `300.0`).
fn number_matches(sim: &mut Sim, pattern: &str, value: &str) -> bool {
    let envelope = recorded_envelope(json!({})).to_string();
    let event = format!("{{\"number\": {value}, {}", &envelope[1..]);
    ok(sim, "TestEventPattern", json!({"EventPattern": pattern, "Event": event}))["Result"].as_bool().unwrap()
}

const TOO_COMPLEX: &str = "Event pattern is not valid. Reason: Rule is too complex - try using fewer wildcard \
                           characters or fewer repeating character sequences after a wildcard character";

/// EventBridge docs, "Wildcards and event pattern complexity"
/// (<https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-create-pattern-operators.html#eb-filtering-wildcard-matching-complexity>):
/// "If a rule is too complex, EventBridge returns an InvalidEventPatternException when attempting
/// to create the rule" (as quoted in `aws/aws-cdk` pull request 32063; no number is given; the
/// engine's measure and limit, more than 10 prefixes at once, are in
/// `engine/src/events/pattern/complexity.rs`). Recorded (`localstack/localstack`,
/// `tests/aws/services/events/event_pattern_templates/content_wildcard_complex_EXC.json5` and
/// `test_events_patterns.snapshot.json`, October 2025): `{"EventBusArn": [{"wildcard":
/// "*:*:*:*:*:event-bus/*"}]}` → `InvalidEventPatternException` with this message;
/// `content_wildcard_simplified`, `_repeating` and `_nonrepeating`: the page's other three
/// wildcards are accepted and match.
#[test]
fn a_too_complex_wildcard_is_refused_by_put_rule_test_event_pattern_and_archives() {
    let mut sim = Sim::new(1);
    let complex = json!({"EventBusArn": [{"wildcard": "*:*:*:*:*:event-bus/*"}]}).to_string();
    let event = recorded_envelope(json!({"EventBusArn": "arn:aws:events:us-east-1:123456789012:event-bus/myEventBus"}));
    let refused = [
        fails(&mut sim, "PutRule", json!({"Name": "r", "EventPattern": complex})),
        fails(&mut sim, "TestEventPattern", json!({"EventPattern": complex, "Event": event.to_string()})),
        fails(
            &mut sim,
            "CreateArchive",
            json!({"ArchiveName": "a", "EventSourceArn": "arn:aws:events:us-east-1:000000000000:event-bus/default",
                "EventPattern": complex}),
        ),
    ];
    for err in refused {
        assert_eq!(err.code, "InvalidEventPatternException");
        assert!(err.message.starts_with(TOO_COMPLEX), "{}", err.message);
    }
    let simplified = json!({"EventBusArn": [{"wildcard": "arn:aws:events:us-east-1:*:event-bus/*"}]});
    assert_eq!(test_event_pattern(&mut sim, simplified.clone(), &event), json!(true));
    ok(&mut sim, "PutRule", json!({"Name": "r", "EventPattern": simplified.to_string()}));
    let file = recorded_envelope(json!({"FileName": "/Users/ls_user/dir/dir/dir/dir/dir/doc.txt"}));
    for wildcard in ["/Users/*/dir/dir/dir/dir/dir/doc.txt", "/Users/*/doc.txt"] {
        assert_eq!(test_event_pattern(&mut sim, json!({"FileName": [{"wildcard": wildcard}]}), &file), json!(true));
    }
}

/// SNS has its own documented rule, and it refuses the same wildcard. SNS docs, "Filter policy
/// constraints", "Wildcard pattern usage guidelines"
/// (<https://docs.aws.amazon.com/sns/latest/dg/subscription-filter-policy-constraints.html>):
/// "Total wildcard complexity across all fields must not exceed 100 points"; "Maximum 3 wildcards
/// per pattern"; "Field complexity = (Sum of pattern points) × (Number of patterns)", "Single
/// wildcard: 1 point", "Multiple wildcards: 3 points each", "Anything-but: 1 point".
#[test]
fn an_sns_filter_policy_allows_three_wildcards_per_pattern_and_100_points() {
    let mut sim = Sim::new(1);
    ok(&mut sim, "CreateTopic", json!({"Name": "t"}));
    let topic = "arn:aws:sns:us-east-1:000000000000:t";
    let mut queues = 0;
    let mut subscribe = |sim: &mut Sim, policy: Value| {
        queues += 1;
        queue(sim, &format!("q{queues}"), json!({}));
        sim.apply(
            "Subscribe",
            &json!({"TopicArn": topic, "Protocol": "sqs", "Endpoint": format!("{QUEUE_ARN}q{queues}"),
                "Attributes": {"FilterPolicy": policy.to_string(), "FilterPolicyScope": "MessageBody"}}),
        )
    };
    let six_stars = subscribe(&mut sim, json!({"EventBusArn": [{"wildcard": "*:*:*:*:*:event-bus/*"}]})).unwrap_err();
    assert_eq!(six_stars.code, "InvalidParameter");
    assert!(six_stars.message.contains("at most 3"), "{}", six_stars.message);
    // Three stars are 9 points; three such patterns on one field: (9 + 9 + 9) × 3 = 81 points.
    let three = json!([{"wildcard": "*a*b*"}, {"wildcard": "*c*d*"}, {"wildcard": "*e*f*"}]);
    assert!(subscribe(&mut sim, json!({"w": three})).is_ok());
    // Four: (9 × 4) × 4 = 144 points, over 100.
    let four = json!([{"wildcard": "*a*b*"}, {"wildcard": "*c*d*"}, {"wildcard": "*e*f*"}, {"wildcard": "*g*h*"}]);
    let err = subscribe(&mut sim, json!({"w": four})).unwrap_err();
    assert!(err.message.contains("wildcard complexity is 144"), "{}", err.message);
}
