//! Probes: one value read from the engine, for a prediction, a run step's fact or a checkpoint's
//! goal. A probe only reads: from the snapshot, from the event log since the lesson step began,
//! from a read-only action (`Get…`, `Describe…`, `List…`) answered by a scratch copy of the
//! simulation, or from the last response of the step's own run.
//!
//! ```json
//! {"queue": "sms", "field": "visible"}                 visible | in_flight | delayed | stored |
//!                                                      visibility_timeout | retention_period | max_receive_count
//! {"workers_on": "packing", "state": "Waiting"}        how many workers poll the queue (in that state)
//! {"worker": "packing-w1", "field": "state"}           state | held | received | succeeded | failed | crashes
//! {"job": "packing", "field": "side_effects"}          side_effects | distinct_events | duplicates | skipped |
//!                                                      end_to_end_mean_ms | end_to_end_max_ms
//! {"events": "WorkerCrashed", "where": {"worker": "packing-w1"}}            how many, since the step began
//! {"events": "Received", "where": {...}, "field": "message_id", "pick": "all"}  first | last (default) | all
//! {"action": "DescribeProducer", "params": {"ProducerName": "chain"}, "path": "Availability"}
//! {"action": "GetMetricStatistics", "params": {...}, "path": "Datapoints", "largest": "Sum"}   the busiest period
//! {"filter": "sms", "message": {"MessageAttributes": {...}}}                "match" or "no match"
//! {"response": "Messages.0.Body"}                      the step's last response (run and predict steps);
//!                                                      a body holding JSON is read through: "Messages.0.Body.requestContext.condition"
//! ```
//!
//! A `queue`, `workers_on`, `worker`, `job` or `filter` probe reads one snapshot (shared by the
//! probes of one checklist); an `events` probe scans the log since the step began; an `action`
//! probe answers from a copy of the whole simulation, so a checklist the page evaluates often
//! should prefer the others.
//!
//! A path or a field that does not resolve reads as null (a receive that returned nothing has
//! no `Messages.0.Body`); a resource that does not exist is an error, which no test passes.

use crate::attributes::MessageAttributes;
use crate::filter::{FilterPolicy, FilterPolicyScope};
use crate::scenario::{contains, fill, has_placeholders, resolve_path, Vars};
use crate::sim::Sim;
use crate::snapshot::Snapshot;
use serde_json::{json, Map, Value};
use std::cell::OnceCell;

/// Where a probe looks.
#[derive(Clone, Debug, PartialEq)]
pub enum Probe {
    Queue {
        queue: String,
        field: QueueField,
    },
    WorkersOn {
        queue: String,
        state: Option<String>,
    },
    Worker {
        worker: String,
        field: WorkerField,
    },
    Job {
        job: String,
        field: JobField,
    },
    Events {
        kind: String,
        filter: Map<String, Value>,
        field: Option<(String, Pick)>,
    },
    /// A read-only action's response at `path`; with `largest`, the largest whole number among
    /// that field of the list at `path` (the busiest period of a metric's datapoints).
    Action {
        action: String,
        params: Value,
        path: Option<String>,
        largest: Option<String>,
    },
    Filter {
        queue: String,
        attributes: MessageAttributes,
        body: String,
    },
    Response {
        path: Option<String>,
    },
}

macro_rules! field_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($variant),+ }
        impl $name {
            const ALL: &'static [(&'static str, $name)] = &[$(($text, $name::$variant)),+];
            fn parse(text: &str) -> Result<$name, String> {
                Self::ALL.iter().find(|(t, _)| *t == text).map(|(_, f)| *f).ok_or_else(|| {
                    let names: Vec<&str> = Self::ALL.iter().map(|(t, _)| *t).collect();
                    format!("\"field\" \"{text}\" is not one of {}", names.join(", "))
                })
            }
            /// The name, as a lesson file writes it.
            pub fn as_str(self) -> &'static str {
                Self::ALL.iter().find(|(_, f)| *f == self).map_or("", |(t, _)| t)
            }
        }
    };
}

field_enum!(
    /// A queue's count or setting, from the snapshot.
    QueueField { Visible = "visible", InFlight = "in_flight", Delayed = "delayed", Stored = "stored",
    VisibilityTimeout = "visibility_timeout", RetentionPeriod = "retention_period", MaxReceiveCount = "max_receive_count" }
);
field_enum!(
    /// A worker's state or counter.
    WorkerField { State = "state", Held = "held", Received = "received", Succeeded = "succeeded",
    Failed = "failed", Crashes = "crashes" }
);
field_enum!(
    /// A job's side-effect counters.
    JobField { SideEffects = "side_effects", DistinctEvents = "distinct_events", Duplicates = "duplicates",
    Skipped = "skipped", EndToEndMeanMs = "end_to_end_mean_ms", EndToEndMaxMs = "end_to_end_max_ms" }
);

