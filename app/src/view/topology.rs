//! The live diagram: producer → topic → subscriptions (filter and raw badges) → queues → their
//! consumers (workers, Lambda functions), each queue's dead-letter queue under it. On the routes
//! page EventBridge buses stand beside the topics, each rule's targets in rows of their own, and
//! what is not a queue (an HTTP/S endpoint, a function, a topic, a bus) is drawn where a queue
//! would be. Tokens travel the edges for recent deliveries, drop at a filter that rejected them,
//! and slide into a DLQ (see `tokens`).
//!
//! [`Layout`] places what is drawn; `parts` (topology_markup.rs) writes it as pieces of markup
//! and live nodes; `live` (topology_live.rs) keeps them on the page as Leptos elements.

use super::{use_ctx, Selection};
use engine::snapshot::{Snapshot, SubscriptionView};
use engine::sqs::MsgState;
use engine::world::{MappingState, WorkerStatus};
use engine::SimTime;
use leptos::prelude::*;

/// Vertical room for one queue, and the extra room a queue with a dead-letter queue takes (the
/// DLQ sits under its queue).
const ROW: i64 = 76;
const DLQ_ROW: i64 = 56;
/// The height of a row's service box (what its workers call) with its gap.
const SERVICE_ROW: i64 = 64;
/// From a row's top edge to its queue's centre line.
const ROW_CENTRE: i64 = 38;
/// Consumers drawn per queue before "+N more".
const MAX_CONSUMERS: usize = 3;

/// A container narrower than this (CSS px) gets the narrow diagram: the producer and the topic
/// on top, the queues stacked under them, each queue's consumers and dead-letter queues under
/// it (a phone, a narrow embed). Wider, the diagram reads left to right.
pub(super) const NARROW_BELOW: f64 = 560.0;
/// The narrow diagram: its width, where the first topic (or queue) starts under the producer,
/// the x of the line down from a topic that feeds its queues, and how far left the topic and
/// each row's badges and queue are moved from where the wide diagram draws them.
const N_WIDTH: i64 = 384;
const N_TOP: i64 = 56;
const N_TRUNK: i64 = 50;
const N_TOPIC_SHIFT: i64 = -160;
const N_SHIFT: i64 = -236;

/// The edge from the topic to a queue's row.
pub(super) fn edge_path(topic_y: i64, y: i64) -> String {
    format!("M 250 {topic_y} C 330 {topic_y}, 330 {y}, 410 {y}")
}

/// In the narrow diagram: down the line at x = `N_TRUNK` from `from`, then across to `end` on
/// the line at `y`.
fn trunk(from: i64, y: i64, end: i64) -> String {
    let t = N_TRUNK;
    format!("M {t} {from} L {t} {} Q {t} {y}, {} {y} L {end} {y}", y - 14, t + 14)
}

/// What the diagram draws, without the clock: it changes only when a count or the topology does,
/// so the diagram is not rebuilt on every tick of the clock.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Layout {
    producer: String,
    /// The queue the producer sends to itself (a work queue), when topics are drawn too: its
    /// edge then comes from the producer, not from a topic.
    producer_queue: Option<String>,
    /// The topics, in the order they were made, each with its centre line: level with the
    /// middle of the queues it feeds (a topic that feeds none sits on a row of its own under
    /// the queues). The producer publishes to the first. Without a topic the producer sends to
    /// the queues itself.
    topics: Vec<(String, i64)>,
    /// Where the EventBridge buses start in `topics`: those before are SNS topics.
    buses_from: usize,
    /// Under a bus (by its index in `topics`): its archives and replays, one line each.
    notes: Vec<(usize, String)>,
    /// The order services (dual write or outbox), drawn in the producer's place.
    services: Vec<ServiceNode>,
    /// In the narrow diagram, how much lower the first topic starts (under two services' captions).
    lift: i64,
    rows: Vec<Row>,
    /// With no queue at all (direct calls), the services the producer calls in turn.
    calls: Vec<Call>,
    /// Where the rows (and the topics on rows of their own) end.
    bottom: i64,
    /// Drawn top to bottom for a narrow container (see [`Layout::narrow`]).
    narrow: bool,
    /// What a function drawn on a row hands its results to, when that is drawn too: a queue with
    /// a row of its own, or a topic or bus: (the function's row, the queue's row or the topic's
    /// name, "on failure", "on success" or "DLQ", which of the two it is), drawn as an edge
    /// between them (not only as words in the function's box).
    hands_on: Vec<(String, String, &'static str, HandsTo)>,
}

/// Where a function's destination edge ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HandsTo {
    /// A queue's row: the edge ends at its box.
    Row,
    /// A topic's (or a bus's) node.
    Topic,
}

/// A downstream service the producer calls itself (a dependency), drawn where queues would be.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Call {
    name: String,
    latency: String,
    calls: u64,
    errors: u64,
    /// Calls rejected at once, over its capacity.
    throttled: u64,
    /// Calls it serves at once, if it has a limit.
    capacity: Option<u32>,
    down: bool,
}

impl Call {
    fn of(d: &engine::world::DependencyView) -> Call {
        Call {
            name: d.name.clone(),
            latency: crate::format::span(d.latency),
            calls: d.calls,
            errors: d.errors,
            throttled: d.throttled,
            capacity: d.capacity,
            down: d.down,
        }
    }
}

