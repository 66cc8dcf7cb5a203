//! A step's control: the prediction (choices or a number, then the engine's verdict), the live
//! checklist of a checkpoint (hint, "show me", the done message), a run's facts, and the
//! remember screen. Built once per screen from the step; what changes as the step goes on (its
//! phase, the goals, the choice picked) is followed by the parts that show it.

use super::panel::rich;
use super::play::Phase;
use super::use_lessons_ctx;
use engine::lesson::{AnswerMode, Choice, DocLink, GoalStatus, StepKind};
use leptos::prelude::*;

/// What a step's control is built from: the few texts of its kind it shows.
pub enum Control {
    Narration,
    Run,
    /// The question, whether the answer is a number, and the choices (id, label).
    Predict {
        question: String,
        number: bool,
        choices: Vec<(String, String)>,
    },
    Checkpoint {
        hint: String,
        done: String,
        controls: Vec<engine::lesson::Reach>,
    },
    Remember {
        lines: Vec<String>,
        read: Vec<DocLink>,
    },
}

impl Control {
    pub fn of(kind: &StepKind) -> Control {
        match kind {
            StepKind::Narration => Control::Narration,
            StepKind::Run { .. } => Control::Run,
            StepKind::Predict(pr) => Control::Predict {
                question: pr.question.clone(),
                number: pr.answer == AnswerMode::Number,
                choices: pr.choices.iter().map(|c| (c.id.clone(), c.label.clone())).collect(),
            },
            StepKind::Checkpoint(c) => {
                Control::Checkpoint { hint: c.hint.clone(), done: c.done.clone(), controls: c.controls.clone() }
            }
            StepKind::Remember { lines, read } => Control::Remember { lines: lines.clone(), read: read.clone() },
        }
    }

    pub fn view(self) -> AnyView {
        match self {
            Control::Narration => ().into_any(),
            Control::Run => view! { <RunFacts /> }.into_any(),
            Control::Predict { question, number, choices } => {
                view! { <Predict question=question number=number choices=choices /> }.into_any()
            }
            Control::Checkpoint { hint, done, controls } => {
                view! { <Checkpoint hint=hint done=done controls=controls /> }.into_any()
            }
            Control::Remember { lines, read } => view! { <Remember lines=lines read=read /> }.into_any(),
        }
    }
}

/// While the step's run plays on the diagram; a stretch passed over because nothing changed in
/// it is said, with its length.
fn wait() -> impl IntoView {
    let ls = use_lessons_ctx();
    let passed = ls.slice(|p| p.passed_ms);
    let note = move || {
        let ms = passed.get();
        (ms > 0).then(|| format!(" It passed over {} in which nothing changed.", crate::format::duration(ms)))
    };
    view! { <p class="lesson-wait" role="status">"Watch the diagram: the lesson plays it now."{note}</p> }
}

/// What a list of checks shows: each one's label, whether it holds, and the reading it was
/// judged by, in its unit.
fn labels(list: &[GoalStatus]) -> Vec<(String, bool, String)> {
    list.iter()
        .filter(|f| !f.label.is_empty())
        .map(|f| {
            // A goal with nothing to read has not happened yet ("It held a message when it
            // died": no crash yet), which "nothing" would misstate.
            let reading = match &f.value {
                Ok(serde_json::Value::Null) if !f.holds => "not yet".to_string(),
                value => crate::format::reading(value, f.unit),
            };
            (f.label.clone(), f.holds, reading)
        })
        .collect()
}

