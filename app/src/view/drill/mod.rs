//! Incident drills (`?drills`, `?drill=<id>`; one of the app's views): a broken system to
//! diagnose and fix with the sandbox's own controls, checked by the engine. The list, then a
//! drill on the sandbox's stage (the parts its page lets the learner look at) with the drill
//! panel beside it: the incident report, the timers, "Check my fix", hints, "Give up" and the
//! debrief. The drill's story is the view's one `Playground`, built by `Drill::start`; every
//! command the page sends is asked about first (`Playground::refusal`), so a change the drill
//! does not allow is refused in words and changes nothing.
//!
//! Files: `attempt.rs` (the drill being played, signal-free), `progress.rs` (`localStorage`),
//! `list.rs` (the list), `panel.rs` (the panel).

mod attempt;
mod list;
mod panel;
mod progress;

use super::app::use_kept;
use super::nav::{use_nav, AppHeader, Nav};
use super::{clock, inspector, log, metrics, queues, topology, transport, Ctx};
use crate::playground::{Playground, BUILTIN};
use crate::route::Route;
use attempt::Attempt;
use engine::drill::{Drill, DrillIndex, View as Look};
use engine::lesson::LessonListing;
use leptos::prelude::*;
use progress::Progress;
use serde_json::Value;

/// The drills' context, made once under the app's owner (`Kept`): the drill being played
/// outlives a visit to another view.
#[derive(Clone, Copy)]
pub struct Drills {
    ctx: Ctx,
    /// The drill list, once fetched (or why it could not be).
    index: RwSignal<Option<Result<Vec<LessonListing>, String>>>,
    progress: RwSignal<Progress>,
    /// One line: a discarded saved state, a drill that could not be opened.
    notice: RwSignal<Option<String>>,
    /// The drill being played.
    attempt: RwSignal<Option<Attempt>>,
    /// The wall-clock second it was opened, the seconds shown since, and the seconds it took
    /// once solved (the timer stops there).
    opened: StoredValue<u64>,
    elapsed: RwSignal<u64>,
    solved_in: RwSignal<Option<u64>>,
    nav: Nav,
}

fn use_drills() -> Drills {
    expect_context::<Drills>()
}

/// The drills' view: the list, or a drill on the stage with its panel.
#[component]
pub fn DrillView() -> impl IntoView {
    let (kept, nav) = (use_kept(), use_nav());
    let d = match kept.drills.get_untracked() {
        Some(d) => d,
        None => {
            let d = kept.under_app(|| Drills::new(nav));
            kept.drills.set(Some(d));
            d
        }
    };
    let ctx = d.ctx;
    provide_context(ctx);
    provide_context(d);
    inspector::load_fidelity();
    clock::use_clock(ctx);
    transport::use_keyboard(ctx);
    log::use_announcer(ctx);
    clock::use_every_second(move || d.tick());
    on_cleanup(move || ctx.pause());
    // The address says which drill, or the list.
    let wanted = Memo::new(move |_| {
        nav.route.with(|r| match r {
            Route::Drill { id } => Some(id.clone()),
            _ => None,
        })
    });
    Effect::new(move |_| match wanted.get() {
        Some(id) if d.attempt.with_untracked(|a| a.as_ref().is_none_or(|a| a.drill.id != id)) => d.open(id),
        Some(_) => {}
        None => d.load_index(),
    });
    let playing = move || wanted.with(Option::is_some) && d.attempt.with(|a| a.is_some());
    let loading = move || wanted.with(Option::is_some) && !playing();
    let looks =
        Memo::new(move |_| d.attempt.with(|a| a.as_ref().map(|a| a.drill.page.look_at.clone()).unwrap_or_default()));
    let has = move |look: Look| looks.with(|l| l.contains(&look));
    view! {
        <div class="shell lesson-page drill-page">
            <AppHeader />
            <list::Notice />
            <list::List hidden=Signal::derive(move || wanted.with(Option::is_some)) />
            <div class="boot" role="status" hidden=move || !loading()>"Loading the drill…"</div>
            <div class="lesson-stage" hidden=move || !playing()>
                <transport::Transport clock=true />
                <main class="stage lesson-on">
                    <div class="main-col">
                        {move || has(Look::Diagram).then(|| view! {
                            <section class="diagram" aria-label="Topology"><topology::Topology /></section>
                        })}
                        {move || has(Look::QueueCards).then(|| view! { <queues::Queues /> <queues::Effects /> })}
                        {move || has(Look::Metrics).then(|| view! { <metrics::Metrics /> })}
                    </div>
                    <aside class="side-col">
                        <panel::DrillPanel />
                        {move || has(Look::Inspector).then(|| view! { <inspector::Inspector /> })}
                        {move || has(Look::EventLog).then(|| view! { <log::EventLog /> })}
                    </aside>
                </main>
            </div>
            <p class="sr-only" role="status" aria-live="polite">{move || ctx.announce.get()}</p>
        </div>
    }
}

impl Drills {
    fn new(nav: Nav) -> Drills {
        let (progress, notice) = progress::load();
        Drills {
            ctx: Ctx::new(Playground::blank(), None),
            index: RwSignal::new(None),
            progress: RwSignal::new(progress),
            notice: RwSignal::new(notice),
            attempt: RwSignal::new(None),
            opened: StoredValue::new(0),
            elapsed: RwSignal::new(0),
            solved_in: RwSignal::new(None),
            nav,
        }
    }

    /// A second of wall time passed: the attempt timer moves, unless the drill is solved.
    fn tick(&self) {
        if self.attempt.with_untracked(Option::is_some) && self.solved_in.get_untracked().is_none() {
            self.elapsed.set(clock::wall_seconds().saturating_sub(self.opened.get_value()));
        }
    }

