//! CloudWatch-style metrics in virtual time. Once the world has an actor or an alarm, a tick at
//! every multiple of the resolution (60 s by default) samples every queue (the SQS gauges and the
//! per-period counts) and closes the period for what actors counted meanwhile (dependency calls,
//! side effects, Lambda invocations). `GetMetricStatistics` reads the series in the AWS shape.

use super::spec::{invalid, MAX_DURATION_MS};
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::sim::Sim;
use crate::sqs::QueueStats;
use crate::time::{SimTime, EPOCH_MS, SECOND};
use crate::timers::{Timer, TimerKey};
use crate::vecmap::VecMap;
use serde_json::{json, Value};
use std::sync::Arc;

/// A metric and its one dimension: `AWS/SQS ApproximateNumberOfMessagesVisible QueueName=sms`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct MetricKey {
    pub namespace: &'static str,
    pub metric: &'static str,
    pub dimension: &'static str,
    pub value: Name,
}

impl MetricKey {
    pub fn queue(metric: &'static str, queue: &Name) -> MetricKey {
        MetricKey { namespace: "AWS/SQS", metric, dimension: "QueueName", value: queue.clone() }
    }
    pub fn dependency(metric: &'static str, dep: &Name) -> MetricKey {
        MetricKey { namespace: "Playground/Dependency", metric, dimension: "DependencyName", value: dep.clone() }
    }
    pub fn job(metric: &'static str, job: &Name) -> MetricKey {
        MetricKey { namespace: "Playground/Job", metric, dimension: "Job", value: job.clone() }
    }
    pub fn function(metric: &'static str, function: &Name) -> MetricKey {
        MetricKey { namespace: "AWS/Lambda", metric, dimension: "FunctionName", value: function.clone() }
    }
    /// SNS's per-topic delivery metrics (`NumberOfNotificationsDelivered`, …).
    pub fn topic(metric: &'static str, topic: &Name) -> MetricKey {
        MetricKey { namespace: "AWS/SNS", metric, dimension: "TopicName", value: topic.clone() }
    }
    pub fn producer(metric: &'static str, producer: &Name) -> MetricKey {
        MetricKey { namespace: "Playground/Producer", metric, dimension: "ProducerName", value: producer.clone() }
    }
    fn unit(&self) -> &'static str {
        match self.metric {
            "ApproximateAgeOfOldestMessage" => "Seconds",
            "Latency" | "EndToEndLatency" | "Duration" | "RequestLatency" => "Milliseconds",
            _ => "Count",
        }
    }
}

/// One period's values: CloudWatch's statistics are read from these four numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Datapoint {
    pub sum: u64,
    pub count: u64,
    pub min: u64,
    pub max: u64,
}

impl Datapoint {
    fn one(v: u64) -> Datapoint {
        Datapoint { sum: v, count: 1, min: v, max: v }
    }

    fn merge(&mut self, other: &Datapoint) {
        if self.count == 0 {
            *self = *other;
            return;
        }
        self.sum = self.sum.saturating_add(other.sum);
        self.count += other.count;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }
}

/// How a metric is made: counted (one total per period, 0 when nothing happened), sampled
/// (every observation; no datapoint when none), or read at the tick (a gauge).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Counter,
    Sample,
    Gauge,
}

/// The statistics `GetMetricStatistics` and alarms read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stat {
    SampleCount,
    Average,
    Sum,
    Minimum,
    Maximum,
}

