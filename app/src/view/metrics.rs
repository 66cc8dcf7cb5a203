//! Small charts of the engine's CloudWatch-style metrics per queue: visible, in flight, and the
//! age of the oldest message, with any alarm's threshold drawn on the metric it watches.

// The routes page draws no metrics (see view::Cards).

use super::markup::Markup;
use super::use_ctx;
use crate::html;
use engine::world::AlarmState;
use engine::SimTime;
use leptos::prelude::*;

const W: i64 = 260;
const H: i64 = 64;
/// The height of the age-of-oldest-message strip under each chart.
const AGE_H: i64 = 24;

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
        // The points are sampled by the metrics timer, so they change only with the snapshot;
        // drawn at its pace (`Ctx::shown`).
        ctx.shown(|s| {
            ctx.pg.with_untracked(|p| {
                s.queues
                    .iter()
                    .map(|q| {
                        let lines = vec![
                            Line {
                                class: if q.dead_letter_sources.is_empty() { "visible" } else { "dlq" },
                                label: "visible",
                                points: p.queue_metric_points("ApproximateNumberOfMessagesVisible", &q.name),
                            },
                            Line {
                                class: "inflight",
                                label: "in flight",
                                points: p.queue_metric_points("ApproximateNumberOfMessagesNotVisible", &q.name),
                            },
                        ];
                        let age = p.queue_metric_points("ApproximateAgeOfOldestMessage", &q.name);
                        let alarms: Vec<(f64, String, AlarmState)> = s
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
        })
    });
    // The latest datapoint's moment: the charts lag the queues' counts by up to a minute.
    let latest = move || {
        charts.with(|c| {
            c.iter()
                .flat_map(|(_, lines, age, _)| lines.iter().flat_map(|l| l.points.iter()).chain(age.iter()))
                .map(|p| p.0)
                .max()
        })
    };
    view! {
        <section class="metrics" aria-label="Metrics">
            <h2>"Metrics"</h2>
            <p class="hint" hidden=move || charts.with(|c| !c.is_empty())>"Datapoints appear once the world has a worker, a function or an alarm: one a minute, as SQS sends them to CloudWatch."</p>
            <p class="hint" data-testid="metrics-as-of" hidden=move || charts.with(Vec::is_empty)>
                {move || latest().map(|t| format!(
                    "One datapoint a minute, as SQS sends them to CloudWatch. The latest is from {t}: it can differ from the queues' counts now."
                ))}
            </p>
            // Read-only pictures, redrawn whole when the data changes: written as markup.
            <div class="charts" hidden=move || charts.with(Vec::is_empty) inner_html=move || charts.with(|c| {
                c.iter().map(|(name, lines, age, alarms)| chart(name, lines, age, alarms)).collect::<Markup>().into_string()
            })></div>
        </section>
    }
}

/// A coordinate kept in tenths, written with one decimal (`-3` is `-0.3`): integers only, so
/// no float is formatted anywhere in the view (that would pull core's float printer into the
/// bundle).
fn tenths(t: i64) -> String {
    let sign = if t < 0 { "-" } else { "" };
    format!("{sign}{}.{}", t.unsigned_abs() / 10, t.unsigned_abs() % 10)
}

/// Where a datapoint goes, in tenths: time across `w`, value up `h` (4 px margins) against `top`.
fn coords((t, v): (SimTime, u64), (t0, t1): (u64, u64), top: u64, w: i64, h: i64) -> (i64, i64) {
    let x = if t1 > t0 { ((t.ms() - t0) * w as u64 * 10 / (t1 - t0)) as i64 } else { w * 10 };
    (x, (h - 4) * 10 - (v.min(top) * (h as u64 - 8) * 10 / top) as i64)
}

/// A polyline's points (see [`coords`]).
fn points(line: &[(SimTime, u64)], span: (u64, u64), top: u64, w: i64, h: i64) -> String {
    line.iter()
        .map(|p| {
            let (x, y) = coords(*p, span, top, w, h);
            format!("{},{}", tenths(x), tenths(y))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One queue's chart as SVG markup: visible and in-flight counts with any alarm thresholds, and
/// under it the age of the oldest message. Queue and alarm names enter as text (escaped).
fn chart(name: &str, lines: &[Line], age: &[(SimTime, u64)], alarms: &[(f64, String, AlarmState)]) -> Markup {
    let all = lines.iter().flat_map(|l| l.points.iter()).chain(age.iter());
    let span = all.clone().fold((u64::MAX, 0), |(a, b), (t, _)| (a.min(t.ms()), b.max(t.ms())));
    let top = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .chain(alarms.iter().map(|(t, _, _)| t.ceil() as u64 + 1))
        .max()
        .unwrap_or(1)
        .max(1);
    let last = |i: usize| lines.get(i).and_then(|l| l.points.last()).map_or(0, |p| p.1);
    let label = |i: usize| lines.get(i).map_or("", |l| l.label);
    let mut out = html! {
        "<figure class=\"chart\" data-testid=\"metrics-", name, "\"><figcaption><strong>", name, "</strong>",
        "<span class=\"legend visible\">", label(0), " ", last(0), "</span>", "<span class=\"legend inflight\">",
        label(1), " ", last(1), "</span></figcaption>", "<svg viewBox=\"0 0 ", W, " ", H,
        "\" role=\"img\" aria-label=\"Messages visible and in flight in ", name,
        " over time\"><line class=\"axis\" x1=\"0\" x2=\"", W, "\" y1=\"", H - 4, "\" y2=\"", H - 4, "\"/>"
    };
    // Each alarm's threshold as a line; their names and states are listed under the chart, where
    // two alarms on the same threshold cannot write over each other.
    for (threshold, alarm, state) in alarms {
        let ty = ((H - 4) as f64 * 10.0 - threshold / top as f64 * (H - 8) as f64 * 10.0).round() as i64;
        let y = tenths(ty);
        html!(into out;
            "<g class=\"threshold ", state.as_str().to_ascii_lowercase(), "\"><title>", alarm, ": ", state.as_str(),
            "</title><line x1=\"0\" x2=\"", W, "\" y1=\"", &y, "\" y2=\"", &y, "\"/></g>"
        );
    }
    for Line { class, points: p, .. } in lines {
        html!(into out; "<polyline class=\"series ", *class, "\" points=\"", points(p, span, top, W, H), "\"/>");
        // The newest datapoint as a dot: visible even while a series has a single point.
        if let Some(newest) = p.last() {
            let (x, y) = coords(*newest, span, top, W, H);
            html!(into out; "<circle class=\"dot ", *class, "\" cx=\"", tenths(x), "\" cy=\"", tenths(y), "\" r=\"2.5\"/>");
        }
    }
    out.raw("</svg>");
    if !alarms.is_empty() {
        out.raw("<ul class=\"chart-alarms\">");
        for (threshold, alarm, state) in alarms {
            html!(into out;
                "<li class=\"", state.as_str().to_ascii_lowercase(), "\" data-testid=\"chart-alarm-", alarm, "\"><span>",
                alarm, "</span> ", state.as_str(),  " <small>threshold ", hundredths(*threshold), "</small></li>"
            );
        }
        out.raw("</ul>");
    }
    if let Some((_, newest)) = age.last() {
        let oldest_top = age.iter().map(|p| p.1).max().unwrap_or(1).max(1);
        html!(into out;
            "<div class=\"age\"><span>age of oldest message ", crate::format::duration(newest * 1_000), "</span>",
            "<svg viewBox=\"0 0 ", W, " ", AGE_H, "\" role=\"img\" aria-label=\"Age of the oldest message in ", name,
            ", up to ", crate::format::duration(oldest_top * 1_000), "\"><polyline class=\"series age\" points=\"",
            points(age, span, oldest_top, W, AGE_H), "\"/></svg></div>"
        );
    }
    out.raw("</figure>");
    out
}

/// A threshold as written: up to two decimals, without float formatting (which would bring
/// about 13 KB of code into the bundle): 0 → "0", 2.5 → "2.5", -0.25 → "-0.25".
fn hundredths(x: f64) -> String {
    let c = (x * 100.0).round() as i64;
    let (sign, c) = if c < 0 { ("-", -c) } else { ("", c) };
    match c % 100 {
        0 => format!("{sign}{}", c / 100),
        f if f % 10 == 0 => format!("{sign}{}.{}", c / 100, f / 10),
        f => format!("{sign}{}.{f:02}", c / 100),
    }
}

#[cfg(test)]
mod tests {
    use super::{hundredths, points, tenths};

    #[test]
    fn thresholds_are_written_with_up_to_two_decimals() {
        assert_eq!([0.0, 2.5, -0.25, 500.0, 0.333].map(hundredths), ["0", "2.5", "-0.25", "500", "0.33"]);
    }
    use engine::SimTime;

    #[test]
    fn coordinates_are_written_in_tenths_without_floats() {
        assert_eq!(
            [tenths(0), tenths(7), tenths(125), tenths(-3), tenths(-42)],
            ["0.0", "0.7", "12.5", "-0.3", "-4.2"]
        );
        // Three datapoints over 0..=60 s in a 260 × 64 chart whose top value is 4: time runs
        // left to right, values bottom (y 60) to top (y 4).
        let line = [(SimTime(0), 0), (SimTime(30_000), 2), (SimTime(60_000), 4)];
        assert_eq!(points(&line, (0, 60_000), 4, 260, 64), "0.0,60.0 130.0,32.0 260.0,4.0");
        // A single datapoint sits at the right edge.
        assert_eq!(points(&line[..1], (0, 0), 1, 260, 64), "260.0,60.0");
    }
}
