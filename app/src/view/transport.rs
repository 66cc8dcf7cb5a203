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
            <select data-testid="scenario-picker" on:change=load prop:value=move || ctx.pg.with(|p| p.id.clone())>
                {BUILTIN.iter().map(|(id, name)| view! { <option value=*id>{*name}</option> }).collect_view()}
            </select>
        </label>
    }
}

#[component]
pub fn Transport() -> impl IntoView {
    let ctx = use_ctx();
    let end = move || ctx.pg.with(|p| p.end().ms());
    let scrub = move |ev| {
        if let Ok(t) = event_target_value(&ev).parse::<u64>() {
            ctx.pause();
            ctx.pg.update(|p| p.seek(SimTime(t)));
        }
    };
    let can_undo = move || ctx.pg.with(Playground::can_undo);
    let can_redo = move || ctx.pg.with(Playground::can_redo);
    view! {
        <section class="transport" aria-label="Time controls">
            <button class="icon" data-testid="step-back" title="Step back (←)" aria-label="Step back to the previous event" on:click=move |_| step_back(ctx)>
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5v14M19 5l-10 7 10 7z" /></svg>
            </button>
            <button class="icon play" data-testid="play-pause" title="Play or pause (Space)"
                aria-label=move || if ctx.playing.get() { "Pause" } else { "Play" }
                aria-pressed=move || ctx.playing.get().to_string()
                on:click=move |_| ctx.playing.update(|p| *p = !*p)>
                {move || if ctx.playing.get() {
                    view! { <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M8 5v14M16 5v14" /></svg> }.into_any()
                } else {
                    view! { <svg viewBox="0 0 24 24" aria-hidden="true"><path class="fill" d="M7 4l13 8-13 8z" /></svg> }.into_any()
                }}
            </button>
            <button class="icon" data-testid="step" title="Step to the next event (→)" aria-label="Step to the next event" on:click=move |_| step(ctx)>
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M18 5v14M5 5l10 7-10 7z" /></svg>
            </button>
            <label class="speed">
                <span class="sr-only">"Speed"</span>
                <select data-testid="speed" aria-label="Playback speed"
                    on:change=move |ev| { if let Ok(i) = event_target_value(&ev).parse::<usize>() { ctx.speed.set(i) } }
                    prop:value=move || ctx.speed.get().to_string()>
                    {SPEEDS.iter().enumerate().map(|(i, s)| view! { <option value=i.to_string()>{s.0}</option> }).collect_view()}
                </select>
            </label>
            <input type="range" class="timeline" data-testid="timeline" aria-label="Timeline: drag to travel in virtual time"
                min="0" prop:max=move || end().to_string() step="50"
                prop:value=move || ctx.snapshot.with(|s| s.now.ms().to_string())
                on:input=scrub />
            <span class="end" aria-hidden="true">{move || SimTime(end()).to_string()}</span>
            <div class="history-buttons">
                <button data-testid="undo" disabled=move || !can_undo() on:click=move |_| { ctx.pause(); ctx.pg.update(|p| { p.undo(); }); }>"Undo"</button>
                <button data-testid="redo" disabled=move || !can_redo() on:click=move |_| { ctx.pg.update(|p| { p.redo(); }); }>"Redo"</button>
                <button data-testid="reset" on:click=move |_| { ctx.pause(); ctx.selected.set(None); ctx.pg.update(Playground::reset); }>"Reset"</button>
            </div>
        </section>
    }
}
