//! The lessons (`lesson.html`, `?lesson=<id>&step=<n>`; one of the app's views): the lesson
//! overview, the lesson panel beside the diagram, saved progress. The engine's lesson player
//! ([`engine::lesson::Session`], held with the page's phase in [`play::Play`]) decides answers
//! and goals; the lesson's story is the view's one `Playground`, drawn by the sandbox's own
//! diagram, cards and controls, so every control a checkpoint asks for works as in the sandbox.
//! A lesson's story opens in the sandbox as a share link would (its inputs, replayed there).
//! The panel and the overview are components whose handlers call [`Lessons`]' methods.
//!
//! Files: `play.rs` (the player, signal-free), `progress.rs` (`localStorage`), `fetch.rs`
//! (lesson files and the address), `keys.rs` (the keyboard), `panel.rs` and `step.rs` (the
//! panel), `overview.rs` (the list).

mod fetch;
mod glossary;
mod keys;
mod overview;
mod panel;
mod play;
mod progress;
mod reach;
mod run;
mod step;

pub use overview::Notice;
pub use panel::LessonPanel;
pub use play::Play;

use super::app::{use_kept, Kept};
use super::embed_this::{EmbedOf, EmbedThis};
use super::nav::{use_nav, AppHeader, Nav};
use super::{inspector, log, transport, Ctx};
use crate::playground::Playground;
use crate::route::{Route, View};
use engine::lesson::LessonIndex;
use leptos::html;
use leptos::prelude::*;
use play::Phase;
use progress::Progress;

/// The lessons' context.
#[derive(Clone, Copy)]
pub struct Lessons {
    /// Whether the overview is shown (no lesson is open, or the learner went back to the list).
    pub overview: RwSignal<bool>,
    /// The lesson list with its path and glossary, once fetched (or why it could not be).
    pub index: RwSignal<Option<Result<LessonIndex, String>>>,
    /// The lesson being played.
    pub play: RwSignal<Option<Play>>,
    pub progress: RwSignal<Progress>,
    /// One line: a discarded saved state, a bad link, a lesson that could not be loaded.
    pub notice: RwSignal<Option<String>>,
    /// The choice picked (not yet committed) in the current prediction.
    pub picked: RwSignal<Option<String>>,
    /// The number typed (not yet committed) in the current prediction.
    pub typed: RwSignal<String>,
    /// The step (lesson id, index) whose hint is due.
    pub hint: RwSignal<Option<(String, usize)>>,
    /// Moves when another screen opens (the next step, one restored by Back, a lesson opened):
    /// the step's control is built anew for it.
    screen: RwSignal<u32>,
    /// The panel's text and its Next button: where the focus goes as a step opens, and once
    /// the learner may go on.
    text_el: NodeRef<html::P>,
    next_el: NodeRef<html::Button>,
    /// Earlier steps as the learner left them: what Back restores.
    trail: StoredValue<Vec<(Playground, Play)>>,
    /// In an embed (issue 15): nothing saved, the page's address left alone, no focus taken
    /// while the frame does not have it, no "Open in the sandbox" (the embed has its own link).
    pub embedded: bool,
    /// In the app (not an embed): the address to keep, and the sandbox to open a story in.
    app: Option<(Kept, Nav)>,
    /// Reads the lesson list: set in the app only (see [`Lessons::load_index`]).
    index_loader: Option<fn(Lessons)>,
    /// A checkpoint's goals on the story as it changes (not at every frame of the clock): read
    /// by its checklist and by the panel's bar, worked out once.
    pub goals: Memo<Option<Vec<engine::lesson::GoalStatus>>>,
    ctx: Ctx,
}

