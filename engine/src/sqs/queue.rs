//! One queue's messages and the indexes that make every operation logarithmic:
//! visible messages in receive order, and all messages by enqueue time (for retention and age).

use super::config::QueueConfig;
use super::fifo::FifoState;
use crate::attributes::MessageAttributes;
use crate::event::Name;
use crate::ids::{self, MsgId, SnsId};
use crate::throttle::RateWindows;
use crate::time::SimTime;
use crate::timers::{Timer, TimerKey, Timers};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Where a stored message is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum MsgState {
    /// Waiting out `DelaySeconds`; invisible until `until`.
    Delayed { since: SimTime, until: SimTime },
    /// Available to the next receive, in line by the message's `order`.
    Visible,
    /// Received and not yet deleted; hidden until `until` (the visibility timeout).
    InFlight { since: SimTime, until: SimTime },
}

/// One stored copy of a message. Duplicates (at-least-once delivery) are separate copies
/// that share a `MessageId`.
#[derive(Clone, Debug)]
pub struct Message {
    /// Unique per stored copy; what a receipt handle points at.
    pub key: u64,
    pub id: MsgId,
    pub body: Arc<str>,
    /// `MD5OfBody`, computed once.
    pub md5: Arc<str>,
    pub attributes: Arc<MessageAttributes>,
    /// `SentTimestamp`: when the message entered the queue. A standard dead-letter queue keeps the
    /// source queue's value, so retention keeps counting from the first send.
    pub sent_at: SimTime,
    pub first_receive_at: Option<SimTime>,
    /// `ApproximateReceiveCount`.
    pub receive_count: u32,
    pub state: MsgState,
    /// Its place in line when visible: lower is received first.
    pub order: u64,
    pub(crate) state_timer: Option<TimerKey>,
    /// `SenderId`: the topic ARN for SNS deliveries, the playground's account otherwise.
    pub sender: Name,
    /// The SNS message this copy came from, if it came through a topic.
    pub sns_id: Option<SnsId>,
    /// `DeadLetterQueueSourceArn`, set when redrive moved it here.
    pub dead_letter_source: Option<Name>,
    pub duplicate: bool,
    /// FIFO: `MessageGroupId`, `MessageDeduplicationId` and `SequenceNumber`.
    pub group: Option<Name>,
    pub dedup_id: Option<Name>,
    pub sequence: Option<u64>,
    /// `AWSTraceHeader`: the X-Ray trace header sent as a message system attribute. It stays
    /// with the message when it moves to a dead-letter queue.
    pub trace_header: Option<Arc<str>>,
}

impl Message {
    /// The handle of the current (latest) receive: `rh-<copy>-<receive number>`.
    pub fn receipt_handle(&self) -> String {
        let mut out = String::with_capacity(3 + 20 + 1 + 10);
        out.push_str("rh-");
        ids::push_decimal(&mut out, self.key);
        out.push('-');
        ids::push_decimal(&mut out, u64::from(self.receive_count));
        out
    }
}

/// Reads `rh-<copy>-<receive number>` back; `None` when it is not of that form.
pub fn parse_receipt_handle(handle: &str) -> Option<(u64, u32)> {
    let rest = handle.strip_prefix("rh-")?;
    let (key, generation) = rest.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.len() < 20 && s.bytes().all(|b| b.is_ascii_digit());
    (digits(key) && digits(generation)).then(|| Some((key.parse().ok()?, generation.parse().ok()?))).flatten()
}

/// Counters behind the CloudWatch-style metrics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct QueueStats {
    /// `NumberOfMessagesSent`: sends and SNS deliveries. Not moves by redrive, as on AWS.
    pub sent: u64,
    pub received: u64,
    pub deleted: u64,
    pub moved_to_dead_letter_queue: u64,
    /// Messages that arrived here from a source queue's redrive.
    pub arrived_from_redrive: u64,
    pub expired: u64,
    pub purged: u64,
}

