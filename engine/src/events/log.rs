//! The event log's EventBridge vocabulary, in the past tense.

use crate::event::Name;
use crate::time::SimTime;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event")]
pub enum EbEvent {
    EventBusCreated {
        bus: Name,
    },
    EventBusDeleted {
        bus: Name,
        rules_removed: usize,
    },
    RulePut {
        bus: Name,
        rule: Name,
        state: &'static str,
        event_pattern: Option<String>,
        schedule_expression: Option<String>,
    },
    RuleStateChanged {
        bus: Name,
        rule: Name,
        state: &'static str,
    },
    RuleDeleted {
        bus: Name,
        rule: Name,
    },
    TargetsPut {
        bus: Name,
        rule: Name,
        targets: Vec<String>,
    },
    TargetsRemoved {
        bus: Name,
        rule: Name,
        targets: Vec<String>,
    },
    /// An event was accepted on a bus; `RuleMatched`/`RuleNotMatched` follow for each rule.
    EventPut {
        bus: Name,
        event_id: String,
        source: String,
        detail_type: String,
        rules_matched: usize,
        /// Set when a replay put it back.
        replay_name: Option<String>,
    },
    RuleMatched {
        bus: Name,
        rule: Name,
        event_id: String,
        targets: usize,
    },
    RuleNotMatched {
        bus: Name,
        rule: Name,
        event_id: String,
        reason: String,
    },
    /// A scheduled rule ran: its event goes to its targets.
    ScheduledEventSent {
        bus: Name,
        rule: Name,
        event_id: String,
        targets: usize,
    },
    DeliveredToTarget {
        bus: Name,
        rule: Name,
        target: String,
        event_id: String,
        /// The queue, topic or bus that received it.
        destination: String,
        /// The SQS message id or SNS message id, when the destination gives one.
        message_id: Option<String>,
        attempt: u32,
    },
    /// A delivery attempt failed; `retry_at` says when the next attempt is due, if any.
    TargetInvocationFailed {
        bus: Name,
        rule: Name,
        target: String,
        event_id: String,
        error_code: &'static str,
        reason: String,
        attempt: u32,
        retry_at: Option<SimTime>,
    },
    SentToDeadLetterQueue {
        bus: Name,
        rule: Name,
        target: String,
        event_id: String,
        dead_letter_queue: Name,
        error_code: &'static str,
        message_id: String,
    },
    /// Not delivered and not kept: no dead-letter queue, or it could not take the event.
    EventDropped {
        bus: Name,
        rule: Name,
        target: String,
        event_id: String,
        error_code: &'static str,
        reason: String,
    },
    ArchiveCreated {
        archive: Name,
        bus: Name,
    },
    ArchiveDeleted {
        archive: Name,
        events: usize,
    },
    EventArchived {
        archive: Name,
        event_id: String,
    },
    ReplayStarted {
        replay: Name,
        archive: Name,
        events: usize,
    },
    ReplayEnded {
        replay: Name,
        state: &'static str,
        replayed: usize,
    },
}