/// The lessons' view: the overview, or a lesson on the stage with its panel. The lessons'
/// state is the app's (`Kept`): a lesson left for the sandbox is where the learner left it.
#[component]
pub fn LessonView() -> impl IntoView {
    let (kept, nav) = (use_kept(), use_nav());
    let ls = match kept.lessons.get_untracked() {
        Some(ls) => ls,
        None => {
            let ls = kept.under_app(|| Lessons::for_app(kept, nav));
            kept.lessons.set(Some(ls));
            ls
        }
    };
    let ctx = ls.ctx;
    super::stage::use_story(ctx);
    provide_context(ls);
    inspector::load_fidelity();
    keys::use_lesson_keys(ls);
    // The address says which lesson and step, or the overview.
    Effect::new(move |_| nav.route.with(|r| ls.follow(r)));
    let loading = move || !ls.overview.get() && !ls.active();
    // Embed: a snippet of the step shown, for a documentation page.
    let embed_step = move |()| {
        ls.play.with_untracked(|p| {
            p.as_ref().map(|p| EmbedOf::Lesson {
                id: p.id().to_string(),
                step: p.position().0,
                title: p.title().to_string(),
            })
        })
    };
    view! {
        <div class="shell lesson-page">
            <AppHeader>
                <overview::LessonsButton />

            </AppHeader>
            <overview::Overview />
            <div class="boot" role="status" hidden=move || !loading()>"Loading the lesson…"</div>
            <div class="lesson-stage" hidden=move || !ls.active() || ls.overview.get()>
                <transport::Transport clock=true />
                <main class="stage lesson-on">
                    <super::stage::MainCol lesson=true />
                    <aside class="side-col">
                        <panel::LessonPanel beside=move || view! { <span class="lesson-embed"><EmbedThis of=embed_step /></span> }>
                            <glossary::Glossary />
                        </panel::LessonPanel>
                        <inspector::Inspector />
                        <log::EventLog />
                    </aside>
                </main>
            </div>
            <p class="sr-only" role="status" aria-live="polite">{move || ctx.announce.get()}</p>
        </div>
    }
}

/// Fetches lesson `id` for an embed and opens it at `step` (1-based; the first when `None`).
pub async fn open_for_embed(id: &str, step: Option<u32>) -> Result<(Playground, Play), String> {
    let (lesson, source) = match fetch::lesson(id).await {
        Ok(found) => found,
        // An id the lesson list does not have is named, with the ones nearest to it.
        Err(e) => match fetch::index().await {
            Ok(index) if !index.lessons.iter().any(|l| l.id == id) => {
                let near = crate::nearest::closest_said(id, index.lessons.iter().map(|l| l.id.as_str()));
                return Err(format!("There is no lesson \"{id}\"{near}."));
            }
            _ => return Err(format!("The lesson could not be loaded: {e}")),
        },
    };
    let index = fetch::step_index(step.map(|n| n.to_string()).as_deref(), lesson.steps.len(), id)?;
    Play::open(lesson, source, index).map_err(|e| format!("The lesson \"{id}\" could not start: {e}"))
}

/// The name and description of a lesson's story taken to the sandbox: where it came from and
/// that nothing there is graded. `at`: the step the learner left it at, and the lesson's steps.
fn taken_to_sandbox(title: &str, at: Option<(usize, usize)>) -> (String, String) {
    let when = match at {
        Some((n, total)) if n < total => format!("as you left it at step {n} of {total}"),
        _ => "as its last step leaves it".to_string(),
    };
    let said = format!(
        "The story of the lesson \u{201c}{title}\u{201d}, {when}. Nothing here is graded: publish, add or crash workers, change any setting."
    );
    // The menu is narrow: the title's first part ("The visibility timeout"), then "(lesson)".
    let short = title.split(':').next().unwrap_or(title).trim();
    (format!("{short} (lesson)"), said)
}

/// A lesson in an embed, on the embed's stage (`ctx`): its player, its keys, its story.
pub fn use_embedded(ctx: Ctx, pg: Playground, play: Play) -> Lessons {
    let ls = Lessons::new(ctx, Progress::default(), None, false, None);
    provide_context(ls);
    keys::use_lesson_keys(ls);
    ls.follow_story();
    ls.install(pg, play);
    ls
}

/// The lesson page's address for the lesson being played, at its step: where an embed's
/// "Open in the full playground" goes.
pub fn full_page_link(ls: Lessons) -> Option<String> {
    ls.play.with(|p| {
        let p = p.as_ref()?;
        let route = Route::Lesson { id: p.id().to_string(), step: Some(p.position().0.to_string()) };
        Some(super::share::sibling(&route.href()))
    })
}