/// A list of checks, ticked or not: a run or prediction step's facts (`✓`/`✗`), a checkpoint's
/// goals (`✓`/`○`, with the state said for a screen reader). Nothing for an empty list.
fn checks(
    list: &[(String, bool, String)],
    class: &'static str,
    open: &'static str,
    said: bool,
) -> Option<impl IntoView> {
    let items: Vec<_> = list
        .iter()
        .map(|(label, holds, value)| {
            let state = said.then_some(if *holds { " (done)" } else { " (not yet)" });
            view! {
                <li class:held=*holds>
                    <span class="tick" aria-hidden="true">{if *holds { "✓" } else { open }}</span>
                    <span dir="auto">{rich(label)}</span>
                    <span class="reading" dir="auto">{value.clone()}</span>
                    {state.map(|s| view! { <span class="sr-only">{s}</span> })}
                </li>
            }
        })
        .collect();
    (!items.is_empty()).then(|| view! { <ul class=class>{items}</ul> })
}

/// What the run had AWS refuse on purpose, in AWS's words (nothing when it refused nothing).
fn refusals(list: &[String]) -> Option<impl IntoView> {
    (!list.is_empty()).then(|| {
        let items = list.iter().map(|r| view! { <li dir="auto">{r.clone()}</li> }).collect_view();
        view! {
            <div class="refused" data-testid="lesson-refused">
                <p>"Refused, as the step says:"</p>
                <ul>{items}</ul>
            </div>
        }
    })
}

/// A run step: "watch the diagram" while it plays, then its facts.
#[component]
fn RunFacts() -> impl IntoView {
    let ls = use_lessons_ctx();
    let playing = ls.slice(|p| p.phase == Phase::Playing);
    let facts = ls.slice(|p| labels(&p.facts));
    let refused = ls.slice(|p| p.refused.clone());
    move || {
        if playing.get() {
            wait().into_any()
        } else {
            view! {
                {facts.with(|f| checks(f, "lesson-facts", "✗", false))}
                {refused.with(|r| refusals(r))}
            }
            .into_any()
        }
    }
}

/// A prediction: the question, the choices (id, label) or the number field, then Commit, the
/// run, the verdict.
#[component]
fn Predict(question: String, number: bool, choices: Vec<(String, String)>) -> impl IntoView {
    let ls = use_lessons_ctx();
    let phase = ls.slice(|p| p.phase);
    let given = ls.slice(|p| p.given.clone());
    let closed = move || phase.get() != Phase::Asking;
    let input = if number {
        // Built once per screen: the field keeps what the learner types, Enter commits it.
        let value = given.get_untracked().unwrap_or_else(|| ls.typed.get_untracked());
        let enter = move |ev: leptos::ev::KeyboardEvent| {
            if ev.key() == "Enter" {
                ev.prevent_default();
                ls.submit();
            }
        };
        view! {
            <label class="field"><span>"Your answer (a whole number)"</span>
                <input type="number" inputmode="numeric" data-testid="predict-number" prop:value=value disabled=closed
                    on:input=move |ev| ls.type_number(event_target_value(&ev)) on:keydown=enter /></label>
        }
        .into_any()
    } else {
        let choices = choices.iter().enumerate().map(|(i, (id, label))| choice(i + 1, id, label, given, closed));
        let choices = choices.collect_view();
        view! { <div class="choices" role="group" aria-label="Your prediction">{choices}</div> }.into_any()
    };
    let submit = move || {
        // Nothing to commit until a choice is picked or a number typed: said, and disabled.
        let missing = move || {
            if number {
                ls.typed.with(|t| t.trim().is_empty())
            } else {
                ls.picked.with(Option::is_none)
            }
        };
        view! {
            <button class="primary commit" data-testid="predict-submit" disabled=missing on:click=move |_| ls.submit()
                title=move || if !missing() { "" } else if number { "Type a whole number first" } else { "Pick an answer first" }>
                "Commit and run it"
            </button>
        }
    };
    let after = move || match phase.get() {
        Phase::Asking => submit().into_any(),
        Phase::Playing => wait().into_any(),
        _ => view! { <Verdict /> }.into_any(),
    };
    view! {
        <div class="predict">
            <p class="question" dir="auto"><strong>{rich(&question)}</strong></p>
            {input}
            {after}
        </div>
    }
}

