//! The page: a thin view over engine snapshots. Components read slices of the snapshot from
//! one context and send commands through it; they hold no message state of their own.

mod app;
mod bidi;
mod call;
mod chips;
mod clock;
mod compare;
mod controls;
mod drill;
mod editor;
mod embed;
mod embed_dialog;
mod embed_this;
mod export;
mod files;
mod inspector;
mod interview;
mod lesson;
mod log;
pub(crate) mod markup;
mod metrics;
mod nav;
mod queues;
mod roving;
mod selection;
mod share;
mod stage;
mod tokens;
pub(crate) mod topology;
mod transport;
mod welcome;

use crate::playground::Playground;
pub use app::{components, App, NotLoaded, ViewFuture, Views};
pub use embed_this::EmbedOf;
use engine::{ApiError, SimTime, Snapshot};
use leptos::prelude::*;
pub use nav::provide_nav;
pub use stage::Stage;

pub use selection::Selection;

/// The app's one context: the story, its latest snapshot, and the view's own settings.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub pg: RwSignal<Playground>,
    /// The story's state, rebuilt only when something other than the clock changed
    /// (`Sim::view_stamp`): its `now` is when it was taken, so views read the time from `now`.
    pub snapshot: Memo<Snapshot>,
    /// The virtual time: the one thing that moves at every frame while time plays. What moves
    /// with it (countdown rings, travelling tokens) reads it.
    pub now: Memo<SimTime>,
    /// The virtual time to read as text (the clock, the timeline, ages): `now`, but while time
    /// plays at most every `READOUT_MS` of wall time. Digits that change at every frame cannot
    /// be read, and redrawing them made the browser lay out and paint the page at every frame.
    pub clock: ReadSignal<SimTime>,
    /// Moves when the snapshot changed, but while time plays at most every `PACED_MS` of wall
    /// time: the detailed views around the diagram (queue cards, their chips and workers, side
    /// effects, metrics) follow the story through it (`Ctx::shown`). At 64× the story changes at every
    /// frame; laying out and painting hundreds of chips that often cost the diagram its frames.
    pub paced: ReadSignal<u32>,
    /// `paced`, one frame later while time plays: the event log follows it, so that its redraw
    /// and the cards' do not fall into one frame and together overrun it.
    pub paced_late: ReadSignal<u32>,
    pub playing: RwSignal<bool>,
    /// Index into `SPEEDS`.
    pub speed: RwSignal<usize>,
    pub selected: RwSignal<Option<Selection>>,
    pub error: RwSignal<Option<String>>,
    pub announce: RwSignal<String>,
    /// In a lesson, the producer whose design the diagram draws for the step shown (its
    /// `stage`); `None`: the whole world.
    pub stage: RwSignal<Option<topology::Stage>>,
}

impl Ctx {
    /// A context for a story on its own: paused, at the scenario's speed, nothing selected
    /// unless `selected`.
    pub fn new(pg: Playground, selected: Option<Selection>) -> Self {
        let speed = pg.speed_index();
        let (pg, playing) = (RwSignal::new(pg), RwSignal::new(false));
        let (snapshot, now, clock, (paced, paced_late)) = story_views(pg, playing);
        Ctx {
            pg,
            snapshot,
            now,
            clock,
            paced,
            paced_late,
            playing,
            speed: RwSignal::new(speed),
            selected: RwSignal::new(selected),
            error: RwSignal::new(None),
            announce: RwSignal::new(String::new()),
            stage: RwSignal::new(None),
        }
    }

    /// Stops playback; telling the signal only if it plays, so nothing that draws the play
    /// button runs again for a step or a scrub.
    pub fn pause(&self) {
        if self.playing.get_untracked() {
            self.playing.set(false);
        }
    }

    /// Reads the snapshot as the detailed views show it: following `paced`, not every change.
    pub fn shown<T>(&self, f: impl FnOnce(&Snapshot) -> T) -> T {
        self.paced.track();
        self.snapshot.with_untracked(f)
    }

    /// Runs a command on the story; shows its error, if any, and changes nothing then.
    pub fn act<T>(&self, f: impl FnOnce(&mut Playground) -> Result<T, ApiError>) -> Option<T> {
        match self.pg.try_update(f)? {
            Ok(v) => {
                self.error.set(None);
                Some(v)
            }
            Err(e) => {
                self.error.set(Some(crate::format::error_text(&e.code, &e.message)));
                None
            }
        }
    }
}

/// While time plays, the clock's text is rewritten at most this often (wall-clock ms).
const READOUT_MS: f64 = 100.0;

/// While time plays, the detailed views (`Ctx::paced`) are redrawn at most this often.
const PACED_MS: f64 = 250.0;

/// `Ctx::paced` and `Ctx::paced_late`.
pub type Paced = (ReadSignal<u32>, ReadSignal<u32>);