/// How much of a step, in CSS pixels from its title down, must fit under it for the page to
/// open at its top; else the title opens at the top of the window.
const STEP_ROOM_PX: f64 = 420.0;

/// Where [`Lessons::focus`] moves the focus.
#[derive(Clone, Copy)]
enum Focus {
    /// The step's text: a new step is read from its start.
    Text,
    /// Next: the step may be left.
    Next,
}

pub fn use_lessons_ctx() -> Lessons {
    expect_context::<Lessons>()
}

impl Lessons {
    /// The app's lessons: their own stage, the saved progress (and the notice of a discarded
    /// one), and what follows the story. Nothing is open until the address asks.
    fn for_app(kept: Kept, nav: Nav) -> Lessons {
        let ctx = Ctx::new(Playground::blank(), None);
        let (saved, notice) = progress::load();
        let ls = Lessons {
            index_loader: Some(Lessons::fetch_index),
            ..Lessons::new(ctx, saved, notice, true, Some((kept, nav)))
        };
        ls.follow_story();
        ls
    }

    /// Opens what the address names, unless it is open already: the overview, or a lesson at
    /// a step (its saved step when the address names none). A saved state that was discarded
    /// is named first, on the overview.
    fn follow(&self, route: &Route) {
        match route {
            Route::Lesson { .. } if self.notice.with_untracked(Option::is_some) && !self.active() => {
                self.show_overview()
            }
            Route::Lesson { id, step } => {
                let here = self.play.with_untracked(|p| {
                    p.as_ref()
                        .is_some_and(|p| p.id() == id && step.as_ref().is_none_or(|s| *s == p.position().0.to_string()))
                });
                // "Loading the lesson…" until it opens, or the overview saying why it could not.
                self.overview.set(false);
                if !here {
                    self.open(id.clone(), step.clone());
                }
            }
            _ => {
                if !self.overview.get_untracked() {
                    self.overview.set(true);
                }
                self.load_index();
            }
        }
    }

    /// The lessons' signals on the stage `ctx`, with the saved progress (and the notice of a
    /// discarded one), the overview shown or not, in the app or in an embed; no lesson open yet.
    fn new(ctx: Ctx, progress: Progress, notice: Option<String>, overview: bool, app: Option<(Kept, Nav)>) -> Lessons {
        let play = RwSignal::new(None::<Play>);
        let goals = Memo::new(move |_| {
            ctx.snapshot.track();
            ctx.pg.with_untracked(|pg| {
                play.with(|p| {
                    let p = p.as_ref()?;
                    matches!(p.session.step().kind, engine::lesson::StepKind::Checkpoint(_))
                        .then(|| p.session.goals(pg.sim()))
                })
            })
        });
        Lessons {
            overview: RwSignal::new(overview),
            index: RwSignal::new(None),
            play,
            progress: RwSignal::new(progress),
            notice: RwSignal::new(notice),
            picked: RwSignal::new(None),
            typed: RwSignal::new(String::new()),
            hint: RwSignal::new(None),
            screen: RwSignal::new(0),
            text_el: NodeRef::new(),
            next_el: NodeRef::new(),
            trail: StoredValue::new(Vec::new()),
            embedded: app.is_none(),
            app,
            index_loader: None,
            goals,
            ctx,
        }
    }

    /// Moves the focus to a part of the panel once the page has drawn it; in an embed only while
    /// the frame has the focus (an embed never takes it from the page around it).
    fn focus(&self, to: Focus) {
        if self.embedded && !document().has_focus().unwrap_or(false) {
            return;
        }
        let (text, next) = (self.text_el, self.next_el);
        request_animation_frame(move || {
            let el: Option<web_sys::HtmlElement> = match to {
                Focus::Text => text.get_untracked().map(Into::into),
                Focus::Next => next.get_untracked().map(Into::into),
            };
            if let Some(el) = el {
                let _ = el.focus();
            }
        });
    }

