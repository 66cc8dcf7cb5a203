//! `PutEvents`, the event envelope, and routing an event to the rules (and archives) of its bus;
//! scheduled rules' events.
//!
//! API reference, PutEvents / PutEventsRequestEntry: 1–10 entries; "`Detail`, `DetailType`, and
//! `Source` are required … If you include event entries in a request that do not include each of
//! those properties, EventBridge fails that entry. If you submit a request in which none of the
//! entries have each of these properties, EventBridge fails the entire request"; `Detail` is "A
//! valid JSON object"; `DetailType` "with a maximum of 128 characters"; `Time` "per RFC3339. If no
//! time stamp is provided, the time stamp of the PutEvents call is used". The response's `Entries`
//! has one result per request entry, in order, with `EventId` or `ErrorCode` and `ErrorMessage`.
//! "The total entry size must be less than 256KB", counted as "Calculating PutEvents event entry
//! size" says (Time 14 bytes; Source, DetailType, Detail and each Resources entry in UTF-8 bytes).
//!
//! The envelope ("Amazon EventBridge events"): `version` "0", `id`, `detail-type`, `source`,
//! `account`, `time` (whole seconds, UTC), `region`, `resources`, `detail`; a replayed event also
//! carries `replay-name`. Observed, not documented: a `Source` starting with `aws.` is refused
//! with `NotAuthorizedForSourceException`; entry errors are spelled `InvalidArgument` and
//! `MalformedDetail` (moto's validated texts).

use super::clock::{epoch_ms, parse_rfc3339, rfc3339_seconds};
use super::json::{minify, Tree};
use super::{validation, Delivery, EbEvent, EventsTimer};
use crate::error::{ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids::{ACCOUNT, REGION};
use crate::params::Params;
use crate::sim::Sim;
use crate::timers::Timer;
use serde_json::{json, Value};
use std::sync::Arc;

/// "The total entry size must be less than 256KB."
pub const MAX_PUT_EVENTS_BYTES: usize = 262_144;
pub const MAX_PUT_EVENTS_ENTRIES: usize = 10;
const ENTRY_FIELDS: &[&str] = &["Time", "Source", "Resources", "DetailType", "Detail", "EventBusName", "TraceHeader"];

/// One event as EventBridge holds it: the envelope's text and what routing needs.
#[derive(Clone, Debug)]
pub(crate) struct EventRecord {
    pub(crate) id: String,
    /// The envelope, as JSON text in AWS's field order.
    pub(crate) text: Arc<str>,
    /// The event's `time`, in epoch milliseconds.
    pub(crate) time_ms: i64,
    pub(crate) source: String,
    pub(crate) detail_type: String,
    pub(crate) replay_name: Option<Name>,
    /// How many bus-to-bus hops brought it here.
    pub(crate) hops: u32,
}

/// A checked entry, ready to be put.
struct Entry {
    bus: Name,
    source: String,
    detail_type: String,
    detail: String,
    resources: Vec<String>,
    time_ms: i64,
}

fn entry_error(code: &str, message: String) -> Value {
    json!({ "ErrorCode": code, "ErrorMessage": message })
}

/// The envelope's text, fields in the order AWS writes them.
pub(crate) fn envelope(id: &str, e: &EnvelopeParts<'_>) -> String {
    let q = |v: &str| Value::String(v.to_string()).to_string();
    let resources: Vec<String> = e.resources.iter().map(|r| q(r)).collect();
    let mut out = format!(
        "{{\"version\":\"0\",\"id\":{},\"detail-type\":{},\"source\":{},\"account\":{},\"time\":{},\"region\":{},\"resources\":[{}],\"detail\":{}",
        q(id),
        q(e.detail_type),
        q(e.source),
        q(ACCOUNT),
        q(&rfc3339_seconds(e.time_ms)),
        q(REGION),
        resources.join(","),
        e.detail
    );
    if let Some(r) = e.replay_name {
        out.push_str(&format!(",\"replay-name\":{}", q(r)));
    }
    out.push('}');
    out
}

pub(crate) struct EnvelopeParts<'a> {
    pub(crate) detail_type: &'a str,
    pub(crate) source: &'a str,
    pub(crate) time_ms: i64,
    pub(crate) resources: &'a [String],
    pub(crate) detail: &'a str,
    pub(crate) replay_name: Option<&'a str>,
}