/// One queue on the diagram: fed by a subscription, or (a plain work queue) by nothing drawn.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Row {
    pub(super) sub: Option<SubscriptionView>,
    /// Fed by an EventBridge rule (then `topic` is its bus).
    pub(super) rule: Option<RuleBadge>,
    /// Not a queue: drawn as what it is, without messages inside.
    pub(super) endpoint: Option<Endpoint>,
    /// The topic that feeds it (an index into the layout's topics).
    topic: Option<usize>,
    queue: String,
    visible: usize,
    inflight: usize,
    /// The queue's dead-letter queue and how many messages it holds: what its consumers never
    /// deleted (its redrive policy).
    dlq: Option<(String, usize)>,
    /// The subscription's own dead-letter queue and how many messages it holds: the copies SNS
    /// could not deliver (its `RedrivePolicy`); for a rule's target, its `DeadLetterConfig`, the
    /// events EventBridge could not deliver. Drawn under the badge, beside the other.
    sub_dlq: Option<(String, usize)>,
    /// Who consumes the queue: workers and Lambda functions.
    consumers: Vec<Consumer>,
    /// The downstream service its workers call (the first, if they call several), drawn under
    /// the consumers: whether it is down, what it throttled.
    pub(super) service: Option<Call>,
    /// Its first messages, drawn inside its node (waiting ones first, those a consumer holds
    /// last), and how many more it holds.
    dots: Vec<Dot>,
    more: usize,
    /// Why the subscription's filter dropped its latest message, when nothing has been
    /// delivered to it since.
    drop: Option<String>,
    /// The alarms on the queue or on its dead-letter queues, with their states.
    pub(super) alarms: Vec<AlarmBadge>,
    /// The queue's centre line.
    pub(super) y: i64,
}

/// An alarm drawn by the queue it watches: its name and state.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct AlarmBadge {
    pub(super) name: String,
    pub(super) state: engine::world::AlarmState,
    pub(super) reason: String,
}

/// Alarm badges drawn per row before "+N alarms"; the height of one.
const MAX_ALARMS: usize = 2;
const ALARM_LINE: i64 = 24;

impl Row {
    /// Where the queue's dead-letter queue sits (its centre, its width) and the x of its edge
    /// down from the queue: centred under the queue, or to the right when the subscription's
    /// dead-letter queue takes the left (out of the edges fanning out from the topic).
    pub(super) fn dlq_place(&self, narrow: bool) -> (i64, i64, i64) {
        match (narrow, self.sub_dlq.is_some()) {
            // Under the queue's consumers, on the right, its edge down the queue's right side.
            (true, _) => (292, 156, 356),
            (false, true) => (620, 140, 600),
            (false, false) => (510, 160, 510),
        }
    }

    /// The top of the row's dead-letter queues' boxes.
    pub(super) fn dlq_top(&self, narrow: bool) -> i64 {
        if narrow {
            self.y + 30 + self.consumers_band() + self.service_band() + 14
        } else {
            self.y + 44
        }
    }

    /// The room a row's service takes under its consumers (wide: under the consumers' column,
    /// beside the dead-letter queue; narrow: under the consumers, over the dead-letter queues).
    fn service_band(&self) -> i64 {
        if self.service.is_some() {
            SERVICE_ROW
        } else {
            0
        }
    }

    /// The top of the row's service box (see [`Row::service_band`]).
    pub(super) fn service_top(&self, narrow: bool) -> i64 {
        if narrow {
            self.y + 30 + self.consumers_band() + 6
        } else if self.sub_dlq.is_some() {
            // Both dead-letter queues take the line under the queue, the alarms under them.
            self.y + 44 + DLQ_ROW + self.alarms_band()
        } else {
            self.y + 44
        }
    }

    /// In the narrow diagram, the room under the queue for its consumers, one under the other.
    fn consumers_band(&self) -> i64 {
        // "+N more" takes the last line of its own.
        let lines = self.consumers.len().min(MAX_CONSUMERS) as i64;
        if lines == 0 {
            0
        } else {
            lines * 24 + 8
        }
    }

    /// In the narrow diagram, the row's height: the queue, its consumers, its dead-letter
    /// queues with their captions, and a gap.
    fn narrow_height(&self) -> i64 {
        let dlqs = if self.dlq.is_some() || self.sub_dlq.is_some() { 62 } else { 0 };
        60 + self.consumers_band() + self.service_band() + dlqs + self.alarms_band() + 8
    }

    /// In the narrow diagram, the room under the dead-letter queues for the alarms' badges,
    /// one under the other.
    pub(super) fn alarms_band(&self) -> i64 {
        self.alarms.len().min(MAX_ALARMS) as i64 * ALARM_LINE
    }

    /// Where the row's alarm badges start: (x, top) of the first, each next one `ALARM_LINE`
    /// lower. Wide: right of the dead-letter queue, under the consumers; narrow: under the
    /// dead-letter queues.
    pub(super) fn alarms_at(&self, narrow: bool) -> (i64, i64, i64) {
        if narrow {
            let dlqs = if self.dlq.is_some() || self.sub_dlq.is_some() { 62 } else { 0 };
            (24, self.y + 30 + self.consumers_band() + self.service_band() + dlqs + 4, 330)
        } else if self.sub_dlq.is_some() {
            // Both dead-letter queues take the line under the queue: under their captions.
            (410, self.y + 44 + DLQ_ROW, 300)
        } else if self.service.is_some() {
            // The service takes the right under the consumers: the alarms go under it.
            (620, self.y + 44 + SERVICE_ROW, 200)
        } else {
            (620, self.y + 44, 200)
        }
    }

    /// The room under the row: for its dead-letter queues and its alarms, if it has any.
    fn under(&self) -> i64 {
        let base = if self.dlq.is_some() || self.sub_dlq.is_some() || !self.alarms.is_empty() || self.service.is_some()
        {
            DLQ_ROW
        } else {
            0
        };
        // The service's box beside the queue's dead-letter queue, with room for its height;
        // under the subscription's (which takes the line), or over the alarms.
        let base = match (&self.service, self.sub_dlq.is_some() || !self.alarms.is_empty()) {
            (Some(_), true) => base + SERVICE_ROW,
            (Some(_), false) => base.max(SERVICE_ROW + 6),
            (None, _) => base,
        };
        // Under both dead-letter queues' captions, when a subscription's takes the left.
        let below = if self.sub_dlq.is_some() && !self.alarms.is_empty() { self.alarms_band() + 8 } else { 0 };
        base + below
    }
}

/// How many of a queue's messages its node draws.
const DOTS: usize = 5;