    /// A slice of the lesson being played (its default while none is), for the parts of the
    /// panel that show it: they are redrawn only when it changes.
    /// (A function, not a closure: one memo's code per type of slice, not one per slice.)
    fn slice<T>(&self, f: fn(&Play) -> T) -> Memo<T>
    where
        T: PartialEq + Default + Send + Sync + 'static,
    {
        let play = self.play;
        Memo::new(move |_| play.with(|p| p.as_ref().map(f).unwrap_or_default()))
    }

    /// Another screen opens: nothing picked or typed yet, its control built anew.
    fn new_screen(&self) {
        self.picked.set(None);
        self.typed.set(String::new());
        self.screen.update(|n| *n = n.wrapping_add(1));
        // The diagram draws the design the step names, or the whole world.
        let stage = self.play.with_untracked(|p| {
            let step = p.as_ref()?.session.step();
            let run = match &step.kind {
                engine::lesson::StepKind::Run { run, .. } => run.as_slice(),
                engine::lesson::StepKind::Predict(p) => p.run.as_slice(),
                _ => &[],
            };
            step.stage.as_deref().map(|name| crate::view::topology::Stage::of(name, run))
        });
        if self.ctx.stage.get_untracked() != stage {
            self.ctx.stage.set(stage);
        }
        self.bring_step_into_view();
    }

    /// A step (or a lesson) opens at the top of the page: the diagram and the step's title in
    /// view together; where both do not fit (a phone), the title with the start of its text.
    /// Never in an embed, whose page is the author's.
    fn bring_step_into_view(&self) {
        if self.embedded {
            return;
        }
        // A step the learner watches (a narration or a run) keeps the diagram in view with its
        // title where both fit; a question or a checkpoint opens at its title.
        let watch = self.play.with_untracked(|p| {
            p.as_ref().is_some_and(|p| {
                matches!(
                    p.session.step().kind,
                    engine::lesson::StepKind::Narration | engine::lesson::StepKind::Run { .. }
                )
            })
        });
        // Once at the first frame, and again once the stage has built what it builds when idle
        // (the diagram can grow above the panel then, on a phone).
        request_animation_frame(move || {
            Self::scroll_to_step(watch);
            crate::view::stage::when_idle(move || Self::scroll_to_step(watch));
        });
    }

    /// Scrolls the page so that the step's title is in view: at the top of the page where the
    /// title has its room there (a wide window, the diagram beside it); on a phone, the diagram's
    /// top at the window's top when the title still shows under it and the step is one to watch
    /// (`watch`), else the title at the top of the window with its step under it.
    fn scroll_to_step(watch: bool) {
        let rect_of =
            |selector: &str| document().query_selector(selector).ok().flatten().map(|el| el.get_bounding_client_rect());
        let Some(head) = rect_of(".lesson-stage .lesson-head") else { return };
        if head.height() == 0.0 {
            // Not drawn yet (the stage is still hidden): the top of the page.
            window().scroll_to_with_x_and_y(0.0, 0.0);
            return;
        }
        let height = window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
        let scrolled = window().scroll_y().unwrap_or(0.0);
        let in_page = head.top() + scrolled;
        let target = if in_page + STEP_ROOM_PX <= height {
            0.0
        } else {
            let diagram = rect_of(".lesson-stage .diagram").map(|d| d.top() + scrolled - 8.0);
            match diagram {
                Some(top) if watch && top < in_page && in_page + head.height() - top <= height => top,
                _ => in_page - 8.0,
            }
        };
        window().scroll_to_with_x_and_y(0.0, target.max(0.0));
    }

    /// The learner picks choice `id` of the prediction: the button that commits it is brought
    /// into view with it (never in an embed, whose frame the author sized).
    pub fn pick(&self, id: String) {
        self.picked.set(Some(id));
        self.reveal_commit();
    }

    /// The learner types the number of the prediction: the button that commits it comes into view.
    pub fn type_number(&self, text: String) {
        self.typed.set(text);
        self.reveal_commit();
    }

    /// Brings the prediction's commit button into view (never in an embed).
    fn reveal_commit(&self) {
        self.bring_near(".lesson-panel .predict .commit");
    }

