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
    /// One line: a discarded saved state, a drill that could not be opened.
    notice: RwSignal<Option<String>>,
    /// The rest, in one signal (each type of signal brings its own code into the bundle).
    state: RwSignal<State>,
    nav: Nav,
}

/// The drill being played, the saved progress and the attempt timer.
#[derive(Default)]
struct State {
    attempt: Option<Attempt>,
    progress: Progress,
    /// The wall-clock second the drill was opened, the seconds since, and the seconds it took
    /// once solved (the timer stops there).
    opened: u64,
    elapsed: u64,
    solved_in: Option<u64>,
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
    super::stage::use_story(ctx);
    provide_context(d);
    inspector::load_fidelity();
    clock::use_every_second(move || d.tick());
    // The address says which drill, or the list. A drill opens afresh unless it is the one being
    // played and not yet solved or given up.
    let wanted = Memo::new(move |_| {
        nav.route.with(|r| match r {
            Route::Drill { id } => Some(id.clone()),
            _ => None,
        })
    });
    Effect::new(move |_| match wanted.get() {
        Some(id) => {
            let fresh = d.state.with_untracked(|s| {
                s.solved_in.is_some() || s.attempt.as_ref().is_none_or(|a| a.drill.id != id || a.gave_up)
            });
            if fresh {
                d.open(id);
            }
        }
        None => d.load_index(),
    });
    let playing = move || wanted.with(Option::is_some) && d.state.with(|s| s.attempt.is_some());
    // Every part of the stage is there; those the page does not let the learner look at are
    // hidden by the stage's classes (`hide-metrics`, …).
    let stage = move || {
        d.state.with(|s| {
            let looks = s.attempt.as_ref().map_or(&[][..], |a| &a.drill.page.look_at[..]);
            let hidden = Look::ALL.iter().filter(|(_, l)| !looks.contains(l));
            hidden.fold(String::from("stage lesson-on"), |c, (name, _)| c + " hide-" + name)
        })
    };
    view! {
        <div class="shell lesson-page drill-page">
            <AppHeader />
            <super::lesson::Notice notice=d.notice testid="drill-notice" />
            <list::List hidden=Signal::derive(move || wanted.with(Option::is_some)) />
            <div class="boot" role="status" hidden=move || !wanted.with(Option::is_some) || playing()>"Loading the drill…"</div>
            <div class="lesson-stage" hidden=move || !playing()>
                <transport::Transport clock=true />
                <main class=stage>
                    <div class="main-col">
                        <section class="diagram" aria-label="Topology"><topology::Topology /></section>
                        <queues::Queues />
                        <super::call::AwsCall />
                        <queues::Effects />
                        <metrics::Metrics />
                    </div>
                    <aside class="side-col">
                        <panel::DrillPanel />
                        <inspector::Inspector />
                        <log::EventLog />
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
            notice: RwSignal::new(notice),
            state: RwSignal::new(State { progress, ..State::default() }),
            nav,
        }
    }

    /// Changes the drill being played, if there is one; its result, if any.
    fn with_attempt<T>(&self, f: impl FnOnce(&mut Attempt) -> T) -> Option<T> {
        self.state.try_update(|s| s.attempt.as_mut().map(f)).flatten()
    }

    /// A second of wall time passed: the attempt timer moves, unless the drill is solved.
    fn tick(&self) {
        let now = clock::wall_seconds();
        let moves = self.state.with_untracked(|s| {
            (s.attempt.is_some() && s.solved_in.is_none() && now - s.opened.min(now) != s.elapsed)
                .then_some(now - s.opened.min(now))
        });
        if let Some(elapsed) = moves {
            self.state.update(|s| s.elapsed = elapsed);
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
                d.nav.replace_within(crate::route::View::Drills, Route::Drills, "");
            }
        });
    }

    async fn try_open(&self, id: &str) -> Result<(), String> {
        if self.index.with_untracked(|i| !matches!(i, Some(Ok(_)))) {
            self.index.set(Some(index().await));
        }
        // An unknown id is named with the ones nearest to it.
        let near = self.index.with_untracked(|i| match i {
            Some(Ok(list)) if list.iter().any(|l| l.id == id) => Ok(None),
            Some(Ok(list)) => Ok(Some(crate::nearest::closest_said(id, list.iter().map(|l| l.id.as_str())))),
            Some(Err(e)) => Err(e.clone()),
            None => Ok(Some(String::new())),
        })?;
        if let Some(near) = near {
            return Err(format!("There is no drill \"{id}\"{near}; here are the drills."));
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
        let attempt = Attempt::new(drill);
        self.state.update(|s| {
            (s.opened, s.elapsed, s.solved_in) = (clock::wall_seconds(), 0, None);
            s.attempt = Some(attempt);
        });
        Ok(())
    }

    /// "Check my fix": the engine replays the story with the learner's changes, which takes a
    /// moment, so "Checking…" is painted first and the judgement runs after that frame.
    fn check(&self) {
        if self.state.with_untracked(|s| s.attempt.as_ref().is_none_or(|a| a.checking)) {
            return;
        }
        self.ctx.pause();
        self.with_attempt(|a| a.checking = true);
        let d = *self;
        request_animation_frame(move || set_timeout(move || d.judge(), std::time::Duration::ZERO));
    }

    fn judge(&self) {
        let pg = self.ctx.pg;
        let now = clock::wall_seconds();
        pg.with_untracked(|pg| {
            self.state.update(|s| {
                let Some(a) = s.attempt.as_mut() else { return };
                let passed = a.check(pg);
                // A pass without giving up is a solve: the timer stops, and the best time is kept.
                if passed && !a.gave_up && s.solved_in.is_none() {
                    s.elapsed = now - s.opened.min(now);
                    s.solved_in = Some(s.elapsed);
                }
                let id = a.drill.id.clone();
                s.progress.checked(&id, s.solved_in.filter(|_| passed && !a.gave_up));
                progress::save(&s.progress);
            })
        });
    }

    /// "Give up": the debrief opens with the recorded fix.
    fn give_up(&self) {
        self.ctx.pg.with_untracked(|pg| self.with_attempt(|a| a.give_up(pg)));
    }

    /// Sends the recorded fix, command by command, as the learner's own (it stops at a refusal).
    fn apply_recorded(&self) {
        let fix = self
            .with_attempt(|a| {
                a.applied = true;
                a.recorded.clone().ok()
            })
            .flatten();
        for (action, params) in fix.unwrap_or_default() {
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
