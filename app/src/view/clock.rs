//! The clock: the only code that reads real time. A `requestAnimationFrame` loop in the shape
//! of leptos-use's `use_raf_fn` (a [`Pausable`] with `pause`, `resume` and `is_active`), and
//! the playback clock built on it, which runs only while the story plays.

use super::Ctx;
use crate::playground::{Playground, SPEEDS};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// At most this much real time (µs) counts for one frame, so a tab that comes back from the
/// background (where frames stop) does not jump hours of virtual time.
const MAX_FRAME_US: u64 = 100_000;

/// A loop that can be paused and resumed, as leptos-use's hooks return.
pub struct Pausable<P, R>
where
    P: Fn() + Clone + Send + Sync,
    R: Fn() + Clone + Send + Sync,
{
    /// Stops the loop: the pending frame is cancelled, nothing stays scheduled.
    pub pause: P,
    /// Starts the loop again (does nothing if it runs).
    pub resume: R,
    /// Whether the loop runs.
    pub is_active: ReadSignal<bool>,
}

/// The loop's state, local to the page's thread: the pending frame, the time the last frame
/// was counted from (µs on the page's clock), and the frame callback itself.
struct Raf {
    frame: Option<i32>,
    last_us: u64,
    tick: Option<Closure<dyn FnMut()>>,
}

/// The page's clock (`performance.now()`, the time origin of frame timestamps) in whole
/// microseconds: real time becomes an integer once, here.
fn now_us() -> u64 {
    window().performance().map_or(0, |p| (p.now() * 1000.0) as u64)
}

/// Calls `callback` once per displayed frame with the real time elapsed since the previous
/// frame (since `resume` for the first), in whole microseconds. Starts paused; cancels its
/// pending frame when its owner is cleaned up.
pub fn use_raf_fn(
    callback: impl Fn(u64) + 'static,
) -> Pausable<impl Fn() + Clone + Send + Sync, impl Fn() + Clone + Send + Sync> {
    let active = RwSignal::new(false);
    let state = StoredValue::new_local(Raf { frame: None, last_us: 0, tick: None });
    let request = move || {
        state.try_update_value(|s| {
            if s.frame.is_none() {
                s.frame =
                    s.tick.as_ref().and_then(|t| window().request_animation_frame(t.as_ref().unchecked_ref()).ok());
            }
        });
    };
    let tick = Closure::<dyn FnMut()>::new(move || {
        let now = now_us();
        let elapsed = state.try_update_value(|s| {
            s.frame = None;
            now.saturating_sub(std::mem::replace(&mut s.last_us, now))
        });
        if let Some(elapsed) = elapsed {
            callback(elapsed);
            if active.get_untracked() {
                request();
            }
        }
    });
    state.update_value(|s| s.tick = Some(tick));
    let pause = move || {
        active.set(false);
        state.try_update_value(|s| {
            if let Some(frame) = s.frame.take() {
                window().cancel_animation_frame(frame).ok();
            }
        });
    };
    let resume = move || {
        if !active.get_untracked() {
            active.set(true);
            state.try_update_value(|s| s.last_us = now_us());
            request();
        }
    };
    on_cleanup(pause);
    Pausable { pause, resume, is_active: active.read_only() }
}

/// Virtual milliseconds for `elapsed_us` of real time at `quarters` (a speed from `SPEEDS`:
/// quarters of a virtual millisecond per real millisecond), plus `carry` left from earlier
/// frames. Returns the whole milliseconds and the new carry, so no time is lost to rounding.
pub(crate) fn virtual_ms(elapsed_us: u64, quarters: u64, carry: u64) -> (u64, u64) {
    let total = elapsed_us.min(MAX_FRAME_US) * quarters + carry;
    (total / 4_000, total % 4_000)
}

/// Real time (µs) a quiet stretch may be owed before it is counted: the clock's readout cadence
/// (`READOUT_MS`), so the readout moves as often as before.
const QUIET_US: u64 = 100_000;

