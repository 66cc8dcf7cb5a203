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

/// The built-in scenarios, in the picker's two groups: SNS and SQS first (the first
/// `SNS_SQS` of `BUILTIN`), then the other routes (EventBridge, webhooks, Lambda, the outbox).
const SNS_SQS: usize = 6;

#[component]
pub fn ScenarioPicker() -> impl IntoView {
    let ctx = use_ctx();
    let nav = use_context::<super::nav::Nav>();
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
                    // The address names the scenario, so a reload opens it again.
                    let scenario = (id != BUILTIN[0].0).then_some(id);
                    if let Some(nav) = nav {
                        nav.replace_within(crate::route::View::Sandbox, crate::route::Route::Sandbox { scenario }, "");
                    }
                }
                Err(e) => ctx.error.set(Some(e)),
            }
        });
    };
    let options = |list: &'static [(&'static str, &'static str)]| {
        list.iter().map(|(id, name)| view! { <option value=*id>{*name}</option> }).collect_view()
    };
    // A story that is no built-in scenario (a lesson's, an imported file's, a share link's)
    // is named first, as the one open: the menu is never blank. The story's id changes only
    // with the story: followed through the snapshot, not at each frame.
    let own = Memo::new(move |_| {
        ctx.snapshot.with(|_| ());
        ctx.pg.with_untracked(|p| (!p.is_builtin()).then(|| p.name.clone()))
    });
    view! {
        <label class="picker">
            <span class="sr-only">"Scenario"</span>
            <select data-testid="scenario-picker" on:change=load prop:value=move || {
                ctx.snapshot.with(|_| ());
                ctx.pg.with_untracked(|p| if p.is_builtin() { p.id.clone() } else { String::new() })
            }>
                <option value="" data-testid="scenario-picker-own" hidden=move || own.with(Option::is_none)>
                    {move || own.get().filter(|n| !n.is_empty()).unwrap_or_else(|| "Your own story".into())}
                </option>
                <optgroup label="SNS and SQS">{options(&BUILTIN[..SNS_SQS])}</optgroup>
                <optgroup label="Other routes: EventBridge, webhooks, Lambda, the outbox">{options(&BUILTIN[SNS_SQS..])}</optgroup>
            </select>
        </label>
    }
}

