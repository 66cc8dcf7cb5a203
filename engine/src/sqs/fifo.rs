//! FIFO queues: message groups (order within a group; a message waits while an earlier message
//! of its group is in flight) and the five-minute deduplication interval. SNS FIFO topics use
//! the same deduplication.

use super::queue::MsgState;
use crate::event::Name;
use crate::ids::MsgId;
use crate::time::{SimTime, MINUTE};
use crate::vecmap::{VecMap, VecSet};
use std::collections::{BTreeSet, VecDeque};

/// Messages with the same deduplication id within this interval are accepted and dropped.
pub const DEDUPLICATION_INTERVAL_MS: u64 = 5 * MINUTE;

/// One message group's messages by state.
#[derive(Clone, Debug, Default)]
pub struct GroupState {
    /// Visible messages of the group as (order, key).
    pub visible: BTreeSet<(u64, u64)>,
    /// In-flight messages of the group as (order, key): the first one holds back every later
    /// message of the group.
    pub inflight: BTreeSet<(u64, u64)>,
    pub delayed: usize,
    /// The order under which the group is listed in `FifoState::heads`, if it is.
    head: Option<u64>,
}

impl GroupState {
    /// AWS (observed; the developer guide says only that messages of a group are returned in
    /// order): a message is withheld while an *earlier* message of its group is in flight, not
    /// while a later one is. So only visible messages ordered before the group's first in-flight
    /// message can be received; `None` when nothing of the group is in flight.
    pub fn receivable_before(&self) -> Option<u64> {
        self.inflight.first().map(|(order, _)| *order)
    }

    /// The copy (key) of the earliest in-flight message of the group, if it is ahead of `order`:
    /// the message a visible message at `order` waits behind.
    pub fn blocker_of(&self, order: u64) -> Option<u64> {
        self.inflight.first().filter(|(o, _)| *o < order).map(|(_, key)| *key)
    }
}

/// The FIFO bookkeeping of one queue.
#[derive(Clone, Debug, Default)]
pub struct FifoState {
    pub groups: VecMap<Name, GroupState>,
    /// Groups a receive may take from: a visible message with no earlier message of the group in
    /// flight, as (order of the group's first visible message, group). The first entry is
    /// served first.
    pub heads: VecSet<(u64, Name)>,
    pub dedup: Dedup,
    /// The last `SequenceNumber` given out.
    pub sequence: u64,
    /// Recent ReceiveMessage calls by ReceiveRequestAttemptId: (when, copies and their receive counts).
    pub attempts: VecMap<String, (SimTime, Vec<(u64, u32)>)>,
}

impl FifoState {
    /// A message of `group` enters `state`.
    pub fn enter(&mut self, group: &Name, state: MsgState, order: u64, key: u64) {
        let g = self.groups.entry(group.clone()).or_default();
        match state {
            MsgState::Visible => {
                g.visible.insert((order, key));
            }
            MsgState::InFlight { .. } => {
                g.inflight.insert((order, key));
            }
            MsgState::Delayed { .. } => g.delayed += 1,
        }
        self.refresh(group);
    }

    /// A message of `group` leaves `state`.
    pub fn leave(&mut self, group: &Name, state: MsgState, order: u64, key: u64) {
        let Some(g) = self.groups.get_mut(group) else { return };
        match state {
            MsgState::Visible => {
                g.visible.remove(&(order, key));
            }
            MsgState::InFlight { .. } => {
                g.inflight.remove(&(order, key));
            }
            MsgState::Delayed { .. } => g.delayed -= 1,
        }
        self.refresh(group);
    }

    /// Keeps `heads` in step with one group; forgets a group with no messages left.
    fn refresh(&mut self, group: &Name) {
        let Some(g) = self.groups.get_mut(group) else { return };
        let head = g.visible.first().map(|(order, _)| *order).filter(|o| g.receivable_before().is_none_or(|b| *o < b));
        if head != g.head {
            if let Some(old) = g.head {
                self.heads.remove(&(old, group.clone()));
            }
            if let Some(new) = head {
                self.heads.insert((new, group.clone()));
            }
            g.head = head;
        }
        if g.visible.is_empty() && g.inflight.is_empty() && g.delayed == 0 {
            self.groups.remove(group);
        }
    }

    pub fn next_sequence(&mut self) -> u64 {
        self.sequence += 1;
        self.sequence
    }
}

/// Deduplication ids seen in the last five minutes, per scope (a whole queue or topic, or one
/// message group), with the message id they were first accepted as.
#[derive(Clone, Debug, Default)]
pub struct Dedup {
    entries: VecMap<(String, String), (SimTime, MsgIdOrSns)>,
    /// When each recorded id's interval ends, in recording order: the clock never goes back,
    /// so that is also the order of the ends.
    expiry: VecDeque<(SimTime, String, String)>,
}

/// The id a deduplicated send or publish answers with: the first message's (for a FIFO topic,
/// with its sequence number, which a deduplicated publish returns too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsgIdOrSns {
    Sqs(MsgId),
    Sns(crate::ids::SnsId, u64),
}

impl Dedup {
    /// The message first accepted under this id, if it is still within the interval.
    pub fn seen(&self, now: SimTime, scope: &str, id: &str) -> Option<MsgIdOrSns> {
        self.entries.get(&(scope.to_string(), id.to_string())).filter(|(expires, _)| *expires > now).map(|(_, m)| *m)
    }

    /// Records a newly accepted message; forgets ids whose interval has passed.
    pub fn record(&mut self, now: SimTime, scope: &str, id: &str, message: MsgIdOrSns) {
        while let Some((at, s, i)) = self.expiry.front().cloned() {
            if at > now {
                break;
            }
            self.expiry.pop_front();
            if self.entries.get(&(s.clone(), i.clone())).is_some_and(|(e, _)| *e == at) {
                self.entries.remove(&(s, i));
            }
        }
        let expires = now.plus_ms(DEDUPLICATION_INTERVAL_MS);
        self.entries.insert((scope.to_string(), id.to_string()), (expires, message));
        self.expiry.push_back((expires, scope.to_string(), id.to_string()));
    }
}

/// `ContentBasedDeduplication`: the deduplication id is the SHA-256 of the body, in hex.
pub fn content_dedup_id(body: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(body.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// `MessageGroupId` and `MessageDeduplicationId`: 1 to 128 characters, letters, digits and
/// ASCII punctuation.
pub fn valid_fifo_token(token: &str) -> bool {
    !token.is_empty()
        && token.len() <= 128
        && token.chars().all(|c| c.is_ascii_alphanumeric() || c.is_ascii_punctuation())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedup_remembers_for_five_minutes() {
        let mut d = Dedup::default();
        d.record(SimTime(0), "q", "a", MsgIdOrSns::Sqs(MsgId(1)));
        assert_eq!(d.seen(SimTime(DEDUPLICATION_INTERVAL_MS - 1), "q", "a"), Some(MsgIdOrSns::Sqs(MsgId(1))));
        assert_eq!(d.seen(SimTime(DEDUPLICATION_INTERVAL_MS), "q", "a"), None);
        assert_eq!(d.seen(SimTime(0), "other scope", "a"), None);
    }

    #[test]
    fn content_id_is_sha256_hex() {
        // FIPS 180-2 test vector for "abc".
        assert_eq!(content_dedup_id("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
