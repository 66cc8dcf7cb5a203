//! The world's actors as the snapshot shows them: plain, serialisable, comparable.

use super::dependency::Dependency;
use crate::ids::MsgId;
use crate::sim::Sim;
use serde::Serialize;

/// A worker's state. Serialised as its name (`"Crashed"`), so the snapshot's JSON stays readable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum WorkerStatus {
    /// Long-polling its queue, holding nothing.
    Waiting,
    Processing,
    /// Asked to pause; it finishes what it holds first.
    Pausing,
    Paused,
    /// Gone without deleting what it held: those messages return after their visibility timeout.
    Crashed,
    /// Stopped by the playground (its queue was deleted, say); the reason is in the log.
    Stopped,
}

impl WorkerStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            WorkerStatus::Waiting => "Waiting",
            WorkerStatus::Processing => "Processing",
            WorkerStatus::Pausing => "Pausing",
            WorkerStatus::Paused => "Paused",
            WorkerStatus::Crashed => "Crashed",
            WorkerStatus::Stopped => "Stopped",
        }
    }
}

/// An event source mapping's `State`, in Lambda's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum MappingState {
    Enabled,
    Disabled,
    Deleting,
}

impl MappingState {
    pub fn as_str(self) -> &'static str {
        match self {
            MappingState::Enabled => "Enabled",
            MappingState::Disabled => "Disabled",
            MappingState::Deleting => "Deleting",
        }
    }
}

/// A CloudWatch alarm's `StateValue`, serialised as CloudWatch writes it (`"ALARM"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AlarmState {
    Ok,
    Alarm,
    InsufficientData,
}

impl AlarmState {
    pub fn as_str(self) -> &'static str {
        match self {
            AlarmState::Ok => "OK",
            AlarmState::Alarm => "ALARM",
            AlarmState::InsufficientData => "INSUFFICIENT_DATA",
        }
    }
}

/// A duration in whole milliseconds: fixed (`min_ms == max_ms`) or a seeded uniform range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct DurationMs {
    pub min_ms: u64,
    pub max_ms: u64,
}

impl DurationMs {
    pub const fn fixed(ms: u64) -> DurationMs {
        DurationMs { min_ms: ms, max_ms: ms }
    }
}

