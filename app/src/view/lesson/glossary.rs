//! The glossary the lesson panel opens: the index's terms, each with what it means, as text
//! through the engine's spans (never markup from the file). The index is fetched when the
//! glossary first opens, if the overview has not fetched it yet; until it is there (or if it
//! cannot be), the list is empty and the notice line says why.

use super::panel::rich;
use super::use_lessons_ctx;
use leptos::prelude::*;

#[component]
pub fn Glossary() -> impl IntoView {
    let ls = use_lessons_ctx();
    let open = RwSignal::new(false);
    let list = NodeRef::<leptos::html::Dl>::new();
    let toggle = move |_| {
        let now = !open.get_untracked();
        open.set(now);
        if now {
            ls.load_index();
            // It opens in view: its start is brought up the page if it is below the window.
            request_animation_frame(move || {
                if let Some(dl) = list.get_untracked() {
                    crate::view::scroll_nearest(&dl);
                }
            });
        }
    };
    // It closes when another lesson opens.
    let lesson = ls.slice(|p| p.id().to_string());
    Effect::new(move |was: Option<String>| {
        let now = lesson.get();
        if was.is_some_and(|w| w != now) {
            open.set(false);
        }
        now
    });
    // Built while it is open, from the index once it is there.
    let terms = move || {
        let shown = open.get();
        ls.index.with(|index| match index {
            Some(Ok(index)) if shown => index
                .glossary
                .iter()
                .map(|g| {
                    let id = format!("glossary-{}", g.term.to_lowercase().replace(' ', "-"));
                    view! { <dt dir="auto">{rich(&g.term)}</dt><dd dir="auto" data-testid=id>{rich(&g.means)}</dd> }
                })
                .collect_view()
                .into_any(),
            _ => ().into_any(),
        })
    };
    view! {
        <div class="lesson-glossary">
            <button class="quiet" data-testid="lesson-glossary-open" aria-controls="lesson-glossary"
                aria-expanded=move || open.get().to_string() on:click=toggle>
                {move || if open.get() { "Close the glossary" } else { "Glossary: the words, spelled out" }}
            </button>
            <dl id="lesson-glossary" data-testid="lesson-glossary" aria-label="Glossary" node_ref=list hidden=move || !open.get()>{terms}</dl>
        </div>
    }
}