    /// Fetches the drill list if it is not there yet.
    fn load_index(&self) {
        if self.index.with_untracked(Option::is_some) {
            return;
        }
        let d = *self;
        leptos::task::spawn_local(async move { d.index.set(Some(index().await)) });
    }

    /// Fetches drill `id` and opens it; on any failure the notice says why and the list opens.
    fn open(&self, id: String) {
        let d = *self;
        leptos::task::spawn_local(async move {
            if let Err(e) = d.try_open(&id).await {
                d.notice.set(Some(e));
                d.nav.replace(Route::Drills, "");
            }
        });
    }

    async fn try_open(&self, id: &str) -> Result<(), String> {
        if self.index.with_untracked(|i| !matches!(i, Some(Ok(_)))) {
            self.index.set(Some(index().await));
        }
        let known = self.index.with_untracked(|i| match i {
            Some(Ok(list)) => Ok(list.iter().any(|l| l.id == id)),
            Some(Err(e)) => Err(e.clone()),
            None => Ok(false),
        })?;
        if !known {
            return Err(format!("There is no drill \"{id}\"; here are the drills."));
        }
        let (drill, source) = drill(id).await.map_err(|e| format!("The drill could not be loaded: {e}"))?;
        let pg =
            Playground::from_drill(&drill, source).map_err(|e| format!("The drill \"{id}\" could not start: {e}"))?;
        let ctx = self.ctx;
        ctx.pause();
        ctx.selected.set(None);
        ctx.error.set(None);
        ctx.speed.set(pg.speed_index());
        ctx.pg.set(pg);
        self.opened.set_value(clock::wall_seconds());
        self.elapsed.set(0);
        self.solved_in.set(None);
        self.attempt.set(Some(Attempt::new(drill)));
        Ok(())
    }

    /// "Check my fix": the engine replays the story with the learner's changes, which takes a
    /// moment, so "Checking…" is painted first and the judgement runs after that frame.
    fn check(&self) {
        if self.attempt.with_untracked(|a| a.as_ref().is_none_or(|a| a.checking)) {
            return;
        }
        self.ctx.pause();
        self.attempt.update(|a| {
            if let Some(a) = a {
                a.checking = true;
            }
        });
        let d = *self;
        request_animation_frame(move || set_timeout(move || d.judge(), std::time::Duration::ZERO));
    }

    fn judge(&self) {
        let (attempt, pg) = (self.attempt, self.ctx.pg);
        let judged = pg.with_untracked(|pg| {
            attempt.try_update(|a| a.as_mut().map(|a| (a.drill.id.clone(), a.check(pg), a.gave_up))).flatten()
        });
        let Some((id, passed, gave_up)) = judged else { return };
        // A pass without giving up is a solve: the timer stops, and the best time is kept.
        let solved_in =
            (passed && !gave_up).then(|| self.solved_in.get_untracked().unwrap_or_else(|| self.elapsed_now()));
        if solved_in.is_some() && self.solved_in.get_untracked().is_none() {
            self.elapsed.set(solved_in.unwrap_or_default());
            self.solved_in.set(solved_in);
        }
        self.progress.update(|p| p.checked(&id, solved_in));
        self.progress.with_untracked(progress::save);
    }

    fn elapsed_now(&self) -> u64 {
        clock::wall_seconds().saturating_sub(self.opened.get_value())
    }

    /// "Give up": the debrief opens with the recorded fix.
    fn give_up(&self) {
        let (attempt, pg) = (self.attempt, self.ctx.pg);
        pg.with_untracked(|pg| {
            attempt.update(|a| {
                if let Some(a) = a {
                    a.give_up(pg);
                }
            })
        });
    }

    /// Sends the recorded fix, command by command, as the learner's own (it stops at a refusal).
    fn apply_recorded(&self) {
        let fix = self.attempt.with_untracked(|a| a.as_ref().and_then(|a| a.recorded.clone().ok())).unwrap_or_default();
        for (action, params) in fix {
            if self.ctx.act(|p| p.apply(&action, &params)).is_none() {
                break;
            }
        }
    }
}

/// The drill list.
async fn index() -> Result<Vec<LessonListing>, String> {
    let text = crate::fetch::data("drills/index.json").await?;
    DrillIndex::parse(&text).map(|i| i.drills).map_err(|e| format!("drills/index.json: {e}"))
}

/// One drill, parsed and checked by the engine (its error says where), with its world's
/// scenario file: a built-in one's, fetched, or the drill's inline one.
async fn drill(id: &str) -> Result<(Drill, String), String> {
    let url = format!("drills/{id}.json");
    let text = crate::fetch::data(&url).await?;
    let world = serde_json::from_str::<Value>(&text).ok().map(|v| v["world"].clone());
    let (builtin, source) = match world {
        // Only a built-in id is fetched; any other name is the engine's "unknown scenario".
        Some(Value::String(sid)) if BUILTIN.iter().any(|(b, _)| *b == sid) => {
            let file = crate::fetch::data(&format!("scenarios/{sid}.json")).await?;
            (Some(sid), file)
        }
        Some(v @ Value::Object(_)) => (None, v.to_string()),
        _ => (None, String::new()),
    };
    let builtins: Vec<(&str, &str)> = builtin.as_deref().map(|b| (b, source.as_str())).into_iter().collect();
    let drill = Drill::parse(&text, &builtins).map_err(|e| format!("{url}: {e}"))?;
    Ok((drill, source))
}
