//! Publishing events (the scenario's presets and a custom editor) and editing subscriptions'
//! filter policies with live validation from the engine: the exact error inline, nothing applied
//! until valid.

use super::use_ctx;
use crate::playground::{check_filter_policy, Sends};
use leptos::prelude::*;

/// What the Publish form is made from: changes only with the story itself (not at each tick).
#[derive(Clone, PartialEq)]
struct Form {
    description: String,
    /// The presets: (name, label).
    presets: Vec<(String, String)>,
    /// What Publish sends to: its name, whether it is a FIFO topic, and what it is.
    target: Option<(String, bool, Sends)>,
    /// In a lesson step that draws one design without that topic: the design's producer, which
    /// sends the orders itself (Publish would send where the diagram shows nothing).
    off_stage: Option<String>,
}

/// The Publish panel: the scenario's description, its events, and a custom message; drawn
/// again only when the scenario changes, so what the learner typed stays while time runs.
/// `describe`: with the scenario's description above the form (the sandbox's; a lesson's text
/// replaces it).
#[component]
pub fn Publish(#[prop(optional)] describe: bool) -> impl IntoView {
    let ctx = use_ctx();
    let form = Memo::new(move |_| {
        ctx.stage.with(|stage| {
            ctx.snapshot.with(|s| {
                ctx.pg.with_untracked(|p| {
                    let target = p.publish_target(s);
                    let staged = stage.as_ref().and_then(|st| super::topology::staged_parts(s, st));
                    let off_stage = staged.and_then(|(producer, topic, _)| {
                        (topic.is_none() || topic.as_deref() != target.as_ref().map(|t| t.0.as_str()))
                            .then(|| producer.name.clone())
                    });
                    Form {
                        description: p.description.clone(),
                        presets: p.presets().iter().map(|p| (p.name.clone(), p.label.clone())).collect(),
                        target,
                        off_stage,
                    }
                })
            })
        })
    });
    view! {
        <section class="controls" aria-label="Publish an event">
            {move || match form.get() {
                Form { off_stage: Some(producer), .. } => view! {
                    <p class="hint" data-testid="publish-off-stage">
                        "This step's design has no topic to publish to: "<strong>{producer}</strong>" sends the orders itself."
                    </p>
                }.into_any(),
                form => view! { <PublishForm form=form describe=describe /> }.into_any(),
            }}
            <p class="error" role="alert" data-testid="error">{move || ctx.error.get()}</p>
        </section>
    }
}