/// Advances virtual time with the display's frames while the story plays: real elapsed time ×
/// speed. Paused, nothing is scheduled.
///
/// While nothing happens (no timer due, no recorded command, no message whose timer is drawn
/// counting down), the time is owed rather than counted at each frame, and counted at once
/// every `QUIET_US` of real time or as soon as something falls due within it: a quiet story
/// costs the page a readout ten times a second, not the whole story's reactions at every frame.
pub fn use_clock(ctx: Ctx) {
    // Sub-millisecond carry; virtual ms owed and real µs since the time was last counted.
    let carry = StoredValue::new(0u64);
    let owed = StoredValue::new((0u64, 0u64));
    let count = move || {
        let (ms, _) = owed.get_value();
        owed.set_value((0, 0));
        if ms > 0 {
            ctx.pg.try_update(|p| p.play_for(ms));
            // The engine's horizon (30 virtual days) ends the play.
            if ctx.pg.with_untracked(Playground::at_horizon) {
                ctx.pause();
                ctx.announce.set("The clock stopped at the playground's horizon: 30 virtual days.".into());
            }
        }
    };
    let Pausable { pause, resume, is_active } = use_raf_fn(move |elapsed_us| {
        let quarters = SPEEDS.get(ctx.speed.get_untracked()).map_or(4, |s| s.1);
        let (ms, rest) = virtual_ms(elapsed_us, quarters, carry.get_value());
        carry.set_value(rest);
        let (before, wall) = owed.get_value();
        let (ms, wall) = (before + ms, wall + elapsed_us.min(MAX_FRAME_US));
        owed.set_value((ms, wall));
        let timed = || ctx.snapshot.with_untracked(super::topology::timers_shown);
        if wall >= QUIET_US || !ctx.pg.with_untracked(|p| p.quiet_for(ms)) || timed() {
            count();
        }
    });
    Effect::new(move |_| match (ctx.playing.get(), is_active.get_untracked()) {
        (true, false) => resume(),
        (false, true) => {
            count();
            pause()
        }
        _ => {}
    });
}

/// Whole seconds of wall time on the page's clock (`performance.now()`): what a drill's attempt
/// timer counts from.
pub fn wall_seconds() -> u64 {
    now_us() / 1_000_000
}

/// Calls `tick` once a second of wall time for as long as the calling view lives (a drill's
/// attempt timer).
pub fn use_every_second(tick: impl Fn() + 'static) {
    let handle = set_interval_with_handle(tick, std::time::Duration::from_secs(1)).ok();
    on_cleanup(move || {
        if let Some(h) = handle {
            h.clear();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::{virtual_ms, MAX_FRAME_US};

    #[test]
    fn frames_add_up_to_real_time_times_speed_with_nothing_lost() {
        // 1×: 60 frames of 16,667 µs are 1,000.02 ms of real time, so 1,000 virtual ms.
        let (mut total, mut carry) = (0, 0);
        for _ in 0..60 {
            let (ms, rest) = virtual_ms(16_667, 4, carry);
            total += ms;
            carry = rest;
        }
        assert_eq!((total, carry), (1_000, 80));
        // 0.25×: a frame is worth about 4.17 ms; 240 of them make 1,000 ms, none dropped.
        let (mut total, mut carry) = (0, 0);
        for _ in 0..240 {
            let (ms, rest) = virtual_ms(16_667, 1, carry);
            total += ms;
            carry = rest;
        }
        assert_eq!(total, 1_000);
        assert!(carry < 4_000);
    }

    #[test]
    fn a_long_gap_counts_as_one_capped_frame() {
        // An hour in a background tab, at 64×, moves virtual time by 6.4 s, not 64 hours.
        assert_eq!(virtual_ms(3_600_000_000, 256, 0), (MAX_FRAME_US * 64 / 1_000, 0));
    }
}