/// One message inside a queue's node: its state's colour, a ring for the time left on its
/// visibility timeout (or delay) with the seconds written, its receive count.
#[derive(Clone, Debug, PartialEq)]
struct Dot {
    copy: u64,
    /// `visible`, `visible blocked` (a FIFO group's message held back), `inflight` or `delayed`.
    class: &'static str,
    /// Seconds left for an in-flight or delayed message, else its receives against the
    /// maximum ("2/5") once received.
    label: String,
    /// The ring's dash out of 100 (the timer's share left), for a timed message.
    ring: Option<u64>,
    /// Its receives against the maximum ("2/5", or "×2" without one) once received: written
    /// after a timer's seconds too when the dot is alone in its queue, where there is room.
    receives: String,
    title: String,
}

impl Dot {
    fn of(m: &engine::snapshot::MessageView, max: Option<u32>, now: SimTime) -> Dot {
        let received = match max {
            Some(n) => format!("received {} of {n} times before the DLQ", m.receive_count),
            None => format!("received {} times", m.receive_count),
        };
        let (class, timer) = match m.state {
            MsgState::Visible if m.blocked_by.is_some() => ("visible blocked", None),
            MsgState::Visible => ("visible", None),
            MsgState::InFlight { since, until } => ("inflight", Some((since, until))),
            MsgState::Delayed { since, until } => ("delayed", Some((since, until))),
        };
        let receives = match (m.receive_count, max) {
            (0, _) => String::new(),
            (n, Some(max)) => format!("{n}/{max}"),
            (n, None) => format!("×{n}"),
        };
        let (label, ring) = match timer {
            Some((since, until)) => {
                let left = until.ms().saturating_sub(now.ms());
                let total = until.ms().saturating_sub(since.ms()).max(1);
                (timer_label(left.div_ceil(1000)), Some((left * 100 / total).min(100)))
            }
            None => (receives.clone(), None),
        };
        let state = class.replace("inflight", "in flight").replace("visible blocked", "held back by its group");
        Dot { copy: m.copy, class, ring, receives, title: format!("{}: {state}, {received}", m.message_id), label }
    }
}