impl EbEvent {
    pub fn name(&self) -> &'static str {
        use EbEvent::*;
        match self {
            EventBusCreated { .. } => "EventBusCreated",
            EventBusDeleted { .. } => "EventBusDeleted",
            RulePut { .. } => "RulePut",
            RuleStateChanged { .. } => "RuleStateChanged",
            RuleDeleted { .. } => "RuleDeleted",
            TargetsPut { .. } => "TargetsPut",
            TargetsRemoved { .. } => "TargetsRemoved",
            EventPut { .. } => "EventPut",
            RuleMatched { .. } => "RuleMatched",
            RuleNotMatched { .. } => "RuleNotMatched",
            ScheduledEventSent { .. } => "ScheduledEventSent",
            DeliveredToTarget { .. } => "DeliveredToTarget",
            TargetInvocationFailed { .. } => "TargetInvocationFailed",
            SentToDeadLetterQueue { .. } => "SentToDeadLetterQueue",
            EventDropped { .. } => "EventDropped",
            ArchiveCreated { .. } => "ArchiveCreated",
            ArchiveDeleted { .. } => "ArchiveDeleted",
            EventArchived { .. } => "EventArchived",
            ReplayStarted { .. } => "ReplayStarted",
            ReplayEnded { .. } => "ReplayEnded",
        }
    }

    /// The buses, rules, archives, replays and queues an event concerns.
    pub fn resources(&self) -> Vec<&str> {
        use EbEvent::*;
        match self {
            EventBusCreated { bus } | EventBusDeleted { bus, .. } | EventPut { bus, .. } => vec![bus],
            RulePut { bus, rule, .. }
            | RuleStateChanged { bus, rule, .. }
            | RuleDeleted { bus, rule }
            | TargetsPut { bus, rule, .. }
            | TargetsRemoved { bus, rule, .. }
            | RuleMatched { bus, rule, .. }
            | RuleNotMatched { bus, rule, .. }
            | ScheduledEventSent { bus, rule, .. }
            | TargetInvocationFailed { bus, rule, .. }
            | EventDropped { bus, rule, .. } => vec![bus, rule],
            DeliveredToTarget { bus, rule, destination, .. } => vec![bus, rule, destination],
            SentToDeadLetterQueue { bus, rule, dead_letter_queue, .. } => vec![bus, rule, dead_letter_queue],
            ArchiveCreated { archive, bus } => vec![archive, bus],
            ArchiveDeleted { archive, .. } | EventArchived { archive, .. } => vec![archive],
            ReplayStarted { replay, archive, .. } => vec![replay, archive],
            ReplayEnded { replay, .. } => vec![replay],
        }
    }

    /// What happened, in a short sentence.
    pub fn summary(&self) -> String {
        use EbEvent::*;
        match self {
            EventBusCreated { bus } => format!("event bus {bus} created"),
            EventBusDeleted { bus, rules_removed } => format!("event bus {bus} deleted with {rules_removed} rules"),
            RulePut { bus, rule, state, event_pattern, schedule_expression } => format!(
                "rule {rule} on {bus} put ({state}{})",
                match (event_pattern, schedule_expression) {
                    (_, Some(s)) => format!(", {s}"),
                    (Some(p), None) => format!(", pattern {p}"),
                    (None, None) => String::new(),
                }
            ),
            RuleStateChanged { rule, state, .. } => format!("rule {rule} is {state}"),
            RuleDeleted { bus, rule } => format!("rule {rule} deleted from {bus}"),
            TargetsPut { rule, targets, .. } => format!("rule {rule}: targets {} put", targets.join(", ")),
            TargetsRemoved { rule, targets, .. } => format!("rule {rule}: targets {} removed", targets.join(", ")),
            EventPut { bus, event_id, source, detail_type, rules_matched, replay_name } => format!(
                "{event_id} ({source} / {detail_type}) put on {bus}{}: {rules_matched} rules matched",
                replay_name.as_ref().map(|r| format!(" by replay {r}")).unwrap_or_default()
            ),
            RuleMatched { rule, event_id, targets, .. } => {
                format!("{event_id} matched rule {rule} ({targets} targets)")
            }
            RuleNotMatched { rule, event_id, reason, .. } => format!("{event_id} did not match rule {rule}: {reason}"),
            ScheduledEventSent { rule, event_id, targets, .. } => {
                format!("scheduled rule {rule} ran: {event_id} to {targets} targets")
            }
            DeliveredToTarget { rule, target, event_id, destination, attempt, .. } => {
                format!("{event_id} delivered by rule {rule} to target {target} ({destination}), attempt {attempt}")
            }
            TargetInvocationFailed { target, event_id, error_code, reason, attempt, retry_at, .. } => format!(
                "{event_id} not delivered to target {target} ({error_code}: {reason}), attempt {attempt}; {}",
                match retry_at {
                    Some(at) => format!("retry at {at}"),
                    None => "no more retries".into(),
                }
            ),
            SentToDeadLetterQueue { target, event_id, dead_letter_queue, error_code, .. } => {
                format!("{event_id} for target {target} sent to dead-letter queue {dead_letter_queue} ({error_code})")
            }
            EventDropped { target, event_id, error_code, reason, .. } => {
                format!("{event_id} for target {target} dropped ({error_code}): {reason}")
            }
            ArchiveCreated { archive, bus } => format!("archive {archive} of {bus} created"),
            ArchiveDeleted { archive, events } => format!("archive {archive} deleted with {events} events"),
            EventArchived { archive, event_id } => format!("{event_id} kept in archive {archive}"),
            ReplayStarted { replay, archive, events } => {
                format!("replay {replay} started: {events} events from {archive}")
            }
            ReplayEnded { replay, state, replayed } => format!("replay {replay} {state} after {replayed} events"),
        }
    }
}
