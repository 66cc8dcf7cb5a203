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

/// The built-in scenario `id` (one of `playground::BUILTIN`), fetched from `scenarios/<id>.json`.
pub async fn scenario(id: &str) -> Result<crate::Playground, String> {
    if !crate::playground::BUILTIN.iter().any(|(i, _)| *i == id) {
        return Err(format!("no scenario \"{id}\""));
    }
    let text = text(&format!("scenarios/{id}.json"))
        .await
        .ok_or_else(|| format!("the scenario \"{id}\" could not be fetched (scenarios/{id}.json)"))?;
    crate::Playground::builtin_from(id, &text)
}
