//! Every attempt kept: the question before a new attempt replaces the work on the page
//! (`interview-confirm-new`), and the list of earlier attempts (`interview-attempts`, each
//! `interview-attempt-<n>`) with when each ended, the time it used and its score; each can be
//! downloaded as the review's Markdown and deleted (after a second press), and two chosen are
//! compared side by side (`interview-attempt-compare-<n>`, `interview-compare`).

use crate::interview_attempts::{self as kept, Attempt};
use crate::interview_state::{mmss, Saved};
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

/// The attempts chosen to compare (at most two, by number).
#[derive(Clone, Copy)]
struct Chosen(RwSignal<Vec<u32>>);

impl Chosen {
    /// Chooses attempt `n` or lets it go; a third choice lets the first go.
    fn set(self, n: u32, on: bool) {
        self.0.update(|c| {
            c.retain(|x| *x != n);
            if on {
                c.push(n);
                if c.len() > 2 {
                    c.remove(0);
                }
            }
        });
    }
}

/// Two attempts side by side: when each ended, its time and score, then per step its time,
/// the questions asked and its answer.
fn compare(iv: StoredValue<Interview>, a: &Attempt, b: &Attempt) -> impl IntoView {
    let (steps, first) = iv.with_value(|i| (i.steps.len(), i.first));
    let (wa, wb) = (a.saved(steps, first), b.saved(steps, first));
    let head = |x: &Attempt, w: &Saved| {
        view! { <div><h4>{format!("Attempt {}", x.n)}</h4>
        <p class="hint">{format!("ended {} · {} used · {}", x.when(), mmss(w.total_ms()), score_text(x.score))}</p></div> }
    };
    let cell = move |w: &Saved, n: usize| {
        let answer = w.answers.get(n).map(|a| a.trim().to_string()).filter(|a| !a.is_empty());
        let asked = w.asked.get(n).map_or(0, Vec::len);
        let time = mmss(w.times.get(n).copied().unwrap_or(0));
        view! { <div><p class="hint">{format!("{time} · {asked} asked")}</p>
        <p class="review-answer" dir="auto">{answer.unwrap_or_else(|| "(no answer)".into())}</p></div> }
    };
    let rows = (0..steps)
        .map(|n| {
            let title = iv.with_value(|i| format!("{}. {}", i.number(n), i.steps[n].title));
            view! { <h4>{title}</h4><div class="review-cols">{cell(&wa, n)}{cell(&wb, n)}</div> }
        })
        .collect_view();
    view! {
        <section class="interview-compare" data-testid="interview-compare" aria-label="Two attempts side by side">
            <div class="review-cols">{head(a, &wa)}{head(b, &wb)}</div>
            {rows}
        </section>
    }
}

/// One earlier attempt's row: when, time used, score; compare, download and delete.
fn row(
    iv: StoredValue<Interview>,
    id: &str,
    a: &Attempt,
    list: RwSignal<Kept>,
    said: RwSignal<String>,
    chosen: Chosen,
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
                <label class="toggle"><input type="checkbox" data-testid=format!("interview-attempt-compare-{n}")
                    prop:checked=move || chosen.0.with(|c| c.contains(&n))
                    on:change=move |ev| chosen.set(n, event_target_checked(&ev)) />"Compare"</label>
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
    let chosen = Chosen(RwSignal::new(Vec::new()));
    let side_by_side = move || {
        let picked = chosen.0.get();
        let all = list.with(|l| l.clone().unwrap_or_default());
        let find = |n: u32| all.iter().find(|a| a.n == n);
        match picked.as_slice() {
            [x, y] => match (find(*x.min(y)), find(*x.max(y))) {
                (Some(a), Some(b)) => Some(compare(iv, a, b).into_any()),
                _ => None,
            },
            [_] if all.len() > 1 => Some(view! { <p class="hint">"Choose one more to compare."</p> }.into_any()),
            _ => None,
        }
    };
    let rows = move || match list.get() {
        Ok(all) if all.is_empty() => {
            view! { <p class="hint">"No earlier attempts yet. Each new attempt keeps the one before here."</p> }
                .into_any()
        }
        Ok(all) => {
            let rows = all.iter().rev().map(|a| row(iv, &id, a, list, said, chosen)).collect_view();
            view! { <ol class="attempt-list">{rows}</ol> }.into_any()
        }
        Err(e) => view! { <p class="hint notice" role="status">{e}</p> }.into_any(),
    };
    view! {
        <section class="interview-attempts no-print" data-testid="interview-attempts" aria-labelledby="interview-attempts-h">
            <h2 id="interview-attempts-h">"Attempts"</h2>
            <p><button data-testid="interview-new-attempt" on:click=move |_| request.run(())>"Start a new attempt"</button></p>
            {rows}
            {side_by_side}
            <p class="hint" role="status" data-testid="interview-attempts-said">{move || said.get()}</p>
        </section>
    }
}