impl Stat {
    pub fn parse(text: &str) -> ApiResult<Stat> {
        Ok(match text {
            "SampleCount" => Stat::SampleCount,
            "Average" => Stat::Average,
            "Sum" => Stat::Sum,
            "Minimum" => Stat::Minimum,
            "Maximum" => Stat::Maximum,
            other => {
                return Err(invalid(format!(
                    "The statistic \"{other}\" is not one of SampleCount, Average, Sum, Minimum, Maximum."
                )))
            }
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Stat::SampleCount => "SampleCount",
            Stat::Average => "Average",
            Stat::Sum => "Sum",
            Stat::Minimum => "Minimum",
            Stat::Maximum => "Maximum",
        }
    }

    pub fn value(self, d: &Datapoint) -> f64 {
        match self {
            Stat::SampleCount => d.count as f64,
            Stat::Average => d.sum as f64 / d.count.max(1) as f64,
            Stat::Sum => d.sum as f64,
            Stat::Minimum => d.min as f64,
            Stat::Maximum => d.max as f64,
        }
    }

    fn json(self, d: &Datapoint) -> Value {
        match self {
            Stat::SampleCount => json!(d.count),
            Stat::Average => json!(self.value(d)),
            Stat::Sum => json!(d.sum),
            Stat::Minimum => json!(d.min),
            Stat::Maximum => json!(d.max),
        }
    }
}

const CHUNK: usize = 256;
/// Older datapoints fall off past this many per series (two weeks at the default resolution).
const MAX_POINTS: usize = 20_480;

type Point = (SimTime, Datapoint);

/// Datapoints by the end of their period, in shared chunks so that a checkpoint clone is cheap.
#[derive(Clone, Debug)]
pub(crate) struct Series {
    pub kind: Kind,
    chunks: Vec<Arc<Vec<Point>>>,
    tail: Vec<Point>,
}

impl Series {
    fn new(kind: Kind) -> Series {
        Series { kind, chunks: Vec::new(), tail: Vec::new() }
    }

