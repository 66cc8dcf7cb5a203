//! The lesson overview (title, one line, minutes, status; start or continue, or open the final
//! state in the sandbox) and the header's button that opens it.

use super::panel::rich;
use super::progress::Status;
use super::use_lessons_ctx;
use engine::lesson::LessonListing;
use leptos::prelude::*;

/// The header's button while a lesson is open: to the lesson list and back to the lesson.
#[component]
pub fn LessonsButton() -> impl IntoView {
    let ls = use_lessons_ctx();
    let toggle = move |_| {
        let open = !ls.overview.get_untracked();
        ls.overview.set(open);
        if open {
            ls.load_index();
        }
    };
    view! {
        <Show when=move || ls.active()>
            <button class="lessons-button" data-testid="lessons-button" aria-pressed=move || ls.overview.get().to_string() on:click=toggle>
                {move || if ls.overview.get() { "Back to the lesson" } else { "All lessons" }}
            </button>
        </Show>
    }
}

/// The notice line (a discarded saved state, a bad link, a lesson that could not be loaded).
#[component]
pub fn Notice() -> impl IntoView {
    let ls = use_lessons_ctx();
    view! {
        <Show when=move || ls.notice.with(Option::is_some)>
            <p class="lesson-notice" role="status" data-testid="lesson-notice">
                <span dir="auto">{move || ls.notice.get()}</span>
                <button class="quiet" aria-label="Dismiss" on:click=move |_| ls.notice.set(None)>"×"</button>
            </p>
        </Show>
    }
}

#[component]
pub fn Overview() -> impl IntoView {
    let ls = use_lessons_ctx();
    view! {
        <Notice />
        <Show when=move || ls.overview.get()>
            <section class="lesson-overview" data-testid="lesson-overview" aria-labelledby="lessons-title">
                <div class="overview-head">
                    <h2 id="lessons-title">"Lessons"</h2>
                    <p class="lede">"Short guided lessons on the same playground: predict what the engine will do, watch it happen on the diagram, then do it yourself. Your progress stays in this browser."</p>
                </div>
                {move || match ls.index.get() {
                    None => view! { <p class="lesson-wait" role="status">"Loading the lessons…"</p> }.into_any(),
                    Some(Err(e)) => view! { <p class="error" role="alert">{format!("The lesson list could not be loaded: {e}")}</p> }.into_any(),
                    Some(Ok(list)) => view! {
                        <ol class="lesson-cards">
                            {list.into_iter().enumerate().map(|(i, l)| card(i + 1, l)).collect_view()}
                        </ol>
                    }.into_any(),
                }}
            </section>
        </Show>
    }
}

fn card(n: usize, l: LessonListing) -> impl IntoView {
    let ls = use_lessons_ctx();
    let id = l.id.clone();
    let status = {
        let id = id.clone();
        Memo::new(move |_| ls.progress.with(|p| p.status(&id)))
    };
    let step = {
        let id = id.clone();
        move || ls.progress.with(|p| p.get(&id).step)
    };
    let (open_id, final_id) = (id.clone(), id.clone());
    view! {
        <li class="lesson-card" data-testid=format!("lesson-card-{id}") data-status=move || status.get().attr()>
            <span class="num" aria-hidden="true">{n}</span>
            <div class="card-text">
                <h3 dir="auto">{rich(&l.title)}</h3>
                <p dir="auto">{rich(&l.summary)}</p>
                <p class="meta">
                    <span>{format!("{} min", l.minutes)}</span>
                    <span class="status">{move || match status.get() {
                        Status::Done => "✓ Done".to_string(),
                        Status::InProgress => format!("In progress · step {}", step()),
                        Status::NotStarted => "Not started".to_string(),
                    }}</span>
                </p>
            </div>
            <div class="card-actions">
                <button class="primary" data-testid=format!("lesson-open-{id}")
                    on:click=move |_| ls.open(open_id.clone(), matches!(status.get_untracked(), Status::Done).then(|| "1".into()))>
                    {move || match status.get() { Status::Done => "Again", Status::InProgress => "Continue", Status::NotStarted => "Start" }}
                </button>
                <button class="quiet" data-testid=format!("lesson-final-{id}") title="The lesson's last state, to explore freely"
                    on:click=move |_| ls.open_final(final_id.clone())>"Final state in the sandbox"</button>
            </div>
        </li>
    }
}