/// Which matching event an `events` probe with a `field` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    First,
    Last,
    /// Every matching event's field, in log order.
    All,
}

/// What a probe reads from: the simulation, where the lesson step began in its event log, the
/// lesson's saved values and the step's last response.
pub struct Context<'a> {
    pub(crate) sim: &'a Sim,
    pub(crate) since: usize,
    pub(crate) vars: &'a Vars,
    pub(crate) response: Option<&'a Value>,
    snapshot: OnceCell<Snapshot>,
}

impl<'a> Context<'a> {
    pub(crate) fn new(sim: &'a Sim, since: usize, vars: &'a Vars, response: Option<&'a Value>) -> Context<'a> {
        Context { sim, since, vars, response, snapshot: OnceCell::new() }
    }

    fn snapshot(&self) -> &Snapshot {
        self.snapshot.get_or_init(|| self.sim.snapshot_limited(0))
    }
}

const READ_ONLY_PREFIXES: [&str; 3] = ["Get", "Describe", "List"];

impl Probe {
    /// Reads a probe object. `saved` are the names a `${name}` in an action probe may use.
    pub(crate) fn parse(value: &Value, saved: &[String]) -> Result<Probe, String> {
        let Value::Object(map) = value else {
            return Err("\"probe\" must be an object such as {\"queue\": \"sms\", \"field\": \"visible\"}".into());
        };
        let mut m = map.clone();
        let kinds = ["queue", "workers_on", "worker", "job", "events", "action", "filter", "response"];
        let kind = kinds
            .iter()
            .find(|k| m.contains_key(**k))
            .ok_or_else(|| format!("\"probe\" needs one of {} (what to read)", kinds.join(", ")))?;
        let text = |m: &mut Map<String, Value>, key: &str| match m.remove(key) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s),
            _ => Err(format!("probe \"{key}\" must be a non-empty string")),
        };
        let probe = match *kind {
            "queue" => {
                Probe::Queue { queue: text(&mut m, "queue")?, field: QueueField::parse(&text(&mut m, "field")?)? }
            }
            "workers_on" => {
                let queue = text(&mut m, "workers_on")?;
                let state = if m.contains_key("state") { Some(text(&mut m, "state")?) } else { None };
                Probe::WorkersOn { queue, state }
            }
            "worker" => {
                Probe::Worker { worker: text(&mut m, "worker")?, field: WorkerField::parse(&text(&mut m, "field")?)? }
            }
            "job" => Probe::Job { job: text(&mut m, "job")?, field: JobField::parse(&text(&mut m, "field")?)? },
            "events" => {
                let name = text(&mut m, "events")?;
                parse_events(&mut m, name)?
            }
            "action" => {
                let name = text(&mut m, "action")?;
                parse_action(&mut m, name, saved)?
            }
            "filter" => {
                let name = text(&mut m, "filter")?;
                parse_filter(&mut m, name)?
            }
            _ => {
                let path = if m.get("response").is_some_and(|v| v.as_str() == Some("")) {
                    m.remove("response");
                    None
                } else {
                    Some(text(&mut m, "response")?)
                };
                Probe::Response { path }
            }
        };
        if let Some(k) = m.keys().next() {
            return Err(format!("probe has an unknown key \"{k}\" for a \"{kind}\" probe"));
        }
        Ok(probe)
    }

    /// Reads the value now. An error says why there is no value (no such queue, say).
    pub fn read(&self, ctx: &Context) -> Result<Value, String> {
        match self {
            Probe::Queue { queue, field } => {
                let q = ctx.snapshot().queues.iter().find(|q| q.name == *queue);
                let q = q.ok_or_else(|| format!("there is no queue \"{queue}\""))?;
                Ok(match field {
                    QueueField::Visible => json!(q.visible),
                    QueueField::InFlight => json!(q.in_flight),
                    QueueField::Delayed => json!(q.delayed),
                    QueueField::Stored => json!(q.visible + q.in_flight + q.delayed),
                    QueueField::VisibilityTimeout => json!(q.visibility_timeout),
                    QueueField::RetentionPeriod => json!(q.retention_period),
                    QueueField::MaxReceiveCount => json!(q.max_receive_count),
                })
            }
            Probe::WorkersOn { queue, state } => {
                let workers = &ctx.snapshot().world.workers;
                let n = workers
                    .iter()
                    .filter(|w| w.queue == *queue && state.as_ref().is_none_or(|s| w.state.as_str() == s))
                    .count();
                Ok(json!(n))
            }
            Probe::Worker { worker, field } => {
                let w = ctx.snapshot().world.workers.iter().find(|w| w.name == *worker);
                let w = w.ok_or_else(|| format!("there is no worker \"{worker}\""))?;
                Ok(match field {
                    WorkerField::State => json!(w.state.as_str()),
                    WorkerField::Held => json!(w.held.len()),
                    WorkerField::Received => json!(w.received),
                    WorkerField::Succeeded => json!(w.succeeded),
                    WorkerField::Failed => json!(w.failed),
                    WorkerField::Crashes => json!(w.crashes),
                })
            }
            Probe::Job { job, field } => {
                let j = ctx.snapshot().world.jobs.iter().find(|j| j.job == *job);
                let j = j.ok_or_else(|| format!("there is no job \"{job}\""))?;
                Ok(match field {
                    JobField::SideEffects => json!(j.side_effects),
                    JobField::DistinctEvents => json!(j.distinct_events),
                    JobField::Duplicates => json!(j.duplicates),
                    JobField::Skipped => json!(j.skipped),
                    JobField::EndToEndMeanMs => json!(j.end_to_end_mean_ms),
                    JobField::EndToEndMaxMs => json!(j.end_to_end_max_ms),
                })
            }
            Probe::Events { kind, filter, field } => Ok(read_events(ctx, kind, filter, field.as_ref())),
            Probe::Action { action, params, path, largest } => {
                let value = read_action(ctx, action, params, path.as_deref())?;
                Ok(match largest {
                    None => value,
                    Some(field) => largest_of(&value, field),
                })
            }
            Probe::Filter { queue, attributes, body } => read_filter(ctx, queue, attributes, body),
            Probe::Response { path } => {
                let response = ctx.response.ok_or("the step's run has no action response to read")?;
                Ok(at_path(response, path.as_deref()))
            }
        }
    }

    /// Whether the probe reads the step's own response (only run and predict steps have one).
    pub fn reads_response(&self) -> bool {
        matches!(self, Probe::Response { .. })
    }

    /// A short name for reports: `visible(sms)`, `DescribeProducer → Availability`.
    pub fn describe(&self) -> String {
        match self {
            Probe::Queue { queue, field } => format!("{}({queue})", field.as_str()),
            Probe::WorkersOn { queue, state: None } => format!("workers on {queue}"),
            Probe::WorkersOn { queue, state: Some(s) } => format!("{s} workers on {queue}"),
            Probe::Worker { worker, field } => format!("{}({worker})", field.as_str()),
            Probe::Job { job, field } => format!("{}({job})", field.as_str()),
            Probe::Events { kind, filter, field } => {
                let w = if filter.is_empty() { String::new() } else { format!(" {}", Value::Object(filter.clone())) };
                match field {
                    None => format!("{kind} events{w}"),
                    Some((f, _)) => format!("{f} of {kind} events{w}"),
                }
            }
            Probe::Action { action, path, largest, .. } => match (path, largest) {
                (Some(p), Some(f)) => format!("the largest {f} of {action} → {p}"),
                (Some(p), None) => format!("{action} → {p}"),
                (None, _) => action.clone(),
            },
            Probe::Filter { queue, .. } => format!("{queue}'s filter policy on the sample"),
            Probe::Response { path } => format!("the response's {}", path.as_deref().unwrap_or("whole body")),
        }
    }
}