/// A dot's time left in at most three characters, so that five dots side by side never run
/// into each other: "45s", then whole minutes rounded up ("15m"), then hours ("12h").
fn timer_label(seconds: u64) -> String {
    match seconds {
        0..100 => format!("{seconds}s"),
        100..3_600 => format!("{}m", seconds.div_ceil(60)),
        _ => format!("{}h", seconds.div_ceil(3_600)),
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Consumer {
    /// The worker's name, or the Lambda function's (its glyph, λ, says which).
    label: String,
    state: ConsumerState,
    /// The worker to inspect on click (functions have no inspector page).
    worker: Option<String>,
    /// The message a worker holds now (received, not yet finished), with its receive count:
    /// "msg-3 2/5" against the queue's maxReceiveCount, "msg-3 ×2" without one.
    holding: Option<String>,
}

impl Layout {
    /// The diagram of `s` at the moment it was taken.
    #[cfg(test)]
    fn of_now(s: &Snapshot) -> Layout {
        Layout::of(s, s.now, None)
    }

    /// The diagram of `s` at `now` (the clock moves on while a snapshot is kept: the
    /// countdowns on the dots read it).
    ///
    /// `publish_to` is the topic (name or ARN) the page's Publish sends to: drawn first, with
    /// the producer's edge, when no simulated producer says where it publishes.
    ///
    /// For a lesson step that draws one design, `s` is the part of the story [`staged`] keeps.
    pub(super) fn of(s: &Snapshot, now: SimTime, publish_to: Option<&str>) -> Layout {
        let find = |name: &str| s.queues.iter().find(|q| q.name == name);
        let held = |name: &str| find(name).map_or(0, |q| q.visible + q.in_flight + q.delayed);
        let is_dlq = |name: &str| {
            s.queues.iter().any(|q| q.dead_letter_queue.as_deref() == Some(name))
                || s.topics.iter().flat_map(|t| &t.subscriptions).any(|x| x.dead_letter_queue.as_deref() == Some(name))
                || target_dlqs(s).any(|d| d == name)
        };
        // The topics in the order drawn: the one the producer publishes to first (level with it,
        // its edge from the producer), then the others in the order they were made.
        let sends_to = match s.world.producers.first() {
            Some(p) => p.sends_to.clone(),
            None => publish_to.map(str::to_string),
        };
        let mut order: Vec<usize> = (0..s.topics.len()).collect();
        let first = sends_to.as_ref().and_then(|w| s.topics.iter().position(|t| t.name == *w || t.arn == *w));
        if let Some(first) = first {
            order.retain(|&i| i != first);
            order.insert(0, first);
        }
        let subscribed = order.iter().map(|&k| &s.topics[k]).enumerate().flat_map(|(i, t)| {
            t.subscriptions.iter().map(move |sub| {
                let name = sub.queue.clone().unwrap_or_else(|| sub.endpoint.clone());
                (Some(i), Some(sub.clone()), None, name, None)
            })
        });
        let targeted = rule_targets(s, s.topics.len());
        // Queues no topic or rule feeds (work queues), unless they are some queue's DLQ: drawn
        // under it.
        let mut fed: Vec<String> =
            s.topics.iter().flat_map(|t| t.subscriptions.iter()).filter_map(|x| x.queue.clone()).collect();
        fed.extend(targeted.iter().map(|t| t.2.clone()));
        let unfed = s
            .queues
            .iter()
            .filter(move |q| !fed.contains(&q.name) && !is_dlq(&q.name))
            .map(|q| (None, None, None, q.name.clone(), None));
        let mut top = 0;
        let rows: Vec<Row> = subscribed
            .chain(targeted.into_iter().map(|(bus, rule, name, dlq)| (Some(bus), None, Some(rule), name, dlq)))
            .chain(unfed)
            .map(|(topic, sub, rule, name, target_dlq): (_, Option<SubscriptionView>, _, String, Option<String>)| {
                let queue = find(&name);
                let endpoint = if queue.is_some() { None } else { endpoint_of(s, &name, sub.as_ref(), rule.as_ref()) };
                let dlq = queue.and_then(|q| q.dead_letter_queue.clone()).map(|d| {
                    let n = held(&d);
                    (d, n)
                });
                let sub_dlq = sub.as_ref().and_then(|x| x.dead_letter_queue.clone()).or(target_dlq).map(|d| {
                    let n = held(&d);
                    (d, n)
                });
                let holding = |id: &engine::ids::MsgId| {
                    let q = queue?;
                    let m = q.messages.iter().find(|m| m.message_id == *id)?;
                    Some(match q.max_receive_count {
                        Some(max) => format!("{id} {}/{max}", m.receive_count),
                        None => format!("{id} ×{}", m.receive_count),
                    })
                };
                let workers = s.world.workers.iter().filter(|w| w.queue == name).map(|w| Consumer {
                    label: w.name.clone(),
                    state: ConsumerState::Worker(w.state),
                    worker: Some(w.name.clone()),
                    holding: w.held.first().and_then(holding),
                });
                let service = s
                    .world
                    .workers
                    .iter()
                    .filter(|w| w.queue == name)
                    .find_map(|w| w.calls.first())
                    .and_then(|d| s.world.dependencies.iter().find(|x| x.name == *d))
                    .map(Call::of);
                let functions = s.world.event_source_mappings.iter().filter(|m| m.queue == name).map(|m| Consumer {
                    label: m.function.clone(),
                    state: ConsumerState::Mapping(m.state),
                    worker: None,
                    holding: None,
                });
                // Waiting messages first, then delayed ones, then those a consumer holds: a message
                // whose timeout runs out moves back to the front.
                let (mut dots, mut held) = (Vec::new(), 0);
                if let Some(q) = queue {
                    let rank = |m: &engine::snapshot::MessageView| match m.state {
                        MsgState::Visible => 0,
                        MsgState::Delayed { .. } => 1,
                        MsgState::InFlight { .. } => 2,
                    };
                    // Which to draw: those with a timer first (a consumer holds them, or a delay
                    // runs), then waiting ones; drawn waiting first.
                    let mut chosen = [0usize; 3];
                    let mut room = DOTS;
                    for r in [2, 1, 0] {
                        chosen[r] = q.messages.iter().filter(|m| rank(m) == r).count().min(room);
                        room -= chosen[r];
                    }
                    for (r, n) in chosen.into_iter().enumerate() {
                        let next = q.messages.iter().filter(|m| rank(m) == r);
                        dots.extend(next.take(n).map(|m| Dot::of(m, q.max_receive_count, now)));
                    }
                    held = q.visible + q.in_flight + q.delayed;
                }
                let more = held.saturating_sub(dots.len());
                let watched = |a: &&engine::world::AlarmView| {
                    a.dimension_value.as_deref().is_some_and(|d| {
                        d == name
                            || dlq.as_ref().is_some_and(|(q, _)| q == d)
                            || sub_dlq.as_ref().is_some_and(|(q, _)| q == d)
                    })
                };
                let alarms = s
                    .world
                    .alarms
                    .iter()
                    .filter(watched)
                    .map(|a| AlarmBadge { name: a.name.clone(), state: a.state, reason: a.reason.clone() })
                    .collect();
                let row = Row {
                    alarms,
                    dots,
                    more,
                    sub,
                    rule,
                    endpoint,
                    topic,
                    visible: queue.map_or(0, |q| q.visible),
                    inflight: queue.map_or(0, |q| q.in_flight),
                    consumers: workers.chain(functions).collect(),
                    service,
                    y: top + ROW_CENTRE,
                    drop: None,
                    queue: name,
                    dlq,
                    sub_dlq,
                };
                top += ROW + row.under();
                row
            })
            .collect();
        // The producer drawn: the one that publishes to the first topic; without topics, the
        // first (it sends to its queue, or calls its services); else the page's Publish.
        let first_topic = order.first().map(|&k| s.topics[k].name.as_str());
        let producer = match first_topic {
            Some(t) => s.world.producers.iter().find(|p| p.sends_to.as_deref() == Some(t)),
            None => s.world.producers.first(),
        }
        .map_or_else(|| "checkout".to_string(), |p| p.name.clone());
        let producer_queue = sends_to.filter(|q| rows.iter().any(|r| r.topic.is_none() && r.queue == *q));
        let calls = if rows.is_empty() { s.world.dependencies.iter().map(Call::of).collect() } else { Vec::new() };
        let topics = order
            .iter()
            .map(|&k| &s.topics[k])
            .enumerate()
            .map(|(i, t)| {
                let y = match middle_of(rows.iter().filter(|r| r.topic == Some(i))) {
                    Some(y) => y,
                    // The first topic, with nothing subscribed yet, faces the top row.
                    None if i == 0 => ROW_CENTRE,
                    None => {
                        top += ROW;
                        top - ROW + ROW_CENTRE
                    }
                };
                (t.name.clone(), y)
            })
            .collect();
        let services = s.world.order_services.iter().map(ServiceNode::of).collect();
        let mut layout = Layout {
            hands_on: Vec::new(),
            producer,
            producer_queue,
            topics,
            buses_from: s.topics.len(),
            notes: Vec::new(),
            services,
            lift: 0,
            rows,
            calls,
            bottom: top,
            narrow: false,
        };
        layout.place_buses(s);
        layout.make_room_for_services();
        layout.hands_on = layout.destinations(s);
        layout
    }

    /// The edges from each function drawn on a row to the destinations drawn too (see
    /// [`Layout::hands_on`]): a queue by its row, a topic or a bus by its node. An SQS ARN names
    /// a queue, an SNS or EventBridge ARN a topic or a bus, so a queue and a topic of one name
    /// are not taken for each other.
    fn destinations(&self, s: &Snapshot) -> Vec<(String, String, &'static str, HandsTo)> {
        let mut hands_on = Vec::new();
        for row in self.rows.iter().filter(|r| r.endpoint.as_ref().is_some_and(|e| e.kind == "λ function")) {
            let Some(f) = s.world.functions.iter().find(|f| f.name == routes::arn_name(&row.queue)) else { continue };
            let to = [("on success", &f.on_success), ("on failure", &f.on_failure), ("DLQ", &f.dead_letter_target)];
            for (what, arn) in to {
                let Some(arn) = arn.as_deref() else { continue };
                let name = routes::arn_name(arn);
                let to_topic = arn.starts_with("arn:aws:sns:") || arn.starts_with("arn:aws:events:");
                if to_topic && self.topics.iter().any(|(t, _)| t == name) {
                    hands_on.push((row.queue.clone(), name.to_string(), what, HandsTo::Topic));
                } else if !to_topic && self.rows.iter().any(|r| r.queue == name && r.endpoint.is_none()) {
                    hands_on.push((row.queue.clone(), name.to_string(), what, HandsTo::Row));
                }
            }
        }
        hands_on
    }

    /// Whether source `i` (an index into `topics`) is an EventBridge bus.
    fn is_bus(&self, i: usize) -> bool {
        i >= self.buses_from
    }

    /// Whether the producer sends to topic `i` itself: the first, and a bus after the SNS topics
    /// (PutEvents) unless a rule of another bus is what feeds it (drawn as that rule's target).
    fn producer_feeds(&self, i: usize) -> bool {
        let Some((name, _)) = self.topics.get(i) else { return false };
        i == 0
            || (self.is_bus(i)
                && !self.rows.iter().any(|r| r.rule.is_some() && r.endpoint.is_some() && r.queue == *name))
    }

    /// The diagram's drawn (not live) nodes in words, first in its table: the producer and where
    /// it sends, then each topic or bus and what it feeds.
    fn table_rows(&self) -> Vec<(String, String)> {
        let mut rows = Vec::new();
        let fed: Vec<&str> =
            (0..self.topics.len()).filter(|&i| self.producer_feeds(i)).map(|i| self.topics[i].0.as_str()).collect();
        let first = (!fed.is_empty()).then(|| fed.join(", ")).or_else(|| self.producer_queue.clone());
        if self.services.is_empty() {
            let sends = match (&first, self.calls.is_empty()) {
                (Some(to), _) => format!("sends to {to}"),
                (None, false) => format!(
                    "calls in turn: {}",
                    self.calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", then ")
                ),
                (None, true) => {
                    format!("sends to {}", self.rows.iter().map(|r| r.queue.as_str()).collect::<Vec<_>>().join(", "))
                }
            };
            rows.push((format!("Producer {}", self.producer), sends));
        }
        for (i, (topic, _)) in self.topics.iter().enumerate() {
            let kind = if self.is_bus(i) { "Event bus" } else { "SNS topic" };
            let fed: Vec<&str> = self.rows.iter().filter(|r| r.topic == Some(i)).map(|r| r.queue.as_str()).collect();
            let feeds =
                if fed.is_empty() { "feeds nothing drawn".to_string() } else { format!("feeds {}", fed.join(", ")) };
            rows.push((format!("{kind} {topic}"), feeds));
        }
        // Each row's subscription (how it delivers, its filter) or rule, as its badges say.
        for r in &self.rows {
            let queue = &r.queue;
            if let Some(sub) = &r.sub {
                let how = if sub.raw { "raw message delivery" } else { "SNS envelope" };
                rows.push((format!("Subscription of {queue}"), how.to_string()));
                if let Some(p) = &sub.filter_policy {
                    rows.push((format!("Filter policy for {queue}"), p.clone()));
                }
            }
            if let Some(rule) = &r.rule {
                let disabled = if rule.enabled { "" } else { " (disabled)" };
                rows.push((format!("Rule {} on {}, to {queue}{disabled}", rule.name, rule.bus), rule.pattern.clone()));
            }
        }
        rows
    }

    /// The same diagram drawn top to bottom, for a narrow container: the producer on top, each
    /// topic under it followed by the queues it feeds, then the queues no topic feeds. Each
    /// queue's consumers and dead-letter queues sit under it.
    pub(super) fn narrow(mut self) -> Layout {
        self.narrow = true;
        // Order services stand side by side on top, their captions under them.
        self.lift = self.services_lift();
        let mut top = N_TOP + self.lift;
        for i in 0..self.topics.len() {
            self.topics[i].1 = top + 30;
            top += 72;
            for row in self.rows.iter_mut().filter(|r| r.topic == Some(i)) {
                row.y = top + 30;
                top += row.narrow_height();
            }
        }
        for row in self.rows.iter_mut().filter(|r| r.topic.is_none()) {
            row.y = top + 30;
            top += row.narrow_height();
        }
        if self.rows.is_empty() {
            top += self.calls.len() as i64 * ROW;
        }
        self.bottom = top;
        self
    }

    /// The centre line of the `i`th service called directly.
    fn call_y(&self, i: usize) -> i64 {
        let first = if self.narrow { N_TOP + self.lift + ROW_CENTRE } else { ROW_CENTRE };
        first + i as i64 * ROW
    }

    /// The line from the producer to whatever it sends to itself on the line at `y` (a queue no
    /// topic feeds, a service it calls): across, or in the narrow diagram down from under it.
    fn producer_path(&self, y: i64) -> String {
        if self.narrow {
            trunk(48, y, 410 + N_SHIFT)
        } else {
            let topic_y = self.topic_y();
            format!("M 130 {topic_y} C 270 {topic_y}, 270 {y}, 410 {y}")
        }
    }

    /// The line a message travels from what feeds a row to the row's queue at `end_x` (its
    /// queue's left edge, or its filter badge for a drop): from the topic across, or in the
    /// narrow diagram down the topic's line and across. `None` for a row nothing feeds on the
    /// diagram (a work queue beside a topic).
    pub(super) fn feed_path(&self, row: &Row, to_filter: bool) -> Option<String> {
        let y = row.y;
        let topic = row.topic.and_then(|i| self.topics.get(i));
        match (topic, self.narrow) {
            (None, _) if self.topics.is_empty() || self.producer_queue.as_ref() == Some(&row.queue) => {
                Some(self.producer_path(y))
            }
            (None, _) => None,
            (Some((_, ty)), true) => Some(trunk(ty + 30, y, if to_filter { 88 } else { 410 + N_SHIFT })),
            (Some(_), false) => {
                let ty = self.topic_y_of(row);
                Some(if to_filter { format!("M 250 {ty} C 290 {ty}, 300 {y}, 324 {y}") } else { edge_path(ty, y) })
            }
        }
    }

    /// Where a message slides from a row's queue into its dead-letter queue: (x, from y, to y).
    pub(super) fn dlq_drop(&self, row: &Row) -> (i64, i64, i64) {
        let x = row.dlq_place(self.narrow).2;
        (x, row.y + 24, row.dlq_top(self.narrow) + 16)
    }

    fn height(&self) -> i64 {
        if self.narrow {
            return self.bottom.max(N_TOP + ROW);
        }
        if self.rows.is_empty() && !self.calls.is_empty() {
            return self.calls.len() as i64 * ROW;
        }
        self.bottom.max(ROW)
    }

    /// As wide as what is drawn: the consumers' column only when a queue has a consumer.
    /// Always room for the consumers' column: adding the first worker must not rescale the
    /// whole diagram (and shrink its text).
    fn width(&self) -> i64 {
        if self.narrow {
            N_WIDTH
        } else {
            830
        }
    }

    pub(super) fn view_box(&self) -> String {
        format!("0 0 {} {}", self.width(), self.height())
    }

    /// The producer's centre line: level with the first topic, or without a topic with the
    /// middle of the queues (or services) it sends to.
    pub(super) fn topic_y(&self) -> i64 {
        if self.narrow {
            return 24;
        }
        if let Some((_, y)) = self.topics.first() {
            return *y;
        }
        if self.rows.is_empty() && !self.calls.is_empty() {
            return ROW_CENTRE + (self.calls.len() as i64 - 1) * ROW / 2;
        }
        middle_of(self.rows.iter()).unwrap_or(ROW_CENTRE)
    }

    /// The ARNs of the subscriptions drawn with a filter.
    fn filtered(&self) -> Vec<String> {
        let subs = self.rows.iter().filter_map(|r| r.sub.as_ref());
        subs.filter(|s| s.filter_policy.is_some()).map(|s| s.arn.clone()).collect()
    }

    /// Notes on each subscription's row the reason of its latest drop (see [`last_drops`]).
    fn with_drops(mut self, drops: &[(String, String)]) -> Layout {
        for row in &mut self.rows {
            let arn = row.sub.as_ref().map(|s| s.arn.as_str());
            row.drop = drops.iter().find(|(a, _)| Some(a.as_str()) == arn).map(|(_, r)| r.clone());
        }
        self
    }

    /// The centre line of the topic that feeds a row (the first topic's for a row no topic feeds).
    pub(super) fn topic_y_of(&self, row: &Row) -> i64 {
        row.topic.and_then(|i| self.topics.get(i)).map_or_else(|| self.topic_y(), |(_, y)| *y)
    }

    pub(super) fn row_of(&self, queue: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.queue == queue)
    }

    /// The row whose dead-letter queue is `dlq`.
    pub(super) fn row_with_dlq(&self, dlq: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.dlq.as_ref().is_some_and(|(d, _)| d == dlq))
    }
}

