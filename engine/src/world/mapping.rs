//! SQS event source mappings in the AWS shapes: `CreateEventSourceMapping` with BatchSize, the
//! batching window, ScalingConfig and FunctionResponseTypes, checked as Lambda checks them for a
//! standard queue; `UpdateEventSourceMapping`, `DeleteEventSourceMapping`, `GetEventSourceMapping`
//! (with the playground's own `Stats`: the work delivered against the work finished).

use super::lambda::{function_name, function_not_found, lambda_error, Function};
use super::process::{Record, Run};
use super::spec::{self, has};
use super::watch::Waiter;
use super::MappingState;
use super::WorldEvent;
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids::{ACCOUNT, REGION};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::SimTime;
use crate::timers::TimerKey;
use crate::vecmap::VecMap;
use serde_json::{json, Value};

/// What the playground counts for a mapping: the work delivered against the work finished.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MappingStats {
    pub invocations: u64,
    /// Records handed to the function, redeliveries included.
    pub records: u64,
    /// Records whose ApproximateReceiveCount was above 1: work done again.
    pub redelivered: u64,
    pub deleted: u64,
    pub failed_invocations: u64,
    pub timeouts: u64,
    pub item_failures: u64,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Invocation {
    pub run: Option<Run>,
}

#[derive(Clone, Debug)]
pub(crate) struct Mapping {
    pub id: u64,
    pub queue: Name,
    pub function: Name,
    pub batch_size: u32,
    pub window_s: u32,
    pub max_concurrency: Option<u32>,
    pub report_failures: bool,
    pub enabled: bool,
    pub state: MappingState,
    pub last_result: &'static str,
    pub gathered: Vec<Record>,
    pub(crate) gather_since: Option<SimTime>,
    pub(crate) scale_since: Option<SimTime>,
    pub(crate) window_timer: Option<TimerKey>,
    pub(crate) wait_timer: Option<TimerKey>,
    pub invocations: VecMap<u64, Invocation>,
    pub stats: MappingStats,
}

/// A UUID-shaped id that keeps its counter readable: `00000000-0000-4000-8000-000000000001`.
pub(crate) fn uuid(id: u64) -> String {
    format!("00000000-0000-4000-8000-{id:012}")
}

fn parse_uuid(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("00000000-0000-4000-8000-")?;
    (digits.len() == 12 && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok()).flatten()
}

/// What CreateEventSourceMapping and UpdateEventSourceMapping both set.
pub(crate) const MAPPING_SETTINGS: &[&str] = &[
    "FunctionName",
    "BatchSize",
    "MaximumBatchingWindowInSeconds",
    "ScalingConfig",
    "FunctionResponseTypes",
    "Enabled",
];

impl Sim {
    pub(crate) fn create_event_source_mapping(&mut self, p: &Params) -> ApiResult<Value> {
        let arn = p.str("EventSourceArn").map_err(lambda_error)?;
        let queue = match crate::ids::queue_name_from(arn) {
            Some(n) if arn.starts_with("arn:aws:sqs:") => self.queue_ref(n).ok(),
            _ => None,
        }
        .ok_or_else(|| {
            ApiError::new(
                "InvalidParameterValueException",
                format!("EventSourceArn \"{arn}\" is not the ARN of an existing SQS queue (arn:aws:sqs:{REGION}:{ACCOUNT}:QUEUE)."),
            )
        })?;
        let name = function_name(p.str("FunctionName").map_err(lambda_error)?);
        let function = self.world.functions.get(name).ok_or_else(|| function_not_found(name))?;
        let (function_key, timeout_s) = (function.name.clone(), function.timeout_s);
        let vt = self.queues[&queue].config.visibility_timeout;
        if timeout_s > vt {
            return Err(ApiError::new(
                "InvalidParameterValueException",
                format!("Queue visibility timeout: {vt} seconds is less than Function timeout: {timeout_s} seconds. Raise the queue's VisibilityTimeout (AWS suggests six times the function timeout)."),
            ));
        }
        self.world.counters.mapping += 1;
        let mut m = Mapping {
            id: self.world.counters.mapping,
            queue: queue.clone(),
            function: function_key,
            batch_size: 10,
            window_s: 0,
            max_concurrency: None,
            report_failures: false,
            enabled: true,
            state: MappingState::Enabled,
            last_result: "No records processed",
            gathered: Vec::new(),
            gather_since: None,
            scale_since: None,
            window_timer: None,
            wait_timer: None,
            invocations: VecMap::new(),
            stats: MappingStats::default(),
        };
        if let Err(e) = mapping_settings(p, &mut m) {
            self.world.counters.mapping -= 1;
            return Err(lambda_error(e));
        }
        let id = m.id;
        let out = self.mapping_json(&m);
        self.world.mappings.insert(id, m);
        self.ensure_ticking();
        self.emit(EventKind::World(WorldEvent::EventSourceMappingCreated {
            uuid: uuid(id),
            function: name.into(),
            queue,
        }));
        self.mapping_poll(id);
        Ok(out)
    }

