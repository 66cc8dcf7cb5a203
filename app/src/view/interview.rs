//! The interview walkthrough (`?interview=checkout[&step=n]`): a system-design question in
//! steps — the interviewer's question, the learner's answer (kept in this browser only), the
//! model answer on request, a "try it" run in one of compare mode's designs — then a one-page
//! review, printable and copyable as Markdown. An optional timer keeps time per step.

use super::nav::{use_nav, AppHeader};
use super::{topology::Topology, Ctx};
use crate::interview_state::{mmss, Saved};
use crate::playground::Playground;
use crate::route::Route;
use engine::interview::Interview;
use leptos::prelude::*;

/// The walkthroughs, by id: data files (`interview/<id>.json`), fetched when opened.
const WALKTHROUGHS: &[&str] = &["checkout"];

fn storage_key(id: &str) -> String {
    format!("fanout-interview-{id}")
}

/// The saved work on question `id`, and a one-line notice when storage is blocked or held
/// something that could not be true (see [`Saved::read`]).
fn load_saved(id: &str, steps: usize) -> (Saved, Option<String>) {
    let Some(store) = window().local_storage().ok().flatten() else {
        return (Saved::new(steps), Some("This browser blocks storage: answers last until the page closes.".into()));
    };
    match store.get_item(&storage_key(id)).ok().flatten() {
        Some(text) => Saved::read(&text, steps),
        None => (Saved::new(steps), None),
    }
}

fn save(id: &str, saved: &Saved) {
    if let Some(store) = window().local_storage().ok().flatten() {
        let _ = store.set_item(&storage_key(id), &saved.write());
    }
}

