//! Side effects and idempotency. Every job keeps a ledger: how many times its visible side effect
//! (slip printed, email sent, card charged) happened for each `event_id`, so a duplicate is seen,
//! and the consumer's own idempotency store (recorded ids, latest version per entity).

use super::spec::{self, EventInfo, IdStore, Idempotency, JobSpec};
use super::WorldEvent;
use crate::error::ApiResult;
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::SimTime;
use crate::vecmap::VecMap;
use serde_json::{json, Value};
use std::sync::Arc;

const PAGE: usize = 4096;

/// A count per event id. Ids of the form `evt-<n>` (what producers make) are kept in shared pages
/// of one byte each, so a day of events costs little and a checkpoint clone copies pointers;
/// counts there stop at 255. Other ids are kept by name.
#[derive(Clone, Debug, Default)]
pub(crate) struct IdCounter {
    pages: VecMap<u64, Arc<[u8; PAGE]>>,
    text: VecMap<Arc<str>, u32>,
}

fn numeric(id: &str) -> Option<u64> {
    let digits = id.strip_prefix("evt-")?;
    let canonical = !digits.is_empty() && digits.len() <= 15 && (digits == "0" || !digits.starts_with('0'));
    (canonical && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok()).flatten()
}

impl IdCounter {
    pub fn get(&self, id: &str) -> u32 {
        match numeric(id) {
            Some(n) => self.pages.get(&(n / PAGE as u64)).map_or(0, |p| u32::from(p[(n % PAGE as u64) as usize])),
            None => self.text.get(id).copied().unwrap_or(0),
        }
    }

    /// Adds one; returns the new count.
    pub fn incr(&mut self, id: &Arc<str>) -> u32 {
        match numeric(id) {
            Some(n) => {
                let page = Arc::make_mut(self.pages.entry(n / PAGE as u64).or_insert_with(|| Arc::new([0; PAGE])));
                let slot = &mut page[(n % PAGE as u64) as usize];
                *slot = slot.saturating_add(1);
                u32::from(*slot)
            }
            None => {
                let c = self.text.entry(id.clone()).or_insert(0);
                *c = c.saturating_add(1);
                *c
            }
        }
    }

    /// Ids counted at least `min` times, at most `limit` of them, in id order within each kind.
    pub fn at_least(&self, min: u32, limit: usize) -> Vec<String> {
        let numeric = self.pages.iter().flat_map(|(page, counts)| {
            counts
                .iter()
                .enumerate()
                .filter(move |(_, c)| u32::from(**c) >= min)
                .map(move |(i, _)| format!("evt-{}", page * PAGE as u64 + i as u64))
        });
        let text = self.text.iter().filter(|(_, c)| **c >= min).map(|(k, _)| k.to_string());
        numeric.chain(text).take(limit).collect()
    }
}

const BOUNDS: [u64; 22] = [
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
    1_000_000, 2_000_000, 5_000_000, 10_000_000,
];

/// Latencies in 1-2-5 buckets: exact count, mean and maximum; percentiles as a bucket's upper bound.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Histogram {
    pub count: u64,
    pub sum: u64,
    pub max: u64,
    buckets: [u64; BOUNDS.len() + 1],
}

impl Histogram {
    pub fn record(&mut self, ms: u64) {
        self.count += 1;
        self.sum = self.sum.saturating_add(ms);
        self.max = self.max.max(ms);
        let i = BOUNDS.iter().position(|b| ms <= *b).unwrap_or(BOUNDS.len());
        self.buckets[i] += 1;
    }

    pub fn mean(&self) -> u64 {
        self.sum.checked_div(self.count).unwrap_or(0)
    }

    /// The smallest bucket bound at or under which `per_mille`/1000 of the values lie.
    pub fn percentile(&self, per_mille: u64) -> u64 {
        let rank = (self.count * per_mille).div_ceil(1000).max(1);
        let mut seen = 0;
        for (i, n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return BOUNDS.get(i).map_or(self.max, |b| (*b).min(self.max));
            }
        }
        self.max
    }

    pub fn json(&self) -> Value {
        json!({
            "Count": self.count,
            "MeanMs": self.mean(),
            "P50Ms": self.percentile(500),
            "P99Ms": self.percentile(990),
            "MaxMs": self.max,
        })
    }
}

