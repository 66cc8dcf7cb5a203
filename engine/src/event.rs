//! Everything that happens in the simulation, in the past tense, stamped with its virtual time
//! and its cause (the action that did it, or the timer that fired).

use crate::ids::{MsgId, SnsId};
use crate::time::SimTime;
use serde::Serialize;
use std::sync::Arc;

/// A resource name shared cheaply between events and state.
pub type Name = Arc<str>;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    /// Position in the log, from 0.
    pub seq: u64,
    pub at: SimTime,
    /// The action that caused it (`Publish`, `ReceiveMessage`, …) or the timer (`VisibilityTimeout`, …).
    pub cause: &'static str,
    #[serde(flatten)]
    pub kind: EventKind,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event")]
pub enum EventKind {
    TopicCreated {
        topic: Name,
    },
    TopicDeleted {
        topic: Name,
        subscriptions_removed: usize,
    },
    Subscribed {
        topic: Name,
        subscription: Name,
        endpoint: Name,
    },
    Unsubscribed {
        topic: Name,
        subscription: Name,
    },
    SubscriptionAttributeSet {
        subscription: Name,
        attribute: String,
        value: String,
    },
    QueueCreated {
        queue: Name,
    },
    QueueDeleted {
        queue: Name,
        messages_lost: usize,
    },
    QueueAttributesSet {
        queue: Name,
        attributes: Vec<String>,
    },
    /// A Publish was accepted; copies follow as `DeliveredToQueue`, `FilteredOut` or `DeliveryFailed`.
    Published {
        topic: Name,
        sns_message_id: SnsId,
        subscriptions: usize,
    },
    DeliveredToQueue {
        topic: Name,
        subscription: Name,
        queue: Name,
        sns_message_id: SnsId,
        message_id: MsgId,
        raw: bool,
    },
    FilteredOut {
        topic: Name,
        subscription: Name,
        endpoint: Name,
        sns_message_id: SnsId,
        key: String,
        reason: String,
    },
    DeliveryFailed {
        topic: Name,
        subscription: Name,
        endpoint: Name,
        sns_message_id: SnsId,
        reason: String,
        /// The subscription's own dead-letter queue, where the message went instead, if it has one.
        dead_letter_queue: Option<Name>,
    },
    /// A server-side error answered one attempt; SNS retries at `retry_at` under the delivery
    /// policy, or (`None`) the policy is exhausted and `DeliveryFailed` follows.
    DeliveryAttemptFailed {
        topic: Name,
        subscription: Name,
        endpoint: Name,
        sns_message_id: SnsId,
        attempt: u32,
        reason: String,
        retry_at: Option<SimTime>,
    },
    /// An HTTP/S endpoint accepted a copy (any 2xx–4xx answer), at the `attempt`-th try.
    DeliveredToEndpoint {
        topic: Name,
        subscription: Name,
        endpoint: Name,
        sns_message_id: SnsId,
        attempt: u32,
        status: Option<u16>,
    },
    /// An HTTP/S endpoint confirmed its subscription: SNS delivers to it from now on.
    SubscriptionConfirmed {
        topic: Name,
        subscription: Name,
        endpoint: Name,
    },
    MessageSent {
        queue: Name,
        message_id: MsgId,
        delay_seconds: u32,
    },
    /// At-least-once delivery: a second copy of a message was stored (seeded probability).
    /// FIFO: a send or publish with a deduplication id seen in the last five minutes was
    /// acknowledged and dropped. `resource` is the queue or topic; `message_id` the first message's.
    Deduplicated {
        resource: Name,
        message_id: String,
        deduplication_id: String,
    },
    DuplicateStored {
        queue: Name,
        message_id: MsgId,
    },
    DelayEnded {
        queue: Name,
        message_id: MsgId,
    },
    Received {
        queue: Name,
        message_id: MsgId,
        receive_count: u32,
        receipt_handle: String,
        visible_again_at: SimTime,
    },
    VisibilityChanged {
        queue: Name,
        message_id: MsgId,
        visible_again_at: SimTime,
    },
    VisibilityExpired {
        queue: Name,
        message_id: MsgId,
        receive_count: u32,
        moved_to_back: bool,
    },
    Deleted {
        queue: Name,
        message_id: MsgId,
    },
    /// DeleteMessage with a receipt handle from an earlier receive: accepted, nothing deleted.
    DeleteIgnored {
        queue: Name,
        message_id: MsgId,
        reason: String,
    },
    MovedToDeadLetterQueue {
        queue: Name,
        dead_letter_queue: Name,
        message_id: MsgId,
        receive_count: u32,
    },
    ExpiredByRetention {
        queue: Name,
        message_id: MsgId,
        age_ms: u64,
    },
    Purged {
        queue: Name,
        messages: usize,
    },
    MoveTaskStarted {
        task: String,
        source: Name,
        destination: Option<Name>,
        to_move: usize,
    },
    /// Redrive made a new message (`new_message_id`) in the destination from `message_id`.
    MessageMoved {
        task: String,
        source: Name,
        destination: Name,
        message_id: MsgId,
        new_message_id: MsgId,
    },
    MoveTaskEnded {
        task: String,
        status: &'static str,
        moved: usize,
        reason: Option<String>,
    },
    SimulationConfigured {
        setting: String,
        value: String,
    },
    /// An event of the simulated actors (workers, Lambda, dependencies, alarms).
    #[serde(untagged)]
    World(crate::world::WorldEvent),
    /// An Amazon EventBridge event (buses, rules, deliveries, archives, replays).
    #[serde(untagged)]
    EventBridge(crate::events::EbEvent),
}

