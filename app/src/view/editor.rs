//! A setting the learner edits in place (a queue's visibility timeout, its retention, its
//! maxReceiveCount): applied when the field changes, the engine's own error shown under the
//! field itself with the field marked invalid, and the setting left as it was. The Publish
//! panel's error line is for publishing.

use super::use_ctx;
use crate::playground::Playground;
use engine::ApiError;
use leptos::prelude::*;
use serde_json::Value;

/// Which setting a field edits.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    /// A queue's `VisibilityTimeout` (seconds).
    Visibility { queue: String },
    /// A queue's `MessageRetentionPeriod` (seconds).
    Retention { queue: String },
    /// A queue's redrive `maxReceiveCount`, keeping its dead-letter queue.
    MaxReceive { queue: String, dlq: String },
}

impl Setting {
    /// Applying it: one command on the story.
    fn apply(&self, p: &mut Playground, value: &str) -> Result<Value, ApiError> {
        match self {
            Setting::Visibility { queue } => p.set_queue_attribute(queue, "VisibilityTimeout", value),
            Setting::Retention { queue } => p.set_queue_attribute(queue, "MessageRetentionPeriod", value),
            Setting::MaxReceive { queue, dlq } => p.set_redrive(queue, dlq, value),
        }
    }
}

/// A number field for `setting`, showing `current` (the engine's value), in `range`.
#[component]
pub fn NumberSetting(
    label: &'static str,
    testid: String,
    range: (u32, u32),
    current: Signal<String>,
    setting: Setting,
) -> impl IntoView {
    let ctx = use_ctx();
    let error = RwSignal::new(None::<String>);
    let setting = StoredValue::new(setting);
    let changed = move |ev: leptos::ev::Event| {
        let typed = event_target_value(&ev);
        let was = current.get_untracked();
        error.set(match ctx.pg.try_update(|p| setting.with_value(|s| s.apply(p, &typed))) {
            Some(Err(e)) => {
                Some(format!("{} Not applied: still {was}.", crate::format::error_text(&e.code, &e.message)))
            }
            _ => None,
        });
    };
    let error_id = format!("{testid}-error");
    view! {
        <label class="field setting">
            <span>{label}</span>
            <input type="number" min=range.0 max=range.1 data-testid=testid prop:value=move || current.get()
                class:invalid=move || error.with(Option::is_some)
                aria-invalid=move || error.with(Option::is_some).to_string() aria-describedby=error_id.clone()
                on:change=changed />
            <span class="setting-error" id=error_id.clone() data-testid=error_id>{move || error.get()}</span>
        </label>
    }
}
