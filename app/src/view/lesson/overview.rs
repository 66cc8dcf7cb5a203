//! The lesson overview (title, one line, minutes, status; start or continue, or open the final
//! state in the sandbox), the notice line, and the header's button between a lesson and the
//! list. The cards are built when the list arrives; each one's status follows the saved
//! progress.

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
        <button class="lessons-button" data-testid="lessons-button" hidden=move || !ls.active()
            aria-pressed=move || ls.overview.get().to_string() on:click=toggle>
            {move || if ls.overview.get() { "Back to the lesson" } else { "All lessons" }}
        </button>
    }
}

/// A view's notice line (a discarded saved state, a bad link, a lesson or drill that could not
/// be loaded), with its test id, and × to dismiss it.
#[component]
pub fn Notice(notice: RwSignal<Option<String>>, testid: &'static str) -> impl IntoView {
    view! {
        <p class="lesson-notice" role="status" data-testid=testid hidden=move || notice.with(Option::is_none)>
            <span dir="auto">{move || notice.get()}</span>
            <button class="quiet" aria-label="Dismiss" on:click=move |_| notice.set(None)>"×"</button>
        </p>
    }
}

#[component]
pub fn Overview() -> impl IntoView {
    let ls = use_lessons_ctx();
    // The list, or why it is not there yet.
    let list = move || {
        ls.index.with(|index| match index {
            None => view! { <p class="lesson-wait" role="status">"Loading the lessons…"</p> }.into_any(),
            Some(Err(e)) => {
                view! { <p class="error" role="alert">"The lesson list could not be loaded: "{e.clone()}</p> }
                    .into_any()
            }
            Some(Ok(list)) => {
                let cards = list.iter().enumerate().map(|(i, l)| view! { <Card n=i + 1 lesson=l.clone() /> });
                view! { <ol class="lesson-cards">{cards.collect_view()}</ol> }.into_any()
            }
        })
    };
    view! {
        <Notice notice=ls.notice testid="lesson-notice" />
        <section class="lesson-overview" data-testid="lesson-overview" aria-labelledby="lessons-title"
            hidden=move || !ls.overview.get()>
            <div class="overview-head">
                <h2 id="lessons-title">"Lessons"</h2>
                <p class="lede">"Short guided lessons on the same playground: predict what the engine will do, watch it \
                    happen on the diagram, then do it yourself. Your progress stays in this browser."</p>
            </div>
            {list}
        </section>
    }
}

/// Lesson `n` of the list: what it is, how far the learner got, and the ways in.
#[component]
fn Card(n: usize, lesson: LessonListing) -> impl IntoView {
    let ls = use_lessons_ctx();
    let LessonListing { id, title, summary, minutes } = lesson;
    let status = {
        let id = id.clone();
        Memo::new(move |_| ls.progress.with(|p| (p.status(&id), p.get(&id).step)))
    };
    let said = move || match status.get() {
        (Status::Done, _) => "✓ Done".to_string(),
        (Status::InProgress, step) => format!("In progress · step {step}"),
        (Status::NotStarted, _) => "Not started".to_string(),
    };
    let start = move || match status.get().0 {
        Status::Done => "Again",
        Status::InProgress => "Continue",
        Status::NotStarted => "Start",
    };
    // A lesson done starts again from its first step; any other at its saved step.
    let open = {
        let id = id.clone();
        move |_| ls.open(id.clone(), (status.get_untracked().0 == Status::Done).then(|| "1".into()))
    };
    let final_state = {
        let id = id.clone();
        move |_| ls.open_final(id.clone())
    };
    view! {
        <li class="lesson-card" data-testid=format!("lesson-card-{id}") data-status=move || status.get().0.attr()>
            <span class="num" aria-hidden="true">{n}</span>
            <div class="card-text">
                <h3 dir="auto">{rich(&title)}</h3>
                <p dir="auto">{rich(&summary)}</p>
                <p class="meta"><span>{minutes}" min"</span><span class="status">{said}</span></p>
            </div>
            <div class="card-actions">
                <button class="primary" data-testid=format!("lesson-open-{id}") on:click=open>{start}</button>
                <button class="quiet" data-testid=format!("lesson-final-{id}") title="The lesson's last state, to explore freely"
                    on:click=final_state>"Final state in the sandbox"</button>
            </div>
        </li>
    }
}
