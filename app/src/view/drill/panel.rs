//! The drill panel beside the diagram: the incident report as the on-call channel has it, the
//! timers (story time since the page, and the learner's own time) and the checks made, the
//! refusal or error of the last command, "Check my fix" and the engine's verdict goal by goal,
//! the hints unlocked, "Give up", and the debrief. Drill text enters the page as text only (the
//! lesson's spans: plain, emphasis, code).

use super::attempt::{describe, Attempt};
use super::progress::clock;
use super::use_drills;
use crate::format::duration;
use crate::route::Route;
use crate::view::lesson::rich;
use engine::drill::Verdict;
use leptos::prelude::*;

#[component]
pub fn DrillPanel() -> impl IntoView {
    let d = use_drills();
    let ctx = d.ctx;
    let a = d.attempt;
    // What is read once per drill: it changes only when another drill opens.
    let page = Memo::new(move |_| {
        a.with(|a| a.as_ref().map(|a| (a.drill.title.clone(), a.drill.page.clone(), a.drill.window_ms)))
    });
    let head = move || {
        page.get().map(|(title, p, window)| {
            view! {
                <header class="lesson-head">
                    <span class="lesson-title" dir="auto">{rich(&title)}</span>
                    <button class="quiet lesson-exit" data-testid="drill-to-list"
                        on:click=move |_| d.nav.go(Route::Drills)>"All drills"</button>
                </header>
                <figure class="drill-page-report">
                    <figcaption data-testid="drill-from" dir="auto">{p.from.clone()}" · paged at "{p.at.to_string()}</figcaption>
                    <blockquote data-testid="drill-report" dir="auto">{rich(&p.report)}</blockquote>
                </figure>
                <p class="lesson-hint">"Change what is wrong with the controls on the page, then check: the engine \
                    replays the story with your changes and watches the next "{duration(window)}"."</p>
            }
        })
    };
    let since = move || {
        let (now, at) = (ctx.clock.get(), page.with(|p| p.as_ref().map_or(engine::SimTime::ZERO, |p| p.1.at)));
        if now < at {
            format!("before the page ({})", duration(at.ms() - now.ms()))
        } else {
            duration(now.ms() - at.ms())
        }
    };
    let checks = Memo::new(move |_| a.with(|a| a.as_ref().map_or(0, |a| a.checks)));
    let checking = Memo::new(move |_| a.with(|a| a.as_ref().is_some_and(|a| a.checking)));
    let gave_up = Memo::new(move |_| a.with(|a| a.as_ref().is_some_and(|a| a.gave_up)));
    let passed = Memo::new(move |_| a.with(|a| a.as_ref().is_some_and(Attempt::passed)));
    view! {
        <section class="lesson-panel drill-panel" data-testid="drill-panel" aria-label="Incident drill">
            {head}
            <dl class="drill-clock">
                <div><dt>"Since the page"</dt><dd data-testid="drill-story-time">{since}</dd></div>
                <div><dt>"Your time"</dt><dd data-testid="drill-timer"
                    class:done=move || d.solved_in.with(Option::is_some)>{move || clock(d.elapsed.get())}</dd></div>
                <div><dt>"Checks"</dt><dd data-testid="drill-attempts">{checks}</dd></div>
            </dl>
            <p class="error" role="alert" data-testid="error">{move || ctx.error.get()}</p>
            <div class="drill-actions">
                <button class="primary" data-testid="drill-check" disabled=checking on:click=move |_| d.check()>
                    {move || if checking.get() { "Checking…" } else { "Check my fix" }}
                </button>
                <button class="quiet" data-testid="drill-give-up" hidden=move || gave_up.get() || d.solved_in.with(Option::is_some)
                    on:click=move |_| d.give_up()>"Give up"</button>
            </div>
            <div aria-live="polite">
                {move || a.with(|a| a.as_ref().and_then(|a| a.verdict.clone())).map(verdict)}
                <Hints />
            </div>
            <Show when=move || passed.get() || gave_up.get() || d.solved_in.with(Option::is_some)><Debrief /></Show>
        </section>
    }
}

