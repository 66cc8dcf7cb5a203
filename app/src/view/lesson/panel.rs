//! The lesson panel beside the diagram (under it on a phone): the step's narration, its control
//! (`step.rs`), Back, Next and "n / m", and what the composing view adds under them (the app's
//! glossary, `glossary.rs`). Each part follows its own slice of the lesson being
//! played ([`Lessons::slice`]) and is redrawn only when that slice changes: the head, the text and
//! the buttons stay the same elements from step to step, and a step's control is built once per
//! screen, so a choice picked or a number typed stays as the learner left it.

use super::play::{Phase, Play};
use super::{step, use_lessons_ctx};
use engine::lesson::markup::{spans, Span};
use leptos::either::EitherOf3;
use leptos::prelude::*;

/// A lesson text as the page shows it, through the engine's spans (never markup from the
/// file): text, `<em>` for emphasis, `<code>` for code.
pub fn rich(text: &str) -> impl IntoView {
    spans(text)
        .into_iter()
        .map(|s| match s {
            Span::Text(t) => EitherOf3::A(t),
            Span::Emphasis(t) => EitherOf3::B(view! { <em>{t}</em> }),
            Span::Code(t) => EitherOf3::C(view! { <code>{t}</code> }),
        })
        .collect_view()
}

/// A lesson text that changes (the lesson's title, the step's text), redrawn when it does.
fn rich_of(text: Memo<String>) -> impl IntoView {
    move || text.with(|t| rich(t))
}

/// "Watch the diagram", and where the run is in its story, in whole seconds ("12 s of 40 s"):
/// the bar stays in view on a phone, where the clock above the diagram does not.
fn watch(ls: super::Lessons) -> String {
    let now = ls.ctx.now.get().ms();
    let (plan, passed) = ls.play.with(|p| p.as_ref().map_or((None, 0), |p| (p.plan(), p.passed_ms)));
    // In whole seconds ("0 s", "12 s", "1 min 5 s"): a readout that moves with the clock.
    let whole = |ms: u64| if ms < 1_000 { "0 s".to_string() } else { crate::format::duration(ms / 1_000 * 1_000) };
    // A quiet stretch passed over is said here too, as the step's own line says it ("14.9 s"):
    // on a phone this bar is what stays in view.
    let skipped = if passed >= 1_000 {
        format!(" · {} of quiet skipped", crate::format::duration(passed))
    } else {
        String::new()
    };
    match plan {
        Some((from, _, _, until, _)) if until > from => {
            let total = until - from;
            format!("Watch the diagram · {} of {}{skipped}", whole(now.saturating_sub(from).min(total)), whole(total))
        }
        _ => format!("Watch the diagram{skipped}"),
    }
}