#[derive(Clone, Debug)]
pub struct Queue {
    pub name: Name,
    pub arn: Name,
    pub config: QueueConfig,
    pub created_at: SimTime,
    pub modified_at: SimTime,
    /// Boxed, so that the map's nodes move pointers rather than whole messages.
    pub messages: BTreeMap<u64, Box<Message>>,
    /// Visible messages as (order, key): the first entry is the next one a receive returns.
    pub(crate) visible: BTreeSet<(u64, u64)>,
    /// Every message as (enqueue time in ms, key): the first entry is the oldest. Plain `u64`s,
    /// so the set shares its code with `visible` in the wasm bundle.
    pub(crate) by_sent: BTreeSet<(u64, u64)>,
    pub(crate) retention_timer: Option<TimerKey>,
    pub inflight: usize,
    pub delayed: usize,
    pub(crate) next_order: u64,
    pub stats: QueueStats,
    pub last_purge: Option<SimTime>,
    /// FIFO queues only: message groups and deduplication.
    pub(crate) fifo: Option<FifoState>,
    /// Calls per virtual second, for the FIFO throughput quotas.
    pub(crate) rates: RateWindows,
    /// Set when a message may have become receivable since the engine last looked: one entered
    /// the visible state, or (FIFO) one left the in-flight state, freeing the rest of its group.
    /// The engine reads and clears it after every action and timer, to wake long pollers.
    pub(crate) receivable: bool,
}

impl Queue {
    pub fn new(name: &str, config: QueueConfig, now: SimTime) -> Queue {
        let fifo = config.fifo.is_some().then(FifoState::default);
        Queue {
            name: name.into(),
            arn: ids::queue_arn(name).into(),
            config,
            created_at: now,
            modified_at: now,
            messages: BTreeMap::new(),
            visible: BTreeSet::new(),
            by_sent: BTreeSet::new(),
            retention_timer: None,
            inflight: 0,
            delayed: 0,
            next_order: 0,
            stats: QueueStats::default(),
            last_purge: None,
            fifo,
            rates: RateWindows::default(),
            receivable: false,
        }
    }

    pub fn url(&self) -> String {
        ids::queue_url(&self.name)
    }

    pub fn visible_count(&self) -> usize {
        self.visible.len()
    }

    /// FIFO: the message a visible copy waits behind — the earliest in-flight message of its
    /// group, when that one is ahead of it in the group (AWS withholds a message only while an
    /// earlier message of its group is in flight). `None` for a message a receive can take, for
    /// messages not visible, and on standard queues.
    pub fn blocked_by(&self, key: u64) -> Option<MsgId> {
        self.blocker(key).map(|m| m.id)
    }

    /// The in-flight message itself that [`blocked_by`](Self::blocked_by) names.
    pub fn blocker(&self, key: u64) -> Option<&Message> {
        let msg = self.messages.get(&key).filter(|m| m.state == MsgState::Visible)?;
        let group = self.fifo.as_ref()?.groups.get(msg.group.as_ref()?)?;
        group.blocker_of(msg.order).and_then(|k| self.messages.get(&k)).map(|m| &**m)
    }

    /// Age of the oldest message, as CloudWatch's `ApproximateAgeOfOldestMessage` (ms).
    pub fn oldest_age_ms(&self, now: SimTime) -> u64 {
        self.by_sent.first().map_or(0, |(sent, _)| now.0.saturating_sub(*sent))
    }

    /// The next place at the back of the line. Places are spaced by 4, so that a message the
    /// simulation reorders can be slotted in ahead of earlier ones.
    pub(crate) fn take_order(&mut self) -> u64 {
        self.next_order += 4;
        self.next_order
    }

