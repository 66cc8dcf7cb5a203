//! Asking the interviewer, in a practice run: the step's follow-ups as questions to choose
//! (`interview-ask-<n>`, n the follow-up's number in the step, from 1), a box for a question in
//! the candidate's own words, and the log of what was asked, each answer at the practice
//! clock's time (`interview-asked`). Own words find a follow-up by shared main words
//! ([`engine::interview::InterviewStep::follow_up_for`]); else the interviewer says it is up to
//! the candidate.

use crate::interview_state::{mmss, Asked, Saved, MAX_ASK_CHARS};
use engine::interview::{InterviewStep, UP_TO_YOU};
use leptos::prelude::*;

/// The interviewer's answer to follow-up `f` of `st` (or to none), as the log shows it.
pub fn answer_to(st: &InterviewStep, f: Option<usize>) -> String {
    match f.and_then(|f| st.follow_ups.get(f)) {
        Some(fu) => fu.answer.clone().unwrap_or_else(|| "No answer is written for this one.".into()),
        None => UP_TO_YOU.into(),
    }
}

/// Step `s`'s questions asked as Markdown lines ("- at 3:12: question — answer"), or nothing.
pub fn markdown(st: &InterviewStep, log: &[Asked]) -> String {
    if log.is_empty() {
        return String::new();
    }
    let lines: String = log
        .iter()
        .map(|a| format!("- at {}: {} — {}\n", mmss(a.at), question_of(st, a), answer_to(st, a.follow_up)))
        .collect();
    format!("**Asked the interviewer.**\n\n{lines}\n")
}

/// What the candidate asked: their own words, else the follow-up's question.
pub fn question_of(st: &InterviewStep, a: &Asked) -> String {
    match (a.text.is_empty(), a.follow_up.and_then(|f| st.follow_ups.get(f))) {
        (true, Some(fu)) => fu.question.clone(),
        _ => a.text.clone(),
    }
}

/// The log of step `s`'s questions: "at 3:12", the question, the interviewer's answer.
#[component]
pub fn AskedLog(st: StoredValue<InterviewStep>, s: usize, saved: RwSignal<Saved>) -> impl IntoView {
    // Only a question asked changes it, not the clock's every second.
    let log = Memo::new(move |_| saved.with(|v| v.asked.get(s).cloned().unwrap_or_default()));
    let rows = move || {
        st.with_value(|st| {
            log.get()
                .iter()
                .map(|a| {
                    let (q, said) = (question_of(st, a), answer_to(st, a.follow_up));
                    view! {
                        <li><span class="asked-at">{format!("at {}", mmss(a.at))}</span>" "
                            <span class="asked-q" dir="auto">{q}</span>
                            <p class="asked-a" dir="auto"><span class="hint">"Interviewer: "</span>{said}</p></li>
                    }
                })
                .collect_view()
        })
    };
    let empty = move || log.with(Vec::is_empty);
    view! {
        <div class="asked-log">
            <h3>"Asked"</h3>
            {move || empty().then(|| view! { <p class="hint">"Nothing asked yet."</p> })}
            <ol data-testid="interview-asked" aria-live="polite">{rows}</ol>
        </div>
    }
}

/// Step `s`'s questions to ask and its log; each question is saved at once by `store`.
#[component]
pub fn Ask(st: InterviewStep, s: usize, saved: RwSignal<Saved>, store: Callback<()>) -> impl IntoView {
    let st = StoredValue::new(st);
    let put = move |follow_up: Option<usize>, text: String| {
        saved.update(|v| {
            let at = v.total_ms();
            v.ask(s, Asked { follow_up, text, at });
        });
        store.run(());
    };
    let first_asked = Memo::new(move |_| {
        let n = st.with_value(|st| st.follow_ups.len());
        saved.with(|v| (0..n).map(|f| v.asked_at(s, f)).collect::<Vec<_>>())
    });
    let buttons = st.with_value(|st| {
        st.follow_ups
            .iter()
            .enumerate()
            .map(|(f, fu)| {
                let when = move || first_asked.with(|a| a[f]).map(|t| format!(" (asked at {})", mmss(t)));
                view! {
                    <li><button class="ask" data-testid=format!("interview-ask-{}", f + 1)
                        class:asked=move || when().is_some() on:click=move |_| put(Some(f), String::new())>
                        <span dir="auto">{fu.question.clone()}</span><span class="hint">{when}</span></button></li>
                }
            })
            .collect_view()
    });
    let typed = RwSignal::new(String::new());
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text: String = typed.get_untracked().trim().chars().take(MAX_ASK_CHARS).collect();
        if text.is_empty() {
            return;
        }
        let found = st.with_value(|st| st.follow_up_for(&text));
        put(found, text);
        typed.set(String::new());
    };
    view! {
        <div class="interview-ask" data-testid="interview-ask">
            <h3>"Ask the interviewer"</h3>
            <ul class="ask-list">{buttons}</ul>
            <form class="row ask-own" on:submit=send>
                <label class="field"><span>"Ask something else"</span>
                    <input type="text" data-testid="interview-ask-text" dir="auto" maxlength=MAX_ASK_CHARS.to_string()
                        prop:value=move || typed.get() on:input=move |ev| typed.set(event_target_value(&ev)) /></label>
                <button type="submit" data-testid="interview-ask-send">"Ask"</button>
            </form>
            <AskedLog st=st s=s saved=saved />
        </div>
    }
}
