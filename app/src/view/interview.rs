//! The interview walkthrough (`?interview=checkout[&step=n]`): a system-design question in
//! steps — the interviewer's question, the learner's answer (kept in this browser only), the
//! model answer on request, a "try it" run in one of compare mode's designs — then a one-page
//! review, printable and copyable as Markdown. An optional timer keeps time per step.

use super::nav::{use_nav, AppHeader};
use super::{topology::Topology, Ctx};
use crate::playground::Playground;
use crate::route::Route;
use engine::interview::Interview;
use leptos::prelude::*;

/// The walkthroughs, as data: (id, file).
/// The walkthroughs, by id: data files (`interview/<id>.json`), fetched when opened.
const WALKTHROUGHS: &[&str] = &["checkout"];

fn storage_key(id: &str) -> String {
    format!("fanout-interview-{id}")
}

/// The saved answers and times per step; nothing (and a note) when storage is blocked or holds
/// something else.
fn load_saved(id: &str, steps: usize) -> (Vec<String>, Vec<u64>, Option<String>) {
    let empty = (vec![String::new(); steps], vec![0; steps]);
    let Some(store) = window().local_storage().ok().flatten() else {
        return (empty.0, empty.1, Some("This browser blocks storage: answers last until the page closes.".into()));
    };
    let Some(text) = store.get_item(&storage_key(id)).ok().flatten() else { return (empty.0, empty.1, None) };
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let list = |k: &str| v.get(k).and_then(|a| a.as_array()).cloned().unwrap_or_default();
    let answers: Vec<String> = list("answers").iter().map(|a| a.as_str().unwrap_or("").to_string()).collect();
    if answers.is_empty() {
        return (empty.0, empty.1, Some("The saved answers could not be read; starting afresh.".into()));
    }
    let mut answers = answers;
    answers.resize(steps, String::new());
    let mut times: Vec<u64> = list("times").iter().map(|t| t.as_u64().unwrap_or(0)).collect();
    times.resize(steps, 0);
    (answers, times, None)
}

fn save(id: &str, answers: &[String], times: &[u64]) {
    if let Some(store) = window().local_storage().ok().flatten() {
        let text = serde_json::json!({"answers": answers, "times": times}).to_string();
        let _ = store.set_item(&storage_key(id), &text);
    }
}

fn mmss(ms: u64) -> String {
    format!("{}:{:02}", ms / 60_000, ms / 1_000 % 60)
}

/// The review as Markdown: each question, the learner's answer, the model answer.
pub fn markdown(i: &Interview, answers: &[String]) -> String {
    let mut out = format!("# {}\n\n", i.title);
    for (n, (s, a)) in i.steps.iter().zip(answers).enumerate() {
        out.push_str(&format!("## {}. {}\n\n**Question.** {}\n\n**My answer.**\n\n", n + 1, s.title, s.question));
        out.push_str(if a.trim().is_empty() { "(no answer)" } else { a.trim() });
        out.push_str("\n\n**Model answer.**\n\n");
        for p in &s.model_answer {
            out.push_str(&format!("- {p}\n"));
        }
        out.push('\n');
    }
    out
}

/// Items of a list, one `<li>` each.
fn items(list: &[String]) -> impl IntoView {
    list.iter().map(|p| view! { <li dir="auto">{p.clone()}</li> }).collect_view()
}

/// Step `s`'s number, title, question and follow-ups.
fn question(i: &Interview, s: usize) -> impl IntoView {
    let st = &i.steps[s];
    view! {
        <div>
            <h2><span class="interview-n" data-testid="interview-step">{format!("{} / {}", s + 1, i.steps.len())}</span>
                " "{st.title.clone()}</h2>
            <blockquote class="interview-question" data-testid="interview-question" dir="auto">
                <p>{st.question.clone()}</p>
                <ul class="follow-ups">{items(&st.follow_ups)}</ul>
            </blockquote>
        </div>
    }
}

/// Every step: the question, the learner's answer beside the model answer, the time spent.
fn review(i: &Interview, answers: &[String], times: &[u64]) -> impl IntoView {
    i.steps
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let answer = answers.get(n).map_or("", |a| a.trim());
            let answer = if answer.is_empty() { "(no answer)" } else { answer }.to_string();
            view! {
                <article class="review-item">
                    <h3>{format!("{}. {} ", n + 1, s.title)}<span class="hint">{mmss(times.get(n).copied().unwrap_or(0))}</span></h3>
                    <p class="hint" dir="auto">{s.question.clone()}</p>
                    <div class="review-cols">
                        <div><h4>"Your answer"</h4><p class="review-answer" dir="auto">{answer}</p></div>
                        <div><h4>"Model answer"</h4><ul>{items(&s.model_answer)}</ul></div>
                    </div>
                </article>
            }
        })
        .collect_view()
}

