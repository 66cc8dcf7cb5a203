//! The drill list (title, one line, minutes, solved and best time, checks made) and the notice
//! line. The list only reads, so it is written as markup (`html!`): each drill opens from a
//! real link (`?drill=<id>`, `Route::href`), which a plain click follows in place.

use super::panel::rich;
use super::progress::{clock, Progress};
use super::use_drills;
use crate::html;
use crate::route::Route;
use crate::view::markup::Markup;
use engine::lesson::LessonListing;
use leptos::prelude::*;

#[component]
pub fn List(hidden: Signal<bool>) -> impl IntoView {
    let d = use_drills();
    let list = Memo::new(move |_| {
        d.index
            .with(|index| match index {
                None => html!("<p class=\"lesson-wait\" role=\"status\">Loading the drills…</p>"),
                Some(Err(e)) => {
                    html!("<p class=\"error\" role=\"alert\">The drill list could not be loaded: ", e, "</p>")
                }
                Some(Ok(list)) => d.state.with(|s| cards(list, &s.progress)),
            })
            .into_string()
    });
    // A plain click on a drill's link opens it in place; any other (a new tab) is the browser's.
    let follow = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        let link = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("a[href]").ok().flatten())
            .and_then(|a| a.get_attribute("href"));
        if let Some(href) =
            link.filter(|_| ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key()))
        {
            ev.prevent_default();
            let (path, query) = href.split_once('?').unwrap_or((&href, ""));
            d.nav.go(Route::parse(path, query));
        }
    };
    view! {
        <section class="lesson-overview" data-testid="drill-list" aria-labelledby="drills-title" hidden=hidden>
            <div class="overview-head">
                <h2 id="drills-title">"Incident drills"</h2>
                <p class="lede">"You are on call. Each drill pages you about a system that keeps failing while \
                    you look: find the cause with the diagram, the queues and the event log, change what is wrong, \
                    and the engine checks that the symptoms stay gone. Your progress stays in this browser."</p>
            </div>
            <div on:click=follow inner_html=list></div>
        </section>
    }
}

/// The cards: each drill with its number, title, line, minutes, and how the learner did.
fn cards(list: &[LessonListing], p: &Progress) -> Markup {
    let cards: Markup = list
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let s = p.get(&l.id);
            let (status, said) = match s.best_s {
                Some(b) if s.solved => ("done", format!("✓ Solved · best {}", clock(b))),
                _ if s.attempts > 0 => ("in-progress", crate::format::count(s.attempts, "check", "checks")),
                _ => ("not-started", "Not tried".to_string()),
            };
            let href = Route::Drill { id: l.id.clone() }.href();
            html!(
                "<li class=\"lesson-card\" data-testid=\"drill-card-",
                &l.id,
                "\" data-status=\"",
                status,
                "\"><span class=\"num\" aria-hidden=\"true\">",
                i + 1,
                "</span><div class=\"card-text\"><h3 dir=\"auto\">",
                rich(&l.title),
                "</h3><p dir=\"auto\">",
                rich(&l.summary),
                "</p><p class=\"meta\"><span>",
                l.minutes,
                " min</span><span class=\"status\" data-testid=\"drill-status-",
                &l.id,
                "\">",
                said,
                "</span></p></div><div class=\"card-actions\"><a class=\"button primary\" data-testid=\"drill-open-",
                &l.id,
                "\" href=\"",
                href,
                "\">",
                if s.solved { "Again" } else { "Answer the page" },
                "</a></div></li>"
            )
        })
        .collect();
    html!("<ol class=\"lesson-cards\">", cards, "</ol>")
}
