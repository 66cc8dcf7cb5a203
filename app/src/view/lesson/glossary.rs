//! The glossary the lesson panel opens: the index's terms, each with what it means, as text
//! through the engine's spans (never markup from the file). The index is fetched when the
//! glossary first opens, if the overview has not fetched it yet.

use super::panel::rich;
use super::use_lessons_ctx;
use leptos::prelude::*;

#[component]
pub fn Glossary() -> impl IntoView {
    let ls = use_lessons_ctx();
    let open = RwSignal::new(false);
    let toggle = move |_| {
        let now = !open.get_untracked();
        open.set(now);
        if now {
            ls.load_index();
        }
    };
    // Built when it is open, from the index once it is there.
    let terms = move || {
        open.get().then(|| {
            ls.index.with(|index| match index {
                None => view! { <p class="lesson-wait" role="status">"Loading the glossary…"</p> }.into_any(),
                Some(Err(e)) => {
                    view! { <p class="error" role="alert">"The glossary could not be loaded: "{e.clone()}</p> }
                        .into_any()
                }
                Some(Ok(index)) => {
                    let entries = index
                        .glossary
                        .iter()
                        .map(|g| {
                            view! {
                                <div data-testid=format!("glossary-{}", g.term.to_lowercase().replace(' ', "-"))>
                                    <dt dir="auto">{rich(&g.term)}</dt>
                                    <dd dir="auto">{rich(&g.means)}</dd>
                                </div>
                            }
                        })
                        .collect_view();
                    view! { <dl>{entries}</dl> }.into_any()
                }
            })
        })
    };
    view! {
        <div class="lesson-glossary">
            <button class="quiet" data-testid="lesson-glossary-open" aria-controls="lesson-glossary"
                aria-expanded=move || open.get().to_string() on:click=toggle>
                {move || if open.get() { "Close the glossary" } else { "Glossary: the words, spelled out" }}
            </button>
            <section id="lesson-glossary" data-testid="lesson-glossary" aria-label="Glossary" hidden=move || !open.get()>
                {terms}
            </section>
        </div>
    }
}
