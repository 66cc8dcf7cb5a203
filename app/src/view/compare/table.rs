//! The difference table: per order, which jobs ran in each design and how often; per design,
//! checkout latency, availability, half-done orders, duplicates, dead-letter queues and the
//! oldest message, and the orders still in progress. A row is highlighted only where the
//! designs differ in a way that matters: an order once every design has settled it (a slower
//! design is not a different outcome), a summary value that differs, the oldest message when
//! the ages are 5 s or more apart (not a few ms of timing). Clicking an order's cell selects
//! that order's message (or its latest event) in the design's inspector.

use super::super::{Ctx, Selection};
use crate::format;
use engine::compare::measure::{measure, Measures};
use engine::event::EventKind;
use engine::world::WorldEvent;
use leptos::prelude::*;

/// Orders shown, the latest ones.
const ROWS: usize = 40;

/// The per-design rows: (hook name, label).
const SUMMARY: [(&str, &str); 7] = [
    ("latency", "Checkout latency p50 / p95"),
    ("availability", "Checkout availability"),
    ("half-done", "Half-done orders (settled)"),
    ("in-progress", "Orders in progress"),
    ("duplicates", "Duplicate side effects"),
    ("dlq", "Messages in DLQs"),
    ("oldest", "Oldest message"),
];

/// A design's values for the [`SUMMARY`] rows.
fn summary(m: &Measures) -> [String; 7] {
    [
        format!("{} / {}", ms(m.latency_p50_ms), ms(m.latency_p95_ms)),
        m.availability_text(),
        m.half_done.to_string(),
        m.in_progress.to_string(),
        m.duplicates.to_string(),
        m.dlq_messages.to_string(),
        ms(m.oldest_age_ms),
    ]
}

/// Oldest-message ages closer than this are timing, not a difference.
const OLDEST_MATTERS_MS: u64 = 5_000;

/// Whether summary row `key` differs in a way that matters across `all`.
fn summary_differs(key: &str, cells: &[String], all: &[Measures]) -> bool {
    match key {
        // How much is still moving says how far along a design is, not how it did.
        "in-progress" => false,
        "oldest" => {
            let ages = all.iter().map(|m| m.oldest_age_ms);
            ages.clone().max().unwrap_or(0) - ages.min().unwrap_or(0) >= OLDEST_MATTERS_MS
        }
        _ => cells.windows(2).any(|w| w[0] != w[1]),
    }
}

fn ms(v: u64) -> String {
    format::duration(v)
}

/// One row of the table: each design's cell, and whether the designs differ.
#[derive(Clone, Debug, Default, PartialEq)]
struct Row {
    cells: Vec<String>,
    differs: bool,
}

impl Row {
    fn new(cells: Vec<String>, differs: bool) -> Row {
        Row { cells, differs }
    }
}

/// An order's row: its id, the event that placed it (what a click looks for), its cells.
#[derive(Clone, Debug, PartialEq)]
struct Order {
    id: u64,
    event_id: String,
    row: Row,
}

/// What the table shows, read from the designs' measures (in the designs' order).
#[derive(Clone, Debug, Default, PartialEq)]
struct Table {
    /// The [`SUMMARY`] rows.
    summary: Vec<Row>,
    /// The latest [`ROWS`] orders, newest first.
    orders: Vec<Order>,
}

impl Table {
    fn of(all: &[Measures]) -> Table {
        let values: Vec<[String; 7]> = all.iter().map(summary).collect();
        let summary = (0..SUMMARY.len())
            .map(|i| {
                let cells: Vec<String> = values.iter().map(|v| v[i].clone()).collect();
                let differs = summary_differs(SUMMARY[i].0, &cells, all);
                Row::new(cells, differs)
            })
            .collect();
        let count = all.iter().map(|m| m.orders.len()).max().unwrap_or(0);
        let orders = (count.saturating_sub(ROWS)..count)
            .rev()
            .filter_map(|i| {
                let first = all.iter().find_map(|m| m.orders.get(i))?;
                let rows: Vec<Option<&engine::compare::measure::OrderRow>> =
                    all.iter().map(|m| m.orders.get(i)).collect();
                let cells: Vec<String> = rows.iter().map(|r| r.map_or("—".into(), |r| r.text())).collect();
                // Only once every design has settled the order: until then a difference is pace.
                let settled = rows.iter().all(|r| r.is_some_and(|r| !r.in_progress));
                let differs = settled && cells.windows(2).any(|w| w[0] != w[1]);
                Some(Order { id: first.order_id, event_id: first.event_id.clone(), row: Row::new(cells, differs) })
            })
            .collect();
        Table { summary, orders }
    }

    /// Summary row `i`'s cell for design `d`, and whether that row differs.
    fn summary_cell(&self, i: usize, d: usize) -> (String, bool) {
        self.summary.get(i).map_or_else(Default::default, |r| (r.cells.get(d).cloned().unwrap_or_default(), r.differs))
    }

