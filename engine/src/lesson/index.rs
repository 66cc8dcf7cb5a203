//! `public/lessons/index.json`: the lessons in the order the page lists them, each with what the
//! list shows before the lesson file is fetched.
//!
//! ```json
//! {"lessons": [{"id": "three-designs", "title": "…", "summary": "…", "minutes": 8}]}
//! ```

use super::markup;
use serde_json::Value;

/// One line of the lesson list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonListing {
    /// The file `public/lessons/<id>.json`.
    pub id: String,
    pub title: String,
    pub summary: String,
    pub minutes: u32,
}

/// The lesson list, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonIndex {
    pub lessons: Vec<LessonListing>,
}

impl LessonIndex {
    /// Parses and checks the index: every entry complete, every id once.
    pub fn parse(text: &str) -> Result<LessonIndex, String> {
        listings(text, "lessons").map(|lessons| LessonIndex { lessons })
    }
}

/// The listings of an index `{"<key>": [{"id", "title", "summary", "minutes"}, …]}` (the lessons',
/// the drills'), checked: every entry complete, every id once.
pub(crate) fn listings(text: &str, key: &str) -> Result<Vec<LessonListing>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let Some(Value::Array(items)) = value.get(key) else {
        return Err(format!("the index must be {{\"{key}\": [...]}}"));
    };
    if let Some(k) = value.as_object().and_then(|m| m.keys().find(|k| *k != key)) {
        return Err(format!("unknown key \"{k}\" (the index has only \"{key}\")"));
    }
    let mut out: Vec<LessonListing> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let listing = entry(item).map_err(|e| format!("{key}[{i}]: {e}"))?;
        if out.iter().any(|l| l.id == listing.id) {
            return Err(format!("{key}[{i}]: the id \"{}\" is listed twice", listing.id));
        }
        out.push(listing);
    }
    Ok(out)
}

fn entry(item: &Value) -> Result<LessonListing, String> {
    let Value::Object(m) = item else { return Err("must be {\"id\", \"title\", \"summary\", \"minutes\"}".into()) };
    if let Some(k) = m.keys().find(|k| !["id", "title", "summary", "minutes"].contains(&k.as_str())) {
        return Err(format!("unknown key \"{k}\""));
    }
    let text = |key: &str| match m.get(key) {
        Some(Value::String(s)) => markup::check(s).map(|_| s.clone()).map_err(|e| format!("{key}: {e}")),
        _ => Err(format!("{key}: must be text")),
    };
    let minutes = match m.get("minutes").and_then(Value::as_u64) {
        Some(n @ 1..=60) => n as u32,
        _ => return Err("minutes: must be a whole number from 1 to 60".into()),
    };
    Ok(LessonListing { id: text("id")?, title: text("title")?, summary: text("summary")?, minutes })
}
