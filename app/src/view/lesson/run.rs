//! How a step's run plays on the diagram: at the step's speed, slower in its pace windows, a
//! quiet stretch passed over, its result held in view, then the story sought to its end; and,
//! in a checkpoint, the clock that waits for the learner's first command and stops with the
//! last goal. [`Lessons::follow_story`] follows the story at every frame while time plays.

use super::play::{self, Phase, Play};
use super::{Focus, Lessons};
use crate::playground::Playground;
use leptos::prelude::*;

/// A run passes over a stretch in which nothing changes on the diagram for longer than this,
/// in wall ms at the speed it plays ...
const QUIET_WALL_MS: u64 = 3_000;
/// ... to this long before the next change.
const LEAD_WALL_MS: u64 = 1_000;
/// A checkpoint's clock stops this long (wall ms) after its last goal ticks.
const REACHED_HOLD_MS: u64 = 1_500;

impl Lessons {
    /// Plays the current step's run on the diagram at the step's speed, faster only when it
    /// would take long (see [`play::run_speed`]); never skipped for its length.
    pub(super) fn play_run(&self) {
        let ctx = self.ctx;
        let Some((until, speed, covered)) = self.play.with_untracked(|p| {
            let p = p.as_ref()?;
            // What plays is the run up to its last change (then a short hold, `Play::shown_until`).
            let end = p.last_change.unwrap_or(p.from).min(p.until?);
            let span = end.ms().saturating_sub(p.from.ms());
            let covered = engine::lesson::Pace::covered(&p.session.step().pace, span);
            Some((end, p.session.lesson().speed_of(p.session.step_index()), covered))
        }) else {
            return;
        };
        let span = until.ms().saturating_sub(ctx.pg.with_untracked(|p| p.now().ms()));
        // The stretches outside the step's pace windows play at its speed, faster when they
        // would take long; the windows at their own (`follow_story` switches).
        if span == 0
            && self.play.with_untracked(|p| p.as_ref().and_then(Play::shown_until))
                <= Some(ctx.pg.with_untracked(Playground::now))
        {
            self.finish();
            return;
        }
        let base = play::run_speed(span, covered, speed);
        // Tracked: the panel's run plan (`data-run`) reads the base speed.
        let at_start = self
            .play
            .try_update(|p| {
                p.as_mut().and_then(|p| {
                    p.base_speed = base;
                    p.pace_switch(p.from)
                })
            })
            .flatten();
        ctx.speed.set(at_start.unwrap_or(base));
        ctx.playing.set(true);
        self.show_diagram();
    }

    /// While a run plays: where to move the story when nothing will change on the diagram for
    /// more than [`QUIET_WALL_MS`] of wall time at the speed it plays (no timer due, no recorded
    /// command, no message's timer drawn counting down): to [`LEAD_WALL_MS`] before the next
    /// thing happens, or before the result shows at `until`. `None` otherwise.
    pub(super) fn quiet_until(&self, now: engine::SimTime, until: engine::SimTime) -> Option<engine::SimTime> {
        if !self.ctx.playing.get_untracked()
            || !self.play.with_untracked(|p| p.as_ref().is_some_and(|p| p.phase == Phase::Playing))
        {
            return None;
        }
        if self.ctx.snapshot.with_untracked(crate::view::topology::timers_shown) {
            return None;
        }
        let per_4ms = crate::playground::SPEEDS[self.ctx.speed.get_untracked()].1;
        let next = self.ctx.pg.with_untracked(|pg| pg.next_due()).map_or(until, |t| t.min(until));
        let (quiet, lead) = (QUIET_WALL_MS * per_4ms / 4, LEAD_WALL_MS * per_4ms / 4);
        (next.ms() > now.ms() + quiet).then(|| engine::SimTime(next.ms() - lead))
    }

    /// Time runs at the step's speed (the clock's Pause stops it, as in the sandbox).
    pub(super) fn run_clock(&self) {
        let Some(speed) = self.play.with_untracked(|p| {
            p.as_ref().map(|p| play::speed_index(p.session.lesson().speed_of(p.session.step_index())))
        }) else {
            return;
        };
        self.ctx.speed.set(speed);
        self.ctx.playing.set(true);
    }