/// What a lesson step draws (its `stage`): the producer's name, and the producer as the step's
/// run will create it (its `CreateProducer`), drawn until the run has made it.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    pub name: String,
    pub planned: Option<engine::world::ProducerView>,
}

impl Stage {
    /// The stage `name` of a step whose run is `run`.
    pub fn of(name: &str, run: &[engine::scenario::Step]) -> Stage {
        use engine::ids::{queue_name_from, topic_name_from};
        let planned = run.iter().find_map(|step| {
            let engine::scenario::Step::Action { action, params, .. } = step else { return None };
            if action != "CreateProducer" || params["ProducerName"] != name {
                return None;
            }
            let text = |key: &str| params[key].as_str();
            let (design, sends_to) = match text("Design")? {
                "FanOut" => ("FanOut", text("TopicArn").and_then(topic_name_from)),
                "SingleQueue" => ("SingleQueue", text("QueueUrl").and_then(queue_name_from)),
                _ => ("Chain", None),
            };
            let mut calls: Vec<String> = Vec::new();
            for d in params["Jobs"].as_array().into_iter().flatten().filter_map(|j| j["Dependency"].as_str()) {
                if !calls.iter().any(|c| c == d) {
                    calls.push(d.to_string());
                }
            }
            Some(engine::world::ProducerView {
                name: name.to_string(),
                design,
                sends_to: sends_to.map(str::to_string),
                calls: if design == "Chain" { calls } else { Vec::new() },
                produced: 0,
                count: 0,
                requests_in_flight: 0,
                succeeded: 0,
                failed: 0,
                half_done: 0,
            })
        });
        Stage { name: name.to_string(), planned }
    }
}

