//! The drill panel beside the diagram: the incident report as the on-call channel has it, the
//! timers (story time since the page, and the learner's own time) and the checks made, the
//! refusal or error of the last command, "Check my fix" and the engine's verdict goal by goal,
//! the hints unlocked, "Give up", and the debrief. What only reads (the report, the verdict, the
//! hints, the debrief) is written as markup through `html!`: drill text enters it escaped, with
//! the lesson format's emphasis and code as `<em>` and `<code>`.

use super::attempt::{describe, Attempt};
use super::progress::clock;
use super::{use_drills, State};
use crate::format::duration;
use crate::html;
use crate::route::Route;
use crate::view::markup::Markup;
use engine::lesson::markup::{spans, Span};
use leptos::prelude::*;

/// Drill text as markup: escaped, with emphasis and code.
pub fn rich(text: &str) -> Markup {
    spans(text)
        .iter()
        .map(|s| match s {
            Span::Text(t) => html!(t),
            Span::Emphasis(t) => html!("<em>", t, "</em>"),
            Span::Code(t) => html!("<code>", t, "</code>"),
        })
        .collect()
}

#[component]
pub fn DrillPanel() -> impl IntoView {
    let d = use_drills();
    let (ctx, st) = (d.ctx, d.state);
    // Story time since the page, the learner's own time, and the checks made.
    let clocks = Memo::new(move |_| {
        let now = ctx.clock.get();
        st.with(|s| {
            let at = s.attempt.as_ref().map_or(engine::SimTime::ZERO, |a| a.drill.page.at);
            let since = match now.ms().checked_sub(at.ms()) {
                Some(ms) => duration(ms),
                None => format!("before the page ({})", duration(at.ms() - now.ms())),
            };
            html!(
                "<div><dt>Story time since you arrived</dt><dd data-testid=\"drill-story-time\">",
                since,
                "</dd></div><div><dt>Your time</dt><dd data-testid=\"drill-timer\" class=\"",
                if s.solved_in.is_some() { "done" } else { "" },
                "\">",
                clock(s.elapsed),
                "</dd></div><div><dt>Checks</dt><dd data-testid=\"drill-attempts\">",
                s.attempt.as_ref().map_or(0, |a| a.checks),
                "</dd></div>"
            )
            .into_string()
        })
    });
    let attempt = move |f: fn(&Attempt) -> bool| move || st.with(|s| s.attempt.as_ref().is_some_and(f));
    let (checking, gave_up, applied) = (attempt(|a| a.checking), attempt(|a| a.gave_up), attempt(|a| a.applied));
    let solved = move || st.with(|s| s.solved_in.is_some());
    // The report, read once per drill; the verdict, the hints and, once passed or given up, the
    // debrief, written again only when they change.
    let markup = move |f: fn(&State) -> Markup| Memo::new(move |_| st.with(f).into_string());
    let head = markup(|s| s.attempt.as_ref().map(report).unwrap_or_default());
    let said = markup(|s| s.attempt.as_ref().map(|a| said(a, s.solved_in.is_some())).unwrap_or_default());
    // A new verdict (or the debrief after giving up) is brought into view: in the panel, which
    // scrolls on a wide screen, and on the page.
    let (panel, said_el) = (NodeRef::<leptos::html::Section>::new(), NodeRef::<leptos::html::Div>::new());
    Effect::new(move |seen: Option<(u64, bool)>| {
        let now = st.with(|s| s.attempt.as_ref().map_or((0, false), |a| (a.checks, a.gave_up)));
        if seen.is_some_and(|s| s != now && now != (0, false)) {
            request_animation_frame(move || {
                if let (Some(p), Some(e)) = (panel.get_untracked(), said_el.get_untracked()) {
                    p.set_scroll_top(e.offset_top() - 12);
                    // Its first line, on the page (a phone's panel does not scroll itself).
                    if let Some(first) = e.first_element_child() {
                        crate::view::scroll_nearest(&first);
                    }
                }
            });
        }
        now
    });
    view! {
        <section class="lesson-panel drill-panel" data-testid="drill-panel" aria-label="Incident drill" node_ref=panel>
            <button class="quiet lesson-exit" data-testid="drill-to-list" on:click=move |_| d.nav.go(Route::Drills)>
                "All drills"</button>
            <div class="drill-head" inner_html=head></div>
            <dl class="drill-clock" inner_html=clocks></dl>
            <p class="error" role="alert" data-testid="error">{move || ctx.error.get()}</p>
            <div class="drill-actions">
                <button class="primary" data-testid="drill-check" disabled=checking on:click=move |_| d.check()>
                    {move || if checking() { "Checking…" } else { "Check my fix" }}
                </button>
                <button class="quiet" data-testid="drill-give-up" hidden=move || gave_up() || solved()
                    on:click=move |_| d.give_up()>"Give up"</button>
                <button data-testid="drill-apply-fix" hidden=move || !gave_up() disabled=applied on:click=move |_| d.apply_recorded()>
                    "Apply the recorded fix"</button>
            </div>
            <div class="drill-said" aria-live="polite" inner_html=said node_ref=said_el></div>
        </section>
    }
}