    /// Puts a visible message at the back of the line.
    pub(crate) fn move_to_back(&mut self, key: u64) {
        debug_assert!(self.fifo.is_none(), "invariant: FIFO queues keep their order");
        let order = self.take_order();
        let Some(msg) = self.messages.get_mut(&key) else { return };
        if msg.state == MsgState::Visible {
            self.visible.remove(&(msg.order, key));
            self.visible.insert((order, key));
        }
        msg.order = order;
    }

    /// Stores a new copy, delayed until `visible_at` if that is later than `now`.
    pub(crate) fn insert(&mut self, mut msg: Box<Message>, now: SimTime, visible_at: SimTime, timers: &mut Timers) {
        let key = msg.key;
        if visible_at > now {
            msg.state = MsgState::Delayed { since: now, until: visible_at };
            msg.state_timer = Some(timers.schedule(visible_at, Timer::DelayEnds { queue: self.name.clone(), key }));
            self.delayed += 1;
        } else {
            msg.state = MsgState::Visible;
            self.visible.insert((msg.order, key));
            self.receivable = true;
        }
        if let (Some(fifo), Some(group)) = (&mut self.fifo, &msg.group) {
            fifo.enter(group, msg.state, msg.order, key);
        }
        self.by_sent.insert((msg.sent_at.0, key));
        self.messages.insert(key, msg);
        self.schedule_retention(timers);
    }

    /// Takes a copy out of the queue whatever its state, cancelling its timer.
    pub(crate) fn remove(&mut self, key: u64, timers: &mut Timers) -> Option<Message> {
        let msg = *self.messages.remove(&key)?;
        self.leave_state(key, msg.state, msg.order, msg.state_timer, msg.group.as_ref(), timers);
        self.by_sent.remove(&(msg.sent_at.0, key));
        Some(msg)
    }

    fn leave_state(
        &mut self,
        key: u64,
        state: MsgState,
        order: u64,
        timer: Option<TimerKey>,
        group: Option<&Name>,
        timers: &mut Timers,
    ) {
        match state {
            MsgState::Visible => {
                self.visible.remove(&(order, key));
            }
            MsgState::InFlight { .. } => {
                self.inflight -= 1;
                self.receivable |= self.fifo.is_some();
            }
            MsgState::Delayed { .. } => self.delayed -= 1,
        }
        if let Some(t) = timer {
            timers.cancel(t);
        }
        if let (Some(fifo), Some(group)) = (&mut self.fifo, group) {
            fifo.leave(group, state, order, key);
        }
    }

    /// Moves a stored copy to a new state, keeping counts, indexes and timers in step.
    pub(crate) fn set_state(&mut self, key: u64, state: MsgState, timers: &mut Timers) {
        let Some(msg) = self.messages.get_mut(&key) else { return };
        let (old_state, order) = (msg.state, msg.order);
        // Leaving the old state: the same steps, in the same order, as `leave_state`.
        match old_state {
            MsgState::Visible => {
                self.visible.remove(&(order, key));
            }
            MsgState::InFlight { .. } => {
                self.inflight -= 1;
                self.receivable |= self.fifo.is_some();
            }
            MsgState::Delayed { .. } => self.delayed -= 1,
        }
        if let Some(t) = msg.state_timer {
            timers.cancel(t);
        }
        if let (Some(fifo), Some(group)) = (&mut self.fifo, &msg.group) {
            fifo.leave(group, old_state, order, key);
        }
        let timer = match state {
            MsgState::Visible => {
                self.visible.insert((order, key));
                self.receivable = true;
                None
            }
            MsgState::InFlight { until, .. } => {
                self.inflight += 1;
                Some(timers.schedule(until, Timer::VisibilityTimeout { queue: self.name.clone(), key }))
            }
            MsgState::Delayed { until, .. } => {
                self.delayed += 1;
                Some(timers.schedule(until, Timer::DelayEnds { queue: self.name.clone(), key }))
            }
        };
        if let (Some(fifo), Some(group)) = (&mut self.fifo, &msg.group) {
            fifo.enter(group, state, order, key);
        }
        msg.state = state;
        msg.state_timer = timer;
    }