fn parse_events(m: &mut Map<String, Value>, kind: String) -> Result<Probe, String> {
    let filter = match m.remove("where") {
        None => Map::new(),
        Some(Value::Object(w)) => w,
        Some(_) => return Err("probe \"where\" must be an object of event fields, such as {\"queue\": \"sms\"}".into()),
    };
    let field = match (m.remove("field"), m.remove("pick")) {
        (None, None) => None,
        (None, Some(_)) => return Err("probe \"pick\" needs a \"field\" to pick".into()),
        (Some(Value::String(f)), pick) => {
            let pick = match pick.as_ref().map(|p| p.as_str()) {
                None | Some(Some("last")) => Pick::Last,
                Some(Some("first")) => Pick::First,
                Some(Some("all")) => Pick::All,
                Some(_) => return Err("probe \"pick\" must be \"first\", \"last\" or \"all\"".into()),
            };
            Some((f, pick))
        }
        (Some(_), _) => return Err("probe \"field\" must be an event field name such as \"message_id\"".into()),
    };
    Ok(Probe::Events { kind, filter, field })
}

fn parse_action(m: &mut Map<String, Value>, action: String, saved: &[String]) -> Result<Probe, String> {
    let entry = crate::actions::find(&action).ok_or_else(|| format!("probe action \"{action}\" is not an action"))?;
    if !READ_ONLY_PREFIXES.iter().any(|p| action.starts_with(p)) {
        return Err(format!(
            "probe action \"{action}\" would act: a probe only reads (Get…, Describe… or List… actions)"
        ));
    }
    let params = match m.remove("params") {
        None => json!({}),
        Some(p @ Value::Object(_)) => p,
        Some(_) => return Err("probe \"params\" must be an object".into()),
    };
    if let Some(k) = params.as_object().and_then(|p| p.keys().find(|k| !entry.params.contains(&k.as_str()))) {
        return Err(format!("probe action {action} has no parameter \"{k}\"; it takes {}", entry.params.join(", ")));
    }
    crate::scenario::check_saved_names(&params, saved).map_err(|e| format!("probe params: {e}"))?;
    let path = match m.remove("path") {
        None => None,
        Some(Value::String(p)) if !p.is_empty() => Some(p),
        Some(_) => return Err("probe \"path\" must be a dotted path such as \"Attributes.VisibilityTimeout\"".into()),
    };
    let largest = match m.remove("largest") {
        None => None,
        Some(Value::String(f)) if !f.is_empty() => Some(f),
        Some(_) => return Err("probe \"largest\" must name a field of the listed objects, such as \"Sum\"".into()),
    };
    Ok(Probe::Action { action, params, path, largest })
}

