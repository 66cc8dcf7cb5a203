//! A plain, serialisable picture of the whole simulation at one instant: what the UI draws.
//! Built on demand from the engine's state; never the other way round.

use crate::attributes::MessageAttributes;
use crate::ids::{self, MsgId, SnsId};
use crate::sim::Sim;
use crate::sqs::{MsgState, Queue, QueueStats};
use crate::time::{SimTime, SECOND};
use crate::vecmap::VecMap;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Snapshot {
    pub now: SimTime,
    pub seed: u64,
    /// How many events the log holds at this instant.
    pub events: usize,
    /// When the next timer fires, if any.
    pub next_event_at: Option<SimTime>,
    pub topics: Vec<TopicView>,
    pub queues: Vec<QueueView>,
    pub move_tasks: Vec<MoveTaskView>,
    /// The simulated actors: workers, Lambda functions, dependencies, alarms.
    pub world: crate::world::WorldView,
    /// Amazon EventBridge: buses with their rules and targets, archives, replays. A new field:
    /// its type has a `Default` (the default bus alone), for readers of older snapshots.
    pub eventbridge: crate::events::EventBridgeView,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopicView {
    pub name: String,
    pub arn: String,
    pub fifo: bool,
    pub published: u64,
    pub subscriptions: Vec<SubscriptionView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubscriptionView {
    pub arn: String,
    pub endpoint: String,
    /// The subscribed queue's name, for `sqs` endpoints.
    pub queue: Option<String>,
    pub raw: bool,
    pub filter_policy: Option<String>,
    pub filter_scope: &'static str,
    pub dead_letter_arn: Option<String>,
    pub delivered: u64,
    pub filtered_out: u64,
    pub failed: u64,
    /// `sqs`, `http` or `https`.
    pub protocol: String,
    /// HTTP/S: not confirmed by its endpoint yet (SNS delivers nothing to it).
    pub pending_confirmation: bool,
    /// The subscription's own dead-letter queue (from its `RedrivePolicy`), by name. It catches
    /// the copies SNS could not deliver: client-side errors at once, server-side errors once the
    /// delivery policy's retries run out. Not the queue's dead-letter queue
    /// (`QueueView::dead_letter_queue`), which catches messages consumers never deleted.
    pub dead_letter_queue: Option<String>,
    /// Copies that went to `dead_letter_queue`.
    pub redriven: u64,
    /// Copies waiting for a retry now.
    pub retrying: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueueView {
    pub name: String,
    pub url: String,
    pub arn: String,
    pub fifo: bool,
    pub visible: usize,
    pub in_flight: usize,
    pub delayed: usize,
    /// CloudWatch's `ApproximateAgeOfOldestMessage`, in milliseconds.
    pub oldest_age_ms: u64,
    /// When the oldest message was sent: a view that keeps this snapshot while the clock moves
    /// (see `Sim::view_stamp`) reads the age from it.
    pub oldest_sent_at: Option<SimTime>,
    pub visibility_timeout: u32,
    pub retention_period: u32,
    pub delay_seconds: u32,
    /// From the redrive policy: the dead-letter queue's name and the receive limit.
    pub dead_letter_queue: Option<String>,
    pub max_receive_count: Option<u32>,
    /// Queues whose redrive policy points here: this queue is their dead-letter queue.
    pub dead_letter_sources: Vec<String>,
    /// SNS subscriptions (ARNs) whose `RedrivePolicy` points here: this queue keeps the copies
    /// SNS could not deliver to them.
    pub subscription_dead_letter_sources: Vec<String>,
    pub stats: QueueStats,
    pub messages: Vec<MessageView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MessageView {
    pub message_id: MsgId,
    /// The stored copy (duplicates share a message id).
    pub copy: u64,
    pub body: String,
    pub attributes: MessageAttributes,
    #[serde(flatten)]
    pub state: MsgState,
    pub receive_count: u32,
    pub sent_at: SimTime,
    pub first_receive_at: Option<SimTime>,
    /// When the retention period deletes it.
    pub expires_at: SimTime,
    /// The latest receipt handle, once received.
    pub receipt_handle: Option<String>,
    pub sns_message_id: Option<SnsId>,
    pub dead_letter_source: Option<String>,
    pub duplicate: bool,
    /// FIFO: `MessageGroupId` and `SequenceNumber`.
    pub group: Option<String>,
    pub sequence: Option<u64>,
    /// FIFO: the in-flight message of its group this visible one waits behind (a receive
    /// cannot take it until that one is deleted or visible again); `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_by: Option<Blocker>,
}

/// What holds a FIFO message back: the earlier message of its group that is in flight, and
/// when that one's visibility timeout runs out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Blocker {
    pub message_id: MsgId,
    pub until: SimTime,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveTaskView {
    pub handle: String,
    pub source: String,
    pub destination: Option<String>,
    pub status: &'static str,
    pub moved: usize,
    pub to_move: usize,
}

impl QueueView {
    /// The oldest message's age at `now` (this view's `oldest_age_ms` is its age when taken).
    pub fn oldest_age_at(&self, now: SimTime) -> u64 {
        self.oldest_sent_at.map_or(0, |sent| now.ms().saturating_sub(sent.ms()))
    }
}

impl Sim {
    /// The whole state now, every message included.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot_limited(usize::MAX)
    }

    /// The state now with at most `max_messages` messages listed per queue (the counts are
    /// always exact): what a view of a very full queue needs.
    pub fn snapshot_limited(&self, max_messages: usize) -> Snapshot {
        let topics = self
            .topics
            .values()
            .map(|t| TopicView {
                name: t.name.to_string(),
                arn: t.arn.to_string(),
                fifo: t.fifo.is_some(),
                published: t.published,
                subscriptions: t
                    .subscriptions
                    .iter()
                    .filter_map(|arn| self.subscriptions.get(arn))
                    .map(|s| SubscriptionView {
                        arn: s.arn.to_string(),
                        endpoint: s.endpoint.to_string(),
                        queue: s.queue_name().map(str::to_string),
                        raw: s.raw,
                        filter_policy: s.filter.as_ref().map(|f| f.json.clone()),
                        filter_scope: s.scope.as_str(),
                        dead_letter_arn: s.dead_letter_arn.clone(),
                        delivered: s.delivered,
                        filtered_out: s.filtered_out,
                        failed: s.failed,
                        protocol: s.protocol.clone(),
                        pending_confirmation: s.pending_confirmation,
                        dead_letter_queue: s
                            .dead_letter_arn
                            .as_deref()
                            .and_then(ids::queue_name_from)
                            .map(str::to_string),
                        redriven: s.redriven,
                        retrying: s.retrying,
                    })
                    .collect(),
            })
            .collect();
        let mut sources: VecMap<String, Vec<String>> = VecMap::new();
        for q in self.queues.values() {
            if let Some(dlq) =
                q.config.redrive_policy.as_ref().and_then(|r| ids::queue_name_from(&r.dead_letter_target_arn))
            {
                sources.entry(dlq.to_string()).or_default().push(q.name.to_string());
            }
        }
        let mut sub_sources: VecMap<String, Vec<String>> = VecMap::new();
        for s in self.subscriptions.values() {
            if let Some(dlq) = s.dead_letter_arn.as_deref().and_then(ids::queue_name_from) {
                sub_sources.entry(dlq.to_string()).or_default().push(s.arn.to_string());
            }
        }
        let queues = self
            .queues
            .values()
            .map(|q| {
                let mut view = self.queue_view(q, sources.remove(&*q.name).unwrap_or_default(), max_messages);
                view.subscription_dead_letter_sources = sub_sources.remove(&*q.name).unwrap_or_default();
                view
            })
            .collect();
        let move_tasks = self
            .move_tasks
            .values()
            .map(|t| MoveTaskView {
                handle: t.handle(),
                source: t.source.to_string(),
                destination: t.destination.as_ref().map(|d| d.to_string()),
                status: t.status,
                moved: t.moved,
                to_move: t.to_move,
            })
            .collect();
        Snapshot {
            now: self.now,
            seed: self.seed,
            events: self.log.len(),
            next_event_at: self.next_event_at(),
            topics,
            queues,
            move_tasks,
            world: self.world_view(),
            eventbridge: self.eventbridge_view(),
        }
    }

    fn queue_view(&self, q: &Queue, dead_letter_sources: Vec<String>, max_messages: usize) -> QueueView {
        let redrive = q.config.redrive_policy.as_ref();
        let retention_ms = u64::from(q.config.retention_period) * SECOND;
        QueueView {
            name: q.name.to_string(),
            url: q.url(),
            arn: q.arn.to_string(),
            fifo: q.fifo.is_some(),
            visible: q.visible_count(),
            in_flight: q.inflight,
            delayed: q.delayed,
            oldest_age_ms: q.oldest_age_ms(self.now),
            oldest_sent_at: q.by_sent.first().map(|(sent, _)| SimTime(*sent)),
            visibility_timeout: q.config.visibility_timeout,
            retention_period: q.config.retention_period,
            delay_seconds: q.config.delay_seconds,
            dead_letter_queue: redrive
                .and_then(|r| ids::queue_name_from(&r.dead_letter_target_arn))
                .map(str::to_string),
            max_receive_count: redrive.map(|r| r.max_receive_count),
            dead_letter_sources,
            subscription_dead_letter_sources: Vec::new(),
            stats: q.stats.clone(),
            messages: q
                .messages
                .values()
                .take(max_messages)
                .map(|m| MessageView {
                    message_id: m.id,
                    copy: m.key,
                    body: m.body.to_string(),
                    attributes: (*m.attributes).clone(),
                    state: m.state,
                    receive_count: m.receive_count,
                    sent_at: m.sent_at,
                    first_receive_at: m.first_receive_at,
                    expires_at: m.sent_at.plus_ms(retention_ms),
                    receipt_handle: (m.receive_count > 0).then(|| m.receipt_handle()),
                    sns_message_id: m.sns_id,
                    dead_letter_source: m.dead_letter_source.as_ref().map(|s| s.to_string()),
                    duplicate: m.duplicate,
                    group: m.group.as_ref().map(|g| g.to_string()),
                    sequence: m.sequence,
                    blocked_by: q.blocker(m.key).map(|b| Blocker {
                        message_id: b.id,
                        until: match b.state {
                            MsgState::InFlight { until, .. } | MsgState::Delayed { until, .. } => until,
                            MsgState::Visible => self.now,
                        },
                    }),
                })
                .collect(),
        }
    }
}