    /// Once the page has drawn it, scrolls the element `selector` names into view by the least
    /// move (none where it is in view already); never in an embed, whose page is the author's.
    fn bring_near(&self, selector: &'static str) {
        if self.embedded {
            return;
        }
        request_animation_frame(move || {
            if let Ok(Some(el)) = document().query_selector(selector) {
                crate::view::scroll_nearest(&el);
            }
        });
    }

    /// Whether a lesson is being played.
    pub fn active(&self) -> bool {
        self.play.with(Option::is_some)
    }

    /// Fetches the lesson list if it is not there yet (in the app: an embed plays one lesson
    /// and has no list, nor the code that reads one).
    pub fn load_index(&self) {
        if let Some(load) = self.index_loader {
            if self.index.with_untracked(Option::is_none) {
                load(*self);
            }
        }
    }

    /// What the app's [`Lessons::load_index`] does: fetch and read `lessons/index.json`.
    fn fetch_index(ls: Lessons) {
        leptos::task::spawn_local(async move { ls.index.set(Some(fetch::index().await)) });
    }

    /// Closes the lesson (its progress is kept) and shows the list.
    pub fn show_overview(&self) {
        // An embed plays its one lesson: it has no list to go back to.
        let Some((_, nav)) = self.app else { return };
        self.leave();
        self.overview.set(true);
        self.load_index();
        nav.replace_within(View::Lessons, Route::Lessons, "");
    }

    /// Fetches lesson `id` and opens it at `step` (1-based text, as in the address), or at the
    /// step saved for it. On any failure: the notice says why and the overview opens.
    pub fn open(&self, id: String, step: Option<String>) {
        let ls = *self;
        leptos::task::spawn_local(async move {
            if let Err(e) = ls.try_open(&id, step).await {
                ls.notice.set(Some(e));
                ls.show_overview();
            }
        });
    }

    async fn try_open(&self, id: &str, step: Option<String>) -> Result<(), String> {
        if self.index.with_untracked(|i| !matches!(i, Some(Ok(_)))) {
            self.index.set(Some(fetch::index().await));
        }
        // An unknown id is named with the ones nearest to it.
        let near = self.index.with_untracked(|i| match i {
            Some(Ok(index)) if index.listing(id).is_some() => Ok(None),
            Some(Ok(index)) => Ok(Some(crate::nearest::closest_said(id, index.lessons.iter().map(|l| l.id.as_str())))),
            Some(Err(e)) => Err(e.clone()),
            None => Ok(Some(String::new())),
        })?;
        if let Some(near) = near {
            return Err(format!("There is no lesson \"{id}\"{near}; here are the lessons."));
        }
        let (lesson, source) = fetch::lesson(id).await.map_err(|e| format!("The lesson could not be loaded: {e}"))?;
        let mut saved = self.progress.with_untracked(|p| p.get(id));
        // A saved place past the lesson's end (the lesson shrank, or the state was edited) is
        // dropped with a notice, as a corrupt saved state is; the lesson starts again.
        let steps = lesson.steps.len();
        let mut dropped = None;
        if saved.step > steps || saved.answered.iter().any(|n| *n > steps) {
            dropped = Some(format!(
                "Your saved place in this lesson (step {} of {steps}) could not be used and was discarded.",
                saved.step
            ));
            saved = progress::Saved::default();
            self.progress.update(|p| p.update(id, |s| *s = progress::Saved::default()));
            if self.app.is_some() {
                self.progress.with_untracked(progress::save);
            }
        }
        let step = step.or_else(|| (!saved.done && saved.step > 1).then(|| saved.step.to_string()));
        let index = fetch::step_index(step.as_deref(), steps, id)?;
        let (pg, play) =
            Play::open(lesson, source, index).map_err(|e| format!("The lesson \"{id}\" could not start: {e}"))?;
        self.trail.set_value(Vec::new());
        self.notice.set(dropped);
        self.overview.set(false);
        // The clock shows the lesson's own speed from its first step (not the last lesson's).
        self.ctx.speed.set(play::speed_index(play.session.lesson().speed));
        self.install(pg, play);
        self.focus(Focus::Text);
        Ok(())
    }