impl EventKind {
    /// The resources an event concerns, for filtering the log by resource.
    pub fn resources(&self) -> Vec<&str> {
        use EventKind::*;
        match self {
            TopicCreated { topic } | TopicDeleted { topic, .. } | Published { topic, .. } => vec![topic],
            Subscribed { topic, subscription, endpoint } => vec![topic, subscription, endpoint],
            Unsubscribed { topic, subscription } => vec![topic, subscription],
            SubscriptionAttributeSet { subscription, .. } => vec![subscription],
            DeliveredToQueue { topic, subscription, queue, .. } => vec![topic, subscription, queue],
            FilteredOut { topic, subscription, endpoint, .. } => vec![topic, subscription, endpoint],
            DeliveryFailed { topic, subscription, endpoint, dead_letter_queue, .. } => {
                let mut v = vec![&**topic, subscription, endpoint];
                v.extend(dead_letter_queue.as_deref());
                v
            }
            DeliveryAttemptFailed { topic, subscription, endpoint, .. }
            | DeliveredToEndpoint { topic, subscription, endpoint, .. }
            | SubscriptionConfirmed { topic, subscription, endpoint } => vec![topic, subscription, endpoint],
            QueueCreated { queue }
            | QueueDeleted { queue, .. }
            | QueueAttributesSet { queue, .. }
            | MessageSent { queue, .. }
            | DuplicateStored { queue, .. }
            | Deduplicated { resource: queue, .. }
            | DelayEnded { queue, .. }
            | Received { queue, .. }
            | VisibilityChanged { queue, .. }
            | VisibilityExpired { queue, .. }
            | Deleted { queue, .. }
            | DeleteIgnored { queue, .. }
            | ExpiredByRetention { queue, .. }
            | Purged { queue, .. } => vec![queue],
            MovedToDeadLetterQueue { queue, dead_letter_queue, .. } => vec![queue, dead_letter_queue],
            MoveTaskStarted { source, destination, .. } => {
                let mut v = vec![&**source];
                v.extend(destination.as_deref());
                v
            }
            MessageMoved { source, destination, .. } => vec![source, destination],
            MoveTaskEnded { .. } | SimulationConfigured { .. } => vec![],
            World(e) => e.resources(),
            EventBridge(e) => e.resources(),
        }
    }

