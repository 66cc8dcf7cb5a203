//! A step's follow-ups, each with its model answer behind a reveal, and the self-check: the
//! rubric's points and red flags as boxes the candidate ticks, with the step's score.

use crate::interview_state::{step_score, Saved};
use engine::interview::{Interview, InterviewStep};
use leptos::prelude::*;

/// Each step's (points earned, points) from the ticks saved; (0, 0) for a step without a rubric.
pub fn scores(i: &Interview, saved: &Saved) -> Vec<(usize, usize)> {
    i.steps
        .iter()
        .enumerate()
        .map(|(n, s)| match &s.rubric {
            Some(r) => step_score(saved.ticks.get(n).map_or(&[][..], Vec::as_slice), r.points.len(), r.red_flags.len()),
            None => (0, 0),
        })
        .collect()
}

/// The follow-up questions; unless `hidden` (a practice run before its end), each model answer
/// behind its own reveal, so the interviewer's answers come one at a time.
pub fn follow_ups(st: &InterviewStep, hidden: bool) -> impl IntoView {
    st.follow_ups
        .iter()
        .map(|f| {
            let answer = f.answer.clone().filter(|_| !hidden).map(|a| {
                view! {
                    <details class="follow-up-answer" data-testid="interview-follow-up">
                        <summary>"Answer"</summary><p dir="auto">{a}</p>
                    </details>
                }
            });
            view! { <li dir="auto">{f.question.clone()}{answer}</li> }
        })
        .collect_view()
}

/// Step `s`'s self-check: tick what the answer covered (the rubric's points), and any red flag
/// it raised; the score follows. Each tick is saved at once by `store`.
#[component]
pub fn SelfCheck(iv: StoredValue<Interview>, s: usize, saved: RwSignal<Saved>, store: Callback<()>) -> impl IntoView {
    let Some(rubric) = iv.with_value(|i| i.steps[s].rubric.clone()) else {
        return view! { <p class="hint">"This step has no rubric."</p> }.into_any();
    };
    let (points, flags) = (rubric.points.len(), rubric.red_flags.len());
    let boxes = move |list: Vec<String>, offset: usize, testid: &'static str| {
        list.into_iter()
            .enumerate()
            .map(|(n, text)| {
                let i = offset + n;
                let on = move || saved.with(|v| v.ticked(s, i));
                let set = move |ev| {
                    let checked = event_target_checked(&ev);
                    saved.update(|v| v.tick(s, i, checked));
                    store.run(());
                };
                view! {
                    <li><label class="check-item"><input type="checkbox" data-testid=format!("{testid}-{n}") prop:checked=on on:change=set />
                        <span dir="auto">{text}</span></label></li>
                }
            })
            .collect_view()
    };
    let score = move || {
        let (got, of) = saved.with(|v| step_score(v.ticks.get(s).map_or(&[][..], Vec::as_slice), points, flags));
        format!("Score: {got} / {of}")
    };
    view! {
        <fieldset class="interview-rubric" data-testid="interview-rubric">
            <legend>"Self-check: tick what your answer covered"</legend>
            <ul class="points">{boxes(rubric.points, 0, "interview-tick")}</ul>
            <p class="hint">"Red flags: tick any your answer raised (each takes a point off)"</p>
            <ul class="red-flags">{boxes(rubric.red_flags, points, "interview-flag")}</ul>
            <p class="score" data-testid="interview-step-score">{score}</p>
        </fieldset>
    }
    .into_any()
}