    fn mapping_ref(&self, p: &Params) -> ApiResult<u64> {
        let text = p.str("UUID").map_err(lambda_error)?;
        parse_uuid(text).filter(|id| self.world.mappings.contains_key(id)).ok_or_else(|| {
            ApiError::new(
                "ResourceNotFoundException",
                format!("The resource you requested does not exist: event source mapping {text}"),
            )
        })
    }

    pub(crate) fn update_event_source_mapping(&mut self, p: &Params) -> ApiResult<Value> {
        let id = self.mapping_ref(p)?;
        let mut m = self.world.mappings[&id].clone();
        if let Some(f) = p.opt_str("FunctionName").map_err(lambda_error)? {
            let f = function_name(f);
            m.function =
                self.world.functions.get_key_value(f).map(|(k, _)| k.clone()).ok_or_else(|| function_not_found(f))?;
        }
        mapping_settings(p, &mut m).map_err(lambda_error)?;
        let settings = p.given().filter(|k| *k != "UUID").map(String::from).collect();
        m.state = if m.enabled { MappingState::Enabled } else { MappingState::Disabled };
        if !m.enabled {
            self.mapping_idle(&mut m);
        }
        let out = self.mapping_json(&m);
        self.world.mappings.insert(id, m);
        self.emit(EventKind::World(WorldEvent::EventSourceMappingUpdated { uuid: uuid(id), settings }));
        self.mapping_poll(id);
        Ok(out)
    }

    /// Deleting a mapping stops it now; records it gathered or is running return after their
    /// visibility timeout.
    pub(crate) fn delete_event_source_mapping(&mut self, p: &Params) -> ApiResult<Value> {
        let id = self.mapping_ref(p)?;
        let mut m = self.world.mappings.remove(&id).expect("invariant: resolved mapping exists");
        self.mapping_idle(&mut m);
        for inv in std::mem::take(&mut m.invocations).into_values() {
            if let Some(mut run) = inv.run {
                self.abandon_run(&mut run);
                if let Some(f) = self.world.functions.get_mut(&m.function) {
                    f.running = f.running.saturating_sub(1);
                }
            }
        }
        m.state = MappingState::Deleting;
        self.emit(EventKind::World(WorldEvent::EventSourceMappingDeleted { uuid: uuid(id) }));
        Ok(self.mapping_json(&m))
    }

    pub(crate) fn get_event_source_mapping(&mut self, p: &Params) -> ApiResult<Value> {
        let id = self.mapping_ref(p)?;
        Ok(self.mapping_json(&self.world.mappings[&id]))
    }