    /// The event's name, as in the log (`Received`).
    pub fn name(&self) -> &'static str {
        use EventKind::*;
        match self {
            TopicCreated { .. } => "TopicCreated",
            TopicDeleted { .. } => "TopicDeleted",
            Subscribed { .. } => "Subscribed",
            Unsubscribed { .. } => "Unsubscribed",
            SubscriptionAttributeSet { .. } => "SubscriptionAttributeSet",
            QueueCreated { .. } => "QueueCreated",
            QueueDeleted { .. } => "QueueDeleted",
            QueueAttributesSet { .. } => "QueueAttributesSet",
            Published { .. } => "Published",
            DeliveredToQueue { .. } => "DeliveredToQueue",
            FilteredOut { .. } => "FilteredOut",
            DeliveryFailed { .. } => "DeliveryFailed",
            DeliveryAttemptFailed { .. } => "DeliveryAttemptFailed",
            DeliveredToEndpoint { .. } => "DeliveredToEndpoint",
            SubscriptionConfirmed { .. } => "SubscriptionConfirmed",
            MessageSent { .. } => "MessageSent",
            DuplicateStored { .. } => "DuplicateStored",
            Deduplicated { .. } => "Deduplicated",
            DelayEnded { .. } => "DelayEnded",
            Received { .. } => "Received",
            VisibilityChanged { .. } => "VisibilityChanged",
            VisibilityExpired { .. } => "VisibilityExpired",
            Deleted { .. } => "Deleted",
            DeleteIgnored { .. } => "DeleteIgnored",
            MovedToDeadLetterQueue { .. } => "MovedToDeadLetterQueue",
            ExpiredByRetention { .. } => "ExpiredByRetention",
            Purged { .. } => "Purged",
            MoveTaskStarted { .. } => "MoveTaskStarted",
            MessageMoved { .. } => "MessageMoved",
            MoveTaskEnded { .. } => "MoveTaskEnded",
            SimulationConfigured { .. } => "SimulationConfigured",
            World(e) => e.name(),
            EventBridge(e) => e.name(),
        }
    }
}

impl Event {
    /// One line for a human: `00:00:01.000  Received  msg-3 received from sms (receive 2), …`.
    pub fn describe(&self) -> String {
        format!("{}  {:<22} {}", self.at, self.kind.name(), self.kind.summary())
    }
}

/// "1 receive", "2 receives": the count with its noun agreeing.
fn receives(n: u32) -> String {
    format!("{n} receive{}", if n == 1 { "" } else { "s" })
}

