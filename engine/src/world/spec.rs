//! The playground's own parameter shapes, checked once when an actor is made: durations, ranges,
//! probabilities, and a consumer's behaviour (processing time, failures, poison messages, jobs with
//! their side effects and dependency calls, retries, idempotency). Also how a message body is read
//! for its event id, entity, version and publish time.

use crate::error::{ApiError, ApiResult, Service};
use crate::event::Name;
use crate::params::{kind_of, Params};
use crate::rng::Pcg32;
use crate::time::{parse_duration, SimTime, DAY};
use serde_json::Value;
use std::sync::Arc;

/// The longest duration the playground accepts anywhere: a year of virtual time.
pub(crate) const MAX_DURATION_MS: u64 = 365 * DAY;

pub(crate) fn invalid(message: impl Into<String>) -> ApiError {
    Service::Sim.invalid_value(message)
}

pub(crate) fn not_found(kind: &str, name: &str) -> ApiError {
    ApiError::new("ResourceNotFoundException", format!("{kind} not found: {name}"))
}

pub(crate) fn conflict(kind: &str, name: &str) -> ApiError {
    ApiError::new("ResourceConflictException", format!("{kind} already exists: {name}. Choose another name."))
}

/// Whether a parameter is present (and not null).
pub(crate) fn has(p: &Params, name: &str) -> bool {
    p.raw(name).is_some()
}

/// A duration given as text (`"500ms"`, `"1.5s"`, `"40m"`).
pub(crate) fn duration(value: &Value, name: &str) -> ApiResult<u64> {
    let Value::String(text) = value else {
        return Err(invalid(format!("{name} must be a duration such as \"500ms\" or \"2s\", not {}", kind_of(value))));
    };
    let ms = parse_duration(text).map_err(|e| invalid(format!("{name}: {e}")))?;
    if ms > MAX_DURATION_MS {
        return Err(invalid(format!("{name} must be at most 365d, not \"{text}\"")));
    }
    Ok(ms)
}

pub(crate) fn opt_duration(p: &Params, name: &str) -> ApiResult<Option<u64>> {
    p.raw(name).map(|v| duration(v, name)).transpose()
}

/// A probability as a decimal string or number from 0 to 1, in parts per million.
pub(crate) fn probability(value: &Value, name: &str) -> ApiResult<u32> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => return Err(invalid(format!("{name} must be a decimal from 0 to 1, not {}", kind_of(other)))),
    };
    crate::sim::parse_probability(name, &text)
}

pub(crate) fn opt_probability(p: &Params, name: &str) -> ApiResult<Option<u32>> {
    p.raw(name).map(|v| probability(v, name)).transpose()
}

/// A fixed duration or a seeded uniform range: `"2s"` or `{"Min": "200ms", "Max": "2s"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub min: u64,
    pub max: u64,
}

impl Span {
    pub fn fixed(ms: u64) -> Span {
        Span { min: ms, max: ms }
    }

    pub fn parse(value: &Value, name: &str) -> ApiResult<Span> {
        if let Value::Object(_) = value {
            let p = Params::new(Service::Sim, name, value, &["Min", "Max"])?;
            let min = duration(p.raw("Min").ok_or_else(|| Service::Sim.missing(&format!("{name}.Min")))?, "Min")?;
            let max = duration(p.raw("Max").ok_or_else(|| Service::Sim.missing(&format!("{name}.Max")))?, "Max")?;
            if min > max {
                return Err(invalid(format!("{name}: Min must not be longer than Max")));
            }
            return Ok(Span { min, max });
        }
        duration(value, name).map(Span::fixed)
    }

    /// A draw from the world's generator; a fixed span draws nothing.
    pub fn draw(&self, rng: &mut Pcg32) -> u64 {
        if self.max == self.min {
            self.min
        } else {
            self.min + rng.up_to(self.max - self.min)
        }
    }

    pub fn as_duration(&self) -> super::DurationMs {
        super::DurationMs { min_ms: self.min, max_ms: self.max }
    }

    pub fn describe(&self) -> String {
        if self.min == self.max {
            format!("{}ms", self.min)
        } else {
            format!("{}ms-{}ms", self.min, self.max)
        }
    }
}

/// A predicate that marks a message as poison: it fails every time it is processed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Poison {
    BodyContains(String),
    FieldMissing(String),
    FieldLengthBelow(String, u64),
    FieldEquals(String, String),
}

