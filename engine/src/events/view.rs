//! EventBridge in the snapshot: buses with their rules and targets, archives, replays.

use super::targets::Destination;
use super::transform::Input;
use crate::sim::Sim;
use serde::Serialize;

/// Everything EventBridge holds, as plain data (empty lists but the default bus when unused).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EventBridgeView {
    pub buses: Vec<EventBusView>,
    pub archives: Vec<ArchiveView>,
    pub replays: Vec<ReplayView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventBusView {
    pub name: String,
    pub arn: String,
    /// Events put on the bus so far (replays and bus-to-bus deliveries included).
    pub received: u64,
    pub rules: Vec<RuleView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleView {
    pub name: String,
    pub arn: String,
    pub state: &'static str,
    pub event_pattern: Option<String>,
    pub schedule_expression: Option<String>,
    /// Events the pattern matched so far.
    pub matched: u64,
    pub targets: Vec<TargetView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetView {
    pub id: String,
    pub arn: String,
    /// `queue`, `topic` or `bus`, and its name.
    pub kind: &'static str,
    pub destination: String,
    /// `event`, `Input`, `InputPath` or `InputTransformer`.
    pub input: &'static str,
    pub max_retry_attempts: u32,
    pub max_event_age_seconds: u32,
    pub dead_letter_arn: Option<String>,
    pub message_group_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArchiveView {
    pub name: String,
    pub bus: String,
    pub event_pattern: Option<String>,
    pub retention_days: u32,
    pub event_count: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayView {
    pub name: String,
    pub bus: String,
    pub state: &'static str,
    pub replayed: usize,
    pub pending: usize,
}

impl Sim {
    pub(crate) fn eventbridge_view(&self) -> EventBridgeView {
        let eb = &self.events;
        let buses = eb
            .buses
            .values()
            .map(|b| EventBusView {
                name: b.name.to_string(),
                arn: b.arn.to_string(),
                received: b.received,
                rules: b
                    .rules
                    .values()
                    .map(|r| RuleView {
                        name: r.name.to_string(),
                        arn: r.arn.to_string(),
                        state: r.state(),
                        event_pattern: r.pattern.as_ref().map(|p| p.0.clone()),
                        schedule_expression: r.schedule.as_ref().map(|s| s.text.clone()),
                        matched: r.matched,
                        targets: r.targets.values().map(target_view).collect(),
                    })
                    .collect(),
            })
            .collect();
        let archives = eb
            .archives
            .values()
            .map(|a| ArchiveView {
                name: a.name.to_string(),
                bus: a.bus.to_string(),
                event_pattern: a.pattern.as_ref().map(|p| p.0.clone()),
                retention_days: a.retention_days,
                event_count: a.kept(self.now).count(),
            })
            .collect();
        let replays = eb
            .replays
            .values()
            .map(|r| ReplayView {
                name: r.name.to_string(),
                bus: r.bus.to_string(),
                state: r.state,
                replayed: r.replayed,
                pending: r.pending.len(),
            })
            .collect();
        EventBridgeView { buses, archives, replays }
    }
}

fn target_view(t: &super::targets::Target) -> TargetView {
    let (kind, destination) = match &t.destination {
        Destination::Queue(n) => ("queue", n),
        Destination::Topic(n) => ("topic", n),
        Destination::Bus(n) => ("bus", n),
        Destination::Function(n) => ("function", n),
    };
    TargetView {
        id: t.id.clone(),
        arn: t.arn.clone(),
        kind,
        destination: destination.clone(),
        input: match t.input {
            Input::Event => "event",
            Input::Constant(_) => "Input",
            Input::Path(_) => "InputPath",
            Input::Transformer { .. } => "InputTransformer",
        },
        max_retry_attempts: t.max_retry_attempts,
        max_event_age_seconds: t.max_event_age_seconds,
        dead_letter_arn: t.dead_letter_arn.clone(),
        message_group_id: t.message_group_id.clone(),
    }
}
