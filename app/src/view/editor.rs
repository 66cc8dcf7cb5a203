//! A setting the learner edits in place (a queue's visibility timeout, its retention, its
//! maxReceiveCount): the engine's own error shown under the field itself, with the field marked
//! invalid, and the setting left as it was. The Publish panel's error line is for publishing.
//! The field is markup (see [`number_setting`]); [`changed`] applies it, from the one change
//! handler of the panel that holds it.

use super::{esc, Ctx};
use crate::playground::Playground;
use engine::ApiError;
use leptos::prelude::Update;
use serde_json::Value;
use wasm_bindgen::JsCast;

/// A number field that applies its value on change, as markup: `label`, its `data-testid`,
/// its range, the setting's `current` value, which setting it is (`visibility`, `retention`
/// or `max-receive`) and the `target` it sets (a queue; for maxReceiveCount "queue dlq").
pub fn number_setting(
    label: &str,
    testid: &str,
    (min, max): (u32, u32),
    current: &str,
    setting: &str,
    target: &str,
) -> String {
    let (testid, current) = (esc(testid), esc(current));
    format!(
        "<label class=\"field setting\"><span>{label}</span><input type=\"number\" min=\"{min}\" max=\"{max}\" \
         data-testid=\"{testid}\" value=\"{current}\" data-current=\"{current}\" data-setting=\"{setting}\" \
         data-target=\"{}\" aria-invalid=\"false\" aria-describedby=\"{testid}-error\">\
         <span class=\"setting-error\" id=\"{testid}-error\" data-testid=\"{testid}-error\"></span></label>",
        esc(target)
    )
}

/// What applying a setting does: one command on the story.
fn apply(p: &mut Playground, setting: &str, target: &str, v: &str) -> Result<Value, ApiError> {
    match setting {
        "visibility" => p.set_queue_attribute(target, "VisibilityTimeout", v),
        "retention" => p.set_queue_attribute(target, "MessageRetentionPeriod", v),
        _ => {
            let (queue, dlq) = target.split_once(' ').unwrap_or((target, ""));
            p.set_redrive(queue, dlq, v)
        }
    }
}

/// A setting's field changed: applies it, or shows the engine's error under it and marks it
/// invalid (plain DOM writes: lighter in the bundle than signals for three attributes).
pub fn changed(ctx: Ctx, ev: &web_sys::Event) {
    let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
    let Some(setting) = input.get_attribute("data-setting") else { return };
    let (target, typed) = (input.get_attribute("data-target").unwrap_or_default(), input.value());
    let was = input.get_attribute("data-current").unwrap_or_default();
    let error = match ctx.pg.try_update(|p| apply(p, &setting, &target, &typed)) {
        Some(Err(e)) => Some(format!("{} Not applied: still {was}.", crate::format::error_text(&e.code, &e.message))),
        _ => None,
    };
    input.set_class_name(if error.is_some() { "invalid" } else { "" });
    input.set_attribute("aria-invalid", if error.is_some() { "true" } else { "false" }).ok();
    let line =
        input.get_attribute("aria-describedby").and_then(|id| leptos::prelude::document().get_element_by_id(&id));
    if let Some(line) = line {
        line.set_text_content(error.as_deref());
    }
}