/// The form for one scenario: its fields hold what the learner picks and types.
#[component]
fn PublishForm(form: Form, describe: bool) -> impl IntoView {
    let ctx = use_ctx();
    let Form { description, presets, target, .. } = form;
    let first = presets.first().map(|p| p.0.clone()).unwrap_or_default();
    let (kind, custom) = (RwSignal::new(first), RwSignal::new(false));
    let sends = target.as_ref().map(|t| t.2);
    let fifo = target.as_ref().is_some_and(|t| t.1);
    // On a bus the custom event is its detail, and its source and detail-type replace SNS's
    // attributes (read as one JSON object by `Playground::publish_custom`).
    let on_bus = sends == Some(Sends::Bus);
    let (body_label, attributes_label, attributes_default) = if on_bus {
        (
            "Event detail (JSON)",
            "Source and detail-type (JSON)",
            r#"{"Source": "shop.checkout", "DetailType": "OrderPlaced"}"#,
        )
    } else {
        (
            "Message body",
            "Message attributes (Publish shape, JSON)",
            r#"{"event_type": {"DataType": "String", "StringValue": "OrderPlaced"}}"#,
        )
    };
    let body = RwSignal::new(r#"{"event_type": "OrderPlaced", "order_id": 4500}"#.to_string());
    let attributes = RwSignal::new(attributes_default.to_string());
    let group = RwSignal::new(String::new());
    let label = match &target {
        Some((bus, _, Sends::Bus)) => format!("Put on bus {bus}"),
        // The preset names the service when it is not the section's.
        Some((_, _, Sends::Service)) => "Place the order".into(),
        Some((topic, _, Sends::Topic)) => format!("Publish to {topic}"),
        None => "No topic to publish to".into(),
    };
    let publish = move |_| {
        if custom.get_untracked() {
            // A standard topic refuses a MessageGroupId: the group field is for FIFO topics.
            let group = if fifo { group.get_untracked() } else { String::new() };
            ctx.act(|p| p.publish_custom(&body.get_untracked(), &attributes.get_untracked(), &group));
        } else {
            ctx.act(|p| p.publish(&kind.get_untracked()));
        }
    };
    view! {
        {describe.then(|| view! { <p class="lede" dir="auto">{description}</p> })}
        <div class="row">
            <label class="field">
                <span>"Event"</span>
                <select data-testid="event-type" prop:disabled=move || custom.get()
                    on:change=move |ev| kind.set(event_target_value(&ev)) prop:value=move || kind.get()>
                    {presets.into_iter().map(|(name, label)| view! { <option value=name>{label}</option> }).collect_view()}
                </select>
            </label>
            <button class="primary" data-testid="publish" disabled=target.is_none() on:click=publish>{label}</button>
            // An order service writes its own event: no custom message.
            <label class="toggle" hidden=sends == Some(Sends::Service)>
                <input type="checkbox" data-testid="custom-toggle" prop:checked=move || custom.get()
                    on:change=move |ev| custom.set(event_target_checked(&ev)) />
                <span>"Custom message"</span>
            </label>
        </div>
        <div class="custom" hidden=move || !custom.get()>
            <label class="field wide">
                <span>{body_label}</span>
                <textarea data-testid="custom-body" rows="3" prop:value=move || body.get()
                    on:input=move |ev| body.set(event_target_value(&ev))></textarea>
            </label>
            <label class="field wide">
                <span>{attributes_label}</span>
                <textarea data-testid="custom-attributes" rows="3" prop:value=move || attributes.get()
                    on:input=move |ev| attributes.set(event_target_value(&ev))></textarea>
            </label>
            <label class="field" hidden=!fifo>
                <span>"MessageGroupId (FIFO)"</span>
                <input data-testid="custom-group" prop:value=move || group.get()
                    on:input=move |ev| group.set(event_target_value(&ev)) />
            </label>
        </div>
    }
}

/// A subscription as its editor shows it.
#[derive(Clone, PartialEq)]
struct Sub {
    arn: String,
    /// The queue (or endpoint) it delivers to.
    queue: String,
    policy: Option<String>,
    scope: String,
    raw: bool,
}

/// The subscriptions' filter policies, one editor each. Each editor keeps what the learner
/// typed in it while another is applied, the clock runs, or messages flow.
#[component]
pub fn Subscriptions() -> impl IntoView {
    let ctx = use_ctx();
    let subs = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            s.topics
                .iter()
                .flat_map(|t| &t.subscriptions)
                .map(|s| Sub {
                    arn: s.arn.clone(),
                    queue: s.queue.clone().unwrap_or_else(|| s.endpoint.clone()),
                    policy: s.filter_policy.clone(),
                    scope: s.filter_scope.to_string(),
                    raw: s.raw,
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="subscriptions" aria-label="Subscription filter policies" hidden=move || subs.with(Vec::is_empty)>
            <h2>"Filter policies"</h2>
            <For each=move || subs.get().into_iter().map(|s| s.arn) key=|arn| arn.clone() let:arn>
                <PolicyEditor sub=Memo::new(move |_| subs.with(|all| all.iter().find(|s| s.arn == arn).cloned())) />
            </For>
        </section>
    }
}

/// One subscription's filter policy: the field, the engine's verdict under it as the learner
/// types, and Apply (enabled only for a valid change).
#[component]
fn PolicyEditor(sub: Memo<Option<Sub>>) -> impl IntoView {
    let ctx = use_ctx();
    let current = Memo::new(move |_| sub.with(|s| s.as_ref().and_then(|s| s.policy.clone()).unwrap_or_default()));
    let text = RwSignal::new(current.get_untracked());
    // The applied policy changed (Apply, undo, another story's step): a field the learner has
    // not touched follows it; one being edited keeps what was typed.
    let seen = StoredValue::new(current.get_untracked());
    Effect::new(move |_| {
        let now = current.get();
        let before = seen.get_value();
        if text.get_untracked() == before && now != before {
            text.set(now.clone());
        }
        seen.set_value(now);
    });
    let scope = move || sub.with(|s| s.as_ref().map(|s| s.scope.clone()).unwrap_or_default());
    let check = Memo::new(move |_| text.with(|t| check_filter_policy(t, &scope())));
    let changed = move || text.with(|t| current.with(|c| t != c));
    let status = move || match check.get() {
        Err(e) => e,
        Ok(()) if changed() => "Valid. Apply to use it for the next publish.".into(),
        Ok(()) => String::new(),
    };
    let invalid = move || check.with(Result::is_err);
    let apply = move |_| {
        let (Some(arn), policy) = (sub.with_untracked(|s| s.as_ref().map(|s| s.arn.clone())), text.get_untracked())
        else {
            return;
        };
        if check.with_untracked(Result::is_ok) {
            ctx.act(|p| p.set_filter_policy(&arn, &policy));
        }
    };
    let queue = sub.with_untracked(|s| s.as_ref().map(|s| s.queue.clone()).unwrap_or_default());
    let id = format!("subscription-{queue}-policy");
    let label = move || {
        sub.with(|s| s.as_ref().map(|s| format!("{} · {}{}", s.queue, s.scope, if s.raw { "" } else { " · envelope" })))
    };
    view! {
        <div class="policy">
            <label class="field wide">
                <span dir="auto">{label}</span>
                <textarea data-testid=id.clone() rows="2" spellcheck="false" placeholder="No filter: every message"
                    class:invalid=invalid aria-invalid=move || invalid().to_string()
                    prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </label>
            <p class="policy-status" data-testid=format!("{id}-error") role="status">{status}</p>
            <button data-testid=format!("{id}-apply") disabled=move || invalid() || !changed() on:click=apply>"Apply"</button>
        </div>
    }
}
