//! The event log, filterable by resource, and the live region that announces what happens.

use super::bidi::isolated;
use super::markup::Markup;
use super::{use_ctx, Ctx, Selection};
use crate::html;
use engine::EventKind;
use leptos::prelude::*;

/// How many of the latest events the log lists at first, and how many more "Show older" adds.
const SHOWN: usize = 150;

#[component]
pub fn EventLog() -> impl IntoView {
    let ctx = use_ctx();
    let filter = RwSignal::new(String::new());
    let shown = RwSignal::new(SHOWN);
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
    // The events listed, newest first, and how many (of the filtered ones, with a filter) are
    // left out.
    let listed = Memo::new(move |_| {
        // Read, not only tracked: a memo that has never run follows nothing.
        count.with(|_| ());
        let (f, limit) = (filter.get(), shown.get());
        ctx.pg.with_untracked(|p| {
            let of = |e: &&engine::Event| f.is_empty() || e.kind.resources().iter().any(|r| *r == f);
            let mut events = p.events().iter().rev().filter(of);
            let items: Vec<Item> = events.by_ref().take(limit).map(Item::of).collect();
            (items, events.count())
        })
    });
    let left_out = move || listed.with(|l| l.1);
    let select = move |e: web_sys::MouseEvent| {
        if let Some(event @ Selection::Event(_)) = super::selection::under(e.target()) {
            ctx.selected.set(Some(event));
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
            // Kept by event: when events come or go (playing on, scrubbing back) only their
            // items are inserted or removed.
            // An event's button names it (`data-select`); a click on one reaches the list.
            <ol data-testid="event-log" id="events" on:click=select>
                <For each=move || listed.with(|l| l.0.clone()) key=Item::clone let(item)>
                    <li data-seq=item.seq inner_html=item.markup.into_string()></li>
                </For>
            </ol>
            <p class="more" data-testid="event-log-limit" hidden=move || left_out() == 0>
                {move || format!("Showing the latest {} events; {} older ones are not listed. ", shown.get(), left_out())}
                <button class="link" data-testid="event-log-older" on:click=move |_| shown.update(|n| *n += SHOWN)>"Show older"</button>
            </p>
        </section>
    }
}

/// One event in the list: its number and its item's markup (its time, its kind, and what
/// happened, the learner's text isolated). Keyed by both: after a fork, a number can name
/// another event.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    seq: u64,
    markup: Markup,
}

impl std::hash::Hash for Item {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.seq.hash(state);
        self.markup.as_str().hash(state);
    }
}

impl Item {
    fn of(e: &engine::Event) -> Item {
        let kind = e.kind.name();
        let markup = html! {
            "<button class=\"event\" data-select=\"", Selection::Event(e.seq).to_attr(), "\"><time>", e.at.to_string(),
            "</time><span class=\"kind ", kind, "\">", kind, "</span><span class=\"text\">", isolated(&e.kind.summary()),
            "</span></button>"
        };
        Item { seq: e.seq, markup }
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
