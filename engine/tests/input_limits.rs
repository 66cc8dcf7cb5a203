//! No input hangs the engine or exhausts memory (issue 35): what a scenario may ask for is
//! bounded when the file is read, with an error that names the step and says what to change.
mod common;
use common::*;
use engine::filter::{FilterPolicy, FilterPolicyScope, Verdict};
use engine::scenario::Scenario;
use engine::Sim;
use serde_json::json;

fn parse(steps: serde_json::Value) -> Result<Scenario, String> {
    Scenario::parse(&json!({"name": "limits", "steps": steps}).to_string()).map_err(|e| e.to_string())
}

#[test]
fn an_advance_past_thirty_days_of_virtual_time_is_refused_when_the_file_is_read() {
    // Regression: `{"advance": "999999999999h"}` passed validation, and its run never ended
    // (each idle long-polling worker polls every 20 s of virtual time). The advances of a
    // scenario may take the clock to 30 days at most, the share link's limit.
    let e = parse(json!([{"action": "CreateQueue", "params": {"QueueName": "q"}}, {"advance": "999999999999h"}]))
        .unwrap_err();
    assert!(e.starts_with("step 2: advance \"999999999999h\": this advance would take the clock to"), "{e}");
    assert!(e.contains("past the 30 days of virtual time a scenario may cover"), "{e}");
    assert!(e.ends_with("advance at most 30d"), "{e}");
    // The limit is on where the clock ends up, so two long advances add up.
    let e = parse(json!([{"advance": "20d"}, {"advance": "10d"}, {"advance": "1ms"}])).unwrap_err();
    assert!(e.starts_with("step 3: advance \"1ms\""), "{e}");
    assert!(e.ends_with("advance at most 0ms"), "{e}");
    assert!(parse(json!([{"advance": "20d"}, {"advance": "10d"}])).is_ok(), "exactly 30 days is allowed");
}

/// `{"a": {"a": … [1] … }}`, `n` objects deep around a list (a pattern's leaf): `n + 1` levels.
fn deep_pattern(n: usize) -> String {
    format!("{}[1]{}", "{\"a\":".repeat(n), "}".repeat(n))
}

/// `{"a": {"a": … 1 … }}`, `n` objects deep.
fn deep_object(n: usize) -> String {
    format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n))
}

#[test]
fn an_event_pattern_nested_deeper_than_127_is_refused_before_it_is_compiled() {
    // Regression: the pattern compiler copies its path at every level, so a pattern nested n deep
    // took memory quadratic in n (1,000 deep: 74 MB; 5,000: 1.5 GB), and json.rs's promised limit
    // of 128 levels did not hold (serde_json skips a value with no depth limit). Now the depth is
    // checked first, in one pass over the text.
    let mut sim = Sim::new(1);
    // 126 objects around a list: 127 inside one another, the most there may be.
    ok(&mut sim, "PutRule", json!({"Name": "ok", "EventPattern": deep_pattern(126)}));
    for n in [127, 1_000, 200_000] {
        let e = fails(&mut sim, "PutRule", json!({"Name": "deep", "EventPattern": deep_pattern(n)}));
        assert_eq!(e.code, "InvalidEventPatternException", "{n} deep");
        assert!(e.message.contains("more than 127 deep (one more opens at line 1, column 636)"), "{}", e.message);
        let event = json!({"id": "1", "account": "000000000000", "source": "shop", "time": "2026-01-01T00:00:00Z",
            "region": "us-east-1", "resources": [], "detail-type": "t", "detail": {}});
        let e =
            fails(&mut sim, "TestEventPattern", json!({"EventPattern": deep_pattern(n), "Event": event.to_string()}));
        assert!(e.message.contains("more than 127 deep"), "{}", e.message);
    }
}

#[test]
fn an_event_nested_deeper_than_127_is_refused() {
    // TestEventPattern's event and PutEvents' Detail are read with the same limit: the event is
    // invalid, the entry fails with MalformedDetail and the reason.
    let mut sim = Sim::new(1);
    let deep_event = format!(
        r#"{{"id": "1", "account": "000000000000", "source": "shop", "time": "2026-01-01T00:00:00Z", "region": "us-east-1", "resources": [], "detail-type": "t", "detail": {}}}"#,
        deep_object(5_000)
    );
    let e =
        fails(&mut sim, "TestEventPattern", json!({"EventPattern": "{\"source\": [\"shop\"]}", "Event": deep_event}));
    assert!(e.message.starts_with("Parameter Event is not valid: the JSON nests"), "{}", e.message);
    let entry = json!({"Source": "shop", "DetailType": "t", "Detail": deep_object(5_000)});
    let r =
        ok(&mut sim, "PutEvents", json!({"Entries": [entry, {"Source": "shop", "DetailType": "t", "Detail": "{}"}]}));
    assert_eq!(r["FailedEntryCount"], 1, "{r}");
    assert_eq!(r["Entries"][0]["ErrorCode"], "MalformedDetail");
    assert!(r["Entries"][0]["ErrorMessage"].as_str().unwrap().contains("more than 127 deep"), "{r}");
    assert!(r["Entries"][1]["EventId"].is_string(), "the other entry is put: {r}");
}

#[test]
fn a_filter_policy_or_a_message_body_nested_deeper_than_127_is_refused_with_where() {
    // SNS filter policies and the message bodies a MessageBody-scope policy reads: the same limit
    // and the same message, saying where the text goes too deep.
    let e = FilterPolicy::compile(&deep_pattern(200), FilterPolicyScope::MessageBody).unwrap_err();
    assert!(
        e.message.starts_with("Invalid parameter: FilterPolicy: the JSON nests objects and arrays more than 127 deep"),
        "{}",
        e.message
    );
    let policy = FilterPolicy::compile(r#"{"a": [{"exists": true}]}"#, FilterPolicyScope::MessageBody).unwrap();
    match policy.evaluate(&Default::default(), &deep_object(100_000)) {
        Verdict::NoMatch(why) => assert!(why.reason.contains("more than 127 deep"), "{}", why.reason),
        Verdict::Match => panic!("a body too deep to read matches nothing"),
    }
}
