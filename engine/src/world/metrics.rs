//! CloudWatch-style metrics in virtual time. Once the world has an actor or an alarm, a tick
//! samples and closes periods. SQS sends its metrics (`AWS/SQS`) to CloudWatch at one-minute
//! intervals, so every minute the tick samples every queue (the SQS gauges and the per-minute
//! counts), whatever the resolution. At every multiple of the resolution (60 s by default) it
//! closes the period of the playground's own series and of what actors counted meanwhile
//! (dependency calls, side effects, Lambda invocations, a queue's `ConsumerLag`). The tick also
//! comes at every end of an alarm's period, so a 10-second alarm on a queue metric is evaluated
//! every 10 s and finds a datapoint only once a minute, as on AWS. `GetMetricStatistics` reads
//! the series in the AWS shape.

use super::series::Series;
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

/// A metric and its one dimension: `AWS/SQS ApproximateNumberOfMessagesVisible QueueName=sms`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct MetricKey {
    pub namespace: &'static str,
    pub metric: &'static str,
    pub dimension: &'static str,
    pub value: Name,
}

/// How often SQS sends a queue's metrics to CloudWatch: "CloudWatch metrics for your Amazon SQS
/// queues are automatically collected and pushed to CloudWatch at one-minute intervals"
/// (<https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/monitoring-using-cloudwatch.html>).
pub const SQS_METRICS_PERIOD_MS: u64 = 60 * SECOND;

impl MetricKey {
    /// The length of this series' periods: one minute for SQS's own metrics, the resolution for
    /// every other series.
    pub(crate) fn period_ms(&self, resolution_ms: u64) -> u64 {
        if self.namespace == "AWS/SQS" {
            SQS_METRICS_PERIOD_MS
        } else {
            resolution_ms
        }
    }

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
    pub(crate) fn one(v: u64) -> Datapoint {
        Datapoint { sum: v, count: 1, min: v, max: v }
    }

    pub(crate) fn merge(&mut self, other: &Datapoint) {
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

/// The series a tick samples for each queue, in the order of [`QUEUE_SERIES`].
type QueueSlots = [usize; QUEUE_SERIES.len()];

/// Each queue's series as the tick writes them: (namespace, metric, kind).
const QUEUE_SERIES: [(&str, &str, Kind); 9] = [
    ("AWS/SQS", "ApproximateNumberOfMessagesVisible", Kind::Gauge),
    ("AWS/SQS", "ApproximateNumberOfMessagesNotVisible", Kind::Gauge),
    ("AWS/SQS", "ApproximateNumberOfMessagesDelayed", Kind::Gauge),
    ("AWS/SQS", "ApproximateAgeOfOldestMessage", Kind::Gauge),
    ("Playground/SQS", "ConsumerLag", Kind::Gauge),
    ("AWS/SQS", "NumberOfMessagesSent", Kind::Counter),
    ("AWS/SQS", "NumberOfMessagesReceived", Kind::Counter),
    ("AWS/SQS", "NumberOfMessagesDeleted", Kind::Counter),
    ("AWS/SQS", "NumberOfEmptyReceives", Kind::Counter),
];

/// The series, each with its current period. A series is found by its key once per write (a
/// binary search); the queues the tick samples keep their series' places, so that a tick costs
/// a few stores per queue rather than a search per metric.
#[derive(Clone, Debug)]
pub(crate) struct Metrics {
    pub resolution_ms: u64,
    /// The tick's timer and when it is due.
    pub timer: Option<(TimerKey, SimTime)>,
    /// Periods closed so far (a tick that only evaluates alarms closes none).
    pub ticks: u64,
    /// Every series, in the order it was first written (a place never changes).
    series: Vec<(MetricKey, Series)>,
    /// Each series' place in `series`, by key.
    places: VecMap<MetricKey, usize>,
    /// Each queue's series places and its counts at the last tick (for the per-period counts).
    queues: VecMap<Name, (QueueSlots, QueueStats)>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            resolution_ms: 60 * SECOND,
            timer: None,
            ticks: 0,
            series: Vec::new(),
            places: VecMap::new(),
            queues: VecMap::new(),
        }
    }
}

