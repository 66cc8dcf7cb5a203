//! Long polling in virtual time. A consumer whose receive finds nothing waits on its queue, up to
//! its WaitTimeSeconds, and is woken as soon as a message can be visible there: exactly when a
//! message the world's actors received runs out its visibility timeout or a producer's message
//! lands (one wake timer per queue), and otherwise at the next whole second, when a sweep that runs
//! only while someone waits looks for queues with visible messages (a message sent by hand).

use super::WorldTimer;
use crate::event::Name;
use crate::sim::Sim;
use crate::time::{SimTime, SECOND};
use crate::timers::{Timer, TimerKey};
use crate::vecmap::VecMap;
use crate::vecmap::VecSet;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Waiter {
    Worker(Name),
    Mapping(u64),
}

/// One queue's waiting consumers and the moments a message may become visible there.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watch {
    waiters: VecSet<Waiter>,
    pending: VecSet<SimTime>,
    timer: Option<(SimTime, TimerKey)>,
}

pub(crate) type Watches = VecMap<Name, Watch>;

impl Sim {
    pub(crate) fn wait_on(&mut self, queue: &Name, waiter: Waiter) {
        self.world.watch.entry(queue.clone()).or_default().waiters.insert(waiter);
        self.arm_wake(queue);
        self.arm_sweep();
    }

    /// Schedules the sweep for the next whole second, unless it is scheduled already.
    fn arm_sweep(&mut self) {
        if self.world.sweep.is_none() {
            let at = SimTime((self.now.0 / SECOND + 1) * SECOND);
            self.world.sweep = Some(self.timers.schedule(at, Timer::World(WorldTimer::Sweep)));
        }
    }

    /// Once a second while anyone waits: wake the waiters of queues with visible messages.
    pub(crate) fn on_sweep(&mut self) {
        self.world.sweep = None;
        self.wake_ready();
        if self.world.watch.values().any(|w| !w.waiters.is_empty()) {
            self.arm_sweep();
        }
    }

    pub(crate) fn stop_waiting(&mut self, queue: &Name, waiter: &Waiter) {
        if let Some(w) = self.world.watch.get_mut(queue) {
            w.waiters.remove(waiter);
        }
    }

    /// A message in `queue` may become visible at `at` (a receive's visibility timeout, a delivery).
    pub(crate) fn note_visible_at(&mut self, queue: &Name, at: SimTime) {
        let now = self.now;
        let watch = self.world.watch.entry(queue.clone()).or_default();
        while watch.pending.first().is_some_and(|t| *t < now) {
            watch.pending.pop_first();
        }
        watch.pending.insert(at);
        self.arm_wake(queue);
    }

    /// Schedules the queue's wake timer for its earliest pending moment, while anyone waits.
    fn arm_wake(&mut self, queue: &Name) {
        let now = self.now;
        let Some(watch) = self.world.watch.get_mut(queue) else { return };
        while watch.pending.first().is_some_and(|t| *t < now) {
            watch.pending.pop_first();
        }
        let due = watch.pending.first().copied().filter(|_| !watch.waiters.is_empty());
        if watch.timer.map(|(at, _)| at) == due {
            return;
        }
        if let Some((_, key)) = watch.timer.take() {
            self.timers.cancel(key);
        }
        if let Some(at) = due {
            let key = self.timers.schedule(at, Timer::World(WorldTimer::QueueWake(queue.clone())));
            if let Some(watch) = self.world.watch.get_mut(queue) {
                watch.timer = Some((at, key));
            }
        }
    }

    pub(crate) fn on_queue_wake(&mut self, queue: &Name) {
        let now = self.now;
        if let Some(watch) = self.world.watch.get_mut(queue) {
            watch.timer = None;
            while watch.pending.first().is_some_and(|t| *t <= now) {
                watch.pending.pop_first();
            }
        }
        self.wake_queue(queue);
        self.arm_wake(queue);
    }

    /// Wakes the queue's waiters, in order, while it has visible messages for them.
    fn wake_queue(&mut self, queue: &Name) {
        let waiters: Vec<Waiter> =
            self.world.watch.get(queue).map(|w| w.waiters.iter().cloned().collect()).unwrap_or_default();
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

    /// Wakes the waiters of every queue that has visible messages now (sent by hand, say).
    /// Cheap: only queues with waiters are looked at.
    pub(crate) fn wake_ready(&mut self) {
        let ready: Vec<Name> = self
            .world
            .watch
            .iter()
            .filter(|(q, w)| !w.waiters.is_empty() && self.queues.get(*q).is_some_and(|q| q.visible_count() > 0))
            .map(|(q, _)| q.clone())
            .collect();
        for q in ready {
            self.wake_queue(&q);
        }
    }

    /// Notes that everything subscribed to `topic` receives a copy after the SNS delivery latency.
    pub(crate) fn note_topic_delivery(&mut self, topic: &Name) {
        let at = self.now.plus_ms(self.settings.sns_delivery_latency_ms);
        let queues: Vec<Name> = self
            .topics
            .get(topic)
            .map(|t| {
                t.subscriptions
                    .iter()
                    .filter_map(|s| self.subscriptions.get(s).and_then(|s| s.queue_name()))
                    .filter_map(|n| self.queues.get_key_value(n).map(|(k, _)| k.clone()))
                    .collect()
            })
            .unwrap_or_default();
        for q in queues {
            if self.world.watch.get(&q).is_some_and(|w| !w.waiters.is_empty()) {
                self.note_visible_at(&q, at);
            }
        }
    }
}
