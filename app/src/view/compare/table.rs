//! The difference table: per order, which jobs ran in each design and how often; per design,
//! checkout latency, availability, half-done orders, duplicates, dead-letter queues and the
//! oldest message. A cell that differs between designs is highlighted; clicking an order's cell
//! selects that order's message (or its latest event) in the design's inspector.

use super::super::{esc, Ctx, Selection};
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

/// The table's body as markup (one string, set at once: the rows change every frame while
/// playing, and a string costs the bundle far less than a view per cell).
fn rows_markup(all: &[(&'static str, Measures)]) -> String {
    let mut out = String::from("<tbody>");
    let summaries: Vec<_> = all.iter().map(|(n, m)| (*n, summary(m))).collect();
    for i in 0..6 {
        let differs = summaries.windows(2).any(|w| w[0].1[i].2 != w[1].1[i].2);
        let (key, label, _) = &summaries[0].1[i];
        out.push_str(&format!("<tr class=\"summary\"><th scope=\"row\">{label}</th>"));
        for (n, s) in &summaries {
            let class = if differs { " class=\"differs\"" } else { "" };
            out.push_str(&format!("<td{class} data-testid=\"compare-summary-{key}-{n}\">{}</td>", esc(&s[i].2)));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody><tbody>");
    let count = all.iter().map(|(_, m)| m.orders.len()).max().unwrap_or(0);
    for i in (count.saturating_sub(ROWS)..count).rev() {
        let texts: Vec<String> = all.iter().map(|(_, m)| m.orders.get(i).map_or("—".into(), |r| r.text())).collect();
        let differs = texts.windows(2).any(|w| w[0] != w[1]);
        let Some(row) = all.iter().find_map(|(_, m)| m.orders.get(i)) else { continue };
        let order = row.order_id;
        out.push_str(&format!("<tr data-testid=\"compare-row-{order}\"><th scope=\"row\">order {order}</th>"));
        for (d, ((n, _), text)) in all.iter().zip(texts).enumerate() {
            let class = if differs { " class=\"differs\"" } else { "" };
            out.push_str(&format!(
                "<td{class} data-testid=\"compare-cell-{order}-{n}\"><button class=\"cell\" data-design=\"{d}\" \
                 data-event=\"{}\" title=\"Show it in this design's inspector\">{}</button></td>",
                esc(&row.event_id),
                esc(&text)
            ));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody>");
    out
}

#[component]
pub fn Difference(designs: Vec<(&'static str, Ctx)>) -> impl IntoView {
    let ctxs: Vec<Ctx> = designs.iter().map(|(_, c)| *c).collect();
    let measured: Vec<(&'static str, Memo<Measures>)> = designs
        .iter()
        .map(|(n, c)| {
            let (pg, snapshot) = (c.pg, c.snapshot);
            // Measured from the event log: anew only when the story changed, not at each frame.
            (
                *n,
                Memo::new(move |_| {
                    snapshot.with(|_| ());
                    pg.with_untracked(|p| measure(p.sim()))
                }),
            )
        })
        .collect();
    let heads: String = designs.iter().map(|(n, _)| format!("<th scope=\"col\">{}</th>", super::label(n))).collect();
    let table = NodeRef::<leptos::html::Table>::new();
    // Rewritten only when the text changes, so a click between two frames lands.
    Effect::new(move |drawn: Option<String>| {
        let all: Vec<_> = measured.iter().map(|(n, m)| (*n, m.get())).collect();
        let markup = format!("<thead><tr><th scope=\"col\"></th>{heads}</tr></thead>{}", rows_markup(&all));
        let Some(t) = table.get() else { return String::new() };
        if drawn.as_ref() != Some(&markup) {
            t.set_inner_html(&markup);
        }
        markup
    });
    let on_click = move |e: web_sys::MouseEvent| {
        let el = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let Some(button) = el.and_then(|el| el.closest("button[data-design]").ok().flatten()) else { return };
        let design = button.get_attribute("data-design").and_then(|d| d.parse::<usize>().ok());
        if let (Some(ctx), Some(id)) = (design.and_then(|d| ctxs.get(d)), button.get_attribute("data-event")) {
            select(*ctx, &id);
        }
    };
    view! {
        <section class="compare-table-wrap" aria-label="Differences between the designs">
            <h2>"What each design did"</h2>
            <p class="hint">"Highlighted: the designs differ. Click an order's cell to see it in that design's inspector."</p>
            <div class="scroll">
                <table class="compare-table" data-testid="compare-table" node_ref=table on:click=on_click></table>
            </div>
        </section>
    }
}
