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
    let lines = move || {
        let f = filter.get();
        count.track();
        ctx.pg.with(|p| {
            p.history
                .sim()
                .events()
                .iter()
                .rev()
                .filter(|e| f.is_empty() || e.kind.resources().iter().any(|r| *r == f))
                .take(SHOWN)
                .map(|e| (e.seq, e.at.to_string(), e.kind.name(), e.kind.summary()))
                .collect::<Vec<_>>()
        })
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
            <ol data-testid="event-log">
                {move || lines().into_iter().map(|(seq, at, kind, text)| view! {
                    <li data-seq=seq>
                        <button class="event" on:click=move |_| ctx.selected.set(Some(Selection::Event(seq)))>
                            <time>{at}</time><span class=format!("kind {kind}")>{kind}</span>
                            <span class="text">{text}</span>
                        </button>
                    </li>
                }).collect_view()}
            </ol>
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
            p.history.sim().events()[from..]
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
