//! Time travel by checkpoint and deterministic replay. A story is its seed plus every successful
//! command with the virtual time it ran at; any moment of it is rebuilt by cloning the nearest
//! earlier checkpoint and replaying the commands after it. Acting after going back forks the
//! story: the commands after that moment are discarded.
//!
//! A checkpoint is the whole `Sim` but its event log: the log only grows, so the story's own
//! log, cut back to the checkpoint's length, is the checkpoint's log. Checkpoints are spaced by
//! events, at least [`CHECKPOINT_EVERY_EVENTS`] apart and further apart as the stored messages
//! grow, so that copying the state never costs much more than replaying the events since the
//! last copy. With the event log off (`set_event_recording(false)`, for a run nothing will
//! travel in) there are no checkpoints but the first.

use crate::error::ApiError;
use crate::sim::Sim;
use crate::time::SimTime;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One successful command of a story, exactly as it was applied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Command {
    pub at: SimTime,
    pub action: String,
    pub params: Value,
}

#[derive(Clone, Debug)]
struct Checkpoint {
    /// Commands `..next_command` are inside `sim`.
    next_command: usize,
    /// The length of the event log at the checkpoint (`sim` itself holds no events).
    events: usize,
    /// `History::settled` for `sim`.
    settled: SimTime,
    sim: Sim,
}

/// The fewest events between checkpoints: small enough that replaying them is quick.
pub const CHECKPOINT_EVERY_EVENTS: usize = 512;

#[derive(Clone, Debug)]
pub struct History {
    seed: u64,
    commands: Vec<Command>,
    checkpoints: Vec<Checkpoint>,
    sim: Sim,
    /// How many of `commands` are applied in `sim` (fewer after going back in time).
    applied: usize,
    /// Commands taken back by `undo`, most recent last, for `redo`, each with the moment the
    /// story was at when they were taken back (redo returns there: its exact inverse).
    undone: Vec<(Vec<Command>, SimTime)>,
    /// The latest moment this story has reached, so the timeline keeps its length after a seek back.
    horizon: SimTime,
    /// When `sim` last changed: the latest command applied or timer fired in it. From then to
    /// `sim.now()` only the clock moved, so a seek back into that stretch just sets the clock.
    settled: SimTime,
}

impl History {
    pub fn new(seed: u64) -> History {
        let sim = Sim::new(seed);
        History {
            seed,
            commands: Vec::new(),
            checkpoints: vec![Checkpoint { next_command: 0, events: 0, settled: SimTime::ZERO, sim: sim.clone() }],
            sim,
            applied: 0,
            undone: Vec::new(),
            horizon: SimTime::ZERO,
            settled: SimTime::ZERO,
        }
    }

    /// Rebuilds a story from its commands (a saved story or a share link), checking each one.
    /// Fails with the index of the first command that does not apply.
    pub fn from_commands(seed: u64, commands: &[Command]) -> Result<History, (usize, ApiError)> {
        let mut h = History::new(seed);
        for (i, c) in commands.iter().enumerate() {
            if c.at < h.sim.now() {
                return Err((i, ApiError::new("InvalidParameterValue", "commands must be in time order")));
            }
            h.advance_to(c.at);
            h.apply(&c.action, &c.params).map_err(|e| (i, e))?;
        }
        Ok(h)
    }

    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// Turns the event log off (a run that only checks responses) or back on, for the story
    /// from now on and for every replay of it. On by default.
    pub fn set_event_recording(&mut self, on: bool) {
        self.sim.set_event_recording(on);
        for c in &mut self.checkpoints {
            c.sim.set_event_recording(on);
        }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The commands of the whole story, including any ahead of the current moment.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }

    /// The latest moment of the story: its last command, or the furthest time it has been played to.
    pub fn end(&self) -> SimTime {
        self.commands.last().map_or(self.horizon, |c| c.at.max(self.horizon)).max(self.sim.now())
    }

    /// Applies a command now. After going back in time, this first discards the commands
    /// that were ahead (the story forks). A failed command changes nothing and is not kept.
    pub fn apply(&mut self, action: &str, params: &Value) -> Result<Value, ApiError> {
        let result = self.sim.apply(action, params)?;
        self.record(action, params.clone());
        Ok(result)
    }

    /// `apply`, keeping `params` itself as the command rather than a copy.
    pub fn apply_owned(&mut self, action: &str, params: Value) -> Result<Value, ApiError> {
        let result = self.sim.apply(action, &params)?;
        self.record(action, params);
        Ok(result)
    }

    /// Records a command that has just succeeded, forking the story if it was in the past.
    fn record(&mut self, action: &str, params: Value) {
        self.settled = self.sim.now();
        if self.applied < self.commands.len() || self.horizon > self.sim.now() {
            self.commands.truncate(self.applied);
            self.horizon = self.sim.now();
            let now = self.sim.now();
            let applied = self.applied;
            self.checkpoints.retain(|c| c.next_command <= applied && c.sim.now() <= now);
        }
        self.commands.push(Command { at: self.sim.now(), action: action.to_string(), params });
        self.applied = self.commands.len();
        self.undone.clear();
        self.maybe_checkpoint();
    }

