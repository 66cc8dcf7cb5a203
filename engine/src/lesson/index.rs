//! `public/lessons/index.json`: the lessons in the order the page lists them, each with what the
//! list shows before the lesson file is fetched; the path they make, in parts; and the glossary
//! the lesson panel opens.
//!
//! ```json
//! {"parts": [{"id": "basics", "title": "The basics"}],
//!  "lessons": [{"id": "three-designs", "title": "…", "summary": "…", "minutes": 8,
//!               "part": "basics", "assumes": ["first-fan-out"]}],
//!  "glossary": [{"term": "SQS", "means": "Amazon Simple Queue Service: …"}]}
//! ```
//!
//! `lessons` is the only key an index must have; `parts`, a listing's `part` and `assumes`, and
//! `glossary` were added later and are optional. A lesson's `part` names one of `parts`, and the
//! lessons of a part are listed together, parts in their own order. `assumes` names lessons
//! listed before it. The drill index shares the listing shape, without these additions.

use super::markup;
use serde_json::{Map, Value};

/// One line of the lesson list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonListing {
    /// The file `public/lessons/<id>.json`.
    pub id: String,
    pub title: String,
    pub summary: String,
    pub minutes: u32,
    /// The id of the part of the path the lesson belongs to.
    pub part: Option<String>,
    /// The lessons it builds on (ids of lessons listed before it); empty for none.
    pub assumes: Vec<String>,
}

/// A part of the path through the lessons: basics, failures, …
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub id: String,
    pub title: String,
}

/// A term the lessons use, and what it means in one or two plain sentences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlossaryEntry {
    pub term: String,
    pub means: String,
}

/// The lesson list, in order, with its path and glossary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonIndex {
    pub parts: Vec<Part>,
    pub lessons: Vec<LessonListing>,
    pub glossary: Vec<GlossaryEntry>,
}

impl LessonIndex {
    /// Parses and checks the index: every entry complete, every id once, every part named and
    /// its lessons together, every assumed lesson listed earlier, every glossary term once.
    pub fn parse(text: &str) -> Result<LessonIndex, String> {
        let value = json(text)?;
        only_keys(&value, &["parts", "lessons", "glossary"])?;
        let parts = match value.get("parts") {
            None => Vec::new(),
            Some(v) => parts(v)?,
        };
        let lessons = entries(&value, "lessons", true)?;
        check_path(&parts, &lessons)?;
        let glossary = match value.get("glossary") {
            None => Vec::new(),
            Some(v) => glossary(v)?,
        };
        Ok(LessonIndex { parts, lessons, glossary })
    }

    /// The lessons of part `id`, in order.
    pub fn lessons_of<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a LessonListing> + 'a {
        self.lessons.iter().filter(move |l| l.part.as_deref() == Some(id))
    }

    /// The listing of lesson `id`.
    pub fn listing(&self, id: &str) -> Option<&LessonListing> {
        self.lessons.iter().find(|l| l.id == id)
    }
}

/// The listings of an index `{"<key>": [{"id", "title", "summary", "minutes"}, …]}` (the
/// drills'), checked: every entry complete, every id once, no other key.
pub(crate) fn listings(text: &str, key: &str) -> Result<Vec<LessonListing>, String> {
    let value = json(text)?;
    only_keys(&value, &[key])?;
    entries(&value, key, false)
}

fn json(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))
}

fn only_keys(value: &Value, keys: &[&str]) -> Result<(), String> {
    let Some(m) = value.as_object() else { return Err(format!("the index must be {{\"{}\": [...]}}", keys[0])) };
    match m.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(k) => Err(format!("unknown key \"{k}\" (the index has {})", quoted(keys))),
        None => Ok(()),
    }
}

fn quoted(keys: &[&str]) -> String {
    keys.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", ")
}