/// A story's snapshot, its time, its time to read and the paced snapshot's signals (see `Ctx`).
/// The snapshot is taken again only when the story's view stamp changes: while time plays and
/// nothing happens, only what reads the time runs.
pub fn story_views(
    pg: RwSignal<Playground>,
    playing: RwSignal<bool>,
) -> (Memo<Snapshot>, Memo<SimTime>, ReadSignal<SimTime>, Paced) {
    // One effect looks at each change of the story (each frame while time plays). It wakes the
    // snapshot's readers only when the view stamp moved, and the clock's readers only when the
    // time to read changed: neither is even asked at the other frames.
    let (moved, set_moved) = signal(0u32);
    let (paced, set_paced) = signal(0u32);
    let (paced_late, set_late) = signal(0u32);
    let (clock, set_clock) = signal(pg.with_untracked(Playground::now));
    // The stamp seen last, and the wall time the readouts were last written.
    let seen = StoredValue::new((pg.with_untracked(Playground::view_stamp), f64::NEG_INFINITY));
    // When the paced views were last woken, whether the snapshot changed since, and whether the
    // late ones are owed a frame.
    let paced_at = StoredValue::new((f64::NEG_INFINITY, false, false));
    Effect::new(move |_| {
        let (stamp, t) = pg.with(|p| (p.view_stamp(), p.now()));
        let wall = window().performance().map_or(0.0, |p| p.now());
        let (last, written) = seen.get_value();
        // Playing on: the frames keep coming (a quiet story's time is counted at least every
        // `READOUT_MS`), so a later one writes what is owed; a pause writes it at once.
        let playing = playing.get();
        let write = !playing || wall - written >= READOUT_MS;
        seen.set_value((stamp, if write { wall } else { written }));
        let (at, owed, late) = paced_at.get_value();
        let owed = owed || last != stamp;
        let pace = owed && (!playing || wall - at >= PACED_MS);
        paced_at.set_value((if pace { wall } else { at }, owed && !pace, pace && playing));
        let bump = |n: &mut u32| *n = n.wrapping_add(1);
        if last != stamp {
            set_moved.update(bump);
        }
        if late || (pace && !playing) {
            set_late.update(bump);
        }
        if pace {
            set_paced.update(bump);
        }
        if write && clock.get_untracked() != t {
            set_clock.set(t);
        }
    });
    let snapshot = Memo::new_owning(move |_| {
        moved.with(|_| ());
        (pg.with_untracked(Playground::snapshot), true)
    });
    (snapshot, Memo::new(move |_| pg.with(Playground::now)), clock, (paced, paced_late))
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

/// The embed (`embed.html`, what a documentation page puts in its iframe): the compact view of
/// embed mode. `index.html?embed=1` forwards here before it loads anything.
#[component]
pub fn EmbedApp() -> impl IntoView {
    share::provide_load_error(None);
    view! { <embed::Embed params=embed::params() /> }
}

#[component]
pub(crate) fn ErrorPanel(message: String) -> impl IntoView {
    view! {
        <div class="error-panel" role="alert">
            <h1>"Something went wrong"</h1>
            <p>{message}</p>
            <button on:click=|_| { let _ = window().location().reload(); }>"Reload the playground"</button>
        </div>
    }
}

/// How a list on the page (`old`, in ascending order of its keys) becomes `new`: for each new
/// item, the old one it keeps, if any (old items not kept go). Items only come and go, they
/// never move, so a scrub back in time (older items back at the front) inserts the few that
/// came back. `None` when `new` is not in ascending order: then the list is drawn anew.
pub(crate) fn plan(old: &[u64], new: &[u64]) -> Option<Vec<Option<usize>>> {
    if new.windows(2).any(|w| w[0] >= w[1]) {
        return None;
    }
    let mut i = 0;
    Some(
        new.iter()
            .map(|key| {
                while old.get(i).is_some_and(|o| o < key) {
                    i += 1;
                }
                (old.get(i) == Some(key)).then(|| {
                    i += 1;
                    i - 1
                })
            })
            .collect(),
    )
}

/// Scrolls `el` just into view, the least that shows it (nothing moves when it is in view
/// already): what a step, a dialog or a setting brings near.
pub fn scroll_nearest(el: &web_sys::Element) {
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
    el.scroll_into_view_with_scroll_into_view_options(&options);
}

#[cfg(test)]
mod tests {
    use super::plan;

    #[test]
    fn a_list_keeps_what_stays_and_inserts_what_comes_back() {
        // Chips: older messages back at the front, the last ones past the 200 shown gone.
        assert_eq!(
            plan(&[238, 241, 244, 247], &[229, 232, 238, 241, 244]),
            Some(vec![None, None, Some(0), Some(1), Some(2)])
        );
        // Played on: deleted ones go, new ones come at the end.
        assert_eq!(plan(&[1, 4, 7], &[4, 7, 10]), Some(vec![Some(1), Some(2), None]));
        // The event log, newest first (keyed by how far back an event is): new events at the
        // top, the oldest shown drop off.
        let log = |seqs: &[u64]| seqs.iter().map(|s| u64::MAX - s).collect::<Vec<_>>();
        assert_eq!(plan(&log(&[9, 8, 7]), &log(&[11, 10, 9, 8])), Some(vec![None, None, Some(0), Some(1)]));
        assert_eq!(plan(&[], &[1, 2]), Some(vec![None, None]));
        assert_eq!(plan(&[1, 2], &[]), Some(vec![]));
        assert_eq!(plan(&[1, 2], &[2, 1]), None, "out of order: drawn anew");
    }
}
