//! The drill list (title, one line, minutes, solved and best time, checks made) and the notice
//! line. The cards are built when the list arrives; each one's status follows the saved progress.

use super::progress::clock;
use super::use_drills;
use crate::route::Route;
use crate::view::lesson::rich;
use engine::lesson::LessonListing;
use leptos::prelude::*;

/// The notice line (a discarded saved state, a drill that could not be opened).
#[component]
pub fn Notice() -> impl IntoView {
    let d = use_drills();
    view! {
        <p class="lesson-notice" role="status" data-testid="drill-notice" hidden=move || d.notice.with(Option::is_none)>
            <span dir="auto">{move || d.notice.get()}</span>
            <button class="quiet" aria-label="Dismiss" on:click=move |_| d.notice.set(None)>"×"</button>
        </p>
    }
}

#[component]
pub fn List(hidden: Signal<bool>) -> impl IntoView {
    let d = use_drills();
    let list = move || {
        d.index.with(|index| match index {
            None => view! { <p class="lesson-wait" role="status">"Loading the drills…"</p> }.into_any(),
            Some(Err(e)) => {
                view! { <p class="error" role="alert">"The drill list could not be loaded: "{e.clone()}</p> }.into_any()
            }
            Some(Ok(list)) => {
                let cards = list.iter().enumerate().map(|(i, l)| view! { <Card n=i + 1 drill=l.clone() /> });
                view! { <ol class="lesson-cards">{cards.collect_view()}</ol> }.into_any()
            }
        })
    };
    view! {
        <section class="lesson-overview" data-testid="drill-list" aria-labelledby="drills-title" hidden=hidden>
            <div class="overview-head">
                <h2 id="drills-title">"Incident drills"</h2>
                <p class="lede">"You are on call. Each drill pages you with a broken system that keeps failing while \
                    you look: find the cause with the diagram, the queues and the event log, change what is wrong, \
                    and the engine checks that the symptoms stay gone. Your progress stays in this browser."</p>
            </div>
            {list}
        </section>
    }
}

/// Drill `n` of the list: what it is, and whether and how fast the learner solved it.
#[component]
fn Card(n: usize, drill: LessonListing) -> impl IntoView {
    let d = use_drills();
    let LessonListing { id, title, summary, minutes } = drill;
    let saved = {
        let id = id.clone();
        Memo::new(move |_| d.progress.with(|p| p.get(&id)))
    };
    let open = id.clone();
    let status = move || {
        saved.with(|s| match (s.solved, s.best_s) {
            (true, Some(b)) => format!("✓ Solved · best {}", clock(b)),
            _ if s.attempts > 0 => crate::format::count(s.attempts, "check", "checks"),
            _ => "Not tried".to_string(),
        })
    };
    view! {
        <li class="lesson-card" data-testid=format!("drill-card-{id}")
            data-status=move || saved.with(|s| if s.solved { "done" } else if s.attempts > 0 { "in-progress" } else { "not-started" })>
            <span class="num" aria-hidden="true">{n}</span>
            <div class="card-text">
                <h3 dir="auto">{rich(&title)}</h3>
                <p dir="auto">{rich(&summary)}</p>
                <p class="meta"><span>{minutes}" min"</span>
                    <span class="status" data-testid=format!("drill-status-{id}")>{status}</span></p>
            </div>
            <div class="card-actions">
                <button class="primary" data-testid=format!("drill-open-{id}")
                    on:click=move |_| d.nav.go(Route::Drill { id: open.clone() })>
                    {move || if saved.with(|s| s.solved) { "Again" } else { "Take the page" }}
                </button>
            </div>
        </li>
    }
}
