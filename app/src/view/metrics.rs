//! Small charts of the engine's CloudWatch-style metrics per queue: visible, in flight, and the
//! age of the oldest message, with any alarm's threshold drawn on the metric it watches.

use super::use_ctx;
use engine::SimTime;
use leptos::prelude::*;

const W: f64 = 260.0;
const H: f64 = 64.0;

/// One line: its CSS class, its label, and its points.
#[derive(Clone, PartialEq)]
struct Line {
    class: &'static str,
    label: &'static str,
    points: Vec<(SimTime, u64)>,
}

#[component]
pub fn Metrics() -> impl IntoView {
    let ctx = use_ctx();
    let charts = Memo::new(move |_| {
        let s = ctx.snapshot.get();
        ctx.pg.with(|p| {
            let sim = p.history.sim();
            s.queues
                .iter()
                .map(|q| {
                    let lines = vec![
                        Line {
                            class: if q.dead_letter_sources.is_empty() { "visible" } else { "dlq" },
                            label: "visible",
                            points: sim.queue_metric_points("ApproximateNumberOfMessagesVisible", &q.name),
                        },
                        Line {
                            class: "inflight",
                            label: "in flight",
                            points: sim.queue_metric_points("ApproximateNumberOfMessagesNotVisible", &q.name),
                        },
                    ];
                    let age = sim.queue_metric_points("ApproximateAgeOfOldestMessage", &q.name).last().map(|p| p.1);
                    let alarms: Vec<(f64, String, &'static str)> = s
                        .world
                        .alarms
                        .iter()
                        .filter(|a| a.dimension_value.as_deref() == Some(q.name.as_str()))
                        .filter(|a| a.metric_name.contains("NumberOfMessages"))
                        .map(|a| (a.threshold, a.name.clone(), a.state))
                        .collect();
                    (q.name.clone(), lines, age, alarms)
                })
                .filter(|(_, lines, _, _)| lines.iter().any(|l| !l.points.is_empty()))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="metrics" aria-label="Metrics">
            <h2>"Metrics"</h2>
            <Show when=move || charts.with(|c| !c.is_empty())
                fallback=|| view! { <p class="hint">"Datapoints appear once the world has a worker, a function or an alarm: one per period (60 s unless the scenario sets ConfigureMetrics)."</p> }>
                <div class="charts">
                    {move || charts.get().into_iter().map(|(name, lines, age, alarms)| chart(name, lines, age, alarms)).collect_view()}
                </div>
            </Show>
        </section>
    }
}

fn chart(name: String, lines: Vec<Line>, age: Option<u64>, alarms: Vec<(f64, String, &'static str)>) -> impl IntoView {
    let all = lines.iter().flat_map(|l| l.points.iter());
    let (t0, t1) = all.clone().fold((u64::MAX, 0), |(a, b), (t, _)| (a.min(t.ms()), b.max(t.ms())));
    let top = all.map(|(_, v)| *v).chain(alarms.iter().map(|(t, _, _)| t.ceil() as u64 + 1)).max().unwrap_or(1).max(1);
    let x = move |t: SimTime| if t1 > t0 { (t.ms() - t0) as f64 / (t1 - t0) as f64 * W } else { W };
    let y = move |v: f64| H - 4.0 - v / top as f64 * (H - 8.0);
    let paths = lines
        .iter()
        .map(|Line { class, points, .. }| {
            let d: Vec<String> = points.iter().map(|(t, v)| format!("{:.1},{:.1}", x(*t), y(*v as f64))).collect();
            view! { <polyline class=format!("series {class}") points=d.join(" ") /> }
        })
        .collect_view();
    let thresholds = alarms
        .iter()
        .map(|(threshold, alarm, state)| {
            let ty = y(*threshold);
            view! {
                <g class=format!("threshold {}", state.to_lowercase())>
                    <line x1="0" x2=W y1=ty y2=ty />
                    <text x=W - 2.0 y=ty - 3.0 text-anchor="end">{format!("{alarm}: {state}")}</text>
                </g>
            }
        })
        .collect_view();
    let last = |i: usize| lines.get(i).and_then(|l| l.points.last()).map_or(0, |p| p.1);
    view! {
        <figure class="chart" data-testid=format!("metrics-{name}")>
            <figcaption>
                <strong>{name.clone()}</strong>
                <span class="legend visible">{format!("{} {}", lines.first().map_or("", |l| l.label), last(0))}</span>
                <span class="legend inflight">{format!("{} {}", lines.get(1).map_or("", |l| l.label), last(1))}</span>
                {age.map(|a| view! { <span class="legend">{format!("oldest {a} s")}</span> })}
            </figcaption>
            <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=format!("Queue depth of {name} over time")>
                <line class="axis" x1="0" x2=W y1=H - 4.0 y2=H - 4.0 />
                {thresholds}
                {paths}
            </svg>
        </figure>
    }
}
