//! The interview walkthrough (`?interview=checkout[&step=n]`): a system-design question in
//! steps — the interviewer's question, the learner's answer (kept in this browser only), the
//! model answer on request, a "try it" run in one of compare mode's designs — then a one-page
//! review, printable and copyable as Markdown. An optional timer keeps time per step.

use super::nav::{use_nav, AppHeader};
use super::{esc, topology::Topology, Ctx};
use crate::playground::Playground;
use crate::route::Route;
use engine::interview::Interview;
use leptos::prelude::*;

/// The walkthroughs, as data: (id, file).
const FILES: &[(&str, &str)] = &[("checkout", include_str!("../../../public/interview/checkout.json"))];

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

/// Items as `<li>` markup, each text escaped.
fn list_markup(items: &[String]) -> String {
    items.iter().map(|p| format!("<li dir=\"auto\">{}</li>", esc(p))).collect()
}

/// A step's number, title, question and follow-ups.
fn step_markup(i: &Interview, s: usize) -> String {
    let st = &i.steps[s];
    format!(
        "<h2><span class=\"interview-n\" data-testid=\"interview-step\">{} / {}</span> {}</h2>\
         <blockquote class=\"interview-question\" data-testid=\"interview-question\" dir=\"auto\"><p>{}</p>\
         <ul class=\"follow-ups\">{}</ul></blockquote>",
        s + 1,
        i.steps.len(),
        esc(&st.title),
        esc(&st.question),
        list_markup(&st.follow_ups)
    )
}

/// Every step: the question, the learner's answer beside the model answer, the time spent.
fn review_markup(i: &Interview, answers: &[String], times: &[u64]) -> String {
    let mut out = String::new();
    for (n, s) in i.steps.iter().enumerate() {
        let answer = answers.get(n).map_or("", |a| a.trim());
        let answer = if answer.is_empty() { "(no answer)".to_string() } else { esc(answer) };
        out.push_str(&format!(
            "<article class=\"review-item\"><h3>{}. {} <span class=\"hint\">{}</span></h3><p class=\"hint\" dir=\"auto\">{}</p>\
             <div class=\"review-cols\"><div><h4>Your answer</h4><p class=\"review-answer\" dir=\"auto\">{answer}</p></div>\
             <div><h4>Model answer</h4><ul>{}</ul></div></div></article>",
            n + 1,
            esc(&s.title),
            mmss(times.get(n).copied().unwrap_or(0)),
            esc(&s.question),
            list_markup(&s.model_answer)
        ));
    }
    out
}

