//! Archives and replays: `CreateArchive`, `DescribeArchive`, `DeleteArchive`, `StartReplay`,
//! `DescribeReplay`, `CancelReplay`.
//!
//! User guide, "Archiving and replaying events": an archive keeps the events of one bus that
//! match its (optional) event pattern, for `RetentionDays` (0: indefinitely). A replay puts the
//! archived events whose time lies in a window back on the same bus ("you can replay events only
//! to the same event bus that emitted the events"), to all its rules or those in `FilterArns`;
//! "A replay processes events to replay based on the time in the event, and replays them on one
//! minute intervals" — here each minute of events is one step, a virtual minute after the last;
//! "You can have a maximum of 10 active concurrent replays per account per AWS Region"; a replay
//! can be cancelled "as long as the status is Starting or Running". A replayed event carries
//! `replay-name`, so a rule can leave replays out with `"replay-name": [{"exists": false}]`.
//!
//! Simplified: expired events leave the archive at once (AWS deducts them from `EventCount` within
//! 24 hours); replayed events are not archived again (not documented; it keeps a replay from
//! growing its own archive); the window is start ≤ time < end; cancelling skips `CANCELLING`.

use super::buses::epoch_seconds;
use super::clock::parse_rfc3339;
use super::json::Tree;
use super::pattern::EventPattern;
use super::put_events::EventRecord;
use super::{check_name, not_found, validation, EbEvent, EventsTimer};
use crate::error::{ApiError, ApiResult};
use crate::event::{EventKind, Name};
use crate::ids::{ACCOUNT, REGION};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::{SimTime, DAY, MINUTE};
use crate::timers::{Timer, TimerKey};
use serde_json::{json, Value};
use std::sync::Arc;

pub const MAX_ACTIVE_REPLAYS: usize = 10;

#[derive(Clone, Debug)]
pub(crate) struct Archive {
    pub(crate) name: Name,
    pub(crate) arn: String,
    pub(crate) bus: Name,
    pub(crate) description: Option<String>,
    pub(crate) pattern: Option<(String, EventPattern)>,
    pub(crate) retention_days: u32,
    pub(crate) created_at: SimTime,
    /// When each event was archived, in order.
    pub(crate) events: Vec<(SimTime, Arc<EventRecord>)>,
}

impl Archive {
    /// The events still within the retention period at `now`.
    pub(crate) fn kept(&self, now: SimTime) -> impl Iterator<Item = &Arc<EventRecord>> + '_ {
        let days = u64::from(self.retention_days);
        self.events.iter().filter(move |(at, _)| days == 0 || at.plus_ms(days * DAY) > now).map(|(_, e)| e)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Replay {
    pub(crate) name: Name,
    pub(crate) arn: String,
    pub(crate) description: Option<String>,
    pub(crate) archive_arn: String,
    pub(crate) bus: Name,
    pub(crate) filter_rules: Option<Vec<Name>>,
    pub(crate) destination: Value,
    pub(crate) start_ms: i64,
    pub(crate) end_ms: i64,
    pub(crate) state: &'static str,
    pub(crate) started_at: SimTime,
    pub(crate) ended_at: Option<SimTime>,
    /// Events still to replay, in (minute of event time, archive order).
    pub(crate) pending: Vec<Arc<EventRecord>>,
    pub(crate) replayed: usize,
    pub(crate) last_replayed_ms: Option<i64>,
    pub(crate) timer: Option<TimerKey>,
}

fn arn_of(kind: &str, name: &str) -> String {
    format!("arn:aws:events:{REGION}:{ACCOUNT}:{kind}/{name}")
}

/// A timestamp parameter: epoch seconds, or RFC 3339 text.
fn timestamp(p: &Params, name: &str) -> ApiResult<i64> {
    let bad = || validation(format!("Parameter {name} is not valid: use epoch seconds or an RFC 3339 timestamp."));
    match p.raw(name) {
        None => Err(validation(format!(
            "1 validation error detected: Value null at '{name}' failed to satisfy constraint: Member must not be null"
        ))),
        Some(Value::Number(n)) => n.as_i64().and_then(|s| s.checked_mul(1000)).ok_or_else(bad),
        Some(Value::String(s)) => parse_rfc3339(s).ok_or_else(bad),
        Some(_) => Err(bad()),
    }
}

impl Sim {
    pub(crate) fn create_archive(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("ArchiveName")?;
        check_name("archiveName", name, 48)?;
        let source = p.str("EventSourceArn")?;
        if !source.starts_with("arn:aws:events:") {
            return Err(validation(format!(
                "Parameter EventSourceArn is not valid: {source} is not an event bus ARN."
            )));
        }
        let bus = self.bus_ref(Some(source))?;
        let pattern = p.opt_str("EventPattern")?.map(Sim::compile_pattern).transpose()?;
        let retention_days = p.opt_int("RetentionDays", 0, i64::from(u32::MAX))?.unwrap_or(0) as u32;
        let description = p.opt_str("Description")?.map(str::to_string);
        if p.opt_str("KmsKeyIdentifier")?.is_some() {
            return Err(validation("Archives encrypted with a customer managed key are not simulated."));
        }
        if self.events.archives.contains_key(name) {
            return Err(ApiError::new("ResourceAlreadyExistsException", format!("Archive {name} already exists.")));
        }
        let key: Name = name.into();
        let arn = arn_of("archive", name);
        let archive = Archive {
            name: key.clone(),
            arn: arn.clone(),
            bus: bus.clone(),
            description,
            pattern,
            retention_days,
            created_at: self.now,
            events: Vec::new(),
        };
        self.events.archives.insert(key.clone(), archive);
        self.emit(EventKind::EventBridge(EbEvent::ArchiveCreated { archive: key, bus }));
        Ok(json!({ "ArchiveArn": arn, "State": "ENABLED", "CreationTime": epoch_seconds(self.now) }))
    }