fn parse_filter(m: &mut Map<String, Value>, queue: String) -> Result<Probe, String> {
    let Some(Value::Object(sample)) = m.remove("message") else {
        return Err(
            "a filter probe needs \"message\": {\"MessageAttributes\": {...}} and/or {\"Message\": \"...\"}".into()
        );
    };
    if let Some(k) = sample.keys().find(|k| *k != "MessageAttributes" && *k != "Message") {
        return Err(format!("probe message has an unknown key \"{k}\" (use MessageAttributes and/or Message)"));
    }
    let body = match sample.get("Message") {
        None => "{}".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    };
    let params =
        json!({"Message": body, "MessageAttributes": sample.get("MessageAttributes").cloned().unwrap_or(json!({}))});
    let attributes =
        crate::sns::parse_publish_attributes(&params).map_err(|e| format!("probe message: {}", e.message))?;
    Ok(Probe::Filter { queue, attributes, body })
}

/// The fields of an `events` probe that are not in the event: how long ago it was logged (ms),
/// and how long after the previous such event, in the whole log, it was logged (ms; null for the
/// first), as the wait between a retry and the attempt before it.
const ELAPSED: &str = "elapsed_ms";
const SINCE_PREVIOUS: &str = "since_previous_ms";

fn read_events(ctx: &Context, kind: &str, filter: &Map<String, Value>, field: Option<&(String, Pick)>) -> Value {
    let want = Value::Object(filter.clone());
    let matches = |e: &crate::event::Event| {
        if e.kind.name() != kind {
            return None;
        }
        let v = serde_json::to_value(e).ok()?;
        contains(&want, &v, "").is_empty().then_some(v)
    };
    let events = ctx.sim.events().get(ctx.since..).unwrap_or(&[]);
    let matching = events.iter().filter_map(matches);
    let pick_of = |mut values: Box<dyn DoubleEndedIterator<Item = Value> + '_>, pick: &Pick| match pick {
        Pick::First => values.next().unwrap_or(Value::Null),
        Pick::Last => values.next_back().unwrap_or(Value::Null),
        Pick::All => Value::Array(values.collect()),
    };
    let at = |v: &Value| v.get("at").and_then(Value::as_u64);
    match field {
        None => json!(matching.count()),
        // `elapsed_ms`: how long ago each event was logged, in virtual ms.
        Some((f, pick)) if f == ELAPSED => {
            let now = ctx.sim.now().ms();
            pick_of(
                Box::new(matching.map(move |v| at(&v).map_or(Value::Null, |at| json!(now.saturating_sub(at))))),
                pick,
            )
        }
        // `since_previous_ms`: the gap to the matching event before it, earlier steps included.
        Some((f, pick)) if f == SINCE_PREVIOUS => {
            let before = ctx.sim.events().get(..ctx.since).unwrap_or(&[]);
            let mut previous = before.iter().rev().find_map(matches).and_then(|v| at(&v));
            let gaps: Vec<Value> = matching
                .map(|v| {
                    let here = at(&v);
                    let gap = match (previous, here) {
                        (Some(p), Some(h)) => json!(h.saturating_sub(p)),
                        _ => Value::Null,
                    };
                    previous = here.or(previous);
                    gap
                })
                .collect();
            pick_of(Box::new(gaps.into_iter()), pick)
        }
        Some((f, pick)) => {
            pick_of(Box::new(matching.map(|v| resolve_path(&v, f).cloned().unwrap_or(Value::Null))), pick)
        }
    }
}