impl Poison {
    pub fn parse(value: &Value) -> ApiResult<Poison> {
        let names = ["BodyContains", "Field", "Missing", "LengthBelow", "Equals"];
        let p = Params::new(Service::Sim, "Poison", value, &names)?;
        if let Some(text) = p.opt_str("BodyContains")? {
            if has(&p, "Field") {
                return Err(invalid("Poison takes BodyContains or Field, not both"));
            }
            return Ok(Poison::BodyContains(text.to_string()));
        }
        let field = p.opt_str("Field")?.ok_or_else(|| {
            invalid("Poison needs BodyContains, or Field with Missing, LengthBelow or Equals (e.g. {\"Field\": \"data.phone\", \"LengthBelow\": 13})")
        })?;
        let tests = [has(&p, "Missing"), has(&p, "LengthBelow"), has(&p, "Equals")].iter().filter(|b| **b).count();
        if tests != 1 {
            return Err(invalid("Poison with a Field takes exactly one of Missing, LengthBelow or Equals"));
        }
        if let Some(missing) = p.opt_bool("Missing")? {
            if !missing {
                return Err(invalid("Poison.Missing can only be true"));
            }
            return Ok(Poison::FieldMissing(field.to_string()));
        }
        if let Some(n) = p.opt_int("LengthBelow", 1, 1_000_000)? {
            return Ok(Poison::FieldLengthBelow(field.to_string(), n as u64));
        }
        Ok(Poison::FieldEquals(field.to_string(), p.str("Equals")?.to_string()))
    }

    pub fn matches(&self, event: &Value, text: &str) -> bool {
        match self {
            Poison::BodyContains(s) => text.contains(s.as_str()),
            Poison::FieldMissing(f) => field(event, f).is_none_or(Value::is_null),
            Poison::FieldLengthBelow(f, n) => {
                field(event, f).is_some_and(|v| (value_text(v).chars().count() as u64) < *n)
            }
            Poison::FieldEquals(f, want) => field(event, f).is_some_and(|v| value_text(v) == *want),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Poison::BodyContains(s) => format!("the body contains \"{s}\""),
            Poison::FieldMissing(f) => format!("{f} is missing"),
            Poison::FieldLengthBelow(f, n) => format!("{f} is shorter than {n} characters"),
            Poison::FieldEquals(f, v) => format!("{f} is \"{v}\""),
        }
    }
}

/// A dotted path into a JSON value: `data.phone`.
pub(crate) fn field<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |here, part| here.get(part))
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// How a consumer keeps a duplicate from repeating its side effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Idempotency {
    /// Every successful processing performs the side effect.
    None,
    /// Check "seen this id?" when the message arrives, act, then record the id: two steps.
    CheckThenAct,
    /// The id and the side effect are committed in one transaction; a duplicate is skipped.
    Atomic,
    /// Keep the latest version per entity; an event not newer than it is skipped.
    LatestVersionWins,
}

impl Idempotency {
    pub fn parse(text: &str) -> ApiResult<Idempotency> {
        match text {
            "None" => Ok(Idempotency::None),
            "CheckThenAct" => Ok(Idempotency::CheckThenAct),
            "Atomic" => Ok(Idempotency::Atomic),
            "LatestVersionWins" => Ok(Idempotency::LatestVersionWins),
            other => Err(invalid(format!(
                "Idempotency \"{other}\" is not one of None, CheckThenAct, Atomic, LatestVersionWins"
            ))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Idempotency::None => "None",
            Idempotency::CheckThenAct => "CheckThenAct",
            Idempotency::Atomic => "Atomic",
            Idempotency::LatestVersionWins => "LatestVersionWins",
        }
    }
}

/// Where a consumer keeps the event ids it has recorded (check-then-act and atomic modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IdStore {
    /// One store for every worker of the job, such as a table in one database.
    Shared,
    /// Each worker (or function) keeps its own, such as a set in its memory: a duplicate that
    /// reaches another worker is not seen.
    PerWorker,
}

impl IdStore {
    pub fn parse(text: &str) -> ApiResult<IdStore> {
        match text {
            "Shared" => Ok(IdStore::Shared),
            "PerWorker" => Ok(IdStore::PerWorker),
            other => Err(invalid(format!("IdempotencyStore \"{other}\" is not one of Shared, PerWorker"))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            IdStore::Shared => "Shared",
            IdStore::PerWorker => "PerWorker",
        }
    }
}

/// One job a consumer does per message: an optional dependency call, then a visible side effect.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JobSpec {
    /// The ledger the side effects are counted in; consumers sharing a job share its idempotency store.
    pub job: Name,
    /// What the side effect is, for people: "slip printed", "email sent".
    pub effect: Name,
    pub dependency: Option<Name>,
    pub retry: super::dependency::RetryPolicy,
}

