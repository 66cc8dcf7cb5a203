//! No input hangs the engine or exhausts memory (issue 35): what a scenario may ask for is
//! bounded when the file is read, with an error that names the step and says what to change.
use engine::scenario::Scenario;
use engine::time::{DAY, HORIZON};
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