    fn archive_ref(&self, name: &str) -> ApiResult<Name> {
        self.events
            .archives
            .get_key_value(name)
            .map(|(k, _)| k.clone())
            .ok_or_else(|| not_found(format!("Archive {name} does not exist.")))
    }

    pub(crate) fn describe_archive(&mut self, p: &Params) -> ApiResult<Value> {
        let a = &self.events.archives[&self.archive_ref(p.str("ArchiveName")?)?];
        let kept: Vec<&Arc<EventRecord>> = a.kept(self.now).collect();
        let mut out = json!({
            "ArchiveArn": a.arn,
            "ArchiveName": a.name.to_string(),
            "EventSourceArn": super::bus_arn(&a.bus),
            "State": "ENABLED",
            "RetentionDays": a.retention_days,
            "SizeBytes": kept.iter().map(|e| e.text.len()).sum::<usize>(),
            "EventCount": kept.len(),
            "CreationTime": epoch_seconds(a.created_at),
        });
        if let Some(d) = &a.description {
            out["Description"] = json!(d);
        }
        if let Some((text, _)) = &a.pattern {
            out["EventPattern"] = json!(text);
        }
        Ok(out)
    }

    pub(crate) fn delete_archive(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.archive_ref(p.str("ArchiveName")?)?;
        let archive = self.events.archives.remove(&name).expect("invariant: resolved archive exists");
        self.emit(EventKind::EventBridge(EbEvent::ArchiveDeleted { archive: name, events: archive.events.len() }));
        Ok(json!({}))
    }

    /// Keeps an event in every archive of its bus whose pattern it matches (replays excepted).
    pub(crate) fn archive_event(&mut self, bus: &Name, record: &Arc<EventRecord>, tree: &Tree) {
        if record.replay_name.is_some() {
            return;
        }
        let now = self.now;
        let mut kept = Vec::new();
        for a in self.events.archives.values_mut() {
            if a.bus == *bus && a.pattern.as_ref().is_none_or(|(_, p)| p.matches(tree)) {
                a.events.push((now, record.clone()));
                kept.push(a.name.clone());
            }
        }
        for archive in kept {
            self.emit(EventKind::EventBridge(EbEvent::EventArchived { archive, event_id: record.id.clone() }));
        }
    }

    pub(crate) fn start_replay(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("ReplayName")?;
        check_name("replayName", name, 64)?;
        let source = p.str("EventSourceArn")?;
        let archive_name = source.strip_prefix(&arn_of("archive", "")).unwrap_or(source);
        let archive = self.archive_ref(archive_name)?;
        let (start_ms, end_ms) = (timestamp(p, "EventStartTime")?, timestamp(p, "EventEndTime")?);
        if start_ms >= end_ms {
            return Err(validation(
                "Parameter EventEndTime is not valid. Reason: EventStartTime must be before EventEndTime.",
            ));
        }
        let destination =
            p.raw("Destination").cloned().ok_or_else(|| crate::error::Service::Events.missing("Destination"))?;
        let dp = Params::new(crate::error::Service::Events, "Destination", &destination, &["Arn", "FilterArns"])?;
        let bus = self.bus_ref(Some(dp.str("Arn")?))?;
        if bus != self.events.archives[&archive].bus {
            return Err(validation(
                "Parameter Destination.Arn is not valid. Reason: Cross event bus replay is not permitted.",
            ));
        }
        let filter_rules = match dp.raw("FilterArns") {
            None => None,
            Some(_) => Some(
                dp.str_list("FilterArns")?
                    .into_iter()
                    .map(|arn| {
                        let rule = arn.rsplit('/').next().unwrap_or(arn);
                        self.rule_ref(Some(&bus), rule).map(|(_, r)| r)
                    })
                    .collect::<ApiResult<Vec<Name>>>()?,
            ),
        };
        if self.events.replays.contains_key(name) {
            return Err(ApiError::new("ResourceAlreadyExistsException", format!("Replay {name} already exists.")));
        }
        if self.events.replays.values().filter(|r| matches!(r.state, "STARTING" | "RUNNING")).count()
            >= MAX_ACTIVE_REPLAYS
        {
            return Err(ApiError::new(
                "LimitExceededException",
                format!("At most {MAX_ACTIVE_REPLAYS} replays can be active at once."),
            ));
        }
        let mut pending: Vec<Arc<EventRecord>> = self.events.archives[&archive]
            .kept(self.now)
            .filter(|e| (start_ms..end_ms).contains(&e.time_ms))
            .cloned()
            .collect();
        // Stable: archive order within each minute of event time.
        crate::vecmap::sort_by(&mut pending, |a, b| {
            a.time_ms.div_euclid(MINUTE as i64).cmp(&b.time_ms.div_euclid(MINUTE as i64))
        });
        let description = p.opt_str("Description")?.map(str::to_string);
        let key: Name = name.into();
        let arn = arn_of("replay", name);
        let timer = self.timers.schedule(self.now, Timer::Events(EventsTimer::Replay { replay: key.clone() }));
        let events = pending.len();
        let replay = Replay {
            name: key.clone(),
            arn: arn.clone(),
            description,
            archive_arn: self.events.archives[&archive].arn.clone(),
            bus,
            filter_rules,
            destination,
            start_ms,
            end_ms,
            state: "STARTING",
            started_at: self.now,
            ended_at: None,
            pending,
            replayed: 0,
            last_replayed_ms: None,
            timer: Some(timer),
        };
        self.events.replays.insert(key.clone(), replay);
        self.emit(EventKind::EventBridge(EbEvent::ReplayStarted { replay: key, archive, events }));
        Ok(json!({ "ReplayArn": arn, "State": "STARTING", "ReplayStartTime": epoch_seconds(self.now) }))
    }