impl JobSpec {
    pub fn parse(value: &Value, deps: &dyn Fn(&str) -> bool) -> ApiResult<JobSpec> {
        let p = Params::new(Service::Sim, "Jobs entry", value, &["Job", "Effect", "Dependency", "Retry"])?;
        let job = p.str("Job")?;
        let mut spec = JobSpec::named(job)?;
        spec.apply(&p, deps)?;
        Ok(spec)
    }

    pub fn named(job: &str) -> ApiResult<JobSpec> {
        if job.is_empty() || job.len() > 80 {
            return Err(invalid(format!("Job \"{job}\" must be 1 to 80 characters")));
        }
        Ok(JobSpec {
            job: job.into(),
            effect: "processed".into(),
            dependency: None,
            retry: super::dependency::RetryPolicy::default(),
        })
    }

    /// Applies `Effect`, `Dependency` and `Retry` when given.
    fn apply(&mut self, p: &Params, deps: &dyn Fn(&str) -> bool) -> ApiResult<()> {
        if let Some(effect) = p.opt_str("Effect")? {
            if effect.is_empty() || effect.len() > 80 {
                return Err(invalid("Effect must be 1 to 80 characters, such as \"slip printed\""));
            }
            self.effect = effect.into();
        }
        if let Some(dep) = p.opt_str("Dependency")? {
            if !deps(dep) {
                return Err(not_found("Dependency", dep));
            }
            self.dependency = Some(dep.into());
        }
        if let Some(retry) = p.raw("Retry") {
            self.retry = super::dependency::RetryPolicy::parse(retry)?;
        }
        Ok(())
    }
}

/// What a consumer does with each message. Shared by workers, Lambda functions and the coupled
/// producer's request path.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Behavior {
    pub processing: Span,
    pub failure_ppm: u32,
    pub poison: Option<Poison>,
    pub jobs: Vec<JobSpec>,
    pub idempotency: Idempotency,
    /// Where the recorded event ids live (`IdempotencyStore`, `Shared` by default).
    pub store: IdStore,
    /// For `LatestVersionWins`: the field naming the entity (default `order_id`) and its version.
    pub entity_field: String,
    pub version_field: String,
}

/// The parameter names a behaviour is read from.
pub(crate) const BEHAVIOR_KEYS: &[&str] = &[
    "ProcessingTime",
    "FailureProbability",
    "Poison",
    "Job",
    "Effect",
    "Dependency",
    "Retry",
    "Jobs",
    "Idempotency",
    "IdempotencyStore",
    "EntityField",
    "VersionField",
];

impl Behavior {
    /// 100 ms per message, no failures, one job named `job`, no idempotency.
    pub fn new(job: &str) -> ApiResult<Behavior> {
        Ok(Behavior {
            processing: Span::fixed(100),
            failure_ppm: 0,
            poison: None,
            jobs: vec![JobSpec::named(job)?],
            idempotency: Idempotency::None,
            store: IdStore::Shared,
            entity_field: "order_id".into(),
            version_field: "version".into(),
        })
    }