/// The part of `s` that producer `name`'s design uses, for a lesson step that draws one
/// design of several the world holds: a `Chain` producer's services called in turn; a
/// `SingleQueue` producer's queue with its consumers and dead-letter queue; a `FanOut`
/// producer's topic with what it feeds. `None` when there is no such producer (then the whole
/// world is drawn).
pub(super) fn staged(s: &Snapshot, stage: &Stage) -> Option<Snapshot> {
    let (p, topic, keep) = staged_parts(s, stage)?;
    let mut out = s.clone();
    out.world.producers = vec![p.clone()];
    out.world.order_services.clear();
    out.eventbridge = Default::default();
    out.topics.retain(|x| topic.as_deref() == Some(x.name.as_str()));
    if p.design == "Chain" {
        // In the order it calls them (found one by one: a sort would bring its code along).
        out.world.dependencies =
            p.calls.iter().filter_map(|c| s.world.dependencies.iter().find(|d| d.name == *c).cloned()).collect();
    }
    out.queues.retain(|q| keep.contains(&q.name));
    let kept = |queue: &str| out.queues.iter().any(|q| q.name == queue);
    let workers = out.world.workers.iter().filter(|w| kept(&w.queue)).cloned().collect();
    let mappings = out.world.event_source_mappings.iter().filter(|m| kept(&m.queue)).cloned().collect();
    out.world.workers = workers;
    out.world.event_source_mappings = mappings;
    Some(out)
}

