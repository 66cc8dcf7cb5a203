//! A setting the learner edits in place (a queue's visibility timeout, its retention, its
//! maxReceiveCount): the engine's own error shown under the field itself, with the field marked
//! invalid, and the setting left as it was. The Publish panel's error line is for publishing.

use super::use_ctx;
use crate::playground::Playground;
use engine::ApiError;
use leptos::prelude::*;
use serde_json::Value;

/// What applying a value does: one command on the story.
pub type Apply = fn(&mut Playground, &str, &str) -> Result<Value, ApiError>;

/// A number field that applies its value on change: `label`, its `data-testid`, its range,
/// the setting's `current` value, the `target` it sets (a queue) and how.
pub fn number_setting(
    label: &'static str,
    testid: String,
    (min, max): (u32, u32),
    current: String,
    target: String,
    apply: Apply,
) -> impl IntoView {
    let value = current.clone();
    let ctx = use_ctx();
    let error_id = format!("{testid}-error");
    let shown_at = error_id.clone();
    // The field's own error is written straight into the field and the line under it: plain
    // DOM writes, lighter in the bundle than signals for three attributes.
    let on_change = move |ev: web_sys::Event| {
        let typed = event_target_value(&ev);
        let error = match ctx.pg.try_update(|p| apply(p, &target, &typed)) {
            Some(Err(e)) => {
                Some(format!("{} Not applied: still {value}.", crate::format::error_text(&e.code, &e.message)))
            }
            _ => None,
        };
        let input = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        if let Some(input) = input {
            input.set_attribute("class", if error.is_some() { "invalid" } else { "" }).ok();
            input.set_attribute("aria-invalid", if error.is_some() { "true" } else { "false" }).ok();
        }
        if let Some(line) = document().get_element_by_id(&shown_at) {
            line.set_text_content(error.as_deref());
        }
    };
    view! {
        <label class="field setting">
            <span>{label}</span>
            <input type="number" min=min.to_string() max=max.to_string() data-testid=testid value=current
                aria-invalid="false" aria-describedby=error_id.clone() on:change=on_change />
            <span class="setting-error" id=error_id.clone() data-testid=error_id></span>
        </label>
    }
}
