//! The live diagram: producer → topic → subscriptions (filter and raw badges) → queues → DLQs.
//! Tokens travel the edges for recent deliveries and drop at a filter that rejected them.

use super::{use_ctx, Selection};
use engine::snapshot::{Snapshot, SubscriptionView};
use engine::EventKind;
use leptos::prelude::*;

const ROW: f64 = 76.0;
const TOP: f64 = 42.0;
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

fn edge_path(topic_y: f64, y: f64) -> String {
    format!("M 250 {topic_y} C 330 {topic_y}, 330 {y}, 410 {y}")
}

/// What the diagram draws, without the clock: it changes only when a count or the topology does,
/// so the diagram is not rebuilt on every tick of the clock.
#[derive(Clone, PartialEq)]
struct Layout {
    topic: String,
    rows: Vec<Row>,
}

#[derive(Clone, PartialEq)]
struct Row {
    sub: SubscriptionView,
    visible: usize,
    inflight: usize,
    /// The queue's dead-letter queue and how many messages it holds.
    dlq: Option<(String, usize)>,
}

impl Layout {
    fn of(s: &Snapshot) -> Layout {
        let depth = |name: &str| s.queues.iter().find(|q| q.name == name);
        let rows = s
            .topics
            .iter()
            .flat_map(|t| t.subscriptions.iter())
            .map(|sub| {
                let queue = sub.queue.as_deref().and_then(depth);
                let dlq = queue.and_then(|q| q.dead_letter_queue.clone()).map(|d| {
                    let n = depth(&d).map_or(0, |q| q.visible + q.in_flight + q.delayed);
                    (d, n)
                });
                Row {
                    sub: sub.clone(),
                    visible: queue.map_or(0, |q| q.visible),
                    inflight: queue.map_or(0, |q| q.in_flight),
                    dlq,
                }
            })
            .collect();
        Layout { topic: s.topics.first().map(|t| t.name.clone()).unwrap_or_else(|| "no topic".into()), rows }
    }

    fn height(&self) -> f64 {
        TOP * 2.0 + (self.rows.len().max(1) as f64 - 1.0) * ROW
    }

    fn topic_y(&self) -> f64 {
        self.height() / 2.0
    }

    fn row_of(&self, queue: &str) -> Option<usize> {
        self.rows.iter().position(|r| r.sub.queue.as_deref() == Some(queue))
    }
}

#[component]
pub fn Topology() -> impl IntoView {
    let ctx = use_ctx();
    let layout = Memo::new(move |_| ctx.snapshot.with(Layout::of));
    let graph = move || {
        let layout = layout.get();
        let height = layout.height();
        let topic_y = layout.topic_y();
        let topic = layout.topic.clone();
        let edges = layout
            .rows
            .iter()
            .enumerate()
            .map(|(i, Row { sub, visible, inflight, dlq })| {
                let y = TOP + i as f64 * ROW;
                let name = sub.queue.clone().unwrap_or_else(|| sub.endpoint.clone());
                let arn = sub.arn.clone();
                let select_sub = move |_| ctx.selected.set(Some(Selection::Subscription(arn.clone())));
                let qname = name.clone();
                let select_queue = move |_| ctx.selected.set(Some(Selection::Queue(qname.clone())));
                let filter = sub.filter_policy.clone();
                view! {
                    <g class="edge"><path d=edge_path(topic_y, y) /></g>
                    <g class="badges" on:click=select_sub>
                        {filter.map(|p| view! {
                            <g class="badge filter" tabindex="0" role="button" aria-label=format!("Filter policy for {name}: {p}")>
                                <title>{format!("Filter policy: {p}")}</title>
                                <rect x="296" y=y - 11.0 width="56" height="20" rx="10" />
                                <path class="funnel" d=format!("M 303 {} h 11 l -4 5 v 4 l -3 1 v -5 z", y - 5.0) />
                                <text x="330" y=y + 4.0>"filter"</text>
                            </g>
                        })}
                        {if sub.raw {
                            view! { <g class="badge raw"><title>"Raw message delivery: the body arrives exactly as published"</title>
                                <rect x="356" y=y - 11.0 width="40" height="20" rx="10" /><text x="376" y=y + 4.0>"raw"</text></g> }.into_any()
                        } else {
                            view! { <g class="badge raw"><title>"SNS envelope: the event arrives inside a JSON notification"</title>
                                <rect x="356" y=y - 11.0 width="40" height="20" rx="10" /><text x="376" y=y + 4.0>"env"</text></g> }.into_any()
                        }}
                    </g>
                    <g class="node queue" tabindex="0" role="button" on:click=select_queue aria-label=format!("Queue {}", sub.queue.clone().unwrap_or_default())>
                        <rect x="410" y=y - 24.0 width="200" height="48" rx="10" />
                        <text class="name" x="424" y=y - 4.0>{sub.queue.clone().unwrap_or_else(|| sub.endpoint.clone())}</text>
                        <text class="stat" x="424" y=y + 14.0>{format!("{visible} visible · {inflight} in flight")}</text>
                    </g>
                    {dlq.clone().map(|(d, dlq_count)| view! {
                        <g class="edge dlq"><path d=format!("M 610 {y} L 660 {y}") /></g>
                        <g class="node dlq">
                            <rect x="660" y=y - 18.0 width="160" height="36" rx="8" />
                            <text class="name" x="672" y=y + 5.0>{format!("{d} · {dlq_count}")}</text>
                        </g>
                    })}
                }
            })
            .collect_view();
        view! {
            <svg class="topology" viewBox=format!("0 0 830 {height}") role="img"
                 aria-label="The producer publishes to the topic, which fans out to one queue per consumer">
                <g class="edge"><path d=format!("M 130 {topic_y} L 170 {topic_y}") /></g>
                <g class="node producer">
                    <rect x="10" y=topic_y - 24.0 width="120" height="48" rx="24" />
                    <text class="name" x="70" y=topic_y + 5.0 text-anchor="middle">"checkout"</text>
                </g>
                <g class="node topic">
                    <rect x="170" y=topic_y - 30.0 width="80" height="60" rx="12" />
                    <text class="kind" x="210" y=topic_y - 8.0 text-anchor="middle">"SNS topic"</text>
                    <text class="name small" x="210" y=topic_y + 10.0 text-anchor="middle">{topic}</text>
                </g>
                {edges}
            </svg>
        }
    };
    view! {
        <div class="topology-wrap">
            {graph}
            <Tokens layout=layout />
        </div>
    }
}

