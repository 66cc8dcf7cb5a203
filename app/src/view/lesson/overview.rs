//! The lesson overview: the path through the lessons in parts (basics, failures, …) with their
//! minutes, then each part's cards (title, one line, minutes, what it builds on, status; start
//! or continue, or open the final state in the sandbox); the notice line; and the header's
//! button between a lesson and the list. The cards are built when the list arrives; each one's
//! status follows the saved progress.

use super::panel::rich;
use super::progress::Status;
use super::use_lessons_ctx;
use engine::lesson::{LessonIndex, LessonListing, Part};
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
            Some(Ok(index)) => view! { <Path index=index.clone() /> }.into_any(),
        })
    };
    view! {
        <Notice notice=ls.notice testid="lesson-notice" />
        <section class="lesson-overview" data-testid="lesson-overview" aria-labelledby="lessons-title"
            hidden=move || !ls.overview.get()>
            <div class="overview-head">
                <h2 id="lessons-title">"Lessons"</h2>
                <p class="lede">"Short guided lessons on the same playground: predict what will happen, watch it \
                    happen on the diagram, then do it yourself. Your progress stays in this browser."</p>
            </div>
            {list}
        </section>
    }
}

/// The parts in order, each a heading with its number, its lessons and minutes, over its cards.
/// An index without parts is one list.
#[component]
fn Path(index: LessonIndex) -> impl IntoView {
    // Lesson numbers run on across the parts; a lesson builds on lessons listed before it.
    let number = |id: &str| index.lessons.iter().position(|l| l.id == id).map_or(0, |i| i + 1);
    let card = |l: &LessonListing| {
        let assumes: Vec<(usize, String)> =
            l.assumes.iter().filter_map(|a| index.listing(a).map(|x| (number(a), x.title.clone()))).collect();
        view! { <Card n=number(&l.id) lesson=l.clone() assumes=assumes /> }
    };
    let parts: Vec<(&Part, Vec<&LessonListing>)> = if index.parts.is_empty() {
        vec![(&ALL, index.lessons.iter().collect())]
    } else {
        index
            .parts
            .iter()
            .map(|p| (p, index.lessons_of(&p.id).collect::<Vec<_>>()))
            .filter(|(_, l)| !l.is_empty())
            .collect()
    };
    let total: u32 = index.lessons.iter().map(|l| l.minutes).sum();
    let said = format!(
        "{} lessons, about {total} min in all, in {} parts. Take them in order, or start where you need.",
        index.lessons.len(),
        parts.len()
    );
    let sections = parts
        .iter()
        .enumerate()
        .map(|(i, (p, lessons))| {
            let minutes: u32 = lessons.iter().map(|l| l.minutes).sum();
            let head = format!(
                "{}. {} · {} lesson{} · {minutes} min",
                i + 1,
                p.title,
                lessons.len(),
                if lessons.len() == 1 { "" } else { "s" }
            );
            let cards = lessons.iter().map(|l| card(l)).collect_view();
            view! {
                <section class="lesson-part" data-testid=format!("lesson-part-{}", p.id)>
                    <h3 dir="auto" data-testid=format!("lesson-path-{}", p.id)>{head}</h3>
                    <ol class="lesson-cards">{cards}</ol>
                </section>
            }
        })
        .collect_view();
    view! {
        <div class="lesson-path" data-testid="lesson-path">
            <p class="meta">{said}</p>
            {sections}
        </div>
    }
}

/// The one part of an index without parts.
static ALL: Part = Part { id: String::new(), title: String::new() };

/// Lesson `n` of the list: what it is, what it builds on (lesson numbers and titles), how far
/// the learner got, and the ways in.
#[component]
fn Card(n: usize, lesson: LessonListing, assumes: Vec<(usize, String)>) -> impl IntoView {
    let ls = use_lessons_ctx();
    let LessonListing { id, title, summary, minutes, .. } = lesson;
    let builds_on = if assumes.is_empty() {
        "Assumes nothing: start here.".to_string()
    } else {
        let names: Vec<String> =
            assumes.iter().map(|(n, t)| format!("{n}. {}", engine::lesson::markup::plain(t))).collect();
        format!("Builds on {}", names.join("; "))
    };
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
                <p class="assumes" data-testid=format!("lesson-assumes-{id}") dir="auto">{builds_on}</p>
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