fn read_action(ctx: &Context, action: &str, params: &Value, path: Option<&str>) -> Result<Value, String> {
    let mut scratch = ctx.sim.clone();
    scratch.set_event_recording(false);
    let result = if has_placeholders(params) {
        let mut filled = params.clone();
        fill(&mut filled, ctx.vars);
        scratch.apply(action, &filled)
    } else {
        scratch.apply(action, params)
    };
    let response = result.map_err(|e| format!("{action} failed: {}: {}", e.code, e.message))?;
    Ok(at_path(&response, path))
}

/// The largest whole number among `field` of the objects listed in `value`; null if none.
fn largest_of(value: &Value, field: &str) -> Value {
    let items = value.as_array().map(Vec::as_slice).unwrap_or(&[]);
    items
        .iter()
        .filter_map(|item| item.get(field).and_then(super::test::number_of))
        .max()
        .map_or(Value::Null, |n| json!(n))
}

/// The value at a dotted path, or null where the path does not resolve (an empty list, say). A
/// JSON object or list carried as text on the way (a message's `Body`, such as a Lambda
/// destination's invocation record) is read through: `Messages.0.Body.requestContext.condition`.
fn at_path(value: &Value, path: Option<&str>) -> Value {
    let Some(p) = path else { return value.clone() };
    if let Ok(v) = resolve_path(value, p) {
        return v.clone();
    }
    let mut here = value.clone();
    for part in p.split('.') {
        if let Value::String(text) = &here {
            match serde_json::from_str::<Value>(text) {
                Ok(inner @ (Value::Object(_) | Value::Array(_))) => here = inner,
                _ => return Value::Null,
            }
        }
        here = match &here {
            Value::Object(map) => map.get(part).cloned(),
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i).cloned()),
            _ => None,
        }
        .unwrap_or(Value::Null);
    }
    here
}

fn read_filter(ctx: &Context, queue: &str, attributes: &MessageAttributes, body: &str) -> Result<Value, String> {
    let subscription = ctx
        .snapshot()
        .topics
        .iter()
        .flat_map(|t| &t.subscriptions)
        .find(|s| s.queue.as_deref() == Some(queue))
        .ok_or_else(|| format!("no subscription delivers to queue \"{queue}\""))?;
    let Some(policy) = &subscription.filter_policy else { return Ok(json!("match")) };
    let scope: FilterPolicyScope = subscription.filter_scope.parse()?;
    let compiled = FilterPolicy::compile(policy, scope).map_err(|e| e.message)?;
    Ok(json!(if compiled.matches(attributes, body) { "match" } else { "no match" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_reads_through_a_json_body_and_reads_null_where_it_does_not_resolve() {
        let record = r#"{"requestContext":{"condition":"RetriesExhausted","approximateInvokeCount":3}}"#;
        let response = json!({"Messages": [{"Body": record}]});
        assert_eq!(at_path(&response, Some("Messages.0.Body.requestContext.approximateInvokeCount")), json!(3));
        assert_eq!(at_path(&response, Some("Messages.0.Body")), json!(record), "the body itself is still text");
        assert_eq!(at_path(&response, Some("Messages.0.Body.nothing")), Value::Null);
        assert_eq!(at_path(&json!({"Messages": [{"Body": "plain text"}]}), Some("Messages.0.Body.x")), Value::Null);
        assert_eq!(at_path(&json!({"Messages": []}), Some("Messages.0.Body.x")), Value::Null);
    }
}
