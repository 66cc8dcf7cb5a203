//! Time: play/pause, speed, step, step back, the timeline, undo/redo/reset, the scenario picker and the keyboard.

use super::{use_ctx, Ctx};
use crate::playground::{Playground, BUILTIN, SPEEDS};
use engine::SimTime;
use leptos::prelude::*;

fn step(ctx: Ctx) {
    ctx.pause();
    ctx.pg.update(|p| {
        p.step();
    });
}

/// Back to the previous moment something happened.
fn step_back(ctx: Ctx) {
    ctx.pause();
    ctx.pg.update(|p| {
        p.step_back();
    });
}

/// Whether a focused element needs Space and the arrow keys itself: a text field or a select
/// (buttons, checkboxes, the timeline and the diagram leave them to the transport).
fn takes_keys(el: &web_sys::Element) -> bool {
    match el.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => {
            let kind = el.get_attribute("type").unwrap_or_default().to_ascii_lowercase();
            !matches!(kind.as_str(), "checkbox" | "radio" | "range" | "button" | "submit" | "reset")
        }
        _ => el.get_attribute("contenteditable").is_some_and(|v| v != "false"),
    }
}

/// Space plays or pauses, → steps forward, ← steps back, wherever the focus is but in a text
/// field or a select. On a button, Space plays rather than pressing it (Enter presses it).
pub fn use_keyboard(ctx: Ctx) {
    let handle = window_event_listener(leptos::ev::keydown, move |e: web_sys::KeyboardEvent| {
        let typing = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|el| takes_keys(&el));
        if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        match e.key().as_str() {
            " " => {
                e.prevent_default();
                ctx.playing.update(|p| *p = !*p);
            }
            "ArrowRight" => {
                e.prevent_default();
                step(ctx);
            }
            "ArrowLeft" => {
                e.prevent_default();
                step_back(ctx);
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
}

#[component]
pub fn ScenarioPicker() -> impl IntoView {
    let ctx = use_ctx();
    // The latest scenario asked for: a slower fetch of an earlier pick does not replace it.
    let wanted = StoredValue::new(String::new());
    let load = move |ev| {
        let id = event_target_value(&ev);
        wanted.set_value(id.clone());
        leptos::task::spawn_local(async move {
            let loaded = crate::fetch::scenario(&id).await;
            if wanted.get_value() != id {
                return;
            }
            match loaded {
                Ok(pg) => {
                    ctx.pause();
                    ctx.selected.set(None);
                    ctx.error.set(None);
                    ctx.speed.set(pg.speed_index());
                    ctx.pg.set(pg);
                }
                Err(e) => ctx.error.set(Some(e)),
            }
        });
    };
    view! {
        <label class="picker">
            <span class="sr-only">"Scenario"</span>
            <select data-testid="scenario-picker" on:change=load prop:value=move || {
                // The story's id changes only with the story: followed through the snapshot,
                // not at each frame.
                ctx.snapshot.with(|_| ());
                ctx.pg.with_untracked(|p| p.id.clone())
            }>
                {BUILTIN.iter().map(|(id, name)| view! { <option value=*id>{*name}</option> }).collect_view()}
            </select>
        </label>
    }
}

/// The time controls' markup, written once; what changes (the play button, the speed, the
/// timeline, undo and redo) is set on its elements as the story moves.
fn transport_markup() -> String {
    let speeds: String =
        SPEEDS.iter().enumerate().map(|(i, s)| format!("<option value=\"{i}\">{}</option>", s.0)).collect();
    format!(
        "<button class=\"icon\" data-testid=\"step-back\" data-act=\"back\" title=\"Step back (←)\" aria-label=\"Step back to the previous event\">\
         <svg viewBox=\"0 0 24 24\" aria-hidden=\"true\"><path d=\"M6 5v14M19 5l-10 7 10 7z\"/></svg></button>\
         <button class=\"icon play\" data-testid=\"play-pause\" data-act=\"play\" title=\"Play or pause (Space)\" aria-label=\"Play\" aria-pressed=\"false\">\
         <svg class=\"paused\" viewBox=\"0 0 24 24\" aria-hidden=\"true\"><path class=\"fill\" d=\"M7 4l13 8-13 8z\"/></svg>\
         <svg class=\"playing\" viewBox=\"0 0 24 24\" aria-hidden=\"true\" hidden><path d=\"M8 5v14M16 5v14\"/></svg></button>\
         <button class=\"icon\" data-testid=\"step\" data-act=\"step\" title=\"Step to the next event (→)\" aria-label=\"Step to the next event\">\
         <svg viewBox=\"0 0 24 24\" aria-hidden=\"true\"><path d=\"M18 5v14M5 5l10 7-10 7z\"/></svg></button>\
         <label class=\"speed\"><span class=\"sr-only\">Speed</span><select data-testid=\"speed\" aria-label=\"Playback speed\">{speeds}</select></label>\
         <input type=\"range\" class=\"timeline\" data-testid=\"timeline\" aria-label=\"Timeline: drag to travel in virtual time\" min=\"0\" max=\"0\" step=\"50\">\
         <span class=\"end\" aria-hidden=\"true\"></span>\
         <div class=\"history-buttons\"><button data-testid=\"undo\" data-act=\"undo\">Undo</button>\
         <button data-testid=\"redo\" data-act=\"redo\">Redo</button><button data-testid=\"reset\" data-act=\"reset\">Reset</button></div>"
    )
}

/// The element with this test id inside `root`.
fn part(root: &web_sys::Element, testid: &str) -> Option<web_sys::Element> {
    root.query_selector(&format!("[data-testid=\"{testid}\"]")).ok().flatten()
}

/// Sets a DOM property (a field's `value`, a range's `max`).
fn set_prop(el: &web_sys::Element, name: &str, value: &str) {
    let _ = js_sys::Reflect::set(el, &name.into(), &value.into());
}

/// Sets an attribute only when it changes: the transport is brought up to date at every frame
/// while playing, and an unchanged page should cost the browser nothing.
fn set_attr(el: &web_sys::Element, name: &str, value: &str) {
    if el.get_attribute(name).as_deref() != Some(value) {
        let _ = el.set_attribute(name, value);
    }
}

#[component]
pub fn Transport() -> impl IntoView {
    let ctx = use_ctx();
    let root = NodeRef::<leptos::html::Section>::new();
    // The buttons follow the story's state and playback; the timeline and the end, the clock
    // (`Ctx::clock`): none of it at every frame.
    Effect::new(move |_| {
        let Some(root) = root.get() else { return };
        let playing = ctx.playing.get();
        ctx.snapshot.with(|_| ());
        let (undo, redo) = ctx.pg.with_untracked(|p| (p.can_undo(), p.can_redo()));
        if let Some(play) = part(&root, "play-pause") {
            set_attr(&play, "aria-label", if playing { "Pause" } else { "Play" });
            set_attr(&play, "aria-pressed", if playing { "true" } else { "false" });
            for (class, shown) in [("paused", !playing), ("playing", playing)] {
                if let Ok(Some(icon)) = play.query_selector(&format!(".{class}")) {
                    let _ = icon.toggle_attribute_with_force("hidden", !shown);
                }
            }
        }
        if let Some(speed) = part(&root, "speed") {
            set_prop(&speed, "value", &ctx.speed.get().to_string());
        }
        for (testid, can) in [("undo", undo), ("redo", redo)] {
            if let Some(b) = part(&root, testid) {
                let _ = b.toggle_attribute_with_force("disabled", !can);
            }
        }
        let now = ctx.clock.get();
        let end = ctx.pg.with_untracked(Playground::end);
        if let Some(timeline) = part(&root, "timeline") {
            set_prop(&timeline, "max", &end.ms().to_string());
            set_prop(&timeline, "value", &now.ms().to_string());
        }
        if let Ok(Some(shown)) = root.query_selector(".end") {
            let end = end.to_string();
            if shown.text_content().as_deref() != Some(end.as_str()) {
                shown.set_text_content(Some(&end));
            }
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let target = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let button =
            target.and_then(|t| t.closest("[data-act]").ok().flatten()).filter(|b| !b.has_attribute("disabled"));
        match button.and_then(|b| b.get_attribute("data-act")).as_deref() {
            Some("back") => step_back(ctx),
            Some("play") => ctx.playing.update(|p| *p = !*p),
            Some("step") => step(ctx),
            Some("undo") => {
                ctx.pause();
                ctx.pg.update(|p| {
                    p.undo();
                });
            }
            Some("redo") => ctx.pg.update(|p| {
                p.redo();
            }),
            Some("reset") => {
                ctx.pause();
                ctx.selected.set(None);
                ctx.pg.update(Playground::reset);
            }
            _ => {}
        }
    };
    // The timeline travels in time as it is dragged (input); the speed list sets the speed
    // (change).
    let on_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        let testid = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|el| el.get_attribute("data-testid"));
        match (ev.type_().as_str(), testid.as_deref()) {
            ("input", Some("timeline")) => {
                if let Ok(t) = value.parse::<u64>() {
                    ctx.pause();
                    ctx.pg.update(|p| p.seek(SimTime(t)));
                }
            }
            ("change", Some("speed")) => {
                if let Ok(i) = value.parse::<usize>() {
                    ctx.speed.set(i);
                }
            }
            _ => {}
        }
    };
    view! {
        <section class="transport" aria-label="Time controls" node_ref=root inner_html=transport_markup()
            on:click=on_click on:input=on_input on:change=on_input></section>
    }
}