/// Copies the review's Markdown (its text box, selected) to the clipboard.
fn copy_markdown(area: NodeRef<leptos::html::Textarea>) {
    if let Some(t) = area.get_untracked() {
        t.select();
        let doc: web_sys::HtmlDocument = wasm_bindgen::JsCast::unchecked_into(document());
        let _ = doc.exec_command("copy");
    }
}

/// The interview walkthrough the address names: built again when it changes.
#[component]
pub fn InterviewView() -> impl IntoView {
    let nav = use_nav();
    let id = Memo::new(move |_| {
        nav.route.with(|r| match r {
            Route::Interview { id } => id.clone(),
            _ => String::new(),
        })
    });
    move || view! { <InterviewLoader id=id.get() /> }
}

/// The walkthrough `id`, fetched and checked by the engine, then the page.
#[component]
fn InterviewLoader(id: String) -> impl IntoView {
    if !WALKTHROUGHS.contains(&id.as_str()) {
        let e = format!("interview: there is no walkthrough \"{id}\" (there is: {})", WALKTHROUGHS.join(", "));
        return view! { <super::ErrorPanel message=e /> }.into_any();
    }
    let ready = RwSignal::new(None::<Result<Interview, String>>);
    let i = id.clone();
    leptos::task::spawn_local(async move {
        let parsed = crate::fetch::data(&format!("interview/{i}.json"))
            .await
            .and_then(|t| Interview::parse(&t).map_err(|e| format!("interview {i}: {e}")));
        ready.try_set(Some(parsed));
    });
    (move || match super::stage::take_loaded(ready) {
        None => view! { <div class="boot" role="status">"Loading the walkthrough…"</div> }.into_any(),
        Some(Ok(iv)) => view! { <InterviewPage id=id.clone() iv=iv /> }.into_any(),
        Some(Err(e)) => view! { <super::ErrorPanel message=e /> }.into_any(),
    })
    .into_any()
}