    /// Replays the next minute of events; the replay completes after the last.
    pub(crate) fn on_replay_tick(&mut self, name: &Name) {
        let Some(r) = self.events.replays.get_mut(name) else { return };
        r.timer = None;
        r.state = "RUNNING";
        let Some(first) = r.pending.first() else {
            self.end_replay(name, "COMPLETED");
            return;
        };
        let minute = first.time_ms.div_euclid(MINUTE as i64);
        let n = r.pending.iter().take_while(|e| e.time_ms.div_euclid(MINUTE as i64) == minute).count();
        let batch: Vec<Arc<EventRecord>> = r.pending.drain(..n).collect();
        let (bus, rules) = (r.bus.clone(), r.filter_rules.clone());
        for event in batch {
            let mut replayed = (*event).clone();
            replayed.replay_name = Some(name.clone());
            let text = &event.text[..event.text.len() - 1];
            replayed.text = format!("{text},\"replay-name\":{}}}", Value::String(name.to_string())).into();
            if let Some(r) = self.events.replays.get_mut(name) {
                r.replayed += 1;
                r.last_replayed_ms = Some(event.time_ms);
            }
            self.route(&bus, Arc::new(replayed), rules.as_deref());
        }
        let at = self.now.plus_ms(MINUTE);
        let timer = self.timers.schedule(at, Timer::Events(EventsTimer::Replay { replay: name.clone() }));
        if let Some(r) = self.events.replays.get_mut(name) {
            r.timer = Some(timer);
        }
    }

    fn end_replay(&mut self, name: &Name, state: &'static str) {
        let now = self.now;
        let Some(r) = self.events.replays.get_mut(name) else { return };
        r.state = state;
        r.ended_at = Some(now);
        r.pending.clear();
        let (timer, replayed) = (r.timer.take(), r.replayed);
        self.cancel_timer(timer);
        self.emit(EventKind::EventBridge(EbEvent::ReplayEnded { replay: name.clone(), state, replayed }));
    }

    fn replay_ref(&self, name: &str) -> ApiResult<Name> {
        self.events
            .replays
            .get_key_value(name)
            .map(|(k, _)| k.clone())
            .ok_or_else(|| not_found(format!("Replay {name} does not exist.")))
    }

    pub(crate) fn describe_replay(&mut self, p: &Params) -> ApiResult<Value> {
        let r = &self.events.replays[&self.replay_ref(p.str("ReplayName")?)?];
        let mut out = json!({
            "ReplayName": r.name.to_string(),
            "ReplayArn": r.arn,
            "State": r.state,
            "EventSourceArn": r.archive_arn,
            "Destination": r.destination,
            "EventStartTime": r.start_ms.div_euclid(1000),
            "EventEndTime": r.end_ms.div_euclid(1000),
            "ReplayStartTime": epoch_seconds(r.started_at),
        });
        if let Some(d) = &r.description {
            out["Description"] = json!(d);
        }
        if let Some(t) = r.last_replayed_ms {
            out["EventLastReplayedTime"] = json!(t.div_euclid(1000));
        }
        if let Some(t) = r.ended_at {
            out["ReplayEndTime"] = json!(epoch_seconds(t));
        }
        Ok(out)
    }

    pub(crate) fn cancel_replay(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.replay_ref(p.str("ReplayName")?)?;
        let r = &self.events.replays[&name];
        if !matches!(r.state, "STARTING" | "RUNNING") {
            return Err(ApiError::new(
                "IllegalStatusException",
                format!("Replay {name} is {}; only a STARTING or RUNNING replay can be cancelled.", r.state),
            ));
        }
        let arn = r.arn.clone();
        self.end_replay(&name, "CANCELLED");
        Ok(json!({ "ReplayArn": arn, "State": "CANCELLED" }))
    }
}
