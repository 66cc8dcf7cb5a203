//! Reading the page's own data files (fetched, not compiled into the bundle).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Why a file could not be read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Failure {
    /// The request itself failed (offline, blocked).
    Request,
    /// The server answered, but not with the file (a 404, say).
    Missing,
    /// The answer could not be read as text.
    Unreadable,
}

/// The text of `url` (relative to the page), or why not.
pub async fn get(url: &str) -> Result<String, Failure> {
    let window = web_sys::window().ok_or(Failure::Request)?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(|_| Failure::Request)?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| Failure::Request)?;
    if !response.ok() {
        return Err(Failure::Missing);
    }
    let text =
        JsFuture::from(response.text().map_err(|_| Failure::Unreadable)?).await.map_err(|_| Failure::Unreadable)?;
    text.as_string().ok_or(Failure::Unreadable)
}

/// The text of `url`, or `None` if it cannot be fetched or read.
pub async fn text(url: &str) -> Option<String> {
    get(url).await.ok()
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
