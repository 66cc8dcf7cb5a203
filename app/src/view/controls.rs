//! Publishing events (the scenario's presets and a custom editor) and editing subscriptions'
//! filter policies with live validation from the engine: the exact error inline, nothing applied
//! until valid.

use super::{esc, use_ctx};
use crate::playground::check_filter_policy;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn Publish() -> impl IntoView {
    let ctx = use_ctx();
    // The scenario's presets as (name, label); the choice falls back to the first one when the
    // scenario changes to one without it.
    let presets = Memo::new(move |_| {
        ctx.pg.with(|p| p.presets().iter().map(|p| (p.name.clone(), p.label.clone())).collect::<Vec<_>>())
    });
    let event_type = RwSignal::new(String::new());
    let chosen = move || {
        let picked = event_type.get();
        presets.with(|ps| match ps.iter().find(|(name, _)| *name == picked) {
            Some(_) => picked,
            None => ps.first().map(|(name, _)| name.clone()).unwrap_or_default(),
        })
    };
    let custom = RwSignal::new(false);
    let body = RwSignal::new(r#"{"event_type": "OrderPlaced", "order_id": 4500}"#.to_string());
    let attributes =
        RwSignal::new(r#"{"event_type": {"DataType": "String", "StringValue": "OrderPlaced"}}"#.to_string());
    let group = RwSignal::new(String::new());
    let topic = move || ctx.snapshot.with(|s| s.topics.first().map(|t| t.name.clone()));
    // The group field is for FIFO topics only: a standard topic refuses a MessageGroupId.
    let fifo = Memo::new(move |_| ctx.snapshot.with(|s| s.topics.first().is_some_and(|t| t.fifo)));
    let publish = move |_| {
        if custom.get_untracked() {
            let group = if fifo.get_untracked() { group.get_untracked() } else { String::new() };
            ctx.act(|p| p.publish_custom(&body.get_untracked(), &attributes.get_untracked(), &group));
        } else {
            let kind = untrack(chosen);
            ctx.act(|p| p.publish(&kind));
        }
    };
    view! {
        <section class="controls" aria-label="Publish an event">
            <p class="lede" dir="auto">{move || ctx.pg.with(|p| p.description.clone())}</p>
            <div class="row">
                <label class="field">
                    <span>"Event"</span>
                    <select data-testid="event-type" prop:disabled=move || custom.get()
                        on:change=move |ev| event_type.set(event_target_value(&ev))>
                        {move || presets.get().into_iter().map(|(name, label)| {
                            let this = name.clone();
                            view! { <option value=name prop:selected=move || chosen() == this>{label}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <button class="primary" data-testid="publish" on:click=publish prop:disabled=move || topic().is_none()>
                    {move || match topic() { Some(t) => format!("Publish to {t}"), None => "No topic to publish to".into() }}
                </button>
                <label class="toggle">
                    <input type="checkbox" data-testid="custom-toggle" prop:checked=move || custom.get()
                        on:change=move |ev| custom.set(event_target_checked(&ev)) />
                    <span>"Custom message"</span>
                </label>
            </div>
            <Show when=move || custom.get()>
                <div class="custom">
                    <label class="field wide"><span>"Message body"</span>
                        <textarea data-testid="custom-body" rows="3" prop:value=move || body.get()
                            on:input=move |ev| body.set(event_target_value(&ev))></textarea></label>
                    <label class="field wide"><span>"Message attributes (Publish shape, JSON)"</span>
                        <textarea data-testid="custom-attributes" rows="3" prop:value=move || attributes.get()
                            on:input=move |ev| attributes.set(event_target_value(&ev))></textarea></label>
                    <label class="field" hidden=move || !fifo.get()><span>"MessageGroupId (FIFO)"</span>
                        <input data-testid="custom-group" prop:value=move || group.get()
                            on:input=move |ev| group.set(event_target_value(&ev)) /></label>
                </div>
            </Show>
            <p class="error" role="alert" data-testid="error">{move || ctx.error.get()}</p>
        </section>
    }
}

/// One editor's markup: the field, its status line and Apply (nothing to apply until changed).
fn policy_editor(sub: &(String, String, Option<String>, String, bool)) -> String {
    let (arn, queue, policy, scope, raw) = sub;
    let id = format!("subscription-{}-policy", esc(queue));
    format!(
        "<div class=\"policy\"><label class=\"field wide\"><span>{} · {scope}{}</span><textarea data-testid=\"{id}\" \
         data-arn=\"{arn}\" data-scope=\"{scope}\" data-current=\"{current}\" rows=\"2\" spellcheck=\"false\" \
         placeholder=\"No filter: every message\" aria-invalid=\"false\">{current}</textarea></label>\
         <p class=\"policy-status\" data-testid=\"{id}-error\" role=\"status\"></p>\
         <button data-testid=\"{id}-apply\" data-act=\"apply\" disabled>Apply</button></div>",
        esc(queue),
        if *raw { "" } else { " · envelope" },
        arn = esc(arn),
        current = esc(policy.as_deref().unwrap_or_default()),
    )
}

/// The editor around an element of it (the field, or its Apply button).
fn editor_of(el: &web_sys::Element) -> Option<(web_sys::HtmlTextAreaElement, web_sys::Element, web_sys::Element)> {
    let editor = el.closest(".policy").ok()??;
    let field = editor.query_selector("textarea").ok()??.dyn_into::<web_sys::HtmlTextAreaElement>().ok()?;
    Some((field, editor.query_selector(".policy-status").ok()??, editor.query_selector("button").ok()??))
}

/// Live validation as the learner types: the engine's exact error under the field, the field
/// marked invalid, Apply enabled only for a valid change. Plain DOM writes: the field keeps its
/// text and its caret.
fn check_field(el: &web_sys::Element) {
    let Some((field, status, apply)) = editor_of(el) else { return };
    let (text, scope) = (field.value(), field.get_attribute("data-scope").unwrap_or_default());
    let changed = field.get_attribute("data-current").unwrap_or_default() != text;
    let check = check_filter_policy(&text, &scope);
    let invalid = check.is_err();
    let said = match check {
        Err(e) => e,
        Ok(()) if changed => "Valid. Apply to use it for the next publish.".into(),
        Ok(()) => String::new(),
    };
    status.set_text_content(Some(&said));
    field.set_attribute("aria-invalid", &invalid.to_string()).ok();
    field.set_class_name(if invalid { "invalid" } else { "" });
    if invalid || !changed {
        apply.set_attribute("disabled", "").ok();
    } else {
        apply.remove_attribute("disabled").ok();
    }
}

/// The subscriptions' filter policies, one editor each, drawn as markup when a subscription, its
/// policy or its scope changes (a message flowing does not redraw them).
#[component]
pub fn Subscriptions() -> impl IntoView {
    let ctx = use_ctx();
    let subs = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            s.topics
                .iter()
                .flat_map(|t| &t.subscriptions)
                .map(|s| {
                    let queue = s.queue.clone().unwrap_or_else(|| s.endpoint.clone());
                    (s.arn.clone(), queue, s.filter_policy.clone(), s.filter_scope.to_string(), s.raw)
                })
                .collect::<Vec<_>>()
        })
    });
    let element = |ev: &web_sys::Event| ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let on_input = move |ev: web_sys::Event| {
        if let Some(el) = element(&ev) {
            check_field(&el);
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(el) = element(&ev) else { return };
        if el.closest("[data-act=apply]").ok().flatten().is_none_or(|b| b.has_attribute("disabled")) {
            return;
        }
        let Some((field, ..)) = editor_of(&el) else { return };
        let (arn, policy) = (field.get_attribute("data-arn").unwrap_or_default(), field.value());
        if check_filter_policy(&policy, &field.get_attribute("data-scope").unwrap_or_default()).is_ok() {
            ctx.act(|p| p.set_filter_policy(&arn, &policy));
        }
    };
    view! {
        <section class="subscriptions" aria-label="Subscription filter policies" on:input=on_input on:click=on_click>
            <h2>"Filter policies"</h2>
            <div class="part" inner_html=move || subs.with(|s| s.iter().map(policy_editor).collect::<String>())></div>
        </section>
    }
}