impl Metrics {
    /// The place of `key`'s series, made (of `kind`) if it has none yet.
    fn place(&mut self, key: MetricKey, kind: Kind) -> usize {
        if let Some(&i) = self.places.get(&key) {
            return i;
        }
        self.series.push((key.clone(), Series::new(kind)));
        self.places.insert(key, self.series.len() - 1);
        self.series.len() - 1
    }

    fn pending(&mut self, place: usize) -> &mut Option<Datapoint> {
        &mut self.series[place].1.pending
    }

    /// Adds `n` to a counted metric for the current period.
    pub fn count(&mut self, key: MetricKey, n: u64) {
        let place = self.place(key, Kind::Counter);
        self.add(place, n);
    }

    fn add(&mut self, place: usize, n: u64) {
        let d = self.pending(place).get_or_insert_with(Datapoint::default);
        d.sum = d.sum.saturating_add(n);
    }

    /// Records one observation of a sampled metric for the current period.
    pub fn sample(&mut self, key: MetricKey, v: u64) {
        let place = self.place(key, Kind::Sample);
        self.pending(place).get_or_insert_with(Datapoint::default).merge(&Datapoint::one(v));
    }

    fn gauge(&mut self, place: usize, v: u64) {
        *self.pending(place) = Some(Datapoint::one(v));
    }

    /// The tick's series of `queue` and its counts at the last tick.
    fn queue_slots(&mut self, queue: &Name) -> (QueueSlots, QueueStats) {
        if let Some(found) = self.queues.get(queue) {
            return found.clone();
        }
        let mut slots = [0; QUEUE_SERIES.len()];
        for (slot, (namespace, metric, kind)) in slots.iter_mut().zip(QUEUE_SERIES) {
            *slot = self.place(MetricKey { namespace, metric, dimension: "QueueName", value: queue.clone() }, kind);
        }
        self.queues.insert(queue.clone(), (slots, QueueStats::default()));
        (slots, QueueStats::default())
    }

    /// Closes the periods ending at `end`: every series whose period ends then and that was
    /// written in it gets its datapoint, and every such counter gets one (0 when nothing was
    /// counted).
    fn flush(&mut self, end: SimTime) {
        let res = self.resolution_ms;
        for (key, series) in &mut self.series {
            if !end.0.is_multiple_of(key.period_ms(res)) {
                continue;
            }
            match (series.pending.take(), series.kind) {
                (Some(d), Kind::Counter) => series.push((end, Datapoint::one(d.sum))),
                (Some(d), _) => series.push((end, d)),
                (None, Kind::Counter) => series.push((end, Datapoint::one(0))),
                (None, _) => {}
            }
        }
    }

    /// The series of a metric named by text with its key, as an alarm or a query names it.
    pub fn find_keyed(
        &self,
        namespace: &str,
        metric: &str,
        dimension: &str,
        value: &str,
    ) -> Option<(&MetricKey, &Series)> {
        self.all().find(|(k, _)| {
            k.namespace == namespace && k.metric == metric && k.dimension == dimension && &*k.value == value
        })
    }

    /// Every series with its key, in key order.
    pub fn all(&self) -> impl Iterator<Item = (&MetricKey, &Series)> {
        self.places.iter().map(|(k, &i)| (k, &self.series[i].1))
    }

