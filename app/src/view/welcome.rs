//! The first visit's way in: a line above the sandbox pointing to the first lesson, until the learner
//! opens a lesson or closes the line. Remembered in `localStorage` under [`KEY`] (storage that
//! throws reads as a first visit and saving does nothing, as for the lessons' progress).

use super::nav::use_nav;
use crate::route::Route;
use leptos::prelude::*;

/// Set once the learner has closed the line or taken it.
const KEY: &str = "fanout-playground.welcomed";
/// The lessons' progress: a learner who has any has found the lessons already.
const LESSONS_KEY: &str = "fanout-playground.lessons";
/// The path's first lesson.
const FIRST_LESSON: &str = "first-fan-out";

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// Whether this looks like a first visit: nothing of ours saved.
fn first_visit() -> bool {
    storage().is_none_or(|s| [KEY, LESSONS_KEY].iter().all(|k| s.get_item(k).ok().flatten().is_none()))
}

fn remember() {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, "1");
    }
}

/// "New here?": the first lesson in one press, or the sandbox as it is.
#[component]
pub fn Welcome() -> impl IntoView {
    let nav = use_nav();
    let shown = RwSignal::new(first_visit());
    let start = move |_| {
        remember();
        shown.set(false);
        nav.go(Route::Lesson { id: FIRST_LESSON.to_string(), step: None });
    };
    let close = move |_| {
        remember();
        shown.set(false);
    };
    view! {
        <Show when=move || shown.get()>
            <section class="welcome" data-testid="welcome" aria-label="New here?">
                <p>
                    <strong>"New here?"</strong>
                    <span class="long">" The first lesson shows one order fanning out to three queues, in 5 minutes."</span>
                </p>
                // On a phone the line is the button alone ("Start here"), beside the page's title.
                <button class="primary" data-testid="welcome-start" title="Start the first lesson" on:click=start>
                    <span class="long">"Start the first lesson"</span><span class="short">"Start here"</span>
                </button>
                // On a phone the line is one row: the close button is a cross, named for what it does.
                <button class="quiet" data-testid="welcome-close" aria-label="Explore the sandbox"
                    title="Explore the sandbox instead" on:click=close>
                    <span class="long">"Explore the sandbox"</span><span class="short" aria-hidden="true">"×"</span>
                </button>
            </section>
        </Show>
    }
}