impl EventKind {
    /// What happened, in a short sentence: `msg-3 received from sms (receive 2), hidden until …`.
    pub fn summary(&self) -> String {
        use EventKind::*;
        match self {
            TopicCreated { topic } => format!("topic {topic} created"),
            TopicDeleted { topic, subscriptions_removed } => {
                format!("topic {topic} deleted with {subscriptions_removed} subscriptions")
            }
            Subscribed { topic, endpoint, .. } => {
                format!("{} subscribed to {topic}", crate::ids::queue_name_from(endpoint).unwrap_or(endpoint))
            }
            Unsubscribed { topic, subscription } => format!("{subscription} unsubscribed from {topic}"),
            SubscriptionAttributeSet { subscription, attribute, value } => {
                format!("{subscription}: {attribute} = {value}")
            }
            QueueCreated { queue } => format!("queue {queue} created"),
            QueueDeleted { queue, messages_lost } => format!("queue {queue} deleted ({messages_lost} messages lost)"),
            QueueAttributesSet { queue, attributes } => format!("{queue}: set {}", attributes.join(", ")),
            Published { topic, sns_message_id, subscriptions } => {
                let s = if *subscriptions == 1 { "" } else { "s" };
                format!("{sns_message_id} published to {topic} ({subscriptions} subscription{s})")
            }
            DeliveredToQueue { queue, sns_message_id, message_id, raw, .. } => format!(
                "{sns_message_id} delivered to {queue} as {message_id} ({})",
                if *raw { "raw" } else { "SNS envelope" }
            ),
            FilteredOut { endpoint, sns_message_id, reason, .. } => {
                format!("{sns_message_id} filtered out for {endpoint}: {reason}")
            }
            DeliveryFailed { endpoint, sns_message_id, reason, dead_letter_queue, .. } => match dead_letter_queue {
                Some(dlq) => format!("{sns_message_id} not delivered to {endpoint} ({reason}); kept in {dlq}"),
                None => format!("{sns_message_id} not delivered to {endpoint} ({reason}); discarded"),
            },
            DeliveryAttemptFailed { endpoint, sns_message_id, attempt, reason, retry_at, .. } => match retry_at {
                Some(at) => {
                    format!("{sns_message_id} attempt {attempt} to {endpoint} failed ({reason}); SNS retries at {at}")
                }
                None => format!("{sns_message_id} attempt {attempt} to {endpoint} failed ({reason}); no retries left"),
            },
            DeliveredToEndpoint { endpoint, sns_message_id, attempt, status, .. } => {
                let answer = status.map(|s| format!(", answered {s}")).unwrap_or_default();
                format!("{sns_message_id} delivered to {endpoint} at attempt {attempt}{answer}")
            }
            SubscriptionConfirmed { topic, endpoint, .. } => {
                format!("{endpoint} confirmed its subscription to {topic}")
            }
            MessageSent { queue, message_id, delay_seconds: 0 } => format!("{message_id} sent to {queue}"),
            MessageSent { queue, message_id, delay_seconds } => {
                format!("{message_id} sent to {queue}, delayed {delay_seconds} s")
            }
            DuplicateStored { queue, message_id } => format!("a duplicate of {message_id} stored in {queue}"),
            Deduplicated { resource, message_id, deduplication_id } => format!(
                "{resource} dropped a duplicate of {message_id} (deduplication id {}) within the 5-minute interval",
                if deduplication_id.chars().count() > 16 {
                    format!("{}…", deduplication_id.chars().take(12).collect::<String>())
                } else {
                    deduplication_id.clone()
                }
            ),
            DelayEnded { queue, message_id } => format!("{message_id} in {queue} is visible after its delay"),
            Received { queue, message_id, receive_count, visible_again_at, .. } => {
                format!("{message_id} received from {queue} (receive {receive_count}), hidden until {visible_again_at}")
            }
            VisibilityChanged { queue, message_id, visible_again_at } => {
                format!("{message_id} in {queue} now hidden until {visible_again_at}")
            }
            VisibilityExpired { queue, message_id, receive_count, moved_to_back } => format!(
                "{message_id} visible again in {queue} after {}{}",
                receives(*receive_count),
                if *moved_to_back { ", moved to the back of the queue" } else { "" }
            ),
            Deleted { queue, message_id } => format!("{message_id} deleted from {queue}"),
            DeleteIgnored { queue, message_id, reason } => {
                format!("{message_id} in {queue}: the delete succeeded, but the message stays: {reason}")
            }
            MovedToDeadLetterQueue { queue, dead_letter_queue, message_id, receive_count } => {
                format!("{message_id} moved from {queue} to {dead_letter_queue} after {}", receives(*receive_count))
            }
            ExpiredByRetention { queue, message_id, age_ms } => {
                format!("{message_id} expired from {queue} at age {}", SimTime(*age_ms))
            }
            Purged { queue, messages } => format!("{queue} purged ({messages} messages)"),
            MoveTaskStarted { task, source, destination, to_move } => format!(
                "move task {task} started: {to_move} messages from {source} to {}",
                destination.as_deref().unwrap_or("their source queues")
            ),
            MessageMoved { source, destination, message_id, new_message_id, .. } => {
                format!("{message_id} moved from {source} to {destination} as {new_message_id}")
            }
            MoveTaskEnded { task, status, moved, reason } => format!(
                "move task {task} {status} after moving {moved} messages{}",
                reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default()
            ),
            SimulationConfigured { setting, value } => format!("simulation {setting} = {value}"),
            World(e) => e.summary(),
            EventBridge(e) => e.summary(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::receives;

    #[test]
    fn a_receive_count_agrees_with_its_noun() {
        // The log says "after 1 receive" for a message received once (its ApproximateReceiveCount
        // is 1), and "after 5 receives" for one received five times.
        assert_eq!(receives(1), "1 receive");
        assert_eq!(receives(5), "5 receives");
        assert_eq!(receives(0), "0 receives");
    }
}