/// Choice `k` (1-based: its key), pressed when picked or committed.
fn choice(
    k: usize,
    id: &str,
    label: &str,
    given: Memo<Option<String>>,
    closed: impl Fn() -> bool + Send + Sync + 'static,
) -> impl IntoView {
    let ls = use_lessons_ctx();
    let id = id.to_string();
    let pressed = {
        let id = id.clone();
        move || {
            let is = |g: &Option<String>| g.as_deref() == Some(id.as_str());
            (ls.picked.with(is) || given.with(is)).to_string()
        }
    };
    view! {
        <button class="choice" data-testid=format!("predict-choice-{k}") aria-pressed=pressed disabled=closed
            on:click=move |_| ls.pick(id.clone())>
            <span class="key" aria-hidden="true">{super::keys::choice_letter(k - 1).to_string()}</span><span dir="auto">{rich(label)}</span>
        </button>
    }
}

/// What the engine says after the run: right or not, the right choice and why, the learner's
/// choice and why it was tempting, the reveal and the facts. Built when the run's end is shown;
/// none of it changes after.
#[component]
fn Verdict() -> impl IntoView {
    let ls = use_lessons_ctx();
    ls.play.with_untracked(|p| {
        let p = p.as_ref()?;
        let StepKind::Predict(pr) = &p.session.step().kind else { return None };
        let j = p.judgement()?;
        let value = p.answer.as_ref().map(|a| crate::format::reading(&a.value, a.unit)).unwrap_or_default();
        let line = |label: &'static str, c: &Choice| {
            view! {
                <p><span class="label">{label}</span><em dir="auto">{rich(&c.label)}</em>" — "<span dir="auto">{rich(&c.why)}</span></p>
            }
        };
        let right = j.right.map(|r| line("Right answer: ", r));
        let mine = j.picked.filter(|c| !j.correct && j.right.is_none_or(|r| r.id != c.id)).map(|c| line("Your answer: ", c));
        let reveal = (!pr.reveal.is_empty()).then(|| view! { <p dir="auto">{rich(&pr.reveal)}</p> });
        let class = if j.correct { "predict-result right" } else { "predict-result" };
        let said = if j.correct { "Right." } else { "Not quite." };
        // The answer's start comes into view where it appears: its top at most a little past
        // the middle of the window, so that the page moves no more than it must and the diagram
        // beside it (at 1280 px) stays in view. Not in an embed, which never moves the page
        // around it.
        let result = NodeRef::<leptos::html::Div>::new();
        if !ls.embedded {
            result.on_load(|el| {
                request_animation_frame(move || {
                    let height = window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
                    let over = el.get_bounding_client_rect().top() - height * RESULT_TOP_AT;
                    if over > 0.0 {
                        window().scroll_by_with_x_and_y(0.0, over);
                    }
                })
            });
        }
        Some(view! {
            <div class=class data-testid="predict-result" role="status" node_ref=result>
                <p><strong>{said}</strong>" The run gave "{value}"."</p>
                // Where the diagram is above the panel (a phone), the answer scrolled it away:
                // one press brings it back.
                <p class="see-diagram">
                    <button class="link" data-testid="predict-see-diagram" on:click=|_| see_diagram()>
                        "↑ See the run on the diagram"
                    </button>
                </p>
                {right}
                {mine}
                {reveal}
                {checks(&labels(&p.facts), "lesson-facts", "✗", false)}
                {refusals(&p.refused)}
            </div>
        })
    })
}

/// How far down the window a prediction's result starts, at most, once it appears (a share of
/// the window's height).
const RESULT_TOP_AT: f64 = 0.55;

/// The lesson's diagram at the top of the window.
fn see_diagram() {
    if let Some(el) = document().query_selector(".lesson-stage .diagram").ok().flatten() {
        el.scroll_into_view();
    }
}