/// The page for `?interview=<id>`: the walkthrough `iv`.
#[component]
pub fn InterviewPage(id: String, iv: Interview) -> impl IntoView {
    let iv = StoredValue::new(iv);
    let total = iv.with_value(|i| i.steps.len());
    let (answers0, times0, note) = load_saved(&id, total);
    let first = super::query_param("step").and_then(|s| s.parse::<usize>().ok()).unwrap_or(1).clamp(1, total) - 1;
    let step = RwSignal::new(first);
    let answers = RwSignal::new(answers0);
    let times = RwSignal::new(times0);
    let revealed = RwSignal::new(false);
    let trying = RwSignal::new(None::<Ctx>);
    let timing = RwSignal::new(false);
    let key = StoredValue::new(id.clone());
    let persist = move || key.with_value(|k| save(k, &answers.get_untracked(), &times.get_untracked()));
    let tick = leptos::prelude::set_interval_with_handle(
        move || {
            let s = step.get_untracked();
            if timing.get_untracked() && s < total {
                times.update(|t| t[s] += 1_000);
                persist();
            }
        },
        std::time::Duration::from_secs(1),
    )
    .ok();
    on_cleanup(move || {
        if let Some(h) = tick {
            h.clear();
        }
    });
    let go = move |to: usize| {
        step.set(to);
        revealed.set(false);
        trying.set(None);
    };
    // The step's design, fetched (a data file), with the step's run: the simulation to try.
    let owner = StoredValue::new_local(Owner::current());
    let try_it = move || {
        let s = step.get_untracked();
        let design = iv.with_value(|i| i.steps[s].design.clone());
        leptos::task::spawn_local(async move {
            let built = match crate::fetch::design(&design).await {
                Ok(file) => iv.with_value(|i| i.try_scenario(s, &file)).and_then(|t| Playground::from_scenario(&t)),
                Err(e) => Err(e),
            };
            match built {
                // Still on that step: the learner may have moved on while it loaded.
                Ok(pg) if step.try_get_untracked() == Some(s) => {
                    // Made under the page's owner: it goes with the page.
                    let make = || Ctx::new(pg, None);
                    let ctx = match owner.try_get_value().flatten() {
                        Some(o) => o.with(make),
                        None => return,
                    };
                    ctx.speed.set(2);
                    trying.set(Some(ctx));
                }
                Ok(_) => {}
                Err(e) => leptos::logging::debug_warn!("try it: {e}"),
            }
        });
    };
    let back = move |_: leptos::ev::MouseEvent| go(step.get_untracked().saturating_sub(1));
    let next = move |_: leptos::ev::MouseEvent| {
        let s = step.get_untracked();
        if s < total {
            go(s + 1)
        }
    };
    let body = move || {
        let s = step.get();
        if s >= total {
            return view! { <Review iv=iv answers=answers times=times /> }.into_any();
        }
        // Built once per step: the answer box keeps what the learner types (and the caret).
        let typed = answers.with_untracked(|a| a.get(s).cloned().unwrap_or_default());
        let write = move |ev| {
            let v = event_target_value(&ev);
            answers.update(|a| a[s] = v);
            persist();
        };
        let model = move || {
            revealed.get().then(|| {
                let model = iv.with_value(|i| items(&i.steps[s].model_answer));
                view! { <ul class="interview-model" data-testid="interview-model-answer">{model}</ul> }
            })
        };
        let simulation = move || {
            trying.get().map(|ctx| view! { <TryIt ctx=ctx text=iv.with_value(|i| i.steps[s].try_text.clone()) /> })
        };
        view! {
            <section class="interview-step-card">
                {iv.with_value(|i| question(i, s))}
                <label class="field wide"><span>"Your answer (kept in this browser only)"</span>
                    <textarea data-testid="interview-answer" rows="6" dir="auto" prop:value=typed on:input=write></textarea></label>
                <div class="row">
                    <button data-testid="interview-reveal" on:click=move |_| revealed.update(|r| *r = !*r)>
                        {move || if revealed.get() { "Hide the model answer" } else { "Show the model answer" }}</button>
                    <button data-testid="interview-try" on:click=move |_| try_it()>"Try it in the simulator"</button>
                </div>
                {model}
                {simulation}
            </section>
        }
        .into_any()
    };
    let timer = move || {
        let s = step.get();
        let spent = times.with(|t| t.get(s).copied().unwrap_or(0));
        let budget = iv.with_value(|i| i.steps.get(s).map_or(0, |x| x.minutes));
        let all: u64 = times.with(|t| t.iter().sum());
        if s < total {
            format!("Timer: {} of {budget} min on this step, {} in all", mmss(spent), mmss(all))
        } else {
            format!("Timer: {} in all", mmss(all))
        }
    };
    view! {
        <div class="shell interview" data-testid="interview">
            <AppHeader>
                <label class="toggle interview-timer" data-testid="interview-timer">
                    <input type="checkbox" prop:checked=move || timing.get() on:change=move |ev| timing.set(event_target_checked(&ev)) />
                    <span>{timer}</span>
                </label>
            </AppHeader>
            <h2 class="interview-title">{iv.with_value(|i| i.title.clone())}</h2>
            <p class="lede">{iv.with_value(|i| i.summary.clone())}</p>
            {note.map(|n| view! { <p class="hint" role="status">{n}</p> })}
            {body}
            <nav class="row interview-nav">
                <button data-testid="interview-back" prop:disabled=move || step.get() == 0 on:click=back>"Back"</button>
                <button class="primary" data-testid="interview-next" prop:disabled=move || { step.get() >= total } on:click=next>
                    {move || if step.get() + 1 == total { "Review" } else { "Next" }}</button>
            </nav>
        </div>
    }
    .into_any()
}

/// The "try it" simulation: the step's design with its run, under its own context.
#[component]
fn TryIt(ctx: Ctx, text: String) -> impl IntoView {
    provide_context(ctx);
    view! {
        <div class="interview-try">
            <p class="hint" dir="auto">{text}</p>
            <p class="hint">{move || format!("The run ends at {}.", ctx.clock.get())}</p>
            <div class="diagram"><Topology /></div>
        </div>
    }
}

/// The review: every step's answer beside the model answer, to print or copy as Markdown.
#[component]
fn Review(iv: StoredValue<Interview>, answers: RwSignal<Vec<String>>, times: RwSignal<Vec<u64>>) -> impl IntoView {
    let area = NodeRef::<leptos::html::Textarea>::new();
    let md = move || iv.with_value(|i| markdown(i, &answers.get()));
    let rows = move || iv.with_value(|i| answers.with(|a| times.with(|t| review(i, a, t))));
    view! {
        <section class="interview-review" data-testid="interview-review">
            <h2>"Review"</h2>
            <div class="row no-print">
                <button on:click=|_| { let _ = window().print(); }>"Print"</button>
                <button data-testid="interview-copy" on:click=move |_| copy_markdown(area)>"Copy as Markdown"</button>
            </div>
            <div>{rows}</div>
            <details class="no-print"><summary>"Markdown"</summary>
                <textarea readonly rows="8" data-testid="interview-markdown" node_ref=area prop:value=md></textarea></details>
        </section>
    }
}
