//! The story as a scenario file, and a scenario file read from disk: "Export" writes the
//! scenario the story started from with the learner's commands appended as steps (an
//! `advance` step before each one that came later, and one to the current time at the end),
//! which `fanout run`, `fanout test` and the page all accept; "Import" loads such a file.

use crate::playground::Playground;
use serde_json::{json, Value};

/// The story as scenario file text (pretty JSON).
pub fn story_file(pg: &Playground) -> Result<String, String> {
    let mut file: Value = serde_json::from_str(pg.source()).map_err(|e| format!("the story's scenario: {e}"))?;
    // Where the scenario's own steps end: the learner's commands come after.
    let mut t = Playground::from_scenario(pg.source())?.now().ms();
    let steps = file["steps"].as_array_mut().ok_or("the story's scenario has no steps")?;
    let history = pg.history();
    for c in &history.commands()[pg.base()..history.applied()] {
        if c.at.ms() > t {
            steps.push(json!({"advance": format!("{}ms", c.at.ms() - t)}));
            t = c.at.ms();
        }
        steps.push(json!({"action": c.action, "params": c.params}));
    }
    if pg.now().ms() > t {
        steps.push(json!({"advance": format!("{}ms", pg.now().ms() - t)}));
    }
    // `{:#}` writes what `to_string_pretty` does, through the `Value` printer the page has anyway.
    Ok(format!("{file:#}"))
}

/// A scenario file read from disk, or what is wrong with it, naming the file and the step.
pub fn import(name: &str, text: &str) -> Result<Playground, String> {
    Playground::from_scenario(text).map_err(|e| format!("{name}: {e}"))
}

/// A file name for the story: the scenario's name in lower case, letters, digits and dashes.
pub fn file_name(pg: &Playground) -> String {
    let mut stem = String::new();
    for c in pg.name.chars() {
        if c.is_ascii_alphanumeric() {
            stem.push(c.to_ascii_lowercase());
        } else if !stem.ends_with('-') && !stem.is_empty() {
            stem.push('-');
        }
    }
    let stem = stem.trim_end_matches('-');
    format!("{}.story.json", if stem.is_empty() { "fanout" } else { stem })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use engine::Scenario;

    #[test]
    fn an_exported_story_loads_again_with_the_same_counts_and_passes_fanout_test() {
        let mut pg = Playground::builtin("quilt-store").unwrap();
        pg.publish("OrderPlaced").unwrap();
        pg.play_for(2_500);
        pg.publish("RefundIssued").unwrap();
        pg.receive("billing").unwrap();
        pg.play_for(700);
        let text = story_file(&pg).unwrap();
        let again = import("mine.json", &text).unwrap();
        assert_eq!(again.now(), pg.now());
        assert_eq!(again.snapshot().queues, pg.snapshot().queues);
        let run = Scenario::parse(&text).unwrap().run();
        assert!(run.stopped.is_none() && run.failed() == 0, "fanout test passes the file");
    }

    #[test]
    fn a_malformed_file_names_the_file_and_the_step() {
        let e = import(
            "broken.json",
            r#"{"name": "x", "steps": [{"advance": "1s"}, {"action": "CreateQueue", "params": {}}]}"#,
        )
        .err()
        .unwrap();
        assert!(e.starts_with("broken.json: step 2") && e.contains("QueueName"), "{e}");
    }
}