    /// Opens a lesson's final state (its last screen, reached along its own path) in the
    /// sandbox, as a share link of its story.
    pub fn open_final(&self, id: String) {
        let ls = *self;
        leptos::task::spawn_local(async move {
            let opened = match fetch::lesson(&id).await {
                Ok((lesson, source)) => {
                    let last = lesson.steps.len().saturating_sub(1);
                    let (name, said) = taken_to_sandbox(&lesson.title, None);
                    Play::open(lesson, source, last).and_then(|(pg, _)| pg.retitled(&name, &said))
                }
                Err(e) => Err(e),
            };
            match opened {
                Ok(pg) => ls.open_in_sandbox(Some(pg)),
                Err(e) => ls.notice.set(Some(format!("The lesson could not be loaded: {e}"))),
            }
        });
    }

    /// Opens a story in the sandbox (`pg`, or the lesson's story as it is now), as its share
    /// link would: its inputs replayed on its scenario. The lesson stays where it is.
    pub fn open_in_sandbox(&self, pg: Option<Playground>) {
        let Some((kept, nav)) = self.app else { return };
        self.ctx.pause();
        // The lesson's own story says where it came from (its scenario's description told the
        // story before the lesson began: "No worker reads them yet").
        let named = || {
            let pg = self.ctx.pg.get_untracked();
            match self.play.with_untracked(|p| p.as_ref().map(|p| taken_to_sandbox(p.title(), Some(p.position())))) {
                Some((name, said)) => pg.retitled(&name, &said).map_err(crate::share::BadLink::Scenario),
                None => Ok(pg),
            }
        };
        let story = match pg {
            Some(pg) => crate::share::Share::fresh(&pg),
            None => named().and_then(|pg| crate::share::Share::fresh(&pg)),
        };
        match story {
            Ok(story) => {
                kept.set_sandbox(story, None);
                let sandbox = Route::Sandbox { scenario: None };
                nav.go(sandbox.clone());
                // The address names the story, as its share link would, so a reload keeps it.
                if let Some(ctx) = kept.sandbox.get_untracked() {
                    leptos::task::spawn_local(async move {
                        if let Ok(fragment) = super::share::link_now(ctx, "").await {
                            if nav.route.with_untracked(|r| *r == sandbox) {
                                nav.replace(sandbox, &fragment);
                            }
                        }
                    });
                }
            }
            Err(e) => self.notice.set(Some(e.to_string())),
        }
    }

    /// Puts a lesson's story on the stage and its player in the panel.
    fn install(&self, pg: Playground, play: Play) {
        let ctx = self.ctx;
        ctx.pause();
        ctx.selected.set(None);
        ctx.error.set(None);
        ctx.pg.set(pg);
        self.play.set(Some(play));
        self.new_screen();
        self.entered();
    }
    /// A step has opened: save the progress, name it in the address, play its run, time its hint.
    fn entered(&self) {
        let Some((id, step, hint_after)) = self.play.with_untracked(|p| {
            p.as_ref().map(|p| {
                let after = match &p.session.step().kind {
                    engine::lesson::StepKind::Checkpoint(c) => Some(c.hint_after_s),
                    _ => None,
                };
                (p.id().to_string(), p.position().0, after)
            })
        }) else {
            return;
        };
        self.progress.update(|pr| {
            pr.update(&id, |s| {
                s.step = step;
                let total = self.play.with_untracked(|p| p.as_ref().map_or(0, |p| p.position().1));
                s.done |= step == total;
            })
        });
        if let Some((_, nav)) = self.app {
            self.progress.with_untracked(progress::save);
            nav.replace_within(View::Lessons, Route::Lesson { id: id.clone(), step: Some(step.to_string()) }, "");
        }
        self.play_run();
        if hint_after.is_some() {
            // A checkpoint waits, paused, for the learner to act; their first command starts
            // the clock (`follow_story`), so what they do shows its effect at once.
            let commands = self.ctx.pg.with_untracked(|pg| pg.changes().len());
            self.play.update_untracked(|p| {
                if let Some(p) = p {
                    p.clock_waits = Some(commands);
                    p.acted = Some(commands);
                }
            });
        }
        if let Some(after) = hint_after {
            let (ls, key) = (*self, (id, step - 1));
            set_timeout(move || ls.hint.set(Some(key)), std::time::Duration::from_secs(after.into()));
        }
    }

