//! Every attempt kept: the question before a new attempt replaces the work on the page
//! (`interview-confirm-new`), and the list of earlier attempts (`interview-attempts`, each
//! `interview-attempt-<n>`) with when each ended, the time it used and its score; each can be
//! downloaded as the review's Markdown and deleted (after a second press).

use crate::interview_attempts::{self as kept, Attempt};
use crate::interview_state::mmss;
use engine::interview::Interview;
use leptos::prelude::*;

/// The saved attempts at `id`, or the notice that they could not be read.
pub type Kept = Result<Vec<Attempt>, String>;

fn key(id: &str) -> String {
    format!("fanout-interview-{id}-attempts")
}

/// The attempts saved for question `id` (none when storage is blocked or empty).
pub fn load(id: &str) -> Kept {
    let store = window().local_storage().ok().flatten();
    match store.and_then(|s| s.get_item(&key(id)).ok().flatten()) {
        Some(text) => kept::read(&text),
        None => Ok(Vec::new()),
    }
}

/// Saves the attempts of question `id`; an error says why it could not.
pub fn save(id: &str, list: &[Attempt]) -> Result<(), String> {
    let failed =
        || "The attempt could not be kept: this browser's storage is full or blocked. Nothing changed.".to_string();
    let store = window().local_storage().ok().flatten().ok_or_else(failed)?;
    store.set_item(&key(id), &kept::write(list)).map_err(|_| failed())
}

/// The time now, as an ISO 8601 UTC time.
pub fn now() -> String {
    js_sys::Date::new_0().to_iso_string().as_string().unwrap_or_default()
}

/// "Score 40%", or "not scored" when nothing was ticked.
fn score_text(score: Option<u32>) -> String {
    score.map_or("not scored".into(), |s| format!("score {s}%"))
}

/// The question asked before a new attempt replaces the work on the page: `summary` says what
/// the work is; `keeps` whether it will be kept (not when the saved attempts cannot be read).
#[component]
pub fn ConfirmNew(summary: String, keeps: bool, yes: Callback<()>, no: Callback<()>) -> impl IntoView {
    let first = NodeRef::<leptos::html::Button>::new();
    // Focus moves to the question, so that a keyboard user meets it at once.
    Effect::new(move |_| {
        if let Some(b) = first.get() {
            let _ = b.focus();
        }
    });
    let fate = if keeps {
        "It moves to Attempts, below. The page then starts empty, on a 45-minute clock."
    } else {
        "It cannot be kept: the saved attempts could not be read. The page then starts empty."
    };
    view! {
        <div class="interview-confirm" role="group" aria-labelledby="interview-confirm-q" data-testid="interview-confirm-new">
            <p id="interview-confirm-q"><strong>"Start a new attempt?"</strong>" "{format!("This attempt: {summary}.")}" "{fate}</p>
            <div class="row">
                <button class="primary" node_ref=first data-testid="interview-confirm-yes" on:click=move |_| yes.run(())>"Start the new attempt"</button>
                <button data-testid="interview-confirm-no" on:click=move |_| no.run(())>"Keep working"</button>
            </div>
        </div>
    }
}

/// One earlier attempt's row: when, time used, score; download and delete.
fn row(
    iv: StoredValue<Interview>,
    id: &str,
    a: &Attempt,
    list: RwSignal<Kept>,
    said: RwSignal<String>,
) -> impl IntoView {
    let n = a.n;
    let (steps, first) = iv.with_value(|i| (i.steps.len(), i.first));
    let work = a.saved(steps, first);
    let line = format!("ended {} · {} used · {}", a.when(), mmss(work.total_ms()), score_text(a.score));
    let (id, when) = (id.to_string(), a.when());
    let id2 = StoredValue::new(id.clone());
    let export = move |_| {
        let md = iv.with_value(|i| super::review::markdown(i, &work));
        let text = format!("Attempt {n}, ended {when}\n\n{md}");
        if let Err(e) = crate::view::files::download(&format!("{id}-attempt-{n}.md"), "text/markdown", &text) {
            said.set(e);
        }
    };
    let asking = RwSignal::new(false);
    let delete = move |_| {
        let Ok(now) = list.get_untracked() else { return };
        let rest: Vec<Attempt> = now.into_iter().filter(|a| a.n != n).collect();
        match id2.with_value(|k| save(k, &rest)) {
            Ok(()) => {
                list.set(Ok(rest));
                said.set(format!("Deleted attempt {n}."));
            }
            Err(e) => said.set(e),
        }
    };
    view! {
        <li data-testid=format!("interview-attempt-{n}")>
            <strong>{format!("Attempt {n}")}</strong>" "<span class="hint">{line}</span>
            <span class="row">
                <button data-testid=format!("interview-attempt-export-{n}") on:click=export>"Download as Markdown"</button>
                {move || if asking.get() {
                    view! {
                        <button class="danger" data-testid=format!("interview-attempt-delete-yes-{n}") on:click=delete>{format!("Delete attempt {n}")}</button>
                        <button on:click=move |_| asking.set(false)>"Keep it"</button>
                    }.into_any()
                } else {
                    view! { <button data-testid=format!("interview-attempt-delete-{n}") on:click=move |_| asking.set(true)>"Delete…"</button> }.into_any()
                }}
            </span>
        </li>
    }
}

/// The earlier attempts at question `id`, newest first, and the button for a new one.
#[component]
pub fn Attempts(iv: StoredValue<Interview>, id: String, list: RwSignal<Kept>, request: Callback<()>) -> impl IntoView {
    let said = RwSignal::new(String::new());
    let rows = move || match list.get() {
        Ok(all) if all.is_empty() => {
            view! { <p class="hint">"No earlier attempts yet. Each new attempt keeps the one before here."</p> }
                .into_any()
        }
        Ok(all) => {
            let rows = all.iter().rev().map(|a| row(iv, &id, a, list, said)).collect_view();
            view! { <ol class="attempt-list">{rows}</ol> }.into_any()
        }
        Err(e) => view! { <p class="hint notice" role="status">{e}</p> }.into_any(),
    };
    view! {
        <section class="interview-attempts no-print" data-testid="interview-attempts" aria-labelledby="interview-attempts-h">
            <h2 id="interview-attempts-h">"Attempts"</h2>
            <p><button data-testid="interview-new-attempt" on:click=move |_| request.run(())>"Start a new attempt"</button></p>
            {rows}
            <p class="hint" role="status" data-testid="interview-attempts-said">{move || said.get()}</p>
        </section>
    }
}