/// The drill's title, who paged and when, the report, and what to do.
fn report(a: &Attempt) -> Markup {
    let (drill, page) = (&a.drill, &a.drill.page);
    html!(
        "<h2 class=\"lesson-title\" dir=\"auto\">",
        rich(&drill.title),
        "</h2><figure class=\"drill-report\"><figcaption data-testid=\"drill-from\" dir=\"auto\">",
        &page.from,
        " · paged at ",
        page.at.to_string(),
        "</figcaption><blockquote data-testid=\"drill-report\" dir=\"auto\">",
        rich(&page.report),
        "</blockquote></figure><p class=\"lesson-hint\">Change what is wrong with the controls on the page, then check: \
        the engine replays the story with your changes and watches the ",
        duration(drill.window_ms),
        " after them.</p>"
    )
}

/// The engine's verdict (pass, or "not yet" goal by goal with its reading), the hints unlocked,
/// and the debrief once the drill is solved, passed or given up.
fn said(a: &Attempt, solved: bool) -> Markup {
    let mut out = match &a.verdict {
        None => Markup::new(),
        Some(Err(e)) => html!(
            "<p class=\"error\" data-testid=\"drill-verdict\" data-passed=\"false\">Your changes could not be judged: ",
            e,
            "</p>"
        ),
        Some(Ok(v)) => {
            let goals: Markup = v
                .goals
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let why = (!g.holds).then(|| html!("<small dir=\"auto\">", &g.why, "</small>"));
                    html!(
                        "<li class=\"",
                        if g.holds { "held" } else { "" },
                        "\" data-testid=\"drill-goal-",
                        i,
                        "\" data-holds=\"",
                        if g.holds { "true" } else { "false" },
                        "\"><span class=\"tick\" aria-hidden=\"true\">",
                        if g.holds { "✓" } else { "✗" },
                        "</span><span dir=\"auto\">",
                        &g.label,
                        "</span><span class=\"reading\">",
                        &g.shown,
                        "</span>",
                        why,
                        "</li>"
                    )
                })
                .collect();
            html!(
                "<div class=\"drill-verdict",
                if v.passed { " right" } else { "" },
                "\" data-passed=\"",
                if v.passed { "true" } else { "false" },
                "\" data-testid=\"drill-verdict\"><p>",
                if v.passed {
                    "Fixed: in a replay of the story with your changes, every goal held. The diagram still shows what happened before your fix: press Play to watch the queue with it."
                } else {
                    "Not yet. In a replay of the story with your changes, this still fails:"
                },
                "</p><ul class=\"goals\">",
                goals,
                "</ul></div>"
            )
        }
    };
    let hints = a.hints();
    if !hints.is_empty() {
        let items: Markup = hints.iter().map(|h| html!("<li dir=\"auto\">", rich(h), "</li>")).collect();
        let left = a.drill.hints.len() - hints.len();
        html!(into out; "<ol class=\"drill-hints\" data-testid=\"drill-hints\">", items, "</ol>");
        if left > 0 && !solved && !a.passed() {
            html!(into out; "<p class=\"lesson-hint\">", crate::format::count(left as u64, "more hint", "more hints"),
                " after the next check that does not pass.</p>");
        }
    }
    if solved || a.gave_up || a.passed() {
        html!(into out; debrief(a));
    }
    out
}

/// The cause, the AWS rule and its pages, and the learner's fix beside the recorded one.
fn debrief(a: &Attempt) -> Markup {
    let d = &a.drill.debrief;
    let lines = |l: &mut dyn Iterator<Item = String>| -> Markup {
        l.map(|t| html!("<li dir=\"auto\"><code>", t, "</code></li>")).collect()
    };
    let read: Markup = d
        .read
        .iter()
        .map(|l| {
            html!(
                "<li><a href=\"",
                &l.url,
                "\" target=\"_blank\" rel=\"noopener\" dir=\"auto\">",
                &l.title,
                "</a></li>"
            )
        })
        .collect();
    let yours = if a.fix.is_empty() {
        html!("<p>You changed nothing.</p>")
    } else {
        html!("<ul>", lines(&mut a.fix.iter().cloned()), "</ul>")
    };
    let recorded = match &a.recorded {
        Ok(fix) => lines(&mut fix.iter().map(|(action, params)| describe(action, params))),
        Err(e) => html!("<li>", e, "</li>"),
    };
    let also: Markup =
        d.also_right.iter().map(|f| html!("<li dir=\"auto\">", rich(&f.label), " ", rich(&f.why), "</li>")).collect();
    html!(
        "<div class=\"remember drill-debrief\" data-testid=\"drill-debrief\"><h3>What happened</h3><p dir=\"auto\">",
        rich(&d.cause),
        "</p><h3>The rule</h3><p dir=\"auto\">",
        rich(&d.rule),
        "</p><ul>",
        read,
        "</ul><div class=\"drill-fixes\"><div data-testid=\"drill-your-fix\"><h3>Your fix</h3>",
        yours,
        "</div><div data-testid=\"drill-recorded-fix\"><h3>The recorded fix</h3><ul>",
        recorded,
        "</ul></div></div>",
        (!also.is_empty()).then(|| html!("<h3>Also right</h3><ul>", also, "</ul>")),
        "</div>"
    )
}