/// `2000ms`, or `200ms-2000ms` for a range: the playground's own duration syntax.
impl std::fmt::Display for DurationMs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min_ms == self.max_ms {
            write!(f, "{}ms", self.min_ms)
        } else {
            write!(f, "{}ms-{}ms", self.min_ms, self.max_ms)
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WorldView {
    /// The period of every metric series, in milliseconds.
    pub metric_resolution_ms: u64,
    pub workers: Vec<WorkerView>,
    pub functions: Vec<FunctionView>,
    pub event_source_mappings: Vec<MappingView>,
    pub dependencies: Vec<DependencyView>,
    pub producers: Vec<ProducerView>,
    pub jobs: Vec<JobView>,
    pub alarms: Vec<AlarmView>,
    /// Simulated HTTP/S endpoints (webhooks) and what they received.
    pub http_endpoints: Vec<super::HttpEndpointView>,
    /// Order services (dual write or outbox) with their databases' rows and transactions.
    pub order_services: Vec<super::OrderServiceView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkerView {
    pub name: String,
    pub queue: String,
    pub state: WorkerStatus,
    /// Received and not finished: what a crash would abandon.
    pub held: Vec<MsgId>,
    pub crash_armed: bool,
    pub processing_time: DurationMs,
    pub idempotency: &'static str,
    pub jobs: Vec<String>,
    /// The downstream services its jobs call, in job order, each once.
    pub calls: Vec<String>,
    pub received: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub crashes: u64,
    /// The worker's poison rule, as a clause ("data.phone is shorter than 13 characters"): a
    /// message it matches fails every time. `None` when the worker has none.
    pub fails_on: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FunctionView {
    pub name: String,
    pub timeout_s: u32,
    pub running: u32,
    pub invocations: u64,
    pub errors: u64,
    /// Asynchronous events waiting in the function's own queue (first attempts and retries).
    pub async_queued: usize,
    /// Where asynchronous invocation records go (`PutFunctionEventInvokeConfig`).
    pub on_success: Option<String>,
    pub on_failure: Option<String>,
    /// The function's dead-letter queue or topic (`DeadLetterConfig`) for discarded events.
    pub dead_letter_target: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MappingView {
    pub uuid: String,
    pub queue: String,
    pub function: String,
    pub batch_size: u32,
    pub batching_window_s: u32,
    pub maximum_concurrency: Option<u32>,
    pub report_batch_item_failures: bool,
    pub state: MappingState,
    pub concurrent_invocations: usize,
    pub records_delivered: u64,
    pub records_redelivered: u64,
    pub records_deleted: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DependencyView {
    pub name: String,
    /// Conditions now, from the base and the schedule.
    pub latency: DurationMs,
    pub error_rate_ppm: u32,
    pub down: bool,
    pub capacity: Option<u32>,
    pub in_flight: u32,
    pub calls: u64,
    pub errors: u64,
    pub throttled: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProducerView {
    pub name: String,
    pub design: &'static str,
    /// Where it publishes or sends: its topic (`FanOut`) or its queue (`SingleQueue`); `None`
    /// for a producer that calls its services in turn (`Chain`).
    pub sends_to: Option<String>,
    /// The dependencies a `Chain` producer calls in turn, in order (none for the other designs).
    pub calls: Vec<String>,
    pub produced: u64,
    pub count: u64,
    pub requests_in_flight: usize,
    pub succeeded: u64,
    pub failed: u64,
    pub half_done: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobView {
    pub job: String,
    pub effect: String,
    pub side_effects: u64,
    pub distinct_events: u64,
    pub duplicates: u64,
    pub skipped: u64,
    /// Of `skipped`, the stale versions (latest-version-wins): not done before, but older.
    pub stale: u64,
    pub end_to_end_mean_ms: u64,
    pub end_to_end_max_ms: u64,
    /// The first events whose effect was done more than once (up to [`REPEATED_LISTED`]), each
    /// with how many times: what makes `duplicates` concrete ("evt-4418 × 3").
    pub repeated: Vec<(String, u32)>,
}

/// How many repeated events a [`JobView`] lists: a view that shows three knows from a fourth
/// that there are more.
pub const REPEATED_LISTED: usize = 4;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlarmView {
    pub name: String,
    pub metric: String,
    pub state: AlarmState,
    pub reason: String,
    /// The metric's name alone, the dimension value it watches, and its threshold, for charts.
    pub metric_name: String,
    pub dimension_value: Option<String>,
    pub threshold: f64,
}

fn dependency_view(d: &Dependency, sim: &Sim) -> DependencyView {
    let c = d.at(sim.now);
    DependencyView {
        name: d.name.to_string(),
        latency: c.latency.as_duration(),
        error_rate_ppm: c.error_ppm,
        down: c.down,
        capacity: c.capacity,
        in_flight: d.in_flight,
        calls: d.stats.calls,
        errors: d.stats.errors,
        throttled: d.stats.throttled,
    }
}

impl Sim {
    pub(crate) fn world_view(&self) -> WorldView {
        let w = &self.world;
        WorldView {
            metric_resolution_ms: w.metrics.resolution_ms,
            workers: w
                .workers
                .values()
                .map(|k| WorkerView {
                    name: k.name.to_string(),
                    queue: k.queue.to_string(),
                    state: k.status(),
                    held: k.held(),
                    crash_armed: k.crash_armed,
                    processing_time: k.behavior.processing.as_duration(),
                    idempotency: k.behavior.idempotency.as_str(),
                    jobs: k.behavior.jobs.iter().map(|j| j.job.to_string()).collect(),
                    calls: k.behavior.jobs.iter().filter_map(|j| j.dependency.as_ref()).fold(Vec::new(), |mut v, d| {
                        if !v.iter().any(|x: &String| **x == **d) {
                            v.push(d.to_string());
                        }
                        v
                    }),
                    received: k.stats.received,
                    succeeded: k.stats.succeeded,
                    failed: k.stats.failed,
                    crashes: k.stats.crashes,
                    fails_on: k.behavior.poison.as_ref().map(|p| p.describe()),
                })
                .collect(),
            functions: w
                .functions
                .values()
                .map(|f| FunctionView {
                    name: f.name.to_string(),
                    timeout_s: f.timeout_s,
                    running: f.running,
                    invocations: f.stats.invocations,
                    errors: f.stats.errors,
                    async_queued: w.async_events.values().filter(|e| e.function == f.name && e.run.is_none()).count(),
                    on_success: f.invoke_config.as_ref().and_then(|c| c.on_success.clone()),
                    on_failure: f.invoke_config.as_ref().and_then(|c| c.on_failure.clone()),
                    dead_letter_target: f.dead_letter_target.clone(),
                })
                .collect(),
            event_source_mappings: w
                .mappings
                .values()
                .map(|m| MappingView {
                    uuid: super::mapping::uuid(m.id),
                    queue: m.queue.to_string(),
                    function: m.function.to_string(),
                    batch_size: m.batch_size,
                    batching_window_s: m.window_s,
                    maximum_concurrency: m.max_concurrency,
                    report_batch_item_failures: m.report_failures,
                    state: m.state,
                    concurrent_invocations: m.invocations.len(),
                    records_delivered: m.stats.records,
                    records_redelivered: m.stats.redelivered,
                    records_deleted: m.stats.deleted,
                })
                .collect(),
            dependencies: w.dependencies.values().map(|d| dependency_view(d, self)).collect(),
            producers: w
                .producers
                .values()
                .map(|p| ProducerView {
                    name: p.name.to_string(),
                    design: p.design.name(),
                    sends_to: p.design.sends_to().map(str::to_string),
                    calls: p.design.calls(),
                    produced: p.stats.produced,
                    count: p.count,
                    requests_in_flight: p.requests.len(),
                    succeeded: p.stats.succeeded,
                    failed: p.stats.failed,
                    half_done: p.stats.half_done,
                })
                .collect(),
            jobs: w
                .ledger
                .iter()
                .map(|(job, l)| JobView {
                    job: job.to_string(),
                    effect: l.effect.to_string(),
                    side_effects: l.effects,
                    distinct_events: l.events,
                    duplicates: l.duplicates,
                    skipped: l.skipped,
                    stale: l.stale,
                    end_to_end_mean_ms: l.end_to_end.mean(),
                    end_to_end_max_ms: l.end_to_end.max,
                    repeated: if l.duplicates == 0 {
                        Vec::new()
                    } else {
                        l.counts
                            .at_least(2, REPEATED_LISTED)
                            .into_iter()
                            .map(|id| {
                                let n = l.counts.get(&id);
                                (id, n)
                            })
                            .collect()
                    },
                })
                .collect(),
            alarms: w
                .alarms
                .values()
                .map(|a| AlarmView {
                    name: a.name.to_string(),
                    metric: format!("{} {}", a.namespace, a.metric),
                    state: a.state,
                    reason: a.reason.clone(),
                    metric_name: a.metric.clone(),
                    dimension_value: a.dimension.as_ref().map(|(_, v)| v.clone()),
                    threshold: a.threshold,
                })
                .collect(),
            http_endpoints: self.http_endpoint_views(),
            order_services: self.order_service_views(),
        }
    }
}