/// The time controls: step back, play or pause, step, the speed, the timeline to travel in
/// virtual time, and undo, redo and reset. The play button is one element whose state changes,
/// so the keyboard stays on it.
/// `clock`: the virtual time's readout at the start of the row (the sandbox's and a lesson's;
/// an embed has its own in its title bar).
#[component]
pub fn Transport(#[prop(optional)] clock: bool) -> impl IntoView {
    let ctx = use_ctx();
    let playing = ctx.playing;
    // Undo and redo follow the story's state, not the clock.
    let can = Memo::new(move |_| {
        ctx.snapshot.with(|_| ());
        ctx.pg.with_untracked(|p| (p.can_undo(), p.can_redo()))
    });
    // The timeline's end follows the time to read (`Ctx::clock`): not every frame.
    let end = Memo::new(move |_| {
        ctx.clock.track();
        ctx.pg.with_untracked(Playground::end)
    });
    let seek = move |ev: leptos::ev::Event| {
        if let Ok(t) = event_target_value(&ev).parse::<u64>() {
            ctx.pause();
            ctx.pg.update(|p| p.seek(SimTime(t)));
        }
    };
    // Undo says what it takes back, and that the clock goes back with it.
    let undoable = Memo::new(move |_| {
        ctx.snapshot.with(|_| ());
        ctx.pg.with_untracked(Playground::undoable)
    });
    let note = RwSignal::new(String::new());
    let noted_at = StoredValue::new((0u64, 0u64));
    let undo = move |_| {
        ctx.pause();
        let (was, took) = (ctx.pg.with_untracked(Playground::now), undoable.get_untracked());
        ctx.pg.update(|p| {
            p.undo();
        });
        if let Some((action, at)) = took {
            let said = if at < was {
                format!("Undid {action} (given at {at}): the story went back to that moment, from {was}.")
            } else {
                format!("Undid {action} (given at {at}).")
            };
            ctx.announce.set(said.clone());
            note.set(said);
            noted_at.set_value(ctx.pg.with_untracked(Playground::view_stamp));
        }
    };
    // The note goes with the next change of the story.
    Effect::new(move |_| {
        let stamp = ctx.snapshot.with(|_| ctx.pg.with_untracked(Playground::view_stamp));
        if stamp != noted_at.get_value() && note.with_untracked(|n| !n.is_empty()) {
            note.set(String::new());
        }
    });
    let redo = move |_| {
        ctx.pg.update(|p| {
            p.redo();
        })
    };
    let reset = move |_| {
        ctx.pause();
        ctx.selected.set(None);
        ctx.pg.update(Playground::reset);
    };
    let set_speed = move |ev: leptos::ev::Event| {
        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
            ctx.speed.set(i.min(SPEEDS.len() - 1));
        }
    };
    // `try_get`: a story's own controls (an interview's try-it) can be left as its story goes,
    // and a disposed clock must read as paused, not end the page (a fresh walk: Interview → Try
    // it in the simulator → Sandbox showed the bug panel).
    let on = move || playing.try_get().unwrap_or(false);
    view! {
        <section class="transport" aria-label="Time controls">
            {clock.then(|| view! {
                <time class="clock" data-testid="clock" title="Virtual time since the scenario started">
                    {move || ctx.clock.try_get().map(|c| c.to_string()).unwrap_or_default()}
                </time>
            })}
            <button class="icon" data-testid="step-back" title="Step back (←)" aria-label="Step back to the previous event"
                on:click=move |_| step_back(ctx)>
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5v14M19 5l-10 7 10 7z" /></svg>
            </button>
            <button class="icon play" data-testid="play-pause" title="Play or pause (Space)"
                aria-label=move || if on() { "Pause" } else { "Play" }
                aria-pressed=move || on().to_string() on:click=move |_| playing.update(|p| *p = !*p)>
                <svg class="paused" viewBox="0 0 24 24" aria-hidden="true" hidden=on>
                    <path class="fill" d="M7 4l13 8-13 8z" />
                </svg>
                <svg class="playing" viewBox="0 0 24 24" aria-hidden="true" hidden=move || !on()>
                    <path d="M8 5v14M16 5v14" />
                </svg>
            </button>
            <button class="icon" data-testid="step" title="Step to the next event (→)" aria-label="Step to the next event"
                on:click=move |_| step(ctx)>
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M18 5v14M5 5l10 7-10 7z" /></svg>
            </button>
            <label class="speed">
                <span class="sr-only">"Speed"</span>
                <select data-testid="speed" aria-label="Playback speed" prop:value=move || ctx.speed.get().to_string()
                    on:change=set_speed>
                    {SPEEDS.iter().enumerate().map(|(i, s)| view! { <option value=i.to_string()>{s.0}</option> }).collect_view()}
                </select>
            </label>
            <input type="range" class="timeline" data-testid="timeline" aria-label="Timeline: drag to travel in virtual time"
                min="0" step="50" prop:max=move || end.get().ms().to_string() prop:value=move || ctx.clock.get().ms().to_string()
                on:input=seek />
            <span class="end" aria-hidden="true">{move || end.get().to_string()}</span>
            <div class="history-buttons">
                <button data-testid="undo" disabled=move || !can.get().0 on:click=undo
                    title=move || undoable.get().map(|(a, at)| format!("Undo {a}, given at {at}")).unwrap_or_default()>"Undo"</button>
                <button data-testid="redo" disabled=move || !can.get().1 on:click=redo>"Redo"</button>
                <button data-testid="reset" on:click=reset>"Reset"</button>
            </div>
            <p class="transport-note" data-testid="undo-note" role="status" hidden=move || note.with(String::is_empty)>
                {move || note.get()}
                <button class="quiet" aria-label="Dismiss" on:click=move |_| note.set(String::new())>"×"</button>
            </p>
        </section>
    }
}