    /// Order `id`'s cell for design `d`, and whether that row differs.
    fn order_cell(&self, id: u64, d: usize) -> (String, bool) {
        let row = self.orders.iter().find(|o| o.id == id).map(|o| &o.row);
        row.map_or_else(Default::default, |r| (r.cells.get(d).cloned().unwrap_or_default(), r.differs))
    }
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
    let measured: Vec<Memo<Measures>> = designs
        .iter()
        .map(|(_, c)| {
            let (pg, snapshot) = (c.pg, c.snapshot);
            // Measured from the event log: anew only when the story changed, not at each frame.
            Memo::new(move |_| {
                snapshot.with(|_| ());
                pg.with_untracked(|p| measure(p.sim()))
            })
        })
        .collect();
    let table = Memo::new(move |_| Table::of(&measured.iter().map(|m| m.get()).collect::<Vec<_>>()));
    let designs = StoredValue::new(designs);
    let heads = designs
        .with_value(|ds| ds.iter().map(|(n, _)| view! { <th scope="col">{super::label(n)}</th> }).collect_view());
    let summary = SUMMARY
        .iter()
        .enumerate()
        .map(|(i, (key, label))| {
            let cells = designs.with_value(|ds| {
                ds.iter()
                    .enumerate()
                    .map(|(d, (n, _))| {
                        let cell = move || table.with(|t| t.summary_cell(i, d));
                        view! {
                            <td class:differs=move || cell().1 data-testid=format!("compare-summary-{key}-{n}")>{move || cell().0}</td>
                        }
                    })
                    .collect_view()
            });
            view! { <tr class="summary"><th scope="row">{*label}</th>{cells}</tr> }
        })
        .collect_view();
    let orders = move || table.with(|t| t.orders.iter().map(|o| (o.id, o.event_id.clone())).collect::<Vec<_>>());
    let order_row = move |(id, event_id): (u64, String)| {
        let event_id = StoredValue::new(event_id);
        let cells = designs.with_value(|ds| {
            ds.iter()
                .enumerate()
                .map(|(d, (n, ctx))| {
                    let (ctx, cell) = (*ctx, move || table.with(|t| t.order_cell(id, d)));
                    view! {
                        <td class:differs=move || cell().1 data-testid=format!("compare-cell-{id}-{n}")>
                            <button class="cell" title="Show it in this design's inspector"
                                on:click=move |_| event_id.with_value(|e| select(ctx, e))>{move || cell().0}</button>
                        </td>
                    }
                })
                .collect_view()
        });
        view! { <tr data-testid=format!("compare-row-{id}")><th scope="row">{format!("order {id}")}</th>{cells}</tr> }
    };
    view! {
        <section class="compare-table-wrap" aria-label="Differences between the designs">
            <h2>"What each design did"</h2>
            <p class="hint">"Highlighted: the designs ended differently (an order once every design has settled it). Click an order's cell to see it in that design's inspector."</p>
            <div class="scroll">
                <table class="compare-table" data-testid="compare-table">
                    <thead><tr><th scope="col"></th>{heads}</tr></thead>
                    <tbody>{summary}</tbody>
                    <tbody><For each=orders key=|(id, _)| *id children=order_row /></tbody>
                </table>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::compare::measure::OrderRow;

    fn order(id: u64, jobs: [u32; 3]) -> OrderRow {
        OrderRow { order_id: id, event_id: format!("evt-{id}"), jobs, in_progress: false }
    }

    #[test]
    fn a_row_is_marked_where_the_designs_differ_and_the_newest_order_comes_first() {
        let fanout = Measures { orders: vec![order(1, [1, 1, 1]), order(2, [1, 1, 1])], ..Measures::default() };
        let queue =
            Measures { orders: vec![order(1, [1, 1, 1]), order(2, [1, 0, 0])], duplicates: 2, ..Measures::default() };
        let t = Table::of(&[fanout, queue]);
        assert_eq!(t.orders.iter().map(|o| o.id).collect::<Vec<_>>(), [2, 1], "newest first");
        assert!(t.order_cell(2, 0).1 && !t.order_cell(1, 1).1, "only order 2 differs");
        assert_eq!(t.orders[1].event_id, "evt-1", "a click on order 1 looks for its event");
        let duplicates = SUMMARY.iter().position(|(k, _)| *k == "duplicates").unwrap();
        assert_eq!(t.summary_cell(duplicates, 1), ("2".to_string(), true));
        assert!(!t.summary_cell(SUMMARY.iter().position(|(k, _)| *k == "dlq").unwrap(), 0).1);
    }

    #[test]
    fn a_design_without_an_order_shows_a_dash_and_is_not_a_difference_yet() {
        let fanout = Measures { orders: vec![order(7, [1, 1, 1])], ..Measures::default() };
        let t = Table::of(&[fanout, Measures::default()]);
        assert_eq!(t.order_cell(7, 1), ("—".to_string(), false));
    }

    #[test]
    fn only_differences_that_matter_are_highlighted() {
        let going = OrderRow { in_progress: true, ..order(1, [1, 1, 0]) };
        let fanout = Measures { orders: vec![going], oldest_age_ms: 1_200, in_progress: 1, ..Measures::default() };
        let queue = Measures { orders: vec![order(1, [1, 0, 0])], oldest_age_ms: 300, ..Measures::default() };
        let t = Table::of(&[fanout.clone(), queue.clone()]);
        assert!(!t.order_cell(1, 0).1, "fan-out still holds order 1: not a difference yet");
        let row = |k: &str| SUMMARY.iter().position(|(key, _)| *key == k).unwrap();
        assert!(!t.summary_cell(row("oldest"), 0).1, "900 ms apart is timing");
        assert!(!t.summary_cell(row("in-progress"), 0).1);
        assert_eq!(t.summary_cell(row("in-progress"), 0).0, "1");
        let late = Measures { oldest_age_ms: 25_000, ..fanout };
        assert!(Table::of(&[late, queue]).summary_cell(row("oldest"), 0).1, "25 s against 0.3 s matters");
    }
}