    fn push(&mut self, p: Point) {
        self.tail.push(p);
        if self.tail.len() == CHUNK {
            self.chunks.push(Arc::new(std::mem::take(&mut self.tail)));
            if self.chunks.len() * CHUNK > MAX_POINTS {
                self.chunks.remove(0);
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = &Point> {
        self.chunks.iter().flat_map(|c| c.iter()).chain(self.tail.iter())
    }

    fn iter_rev(&self) -> impl Iterator<Item = &Point> {
        self.tail.iter().rev().chain(self.chunks.iter().rev().flat_map(|c| c.iter().rev()))
    }

    /// The datapoints whose period ends in `(after, until]`, merged; `None` when there are none.
    pub fn window(&self, after: SimTime, until: SimTime) -> Option<Datapoint> {
        let mut out: Option<Datapoint> = None;
        for (end, d) in self.iter_rev().take_while(|(end, _)| *end > after) {
            if *end <= until {
                out.get_or_insert_with(Datapoint::default).merge(d);
            }
        }
        out
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Metrics {
    pub resolution_ms: u64,
    pub timer: Option<TimerKey>,
    pub ticks: u64,
    pub series: VecMap<MetricKey, Series>,
    current: VecMap<MetricKey, (Kind, Datapoint)>,
    last_stats: VecMap<Name, QueueStats>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            resolution_ms: 60 * SECOND,
            timer: None,
            ticks: 0,
            series: VecMap::new(),
            current: VecMap::new(),
            last_stats: VecMap::new(),
        }
    }
}

impl Metrics {
    /// Adds `n` to a counted metric for the current period.
    pub fn count(&mut self, key: MetricKey, n: u64) {
        let (_, d) = self.current.entry(key).or_insert((Kind::Counter, Datapoint::default()));
        d.sum = d.sum.saturating_add(n);
    }

    /// Records one observation of a sampled metric for the current period.
    pub fn sample(&mut self, key: MetricKey, v: u64) {
        self.current.entry(key).or_insert((Kind::Sample, Datapoint::default())).1.merge(&Datapoint::one(v));
    }

    fn gauge(&mut self, key: MetricKey, v: u64) {
        self.current.insert(key, (Kind::Gauge, Datapoint::one(v)));
    }

    /// Closes the period ending at `end`: every series gets its datapoint (a counter gets 0).
    fn flush(&mut self, end: SimTime) {
        for (key, (kind, mut d)) in std::mem::take(&mut self.current) {
            if kind == Kind::Counter {
                d = Datapoint::one(d.sum);
            }
            self.series.entry(key).or_insert_with(|| Series::new(kind)).push((end, d));
        }
        for series in self.series.values_mut() {
            if series.kind == Kind::Counter && series.iter_rev().next().is_none_or(|(e, _)| *e != end) {
                series.push((end, Datapoint::one(0)));
            }
        }
    }

    /// The series of a metric named by text, as an alarm or a query names it.
    pub fn find(&self, namespace: &str, metric: &str, dimension: &str, value: &str) -> Option<&Series> {
        self.series
            .iter()
            .find(|(k, _)| {
                k.namespace == namespace && k.metric == metric && k.dimension == dimension && &*k.value == value
            })
            .map(|(_, s)| s)
    }
}

/// Resolutions and periods CloudWatch allows: 1, 5, 10, 30 seconds, or a multiple of 60.
fn valid_period(seconds: u64) -> bool {
    matches!(seconds, 1 | 5 | 10 | 30) || (seconds > 0 && seconds % 60 == 0)
}

/// A time in a query: a virtual time such as `"10m"`, or a number of seconds since the Unix epoch.
fn time_param(p: &Params, name: &str) -> ApiResult<Option<SimTime>> {
    match p.raw(name) {
        None => Ok(None),
        Some(Value::Number(n)) => {
            let secs = n.as_u64().ok_or_else(|| invalid(format!("{name} must be a whole number of epoch seconds")))?;
            Ok(Some(SimTime(secs.saturating_mul(1000).saturating_sub(EPOCH_MS))))
        }
        Some(v) => super::spec::duration(v, name).map(|ms| Some(SimTime(ms))).map_err(|_| {
            invalid(format!("{name} must be a virtual time such as \"10m\" or epoch seconds such as 1767225600"))
        }),
    }
}

/// A metric as a query or an alarm names it: namespace, metric name, and its one dimension.
pub(crate) type Target = (String, String, Option<(String, String)>);

/// Reads `Namespace`, `MetricName` and one `Dimensions` entry.
pub(crate) fn metric_target(p: &Params) -> ApiResult<Target> {
    let namespace = p.str("Namespace")?.to_string();
    let metric = p.str("MetricName")?.to_string();
    let dims = p.object_list("Dimensions")?;
    if dims.len() > 1 {
        return Err(invalid("The playground's metrics have one dimension (QueueName, TopicName, DependencyName, Job, FunctionName or ProducerName)."));
    }
    let dim = match dims.first() {
        None => None,
        Some(d) => {
            let dp = Params::new(Service::Sim, "Dimensions entry", d, &["Name", "Value"])?;
            Some((dp.str("Name")?.to_string(), dp.str("Value")?.to_string()))
        }
    };
    Ok((namespace, metric, dim))
}

impl Sim {
    /// One queue metric's datapoints for a chart: (end of period, maximum), oldest first.
    /// Empty until the metrics tick runs (it starts with the first worker, function, alarm…).
    pub fn queue_metric_points(&self, metric: &str, queue: &str) -> Vec<(SimTime, u64)> {
        self.world
            .metrics
            .find("AWS/SQS", metric, "QueueName", queue)
            .map(|s| s.iter().map(|(end, d)| (*end, d.max)).collect())
            .unwrap_or_default()
    }

    /// Starts the metrics tick if it is not running: the world has something to measure.
    pub(crate) fn ensure_ticking(&mut self) {
        if self.world.metrics.timer.is_none() {
            let res = self.world.metrics.resolution_ms;
            let next = SimTime((self.now.0 / res + 1).saturating_mul(res));
            self.world.metrics.timer = Some(self.timers.schedule(next, Timer::World(super::WorldTimer::MetricsTick)));
        }
    }

    pub(crate) fn on_metrics_tick(&mut self) {
        let now = self.now;
        for q in self.queues.values() {
            let m = &mut self.world.metrics;
            let key = |metric| MetricKey::queue(metric, &q.name);
            m.gauge(key("ApproximateNumberOfMessagesVisible"), q.visible_count() as u64);
            m.gauge(key("ApproximateNumberOfMessagesNotVisible"), q.inflight as u64);
            m.gauge(key("ApproximateNumberOfMessagesDelayed"), q.delayed as u64);
            m.gauge(key("ApproximateAgeOfOldestMessage"), q.oldest_age_ms(now) / SECOND);
            let lag = (q.visible_count() + q.inflight + q.delayed) as u64;
            m.gauge(MetricKey { namespace: "Playground/SQS", metric: "ConsumerLag", ..key("") }, lag);
            let last = m.last_stats.get(&q.name).cloned().unwrap_or_default();
            let delta = |now: u64, before: u64| if now >= before { now - before } else { now };
            m.count(key("NumberOfMessagesSent"), delta(q.stats.sent, last.sent));
            m.count(key("NumberOfMessagesReceived"), delta(q.stats.received, last.received));
            m.count(key("NumberOfMessagesDeleted"), delta(q.stats.deleted, last.deleted));
            m.count(key("NumberOfEmptyReceives"), 0);
            m.last_stats.insert(q.name.clone(), q.stats.clone());
        }
        self.world.metrics.flush(now);
        self.world.metrics.ticks += 1;
        let next = now.plus_ms(self.world.metrics.resolution_ms);
        self.world.metrics.timer = Some(self.timers.schedule(next, Timer::World(super::WorldTimer::MetricsTick)));
        self.evaluate_alarms();
    }

    /// `ConfigureMetrics`: the resolution of every series (default 60 s), before the first datapoint.
    pub(crate) fn configure_metrics(&mut self, p: &Params) -> ApiResult<Value> {
        let ms = super::spec::opt_duration(p, "Resolution")?.ok_or_else(|| Service::Sim.missing("Resolution"))?;
        if ms % SECOND != 0 || !valid_period(ms / SECOND) {
            return Err(invalid("Resolution must be 1s, 5s, 10s, 30s or a multiple of 60s"));
        }
        if let Some(a) = self.world.alarms.values().find(|a| (a.period_s * SECOND) % ms != 0) {
            return Err(invalid(format!(
                "alarm {} has a Period of {} s, which is not a multiple of {} s",
                a.name,
                a.period_s,
                ms / SECOND
            )));
        }
        if self.world.metrics.ticks > 0 {
            return Err(invalid(
                "the metrics already have datapoints; set Resolution first, before the first period ends",
            ));
        }
        if let Some(t) = self.world.metrics.timer.take() {
            self.timers.cancel(t);
        }
        self.world.metrics.resolution_ms = ms;
        self.ensure_ticking();
        self.emit(EventKind::World(super::WorldEvent::MetricsConfigured { resolution_ms: ms }));
        Ok(json!({}))
    }

    /// `GetMetricStatistics`, in the CloudWatch shape. Times are virtual (`"10m"`) or epoch seconds.
    pub(crate) fn get_metric_statistics(&mut self, p: &Params) -> ApiResult<Value> {
        let (namespace, metric, dim) = metric_target(p)?;
        let period_s = p
            .opt_int("Period", 1, (MAX_DURATION_MS / SECOND) as i64)?
            .ok_or_else(|| Service::Sim.missing("Period"))? as u64;
        let res = self.world.metrics.resolution_ms;
        if !valid_period(period_s) || (period_s * SECOND) % res != 0 {
            return Err(invalid(format!(
                "Period {period_s} must be 1, 5, 10, 30 or a multiple of 60 seconds, and a multiple of the metric resolution ({} s)",
                res / SECOND
            )));
        }
        let stats = p.str_list("Statistics")?;
        if stats.is_empty() || stats.len() > 5 {
            return Err(invalid("Statistics must list 1 to 5 of SampleCount, Average, Sum, Minimum, Maximum"));
        }
        let stats: Vec<Stat> = stats.into_iter().map(Stat::parse).collect::<ApiResult<_>>()?;
        let start = time_param(p, "StartTime")?.unwrap_or(SimTime::ZERO);
        let end = time_param(p, "EndTime")?.unwrap_or(self.now);
        if end <= start {
            return Err(invalid("EndTime must be after StartTime"));
        }
        let period = period_s * SECOND;
        if (end.0 - start.0).div_ceil(period) > 1440 {
            return Err(ApiError::new(
                "InvalidParameterCombination",
                "You have requested more than 1440 datapoints; use a longer Period or a shorter time range.",
            ));
        }
        let mut buckets: VecMap<u64, Datapoint> = VecMap::new();
        let mut unit = "Count";
        if let Some((dn, dv)) = &dim {
            if let Some((key, series)) = self.world.metrics.series.iter().find(|(k, _)| {
                k.namespace == namespace && k.metric == metric && k.dimension == dn && &*k.value == dv.as_str()
            }) {
                unit = key.unit();
                for (e, d) in series.iter() {
                    let begins = e.0.saturating_sub(res);
                    if begins >= start.0 && e.0 <= end.0 {
                        buckets.entry(begins / period * period).or_default().merge(d);
                    }
                }
            }
        }
        let datapoints: Vec<Value> = buckets
            .iter()
            .map(|(t, d)| {
                let mut v = json!({ "Timestamp": SimTime(*t).iso8601(), "Unit": unit });
                for s in &stats {
                    v[s.as_str()] = s.json(d);
                }
                v
            })
            .collect();
        Ok(json!({ "Label": metric, "Datapoints": datapoints }))
    }
}
