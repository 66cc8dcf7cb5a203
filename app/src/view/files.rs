//! The page's side of files and the clipboard: a text downloaded as a file, a text copied, a
//! file read. Each reports failure as a message; none throws.

// The routes page draws neither the filter editors nor the share bar (see view::ShareBar).

use wasm_bindgen::{JsCast, JsValue};

/// Offers `text` as a download named `name` (an object URL clicked through a detached link).
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let fail = |e: JsValue| format!("The download could not start: {e:?}");
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let doc = leptos::prelude::document();
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(fail)?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url).ok();
    Ok(())
}

/// Puts `text` on the clipboard; resolves to an error message when the page may not.
pub async fn copy(text: &str) -> Result<(), String> {
    let promise = leptos::prelude::window().navigator().clipboard().write_text(text);
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|_| "The clipboard is not available here; select the text and copy it by hand.".to_string())
}

/// A file's name and its text.
pub async fn read(file: &web_sys::File) -> Result<(String, String), String> {
    let name = file.name();
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .map_err(|_| format!("{name}: the file could not be read"))?;
    Ok((name, text.as_string().unwrap_or_default()))
}