/// What a stage's design holds: its producer, the topic it publishes to (a `FanOut`'s), and
/// its queues (a `SingleQueue`'s queue, or what the topic feeds), each with its dead-letter
/// queue. The diagram, the queue cards and Publish all keep to it.
pub(super) fn staged_parts<'a>(
    s: &'a Snapshot,
    stage: &'a Stage,
) -> Option<(&'a engine::world::ProducerView, Option<String>, Vec<String>)> {
    let p = s.world.producers.iter().find(|p| p.name == stage.name).or(stage.planned.as_ref())?;
    let (topic, queues): (Option<String>, Vec<String>) = match (p.design, p.sends_to.as_deref()) {
        ("SingleQueue", Some(q)) => (None, vec![q.to_string()]),
        ("FanOut", Some(t)) => {
            let subs = s.topics.iter().filter(|x| x.name == t).flat_map(|x| &x.subscriptions);
            (
                Some(t.to_string()),
                subs.flat_map(|x| x.queue.iter().chain(x.dead_letter_queue.iter())).cloned().collect(),
            )
        }
        _ => (None, Vec::new()),
    };
    // A kept queue's dead-letter queue stays with it.
    let dlqs = s.queues.iter().filter(|q| queues.contains(&q.name)).filter_map(|q| q.dead_letter_queue.clone());
    let keep: Vec<String> = queues.iter().cloned().chain(dlqs).collect();
    Some((p, topic, keep))
}

/// The line midway between the first and the last of `rows` (what a topic or a bus feeds, or a
/// producer sends to), if there is any.
fn middle_of<'a>(mut rows: impl DoubleEndedIterator<Item = &'a Row>) -> Option<i64> {
    match (rows.next(), rows.next_back()) {
        (Some(first), Some(last)) => Some((first.y + last.y) / 2),
        (Some(only), None) => Some(only.y),
        _ => None,
    }
}

/// A consumer on the diagram: a worker or a Lambda event source mapping, in its own state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConsumerState {
    Worker(WorkerStatus),
    Mapping(MappingState),
}

impl ConsumerState {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ConsumerState::Worker(s) => s.as_str(),
            ConsumerState::Mapping(s) => s.as_str(),
        }
    }
}

/// The glyph that carries a consumer's state along with its colour. Every state is named, so a
/// new one does not compile until it is drawn.
pub(crate) fn state_glyph(state: ConsumerState) -> &'static str {
    use ConsumerState::{Mapping, Worker};
    match state {
        Worker(WorkerStatus::Crashed) => "✕",
        Worker(WorkerStatus::Paused | WorkerStatus::Pausing) | Mapping(MappingState::Disabled) => "Ⅱ",
        Worker(WorkerStatus::Processing) => "●",
        Mapping(MappingState::Enabled) => "λ",
        Worker(WorkerStatus::Waiting | WorkerStatus::Stopped) | Mapping(MappingState::Deleting) => "○",
    }
}

/// How far back in the log a filter's latest drop is looked for.
const DROPS_LOOKED_AT: usize = 5_000;

/// (subscription ARN, reason) for each of the `filtered` subscriptions whose latest copy, among
/// the latest [`DROPS_LOOKED_AT`] events, was filtered out rather than delivered. Looks back
/// only until each of them has been seen.
fn last_drops(events: &[engine::Event], filtered: &[String]) -> Vec<(String, String)> {
    use engine::EventKind::{DeliveredToEndpoint, DeliveredToQueue, DeliveryFailed, FilteredOut};
    let mut seen: Vec<String> = Vec::new();
    let mut drops = Vec::new();
    for e in events.iter().rev().take(DROPS_LOOKED_AT) {
        if seen.len() >= filtered.len() {
            break;
        }
        let (sub, reason) = match &e.kind {
            FilteredOut { subscription, reason, .. } => (subscription.to_string(), Some(reason)),
            DeliveredToQueue { subscription, .. } | DeliveryFailed { subscription, .. } => {
                (subscription.to_string(), None)
            }
            DeliveredToEndpoint { subscription, .. } => (subscription.to_string(), None),
            _ => continue,
        };
        if seen.contains(&sub) || !filtered.contains(&sub) {
            continue;
        }
        if let Some(reason) = reason {
            drops.push((sub.clone(), reason.clone()));
        }
        seen.push(sub);
    }
    drops
}

/// Sets `narrow` from `el`'s width now and whenever it changes (a `ResizeObserver`); only a
/// change of side is written, so a resize within one side redraws nothing.
fn follow_width(el: &web_sys::HtmlElement, narrow: RwSignal<bool>) {
    use wasm_bindgen::{closure::Closure, JsCast};
    // False once the diagram is gone (its signal disposed): the observer then stops.
    let set = move |width: f64| {
        let is = width > 0.0 && width < NARROW_BELOW;
        match narrow.try_get_untracked() {
            Some(was) if was != is => narrow.try_set(is).is_none(),
            Some(_) => true,
            None => false,
        }
    };
    // The window's width stands in for the container's at first: reading the container's would
    // lay out the page while it is being built. The observer's first call, after the first
    // layout and before the first paint, gives the container's own.
    set(window().inner_width().ok().and_then(|w| w.as_f64()).unwrap_or_default());
    let cb = Closure::<dyn FnMut(js_sys::Array, web_sys::ResizeObserver)>::new(
        move |entries: js_sys::Array, observer: web_sys::ResizeObserver| {
            let Some(e) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>().ok() else { return };
            if !set(e.content_rect().width()) {
                observer.disconnect();
            }
        },
    );
    if let Ok(observer) = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()) {
        observer.observe(el);
    }
    cb.forget();
}