/// One job's side effects and its idempotency store.
#[derive(Clone, Debug)]
pub(crate) struct JobLedger {
    pub effect: Name,
    /// Side effects per event id: the truth a learner sees.
    pub counts: IdCounter,
    /// The consumer's own record of processed ids (check-then-act and atomic modes), shared by
    /// its workers.
    pub recorded: IdCounter,
    /// The same, kept by each worker or function on its own (`IdempotencyStore` `PerWorker`).
    pub recorded_by: VecMap<Name, IdCounter>,
    /// Latest version applied per entity (latest-version-wins mode).
    pub versions: VecMap<Box<str>, u64>,
    /// The newest version whose effect was performed, per entity, whatever the mode: what
    /// tells an older version applied after a newer one (`StaleVersionApplied`).
    pub newest: VecMap<Box<str>, u64>,
    pub out_of_order: u64,
    pub effects: u64,
    pub events: u64,
    pub duplicates: u64,
    pub skipped: u64,
    /// Of those skipped, how many were stale versions (latest-version-wins mode) rather than
    /// events already done.
    pub stale: u64,
    /// From publish (or the message's send) to the side effect.
    pub end_to_end: Histogram,
}

impl JobLedger {
    /// Whether `actor` finds `id` in the store it reads: the job's, or its own.
    pub fn has_recorded(&self, actor: &Name, store: IdStore, id: &str) -> bool {
        match store {
            IdStore::Shared => self.recorded.get(id) > 0,
            IdStore::PerWorker => self.recorded_by.get(actor).is_some_and(|c| c.get(id) > 0),
        }
    }

    fn new(effect: Name) -> JobLedger {
        JobLedger {
            effect,
            counts: IdCounter::default(),
            recorded: IdCounter::default(),
            recorded_by: VecMap::new(),
            versions: VecMap::new(),
            newest: VecMap::new(),
            out_of_order: 0,
            effects: 0,
            events: 0,
            duplicates: 0,
            skipped: 0,
            stale: 0,
            end_to_end: Histogram::default(),
        }
    }
}

/// What happened to one side effect.
pub(crate) struct Effect {
    pub performed: bool,
}

impl Sim {
    /// Makes sure the ledgers of a consumer's jobs exist, so they can be described before use.
    pub(crate) fn declare_jobs(&mut self, jobs: &[JobSpec]) {
        for j in jobs {
            self.world.ledger.entry(j.job.clone()).or_insert_with(|| JobLedger::new(j.effect.clone()));
        }
    }

