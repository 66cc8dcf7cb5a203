//! Time travel by checkpoint and deterministic replay. A story is its seed plus every successful
//! command with the virtual time it ran at; any moment of it is rebuilt by cloning the nearest
//! earlier checkpoint and replaying the commands after it. Acting after going back forks the
//! story: the commands after that moment are discarded.

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
    /// `History::settled` for `sim`.
    settled: SimTime,
    sim: Sim,
}

/// A take of the events between checkpoints: small enough that replaying is quick.
const CHECKPOINT_EVERY_EVENTS: usize = 512;

#[derive(Clone, Debug)]
pub struct History {
    seed: u64,
    commands: Vec<Command>,
    checkpoints: Vec<Checkpoint>,
    sim: Sim,
    /// How many of `commands` are applied in `sim` (fewer after going back in time).
    applied: usize,
    /// Commands taken back by `undo`, most recent last, for `redo`.
    undone: Vec<Vec<Command>>,
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
            checkpoints: vec![Checkpoint { next_command: 0, settled: SimTime::ZERO, sim: sim.clone() }],
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
        self.settled = self.sim.now();
        if self.applied < self.commands.len() || self.horizon > self.sim.now() {
            self.commands.truncate(self.applied);
            self.horizon = self.sim.now();
            let now = self.sim.now();
            let applied = self.applied;
            self.checkpoints.retain(|c| c.next_command <= applied && c.sim.now() <= now);
        }
        self.commands.push(Command { at: self.sim.now(), action: action.to_string(), params: params.clone() });
        self.applied = self.commands.len();
        self.undone.clear();
        self.maybe_checkpoint();
        Ok(result)
    }

    /// Moves time forward, replaying any recorded commands that fall on the way.
    pub fn advance_to(&mut self, t: SimTime) {
        while let Some(c) = self.commands.get(self.applied).filter(|c| c.at <= t).cloned() {
            self.run_timers_to(c.at);
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

    /// Fires the next due timer, or the next recorded command, whichever comes first.
    pub fn step(&mut self) -> Option<SimTime> {
        let next_command = self.commands.get(self.applied).map(|c| c.at);
        let next = match (self.sim.next_event_at(), next_command) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        self.advance_to(next);
        Some(next)
    }

    /// Rebuilds the story as it was at `t` (before or after now). Back to a moment after the
    /// last change, only the clock goes back: nothing happened in between, and the state is
    /// the same (scrubbing a quiet stretch of the timeline copies nothing).
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
        self.undone.push(self.commands.split_off(k));
        self.checkpoints.retain(|c| c.next_command <= k && c.sim.now() <= at);
        self.restore_at(at);
        self.horizon = at;
        true
    }

    /// Applies again the commands the latest `undo` took back, at their own times.
    pub fn redo(&mut self) -> bool {
        let Some(commands) = self.undone.pop() else { return false };
        let at = commands[0].at;
        self.commands.extend(commands);
        self.seek(at.max(self.sim.now()));
        true
    }

    /// Rebuilds from the latest checkpoint at or before `t`.
    fn restore_at(&mut self, t: SimTime) {
        let cp = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.sim.now() <= t)
            .expect("invariant: the first checkpoint is at time 0");
        self.sim = cp.sim.clone();
        self.settled = cp.settled;
        self.applied = cp.next_command;
        self.advance_to(t);
    }

    /// Takes a checkpoint every `CHECKPOINT_EVERY_EVENTS` events, also between commands at one
    /// moment (thousands of publishes at 0 s): a seek to that moment then replays at most one
    /// take, not the whole burst. `restore_at` picks the latest checkpoint at or before its
    /// time, and replays the commands still due at that time, so a checkpoint taken between
    /// two commands of the same moment rebuilds it exactly.
    fn maybe_checkpoint(&mut self) {
        let last = self.checkpoints.last().expect("invariant: there is always a first checkpoint");
        if self.sim.events().len() >= last.sim.events().len() + CHECKPOINT_EVERY_EVENTS {
            self.checkpoints.push(Checkpoint {
                next_command: self.applied,
                settled: self.settled,
                sim: self.sim.clone(),
            });
        }
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
