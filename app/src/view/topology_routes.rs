//! The routes page's part of the diagram's layout (see [`super::Layout`]): EventBridge buses
//! placed beside the topics with a row for each rule's target, what a row that is not a queue
//! delivers to, and the order services in the producer's place. The other pages' builds have
//! only the stand-ins: types without values, functions that find nothing.

use super::*;

/// An order service in the producer's place: its name and design, its database in one line,
/// whether it is down after a crash.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ServiceNode {
    pub(super) name: String,
    pub(super) design: &'static str,
    pub(super) line: String,
    pub(super) crashed: bool,
    /// Its outbox relay's line ("relay r: 2 published", or crashed; the caption leaves the
    /// name out), and whether it is down.
    pub(super) relay: Option<(String, bool)>,
}

impl ServiceNode {
    /// "2 orders · 1 lost" (dual write), "2 orders · 1 unsent" (outbox), "crashed" first while
    /// it restarts, "crash armed" last when a crash waits for its point.
    pub(super) fn of(s: &engine::world::OrderServiceView) -> ServiceNode {
        use engine::world::OrderDesign;
        let orders = crate::format::count(s.db.orders.len() as u64, "order", "orders");
        let missing = s.orders_without_event.len();
        let (design, mut line) = match s.design {
            OrderDesign::DualWrite => ("dual write", format!("{orders} · {missing} lost")),
            OrderDesign::Outbox => ("outbox", format!("{orders} · {missing} unsent")),
        };
        if s.crashed {
            line = format!("crashed · {line}");
        } else if s.crash_armed.is_some() {
            line.push_str(" · crash armed");
        }
        let relay = s.relays.first().map(|r| {
            let state =
                if r.crashed { "crashed, restarting".to_string() } else { format!("{} published", r.published) };
            (format!("relay {}: {state}", r.name), r.crashed)
        });
        ServiceNode { name: s.name.clone(), design, line, crashed: s.crashed, relay }
    }
}

/// A rule's badge on the row of one of its targets: what the bus matched with it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RuleBadge {
    pub(super) bus: String,
    pub(super) name: String,
    /// The event pattern, or the schedule expression of a scheduled rule.
    pub(super) pattern: String,
    pub(super) enabled: bool,
    pub(super) matched: u64,
    /// What the target receives: `event`, `Input`, `InputPath` or `InputTransformer`.
    pub(super) input: &'static str,
}

/// What a row's box is when it is not a queue: an HTTP/S endpoint, a Lambda function, a topic or
/// a bus that a subscription or a rule delivers to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Endpoint {
    /// "HTTPS", "HTTP", "e-mail", "SMS", "push", "λ function", "SNS topic", "event bus",
    /// "missing" (a deleted target).
    pub(super) kind: &'static str,
    /// Its name on the diagram.
    pub(super) label: String,
    /// Its counts, and a second line (retries waiting, where its records go).
    pub(super) stat: String,
    pub(super) more: String,
    pub(super) down: bool,
}

impl Layout {
    /// Puts the drawn buses after the topics: each level with the middle of its rules' targets,
    /// one with no target on a row of its own under the rest.
    pub(super) fn place_buses(&mut self, s: &Snapshot) {
        for (k, bus) in drawn_buses(s).enumerate() {
            let i = self.buses_from + k;
            let y = match middle_of(self.rows.iter().filter(|r| r.topic == Some(i))) {
                Some(y) => y,
                None if self.rows.is_empty() && self.topics.is_empty() => ROW_CENTRE,
                None => {
                    self.bottom += ROW;
                    self.bottom - ROW + ROW_CENTRE
                }
            };
            self.topics.push((bus.name.clone(), y));
            let eb = &s.eventbridge;
            for a in eb.archives.iter().filter(|a| a.bus == bus.name || a.bus == bus.arn) {
                self.notes.push((
                    i,
                    format!("archive {}: {}", a.name, crate::format::count(a.event_count as u64, "event", "events")),
                ));
            }
            for r in eb.replays.iter().filter(|r| r.bus == bus.name || r.bus == bus.arn) {
                let state = r.state.to_ascii_lowercase();
                self.notes.push((i, format!("replay {}: {} replayed, {state}", r.name, r.replayed)));
            }
        }
    }

    /// The centre line of order service `i` in the wide diagram: stacked 64 apart, centred on
    /// the producer's line.
    pub(super) fn service_y(&self, i: usize) -> i64 {
        let n = self.services.len() as i64;
        // 76 apart: a service's box, its database's caption and its relay's.
        self.topic_y() + (2 * i as i64 - (n - 1)) * 38
    }

    /// How far the narrow diagram starts lower for the order services on top: two side by side
    /// need room for the second's line to the trunk, a relay for its caption.
    pub(super) fn services_lift(&self) -> i64 {
        let relay = self.services.iter().any(|s| s.relay.is_some());
        let side_by_side = if self.services.len() > 1 { 20 } else { 0 };
        side_by_side + if relay { 18 } else { 0 }
    }

    /// Moves everything down (and the bottom further) until the stacked order services and
    /// their captions fit in the wide diagram.
    pub(super) fn make_room_for_services(&mut self) {
        if self.services.len() < 2 {
            return;
        }
        let down = (24 - self.service_y(0)).max(0);
        for row in &mut self.rows {
            row.y += down;
        }
        for (_, y) in &mut self.topics {
            *y += down;
        }
        self.bottom = (self.bottom + down).max(self.service_y(self.services.len() - 1) + 56);
    }

    /// The row of `rule`'s target `destination`.
    pub(crate) fn row_of_rule(&self, rule: &str, destination: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.queue == destination && r.rule.as_ref().is_some_and(|b| b.name == rule))
    }
}

