//! A step's control: the prediction (choices or a number, then the engine's verdict), the live
//! checklist of a checkpoint (hint, "show me", the done message), a run's facts, and the
//! remember screen.

use super::panel::rich;
use super::play::Phase;
use super::use_lessons_ctx;
use engine::lesson::{AnswerMode, Checkpoint, DocLink, GoalStatus, Prediction, StepKind};
use leptos::prelude::*;
use serde_json::Value;

/// The control for a step of this kind, in this phase.
pub fn control(kind: StepKind, phase: Phase) -> AnyView {
    match kind {
        StepKind::Narration => ().into_any(),
        StepKind::Run { .. } => facts_or_wait(phase).into_any(),
        StepKind::Predict(p) => predict(p, phase).into_any(),
        StepKind::Checkpoint(c) => checkpoint(c, phase).into_any(),
        StepKind::Remember { lines, read } => remember(lines, read).into_any(),
    }
}

/// A value the engine read, as a learner reads it.
fn shown(value: &Result<Value, String>) -> String {
    match value {
        Ok(Value::String(s)) => s.clone(),
        Ok(Value::Null) => "nothing".into(),
        Ok(v) => v.to_string(),
        Err(e) => e.clone(),
    }
}

fn wait() -> impl IntoView {
    view! { <p class="lesson-wait" role="status">"Watch the diagram: the lesson plays it now."</p> }
}

/// A run or prediction step's facts, as the engine read them at the end of the run.
fn facts(list: Vec<GoalStatus>) -> impl IntoView {
    let list: Vec<_> = list.into_iter().filter(|f| !f.label.is_empty()).collect();
    (!list.is_empty()).then(|| {
        view! {
            <ul class="lesson-facts">
                {list.into_iter().map(|f| view! {
                    <li class:held=f.holds><span class="tick" aria-hidden="true">{if f.holds { "✓" } else { "✗" }}</span>
                        <span dir="auto">{rich(&f.label)}</span></li>
                }).collect_view()}
            </ul>
        }
    })
}

fn facts_or_wait(phase: Phase) -> impl IntoView {
    let ls = use_lessons_ctx();
    match phase {
        Phase::Playing => wait().into_any(),
        _ => facts(ls.play.with_untracked(|p| p.as_ref().map(|p| p.facts.clone()).unwrap_or_default())).into_any(),
    }
}

fn predict(p: Prediction, phase: Phase) -> impl IntoView {
    let ls = use_lessons_ctx();
    let number = p.answer == AnswerMode::Number;
    let typed = RwSignal::new(String::new());
    let given = ls.play.with_untracked(|pl| pl.as_ref().and_then(|pl| pl.given.clone()));
    let asking = phase == Phase::Asking;
    let submit = move || {
        let answer = if number { Some(typed.get_untracked()) } else { ls.picked.get_untracked() };
        if let Some(a) = answer.filter(|a| !a.trim().is_empty()) {
            ls.commit(a);
        }
    };
    let choices = (!number).then(|| {
        let given = given.clone();
        view! {
            <div class="choices" role="group" aria-label="Your prediction">
                {p.choices.iter().enumerate().map(|(i, c)| {
                    let id = c.id.clone();
                    let (pick, is_given) = (id.clone(), given.as_deref() == Some(id.as_str()));
                    view! {
                        <button class="choice" data-testid=format!("predict-choice-{}", i + 1)
                            aria-pressed=move || (ls.picked.get().as_deref() == Some(id.as_str()) || is_given).to_string()
                            prop:disabled=!asking on:click=move |_| ls.picked.set(Some(pick.clone()))>
                            <span class="key" aria-hidden="true">{i + 1}</span><span dir="auto">{rich(&c.label)}</span>
                        </button>
                    }
                }).collect_view()}
            </div>
        }
    });
    let field = number.then(|| {
        view! {
            <label class="field"><span>"Your answer (a whole number)"</span>
                <input type="number" inputmode="numeric" data-testid="predict-number" prop:disabled=!asking
                    prop:value=given.clone().unwrap_or_default()
                    on:input=move |ev| typed.set(event_target_value(&ev))
                    on:keydown=move |ev| if ev.key() == "Enter" { ev.prevent_default(); submit(); } /></label>
        }
    });
    let can_submit = move || if number { !typed.get().trim().is_empty() } else { ls.picked.get().is_some() };
    view! {
        <div class="predict">
            <p class="question" dir="auto"><strong>{rich(&p.question)}</strong></p>
            {choices}
            {field}
            {match phase {
                Phase::Asking => view! {
                    <button class="primary" data-testid="predict-submit" prop:disabled=move || !can_submit()
                        on:click=move |_| submit()>"Commit and run it"</button>
                }.into_any(),
                Phase::Playing => wait().into_any(),
                _ => verdict(p.clone()).into_any(),
            }}
        </div>
    }
}

