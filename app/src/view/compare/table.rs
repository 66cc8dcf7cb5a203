//! The difference table: per order, which jobs ran in each design and how often; per design,
//! checkout latency, availability, half-done orders, duplicates, dead-letter queues and the
//! oldest message. A cell that differs between designs is highlighted; clicking an order's cell
//! selects that order's message (or its latest event) in the design's inspector.

use super::super::{Ctx, Selection};
use crate::format;
use engine::compare::measure::{measure, Measures};
use engine::event::EventKind;
use engine::world::WorldEvent;
use leptos::prelude::*;

/// Orders shown, the latest ones.
const ROWS: usize = 40;

/// The per-design rows: (hook name, label, value).
fn summary(m: &Measures) -> [(&'static str, &'static str, String); 6] {
    [
        ("latency", "Checkout latency p50 / p95", format!("{} / {}", ms(m.latency_p50_ms), ms(m.latency_p95_ms))),
        ("availability", "Checkout availability", m.availability_text()),
        ("half-done", "Half-done orders", m.half_done.to_string()),
        ("duplicates", "Duplicate side effects", m.duplicates.to_string()),
        ("dlq", "Messages in DLQs", m.dlq_messages.to_string()),
        ("oldest", "Oldest message", ms(m.oldest_age_ms)),
    ]
}

fn ms(v: u64) -> String {
    format::duration(v)
}

/// What a click on `order`'s cell selects: its message if one is still in a queue, else the
/// latest event about it.
fn select(ctx: Ctx, event_id: &str) {
    let needle = format!("\"event_id\":\"{event_id}\"");
    let found = ctx.snapshot.with_untracked(|s| {
        s.queues.iter().find_map(|q| {
            q.messages
                .iter()
                .find(|m| m.body.contains(&needle))
                .map(|m| Selection::Message { queue: q.name.clone(), copy: m.copy })
        })
    });
    let found = found.or_else(|| {
        ctx.pg.with_untracked(|p| {
            p.events().iter().rev().find(|e| mentions(&e.kind, event_id)).map(|e| Selection::Event(e.seq))
        })
    });
    if let Some(sel) = found {
        ctx.selected.set(Some(sel));
    }
}

fn mentions(kind: &EventKind, id: &str) -> bool {
    match kind {
        EventKind::World(WorldEvent::SideEffectPerformed { event_id, .. })
        | EventKind::World(WorldEvent::RequestCompleted { event_id, .. }) => &**event_id == id,
        _ => false,
    }
}

#[component]
pub fn Difference(designs: Vec<(&'static str, Ctx)>) -> impl IntoView {
    let measures: Vec<(&'static str, Ctx, Memo<Measures>)> = designs
        .iter()
        .map(|(n, c)| {
            let pg = c.pg;
            (*n, *c, Memo::new(move |_| pg.with(|p| measure(p.sim()))))
        })
        .collect();
    let heads = measures.iter().map(|(n, _, _)| view! { <th scope="col">{super::label(n)}</th> }).collect_view();
    let m1 = measures.clone();
    let summary_rows = move || {
        let all: Vec<_> = m1.iter().map(|(n, _, m)| (*n, m.with(summary))).collect();
        (0..6)
            .map(|i| {
                let differs = all.windows(2).any(|w| w[0].1[i].2 != w[1].1[i].2);
                let (key, text, _) = &all[0].1[i];
                let cells = all
                    .iter()
                    .map(|(n, s)| view! { <td class:differs=differs data-testid=format!("compare-summary-{key}-{n}")>{s[i].2.clone()}</td> })
                    .collect_view();
                view! { <tr class="summary"><th scope="row">{*text}</th>{cells}</tr> }
            })
            .collect_view()
    };
    let m2 = measures.clone();
    let order_rows = move || {
        let all: Vec<_> = m2.iter().map(|(n, c, m)| (*n, *c, m.with(|m| m.orders.clone()))).collect();
        let count = all.iter().map(|(_, _, o)| o.len()).max().unwrap_or(0);
        (count.saturating_sub(ROWS)..count)
            .rev()
            .map(|i| {
                let texts: Vec<String> = all.iter().map(|(_, _, o)| o.get(i).map_or("—".into(), |r| r.text())).collect();
                let differs = texts.windows(2).any(|w| w[0] != w[1]);
                let row = all.iter().find_map(|(_, _, o)| o.get(i).cloned());
                let (order, event_id) = row.map_or((0, String::new()), |r| (r.order_id, r.event_id));
                let cells = all
                    .iter()
                    .zip(texts)
                    .map(|((n, ctx, _), text)| {
                        let (ctx, id) = (*ctx, event_id.clone());
                        view! {
                            <td class:differs=differs data-testid=format!("compare-cell-{order}-{n}")>
                                <button class="cell" on:click=move |_| select(ctx, &id)
                                    title="Show it in this design's inspector">{text}</button>
                            </td>
                        }
                    })
                    .collect_view();
                view! { <tr data-testid=format!("compare-row-{order}")><th scope="row">{format!("order {order}")}</th>{cells}</tr> }
            })
            .collect_view()
    };
    view! {
        <section class="compare-table-wrap" aria-label="Differences between the designs">
            <h2>"What each design did"</h2>
            <p class="hint">"Highlighted: the designs differ. Click an order's cell to see it in that design's inspector."</p>
            <div class="scroll">
                <table class="compare-table" data-testid="compare-table">
                    <thead><tr><th scope="col">""</th>{heads}</tr></thead>
                    <tbody>{summary_rows}</tbody>
                    <tbody>{order_rows}</tbody>
                </table>
            </div>
        </section>
    }
}
