//! The diagram's tokens: a message travelling to its queue, dropping at a filter that rejected
//! it, sliding into a dead-letter queue, or back out of it by a redrive. They live in a layer of
//! their own over the diagram.

use super::markup::Markup;
use super::topology::Layout;
use super::use_ctx;
use crate::html;
use engine::EventKind;
use leptos::prelude::*;

/// How far back (virtual ms) a delivery still shows a travelling token.
const TOKEN_WINDOW_MS: u64 = 1_200;
/// How long (real ms) a move into or out of a dead-letter queue stays on the diagram, whatever
/// the speed: the token slides for 1.2 s and rests in the queue it reached, so a move that took
/// one receive is there to notice.
const DLQ_SHOWN_REAL_MS: u64 = 3_000;

/// How far back (virtual ms) an event's token is shown at `per_4ms` virtual ms per 4 real ms.
fn window_ms(kind: &EventKind, per_4ms: u64) -> u64 {
    match kind {
        EventKind::MovedToDeadLetterQueue { .. } | EventKind::MessageMoved { .. } => {
            (DLQ_SHOWN_REAL_MS * per_4ms / 4).max(TOKEN_WINDOW_MS)
        }
        _ => TOKEN_WINDOW_MS,
    }
}

/// A message token's trip on the diagram.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Trip {
    Delivered,
    /// Stopped at the subscription's filter, with the reason.
    Dropped(String),
    ToDlq,
    /// Back from the dead-letter queue to its source by a move task.
    Redriven,
}

/// A token on the diagram: the event it shows, the path it travels, its trip. Keyed by all of
/// it: the same token stays the same element (and keeps its animation) while the diagram under
/// it changes; after a fork an event's number can name another trip, and a resize another path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Token {
    seq: u64,
    path: String,
    trip: Trip,
}

impl Token {
    fn class(&self) -> &'static str {
        match self.trip {
            Trip::Delivered => "token",
            Trip::Dropped(_) => "token dropped",
            Trip::ToDlq => "token dlq",
            Trip::Redriven => "token redriven",
        }
    }

    /// Its title: why a dropped message was filtered out.
    fn title(&self) -> Option<Markup> {
        match &self.trip {
            Trip::Dropped(reason) => Some(html!("<title>Filtered out: ", reason, "</title>")),
            _ => None,
        }
    }
}

/// Tokens for recent deliveries, drops and DLQ moves, in their own layer over the diagram,
/// kept by token.
#[component]
pub fn Tokens(layout: Memo<Layout>) -> impl IntoView {
    let ctx = use_ctx();
    let tokens = Memo::new(move |_| {
        ctx.snapshot.with(|_| ());
        let now = ctx.now.get_untracked().ms();
        let per_4ms = crate::playground::SPEEDS.get(ctx.speed.get()).map_or(4, |s| s.1);
        let longest = (DLQ_SHOWN_REAL_MS * per_4ms / 4).max(TOKEN_WINDOW_MS);
        let found = layout.with(|layout| {
            ctx.pg.with_untracked(|p| {
                let events = p.events();
                events
                    .iter()
                    .rev()
                    // A busy story at 64× logs thousands of events in a DLQ move's window: look
                    // at the latest few hundred only.
                    .take(400)
                    .take_while(|e| e.at.ms() + longest >= now)
                    .filter(|e| e.at.ms() + window_ms(&e.kind, per_4ms) >= now)
                    .take(24)
                    .filter_map(|e| token(layout, e))
                    .collect::<Vec<_>>()
            })
        });
        // A token leaves as the clock moves on, so the clock is followed while one shows; a new
        // one comes with an event, which changes the snapshot.
        if !found.is_empty() {
            ctx.now.with(|_| ());
        }
        found
    });
    view! {
        <svg class="topology tokens" id="tokens" viewBox=move || layout.with(Layout::view_box) aria-hidden="true">
            // Newest first.
            <For each=move || tokens.get() key=Token::clone let(t)>
                <circle class=t.class() r="6" data-seq=t.seq style=format!("offset-path: path('{}')", t.path)
                    inner_html=t.title().map(Markup::into_string)></circle>
            </For>
        </svg>
    }
}

/// The token an event sends along the diagram, if it shows one.
fn token(layout: &Layout, e: &engine::Event) -> Option<Token> {
    let (row, trip) = match &e.kind {
        EventKind::DeliveredToQueue { queue, .. } => (layout.row_of(queue)?, Trip::Delivered),
        EventKind::FilteredOut { endpoint, reason, .. } => (layout.row_of(endpoint)?, Trip::Dropped(reason.clone())),
        EventKind::MovedToDeadLetterQueue { queue, .. } => (layout.row_of(queue)?, Trip::ToDlq),
        EventKind::MessageMoved { source, destination, .. } => {
            (layout.row_with_dlq(source).or_else(|| layout.row_of(destination))?, Trip::Redriven)
        }
        // A webhook or a function that SNS delivered to.
        EventKind::DeliveredToEndpoint { endpoint, .. } => (layout.row_of(endpoint)?, Trip::Delivered),
        // A rule's target that EventBridge delivered to.
        EventKind::EventBridge(engine::events::EbEvent::DeliveredToTarget { rule, destination, .. }) => {
            (layout.row_of_rule(rule, destination)?, Trip::Delivered)
        }
        _ => return None,
    };
    // Only a queue a topic or a rule feeds has an edge for a delivery or a drop to travel.
    let path = match &trip {
        Trip::Delivered | Trip::Dropped(_) if row.sub.is_none() && row.rule.is_none() => return None,
        Trip::Delivered => layout.feed_path(row, false)?,
        Trip::Dropped(_) => layout.feed_path(row, true)?,
        // From the queue's bottom edge down into its DLQ, and back up for a redrive.
        Trip::ToDlq | Trip::Redriven => {
            let (x, from, to) = layout.dlq_drop(row);
            let (from, to) = if trip == Trip::ToDlq { (from, to) } else { (to, from) };
            format!("M {x} {from} L {x} {to}")
        }
    };
    Some(Token { seq: e.seq, path, trip })
}

#[cfg(test)]
mod tests {
    use super::{window_ms, DLQ_SHOWN_REAL_MS, TOKEN_WINDOW_MS};
    use crate::playground::SPEEDS;

    #[test]
    fn a_dead_letter_move_stays_three_real_seconds_at_every_speed() {
        let moved = engine::EventKind::MovedToDeadLetterQueue {
            queue: "sms".into(),
            dead_letter_queue: "sms-dlq".into(),
            message_id: engine::ids::MsgId(3),
            receive_count: 5,
        };
        for (label, per_4ms) in SPEEDS {
            // Virtual ms shown, turned back into real ms at that speed.
            let real = window_ms(&moved, *per_4ms) * 4 / per_4ms;
            assert!(real >= DLQ_SHOWN_REAL_MS, "{label}: {real} ms");
        }
        // At 1× a delivery's token shows 1.2 s of virtual time, as before.
        let published =
            engine::EventKind::Published { topic: "t".into(), sns_message_id: engine::ids::SnsId(1), subscriptions: 1 };
        assert_eq!(window_ms(&published, 4), TOKEN_WINDOW_MS);
    }
}