fn entries(value: &Value, key: &str, path: bool) -> Result<Vec<LessonListing>, String> {
    let Some(Value::Array(items)) = value.get(key) else {
        return Err(format!("the index must be {{\"{key}\": [...]}}"));
    };
    let mut out: Vec<LessonListing> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let listing = entry(item, path).map_err(|e| format!("{key}[{i}]: {e}"))?;
        if out.iter().any(|l| l.id == listing.id) {
            return Err(format!("{key}[{i}]: the id \"{}\" is listed twice", listing.id));
        }
        if let Some(a) = listing.assumes.iter().find(|a| !out.iter().any(|l| &l.id == *a)) {
            return Err(format!("{key}[{i}]: assumes: \"{a}\" is not a lesson listed before it"));
        }
        out.push(listing);
    }
    Ok(out)
}

/// A text field, checked for markup.
fn text(m: &Map<String, Value>, key: &str) -> Result<String, String> {
    match m.get(key) {
        Some(Value::String(s)) => markup::check(s).map(|_| s.clone()).map_err(|e| format!("{key}: {e}")),
        _ => Err(format!("{key}: must be text")),
    }
}

fn entry(item: &Value, path: bool) -> Result<LessonListing, String> {
    let Value::Object(m) = item else { return Err("must be {\"id\", \"title\", \"summary\", \"minutes\"}".into()) };
    let known: &[&str] = if path {
        &["id", "title", "summary", "minutes", "part", "assumes"]
    } else {
        &["id", "title", "summary", "minutes"]
    };
    if let Some(k) = m.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!("unknown key \"{k}\""));
    }
    let minutes = match m.get("minutes").and_then(Value::as_u64) {
        Some(n @ 1..=60) => n as u32,
        _ => return Err("minutes: must be a whole number from 1 to 60".into()),
    };
    let part = match m.get("part") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("part: must be the id of one of the index's parts".into()),
    };
    let assumes = match m.get("assumes") {
        None => Vec::new(),
        Some(Value::Array(ids)) => ids
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| "assumes: must be a list of lesson ids".to_string()))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("assumes: must be a list of lesson ids".into()),
    };
    Ok(LessonListing {
        id: text(m, "id")?,
        title: text(m, "title")?,
        summary: text(m, "summary")?,
        minutes,
        part,
        assumes,
    })
}

fn parts(v: &Value) -> Result<Vec<Part>, String> {
    let Value::Array(items) = v else { return Err("parts: must be a list of {\"id\", \"title\"}".into()) };
    let mut out: Vec<Part> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Value::Object(m) = item else { return Err(format!("parts[{i}]: must be {{\"id\", \"title\"}}")) };
        if let Some(k) = m.keys().find(|k| !["id", "title"].contains(&k.as_str())) {
            return Err(format!("parts[{i}]: unknown key \"{k}\""));
        }
        let part = Part { id: text(m, "id").map_err(|e| format!("parts[{i}]: {e}"))?, title: text(m, "title")? };
        if out.iter().any(|p| p.id == part.id) {
            return Err(format!("parts[{i}]: the id \"{}\" is listed twice", part.id));
        }
        out.push(part);
    }
    Ok(out)
}

/// Every lesson's part is one of `parts`; each part's lessons are listed together, parts in
/// their order; with parts, every lesson has one.
fn check_path(parts: &[Part], lessons: &[LessonListing]) -> Result<(), String> {
    let mut at = 0;
    for (i, l) in lessons.iter().enumerate() {
        let Some(part) = &l.part else {
            if parts.is_empty() {
                continue;
            }
            return Err(format!("lessons[{i}]: part: every lesson names its part when the index has parts"));
        };
        let Some(p) = parts.iter().position(|p| &p.id == part) else {
            return Err(format!("lessons[{i}]: part: \"{part}\" is not one of the parts"));
        };
        if p < at {
            return Err(format!(
                "lessons[{i}]: part: \"{part}\" comes back after \"{}\": a part's lessons are listed together, in the parts' order",
                parts[at].id
            ));
        }
        at = p;
    }
    Ok(())
}

