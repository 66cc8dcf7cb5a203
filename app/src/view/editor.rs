//! A setting the learner edits in place (a queue's visibility timeout, its retention, its
//! maxReceiveCount): applied with Apply, Enter or on leaving the field; a duration typed in the
//! unit the learner picks (seconds, minutes, hours, days). The engine's own error is shown under
//! the field itself with the field marked invalid, and the setting left as it was. The Publish
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

    /// Whether its value is a duration in seconds (typed in a unit the learner picks).
    fn is_duration(&self) -> bool {
        !matches!(self, Setting::MaxReceive { .. })
    }
}

/// Runs one of the learner's commands for a control that shows its own error beside it (a
/// select, a checkbox, a button in the inspector): true when it was applied; otherwise the
/// engine's error (or the drill's refusal) is in `error` and nothing changed.
pub fn apply_here(
    ctx: super::Ctx,
    error: RwSignal<Option<String>>,
    f: impl FnOnce(&mut Playground) -> Result<Value, ApiError>,
) -> bool {
    let result = ctx.pg.try_update(f);
    let failed = result.as_ref().and_then(|r| r.as_ref().err()).map(|e| crate::format::error_text(&e.code, &e.message));
    let ok = failed.is_none();
    error.set(failed);
    ok
}

/// A command on what the learner inspects, for one `target`.
pub type Command = fn(&mut Playground, &str) -> Result<Value, ApiError>;

/// One command as one button: `act` sends it for `target`. `state` says whether the button is
/// offered (`None`: not here) and whether what it does is done already (`Some(true)`: it says
/// so, and is disabled). The engine's error, or a drill's refusal, shows beside it. One
/// component for every such control (its handler is a function, not a closure): one copy of
/// its code in the bundle.
#[component]
pub fn CommandButton(
    target: String,
    testid: String,
    state: Signal<Option<bool>>,
    /// What it does, and what it says once done.
    labels: (&'static str, &'static str),
    title: &'static str,
    act: Command,
) -> impl IntoView {
    let ctx = use_ctx();
    let error = RwSignal::new(None::<String>);
    let target = StoredValue::new(target);
    let done = move || state.get() == Some(true);
    view! {
        <p class="setting" hidden=move || state.get().is_none()>
            <button data-testid=testid title=title disabled=done
                on:click=move |_| { target.with_value(|t| apply_here(ctx, error, |p| act(p, t))); }>
                {move || if done() { labels.1 } else { labels.0 }}
            </button>
            <span class="setting-error">{move || error.get()}</span>
        </p>
    }
}

/// The units a duration may be typed in: (label, seconds).
const UNITS: &[(&str, u64)] = &[("s", 1), ("min", 60), ("h", 3_600), ("d", 86_400)];

/// The largest unit that writes `seconds` as a whole number (seconds for what is not a number).
fn unit_for(seconds: &str) -> usize {
    match seconds.parse::<u64>() {
        Ok(s) if s > 0 => UNITS.iter().rposition(|(_, u)| s % u == 0).unwrap_or(0),
        _ => 0,
    }
}

/// `text` typed in `unit` as seconds for the engine; what is not a whole number goes as it is,
/// for the engine to refuse with its own words.
pub fn to_seconds(text: &str, unit: usize) -> String {
    let per = UNITS.get(unit).map_or(1, |u| u.1);
    match text.trim().parse::<u64>() {
        Ok(n) => n.checked_mul(per).map_or_else(|| text.to_string(), |s| s.to_string()),
        Err(_) => text.trim().to_string(),
    }
}

/// A number field for `setting`, showing `current` (the engine's value), in `range` (of the
/// value the engine takes), with Apply.
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
    let duration = setting.is_duration();
    let unit = RwSignal::new(if duration { unit_for(&current.get_untracked()) } else { 0 });
    // What the field shows: the engine's value in the unit picked, until the learner types.
    let shown = move || {
        let now = current.get();
        let per = UNITS[unit.get()].1;
        match now.parse::<u64>() {
            Ok(s) if s % per == 0 => (s / per).to_string(),
            _ => now,
        }
    };
    let typed = RwSignal::new(None::<String>);
    let setting = StoredValue::new(setting);
    let apply = move || {
        let text = typed.get_untracked().unwrap_or_else(shown);
        let value = if duration { to_seconds(&text, unit.get_untracked()) } else { text.trim().to_string() };
        let was = current.get_untracked();
        // Already the value: nothing to send. (Typing and then pressing Apply sends once: the
        // field's change, on leaving it, applies; the click then finds nothing changed.)
        if value == was {
            error.set(None);
            typed.set(None);
            return;
        }
        match ctx.pg.try_update(|p| setting.with_value(|s| s.apply(p, &value))) {
            Some(Err(e)) => {
                error.set(Some(format!("{} Not applied: still {was}.", crate::format::error_text(&e.code, &e.message))))
            }
            _ => {
                error.set(None);
                typed.set(None);
            }
        }
    };
    let pick_unit = move |ev: leptos::ev::Event| {
        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
            unit.set(i.min(UNITS.len() - 1));
        }
    };
    let error_id = format!("{testid}-error");
    let (min, max) = range;
    let apply_el = NodeRef::<leptos::html::Button>::new();
    view! {
        <label class="field setting">
            <span>{label}</span>
            <span class="setting-row">
                <input type="number" min=min max=max data-testid=testid.clone() prop:value=shown
                    class:invalid=move || error.with(Option::is_some)
                    aria-invalid=move || error.with(Option::is_some).to_string() aria-describedby=error_id.clone()
                    on:input=move |ev| typed.set(Some(event_target_value(&ev)))
                    on:focus=move |_| bring_into_view(apply_el)
                    on:change=move |_| apply() />
                {duration.then(|| view! {
                    <select data-testid=format!("{testid}-unit") aria-label="Unit"
                        prop:value=move || unit.get().to_string()
                        on:change=pick_unit>
                        {UNITS.iter().enumerate().map(|(i, (l, _))| view! { <option value=i.to_string()>{*l}</option> }).collect_view()}
                    </select>
                })}
                <button type="button" data-testid=format!("{testid}-apply") node_ref=apply_el on:click=move |_| apply()>"Apply"</button>
            </span>
            <span class="setting-error" id=error_id.clone() data-testid=error_id>{move || error.get()}</span>
        </label>
    }
}

/// Scrolls `el` just into view (nothing moves when it is in view already): a setting's Apply,
/// which can wrap under its field below the window's fold (or under the lesson's sticky bar,
/// which its `scroll-margin` keeps clear).
fn bring_into_view(el: NodeRef<leptos::html::Button>) {
    if let Some(el) = el.get_untracked() {
        crate::view::scroll_nearest(&el);
    }
}

#[cfg(test)]
mod tests {
    use super::{to_seconds, unit_for};

    #[test]
    fn a_duration_is_typed_in_a_unit_and_sent_in_seconds() {
        assert_eq!(unit_for("1209600"), 3, "14 days");
        assert_eq!(unit_for("345600"), 3, "4 days");
        assert_eq!(unit_for("30"), 0);
        assert_eq!(unit_for("3600"), 2);
        assert_eq!(unit_for("not a number"), 0);
        assert_eq!(to_seconds("14", 3), "1209600");
        assert_eq!(to_seconds(" 2 ", 1), "120");
        assert_eq!(to_seconds("-1", 2), "-1", "the engine says what is wrong with it");
        assert_eq!(to_seconds("99999999999999999", 3), "99999999999999999", "too large to multiply: sent as typed");
    }
}