/// The entry size as the user guide computes it.
fn entry_size(p: &Params) -> usize {
    let len = |k: &str| p.raw(k).and_then(Value::as_str).map_or(0, str::len);
    let resources: usize = p
        .raw("Resources")
        .and_then(Value::as_array)
        .map_or(0, |r| r.iter().filter_map(Value::as_str).map(str::len).sum());
    usize::from(p.raw("Time").is_some()) * 14 + len("Source") + len("DetailType") + len("Detail") + resources
}

impl Sim {
    pub(crate) fn put_events(&mut self, p: &Params) -> ApiResult<Value> {
        p.opt_str("EndpointId")?;
        let raw = p.object_list("Entries")?;
        if raw.is_empty() || raw.len() > MAX_PUT_EVENTS_ENTRIES {
            return Err(validation(format!(
                "1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and {MAX_PUT_EVENTS_ENTRIES} (got {}).",
                raw.len()
            )));
        }
        let mut entries: Vec<Params> = Vec::with_capacity(raw.len());
        for e in raw.iter() {
            entries.push(Params::new(Service::Events, "PutEvents entry", e, ENTRY_FIELDS)?);
        }
        let total: usize = entries.iter().map(entry_size).sum();
        if total > MAX_PUT_EVENTS_BYTES {
            return Err(validation(format!(
                "Total size of the entries in the request is over the limit: {total} bytes; at most {MAX_PUT_EVENTS_BYTES} (256 KB)."
            )));
        }
        let mut checked: Vec<Result<Entry, Value>> = Vec::with_capacity(entries.len());
        for e in &entries {
            checked.push(self.check_entry(e)?);
        }
        let missing_everywhere = checked.iter().all(|c| {
            c.as_ref().err().is_some_and(|e| {
                e["ErrorCode"] == "InvalidArgument"
                    && e["ErrorMessage"].as_str().is_some_and(|m| m.contains("required argument"))
            })
        });
        if missing_everywhere {
            return Err(validation("No entry has all of Source, DetailType and Detail: each is required for EventBridge to send an event to an event bus."));
        }
        let mut results = Vec::new();
        let mut failed = 0;
        for c in checked {
            match c {
                Ok(entry) => {
                    let id = self.put_entry(entry);
                    results.push(json!({ "EventId": id }));
                }
                Err(e) => {
                    failed += 1;
                    results.push(e);
                }
            }
        }
        Ok(json!({ "FailedEntryCount": failed, "Entries": results }))
    }

