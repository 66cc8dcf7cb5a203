//! The interview walkthrough (`?interview=checkout[&step=n]`): a system-design question in
//! steps — the interviewer's question and follow-ups (each answer behind a reveal), the
//! learner's answer (kept in this browser only), the model answer on request, a self-check
//! against the step's rubric, a "try it" run in one of compare mode's designs — then a one-page
//! review with the score, printable and copyable as Markdown. An optional timer keeps time per
//! step. A practice run is a new attempt (the one before is kept: [`attempts`]) on one 45-minute
//! clock: the candidate asks the interviewer for the follow-ups' answers ([`ask`]), and the model
//! answers and the rubric wait for the review. The list of questions, with the best score so
//! far, is at the top (and alone at `?interview=`).

use super::nav::{use_nav, AppHeader};
use super::{topology::Topology, Ctx};
use crate::interview_state::{mmss, Saved, PRACTICE_MS};
use crate::playground::Playground;
use crate::route::Route;
use engine::interview::Interview;
use leptos::prelude::*;

mod ask;
mod attempts;
mod check;
mod review;

/// The walkthroughs: (id, title in the list). Each is a data file (`interview/<id>.json`),
/// fetched when opened.
const WALKTHROUGHS: &[(&str, &str)] = &[
    ("checkout", "Checkout fan-out"),
    ("payment-first", "Payment before anything else"),
    ("strict-order", "Strict order per customer"),
    ("notifications", "Notifications at 10 M a day"),
    ("outage", "A dependency outage"),
];

fn storage_key(id: &str) -> String {
    format!("fanout-interview-{id}")
}

/// The saved work on question `id`, and a one-line notice when storage is blocked or held
/// something that could not be true (see [`Saved::read`]).
fn load_saved(id: &str, steps: usize, first: usize) -> (Saved, Option<String>) {
    let fresh = Saved::new(steps).numbered_from(first);
    let Some(store) = window().local_storage().ok().flatten() else {
        return (fresh, Some("This browser blocks storage: answers last until the page closes.".into()));
    };
    match store.get_item(&storage_key(id)).ok().flatten() {
        Some(text) => Saved::read(&text, steps, first),
        None => (fresh, None),
    }
}

fn save(id: &str, saved: &Saved) {
    if let Some(store) = window().local_storage().ok().flatten() {
        let _ = store.set_item(&storage_key(id), &saved.write());
    }
}

/// Items of a list, one `<li>` each.
pub(super) fn items(list: &[String]) -> impl IntoView {
    list.iter().map(|p| view! { <li dir="auto">{p.clone()}</li> }).collect_view()
}