/// Whether a message's timer is drawn counting down somewhere (one in flight or delayed): then
/// the diagram's dots, and the clock's frames, follow the time.
pub(super) fn timers_shown(s: &Snapshot) -> bool {
    s.queues.iter().any(|q| q.in_flight + q.delayed > 0)
}

#[component]
pub fn Topology() -> impl IntoView {
    let ctx = use_ctx();
    // The filters' latest drops change only when events are logged (or the story moves).
    let logged = Memo::new(move |_| {
        ctx.snapshot.with(|_| ());
        ctx.pg.with_untracked(|p| (p.id.clone(), p.events().len()))
    });
    // Whether the diagram's container is narrow (a phone, a narrow embed): then it is drawn top
    // to bottom. Followed as the container is resized.
    let scroll_ref = NodeRef::<leptos::html::Div>::new();
    let narrow = RwSignal::new(false);
    Effect::new(move |_| {
        let Some(el) = scroll_ref.get() else { return };
        follow_width(&el, narrow);
    });
    // The part of the story a lesson step draws (its stage): cut from the snapshot when the story
    // or the step changes, not at every frame the clock moves a countdown.
    let staged_story =
        Memo::new(move |_| ctx.stage.with(|st| st.as_ref().and_then(|st| ctx.snapshot.with(|s| staged(s, st)))));
    let layout = Memo::new(move |_| {
        logged.with(|_| ());
        // The clock is followed only while a message's timer runs: then its dot counts down.
        let timed = ctx.snapshot.with(timers_shown);
        let now = if timed { ctx.now.get() } else { ctx.now.get_untracked() };
        let layout = ctx.pg.with_untracked(|p| {
            let publish_to = p.topic_wanted();
            staged_story.with(|own| match own {
                Some(s) => Layout::of(s, now, publish_to),
                None => ctx.snapshot.with(|s| Layout::of(s, now, publish_to)),
            })
        });
        let layout = if narrow.get() { layout.narrow() } else { layout };
        let filtered = layout.filtered();
        let drops = ctx.pg.with_untracked(|p| last_drops(p.events(), &filtered));
        layout.with_drops(&drops)
    });
    // What it draws: pieces of markup, and the live nodes among them (see `live`).
    let diagram = Memo::new(move |_| layout.with(parts::diagram));
    let on_click = move |e: web_sys::MouseEvent| {
        if let Some(sel) = super::selection::under(e.target()) {
            ctx.selected.set(Some(sel));
        }
    };
    // Enter on a focused node selects it; Space plays or pauses, as everywhere on the page.
    let on_key = move |e: web_sys::KeyboardEvent| {
        if e.key() == "Enter" {
            if let Some(sel) = super::selection::under(e.target()) {
                e.prevent_default();
                e.stop_propagation();
                ctx.selected.set(Some(sel));
            }
        }
    };
    view! {
        // A small diagram is not blown up past 1.2 times its drawn size.
        <div class="topology-scroll" node_ref=scroll_ref><div class="topology-wrap" style=move || format!("max-width: {}px", layout.with(Layout::width) * 6 / 5)>
            <svg class="topology" class:narrow=move || layout.with(|l| l.narrow) viewBox=move || layout.with(Layout::view_box) role="group" id="diagram"
                 aria-label="The producer publishes to the topic, which fans out to one queue per consumer; workers consume each queue"
                 on:click=on_click on:keydown=on_key>
                <live::Pieces diagram=diagram />
            </svg>
            <super::tokens::Tokens layout=layout />
        </div></div>
        <AsTable layout=layout diagram=diagram />
    }
}

/// The diagram in words, for a learner who cannot see it (or would rather read it): every node
/// it draws, with what feeds what and each live node's counts and state as its accessible name
/// says them. Built only while it is open.
#[component]
fn AsTable(layout: Memo<Layout>, diagram: Memo<parts::Diagram>) -> impl IntoView {
    let open = RwSignal::new(false);
    let rows = move || {
        let mut rows = layout.with(Layout::table_rows);
        diagram.with(|d| {
            rows.extend(d.looks.iter().filter_map(|l| l.label.as_deref()).map(|label| match label.split_once(": ") {
                Some((node, state)) => (node.to_string(), state.to_string()),
                None => (label.to_string(), String::new()),
            }))
        });
        rows.into_iter()
            .map(|(node, state)| view! { <tr><th scope="row" dir="auto">{node}</th><td dir="auto">{state}</td></tr> })
            .collect_view()
    };
    view! {
        <details class="diagram-table" data-testid="diagram-table"
            on:toggle=move |e| open.set(event_target::<web_sys::HtmlDetailsElement>(&e).open())>
            // On a phone "Diagram " is left out, so that the line fits the diagram's corner.
            <summary><span class="wide-only">"Diagram "</span><span class="rest">"as a table"</span></summary>
            <Show when=move || open.get()>
                <table>
                    <thead><tr><th scope="col">"Node"</th><th scope="col">"What it shows now"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </Show>
        </details>
    }
}

#[path = "topology_markup.rs"]
mod parts;

#[path = "topology_live.rs"]
mod live;

#[path = "topology_routes.rs"]
mod routes;
use routes::{endpoint_of, rule_targets, target_dlqs, Endpoint, RuleBadge, ServiceNode};

#[cfg(test)]
#[path = "topology_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "topology_routes_tests.rs"]
mod routes_tests;

#[cfg(test)]
#[path = "topology_names_tests.rs"]
mod names_tests;

/// The diagram, the chips and the event log on a real DOM.
#[cfg(all(test, target_arch = "wasm32"))]
#[path = "topology_dom_tests.rs"]
mod dom_tests;