    /// Enter: submits the answer given, ends a run still playing, or goes on.
    pub fn primary(&self) {
        let (phase, can) =
            self.play.with_untracked(|p| p.as_ref().map_or((Phase::Ready, false), |p| (p.phase, p.can_continue())));
        match phase {
            Phase::Asking => self.submit(),
            Phase::Playing => self.finish(),
            _ if can => self.next(),
            _ => {}
        }
    }

    /// Commits the prediction's answer as given so far: the choice picked, or the number typed.
    pub fn submit(&self) {
        let number = self.play.with_untracked(|p| {
            p.as_ref().is_some_and(|p| {
                matches!(&p.session.step().kind, engine::lesson::StepKind::Predict(pr) if pr.answer == engine::lesson::AnswerMode::Number)
            })
        });
        let given = if number { Some(self.typed.get_untracked()) } else { self.picked.get_untracked() };
        if let Some(given) = given.filter(|g| !g.trim().is_empty()) {
            self.commit(given);
        }
    }

    /// Pauses the story and lets the lesson's player act on it (nothing when no lesson is open).
    pub(super) fn paused_play(&self, f: impl FnOnce(&mut Play, &mut Playground)) {
        let play = self.play;
        self.ctx.pause();
        self.ctx.pg.update(|pg| {
            play.update(|p| {
                if let Some(p) = p {
                    f(p, pg)
                }
            })
        });
    }

    /// The learner commits an answer (a choice id or a typed number).
    pub fn commit(&self, given: String) {
        let play = self.play;
        self.paused_play(|p, pg| p.commit(pg, &given));
        if let Some((id, step)) = play
            .with_untracked(|p| p.as_ref().filter(|p| p.given.is_some()).map(|p| (p.id().to_string(), p.position().0)))
        {
            self.progress.update(|pr| {
                pr.update(&id, |s| {
                    // Kept in order (a binary search, not a sort: no sort code in the bundle).
                    if let Err(at) = s.answered.binary_search(&step) {
                        s.answered.insert(at, step);
                    }
                })
            });
            if !self.embedded {
                self.progress.with_untracked(progress::save);
            }
        }
        self.play_run();
    }

    /// "Show me": performs the checkpoint's solution on the diagram.
    pub fn show_me(&self) {
        self.paused_play(|p, pg| p.show_me(pg));
        self.play_run();
    }

    /// To the next step; the one left is kept for Back.
    pub fn next(&self) {
        let trail = self.trail;
        let mut moved = false;
        self.paused_play(|p, pg| {
            if p.phase == Phase::Playing {
                p.finish(pg);
            }
            if p.can_continue() {
                trail.update_value(|t| t.push((pg.clone(), p.clone())));
                moved = p.next(pg);
            }
        });
        if moved {
            self.new_screen();
            self.entered();
            self.focus(Focus::Text);
        }
    }

    /// Back to the previous step as the learner left it: the story as it was then (the
    /// History kept from that moment), or rebuilt along the lesson's path after a reload.
    pub fn back(&self) {
        let Some((lesson, index)) =
            self.play.with_untracked(|p| p.as_ref().map(|p| (p.session.lesson().clone(), p.session.step_index())))
        else {
            return;
        };
        let source = self.ctx.pg.with_untracked(|pg| pg.source().to_string());
        if index == 0 {
            return;
        }
        let kept = self.trail.try_update_value(Vec::pop).flatten();
        let restored = match kept {
            Some(k) => Ok(k),
            None => Play::open(lesson, source, index - 1),
        };
        match restored {
            Ok((pg, play)) => {
                self.install(pg, play);
                self.focus(Focus::Text);
            }
            Err(e) => self.notice.set(Some(e)),
        }
    }

    /// Closes the lesson being played (its progress stays saved).
    pub fn leave(&self) {
        self.ctx.pause();
        if self.ctx.stage.get_untracked().is_some() {
            self.ctx.stage.set(None);
        }
        self.play.set(None);
        self.trail.set_value(Vec::new());
    }
}