/// Step `s`'s number, title, question and follow-ups, each answer behind its reveal (in a
/// practice run, the follow-ups are asked instead: see [`ask::Ask`]).
fn question(i: &Interview, s: usize, practice: bool) -> impl IntoView {
    let st = &i.steps[s];
    view! {
        <div>
            <h2><span class="interview-n" data-testid="interview-step">{format!("{} / {}", i.number(s), i.number(i.steps.len() - 1))}</span>
                " "{st.title.clone()}</h2>
            <blockquote class="interview-question" data-testid="interview-question" dir="auto">
                <p>{st.question.clone()}</p>
                {(!practice).then(|| view! { <ul class="follow-ups">{check::follow_ups(st, false)}</ul> })}
            </blockquote>
        </div>
    }
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
    if id.is_empty() {
        return view! {
            <div class="shell interview" data-testid="interview">
                <AppHeader>""</AppHeader>
                <main class="interview-main">
                    <h2 class="interview-title">"Interview practice"</h2>
                    <QuestionList current=String::new() />
                </main>
            </div>
        }
        .into_any();
    }
    if !WALKTHROUGHS.iter().any(|(w, _)| *w == id) {
        let ids: Vec<&str> = WALKTHROUGHS.iter().map(|(w, _)| *w).collect();
        let e = format!("interview: there is no walkthrough \"{id}\" (there is: {})", ids.join(", "));
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
fn first_step(address: Option<&str>, saved: Option<usize>, total: usize, first: usize) -> usize {
    match address.and_then(|s| s.parse::<usize>().ok()) {
        Some(n) => n.clamp(first, total + first) - first,
        None => saved.unwrap_or(0).min(total),
    }
}

/// The speed (an index of [`crate::playground::SPEEDS`]) at which a run of `end_ms` plays in
/// about 40 s or less, never below 1×.
fn try_speed(end_ms: u64) -> usize {
    crate::playground::fitting_speed(crate::playground::DEFAULT_SPEED, end_ms, 40_000)
}

/// The best score saved for question `id`, if any.
fn best_of(id: &str) -> Option<u32> {
    let store = window().local_storage().ok().flatten()?;
    let text = store.get_item(&storage_key(id)).ok().flatten()?;
    Saved::read(&text, 0, 1).0.best_so_far()
}

/// The questions, each with the best score so far; `current` is marked, and its score follows
/// `live` (the page's saved work) as the candidate ticks.
#[component]
fn QuestionList(current: String, #[prop(optional)] live: Option<RwSignal<Saved>>) -> impl IntoView {
    let nav = use_nav();
    let rows = WALKTHROUGHS
        .iter()
        .map(|(id, title)| {
            let to = Route::Interview { id: id.to_string(), step: None };
            let href = to.href();
            let follow = move |ev: leptos::ev::MouseEvent| {
                if ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key()) {
                    ev.prevent_default();
                    nav.go(to.clone());
                }
            };
            let here = (*id == current).then_some("page");
            let live = live.filter(|_| here.is_some());
            let stored = best_of(id);
            let best = move || match live.map_or(stored, |l| l.with(Saved::best_so_far)) {
                Some(b) => format!("best {b}%"),
                None => "not scored yet".into(),
            };
            view! {
                <li><a href=href aria-current=here data-testid=format!("interview-question-{id}") on:click=follow>{*title}</a>
                    " "<span class="hint" data-testid=format!("interview-best-{id}")>{best}</span></li>
            }
        })
        .collect_view();
    view! {
        <nav class="interview-questions" aria-label="Questions" data-testid="interview-questions">
            <ul>{rows}</ul>
        </nav>
    }
}

/// An attempt's score in percent, or `None` when nothing was ticked (it was not scored).
fn attempt_score(i: &Interview, s: &Saved) -> Option<u32> {
    s.ticks.iter().flatten().any(|t| *t).then(|| crate::interview_state::percent(&check::scores(i, s))).flatten()
}

/// The page for `?interview=<id>`: the walkthrough `iv`.
#[component]
pub fn InterviewPage(id: String, iv: Interview) -> impl IntoView {
    let nav = use_nav();
    let iv = StoredValue::new(iv);
    let (total, numbered_from) = iv.with_value(|i| (i.steps.len(), i.first));
    let (saved0, note) = load_saved(&id, total, numbered_from);
    let address = nav.route.with_untracked(|r| match r {
        Route::Interview { step, .. } => step.clone(),
        _ => None,
    });
    let first = first_step(address.as_deref(), saved0.step, total, numbered_from);
    let timing = RwSignal::new(saved0.timing);
    let practice = RwSignal::new(saved0.practice);
    let saved = RwSignal::new(saved0);
    let step = RwSignal::new(first);
    let revealed = RwSignal::new(false);
    let checking = RwSignal::new(false);
    let trying = RwSignal::new(None::<Ctx>);
    // Why the simulator could not open (its design file could not be fetched or built).
    let try_failed = RwSignal::new(None::<String>);
    let key = StoredValue::new(id.clone());
    let attempts = RwSignal::new(attempts::load(&id));
    let attempts_said = RwSignal::new(None::<String>);
    let confirming = RwSignal::new(false);
    let store = Callback::new(move |()| key.with_value(|k| saved.with_untracked(|s| save(k, s))));
    let persist = move || {
        saved.update_untracked(|s| {
            s.step = Some(step.get_untracked());
            s.timing = timing.get_untracked();
            s.practice = practice.get_untracked();
        });
        store.run(());
    };
    // The address names the step shown, so that a reload comes back to it.
    let name_step = move |s: usize| {
        let id = key.get_value();
        nav.replace(Route::Interview { id, step: Some((s + numbered_from).to_string()) }, "");
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
        checking.set(false);
        trying.set(None);
        try_failed.set(None);
        // A practice run ends at the review: the clock stops, the answers show.
        if to >= total && practice.get_untracked() {
            practice.set(false);
            timing.set(false);
        }
        name_step(to);
        persist();
    };
    // A practice run: the whole question afresh on one clock, from its first step.
    let begin = move || {
        confirming.set(false);
        saved.update(|s| *s = s.fresh(total));
        practice.set(true);
        timing.set(true);
        go(0);
    };
    // A new attempt replaces the work on the page only once the candidate says so; the work
    // then joins the earlier attempts (unless they cannot be read: the question says so).
    let request = Callback::new(move |()| {
        if saved.with_untracked(Saved::has_work) {
            confirming.set(true);
        } else {
            begin();
        }
    });
    let confirm = Callback::new(move |()| {
        if let Ok(list) = attempts.get_untracked() {
            let score = iv.with_value(|i| saved.with_untracked(|s| attempt_score(i, s)));
            // Its score joins the best, as a finished run's does.
            saved.update_untracked(|s| s.score = score.or(s.score));
            let list = saved.with_untracked(|s| crate::interview_attempts::keep(list, s, score, attempts::now()));
            if let Err(e) = key.with_value(|k| attempts::save(k, &list)) {
                confirming.set(false);
                attempts_said.set(Some(e));
                return;
            }
            attempts.set(Ok(list));
        }
        begin();
    });
    let confirm_text = move || {
        let (ms, score) = iv.with_value(|i| saved.with_untracked(|s| (s.total_ms(), attempt_score(i, s))));
        let score = score.map_or("not scored".into(), |p| format!("score {p}%"));
        format!("{} used, {score}", mmss(ms))
    };
    let start_practice = move |_| request.run(());
    // The step's design, fetched (a data file), with the step's run: the simulation to try.
    let owner = StoredValue::new_local(Owner::current());
    let try_it = move || {
        let s = step.get_untracked();
        let design = iv.with_value(|i| i.steps[s].design.clone());
        try_failed.set(None);
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
                Err(e) => {
                    let _ = try_failed
                        .try_set(Some(format!("The simulator could not open: {e}. Nothing changed; try again.")));
                }
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
            return view! { <review::Review iv=iv saved=saved store=store /> }.into_any();
        }
        let in_practice = practice.get();
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
        let self_check =
            move || checking.get().then(|| view! { <check::SelfCheck iv=iv s=s saved=saved store=store /> });
        let simulation = move || {
            trying.get().map(|ctx| view! { <TryIt ctx=ctx text=iv.with_value(|i| i.steps[s].try_text.clone()) /> })
        };
        // In a practice run the answers wait for the review.
        let reveals = (!in_practice).then(|| {
            view! {
                <button data-testid="interview-reveal" on:click=move |_| revealed.update(|r| *r = !*r)>
                    {move || if revealed.get() { "Hide the model answer" } else { "Show the model answer" }}</button>
                <button data-testid="interview-check" on:click=move |_| checking.update(|c| *c = !*c)>
                    {move || if checking.get() { "Hide the self-check" } else { "Check my answer" }}</button>
            }
        });
        let asking = in_practice.then(|| {
            let st = iv.with_value(|i| i.steps[s].clone());
            view! { <ask::Ask st=st s=s saved=saved store=store /> }
        });
        view! {
            <section class="interview-step-card">
                {iv.with_value(|i| question(i, s, in_practice))}
                {asking}
                <label class="field wide"><span>"Your answer (kept in this browser only)"</span>
                    <textarea data-testid="interview-answer" rows="6" dir="auto" prop:value=typed on:input=write></textarea></label>
                <div class="row">
                    {reveals}
                    <button data-testid="interview-try" on:click=move |_| try_it()>"Try it in the simulator"</button>
                </div>
                <p class="policy-status" role="alert" data-testid="interview-try-error">{move || try_failed.get()}</p>
                {model}
                {self_check}
                {simulation}
            </section>
        }
        .into_any()
    };
    // The time on this step against its budget, flagged once past it; in a practice run, the
    // whole question's time against 45 minutes.
    let spent = move || saved.with(|v| v.times.get(step.get()).copied().unwrap_or(0));
    let budget_ms = move || iv.with_value(|i| i.steps.get(step.get()).map_or(0, |x| u64::from(x.minutes) * 60_000));
    let all = move || saved.with(Saved::total_ms);
    // In a practice run, the whole question's overrun, else this step's; outside one, this
    // step's: (ms over, whether it is the whole question's).
    let over_by = move || {
        let whole = practice.get().then(|| all().checked_sub(PRACTICE_MS).filter(|o| *o > 0)).flatten();
        let this_step = (step.get() < total).then(|| spent().checked_sub(budget_ms()).filter(|o| *o > 0)).flatten();
        whole.map(|o| (o, true)).or(this_step.map(|o| (o, false)))
    };
    let timer = move || {
        let s = step.get();
        if practice.get() {
            format!(
                "Practice: {} of {} min; this step {} of {} min",
                mmss(all()),
                PRACTICE_MS / 60_000,
                mmss(spent()),
                budget_ms() / 60_000
            )
        } else if s < total {
            format!("Timer: {} of {} min on this step, {} in all", mmss(spent()), budget_ms() / 60_000, mmss(all()))
        } else {
            format!("Timer: {} in all", mmss(all()))
        }
    };
    let overrun = move || {
        over_by().map(|(by, whole)| {
            let text = match (practice.get(), whole) {
                (true, true) => format!("{} over the {} min", mmss(by), PRACTICE_MS / 60_000),
                (true, false) => format!("this step {} over", mmss(by)),
                _ => format!("{} over", mmss(by)),
            };
            view! { <strong class="overrun" data-testid="interview-overrun">{text}</strong> }
        })
    };
    let set_timing = move |ev| {
        timing.set(event_target_checked(&ev));
        persist();
    };
    let current = id.clone();
    view! {
        <div class="shell interview" data-testid="interview" class:practice=move || practice.get()>
            <AppHeader>""</AppHeader>
            <main class="interview-main">
            // Sticky under the page's top edge while the step scrolls by.
            <div class="interview-timer" class:over=move || over_by().is_some() data-testid="interview-timer">
                <label class="toggle"><input type="checkbox" prop:checked=move || timing.get() on:change=set_timing />
                    <span>"Clock running"</span></label>
                <span class="clock-read" role="timer" aria-live="off">{timer}</span>
                {overrun}
            </div>
            <QuestionList current=current live=saved />
            <h2 class="interview-title">{iv.with_value(|i| i.title.clone())}</h2>
            <p class="lede">{iv.with_value(|i| i.summary.clone())}</p>
            {note.map(|n| view! { <p class="hint notice" role="status" data-testid="interview-notice">{n}</p> })}
            {move || confirming.get().then(|| view! {
                <attempts::ConfirmNew summary=confirm_text() keeps=attempts.with_untracked(Result::is_ok)
                    yes=confirm no=Callback::new(move |()| confirming.set(false)) />
            })}
            {move || attempts_said.get().map(|e| view! { <p class="hint notice" role="alert">{e}</p> })}
            <p class="row no-print practice-bar">
                {move || if practice.get() {
                    view! { <span class="hint" data-testid="interview-practice-on">"Practice run: one clock for the whole question. Ask the interviewer what you need. The model answers and the rubric wait for the review."</span> }.into_any()
                } else {
                    view! { <button data-testid="interview-practice" on:click=start_practice>"Start a practice run (45 min, answers at the end; this work is kept in Attempts)"</button> }.into_any()
                }}
            </p>
            {body}
            <nav class="row interview-nav">
                <button data-testid="interview-back" prop:disabled=move || step.get() == 0 on:click=back>"Back"</button>
                <button class="primary" data-testid="interview-next" prop:disabled=move || { step.get() >= total } on:click=next>
                    {move || if step.get() + 1 == total { "Review" } else { "Next" }}</button>
            </nav>
            <attempts::Attempts iv=iv id=id.clone() list=attempts request=request />
            </main>
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
    // It opens in view: under the question and the answer box it would play unseen.
    let here = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(el) = here.get() {
            request_animation_frame(move || super::scroll_nearest(&el));
        }
    });
    view! {
        <div class="interview-try" data-testid="interview-try-run" node_ref=here>
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_opens_at_the_addressed_step_else_the_saved_one() {
        assert_eq!(first_step(Some("3"), Some(5), 7, 1), 2);
        assert_eq!(first_step(Some("99"), None, 7, 1), 7, "past the end: the review");
        assert_eq!(first_step(Some("0"), None, 7, 1), 0, "before the first: the first");
        assert_eq!(first_step(Some("x"), Some(4), 7, 1), 4);
        assert_eq!(first_step(None, None, 7, 1), 0);
        assert_eq!(first_step(None, Some(9), 7, 1), 7);
        // A question with a step 0: every number names the step it named before.
        assert_eq!(first_step(Some("3"), None, 8, 0), 3);
        assert_eq!(first_step(Some("0"), None, 8, 0), 0);
        assert_eq!(first_step(Some("8"), None, 8, 0), 8, "the review, at the same address as before");
    }

    #[test]
    fn a_try_it_plays_in_under_a_minute_at_1x_or_faster() {
        assert_eq!(try_speed(20_000), crate::playground::DEFAULT_SPEED);
        let five_min = try_speed(320_000);
        assert!(320_000 * 4 / crate::playground::SPEEDS[five_min].1 <= 40_000);
    }
}