    /// `Err(Ok(entry error))` fails the entry; `Err` of the outer result fails the call.
    fn check_entry(&self, p: &Params) -> ApiResult<Result<Entry, Value>> {
        let (source, detail_type, detail) = (p.opt_str("Source")?, p.opt_str("DetailType")?, p.opt_str("Detail")?);
        let resources: Vec<String> = p.str_list("Resources")?.into_iter().map(str::to_string).collect();
        p.opt_str("TraceHeader")?;
        let time = match p.raw("Time") {
            None => None,
            Some(Value::String(s)) => Some(parse_rfc3339(s)),
            Some(Value::Number(n)) => Some(n.as_i64().and_then(|s| s.checked_mul(1000))),
            Some(_) => Some(None),
        };
        let bus = p.opt_str("EventBusName")?;
        for (name, value) in [("Source", source), ("DetailType", detail_type), ("Detail", detail)] {
            if value.is_none_or(str::is_empty) {
                return Ok(Err(entry_error(
                    "InvalidArgument",
                    format!("Parameter {name} is not valid. Reason: {name} is a required argument."),
                )));
            }
        }
        let (source, detail_type, detail) = (source.unwrap_or(""), detail_type.unwrap_or(""), detail.unwrap_or(""));
        if detail_type.chars().count() > 128 {
            return Ok(Err(entry_error(
                "InvalidArgument",
                "Parameter DetailType is not valid. Reason: at most 128 characters.".into(),
            )));
        }
        if source.starts_with("aws.") {
            return Ok(Err(entry_error("NotAuthorizedForSourceException", "Not authorized for the source.".into())));
        }
        if let Err(too_deep) = crate::nesting::check(detail) {
            return Ok(Err(entry_error("MalformedDetail", format!("Detail is malformed: {too_deep}."))));
        }
        if !Tree::parse(detail).is_ok_and(|t| t.is_object(t.root)) {
            return Ok(Err(entry_error("MalformedDetail", "Detail is malformed.".into())));
        }
        let time_ms = match time {
            None => epoch_ms(self.now),
            Some(Some(ms)) => ms,
            Some(None) => {
                return Ok(Err(entry_error(
                    "InvalidArgument",
                    "Parameter Time is not valid. Reason: use an RFC 3339 timestamp.".into(),
                )))
            }
        };
        let bus = match self.bus_ref(bus) {
            Ok(b) => b,
            Err(e) => return Ok(Err(entry_error(&e.code, e.message))),
        };
        Ok(Ok(Entry {
            bus,
            source: source.into(),
            detail_type: detail_type.into(),
            detail: minify(detail),
            resources,
            time_ms,
        }))
    }

    /// An event an AWS service puts on a bus (a Lambda destination's invocation record), now.
    pub(crate) fn put_service_event(
        &mut self,
        bus: &Name,
        source: &str,
        detail_type: &str,
        detail: &str,
        resources: Vec<String>,
    ) -> String {
        let entry = Entry {
            bus: bus.clone(),
            source: source.into(),
            detail_type: detail_type.into(),
            detail: minify(detail),
            resources,
            time_ms: epoch_ms(self.now),
        };
        self.put_entry(entry)
    }

    pub(crate) fn next_event_id(&mut self) -> String {
        self.events.events += 1;
        format!("evt-{}", self.events.events)
    }

    fn put_entry(&mut self, e: Entry) -> String {
        let id = self.next_event_id();
        let parts = EnvelopeParts {
            detail_type: &e.detail_type,
            source: &e.source,
            time_ms: e.time_ms,
            resources: &e.resources,
            detail: &e.detail,
            replay_name: None,
        };
        let record = EventRecord {
            text: envelope(&id, &parts).into(),
            id: id.clone(),
            time_ms: e.time_ms,
            source: e.source,
            detail_type: e.detail_type,
            replay_name: None,
            hops: 0,
        };
        self.route(&e.bus, Arc::new(record), None);
        id
    }

    /// Offers an event to the enabled pattern rules of `bus` (all, or those in `only`), schedules
    /// a delivery per target of each matching rule, and keeps it in the bus's archives.
    pub(crate) fn route(&mut self, bus: &Name, record: Arc<EventRecord>, only: Option<&[Name]>) {
        let Ok(tree) = Tree::parse(&record.text) else { return };
        let record_events = self.record_events;
        let mut outcomes: Vec<(Name, Result<usize, String>)> = Vec::new();
        let b = self.bus_mut(bus);
        b.received += 1;
        for rule in b.rules.values_mut() {
            let Some((_, pattern)) = &rule.pattern else { continue };
            if !rule.enabled || only.is_some_and(|o| !o.contains(&rule.name)) {
                continue;
            }
            if pattern.matches(&tree) {
                rule.matched += 1;
                outcomes.push((rule.name.clone(), Ok(rule.targets.len())));
            } else if record_events {
                outcomes.push((rule.name.clone(), Err(pattern.explain(&tree).unwrap_or_default())));
            }
        }
        self.emit(EventKind::EventBridge(EbEvent::EventPut {
            bus: bus.clone(),
            event_id: record.id.clone(),
            source: record.source.clone(),
            detail_type: record.detail_type.clone(),
            rules_matched: outcomes.iter().filter(|(_, o)| o.is_ok()).count(),
            replay_name: record.replay_name.as_ref().map(|r| r.to_string()),
        }));
        for (rule, outcome) in outcomes {
            let event_id = record.id.clone();
            match outcome {
                Ok(targets) => {
                    self.emit(EventKind::EventBridge(EbEvent::RuleMatched {
                        bus: bus.clone(),
                        rule: rule.clone(),
                        event_id,
                        targets,
                    }));
                    self.dispatch(bus, &rule, &record);
                }
                Err(reason) => self.emit(EventKind::EventBridge(EbEvent::RuleNotMatched {
                    bus: bus.clone(),
                    rule,
                    event_id,
                    reason,
                })),
            }
        }
        self.archive_event(bus, &record, &tree);
    }