    /// Runs job `spec`'s side effect for one event under `mode`. `seen_at_check` is what the
    /// check-then-act consumer saw when it checked; `crash_before_commit` means the consumer dies
    /// right after the side effect, so a two-step consumer never records the id.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn commit_effect(
        &mut self,
        actor: &Name,
        spec: &JobSpec,
        info: &EventInfo,
        sent_at: SimTime,
        (mode, store): (Idempotency, IdStore),
        seen_at_check: bool,
        crash_before_commit: bool,
    ) -> Effect {
        let now = self.now;
        let ledger = self.world.ledger.entry(spec.job.clone()).or_insert_with(|| JobLedger::new(spec.effect.clone()));
        let id = &info.event_id;
        let entity: Box<str> = info.entity.clone().unwrap_or_else(|| (**id).into());
        let version = info.version.unwrap_or(0);
        let skip = match mode {
            Idempotency::None => None,
            Idempotency::CheckThenAct => seen_at_check.then(|| "already recorded when the worker checked".to_string()),
            Idempotency::Atomic => ledger
                .has_recorded(actor, store, id)
                .then(|| "duplicate: this event id is already committed".to_string()),
            Idempotency::LatestVersionWins => match ledger.versions.get(&entity) {
                Some(&have) if version <= have => {
                    Some(format!("stale: version {version} of {entity} is not newer than {have}"))
                }
                _ => None,
            },
        };
        let job_key = |metric| super::metrics::MetricKey::job(metric, &spec.job);
        if let Some(reason) = skip {
            ledger.skipped += 1;
            ledger.stale += u64::from(matches!(mode, Idempotency::LatestVersionWins));
            self.world.metrics.count(job_key("DuplicatesSkipped"), 1);
            let event = WorldEvent::SideEffectSkipped {
                job: spec.job.clone(),
                event_id: id.clone(),
                actor: actor.clone(),
                reason,
            };
            self.emit(EventKind::World(event));
            return Effect { performed: false };
        }
        let times = ledger.counts.incr(id);
        ledger.effects += 1;
        if times == 1 {
            ledger.events += 1;
        } else {
            ledger.duplicates += 1;
        }
        match mode {
            Idempotency::CheckThenAct if crash_before_commit => {}
            Idempotency::CheckThenAct | Idempotency::Atomic => match store {
                IdStore::Shared => {
                    ledger.recorded.incr(id);
                }
                IdStore::PerWorker => {
                    ledger.recorded_by.entry(actor.clone()).or_default().incr(id);
                }
            },
            Idempotency::LatestVersionWins => {
                ledger.versions.insert(entity, version);
            }
            Idempotency::None => {}
        }
        // An older version of an entity performed after a newer one: the order a standard
        // queue (or a retry) does not keep, seen by the consumer's ledger.
        let stale = match (&info.entity, info.version) {
            (Some(entity), Some(version)) => {
                let newest = ledger.newest.get(entity).copied();
                if newest.is_none_or(|n| version > n) {
                    ledger.newest.insert(entity.clone(), version);
                }
                newest.filter(|n| version < *n)
            }
            _ => None,
        };
        ledger.out_of_order += u64::from(stale.is_some());
        let latency = now.0.saturating_sub(info.occurred_at.unwrap_or(sent_at).0);
        ledger.end_to_end.record(latency);
        self.world.metrics.count(job_key("SideEffects"), 1);
        if times > 1 {
            self.world.metrics.count(job_key("DuplicateSideEffects"), 1);
        }
        self.world.metrics.sample(job_key("EndToEndLatency"), latency);
        let event = WorldEvent::SideEffectPerformed {
            job: spec.job.clone(),
            effect: spec.effect.clone(),
            event_id: id.clone(),
            times,
            actor: actor.clone(),
        };
        self.emit(EventKind::World(event));
        if let (Some(newer), Some(version)) = (stale, info.version) {
            let event = WorldEvent::StaleVersionApplied {
                job: spec.job.clone(),
                event_id: id.clone(),
                actor: actor.clone(),
                version,
                newer,
            };
            self.emit(EventKind::World(event));
        }
        Effect { performed: true }
    }

    /// `DescribeJob`: a job's side effects, duplicates and end-to-end latency.
    pub(crate) fn describe_job(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("Job")?;
        let ledger = self.world.ledger.get(name).ok_or_else(|| spec::not_found("Job", name))?;
        let ids = p.str_list("EventIds")?;
        if ids.len() > 100 {
            return Err(spec::invalid("EventIds takes at most 100 ids"));
        }
        let by_event = crate::vecmap::json_object(ids.iter().map(|id| (id.to_string(), json!(ledger.counts.get(id)))));
        Ok(json!({
            "Job": name,
            "Effect": &*ledger.effect,
            "SideEffects": ledger.effects,
            "DistinctEvents": ledger.events,
            "DuplicateSideEffects": ledger.duplicates,
            "Skipped": ledger.skipped,
            "OutOfOrder": ledger.out_of_order,
            "EffectsByEvent": by_event,
            "DuplicatedEvents": ledger.counts.at_least(2, 50),
            "EndToEndLatency": ledger.end_to_end.json(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_and_text_ids_count_separately_and_exactly() {
        let mut c = IdCounter::default();
        let a: Arc<str> = "evt-4417".into();
        let b: Arc<str> = "evt-04417".into();
        assert_eq!(c.incr(&a), 1);
        assert_eq!(c.incr(&a), 2);
        assert_eq!(c.incr(&b), 1, "a non-canonical number is a different id");
        assert_eq!(c.get("evt-4417"), 2);
        assert_eq!(c.at_least(2, 10), vec!["evt-4417".to_string()]);
        let snapshot = c.clone();
        c.incr(&a);
        assert_eq!(snapshot.get("evt-4417"), 2, "a clone is a checkpoint: later counts do not leak into it");
    }

    #[test]
    fn histogram_percentiles_are_bucket_bounds() {
        let mut h = Histogram::default();
        for ms in [400, 450, 500, 25_000] {
            h.record(ms);
        }
        assert_eq!((h.count, h.mean(), h.max), (4, 6_587, 25_000));
        assert_eq!(h.percentile(500), 500);
        assert_eq!(h.percentile(990), 25_000);
    }
}