    /// Moves time forward, replaying any recorded commands that fall on the way.
    pub fn advance_to(&mut self, t: SimTime) {
        while let Some(at) = self.commands.get(self.applied).map(|c| c.at).filter(|at| *at <= t) {
            self.run_timers_to(at);
            let c = &self.commands[self.applied];
            let replayed = self.sim.apply(&c.action, &c.params);
            debug_assert!(replayed.is_ok(), "invariant: a recorded command replays");
            self.settled = self.sim.now();
            self.applied += 1;
            self.maybe_checkpoint();
        }
        self.run_timers_to(t);
        self.horizon = self.horizon.max(self.sim.now());
        self.maybe_checkpoint();
    }

    /// When the next timer is due or the next recorded command runs, whichever comes first.
    pub fn next_due(&self) -> Option<SimTime> {
        let next_command = self.commands.get(self.applied).map(|c| c.at);
        match (self.sim.next_event_at(), next_command) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Fires the next due timer, or the next recorded command, whichever comes first.
    pub fn step(&mut self) -> Option<SimTime> {
        let next = self.next_due()?;
        self.advance_to(next);
        Some(next)
    }

    /// Rebuilds the story as it was at `t` (before or after now).
    /// Back to a moment after the last change, only the clock goes back: nothing happened in
    /// between, and the state is the same (scrubbing a quiet stretch copies nothing).
    pub fn seek(&mut self, t: SimTime) {
        if t >= self.sim.now() {
            self.advance_to(t);
        } else if t >= self.settled {
            self.sim.now = t;
        } else {
            self.restore_at(t);
        }
    }

    /// How many commands are applied at the current moment.
    pub fn applied(&self) -> usize {
        self.applied
    }

    pub fn can_undo(&self) -> bool {
        self.applied > 0
    }

    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Takes back the latest command applied so far (and the story after it), returning to the
    /// moment it was applied, as if it had not been. `redo` puts it back.
    pub fn undo(&mut self) -> bool {
        let Some(k) = self.applied.checked_sub(1) else { return false };
        let at = self.commands[k].at;
        let was = self.sim.now();
        self.undone.push((self.commands.split_off(k), was));
        self.checkpoints.retain(|c| c.next_command <= k && c.sim.now() <= at);
        self.restore_at(at);
        self.horizon = at;
        true
    }

    /// Applies again the commands the latest `undo` took back, at their own times, and returns
    /// to the moment the story was at when `undo` ran: the state, clock included, that undo
    /// left (undo and redo are exact inverses).
    pub fn redo(&mut self) -> bool {
        let Some((commands, was)) = self.undone.pop() else { return false };
        let at = commands[0].at;
        self.commands.extend(commands);
        self.seek(at.max(was).max(self.sim.now()));
        true
    }

    /// Rebuilds from the latest checkpoint at or before `t`. Its event log is the current one
    /// cut back: the story up to the checkpoint is the same, so its events are the same.
    fn restore_at(&mut self, t: SimTime) {
        let mut log = std::mem::take(&mut self.sim.log);
        let at = self.checkpoints.iter().rposition(|c| c.sim.now() <= t).unwrap_or(0);
        // The current log holds every earlier checkpoint's; if it somehow does not, start over.
        let at = if self.checkpoints[at].events <= log.len() { at } else { 0 };
        let cp = &self.checkpoints[at];
        log.truncate(cp.events);
        self.sim = cp.sim.clone();
        self.sim.log = log;
        self.applied = cp.next_command;
        self.settled = cp.settled;
        self.advance_to(t);
    }

    /// Takes a checkpoint when enough has happened since the last: at least
    /// `CHECKPOINT_EVERY_EVENTS` events, and at least as many events as there are stored
    /// messages (so the copy costs less than replaying since the last one) — also between
    /// commands of one moment (a burst of publishes at 0 s): `restore` sets the commands
    /// applied to the checkpoint's, and the advance after it replays those still due then.
    fn maybe_checkpoint(&mut self) {
        let last = self.checkpoints.last().expect("invariant: there is always a first checkpoint");
        let events = self.sim.log.len();
        if events < last.events + CHECKPOINT_EVERY_EVENTS {
            return;
        }
        let stored: usize = self.sim.queues.values().map(|q| q.messages.len()).sum();
        if events < last.events + stored {
            return;
        }
        let log = std::mem::take(&mut self.sim.log);
        let sim = self.sim.clone();
        self.sim.log = log;
        self.checkpoints.push(Checkpoint { next_command: self.applied, events, settled: self.settled, sim });
    }

    /// Moves the clock to `t`, firing the timers due on the way (as `Sim::advance_to` does, one
    /// due moment at a time) and noting when the last one fired.
    fn run_timers_to(&mut self, t: SimTime) {
        while let Some(at) = self.sim.next_event_at().filter(|at| *at <= t) {
            self.sim.advance_to(at);
            self.settled = self.sim.now();
        }
        self.sim.advance_to(t);
    }
}