    /// "Watch the diagram": on a phone, where the panel sits under it, the diagram is brought
    /// into view as the run starts (nothing moves where it is in view already; never in an embed).
    pub(super) fn show_diagram(&self) {
        self.bring_near(".lesson-stage .diagram");
    }

    /// The run being played is at its end (or the learner skips to it).
    pub fn skip(&self) {
        self.finish();
    }

    pub(super) fn finish(&self) {
        self.paused_play(|p, pg| p.finish(pg));
        self.after_change();
    }

    /// After a change that may reach a checkpoint: moves focus to Next once it is reached.
    pub(super) fn after_change(&self) {
        if self.play.with_untracked(|p| p.as_ref().is_some_and(|p| p.reached && p.can_continue())) {
            self.focus(Focus::Next);
        }
    }

    /// Follows the story: ends a run's playback at its end, re-checks a checkpoint as the
    /// learner acts.
    pub(super) fn follow_story(&self) {
        let ls = *self;
        Effect::new(move |_| {
            // Runs at every frame while time plays, and after every change of the story.
            ls.ctx.snapshot.with(|_| ());
            let now = ls.ctx.now.get();
            let (lesson, until, open) = ls.play.with_untracked(|p| match p {
                Some(p) => (Some(p.id().to_string()), p.shown_until(), p.phase == Phase::Ready && !p.reached),
                None => (None, None, false),
            });
            if lesson.is_none() {
                return;
            }
            // A checkpoint's clock starts with the learner's first command.
            let waits = ls.play.with_untracked(|p| p.as_ref().and_then(|p| p.clock_waits));
            if let Some(at_open) = waits {
                if ls.ctx.pg.with_untracked(|pg| pg.changes().len()) > at_open {
                    ls.play.update_untracked(|p| {
                        if let Some(p) = p {
                            p.clock_waits = None;
                        }
                    });
                    if !ls.ctx.playing.get_untracked() {
                        ls.run_clock();
                    }
                }
            }
            // On a phone the diagram shows what each of the learner's commands does (the
            // panel and its controls sit under it).
            if let Some(seen) = ls.play.with_untracked(|p| p.as_ref().and_then(|p| p.acted)) {
                let commands = ls.ctx.pg.with_untracked(|pg| pg.changes().len());
                if commands > seen {
                    ls.play.update_untracked(|p| {
                        if let Some(p) = p {
                            p.acted = Some(commands);
                        }
                    });
                    ls.show_diagram();
                }
            }
            if let Some(to) = until.and_then(|until| ls.quiet_until(now, until)) {
                // Nothing changes on the diagram for a while: the run passes over the stretch,
                // and says so.
                ls.play.update(|p| {
                    if let Some(p) = p {
                        p.passed_ms += to.ms().saturating_sub(now.ms());
                    }
                });
                ls.ctx.pg.update(|pg| pg.seek(to));
            } else if until.is_some_and(|t| now >= t) {
                ls.finish();
            } else if let Some(i) = until
                .and_then(|_| ls.play.try_update_untracked(|p| p.as_mut().and_then(|p| p.pace_switch(now))).flatten())
            {
                // The run enters or leaves one of its step's pace windows.
                ls.ctx.speed.set(i);
            } else if open
                && ls.ctx.pg.with_untracked(|pg| {
                    ls.play.with_untracked(|p| p.as_ref().is_some_and(|p| p.session.reached(pg.sim())))
                })
            {
                ls.ctx.pg.with_untracked(|pg| {
                    ls.play.update(|p| {
                        if let Some(p) = p {
                            p.check(pg);
                        }
                    })
                });
                // Time stops with the goal reached, once what reached it has had a moment on the
                // diagram (a copy still travelling to its queue lands): the next step starts from
                // what the learner saw, and a timer cannot run out while they read on.
                let step = ls.play.with_untracked(|p| p.as_ref().map(|p| (p.id().to_string(), p.position().0)));
                set_timeout(
                    move || {
                        let now =
                            ls.play.try_with_untracked(|p| p.as_ref().map(|p| (p.id().to_string(), p.position().0)));
                        if now.flatten() == step {
                            ls.ctx.pause();
                        }
                    },
                    std::time::Duration::from_millis(REACHED_HOLD_MS),
                );
                ls.after_change();
            }
        });
    }
}
