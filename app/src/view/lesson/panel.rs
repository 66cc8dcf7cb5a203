//! The lesson panel beside the diagram (under it on a phone): the step's narration, its control,
//! Back, Next and "n / m". The panel's body is markup written from the step (lesson text
//! escaped, through the engine's spans: never markup from the file), redrawn only when what it
//! shows changes; its buttons carry a `data-act` that one click handler reads.

use super::play::Phase;
use super::{step, use_lessons_ctx, Lessons};
use crate::view::esc;
use engine::lesson::markup::{spans, Span};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A lesson text as markup: escaped text, `<em>` for emphasis, `<code>` for code.
pub fn rich(text: &str) -> String {
    let mut out = String::new();
    for s in spans(text) {
        match s {
            Span::Text(t) => out.push_str(&esc(&t)),
            Span::Emphasis(t) => out.push_str(&format!("<em>{}</em>", esc(&t))),
            Span::Code(t) => out.push_str(&format!("<code>{}</code>", esc(&t))),
        }
    }
    out
}

/// Moves the focus to the element with this test id, once the page has drawn it.
pub fn focus(test_id: &'static str) {
    request_animation_frame(move || {
        let el = document().query_selector(&format!("[data-testid=\"{test_id}\"]")).ok().flatten();
        if let Some(el) = el.and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
}

/// The `data-act` of the button an event reached, if any, within the panel or the overview.
pub fn act_of(ev: &web_sys::Event) -> Option<String> {
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let button = el.closest("[data-act]").ok()??;
    if button.has_attribute("disabled") {
        return None;
    }
    button.get_attribute("data-act")
}

/// Runs a panel button's act.
fn run(ls: Lessons, act: &str) {
    match act.split_once(':') {
        Some(("pick", id)) => ls.picked.set(Some(id.to_string())),
        _ => match act {
            "next" => ls.next(),
            "skip" => ls.skip(),
            "back" => ls.back(),
            "submit" => ls.submit(),
            "show-me" => ls.show_me(),
            "overview" => ls.show_overview(),
            "sandbox" => ls.open_in_sandbox(None),
            _ => {}
        },
    }
}

/// The panel's markup for the current step.
fn markup(ls: Lessons) -> String {
    ls.ctx.snapshot.with(|_| ());
    let picked = ls.picked.get();
    let hint = ls.hint.get();
    ls.play.with(|p| {
        let Some(p) = p else { return String::new() };
        let (n, m) = p.position();
        let s = p.session.step();
        let playing = p.phase == Phase::Playing;
        let hint_due = hint.as_ref().is_some_and(|(id, i)| id == p.id() && *i == p.session.step_index());
        let control = ls.ctx.pg.with_untracked(|pg| step::control(p, pg, picked.as_deref(), &ls.typed.get_untracked(), hint_due, ls.embedded));
        let errors = esc(&p.errors.join(" · "));
        let (next_act, next_label) = if playing { ("skip", "Skip to the end") } else { ("next", "Next") };
        let next_off = if !p.can_continue() && !playing { " disabled" } else { "" };
        let back_off = if n <= 1 { " disabled" } else { "" };
        let keys = if playing { "Watch the diagram" } else { "Enter ⏎ continues" };
        format!(
            "<header class=\"lesson-head\"><span class=\"lesson-title\" dir=\"auto\">{title}</span>\
             <span class=\"lesson-step\" data-testid=\"lesson-step\" aria-label=\"step {n} of {m}\">{n} / {m}</span>{exit}</header>\
             <div class=\"lesson-body\" aria-live=\"polite\"><p class=\"lesson-text\" data-testid=\"lesson-text\" tabindex=\"-1\" \
             dir=\"auto\">{text}</p>{control}</div><p class=\"error\" role=\"alert\">{errors}</p>\
             <footer class=\"lesson-nav\"><button data-testid=\"lesson-back\" data-act=\"back\" \
             title=\"Back to the previous step (Backspace)\"{back_off}>Back</button>\
             <span class=\"lesson-keys\" aria-hidden=\"true\">{keys}</span>\
             <button class=\"primary\" data-testid=\"lesson-next\" data-act=\"{next_act}\" title=\"Next step (Enter)\"{next_off}>\
             {next_label}</button></footer>",
            title = rich(&p.session.lesson().title),
            text = rich(&s.text),
            // An embed has its own link out, to the lesson page, in a new tab.
            exit = if ls.embedded {
                ""
            } else {
                "<button class=\"quiet lesson-exit\" data-testid=\"lesson-exit\" data-act=\"sandbox\" \
                 title=\"Open this story, as it is now, in the sandbox\">Open in the sandbox</button>"
            },
        )
    })
}

#[component]
pub fn LessonPanel() -> impl IntoView {
    let ls = use_lessons_ctx();
    let body = Memo::new(move |_| markup(ls));
    view! {
        <section class="lesson-panel" data-testid="lesson-panel" aria-label="Lesson" inner_html=move || body.get()
            on:click=move |ev| { if let Some(act) = act_of(&ev) { run(ls, &act) } }
            on:input=move |ev| ls.typed.set(event_target_value(&ev))
            on:keydown=move |ev| {
                let typing = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).is_some();
                if typing && ev.key() == "Enter" {
                    ev.prevent_default();
                    ls.submit();
                }
            }>
        </section>
    }
}