    fn mapping_json(&self, m: &Mapping) -> Value {
        let function_arn = self.world.functions.get(&m.function).map(Function::arn).unwrap_or_default();
        let s = &m.stats;
        let mut out = json!({
            "UUID": uuid(m.id),
            "EventSourceArn": crate::ids::queue_arn(&m.queue),
            "FunctionArn": function_arn,
            "BatchSize": m.batch_size,
            "MaximumBatchingWindowInSeconds": m.window_s,
            "FunctionResponseTypes": if m.report_failures { vec!["ReportBatchItemFailures"] } else { vec![] },
            "State": m.state.as_str(),
            "StateTransitionReason": "USER_INITIATED",
            "LastProcessingResult": m.last_result,
            "LastModified": self.now.epoch_ms() / 1000,
            "Stats": {
                "Invocations": s.invocations,
                "RecordsDelivered": s.records,
                "RecordsRedelivered": s.redelivered,
                "RecordsDeleted": s.deleted,
                "FailedInvocations": s.failed_invocations,
                "Timeouts": s.timeouts,
                "BatchItemFailures": s.item_failures,
                "ConcurrentInvocations": m.invocations.len(),
            },
        });
        if let Some(c) = m.max_concurrency {
            out["ScalingConfig"] = json!({ "MaximumConcurrency": c });
        }
        out
    }

    /// Cancels a mapping's gathering and waiting (not its running invocations).
    pub(crate) fn mapping_idle(&mut self, m: &mut Mapping) {
        for t in [m.window_timer.take(), m.wait_timer.take()].into_iter().flatten() {
            self.timers.cancel(t);
        }
        m.gathered.clear();
        m.gather_since = None;
        self.stop_waiting(&m.queue, &Waiter::Mapping(m.id));
    }

    pub(crate) fn disable_mapping(&mut self, id: u64, reason: String) {
        let Some(mut m) = self.world.mappings.remove(&id) else { return };
        self.mapping_idle(&mut m);
        m.enabled = false;
        m.state = MappingState::Disabled;
        self.world.mappings.insert(id, m);
        self.emit(EventKind::World(WorldEvent::EventSourceMappingDisabled { uuid: uuid(id), reason }));
    }
}

/// Applies BatchSize, the batching window, ScalingConfig, FunctionResponseTypes and Enabled,
/// checked as Lambda checks them for a standard queue.
fn mapping_settings(p: &Params, m: &mut Mapping) -> ApiResult<()> {
    let fifo = m.queue.ends_with(".fifo");
    if let Some(b) = p.opt_int("BatchSize", 1, 10_000)? {
        m.batch_size = b as u32;
    }
    if let Some(w) = p.opt_int("MaximumBatchingWindowInSeconds", 0, 300)? {
        m.window_s = w as u32;
    }
    if fifo && (m.batch_size > 10 || m.window_s > 0) {
        return Err(spec::invalid("For a FIFO queue, BatchSize is at most 10 and there is no batching window."));
    }
    if m.batch_size > 10 && m.window_s == 0 {
        return Err(spec::invalid(
            "When BatchSize is greater than 10, MaximumBatchingWindowInSeconds must be at least 1.",
        ));
    }
    if let Some(sc) = p.raw("ScalingConfig") {
        let sp = Params::new(Service::Sim, "ScalingConfig", sc, &["MaximumConcurrency"])?;
        m.max_concurrency = sp.opt_int("MaximumConcurrency", 2, 1000)?.map(|n| n as u32);
    }
    if has(p, "FunctionResponseTypes") {
        let types = p.str_list("FunctionResponseTypes")?;
        if let Some(bad) = types.iter().find(|t| **t != "ReportBatchItemFailures") {
            return Err(spec::invalid(format!("FunctionResponseTypes: \"{bad}\" is not ReportBatchItemFailures")));
        }
        m.report_failures = !types.is_empty();
    }
    if let Some(e) = p.opt_bool("Enabled")? {
        m.enabled = e;
    }
    m.state = if m.enabled { MappingState::Enabled } else { MappingState::Disabled };
    Ok(())
}