    /// (Re)arms the one retention timer for the oldest message.
    pub(crate) fn schedule_retention(&mut self, timers: &mut Timers) {
        let due =
            self.by_sent.first().map(|(sent, _)| SimTime(*sent).plus_secs(u64::from(self.config.retention_period)));
        if self.retention_timer.map(|(at, _)| Some(at)) == Some(due) {
            return;
        }
        if let Some(t) = self.retention_timer.take() {
            timers.cancel(t);
        }
        if let Some(due) = due {
            self.retention_timer = Some(timers.schedule(due, Timer::Retention { queue: self.name.clone() }));
        }
    }

    /// Removes every message whatever its state; returns how many there were.
    pub(crate) fn clear(&mut self, timers: &mut Timers) -> usize {
        let keys: Vec<u64> = self.messages.keys().copied().collect();
        for key in &keys {
            self.remove(*key, timers);
        }
        self.schedule_retention(timers);
        keys.len()
    }
}

#[cfg(test)]
mod tests {
    use crate::ids::MsgId;
    use crate::sim::Sim;
    use serde_json::json;

    /// (message id, the message it waits behind) for each copy of `q.fifo`, in enqueue order.
    fn blockers(sim: &Sim) -> Vec<(MsgId, Option<MsgId>)> {
        let q = sim.queues.get("q.fifo").expect("the test's queue exists");
        q.messages.values().map(|m| (m.id, q.blocked_by(m.key))).collect()
    }

    #[test]
    fn a_fifo_message_is_blocked_by_the_earliest_in_flight_message_ahead_of_it_in_its_group() {
        // SQS FIFO (AWS, observed): only an earlier in-flight message of the group holds a
        // message back; `blocked_by` names it (for "waiting behind msg-N").
        let mut sim = Sim::new(1);
        let apply = |sim: &mut Sim, action: &str, p| sim.apply(action, &p).expect("the step succeeds");
        apply(
            &mut sim,
            "CreateQueue",
            json!({"QueueName": "q.fifo", "Attributes": {"FifoQueue": "true", "ContentBasedDeduplication": "true"}}),
        );
        for (body, group) in [("a", "g"), ("b", "g"), ("c", "g"), ("other", "h")] {
            apply(&mut sim, "SendMessage", json!({"QueueUrl": "q.fifo", "MessageBody": body, "MessageGroupId": group}));
        }
        assert!(blockers(&sim).iter().all(|(_, b)| b.is_none()), "nothing in flight yet");
        let (a, b, c, other) = (MsgId(1), MsgId(2), MsgId(3), MsgId(4));
        apply(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q.fifo"}));
        assert_eq!(blockers(&sim), [(a, None), (b, Some(a)), (c, Some(a)), (other, None)]);
        apply(
            &mut sim,
            "ChangeMessageVisibility",
            json!({"QueueUrl": "q.fifo", "ReceiptHandle": "rh-1-1", "VisibilityTimeout": 0}),
        );
        let got = apply(&mut sim, "ReceiveMessage", json!({"QueueUrl": "q.fifo", "MaxNumberOfMessages": 10}));
        assert_eq!(got["Messages"].as_array().map(Vec::len), Some(4), "a, b, c and other, all in flight");
        let visible_again = |sim: &mut Sim, handle: &str| {
            apply(
                sim,
                "ChangeMessageVisibility",
                json!({"QueueUrl": "q.fifo", "ReceiptHandle": handle, "VisibilityTimeout": 0}),
            );
        };
        visible_again(&mut sim, "rh-3-1");
        assert_eq!(blockers(&sim), [(a, None), (b, None), (c, Some(a)), (other, None)], "c waits behind a");
        visible_again(&mut sim, "rh-1-2");
        assert_eq!(blockers(&sim), [(a, None), (b, None), (c, Some(b)), (other, None)], "a is free; c waits behind b");
    }
}