/// The review as Markdown: each question with its follow-ups, the time spent, the learner's
/// answer and the model answer; the time in all at the top.
pub fn markdown(i: &Interview, saved: &Saved) -> String {
    let mut out = format!("# {}\n\nTime in all: {}\n\n", i.title, mmss(saved.total_ms()));
    for (n, s) in i.steps.iter().enumerate() {
        let spent = saved.times.get(n).copied().unwrap_or(0);
        out.push_str(&format!(
            "## {}. {}\n\nTime: {} of {} min\n\n**Question.** {}\n\n",
            n + 1,
            s.title,
            mmss(spent),
            s.minutes,
            s.question
        ));
        out.push_str("**Follow-ups.**\n\n");
        for f in &s.follow_ups {
            out.push_str(&format!("- {f}\n"));
        }
        out.push_str("\n**My answer.**\n\n");
        let a = saved.answers.get(n).map_or("", |a| a.trim());
        out.push_str(if a.is_empty() { "(no answer)" } else { a });
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
fn review(i: &Interview, saved: &Saved) -> impl IntoView {
    i.steps
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let answer = saved.answers.get(n).map_or("", |a| a.trim());
            let answer = if answer.is_empty() { "(no answer)" } else { answer }.to_string();
            let spent = saved.times.get(n).copied().unwrap_or(0);
            view! {
                <article class="review-item">
                    <h3>{format!("{}. {} ", n + 1, s.title)}<span class="hint">{format!("{} of {} min", mmss(spent), s.minutes)}</span></h3>
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

/// The interview walkthrough the address names: built again when its id changes (not its step).
#[component]
pub fn InterviewView() -> impl IntoView {
    let nav = use_nav();
    let id = Memo::new(move |_| {
        nav.route.with(|r| match r {
            Route::Interview { id, .. } => id.clone(),
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

/// The step the page opens at: the address's (1-based, one past the last is the review,
/// clamped), else the saved one, else the first.
fn first_step(address: Option<&str>, saved: Option<usize>, total: usize) -> usize {
    match address.and_then(|s| s.parse::<usize>().ok()) {
        Some(n) => n.clamp(1, total + 1) - 1,
        None => saved.unwrap_or(0).min(total),
    }
}

/// The speed (an index of [`crate::playground::SPEEDS`]) at which a run of `end_ms` plays in
/// about 40 s or less, never below 1×.
fn try_speed(end_ms: u64) -> usize {
    let speeds = crate::playground::SPEEDS;
    (crate::playground::DEFAULT_SPEED..speeds.len())
        .find(|&i| end_ms * 4 / speeds[i].1 <= 40_000)
        .unwrap_or(speeds.len() - 1)
}

/// The page for `?interview=<id>`: the walkthrough `iv`.
#[component]
pub fn InterviewPage(id: String, iv: Interview) -> impl IntoView {
    let nav = use_nav();
    let iv = StoredValue::new(iv);
    let total = iv.with_value(|i| i.steps.len());
    let (saved0, note) = load_saved(&id, total);
    let address = nav.route.with_untracked(|r| match r {
        Route::Interview { step, .. } => step.clone(),
        _ => None,
    });
    let first = first_step(address.as_deref(), saved0.step, total);
    let timing = RwSignal::new(saved0.timing);
    let saved = RwSignal::new(saved0);
    let step = RwSignal::new(first);
    let revealed = RwSignal::new(false);
    let trying = RwSignal::new(None::<Ctx>);
    let key = StoredValue::new(id.clone());
    let persist = move || {
        saved.update_untracked(|s| {
            s.step = Some(step.get_untracked());
            s.timing = timing.get_untracked();
        });
        key.with_value(|k| saved.with_untracked(|s| save(k, s)));
    };
    // The address names the step shown, so that a reload comes back to it.
    let name_step = move |s: usize| {
        let id = key.get_value();
        nav.replace(Route::Interview { id, step: Some((s + 1).to_string()) }, "");
    };
    name_step(first);
    let tick = leptos::prelude::set_interval_with_handle(
        move || {
            let s = step.get_untracked();
            if timing.get_untracked() && s < total {
                saved.update(|v| v.times[s] = (v.times[s] + 1_000).min(crate::interview_state::MAX_STEP_MS));
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
        name_step(to);
        persist();
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
                Ok(mut pg) if step.try_get_untracked() == Some(s) => {
                    // The run plays from its start, at a speed that shows it in under a minute.
                    let speed = try_speed(pg.end().0);
                    pg.seek(engine::SimTime(0));
                    // Made under the page's owner: it goes with the page.
                    let make = || Ctx::new(pg, None);
                    let ctx = match owner.try_get_value().flatten() {
                        Some(o) => o.with(make),
                        None => return,
                    };
                    ctx.speed.set(speed);
                    trying.set(Some(ctx));
                    ctx.playing.set(true);
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
            return view! { <Review iv=iv saved=saved /> }.into_any();
        }
        // Built once per step: the answer box keeps what the learner types (and the caret).
        let typed = saved.with_untracked(|v| v.answers.get(s).cloned().unwrap_or_default());
        let write = move |ev| {
            let v = event_target_value(&ev);
            saved.update(|a| a.answers[s] = v);
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
    // The time on this step against its budget, flagged once past it.
    let spent = move || saved.with(|v| v.times.get(step.get()).copied().unwrap_or(0));
    let budget_ms = move || iv.with_value(|i| i.steps.get(step.get()).map_or(0, |x| u64::from(x.minutes) * 60_000));
    let over = move || step.get() < total && spent() > budget_ms();
    let timer = move || {
        let s = step.get();
        let all = saved.with(Saved::total_ms);
        if s < total {
            format!("Timer: {} of {} min on this step, {} in all", mmss(spent()), budget_ms() / 60_000, mmss(all))
        } else {
            format!("Timer: {} in all", mmss(all))
        }
    };
    let overrun = move || {
        over().then(|| {
            let by = mmss(spent() - budget_ms());
            view! { <strong class="overrun" data-testid="interview-overrun" role="status">{format!("{by} over")}</strong> }
        })
    };
    let set_timing = move |ev| {
        timing.set(event_target_checked(&ev));
        persist();
    };
    view! {
        <div class="shell interview" data-testid="interview">
            <AppHeader>
                <label class="toggle interview-timer" class:over=over data-testid="interview-timer">
                    <input type="checkbox" prop:checked=move || timing.get() on:change=set_timing />
                    <span>{timer}</span>
                    {overrun}
                </label>
            </AppHeader>
            <h2 class="interview-title">{iv.with_value(|i| i.title.clone())}</h2>
            <p class="lede">{iv.with_value(|i| i.summary.clone())}</p>
            {note.map(|n| view! { <p class="hint notice" role="status" data-testid="interview-notice">{n}</p> })}
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

/// The "try it" simulation: the step's design with its run, under its own context, played from
/// its start: the time controls (play, step, the timeline), the diagram, the side effects per
/// job (each job's ledger) and the inspector.
#[component]
fn TryIt(ctx: Ctx, text: String) -> impl IntoView {
    provide_context(ctx);
    super::clock::use_clock(ctx);
    on_cleanup(move || ctx.pause());
    let end = ctx.pg.with_untracked(|p| crate::format::duration(p.end().0));
    view! {
        <div class="interview-try" data-testid="interview-try-run">
            <p class="hint" dir="auto">{text}</p>
            <p class="hint">{format!("The run lasts {end}: play it, step through it, click a node or a message to inspect it.")}</p>
            <super::transport::Transport clock=true />
            <div class="diagram"><Topology /></div>
            <super::queues::Effects />
            <details class="compare-inspector" prop:open=move || ctx.selected.with(Option::is_some)>
                <summary>"Inspector"</summary>
                <super::inspector::Inspector />
            </details>
        </div>
    }
}

/// The review: every step's answer beside the model answer, to print or copy as Markdown.
#[component]
fn Review(iv: StoredValue<Interview>, saved: RwSignal<Saved>) -> impl IntoView {
    let md = move || iv.with_value(|i| saved.with(|s| markdown(i, s)));
    let rows = move || iv.with_value(|i| saved.with(|s| review(i, s)));
    let copied = RwSignal::new(String::new());
    // Copies the Markdown itself, whether or not its box is open.
    let copy = move |_| {
        let text = md();
        leptos::task::spawn_local(async move {
            let said = match super::files::copy(&text).await {
                Ok(()) => "Copied the review as Markdown.".to_string(),
                Err(e) => e,
            };
            copied.try_set(said);
        });
    };
    view! {
        <section class="interview-review" data-testid="interview-review">
            <h2>"Review"</h2>
            <div class="row no-print">
                <button data-testid="interview-print" on:click=|_| { let _ = window().print(); }>"Print"</button>
                <button data-testid="interview-copy" on:click=copy>"Copy as Markdown"</button>
                <span class="hint" role="status" data-testid="interview-copied">{move || copied.get()}</span>
            </div>
            <div>{rows}</div>
            <details class="no-print"><summary>"Markdown"</summary>
                <textarea readonly rows="8" data-testid="interview-markdown" prop:value=md></textarea></details>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKOUT: &str = include_str!("../../../public/interview/checkout.json");

    #[test]
    fn the_markdown_holds_follow_ups_times_and_answers() {
        let i = Interview::parse(CHECKOUT).unwrap();
        let mut s = Saved::new(i.steps.len());
        s.answers[0] = "Call them in turn.".into();
        s.times[0] = 400_000;
        let md = markdown(&i, &s);
        assert!(md.contains("Time in all: 6:40"), "{md}");
        assert!(md.contains("Time: 6:40 of 5 min"));
        assert!(md.contains(&format!("- {}", i.steps[0].follow_ups[0])), "the follow-ups");
        assert!(md.contains("Call them in turn.") && md.contains("(no answer)"));
    }

    #[test]
    fn the_page_opens_at_the_addressed_step_else_the_saved_one() {
        assert_eq!(first_step(Some("3"), Some(5), 7), 2);
        assert_eq!(first_step(Some("99"), None, 7), 7, "past the end: the review");
        assert_eq!(first_step(Some("x"), Some(4), 7), 4);
        assert_eq!(first_step(None, None, 7), 0);
        assert_eq!(first_step(None, Some(9), 7), 7);
    }

    #[test]
    fn a_try_it_plays_in_under_a_minute_at_1x_or_faster() {
        assert_eq!(try_speed(20_000), crate::playground::DEFAULT_SPEED);
        let five_min = try_speed(320_000);
        assert!(320_000 * 4 / crate::playground::SPEEDS[five_min].1 <= 40_000);
    }
}
