//! The event log, filterable by resource, and the live region that announces what happens.

use super::{use_ctx, Ctx, Selection};
use engine::EventKind;
use leptos::prelude::*;

/// How many of the latest events the log lists at first, and how many more "Show older" adds.
const SHOWN: usize = 150;

#[component]
pub fn EventLog() -> impl IntoView {
    let ctx = use_ctx();
    let filter = RwSignal::new(String::new());
    let shown = RwSignal::new(SHOWN);
    // How many events (of the filtered ones, with a filter) the log leaves out.
    let left_out = RwSignal::new(0usize);
    let resources = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            let mut r: Vec<String> = s.topics.iter().map(|t| t.name.clone()).collect();
            r.extend(s.queues.iter().map(|q| q.name.clone()));
            r
        })
    });
    // The list changes only when events are added or the story moves back (or another story
    // is loaded): not on a bare tick. While time plays it follows the paced snapshot, a frame
    // after the queue cards (`Ctx::paced_late`): at 64× its entries fly past faster than they
    // can be read. Paused, stepping or scrubbing, it is drawn at once.
    let count = Memo::new(move |_| {
        ctx.paced_late.track();
        ctx.pg.with_untracked(|p| (p.id.clone(), p.events().len()))
    });
    // The list is written as markup, one `<li data-seq>` per event, and kept by hand: when
    // events come or go (playing on, scrubbing back) only those items are inserted or removed.
    // A click on an event's button reaches the list, which selects the event its item names.
    Effect::new(move |drawn: Option<Vec<(u64, String)>>| {
        let drawn = drawn.unwrap_or_default();
        let f = filter.get();
        let limit = shown.get();
        // Read, not only tracked: a memo that has never run follows nothing.
        count.with(|_| ());
        let Some(list) = document().get_element_by_id("events") else { return drawn };
        let (items, rest): (Vec<(u64, String)>, usize) = ctx.pg.with_untracked(|p| {
            let mut events = p.events().iter().rev().filter(|e| f.is_empty() || e.kind.resources().iter().any(|r| *r == f));
            let items = events
                .by_ref()
                .take(limit)
                .map(|e| {
                    let kind = e.kind.name();
                    let li = format!(
                        "<li data-seq=\"{}\"><button class=\"event\"><time>{}</time><span class=\"kind {kind}\">{kind}</span>\
                         <span class=\"text\">{}</span></button></li>",
                        e.seq,
                        e.at,
                        super::bidi::isolated(&e.kind.summary())
                    );
                    // Newest first: keyed in ascending order by how far back an event is.
                    (u64::MAX - e.seq, li)
                })
                .collect();
            (items, events.count())
        });
        super::keep_list(&list, &drawn, &items);
        if left_out.get_untracked() != rest {
            left_out.set(rest);
        }
        items
    });
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
            <ol data-testid="event-log" id="events" on:click=select></ol>
            <p class="more" data-testid="event-log-limit" hidden=move || left_out.get() == 0>
                {move || format!("Showing the latest {} events; {} older ones are not listed. ", shown.get(), left_out.get())}
                <button class="link" data-testid="event-log-older" on:click=move |_| shown.update(|n| *n += SHOWN)>"Show older"</button>
            </p>
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