fn glossary(v: &Value) -> Result<Vec<GlossaryEntry>, String> {
    let Value::Array(items) = v else { return Err("glossary: must be a list of {\"term\", \"means\"}".into()) };
    let mut out: Vec<GlossaryEntry> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Value::Object(m) = item else { return Err(format!("glossary[{i}]: must be {{\"term\", \"means\"}}")) };
        if let Some(k) = m.keys().find(|k| !["term", "means"].contains(&k.as_str())) {
            return Err(format!("glossary[{i}]: unknown key \"{k}\""));
        }
        let entry = GlossaryEntry {
            term: text(m, "term").map_err(|e| format!("glossary[{i}]: {e}"))?,
            means: text(m, "means").map_err(|e| format!("glossary[{i}]: {e}"))?,
        };
        if out.iter().any(|e| e.term.eq_ignore_ascii_case(&entry.term)) {
            return Err(format!("glossary[{i}]: the term \"{}\" is listed twice", entry.term));
        }
        out.push(entry);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATHED: &str = r#"{"parts": [{"id": "basics", "title": "The basics"}, {"id": "failures", "title": "Failures"}],
      "lessons": [
        {"id": "a", "title": "A", "summary": "a", "minutes": 5, "part": "basics"},
        {"id": "b", "title": "B", "summary": "b", "minutes": 6, "part": "basics", "assumes": ["a"]},
        {"id": "c", "title": "C", "summary": "c", "minutes": 7, "part": "failures", "assumes": ["a", "b"]}],
      "glossary": [{"term": "SQS", "means": "Amazon Simple Queue Service."}]}"#;

    #[test]
    fn an_index_of_the_first_shape_still_parses_without_parts_or_glossary() {
        let i = LessonIndex::parse(r#"{"lessons": [{"id": "a", "title": "A", "summary": "a", "minutes": 5}]}"#)
            .expect("the old shape");
        assert!(i.parts.is_empty() && i.glossary.is_empty());
        assert_eq!((i.lessons[0].part.clone(), i.lessons[0].assumes.len()), (None, 0));
    }

    #[test]
    fn parts_group_lessons_in_order_and_assumptions_name_earlier_lessons() {
        let i = LessonIndex::parse(PATHED).expect("parses");
        assert_eq!(i.lessons_of("basics").map(|l| l.id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(i.lessons_of("failures").map(|l| l.id.as_str()).collect::<Vec<_>>(), ["c"]);
        assert_eq!(i.listing("c").map(|l| l.assumes.clone()), Some(vec!["a".into(), "b".into()]));
        assert_eq!(i.glossary[0].term, "SQS");
    }

    #[test]
    fn a_broken_path_or_glossary_is_refused_with_where_and_what() {
        let cases = [
            (
                PATHED.replace(r#""part": "failures""#, r#""part": "routes""#),
                "lessons[2]: part: \"routes\" is not one of the parts",
            ),
            (
                PATHED.replace(r#""assumes": ["a"]"#, r#""assumes": ["c"]"#),
                "lessons[1]: assumes: \"c\" is not a lesson listed before it",
            ),
            (
                PATHED.replace(r#""minutes": 5, "part": "basics""#, r#""minutes": 5, "part": "failures""#),
                "lessons[1]: part: \"basics\" comes back after \"failures\"",
            ),
            (PATHED.replace(r#", "part": "basics"}"#, "}"), "lessons[0]: part: every lesson names its part"),
            (PATHED.replace(r#""term": "SQS""#, r#""term": "<b>SQS</b>""#), "glossary[0]: term:"),
            (PATHED.replace(r#""title": "Failures""#, r#""title": "Failures", "x": 1"#), "parts[1]: unknown key \"x\""),
            (PATHED.replace("\"glossary\"", "\"words\""), "unknown key \"words\""),
        ];
        for (text, said) in cases {
            let e = LessonIndex::parse(&text).expect_err(said);
            assert!(e.contains(said), "{e} / {said}");
        }
    }

    #[test]
    fn the_drill_index_keeps_the_plain_listing_shape() {
        let e =
            listings(r#"{"drills": [{"id": "a", "title": "A", "summary": "a", "minutes": 5, "part": "x"}]}"#, "drills")
                .expect_err("no part in a drill listing");
        assert!(e.contains("unknown key \"part\""), "{e}");
    }
}