/// A checkpoint: its goals, live as the learner acts; then the hint when due and "Show me", or
/// the done message once reached.
#[component]
fn Checkpoint(hint: String, done: String, controls: Vec<engine::lesson::Reach>) -> impl IntoView {
    let ls = use_lessons_ctx();
    let ctx = ls.ctx;
    let goals = Memo::new(move |_| ls.goals.with(|g| g.as_deref().map(labels)));
    let reached = ls.slice(|p| p.reached);
    let playing = ls.slice(|p| p.phase == Phase::Playing);
    let hint_due = Memo::new(move |_| {
        ls.hint.with(|h| {
            ls.play.with(|p| match (h, p) {
                (Some((id, i)), Some(p)) => id == p.id() && *i == p.session.step_index(),
                _ => false,
            })
        })
    });
    let hint = StoredValue::new(hint);
    let shown = ls.slice(|p| p.shown.clone());
    // What "Show me" did, control by control, stays said under the goals.
    let show_me = move || {
        shown.with(|s| {
            (!s.is_empty()).then(|| {
                let items = s.iter().map(|l| view! { <li dir="auto">{l.clone()}</li> }).collect_view();
                view! {
                    <div class="shown-me" data-testid="checkpoint-shown">
                        <p class="label">"Show me did this, with the controls you have:"</p>
                        <ol>{items}</ol>
                    </div>
                }
            })
        })
    };
    let rest = move || {
        if reached.get() {
            view! {
                {show_me}
                <p class="lesson-done" role="status" dir="auto">"✓ "{rich(&done)}</p>
                <p class="lesson-hint" data-testid="checkpoint-stopped">"Time stopped just after the last goal ticked: the next step goes on from here."</p>
            }
            .into_any()
        } else if playing.get() {
            view! { {show_me} {wait()} }.into_any()
        } else {
            let hint = move || {
                hint_due.get().then(|| {
                    view! {
                        <p class="lesson-hint" dir="auto"><span class="label">"Hint: "</span>{hint.with_value(|h| rich(h))}</p>
                    }
                })
            };
            // "Show me" is in the panel's bar (panel.rs), which stays in view.
            view! { {hint} }.into_any()
        }
    };
    // While time stands still the checkpoint says so, and what starts it.
    let paused = move || !reached.get() && !playing.get() && !ctx.playing.get();
    view! {
        // What the step asks for comes first, its controls within reach under the text; then
        // the goals they tick (a long list cannot push an Apply below the panel's fold).
        <div class="checkpoint" data-testid="checkpoint" data-done=move || reached.get().to_string()>
            <super::reach::ReachControls controls=controls />
            <p class="clock-paused" data-testid="checkpoint-paused" hidden=move || !paused()>
                "Time is paused. It starts when you act, or press Play"<span class="keys-only">" (Space)"</span>"."
            </p>
            {move || goals.with(|g| g.as_deref().and_then(|g| checks(g, "goals", "○", true)))}
            {rest}
        </div>
    }
}

/// The last screen: what to remember, what to read next, and the ways on (not in an embed,
/// whose own link opens the lesson page).
#[component]
fn Remember(lines: Vec<String>, read: Vec<DocLink>) -> impl IntoView {
    let ls = use_lessons_ctx();
    let lines = lines.iter().map(|l| view! { <li dir="auto">{rich(l)}</li> }).collect_view();
    let read = read
        .iter()
        .map(|d| {
            view! {
                <li><a href=d.url.clone() target="_blank" rel="noopener noreferrer" dir="auto">{rich(&d.title)}</a></li>
            }
        })
        .collect_view();
    let ways_on = (!ls.embedded).then(|| {
        view! {
            <div class="row">
                <button class="primary" data-testid="lesson-to-overview" on:click=move |_| ls.show_overview()>"All lessons"</button>
                <button data-testid="lesson-to-sandbox" on:click=move |_| ls.open_in_sandbox(None)>"Keep playing in the sandbox"</button>
            </div>
        }
    });
    view! {
        <div class="remember" data-testid="lesson-remember">
            <h3>"What to remember"</h3>
            <ul>{lines}</ul>
            <h3>"Read next"</h3>
            <ul class="read">{read}</ul>
            {ways_on}
        </div>
    }
}
