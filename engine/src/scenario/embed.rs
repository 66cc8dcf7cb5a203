//! A scenario's `embed` section: what its compact embed (`embed.html?…&controls=min`) tells the
//! reader, and the one control it needs besides Play.
//!
//! ```json
//! "embed": {"say": "Press + Worker on sms, then Play: the poison order fails three times and moves to sms-dlq.",
//!           "press": "add-worker"}
//! ```
//!
//! `say` is one line of text, shown in the embed over the diagram; `press` is the control it
//! names, `publish` (the scenario's first preset, or the one `preset` names) or `add-worker` (a
//! worker on the first queue that has none and is no dead-letter queue). Without `press` the
//! story plays its point from Play alone.

use serde_json::Value;

/// The longest `say` line, in characters: one line in a frame 320 px wide is about 45; three
/// lines at most.
pub const SAY_MAX_CHARS: usize = 140;

/// What a scenario's embed says, and the control it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedHint {
    /// One line for the reader: what to press, and what to watch.
    pub say: String,
    /// The one control besides Play that drives the story; `None` when Play alone does.
    pub press: Option<Press>,
    /// The preset the embed's Publish sends (a name in the file's `publish` section); `None`:
    /// the first.
    pub preset: Option<String>,
}

/// A control of the compact embed that a scenario's hint may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    /// Publish the scenario's first preset.
    Publish,
    /// Add a worker to the first queue that has no consumer and is no dead-letter queue.
    AddWorker,
}

impl Press {
    /// The name a scenario file uses.
    pub fn name(self) -> &'static str {
        match self {
            Press::Publish => "publish",
            Press::AddWorker => "add-worker",
        }
    }

    /// What the control's button says (the text `say` must name).
    pub fn label(self) -> &'static str {
        match self {
            Press::Publish => "Publish",
            Press::AddWorker => "+ Worker",
        }
    }
}

const KEYS: &[&str] = &["say", "press", "preset"];

/// Reads the `embed` section, whose `preset` must be one of `presets` (the names in the file's
/// `publish` section); the error says what to change.
pub fn parse(v: Value, presets: &[&str]) -> Result<EmbedHint, String> {
    let Value::Object(mut map) = v else {
        return Err("\"embed\" must be an object with \"say\" and, if a control is needed, \"press\"".into());
    };
    if let Some(k) = map.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("embed: unknown key \"{k}\" (it has {})", KEYS.join(", ")));
    }
    let say = match map.remove("say") {
        Some(Value::String(s)) if !s.trim().is_empty() && !s.contains('\n') => s,
        _ => return Err("embed.say must be one line of text".into()),
    };
    if say.chars().count() > SAY_MAX_CHARS {
        return Err(format!("embed.say has {} characters; at most {SAY_MAX_CHARS}", say.chars().count()));
    }
    let press = match map.remove("press") {
        None => None,
        Some(Value::String(p)) if p == "publish" => Some(Press::Publish),
        Some(Value::String(p)) if p == "add-worker" => Some(Press::AddWorker),
        Some(other) => return Err(format!("embed.press {other} is not \"publish\" or \"add-worker\"")),
    };
    if let Some(p) = press {
        if !say.contains(p.label()) {
            return Err(format!("embed.say must name the control it asks for (\"{}\")", p.label()));
        }
    }
    let preset = match map.remove("preset") {
        None => None,
        Some(Value::String(p)) if presets.contains(&p.as_str()) => Some(p),
        Some(other) => {
            return Err(format!(
                "embed.preset {other} is not a preset of the file's publish section ({})",
                presets.join(", ")
            ))
        }
    };
    Ok(EmbedHint { say, press, preset })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_hint_is_one_line_that_names_the_control_it_asks_for() {
        let parse = |v| parse(v, &["OrderPlaced", "PoisonOrder"]);
        let h = parse(json!({"say": "Press + Worker on sms, then Play.", "press": "add-worker"})).unwrap();
        assert_eq!(h.press, Some(Press::AddWorker));
        assert_eq!(parse(json!({"say": "Press Play."})).unwrap().press, None);
        let h = parse(json!({"say": "Press Publish.", "press": "publish", "preset": "PoisonOrder"})).unwrap();
        assert_eq!(h.preset.as_deref(), Some("PoisonOrder"));
        for (bad, said) in [
            (json!({"say": "Press Play.", "press": "publish"}), "must name the control"),
            (json!({"say": "two\nlines"}), "one line"),
            (json!({"say": "x", "press": "crash"}), "is not \"publish\""),
            (json!({"say": "x", "colour": 1}), "unknown key \"colour\""),
            (json!("Press Play"), "must be an object"),
            (json!({"say": "x".repeat(SAY_MAX_CHARS + 1)}), "at most 140"),
            (
                json!({"say": "Publish", "press": "publish", "preset": "Refund"}),
                "not a preset of the file's publish section (OrderPlaced, PoisonOrder)",
            ),
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains(said), "{e}");
        }
    }
}