    /// A copy with every behaviour parameter present in `p` applied; the others stay.
    pub fn updated(&self, p: &Params, deps: &dyn Fn(&str) -> bool) -> ApiResult<Behavior> {
        let mut b = self.clone();
        if let Some(v) = p.raw("ProcessingTime") {
            b.processing = Span::parse(v, "ProcessingTime")?;
            if b.processing.min == 0 {
                return Err(invalid("ProcessingTime must be at least 1ms (a consumer always takes some time)"));
            }
        }
        if let Some(ppm) = opt_probability(p, "FailureProbability")? {
            b.failure_ppm = ppm;
        }
        match p.raw("Poison") {
            Some(Value::Object(m)) if m.is_empty() => b.poison = None,
            Some(v) => b.poison = Some(Poison::parse(v)?),
            None => {}
        }
        let single = ["Job", "Effect", "Dependency", "Retry"].iter().any(|k| has(p, k));
        if let Some(list) = p.raw("Jobs") {
            if single {
                return Err(invalid("give Jobs, or Job/Effect/Dependency/Retry for a single job, not both"));
            }
            let items = p.object_list("Jobs")?;
            if items.is_empty() || items.len() > 10 {
                return Err(invalid(format!(
                    "Jobs must list 1 to 10 jobs, not {}",
                    list.as_array().map_or(0, Vec::len)
                )));
            }
            b.jobs = Vec::with_capacity(items.len());
            for v in items {
                b.jobs.push(JobSpec::parse(v, deps)?);
            }
        } else if single {
            if b.jobs.len() != 1 {
                return Err(invalid("this consumer has several jobs; change them with Jobs"));
            }
            if let Some(job) = p.opt_str("Job")? {
                let old = b.jobs[0].clone();
                b.jobs[0] = JobSpec { job: JobSpec::named(job)?.job, ..old };
            }
            b.jobs[0].apply(p, deps)?;
        }
        if let Some(mode) = p.opt_str("Idempotency")? {
            b.idempotency = Idempotency::parse(mode)?;
        }
        if let Some(store) = p.opt_str("IdempotencyStore")? {
            b.store = IdStore::parse(store)?;
        }
        for (key, slot) in [("EntityField", &mut b.entity_field), ("VersionField", &mut b.version_field)] {
            if let Some(f) = p.opt_str(key)? {
                if f.is_empty() || f.len() > 200 {
                    return Err(invalid(format!("{key} must be a field path such as \"order_id\"")));
                }
                *slot = f.to_string();
            }
        }
        Ok(b)
    }

    /// Reads a message body (raw, or inside an SNS envelope) for what processing needs.
    pub fn inspect(&self, body: &str, fallback_id: &str) -> EventInfo {
        let outer: Value = serde_json::from_str(body).unwrap_or(Value::Null);
        let envelope = outer.get("Type").and_then(Value::as_str) == Some("Notification");
        let (event, text, sns_id) = match outer.get("Message").and_then(Value::as_str) {
            Some(inner) if envelope => (
                serde_json::from_str(inner).unwrap_or(Value::Null),
                inner,
                outer.get("MessageId").and_then(Value::as_str),
            ),
            _ => (outer.clone(), body, None),
        };
        let text_of = |v: &Value| match v {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        let event_id = event.get("event_id").and_then(text_of).or(sns_id.map(str::to_string));
        EventInfo {
            event_id: event_id.unwrap_or_else(|| fallback_id.to_string()).into(),
            entity: field(&event, &self.entity_field).and_then(text_of).map(Into::into),
            version: field(&event, &self.version_field).and_then(Value::as_u64),
            occurred_at: event.get("occurred_at_ms").and_then(Value::as_u64).map(SimTime),
            poison: self.poison.as_ref().is_some_and(|p| p.matches(&event, text)),
        }
    }
}

/// What a consumer learns from a message's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EventInfo {
    /// The body's `event_id`, else the SNS message id, else the SQS message id.
    pub event_id: Arc<str>,
    pub entity: Option<Box<str>>,
    pub version: Option<u64>,
    /// The body's `occurred_at_ms`: when the event was published, for end-to-end latency.
    pub occurred_at: Option<SimTime>,
    pub poison: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_envelope_is_opened_and_a_short_phone_is_poison() {
        let mut b = Behavior::new("sms").unwrap();
        b.poison = Some(Poison::parse(&json!({"Field": "data.phone", "LengthBelow": 13})).unwrap());
        let inner = json!({"event_id": "evt-4417", "order_id": 4417, "version": 2, "data": {"phone": "+91987654321"}});
        let body = json!({"Type": "Notification", "MessageId": "sns-1", "Message": inner.to_string()}).to_string();
        let info = b.inspect(&body, "msg-1");
        assert_eq!(&*info.event_id, "evt-4417");
        assert_eq!(info.entity.as_deref(), Some("4417"));
        assert_eq!(info.version, Some(2));
        assert!(info.poison);
        assert_eq!(&*b.inspect("not json", "msg-9").event_id, "msg-9");
    }

    #[test]
    fn spans_draw_within_their_range() {
        let s = Span::parse(&json!({"Min": "1s", "Max": "2s"}), "ProcessingTime").unwrap();
        let mut rng = Pcg32::new(3);
        assert!((0..100).map(|_| s.draw(&mut rng)).all(|d| (1000..=2000).contains(&d)));
        assert!(Span::parse(&json!({"Min": "3s", "Max": "2s"}), "ProcessingTime").is_err());
    }
}