    /// One delivery per target of the rule, due now (EventBridge's latency is 0 here).
    pub(crate) fn dispatch(&mut self, bus: &Name, rule: &Name, record: &Arc<EventRecord>) {
        let Some(r) = self.events.buses.get(bus).and_then(|b| b.rules.get(rule)) else { return };
        let deliveries: Vec<Delivery> = r
            .targets
            .values()
            .map(|t| Delivery {
                record: record.clone(),
                bus: bus.clone(),
                rule: rule.clone(),
                rule_arn: r.arn.clone(),
                target: t.clone(),
                attempt: 1,
                first_at: self.now,
            })
            .collect();
        for d in deliveries {
            self.timers.schedule(self.now, Timer::Events(EventsTimer::Deliver(Box::new(d))));
        }
    }

    /// A scheduled rule's run: the documented scheduled event, to this rule's targets only.
    pub(crate) fn on_schedule(&mut self, bus: &Name, rule: &Name) {
        let Some(r) = self.events.buses.get_mut(bus).and_then(|b| b.rules.get_mut(rule)) else { return };
        r.schedule_timer = None;
        if !r.enabled || r.schedule.is_none() {
            return;
        }
        let (arn, targets) = (r.arn.to_string(), r.targets.len());
        let id = self.next_event_id();
        let time_ms = epoch_ms(self.now);
        let resources = [arn];
        let parts = EnvelopeParts {
            detail_type: "Scheduled Event",
            source: "aws.events",
            time_ms,
            resources: &resources,
            detail: "{}",
            replay_name: None,
        };
        let record = Arc::new(EventRecord {
            text: envelope(&id, &parts).into(),
            id: id.clone(),
            time_ms,
            source: "aws.events".into(),
            detail_type: "Scheduled Event".into(),
            replay_name: None,
            hops: 0,
        });
        self.emit(EventKind::EventBridge(EbEvent::ScheduledEventSent {
            bus: bus.clone(),
            rule: rule.clone(),
            event_id: id,
            targets,
        }));
        self.dispatch(bus, rule, &record);
        self.arm_schedule(bus, rule);
    }

    /// Sets the timer of a rule's next scheduled run (enabled scheduled rules only).
    pub(crate) fn arm_schedule(&mut self, bus: &Name, rule: &Name) {
        let now = self.now;
        let Some(r) = self.events.buses.get(bus).and_then(|b| b.rules.get(rule)) else { return };
        let Some(schedule) = r.schedule.as_ref().filter(|_| r.enabled) else { return };
        // Strictly later than now: at the very end of virtual time the schedule stops.
        let Some(at) = schedule.next_after(r.schedule_anchor, now).filter(|at| *at > now) else { return };
        let key =
            self.timers.schedule(at, Timer::Events(EventsTimer::Schedule { bus: bus.clone(), rule: rule.clone() }));
        self.rule_mut(bus, rule).schedule_timer = Some(key);
    }
}
