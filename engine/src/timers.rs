//! The timer table: one ordered set of (due time, id), so the next due timer is the first entry
//! and a cancelled timer is removed at once. No scans, no stale entries. The timers themselves
//! wait in numbered slots, reused once free; an id is the timer's sequence number (the order it
//! was scheduled in) with its slot in the low bits, so timers due at one moment fire in the
//! order they were scheduled.
//!
//! The order is a `BTreeSet<(u64, u64)>`, the type the queues keep their visible, in-flight and
//! sent orders in: in the browser bundle the B-tree's code is there once for both, where a
//! `BTreeMap<(SimTime, u64), Timer>` instantiated all of it (insert, split, remove, merge,
//! steal, clone, drop) a second time, about 6 KB of wasm.

use crate::event::Name;
use crate::time::SimTime;
use std::collections::BTreeSet;

/// A scheduled timer: when it is due, and its id (see the module docs).
pub(crate) type TimerKey = (SimTime, u64);

/// An id's low bits name its slot: room for 16 million timers pending at once, and 2^40
/// scheduled in one simulation.
const SLOT_BITS: u32 = 24;

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
    /// (due time in ms, id) of every pending timer, in firing order.
    order: BTreeSet<(u64, u64)>,
    /// The pending timers by slot; `None` in a free slot.
    slots: Vec<Option<Timer>>,
    /// The free slots, the last freed last.
    free: Vec<usize>,
}

impl Timers {
    pub fn schedule(&mut self, at: SimTime, timer: Timer) -> TimerKey {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot] = Some(timer);
                slot
            }
            None => {
                self.slots.push(Some(timer));
                self.slots.len() - 1
            }
        };
        assert!(slot < 1 << SLOT_BITS, "more than 2^24 timers pending at once");
        let id = self.next_seq << SLOT_BITS | slot as u64;
        self.next_seq += 1;
        self.order.insert((at.0, id));
        (at, id)
    }

    pub fn cancel(&mut self, key: TimerKey) {
        if self.order.remove(&(key.0 .0, key.1)) {
            self.take(key.1);
        }
    }

    pub fn next_due(&self) -> Option<SimTime> {
        self.order.first().map(|&(at, _)| SimTime(at))
    }

    /// Removes and returns the first timer due at or before `now`.
    pub fn pop_due(&mut self, now: SimTime) -> Option<(SimTime, Timer)> {
        let &(at, _) = self.order.first()?;
        if at > now.0 {
            return None;
        }
        let (at, id) = self.order.pop_first()?;
        Some((SimTime(at), self.take(id)))
    }

    /// Empties the slot of timer `id` and frees it.
    fn take(&mut self, id: u64) -> Timer {
        let slot = (id & ((1 << SLOT_BITS) - 1)) as usize;
        self.free.push(slot);
        self.slots[slot].take().expect("invariant: a pending timer's slot holds it")
    }
}

#[cfg(test)]
mod tests {
    use super::{Timer, Timers};
    use crate::time::SimTime;

    fn tick(task: u64) -> Timer {
        Timer::MoveTaskTick { task }
    }

    fn task(t: Timer) -> u64 {
        match t {
            Timer::MoveTaskTick { task } => task,
            _ => unreachable!(),
        }
    }

    /// Due order, then scheduling order at one moment, with slots freed and reused between.
    #[test]
    fn fires_in_due_then_scheduling_order_with_slots_reused() {
        let mut timers = Timers::default();
        let a = timers.schedule(SimTime(30), tick(1));
        timers.schedule(SimTime(10), tick(2));
        let c = timers.schedule(SimTime(10), tick(3));
        timers.cancel(a);
        timers.cancel(a);
        // Takes the slot `a` freed, yet fires after the earlier timers due at 10.
        timers.schedule(SimTime(10), tick(4));
        timers.schedule(SimTime(5), tick(5));
        timers.cancel(c);
        assert_eq!(timers.next_due(), Some(SimTime(5)));
        assert!(timers.pop_due(SimTime(4)).is_none());
        let mut fired = Vec::new();
        while let Some((at, t)) = timers.pop_due(SimTime(100)) {
            fired.push((at.0, task(t)));
        }
        assert_eq!(fired, [(5, 5), (10, 2), (10, 4)]);
        assert_eq!(timers.next_due(), None);
        assert_eq!(timers.slots.len(), 4, "a freed slot is used again");
    }
}
