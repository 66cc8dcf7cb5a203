//! The lesson overview (title, one line, minutes, status; start or continue, or open the final
//! state in the sandbox), the notice line, and the header's button between a lesson and the
//! list. The overview is markup written from the list and the saved progress; its buttons carry
//! a `data-act` that one click handler reads.

use super::panel::{act_of, rich};
use super::progress::{Progress, Status};
use super::use_lessons_ctx;
use crate::view::esc;
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

/// The overview's markup: the list, or why it is not there yet.
fn markup(list: Option<&Result<Vec<LessonListing>, String>>, progress: &Progress) -> String {
    let body = match list {
        None => "<p class=\"lesson-wait\" role=\"status\">Loading the lessons…</p>".to_string(),
        Some(Err(e)) => {
            format!("<p class=\"error\" role=\"alert\">The lesson list could not be loaded: {}</p>", esc(e))
        }
        Some(Ok(list)) => {
            let cards: String = list.iter().enumerate().map(|(i, l)| card(i + 1, l, progress)).collect();
            format!("<ol class=\"lesson-cards\">{cards}</ol>")
        }
    };
    format!(
        "<div class=\"overview-head\"><h2 id=\"lessons-title\">Lessons</h2><p class=\"lede\">Short guided lessons on \
         the same playground: predict what the engine will do, watch it happen on the diagram, then do it yourself. \
         Your progress stays in this browser.</p></div>{body}"
    )
}

fn card(n: usize, l: &LessonListing, progress: &Progress) -> String {
    let status = progress.status(&l.id);
    let (said, open) = match status {
        Status::Done => ("✓ Done".to_string(), "Again"),
        Status::InProgress => (format!("In progress · step {}", progress.get(&l.id).step), "Continue"),
        Status::NotStarted => ("Not started".to_string(), "Start"),
    };
    format!(
        "<li class=\"lesson-card\" data-testid=\"lesson-card-{id}\" data-status=\"{attr}\"><span class=\"num\" \
         aria-hidden=\"true\">{n}</span><div class=\"card-text\"><h3 dir=\"auto\">{title}</h3><p dir=\"auto\">{summary}</p>\
         <p class=\"meta\"><span>{minutes} min</span><span class=\"status\">{said}</span></p></div>\
         <div class=\"card-actions\"><button class=\"primary\" data-testid=\"lesson-open-{id}\" data-act=\"open:{id}\">{open}</button>\
         <button class=\"quiet\" data-testid=\"lesson-final-{id}\" data-act=\"final:{id}\" \
         title=\"The lesson's last state, to explore freely\">Final state in the sandbox</button></div></li>",
        id = esc(&l.id),
        attr = status.attr(),
        title = rich(&l.title),
        summary = rich(&l.summary),
        minutes = l.minutes,
    )
}

/// The notice line (a discarded saved state, a bad link, a lesson that could not be loaded).
#[component]
pub fn Notice() -> impl IntoView {
    let ls = use_lessons_ctx();
    view! {
        <p class="lesson-notice" role="status" data-testid="lesson-notice" hidden=move || ls.notice.with(Option::is_none)>
            <span dir="auto">{move || ls.notice.get()}</span>
            <button class="quiet" aria-label="Dismiss" on:click=move |_| ls.notice.set(None)>"×"</button>
        </p>
    }
}

#[component]
pub fn Overview() -> impl IntoView {
    let ls = use_lessons_ctx();
    let body = Memo::new(move |_| ls.index.with(|i| ls.progress.with(|p| markup(i.as_ref(), p))));
    let click = move |ev: leptos::ev::MouseEvent| {
        let Some(act) = act_of(&ev) else { return };
        match act.split_once(':') {
            Some(("open", id)) => {
                let again = matches!(ls.progress.with_untracked(|p| p.status(id)), Status::Done);
                ls.open(id.to_string(), again.then(|| "1".into()));
            }
            Some(("final", id)) => ls.open_final(id.to_string()),
            _ => {}
        }
    };
    view! {
        <Notice />
        <section class="lesson-overview" data-testid="lesson-overview" aria-labelledby="lessons-title"
            hidden=move || !ls.overview.get() inner_html=move || body.get() on:click=click>
        </section>
    }
}
