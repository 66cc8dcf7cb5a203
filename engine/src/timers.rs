//! The timer table: one ordered map keyed by (due time, sequence), so the next due timer is the
//! first entry and a cancelled timer is removed at once. No scans, no stale entries.

use crate::event::Name;
use crate::time::SimTime;
use std::collections::BTreeMap;

pub(crate) type TimerKey = (SimTime, u64);

/// What happens when a timer fires.
#[derive(Clone, Debug)]
pub(crate) enum Timer {
    /// An in-flight message's visibility timeout runs out.
    VisibilityTimeout { queue: Name, key: u64 },
    /// A delayed message becomes visible.
    DelayEnds { queue: Name, key: u64 },
    /// The oldest messages of a queue reach the end of the retention period.
    Retention { queue: Name },
    /// SNS hands a published message to one subscription's queue.
    SnsDelivery(Box<crate::sns::Delivery>),
    /// A message move task moves its next message.
    MoveTaskTick { task: u64 },
    /// A simulated actor's timer (a worker's poll, a Lambda batch window, …).
    World(crate::world::WorldTimer),
    /// EventBridge: a delivery attempt, a scheduled rule, a replay step.
    Events(crate::events::EventsTimer),
}

impl Timer {
    /// The cause written on events this timer produces.
    pub fn cause(&self) -> &'static str {
        match self {
            Timer::VisibilityTimeout { .. } => "VisibilityTimeout",
            Timer::DelayEnds { .. } => "DelaySeconds",
            Timer::Retention { .. } => "MessageRetentionPeriod",
            Timer::SnsDelivery(_) => "SnsDelivery",
            Timer::MoveTaskTick { .. } => "MessageMoveTask",
            Timer::World(t) => t.cause(),
            Timer::Events(t) => t.cause(),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Timers {
    next_seq: u64,
    table: BTreeMap<TimerKey, Timer>,
}

impl Timers {
    pub fn schedule(&mut self, at: SimTime, timer: Timer) -> TimerKey {
        let key = (at, self.next_seq);
        self.next_seq += 1;
        self.table.insert(key, timer);
        key
    }

    pub fn cancel(&mut self, key: TimerKey) {
        self.table.remove(&key);
    }

    pub fn next_due(&self) -> Option<SimTime> {
        self.table.first_key_value().map(|((at, _), _)| *at)
    }

    /// Removes and returns the first timer due at or before `now`.
    pub fn pop_due(&mut self, now: SimTime) -> Option<(SimTime, Timer)> {
        let (&(at, _), _) = self.table.first_key_value()?;
        if at > now {
            return None;
        }
        self.table.pop_first().map(|((at, _), timer)| (at, timer))
    }
}