    /// The series of a metric named by text, as an alarm or a query names it.
    pub fn find(&self, namespace: &str, metric: &str, dimension: &str, value: &str) -> Option<&Series> {
        self.find_keyed(namespace, metric, dimension, value).map(|(_, s)| s)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Resolutions and periods CloudWatch allows: 1, 5, 10, 30 seconds, or a multiple of 60.
fn valid_period(seconds: u64) -> bool {
    matches!(seconds, 1 | 5 | 10 | 30) || (seconds > 0 && seconds.is_multiple_of(60))
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
            .map(|s| s.iter().map(|(end, d)| (end, d.max)).collect())
            .unwrap_or_default()
    }

    /// How often the tick comes: at every end of a period of a series (the resolution, and SQS's
    /// minute) and of an alarm.
    fn metrics_tick_ms(&self) -> u64 {
        let m = &self.world.metrics;
        self.world.alarms.values().fold(gcd(m.resolution_ms, SQS_METRICS_PERIOD_MS), |t, a| gcd(t, a.period_s * SECOND))
    }

    /// Starts the metrics tick if it is not running: the world has something to measure. Brings
    /// it forward when an alarm's period ends before it is due.
    pub(crate) fn ensure_ticking(&mut self) {
        let tick = self.metrics_tick_ms();
        let next = SimTime((self.now.0 / tick + 1).saturating_mul(tick));
        match self.world.metrics.timer {
            Some((_, due)) if due <= next => {}
            Some((key, _)) => {
                self.timers.cancel(key);
                self.world.metrics.timer = None;
                self.schedule_metrics_tick(next);
            }
            None => self.schedule_metrics_tick(next),
        }
    }

    fn schedule_metrics_tick(&mut self, at: SimTime) {
        let key = self.timers.schedule(at, Timer::World(super::WorldTimer::MetricsTick));
        self.world.metrics.timer = Some((key, at));
    }

    pub(crate) fn on_metrics_tick(&mut self) {
        let now = self.now;
        let res = self.world.metrics.resolution_ms;
        let (sqs_due, res_due) = (now.0.is_multiple_of(SQS_METRICS_PERIOD_MS), now.0.is_multiple_of(res));
        for q in self.queues.values() {
            let m = &mut self.world.metrics;
            let (s, last) = m.queue_slots(&q.name);
            if res_due {
                m.gauge(s[4], (q.visible_count() + q.inflight + q.delayed) as u64);
            }
            if !sqs_due {
                continue;
            }
            m.gauge(s[0], q.visible_count() as u64);
            m.gauge(s[1], q.inflight as u64);
            m.gauge(s[2], q.delayed as u64);
            m.gauge(s[3], q.oldest_age_ms(now) / SECOND);
            let delta = |now: u64, before: u64| if now >= before { now - before } else { now };
            m.add(s[5], delta(q.stats.sent, last.sent));
            m.add(s[6], delta(q.stats.received, last.received));
            m.add(s[7], delta(q.stats.deleted, last.deleted));
            m.add(s[8], 0);
            if let Some(entry) = m.queues.get_mut(&q.name) {
                entry.1 = q.stats.clone();
            }
        }
        if sqs_due || res_due {
            self.world.metrics.flush(now);
            self.world.metrics.ticks += 1;
        }
        let tick = self.metrics_tick_ms();
        self.schedule_metrics_tick(SimTime((now.0 / tick + 1).saturating_mul(tick)));
        self.evaluate_alarms();
    }

    /// `ConfigureMetrics`: the resolution of the playground's own series (default 60 s), before
    /// the first datapoint. SQS's series keep one datapoint a minute, as on AWS.
    pub(crate) fn configure_metrics(&mut self, p: &Params) -> ApiResult<Value> {
        let ms = super::spec::opt_duration(p, "Resolution")?.ok_or_else(|| Service::Sim.missing("Resolution"))?;
        if ms % SECOND != 0 || !valid_period(ms / SECOND) {
            return Err(invalid("Resolution must be 1s, 5s, 10s, 30s or a multiple of 60s"));
        }
        if self.world.metrics.ticks > 0 {
            return Err(invalid(
                "the metrics already have datapoints; set Resolution first, before the first period ends",
            ));
        }
        if let Some((t, _)) = self.world.metrics.timer.take() {
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
        if !valid_period(period_s) || !(period_s * SECOND).is_multiple_of(res) {
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
            if let Some((key, series)) = self.world.metrics.find_keyed(&namespace, &metric, dn, dv) {
                unit = key.unit();
                let length = key.period_ms(res);
                for (e, d) in series.iter() {
                    let begins = e.0.saturating_sub(length);
                    if begins >= start.0 && e.0 <= end.0 {
                        buckets.entry(begins / period * period).or_default().merge(&d);
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
