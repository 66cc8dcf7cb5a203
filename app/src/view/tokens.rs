//! The diagram's tokens: a message travelling to its queue, dropping at a filter that rejected
//! it, sliding into a dead-letter queue, or back out of it by a redrive. They live in a layer of
//! their own over the diagram.

use super::topology::Layout;
use super::{esc, use_ctx};
use engine::EventKind;
use leptos::prelude::*;

/// How far back (virtual ms) a delivery still shows a travelling token.
const TOKEN_WINDOW_MS: u64 = 1_200;

/// A message token's trip on the diagram.
enum Token {
    Delivered,
    /// Stopped at the subscription's filter, with the reason.
    Dropped(String),
    ToDlq,
    /// Back from the dead-letter queue to its source by a move task.
    Redriven,
}

/// Tokens for recent deliveries, drops and DLQ moves, in their own layer kept by event (see
/// `keep_list`), so a token keeps its animation while the diagram under it changes.
#[component]
pub fn Tokens(layout: Memo<Layout>) -> impl IntoView {
    let ctx = use_ctx();
    let tokens = Memo::new(move |_| {
        ctx.snapshot.with(|_| ());
        let layout = layout.get();
        let view_box = layout.view_box();
        let now = ctx.now.get_untracked().ms();
        let found = ctx.pg.with_untracked(|p| {
            let events = p.events();
            events
                .iter()
                .rev()
                .take_while(|e| e.at.ms() + TOKEN_WINDOW_MS >= now)
                .take(24)
                .filter_map(|e| {
                    let (row, token) = match &e.kind {
                        EventKind::DeliveredToQueue { queue, .. } => (layout.row_of(queue)?, Token::Delivered),
                        EventKind::FilteredOut { endpoint, reason, .. } => {
                            (layout.row_of(endpoint)?, Token::Dropped(reason.clone()))
                        }
                        EventKind::MovedToDeadLetterQueue { queue, .. } => (layout.row_of(queue)?, Token::ToDlq),
                        EventKind::MessageMoved { source, destination, .. } => {
                            (layout.row_with_dlq(source).or_else(|| layout.row_of(destination))?, Token::Redriven)
                        }
                        // A webhook or a function that SNS delivered to.
                        EventKind::DeliveredToEndpoint { endpoint, .. } => (layout.row_of(endpoint)?, Token::Delivered),
                        // A rule's target that EventBridge delivered to.
                        EventKind::EventBridge(engine::events::EbEvent::DeliveredToTarget {
                            rule,
                            destination,
                            ..
                        }) => (layout.row_of_rule(rule, destination)?, Token::Delivered),
                        _ => return None,
                    };
                    // Only a queue a topic or a rule feeds has an edge for a delivery or a drop
                    // to travel.
                    let path = match &token {
                        Token::Delivered | Token::Dropped(_) if row.sub.is_none() && row.rule.is_none() => return None,
                        Token::Delivered => layout.feed_path(row, false)?,
                        Token::Dropped(_) => layout.feed_path(row, true)?,
                        // From the queue's bottom edge down into its DLQ, and back up for a redrive.
                        Token::ToDlq | Token::Redriven => {
                            let (x, from, to) = layout.dlq_drop(row);
                            let (from, to) = if matches!(token, Token::ToDlq) { (from, to) } else { (to, from) };
                            format!("M {x} {from} L {x} {to}")
                        }
                    };
                    Some((e.seq, path, token))
                })
                .collect::<Vec<_>>()
        });
        // A token leaves as the clock moves on, so the clock is followed while one shows; a new
        // one comes with an event, which changes the snapshot.
        if !found.is_empty() {
            ctx.now.with(|_| ());
        }
        // Newest first, keyed in ascending order by how far back an event is (see `keep_list`).
        let tokens: Vec<(u64, String)> = found
            .into_iter()
            .map(|(seq, path, token)| {
                let (class, title) = match token {
                    Token::Delivered => ("token", None),
                    Token::Dropped(reason) => ("token dropped", Some(reason)),
                    Token::ToDlq => ("token dlq", None),
                    Token::Redriven => ("token redriven", None),
                };
                let title = title.map(|r| format!("<title>Filtered out: {}</title>", esc(&r))).unwrap_or_default();
                (u64::MAX - seq, format!("<circle class=\"{class}\" r=\"6\" data-seq=\"{seq}\" style=\"offset-path: path('{path}')\">{title}</circle>"))
            })
            .collect();
        (view_box, tokens)
    });
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    Effect::new(move |drawn: Option<Vec<(u64, String)>>| {
        let drawn = drawn.unwrap_or_default();
        let Some(svg) = svg_ref.get().map(web_sys::Element::from) else { return drawn };
        let items = tokens.with(|t| t.1.clone());
        super::keep_list(&svg, &drawn, &items);
        items
    });
    view! {
        <svg class="topology tokens" id="tokens" node_ref=svg_ref viewBox=move || tokens.with(|t| t.0.clone()) aria-hidden="true"></svg>
    }
}