/// The name at the end of an ARN (`arn:aws:sqs:…:orders-dlq` → `orders-dlq`).
pub(super) fn arn_name(arn: &str) -> &str {
    arn.rsplit([':', '/']).next().unwrap_or(arn)
}

/// The buses the diagram draws: those with a rule, or that have had an event.
pub(super) fn drawn_buses(s: &Snapshot) -> impl Iterator<Item = &engine::events::EventBusView> {
    s.eventbridge.buses.iter().filter(|b| !b.rules.is_empty() || b.received > 0)
}

/// The queues that rules' targets send what they could not deliver to (`DeadLetterConfig`).
pub(super) fn target_dlqs(s: &Snapshot) -> impl Iterator<Item = &str> {
    let targets = s.eventbridge.buses.iter().flat_map(|b| &b.rules).flat_map(|r| &r.targets);
    targets.filter_map(|t| t.dead_letter_arn.as_deref()).map(arn_name)
}

/// A row for each target of each rule of each drawn bus, in order: (the bus's index in the
/// layout's sources, counting from `first`; the rule's badge; the target's name; its
/// dead-letter queue).
pub(super) fn rule_targets(s: &Snapshot, first: usize) -> Vec<(usize, RuleBadge, String, Option<String>)> {
    let mut rows = Vec::new();
    for (i, bus) in drawn_buses(s).enumerate() {
        for rule in &bus.rules {
            for t in &rule.targets {
                let badge = RuleBadge {
                    bus: bus.name.clone(),
                    name: rule.name.clone(),
                    pattern: rule
                        .event_pattern
                        .clone()
                        .or_else(|| rule.schedule_expression.clone())
                        .unwrap_or_default(),
                    enabled: rule.state == "ENABLED",
                    matched: rule.matched,
                    input: t.input,
                };
                let dlq = t.dead_letter_arn.as_deref().map(|a| arn_name(a).to_string());
                rows.push((first + i, badge, t.destination.clone(), dlq));
            }
        }
    }
    rows
}

/// What a row that is not a queue delivers to: an HTTP/S endpoint, a mailbox, a phone, a device
/// or a function subscribed to a topic, or a rule's function, topic or bus.
pub(super) fn endpoint_of(
    s: &Snapshot,
    name: &str,
    sub: Option<&SubscriptionView>,
    rule: Option<&RuleBadge>,
) -> Option<Endpoint> {
    let w = &s.world;
    let retrying = sub.map_or(0, |x| x.retrying);
    let waiting = if retrying > 0 {
        crate::format::count(retrying, "copy waits to retry", "copies wait to retry")
    } else {
        String::new()
    };
    if let Some(e) = w.http_endpoints.iter().find(|e| e.url == name || e.name == name) {
        use engine::world::EndpointKind;
        let kind = match e.kind {
            EndpointKind::Webhook if e.url.starts_with("https:") => "HTTPS",
            EndpointKind::Webhook => "HTTP",
            EndpointKind::Mailbox => "e-mail",
            EndpointKind::Phone => "SMS",
            EndpointKind::Device => "push",
        };
        let stat = format!("{} sent · {} ok · {} failed", e.requests, e.accepted, e.failed);
        let more = match (e.down, waiting.is_empty()) {
            (true, true) => "down".to_string(),
            (true, false) => format!("down · {waiting}"),
            (false, _) => waiting,
        };
        return Some(Endpoint { kind, label: e.name.clone(), stat, more, down: e.down });
    }
    let function = arn_name(name);
    let is_function = sub.is_some_and(|x| x.protocol == "lambda") || name.contains(":function:");
    if let Some(f) = w.functions.iter().find(|f| f.name == function).filter(|_| is_function || rule.is_some()) {
        let count = crate::format::count;
        let stat = format!(
            "{} · {} · {} queued",
            count(f.invocations, "run", "runs"),
            count(f.errors, "error", "errors"),
            f.async_queued
        );
        let to = |what: &str, arn: &Option<String>| arn.as_deref().map(|a| format!("{what} → {}", arn_name(a)));
        let more: Vec<String> =
            [to("ok", &f.on_success), to("failed", &f.on_failure), to("DLQ", &f.dead_letter_target)]
                .into_iter()
                .flatten()
                .collect();
        let more = if more.is_empty() { waiting } else { more.join(" · ") };
        return Some(Endpoint { kind: "λ function", label: f.name.clone(), stat, more, down: false });
    }
    if let Some(t) = s.topics.iter().find(|t| t.name == name) {
        let stat = crate::format::count(t.published, "message published", "messages published");
        return Some(Endpoint { kind: "SNS topic", label: t.name.clone(), stat, more: String::new(), down: false });
    }
    if let Some(b) = s.eventbridge.buses.iter().find(|b| b.name == name) {
        let stat = crate::format::count(b.received, "event", "events");
        return Some(Endpoint { kind: "event bus", label: b.name.clone(), stat, more: String::new(), down: false });
    }
    // A rule's target that does not exist (a deleted queue).
    if rule.is_some() {
        let (stat, more) = ("does not exist".to_string(), "not retried: to its DLQ".to_string());
        return Some(Endpoint { kind: "missing", label: name.to_string(), stat, more, down: true });
    }
    // A subscription to an endpoint the world does not simulate (an e-mail address, say).
    sub.filter(|x| x.queue.is_none()).map(|x| Endpoint {
        kind: "endpoint",
        label: cut_name(name),
        stat: format!("{} · {} delivered · {} failed", x.protocol, x.delivered, x.failed),
        more: waiting,
        down: false,
    })
}

/// An endpoint's address without its scheme, for a box's name line.
pub(super) fn cut_name(name: &str) -> String {
    name.split_once("://").map_or(name, |(_, rest)| rest).to_string()
}