/// Tokens for recent deliveries, drops and DLQ moves, in their own layer keyed by event, so a
/// token keeps its animation while the diagram under it re-renders.
#[component]
fn Tokens(layout: Memo<Layout>) -> impl IntoView {
    let ctx = use_ctx();
    let tokens = Memo::new(move |_| {
        ctx.snapshot.track();
        let layout = layout.get();
        let (height, topic_y) = (layout.height(), layout.topic_y());
        let row_of = |queue: &str| layout.row_of(queue);
        let found = ctx.pg.with(|p| {
            let events = p.history.sim().events();
            let now = p.now().ms();
            events
                .iter()
                .rev()
                .take_while(|e| e.at.ms() + TOKEN_WINDOW_MS >= now)
                .take(24)
                .filter_map(|e| match &e.kind {
                    EventKind::DeliveredToQueue { queue, .. } => row_of(queue).map(|r| (e.seq, r, Token::Delivered)),
                    EventKind::FilteredOut { endpoint, reason, .. } => {
                        row_of(endpoint).map(|r| (e.seq, r, Token::Dropped(reason.clone())))
                    }
                    EventKind::MovedToDeadLetterQueue { queue, .. } => row_of(queue).map(|r| (e.seq, r, Token::ToDlq)),
                    EventKind::MessageMoved { destination, .. } => {
                        row_of(destination).map(|r| (e.seq, r, Token::Redriven))
                    }
                    _ => None,
                })
                .collect::<Vec<_>>()
        });
        let tokens: Vec<(u64, &'static str, String, Option<String>)> = found
            .into_iter()
            .map(|(seq, row, token)| {
                let y = TOP + row as f64 * ROW;
                let (class, path, title) = match token {
                    Token::Delivered => ("token", edge_path(topic_y, y), None),
                    Token::Dropped(reason) => {
                        ("token dropped", format!("M 250 {topic_y} C 290 {topic_y}, 300 {y}, 324 {y}"), Some(reason))
                    }
                    Token::ToDlq => ("token dlq", format!("M 600 {y} L 680 {y}"), None),
                    Token::Redriven => ("token redriven", format!("M 680 {y} L 600 {y}"), None),
                };
                (seq, class, path, title)
            })
            .collect();
        (height, tokens)
    });
    view! {
        <svg class="topology tokens" viewBox=move || format!("0 0 830 {}", tokens.with(|t| t.0)) aria-hidden="true">
            <For each=move || tokens.with(|t| t.1.clone()) key=|t| t.0 let:t>
                <circle class=t.1 r="6" data-seq=t.0 style=format!("offset-path: path('{}')", t.2)>
                    {t.3.map(|r| view! { <title>{format!("Filtered out: {r}")}</title> })}
                </circle>
            </For>
        </svg>
    }
}