/// What the engine says after the run: right or not, the right choice and why, the learner's
/// choice and why it was tempting, the reveal and the facts.
fn verdict(p: Prediction) -> impl IntoView {
    let ls = use_lessons_ctx();
    let (judged, value, fact_list) = ls.play.with_untracked(|pl| {
        let pl = pl.as_ref()?;
        let j = pl.judgement()?;
        let v = pl.answer.as_ref().map(|a| shown(&a.value)).unwrap_or_default();
        Some(((j.correct, j.right.cloned(), j.picked.cloned()), v, pl.facts.clone()))
    })?;
    let (correct, right, picked) = judged;
    let mine = picked.filter(|c| !correct && right.as_ref().is_none_or(|r| r.id != c.id));
    Some(view! {
        <div class="predict-result" class:right=correct data-testid="predict-result" role="status">
            <p><strong>{if correct { "Right." } else { "Not quite." }}</strong>
                {format!(" The engine read {value}.")}</p>
            {right.map(|r| view! { <p><span class="label">"Right answer: "</span><em dir="auto">{rich(&r.label)}</em>" — "<span dir="auto">{rich(&r.why)}</span></p> })}
            {mine.map(|c| view! { <p><span class="label">"Your answer: "</span><em dir="auto">{rich(&c.label)}</em>" — "<span dir="auto">{rich(&c.why)}</span></p> })}
            {(!p.reveal.is_empty()).then(|| view! { <p dir="auto">{rich(&p.reveal)}</p> })}
            {facts(fact_list)}
        </div>
    })
}

fn checkpoint(c: Checkpoint, phase: Phase) -> impl IntoView {
    let ls = use_lessons_ctx();
    let ctx = ls.ctx;
    let goals = move || {
        ctx.snapshot.track();
        ctx.pg.with_untracked(|pg| {
            ls.play.with_untracked(|p| p.as_ref().map(|p| p.session.goals(pg.sim())).unwrap_or_default())
        })
    };
    let reached = ls.play.with_untracked(|p| p.as_ref().is_some_and(|p| p.reached));
    let key = ls.play.with_untracked(|p| p.as_ref().map(|p| (p.id().to_string(), p.session.step_index())));
    let hint_due = move || ls.hint.with(|h| h.is_some() && *h == key);
    let hint = c.hint.clone();
    view! {
        <div class="checkpoint" data-testid="checkpoint" data-done=reached.to_string()>
            <ul class="goals" aria-label="Goals">
                {move || goals().into_iter().map(|g| view! {
                    <li class:held=g.holds><span class="tick" aria-hidden="true">{if g.holds { "✓" } else { "○" }}</span>
                        <span dir="auto">{rich(&g.label)}</span><span class="sr-only">{if g.holds { " (done)" } else { " (not yet)" }}</span></li>
                }).collect_view()}
            </ul>
            {if reached {
                view! { <p class="lesson-done" role="status" dir="auto">"✓ "{rich(&c.done)}</p> }.into_any()
            } else if phase == Phase::Playing {
                wait().into_any()
            } else {
                view! {
                    <Show when=move || hint_due()>
                        <p class="lesson-hint" dir="auto"><span class="label">"Hint: "</span>{rich(&hint)}</p>
                    </Show>
                    <button data-testid="checkpoint-show-me" title="Perform a recorded solution on the diagram"
                        on:click=move |_| ls.show_me()>"Show me"</button>
                }.into_any()
            }}
        </div>
    }
}

fn remember(lines: Vec<String>, read: Vec<DocLink>) -> impl IntoView {
    let ls = use_lessons_ctx();
    view! {
        <div class="remember" data-testid="lesson-remember">
            <h3>"What to remember"</h3>
            <ul>{lines.into_iter().map(|l| view! { <li dir="auto">{rich(&l)}</li> }).collect_view()}</ul>
            <h3>"Read next"</h3>
            <ul class="read">{read.into_iter().map(|d| view! {
                <li><a href=d.url target="_blank" rel="noopener noreferrer" dir="auto">{rich(&d.title)}</a></li>
            }).collect_view()}</ul>
            <div class="row">
                <button class="primary" data-testid="lesson-to-overview" on:click=move |_| ls.show_overview()>"All lessons"</button>
                <button data-testid="lesson-to-sandbox" on:click=move |_| leptos::task::spawn_local(async move { ls.open_in_sandbox(None).await })>"Keep playing in the sandbox"</button>
            </div>
        </div>
    }
}
