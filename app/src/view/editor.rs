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
/// the setting's current `value`, the `target` it sets (a queue) and how.
pub fn number_setting(
    label: &'static str,
    testid: String,
    (min, max): (u32, u32),
    value: String,
    target: String,
    apply: Apply,
) -> impl IntoView {
    let ctx = use_ctx();
    let error = RwSignal::new(None::<String>);
    let error_id = format!("{testid}-error");
    let current = value.clone();
    let on_change = move |ev| {
        let typed = event_target_value(&ev);
        let result = ctx.pg.try_update(|p| apply(p, &target, &typed));
        match result {
            Some(Err(e)) => error
                .set(Some(format!("{} Not applied: still {current}.", crate::format::error_text(&e.code, &e.message)))),
            _ => error.set(None),
        }
    };
    view! {
        <label class="field setting">
            <span>{label}</span>
            <input type="number" min=min.to_string() max=max.to_string() data-testid=testid value=value
                class:invalid=move || error.with(Option::is_some)
                aria-invalid=move || error.with(Option::is_some).to_string()
                aria-describedby=error_id.clone()
                on:change=on_change />
            <span class="setting-error" id=error_id.clone() data-testid=error_id>{move || error.get()}</span>
        </label>
    }
}
