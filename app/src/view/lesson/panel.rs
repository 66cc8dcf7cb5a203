//! The lesson panel beside the diagram (under it on a phone): the step's narration, its control,
//! Back, Next and "n / m". Lesson text is rendered from the engine's spans as text nodes.

use super::play::Phase;
use super::{step, use_lessons_ctx};
use engine::lesson::markup::{spans, Span};
use leptos::prelude::*;

/// A lesson text as text nodes: plain, `<em>` for emphasis, `<code>` for code. Never markup.
pub fn rich(text: &str) -> impl IntoView {
    spans(text)
        .into_iter()
        .map(|s| match s {
            Span::Text(t) => t.into_any(),
            Span::Emphasis(t) => view! { <em>{t}</em> }.into_any(),
            Span::Code(t) => view! { <code>{t}</code> }.into_any(),
        })
        .collect_view()
}

/// Moves the focus to the element with this test id, once the page has drawn it.
pub fn focus(test_id: &'static str) {
    request_animation_frame(move || {
        let el = document().query_selector(&format!("[data-testid=\"{test_id}\"]")).ok().flatten();
        if let Some(el) = el.and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok()) {
            let _ = el.focus();
        }
    });
}

/// Moves the focus to the step's narration (so Enter, Backspace and digits work at once).
pub fn focus_text() {
    focus("lesson-text");
}

#[component]
pub fn LessonPanel() -> impl IntoView {
    let ls = use_lessons_ctx();
    // What the panel's body depends on: the step, its phase, and whether its goal is reached.
    let key = Memo::new(move |_| {
        ls.play.with(|p| p.as_ref().map(|p| (p.id().to_string(), p.session.step_index(), p.phase, p.reached)))
    });
    let position = move || ls.play.with(|p| p.as_ref().map(|p| p.position()).unwrap_or((0, 0)));
    let can_continue = move || ls.play.with(|p| p.as_ref().is_some_and(|p| p.can_continue()));
    let playing = move || key.with(|k| k.as_ref().is_some_and(|k| k.2 == Phase::Playing));
    let title = move || ls.play.with(|p| p.as_ref().map(|p| p.session.lesson().title.clone()).unwrap_or_default());
    let body = move || {
        key.track();
        ls.play.with_untracked(|p| p.as_ref().map(|p| (p.session.step().clone(), p.phase)))
    };
    let errors = move || ls.play.with(|p| p.as_ref().map(|p| p.errors.join(" · ")).unwrap_or_default());
    view! {
        <Show when=move || key.with(Option::is_some)>
            <section class="lesson-panel" data-testid="lesson-panel" aria-label="Lesson">
                <header class="lesson-head">
                    <span class="lesson-title" dir="auto">{title}</span>
                    <span class="lesson-step" data-testid="lesson-step"
                        aria-label=move || { let (n, m) = position(); format!("step {n} of {m}") }>
                        {move || { let (n, m) = position(); format!("{n} / {m}") }}
                    </span>
                    <button class="quiet lesson-exit" data-testid="lesson-exit" title="Open this story, as it is now, in the sandbox"
                        on:click=move |_| leptos::task::spawn_local(async move { ls.open_in_sandbox(None).await })>"Open in the sandbox"</button>
                </header>
                <div class="lesson-body" aria-live="polite">
                    {move || body().map(|(s, phase)| view! {
                        <p class="lesson-text" data-testid="lesson-text" tabindex="-1" dir="auto">{rich(&s.text)}</p>
                        {step::control(s.kind, phase)}
                    })}
                </div>
                <p class="error" role="alert">{errors}</p>
                <footer class="lesson-nav">
                    <button data-testid="lesson-back" title="Back to the previous step (Backspace)"
                        prop:disabled=move || position().0 <= 1 on:click=move |_| ls.back()>"Back"</button>
                    <span class="lesson-keys" aria-hidden="true">{move || if playing() { "Watch the diagram" } else { "Enter ⏎ continues" }}</span>
                    <button class="primary" data-testid="lesson-next" title="Next step (Enter)"
                        prop:disabled=move || !can_continue() && !playing()
                        on:click=move |_| if playing() { ls.skip() } else { ls.next() }>
                        {move || if playing() { "Skip to the end" } else { "Next" }}
                    </button>
                </footer>
            </section>
        </Show>
    }
}
