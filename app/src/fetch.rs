//! Reading the page's own data files (fetched, not compiled into the bundle).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The text of `url` (relative to the page), or `None` if it cannot be fetched or read.
pub async fn text(url: &str) -> Option<String> {
    let window = web_sys::window()?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url)).await.ok()?.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    JsFuture::from(response.text().ok()?).await.ok()?.as_string()
}

/// The text of page `path` as the server has it now (a query of its own keeps any cache out of
/// the way), or `None`.
pub async fn fresh_text(path: &str) -> Option<String> {
    text(&format!("{path}?fresh={}", js_sys::Date::now())).await
}

/// The built-in scenario `id` (one of `playground::BUILTIN`), fetched from `scenarios/<id>.json`.
pub async fn scenario(id: &str) -> Result<crate::Playground, String> {
    if !crate::playground::BUILTIN.iter().any(|(i, _)| *i == id) {
        let near = crate::nearest::closest_said(id, crate::playground::BUILTIN.iter().map(|(i, _)| *i));
        return Err(format!("no scenario \"{id}\"{near}"));
    }
    let text = text(&format!("scenarios/{id}.json"))
        .await
        .ok_or_else(|| format!("the scenario \"{id}\" could not be fetched (scenarios/{id}.json)"))?;
    crate::Playground::builtin_from(id, &text)
}

thread_local! {
    /// The data files fetched so far (design and interview files): moving back to a view reads
    /// them from here instead of the network. Few, small, and the same for the whole visit.
    static DATA: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The text of the data file at `path` (relative to the page), fetched once per visit; an error
/// names the file.
pub async fn data(path: &str) -> Result<String, String> {
    if let Some(text) = DATA.with(|d| d.borrow().iter().find(|(p, _)| p == path).map(|(_, t)| t.clone())) {
        return Ok(text);
    }
    let text = text(path).await.ok_or_else(|| format!("{path} could not be fetched"))?;
    DATA.with(|d| d.borrow_mut().push((path.to_string(), text.clone())));
    Ok(text)
}

/// A compare design's file, `designs/<name>.json`.
pub async fn design(name: &str) -> Result<String, String> {
    data(&format!("designs/{name}.json")).await
}
