//! Lessons are data fetched when opened: `lessons/index.json` and `lessons/<id>.json` (Trunk
//! copies `public/` into the build; addresses relative to the page), and the page's address: `?lesson=<id>` opens a lesson,
//! `?lesson=<id>&step=<n>` opens it at step n (1-based).

use engine::lesson::{Lesson, LessonIndex};
use serde_json::Value;

/// A file of the site as text, or an error naming it.
async fn text(url: &str) -> Result<String, String> {
    crate::fetch::text(url).await.ok_or_else(|| format!("{url} could not be fetched"))
}

/// The lesson list, its path in parts, and the glossary.
pub async fn index() -> Result<LessonIndex, String> {
    let text = text("lessons/index.json").await?;
    LessonIndex::parse(&text).map_err(|e| format!("lessons/index.json: {e}"))
}

/// One lesson, parsed and checked by the engine (its error says where), with its starting
/// scenario's file: a built-in one's, fetched, or the lesson's inline one.
pub async fn lesson(id: &str) -> Result<(Lesson, String), String> {
    let url = format!("lessons/{id}.json");
    let text = text(&url).await?;
    let start = serde_json::from_str::<Value>(&text).ok().map(|v| v["scenario"].clone());
    let (builtin, source) = match start {
        // Only a built-in id is fetched; any other name is the engine's "unknown scenario".
        Some(Value::String(sid)) if crate::playground::BUILTIN.iter().any(|(b, _)| *b == sid) => {
            let file = self::text(&format!("scenarios/{sid}.json")).await?;
            (Some(sid), file)
        }
        Some(v @ Value::Object(_)) => (None, v.to_string()),
        _ => (None, String::new()),
    };
    let builtins: Vec<(&str, &str)> = builtin.as_deref().map(|b| (b, source.as_str())).into_iter().collect();
    let lesson = Lesson::parse(&text, &builtins).map_err(|e| format!("{url}: {e}"))?;
    Ok((lesson, source))
}

/// The 0-based step `step` (1-based text) names in a lesson of `steps` steps, or why not.
pub fn step_index(step: Option<&str>, steps: usize, id: &str) -> Result<usize, String> {
    let Some(text) = step else { return Ok(0) };
    match text.parse::<usize>() {
        Ok(n @ 1..) if n <= steps => Ok(n - 1),
        _ => Err(format!("The lesson \"{id}\" has steps 1 to {steps}; there is no step \"{text}\".")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_in_the_address_is_checked_against_the_lesson() {
        assert_eq!(step_index(Some("3"), 9, "ordering"), Ok(2));
        assert_eq!(step_index(None, 9, "ordering"), Ok(0));
        for bad in ["0", "10", "two", "-1"] {
            let e = step_index(Some(bad), 9, "ordering").unwrap_err();
            assert!(e.contains("steps 1 to 9") && e.contains(bad), "{e}");
        }
    }
}
