//! The event log, filterable by resource, and the live region that announces what happens.

use super::{use_ctx, Ctx, Selection};
use engine::EventKind;
use leptos::prelude::*;

/// How many of the latest events the log lists.
const SHOWN: usize = 150;

#[component]
pub fn EventLog() -> impl IntoView {
    let ctx = use_ctx();
    let filter = RwSignal::new(String::new());
    let resources = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            let mut r: Vec<String> = s.topics.iter().map(|t| t.name.clone()).collect();
            r.extend(s.queues.iter().map(|q| q.name.clone()));
            r
        })
    });
    // The list changes only when events are added or the story moves back: not on a bare tick.
    let count = Memo::new(move |_| ctx.snapshot.with(|s| s.events));
    // The list is rebuilt whole when it changes, so it is written as markup; a click on an
    // event's button reaches the list, which selects the event its `<li data-seq>` names.
    let markup = move || {
        let f = filter.get();
        count.track();
        ctx.pg.with(|p| {
            let mut out = String::new();
            for e in p
                .events()
                .iter()
                .rev()
                .filter(|e| f.is_empty() || e.kind.resources().iter().any(|r| *r == f))
                .take(SHOWN)
            {
                let kind = e.kind.name();
                out += &format!(
                    "<li data-seq=\"{}\"><button class=\"event\"><time>{}</time><span class=\"kind {kind}\">{kind}</span>\
                     <span class=\"text\">{}</span></button></li>",
                    e.seq,
                    e.at,
                    super::esc(&e.kind.summary())
                );
            }
            out
        })
    };
    let select = move |e: web_sys::MouseEvent| {
        let seq = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|el| el.closest("[data-seq]").ok().flatten())
            .and_then(|el| el.get_attribute("data-seq"))
            .and_then(|s| s.parse::<u64>().ok());
        if let Some(seq) = seq {
            ctx.selected.set(Some(Selection::Event(seq)));
        }
    };
    view! {
        <section class="log" aria-label="Event log">
            <header>
                <h2>"Event log"</h2>
                <select aria-label="Show events of" data-testid="log-filter" on:change=move |ev| filter.set(event_target_value(&ev))>
                    <option value="">"everything"</option>
                    {move || resources.get().into_iter().map(|r| view! { <option value=r.clone()>{r.clone()}</option> }).collect_view()}
                </select>
            </header>
            <ol data-testid="event-log" on:click=select inner_html=markup></ol>
        </section>
    }
}

/// Puts the latest notable event into the ARIA live region.
pub fn use_announcer(ctx: Ctx) {
    let seen = StoredValue::new(0usize);
    Effect::new(move |_| {
        let count = ctx.snapshot.with(|s| s.events);
        let from = seen.get_value().min(count);
        seen.set_value(count);
        let message = ctx.pg.with_untracked(|p| {
            p.events()[from..]
                .iter()
                .rev()
                .find(|e| {
                    matches!(
                        e.kind,
                        EventKind::MovedToDeadLetterQueue { .. }
                            | EventKind::VisibilityExpired { .. }
                            | EventKind::FilteredOut { .. }
                            | EventKind::DeliveryFailed { .. }
                            | EventKind::ExpiredByRetention { .. }
                            | EventKind::Deduplicated { .. }
                            | EventKind::Published { .. }
                    )
                })
                .map(|e| e.kind.summary())
        });
        if let Some(m) = message {
            ctx.announce.set(m);
        }
    });
}