/// The engine's verdict: pass, or "not yet" with each goal in words and its deciding reading.
fn verdict(v: Result<Verdict, String>) -> impl IntoView {
    match v {
        Err(e) => view! { <p class="error" data-testid="drill-verdict" data-passed="false">"Your changes could not be judged: "{e}</p> }.into_any(),
        Ok(v) => {
            let lede = if v.passed {
                "Fixed: every goal held while the engine watched."
            } else {
                "Not yet. Here is what still fails:"
            };
            let goals = v.goals.into_iter().enumerate().map(|(i, g)| {
                let why = (!g.holds).then(|| view! { <small>" "{g.why}</small> });
                view! {
                    <li class:held=g.holds data-testid=format!("drill-goal-{i}") data-holds=g.holds.to_string()>
                        <span class="tick" aria-hidden="true">{if g.holds { "✓" } else { "✗" }}</span>
                        <span dir="auto">{g.label}{why}</span>
                        <span class="reading">{g.shown}</span>
                    </li>
                }
            });
            view! {
                <div class="drill-verdict" class:right=v.passed data-testid="drill-verdict" data-passed=v.passed.to_string()>
                    <p>{lede}</p>
                    <ul class="goals">{goals.collect_view()}</ul>
                </div>
            }
            .into_any()
        }
    }
}

/// The hints unlocked so far, one after each check that did not pass.
#[component]
fn Hints() -> impl IntoView {
    let d = use_drills();
    let hints = Memo::new(move |_| {
        d.attempt.with(|a| a.as_ref().map(|a| (a.hints().to_vec(), a.drill.hints.len())).unwrap_or_default())
    });
    move || {
        let (shown, all) = hints.get();
        let left = all - shown.len();
        let more = (left > 0 && !shown.is_empty()).then(|| {
            view! { <p class="lesson-hint">{crate::format::count(left as u64, "more hint", "more hints")}" after the next check that fails."</p> }
        });
        (!shown.is_empty()).then(|| {
            view! {
                <ol class="drill-hints" data-testid="drill-hints">
                    {shown.iter().map(|h| view! { <li dir="auto">{rich(h)}</li> }).collect_view()}
                </ol>
                {more}
            }
        })
    }
}

/// After a pass or giving up: the cause, the AWS rule and its pages, and the learner's fix
/// beside the recorded one (which may be applied, after giving up).
#[component]
fn Debrief() -> impl IntoView {
    let d = use_drills();
    let a = d.attempt.get_untracked()?;
    let debrief = a.drill.debrief.clone();
    let read = debrief.read.into_iter().map(|l| {
        view! { <li><a href=l.url target="_blank" rel="noopener" dir="auto">{l.title}</a></li> }
    });
    let has_also = !debrief.also_right.is_empty();
    let also = debrief.also_right.into_iter().map(|f| view! { <li dir="auto">{rich(&f.label)}" "{rich(&f.why)}</li> });
    let recorded = match &a.recorded {
        Ok(fix) => fix.iter().map(|(action, params)| describe(action, params)).collect(),
        Err(e) => vec![e.clone()],
    };
    let lines = |l: Vec<String>| l.into_iter().map(|t| view! { <li dir="auto"><code>{t}</code></li> }).collect_view();
    let fix = move || d.attempt.with(|a| a.as_ref().map(|a| a.fix.clone()).unwrap_or_default());
    let gave_up = a.gave_up;
    let applied = RwSignal::new(false);
    let apply = move |_| {
        applied.set(true);
        d.apply_recorded();
    };
    Some(view! {
        <section class="remember drill-debrief" data-testid="drill-debrief" aria-label="Debrief">
            <h3>"What happened"</h3>
            <p dir="auto">{rich(&debrief.cause)}</p>
            <h3>"The rule"</h3>
            <p dir="auto">{rich(&debrief.rule)}</p>
            <ul>{read.collect_view()}</ul>
            <div class="drill-fixes">
                <div data-testid="drill-your-fix">
                    <h3>"Your fix"</h3>
                    {move || {
                        let f = fix();
                        if f.is_empty() { view! { <p>"You changed nothing."</p> }.into_any() } else { view! { <ul>{lines(f)}</ul> }.into_any() }
                    }}
                </div>
                <div data-testid="drill-recorded-fix">
                    <h3>"The recorded fix"</h3>
                    <ul>{lines(recorded)}</ul>
                    {gave_up.then(|| view! {
                        <button data-testid="drill-apply-fix" disabled=applied on:click=apply>"Apply it, then check"</button>
                    })}
                </div>
            </div>
            {has_also.then(|| view! { <h3>"Also right"</h3><ul>{also.collect_view()}</ul> })}
        </section>
    })
}
