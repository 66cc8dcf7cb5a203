//! Progress kept in the browser's `localStorage` as
//! `{"version": 1, "<list>": {"<id>": {…}, …}}`: read with every entry checked, written back,
//! and loaded with a one-line notice when what is saved cannot be read (it is then removed).
//! Storage that throws (blocked by the browser) reads as nothing saved, and saving does nothing.
//! The lessons and the drills keep their progress this way.

use serde_json::{json, Map, Value};

/// The entries of `list` in a saved text, each read by `entry`; an error says what and where
/// (`lesson "ordering": step: …`, with `what` naming an entry).
pub fn parse_entries<T>(
    text: &str,
    list: &str,
    what: &str,
    entry: impl Fn(&Value) -> Result<T, String>,
) -> Result<Vec<(String, T)>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?;
    if value.get("version").and_then(Value::as_u64) != Some(1) {
        return Err("unknown version".into());
    }
    let Some(Value::Object(items)) = value.get(list) else { return Err(format!("no {list} object")) };
    let mut out = Vec::with_capacity(items.len());
    for (id, item) in items {
        out.push((id.clone(), entry(item).map_err(|e| format!("{what} \"{id}\": {e}"))?));
    }
    Ok(out)
}

/// The text that [`parse_entries`] reads back: the entries of `list`, each written by `entry`.
pub fn entries_text<T>(list: &str, entries: &[(String, T)], entry: impl Fn(&T) -> Value) -> String {
    let mut items = Map::new();
    for (id, e) in entries {
        items.insert(id.clone(), entry(e));
    }
    let mut top = Map::new();
    top.insert("version".into(), json!(1));
    top.insert(list.into(), Value::Object(items));
    Value::Object(top).to_string()
}

/// The browser's `localStorage`, or `None` where it is blocked (access throws) or missing.
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// What is saved under `key`, read by `parse`: `(value, notice)`. A saved text that cannot be
/// read is removed and named in the notice ("Your saved `what` could not be read …"); nothing
/// saved, or blocked storage, gives `(None, None)`.
pub fn load<T>(key: &str, what: &str, parse: impl FnOnce(&str) -> Result<T, String>) -> (Option<T>, Option<String>) {
    let Some(s) = storage() else { return (None, None) };
    match s.get_item(key) {
        Ok(Some(text)) => match parse(&text) {
            Ok(p) => (Some(p), None),
            Err(e) => {
                let _ = s.remove_item(key);
                (None, Some(format!("Your saved {what} could not be read ({e}) and was discarded.")))
            }
        },
        _ => (None, None),
    }
}

/// Saves `text` under `key`; does nothing where storage is blocked or full.
pub fn save(key: &str, text: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, text);
    }
}
