//! Publishing events (the scenario's presets and a custom editor) and editing subscriptions'
//! filter policies with live validation from the engine: the exact error inline, nothing applied
//! until valid.

use super::use_ctx;
use crate::playground::check_filter_policy;
use engine::snapshot::SubscriptionView;
use leptos::prelude::*;

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

#[component]
pub fn Subscriptions() -> impl IntoView {
    let ctx = use_ctx();
    let subs = Memo::new(move |_| {
        ctx.snapshot.with(|s| s.topics.iter().flat_map(|t| t.subscriptions.clone()).collect::<Vec<_>>())
    });
    view! {
        <section class="subscriptions" aria-label="Subscription filter policies">
            <h2>"Filter policies"</h2>
            <For each=move || subs.get() key=|s| (s.arn.clone(), s.endpoint.clone(), s.filter_policy.clone(), s.filter_scope, s.raw) let:sub>
                <PolicyEditor sub=sub />
            </For>
        </section>
    }
}

#[component]
fn PolicyEditor(sub: SubscriptionView) -> impl IntoView {
    let ctx = use_ctx();
    let queue = sub.queue.clone().unwrap_or_else(|| sub.endpoint.clone());
    let text = RwSignal::new(sub.filter_policy.clone().unwrap_or_default());
    let scope = sub.filter_scope;
    let check = Memo::new(move |_| check_filter_policy(&text.get(), scope));
    let current = sub.filter_policy.clone().unwrap_or_default();
    let changed = Memo::new(move |_| text.get() != current);
    let arn = sub.arn.clone();
    let apply = move |_| {
        if check.get_untracked().is_ok() {
            let policy = text.get_untracked();
            ctx.act(|p| p.set_filter_policy(&arn, &policy));
        }
    };
    let id = format!("subscription-{queue}-policy");
    view! {
        <div class="policy">
            <label class="field wide">
                <span>{format!("{queue} · {scope}")}{(!sub.raw).then_some(" · envelope")}</span>
                <textarea data-testid=id.clone() rows="2" spellcheck="false" placeholder="No filter: every message"
                    class:invalid=move || check.get().is_err()
                    aria-invalid=move || check.get().is_err().to_string()
                    prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </label>
            <p class="policy-status" data-testid=format!("{id}-error") role="status">
                {move || match check.get() {
                    Err(e) => e,
                    Ok(()) if changed.get() => "Valid. Apply to use it for the next publish.".into(),
                    Ok(()) => String::new(),
                }}
            </p>
            <button data-testid=format!("{id}-apply") prop:disabled=move || check.get().is_err() || !changed.get() on:click=apply>"Apply"</button>
        </div>
    }
}
