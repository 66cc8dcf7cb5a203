//! Long polling in virtual time. A consumer whose receive finds nothing waits on its queue, up to
//! its WaitTimeSeconds. The queue itself says when a message becomes receivable (sent or
//! delivered, a delay ended, a visibility timeout ran out or was set to 0, moved in by redrive or
//! a move task, or a FIFO group freed by a delete; not a message moved in that the queue's own
//! redrive policy would move on at its next receive, which no poll would return, so that a
//! dead-letter cycle cannot wake pollers in a ring): after every action and every timer the engine
//! reads those notices and wakes the queue's waiters at that same virtual moment, as AWS answers
//! a waiting ReceiveMessage as soon as a message is available.

use super::WorldTimer;
use crate::event::Name;
use crate::sim::Sim;
use crate::timers::{Timer, TimerKey};
use crate::vecmap::VecMap;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Waiter {
    Worker(Name),
    Mapping(u64),
}

/// One queue's waiting consumers, longest waiting first, and the wake already scheduled for them.
/// Competing consumers take turns: a message goes to the consumer that has waited longest, so
/// three idle workers on one queue share its messages instead of the first by name taking all.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watch {
    waiters: Vec<Waiter>,
    wake: Option<TimerKey>,
}

pub(crate) type Watches = VecMap<Name, Watch>;

impl Sim {
    pub(crate) fn wait_on(&mut self, queue: &Name, waiter: Waiter) {
        let waiters = &mut self.world.watch.entry(queue.clone()).or_default().waiters;
        if !waiters.contains(&waiter) {
            waiters.push(waiter);
        }
    }

    pub(crate) fn stop_waiting(&mut self, queue: &Name, waiter: &Waiter) {
        if let Some(w) = self.world.watch.get_mut(queue) {
            w.waiters.retain(|x| x != waiter);
        }
    }

    /// Reads every queue's "a message became receivable" notice and clears it. A queue with
    /// waiters gets one wake, now: a timer, so the waiters poll after the action or timer that
    /// made the message receivable has finished (never inside it).
    pub(crate) fn raise_receivable(&mut self) {
        let mut woken = Vec::new();
        for (name, q) in &mut self.queues {
            if std::mem::take(&mut q.receivable)
                && self.world.watch.get(name).is_some_and(|w| !w.waiters.is_empty() && w.wake.is_none())
            {
                woken.push(name.clone());
            }
        }
        for name in woken {
            let key = self.timers.schedule(self.now, Timer::World(WorldTimer::QueueWake(name.clone())));
            if let Some(w) = self.world.watch.get_mut(&name) {
                w.wake = Some(key);
            }
        }
    }

    /// Wakes the queue's waiters, in order, while it has visible messages for them.
    pub(crate) fn on_queue_wake(&mut self, queue: &Name) {
        let waiters: Vec<Waiter> = match self.world.watch.get_mut(queue) {
            Some(w) => {
                w.wake = None;
                w.waiters.to_vec()
            }
            None => Vec::new(),
        };
        for waiter in waiters {
            if self.queues.get(queue).is_none_or(|q| q.visible_count() == 0) {
                break;
            }
            self.stop_waiting(queue, &waiter);
            match waiter {
                Waiter::Worker(w) => self.worker_poll(&w),
                Waiter::Mapping(m) => self.mapping_poll(m),
            }
        }
    }
}