/// Copies the review's Markdown (its text box, selected) to the clipboard.
fn copy_markdown() {
    let area = document().query_selector("[data-testid=interview-markdown]").ok().flatten();
    if let Some(t) = area.and_then(|a| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlTextAreaElement>(a).ok()) {
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
    move || view! { <InterviewPage id=id.get() /> }
}

/// The page for `?interview=<id>`.
#[component]
pub fn InterviewPage(id: String) -> impl IntoView {
    let parsed = FILES
        .iter()
        .find(|(i, _)| *i == id)
        .ok_or_else(|| format!("interview: there is no walkthrough \"{id}\" (there is: checkout)"))
        .and_then(|(_, t)| Interview::parse(t).map_err(|e| format!("interview {id}: {e}")));
    let iv = match parsed {
        Ok(i) => StoredValue::new(i),
        Err(e) => return view! { <super::ErrorPanel message=e /> }.into_any(),
    };
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
    let try_it = move || {
        let s = step.get_untracked();
        let built = iv.with_value(|i| {
            let design = &i.steps[s].design;
            let file = super::compare::FILES.iter().find(|(n, _)| n == design).map(|(_, f)| *f).unwrap_or("");
            i.try_scenario(s, file).and_then(|t| Playground::from_scenario(&t))
        });
        match built {
            Ok(pg) => {
                let (pg, playing) = (RwSignal::new(pg), RwSignal::new(false));
                let (snapshot, now, clock, (paced, paced_late)) = super::story_views(pg, playing);
                trying.set(Some(Ctx {
                    pg,
                    snapshot,
                    now,
                    clock,
                    paced,
                    paced_late,
                    playing,
                    speed: RwSignal::new(2),
                    selected: RwSignal::new(None),
                    error: RwSignal::new(None),
                    announce: RwSignal::new(String::new()),
                }))
            }
            Err(e) => leptos::logging::debug_warn!("try it: {e}"),
        }
    };
    // One handler for the page's buttons (each carries a `data-act`).
    let on_click = move |e: web_sys::MouseEvent| {
        let el = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let act =
            el.and_then(|el| el.closest("button[data-act]").ok().flatten()).and_then(|b| b.get_attribute("data-act"));
        let s = step.get_untracked();
        match act.as_deref() {
            Some("reveal") => revealed.update(|r| *r = !*r),
            Some("try") => try_it(),
            Some("back") => go(s.saturating_sub(1)),
            Some("next") if s < total => go(s + 1),
            Some("print") => {
                let _ = window().print();
            }
            Some("copy") => copy_markdown(),
            _ => {}
        }
    };
    let body = move || {
        let s = step.get();
        if s >= total {
            return view! { <Review iv=iv answers=answers times=times /> }.into_any();
        }
        let (head, model) = iv.with_value(|i| (step_markup(i, s), list_markup(&i.steps[s].model_answer)));
        view! {
            <section class="interview-step-card">
                <div inner_html=head></div>
                <label class="field wide"><span>"Your answer (kept in this browser only)"</span>
                    <textarea data-testid="interview-answer" rows="6" dir="auto"
                        prop:value=move || answers.with(|a| a.get(step.get()).cloned().unwrap_or_default())
                        on:input=move |ev| { let v = event_target_value(&ev); answers.update(|a| a[s] = v); persist(); }></textarea></label>
                <div class="row">
                    <button data-testid="interview-reveal" data-act="reveal">
                        {move || if revealed.get() { "Hide the model answer" } else { "Show the model answer" }}</button>
                    <button data-testid="interview-try" data-act="try">"Try it in the simulator"</button>
                </div>
                {move || revealed.get().then(|| view! { <ul class="interview-model" data-testid="interview-model-answer" inner_html=model.clone()></ul> })}
                {move || trying.get().map(|ctx| view! { <TryIt ctx=ctx text=iv.with_value(|i| i.steps[s].try_text.clone()) /> })}
            </section>
        }
        .into_any()
    };
    view! {
        <div class="shell interview" data-testid="interview" on:click=on_click>
            <AppHeader>
                <label class="toggle interview-timer" data-testid="interview-timer">
                    <input type="checkbox" prop:checked=move || timing.get() on:change=move |ev| timing.set(event_target_checked(&ev)) />
                    <span>{move || {
                        let s = step.get();
                        let spent = times.with(|t| t.get(s).copied().unwrap_or(0));
                        let budget = iv.with_value(|i| i.steps.get(s).map_or(0, |x| x.minutes));
                        let all: u64 = times.with(|t| t.iter().sum());
                        if s < total { format!("Timer: {} of {budget} min on this step, {} in all", mmss(spent), mmss(all)) } else { format!("Timer: {} in all", mmss(all)) }
                    }}</span>
                </label>
            </AppHeader>
            <h2 class="interview-title">{iv.with_value(|i| i.title.clone())}</h2>
            <p class="lede">{iv.with_value(|i| i.summary.clone())}</p>
            {note.map(|n| view! { <p class="hint" role="status">{n}</p> })}
            {body}
            <nav class="row interview-nav">
                <button data-testid="interview-back" data-act="back" prop:disabled=move || step.get() == 0>"Back"</button>
                <button class="primary" data-testid="interview-next" prop:disabled=move || { step.get() >= total }
                    data-act="next">{move || if step.get() + 1 == total { "Review" } else { "Next" }}</button>
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

#[component]
fn Review(iv: StoredValue<Interview>, answers: RwSignal<Vec<String>>, times: RwSignal<Vec<u64>>) -> impl IntoView {
    let md = move || iv.with_value(|i| markdown(i, &answers.get()));
    let rows = move || iv.with_value(|i| review_markup(i, &answers.get(), &times.get()));
    view! {
        <section class="interview-review" data-testid="interview-review">
            <h2>"Review"</h2>
            <div class="row no-print">
                <button data-act="print">"Print"</button>
                <button data-testid="interview-copy" data-act="copy">"Copy as Markdown"</button>
            </div>
            <div inner_html=rows></div>
            <details class="no-print"><summary>"Markdown"</summary>
                <textarea readonly rows="8" data-testid="interview-markdown" prop:value=md></textarea></details>
        </section>
    }
}
