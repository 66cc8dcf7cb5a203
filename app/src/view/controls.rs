//! Publishing events (the scenario's presets and a custom editor) and editing subscriptions'
//! filter policies with live validation from the engine: the exact error inline, nothing applied
//! until valid.

// The routes page draws neither the filter editors nor the share bar (see view::ShareBar).

use super::{esc, use_ctx};
use crate::playground::{check_filter_policy, Sends};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The Publish panel's markup for a scenario: its description, its presets, its topic; drawn
/// again only when the scenario changes. What the learner picks and types stays in the form
/// and is read from it when they publish.
fn publish_form(description: &str, presets: &[(String, String)], target: Option<&(String, bool, Sends)>) -> String {
    let options: String = presets
        .iter()
        .map(|(name, label)| format!("<option value=\"{}\">{}</option>", esc(name), esc(label)))
        .collect();
    let (publish, off) = match target {
        Some((bus, _, Sends::Bus)) => (format!("Put on bus {}", esc(bus)), ""),
        // The preset names the service when it is not the section's.
        Some((_, _, Sends::Service)) => ("Place the order".to_string(), ""),
        Some((t, _, Sends::Topic)) => (format!("Publish to {}", esc(t)), ""),
        None => ("No topic to publish to".to_string(), " disabled"),
    };
    let fifo = target.is_some_and(|t| t.1);
    // An order service writes its own event: no custom message.
    let custom = if target.is_some_and(|t| t.2 == Sends::Service) { " hidden" } else { "" };
    // On a bus the custom event is its detail, and its source and detail-type replace SNS's
    // attributes (read as one JSON object by `Playground::publish_custom`).
    let on_bus = target.is_some_and(|t| t.2 == Sends::Bus);
    let (body_label, attributes_label, attributes) = if on_bus {
        (
            "Event detail (JSON)",
            "Source and detail-type (JSON)",
            "{&quot;Source&quot;: &quot;shop.checkout&quot;, &quot;DetailType&quot;: &quot;OrderPlaced&quot;}",
        )
    } else {
        (
            "Message body",
            "Message attributes (Publish shape, JSON)",
            "{&quot;event_type&quot;: {&quot;DataType&quot;: &quot;String&quot;, &quot;StringValue&quot;: &quot;OrderPlaced&quot;}}",
        )
    };
    format!(
        "<p class=\"lede\" dir=\"auto\">{}</p><div class=\"row\"><label class=\"field\"><span>Event</span>\
         <select data-testid=\"event-type\">{options}</select></label>\
         <button class=\"primary\" data-testid=\"publish\" data-act=\"publish\"{off}>{publish}</button>\
         <label class=\"toggle\"{custom}><input type=\"checkbox\" data-testid=\"custom-toggle\"><span>Custom message</span></label></div>\
         <div class=\"custom\" hidden><label class=\"field wide\"><span>{body_label}</span>\
         <textarea data-testid=\"custom-body\" rows=\"3\">{{&quot;event_type&quot;: &quot;OrderPlaced&quot;, &quot;order_id&quot;: 4500}}</textarea></label>\
         <label class=\"field wide\"><span>{attributes_label}</span><textarea data-testid=\"custom-attributes\" rows=\"3\">\
         {attributes}</textarea></label>\
         <label class=\"field\"{}><span>MessageGroupId (FIFO)</span><input data-testid=\"custom-group\"></label></div>",
        esc(description),
        // The group field is for FIFO topics only: a standard topic refuses a MessageGroupId.
        if fifo { "" } else { " hidden" },
    )
}

/// The value of the form field (an input, a textarea or a select) with this test id inside `form`.
fn field(form: &web_sys::Element, testid: &str) -> String {
    let el = form.query_selector(&format!("[data-testid=\"{testid}\"]")).ok().flatten();
    el.and_then(|el| js_sys::Reflect::get(&el, &"value".into()).ok()).and_then(|v| v.as_string()).unwrap_or_default()
}

#[component]
pub fn Publish() -> impl IntoView {
    let ctx = use_ctx();
    // The topic (its name, whether FIFO) on its own, so that the form is not written again at
    // each tick of the clock.
    let topic = Memo::new(move |_| ctx.snapshot.with(|s| ctx.pg.with_untracked(|p| p.publish_target(s))));
    let form = Memo::new(move |_| {
        // A story's description and presets change only with the story itself.
        ctx.snapshot.with(|_| ());
        let (description, presets) = ctx.pg.with_untracked(|p| {
            (p.description.clone(), p.presets().iter().map(|p| (p.name.clone(), p.label.clone())).collect::<Vec<_>>())
        });
        topic.with(|t| publish_form(&description, &presets, t.as_ref()))
    });
    let root = NodeRef::<leptos::html::Div>::new();
    let on_change = move |ev: web_sys::Event| {
        // The custom message's fields open in place of the event's list.
        let Some(toggle) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let (Some(form), true) = (root.get_untracked(), toggle.type_() == "checkbox") else { return };
        let custom = toggle.checked();
        if let Ok(Some(c)) = form.query_selector(".custom") {
            c.toggle_attribute_with_force("hidden", !custom).ok();
        }
        if let Ok(Some(select)) = form.query_selector("select") {
            select.toggle_attribute_with_force("disabled", custom).ok();
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        if target.and_then(|t| t.closest("[data-act=publish]").ok().flatten()).is_none() {
            return;
        }
        let Some(form) = root.get_untracked() else { return };
        let custom = form
            .query_selector("[data-testid=custom-toggle]")
            .ok()
            .flatten()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .is_some_and(|t| t.checked());
        if custom {
            let fifo = topic.with_untracked(|t| t.as_ref().is_some_and(|t| t.1));
            let group = if fifo { field(&form, "custom-group") } else { String::new() };
            let (body, attributes) = (field(&form, "custom-body"), field(&form, "custom-attributes"));
            ctx.act(|p| p.publish_custom(&body, &attributes, &group));
        } else {
            let kind = field(&form, "event-type");
            ctx.act(|p| p.publish(&kind));
        }
    };
    view! {
        <section class="controls" aria-label="Publish an event">
            <div class="part" node_ref=root inner_html=move || form.get() on:change=on_change on:click=on_click></div>
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