/// `children`: what the composing view adds under the panel's buttons (the app's glossary; an
/// embed adds nothing, and so does not carry the glossary's code). `beside`: what it adds beside
/// "Open in the sandbox" (the app's Embed button).
#[component]
pub fn LessonPanel(
    #[prop(optional)] children: Option<Children>,
    #[prop(optional, into)] beside: Option<ViewFnOnce>,
) -> impl IntoView {
    let ls = use_lessons_ctx();
    let title = ls.slice(|p| p.session.lesson().title.clone());
    let position = ls.slice(Play::position);
    let text = ls.slice(|p| p.session.step().text.clone());
    let playing = ls.slice(|p| p.phase == Phase::Playing);
    let can_continue = ls.slice(Play::can_continue);
    let errors = ls.slice(|p| p.errors.join(" · "));
    // A checkpoint not reached yet offers "Show me" in the bar, which never scrolls away.
    let show_me = ls.slice(|p| {
        matches!(p.session.step().kind, engine::lesson::StepKind::Checkpoint(_))
            && !p.reached
            && p.phase != Phase::Playing
    });
    // Why Next is greyed out, said beside it (and read with it).
    let why = ls.slice(|p| match (&p.session.step().kind, p.phase) {
        (_, Phase::Playing) => String::new(),
        _ if p.can_continue() => String::new(),
        _ if p.session.at_end() => "This is the lesson's last screen.".to_string(),
        (engine::lesson::StepKind::Predict(pr), _) if pr.answer == engine::lesson::AnswerMode::Number => {
            "Next opens once you type a number and commit it.".to_string()
        }
        (engine::lesson::StepKind::Predict(_), _) => "Next opens once you pick an answer and commit it.".to_string(),
        (engine::lesson::StepKind::Checkpoint(_), _) => "Next opens once every goal is ticked.".to_string(),
        _ => String::new(),
    });
    // A checkpoint's goals ticked so far, of how many: said in the bar, which stays in view on a
    // phone while the diagram is scrolled to (read on the story as it changes).
    let ctx = ls.ctx;
    let reached = ls.slice(|p| p.reached);
    let ticked = Memo::new(move |_| {
        if reached.get() {
            return None;
        }
        ls.goals.with(|g| {
            let shown = g.as_ref()?.iter().filter(|g| !g.label.is_empty());
            Some(shown.fold((0, 0), |(held, of), g| (held + usize::from(g.holds), of + 1)))
        })
    });
    // On the lesson's last screen the bar leads on: to the next lesson in the list, or (after
    // the last) back to the list. Not in an embed, which plays its one lesson.
    let at_end = ls.slice(|p| p.session.at_end());
    let ends = move || !ls.embedded && at_end.get();
    let next_lesson = Memo::new(move |_| {
        let id = ls.play.with(|p| p.as_ref().map(|p| p.id().to_string()))?;
        ls.index.with(|i| match i {
            Some(Ok(index)) => {
                let k = index.lessons.iter().position(|l| l.id == id)?;
                index.lessons.get(k + 1).map(|l| (l.id.clone(), l.title.clone()))
            }
            _ => None,
        })
    });
    let lead_on = move |_| match next_lesson.get_untracked() {
        Some((id, _)) => ls.open(id, None),
        None => ls.show_overview(),
    };
    // The run's plan in virtual ms, for tests that read its pacing without waiting on the wall
    // clock: where it starts, its last change, where its result shows, where it ends, and the
    // speed at its last change (virtual ms per 4 real ms, as `SPEEDS`).
    let plan = ls.slice(|p| {
        p.plan().map(|(from, last, shown, until, speed)| {
            let last = last.map_or(String::new(), |t| t.to_string());
            format!("{from} {last} {shown} {until} {speed}")
        })
    });
    // A run still playing: Next skips to its end.
    let next = move |_| if playing.get_untracked() { ls.skip() } else { ls.next() };
    // The step's control, built again only when another screen opens.
    let control = move || {
        ls.screen.track();
        let control = ls.play.with_untracked(|p| p.as_ref().map(|p| step::Control::of(&p.session.step().kind)));
        control.map(step::Control::view)
    };
    // An embed has its own link out, to the lesson page, in a new tab.
    let exit = (!ls.embedded).then(|| {
        view! {
            <button class="quiet lesson-exit" data-testid="lesson-exit" title="Open this story, as it is now, in the sandbox"
                on:click=move |_| ls.open_in_sandbox(None)>"Open in the sandbox"</button>
            {beside.map(ViewFnOnce::run)}
        }
    });
    view! {
        <section class="lesson-panel" data-testid="lesson-panel" aria-label="Lesson" data-run=move || plan.get()>
            <header class="lesson-head">
                <h2 class="lesson-title" dir="auto">{rich_of(title)}</h2>
                <span class="lesson-step" data-testid="lesson-step"
                    aria-label=move || { let (n, m) = position.get(); format!("step {n} of {m}") }>
                    {move || { let (n, m) = position.get(); format!("{n} / {m}") }}
                </span>
                {exit}
            </header>
            <div class="lesson-body" aria-live="polite">
                <p class="lesson-text" data-testid="lesson-text" tabindex="-1" dir="auto" data-skip-to node_ref=ls.text_el>
                    {rich_of(text)}
                </p>
                {control}
            </div>
            <p class="error" role="alert">{move || errors.get()}</p>
            <footer class="lesson-nav">
                <button data-testid="lesson-back" title="Back to the previous step (Backspace)"
                    disabled=move || { position.get().0 <= 1 } on:click=move |_| ls.back()>"Back"</button>
                <span class="lesson-keys" id="lesson-next-why" data-testid="lesson-next-why" class:why=move || why.with(|w| !w.is_empty()) class:watch=move || playing.get()>
                    {move || {
                        let why = why.get();
                        if ends() {
                            if let Some((_, title)) = next_lesson.get() {
                                return format!("Up next: {title}");
                            }
                        }
                        match ticked.get() {
                            // Time runs for a checkpoint: how far it is, and the clock, move here.
                            Some((held, of)) if ctx.playing.get() => format!(
                                "{held} of {of} goals ticked · clock {}",
                                match ctx.now.get().ms() {
                                    ms if ms < 1_000 => "0 s".to_string(),
                                    ms => crate::format::duration(ms / 1_000 * 1_000),
                                }
                            ),
                            Some((held, of)) if held > 0 => format!("{held} of {of} goals ticked. {why}"),
                            _ if !why.is_empty() => why,
                            _ if playing.get() => watch(ls),
                            _ => "Enter ⏎ continues".into(),
                        }
                    }}
                </span>
                <Show when=move || show_me.get()>
                    <button data-testid="checkpoint-show-me" title="Perform a recorded solution on the diagram"
                        on:click=move |_| ls.show_me()>"Show me"</button>
                </Show>
                <Show when=ends>
                    <button class="primary" data-testid="lesson-next-lesson" on:click=lead_on
                        title=move || next_lesson.with(|n| n.as_ref().map_or(String::new(), |(_, t)| t.clone()))>
                        {move || if next_lesson.with(Option::is_some) { "Next lesson" } else { "All lessons" }}
                    </button>
                </Show>
                <button class="primary" data-testid="lesson-next" title="Next step (Enter)" node_ref=ls.next_el
                    aria-describedby="lesson-next-why" hidden=ends
                    disabled=move || !playing.get() && !can_continue.get() on:click=next>
                    {move || if playing.get() { "Skip to the end" } else { "Next" }}
                </button>
            </footer>
            {children.map(|c| c())}
        </section>
    }
}
