//! SNS delivery policies: how SNS retries a copy after a server-side error.
//!
//! SNS developer guide, "Amazon SNS message delivery retries": a delivery policy has four phases
//! after the first attempt — immediate retries (no delay), pre-backoff retries (the minimum delay
//! apart), backoff retries (from the minimum to the maximum delay by a backoff function:
//! arithmetic, exponential, geometric or linear), post-backoff retries (the maximum delay apart).
//! "With the exception of HTTP/S, you can't change Amazon SNS-defined delivery policies":
//! - AWS managed endpoints (Amazon SQS, AWS Lambda): 3 immediate, 2 pre-backoff 1 second apart,
//!   10 backoff with exponential backoff from 1 to 20 seconds, 100,000 post-backoff 20 seconds
//!   apart: "100,015 times, over 23 days" (the guide counts the retries; with the first attempt
//!   a copy is tried 100,016 times).
//! - HTTP/S: customisable with `DeliveryPolicy` (`healthyRetryPolicy`: `minDelayTarget` 1 to
//!   the maximum delay, default 20 s; `maxDelayTarget` up to 3,600 s, default 20; `numRetries`
//!   0 to 100, default 3; `numNoDelayRetries`, `numMinDelayRetries`, `numMaxDelayRetries` 0 or
//!   more, default 0; `backoffFunction` default linear; `throttlePolicy.maxReceivesPerSecond` 1
//!   or more, default no throttling). The backoff phase has
//!   `numRetries - numNoDelayRetries - numMinDelayRetries - numMaxDelayRetries` retries: the
//!   first waits `minDelayTarget`, the last `maxDelayTarget`. "The total policy retry time for an
//!   HTTP/S endpoint cannot be greater than 3,600 seconds."
//! - Customer managed endpoints (SMTP, that is `email` and `email-json`; SMS; mobile push, that is
//!   `application`): no immediate retry, 2 pre-backoff 10 seconds apart, 10 backoff with
//!   exponential backoff from 10 to 600 seconds, 38 post-backoff 600 seconds apart: "50 attempts,
//!   over 6 hours" (again the retries: 0 + 2 + 10 + 38; with the first attempt a copy is tried 51
//!   times, over about 6.7 hours of waits).
//!
//! Chosen where the guide shows only a graph: the backoff delays between the first and the last
//! backoff retry. With `k` from 0 (first) to `n - 1` (last): linear adds the same step each
//! time; arithmetic adds a step that grows by the same amount each time (a parabola); geometric
//! multiplies by the same ratio each time; exponential grows as `2^k` scaled to end at the
//! maximum. Integer arithmetic only (the geometric ratio is found by bisection in fixed point).
//! Also chosen: no jitter (the guide says SNS applies jitter), so every attempt time is the one
//! the policy predicts; a policy whose total retry time is over 3,600 s is refused.

use crate::time::SECOND;
use serde_json::{json, Map, Value};

/// A backoff function of the backoff phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backoff {
    Linear,
    Arithmetic,
    Geometric,
    Exponential,
}

impl Backoff {
    fn parse(text: &str) -> Option<Backoff> {
        match text {
            "linear" => Some(Backoff::Linear),
            "arithmetic" => Some(Backoff::Arithmetic),
            "geometric" => Some(Backoff::Geometric),
            "exponential" => Some(Backoff::Exponential),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Backoff::Linear => "linear",
            Backoff::Arithmetic => "arithmetic",
            Backoff::Geometric => "geometric",
            Backoff::Exponential => "exponential",
        }
    }
}

/// The retry schedule of one endpoint type: the `healthyRetryPolicy` of SNS's documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    pub min_delay_s: u32,
    pub max_delay_s: u32,
    pub num_retries: u32,
    pub num_no_delay: u32,
    pub num_min_delay: u32,
    pub num_max_delay: u32,
    pub backoff: Backoff,
}

/// The one policy of SQS and Lambda endpoints.
pub const AWS_MANAGED: RetryPolicy = RetryPolicy {
    min_delay_s: 1,
    max_delay_s: 20,
    num_retries: 100_015,
    num_no_delay: 3,
    num_min_delay: 2,
    num_max_delay: 100_000,
    backoff: Backoff::Exponential,
};

/// The one policy of email, SMS and mobile push endpoints (SNS calls them customer managed).
pub const CUSTOMER_MANAGED: RetryPolicy = RetryPolicy {
    min_delay_s: 10,
    max_delay_s: 600,
    num_retries: 50,
    num_no_delay: 0,
    num_min_delay: 2,
    num_max_delay: 38,
    backoff: Backoff::Exponential,
};

/// HTTP/S without a `DeliveryPolicy`: "up to three retries with a delay between failed attempts
/// set at 20 seconds".
pub const HTTP_DEFAULT: RetryPolicy = RetryPolicy {
    min_delay_s: 20,
    max_delay_s: 20,
    num_retries: 3,
    num_no_delay: 0,
    num_min_delay: 0,
    num_max_delay: 0,
    backoff: Backoff::Linear,
};

/// "The total policy retry time for an HTTP/S endpoint cannot be greater than 3,600 seconds."
pub const MAX_HTTP_RETRY_TIME_S: u64 = 3_600;

impl RetryPolicy {
    fn backoff_count(&self) -> u32 {
        self.num_retries - self.num_no_delay - self.num_min_delay - self.num_max_delay
    }

    /// The wait before retry `n` (1 for the first retry), in milliseconds; `None` once the
    /// policy is exhausted.
    pub fn delay_before_retry(&self, n: u32) -> Option<u64> {
        if n == 0 || n > self.num_retries {
            return None;
        }
        let (min, max) = (u64::from(self.min_delay_s) * SECOND, u64::from(self.max_delay_s) * SECOND);
        let mut k = n - 1;
        if k < self.num_no_delay {
            return Some(0);
        }
        k -= self.num_no_delay;
        if k < self.num_min_delay {
            return Some(min);
        }
        k -= self.num_min_delay;
        let backoff = self.backoff_count();
        if k < backoff {
            return Some(backoff_delay(self.backoff, min, max, k, backoff));
        }
        Some(max)
    }

    /// The sum of every retry's delay, in milliseconds.
    pub fn total_retry_ms(&self) -> u64 {
        let (min, max) = (u64::from(self.min_delay_s) * SECOND, u64::from(self.max_delay_s) * SECOND);
        let b = self.backoff_count();
        let backoff: u64 = (0..b).map(|k| backoff_delay(self.backoff, min, max, k, b)).sum();
        u64::from(self.num_min_delay) * min + backoff + u64::from(self.num_max_delay) * max
    }

    /// The policy in SNS's JSON shape, every field given (`EffectiveDeliveryPolicy`).
    pub fn json(&self) -> Value {
        json!({
            "minDelayTarget": self.min_delay_s,
            "maxDelayTarget": self.max_delay_s,
            "numRetries": self.num_retries,
            "numMaxDelayRetries": self.num_max_delay,
            "numNoDelayRetries": self.num_no_delay,
            "numMinDelayRetries": self.num_min_delay,
            "backoffFunction": self.backoff.as_str(),
        })
    }
}

/// The delay of backoff retry `k` of `n`, from `min` (k = 0) to `max` (k = n - 1).
fn backoff_delay(f: Backoff, min: u64, max: u64, k: u32, n: u32) -> u64 {
    if n <= 1 || k == 0 {
        return min;
    }
    if k >= n - 1 {
        return max;
    }
    let span = u128::from(max - min);
    let (k, last) = (u128::from(k), u128::from(n - 1));
    let step = match f {
        Backoff::Linear => span * k / last,
        Backoff::Arithmetic => span * k * (k + 1) / (last * (last + 1)),
        Backoff::Exponential => span * ((1u128 << k) - 1) / ((1u128 << last) - 1),
        Backoff::Geometric => return geometric(min, max, k as u32, n - 1),
    };
    min + step as u64
}

const ONE: u128 = 1 << 32;

/// `r^k` in 32.32 fixed point, saturating at `cap`.
fn pow_fixed(r: u128, k: u32, cap: u128) -> u128 {
    let mut acc = ONE;
    for _ in 0..k {
        acc = (acc * r) >> 32;
        if acc > cap {
            return cap;
        }
    }
    acc
}

/// `min * r^k` where `r^last = max / min`: the ratio found by bisection.
fn geometric(min: u64, max: u64, k: u32, last: u32) -> u64 {
    let target = (u128::from(max) << 32) / u128::from(min.max(1));
    let cap = target * 2;
    let (mut lo, mut hi) = (ONE, target + 1);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if pow_fixed(mid, last, cap) <= target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    ((u128::from(min) * pow_fixed(lo, k, cap)) >> 32) as u64
}

/// A subscription's HTTP/S `DeliveryPolicy`, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpDeliveryPolicy {
    pub retry: RetryPolicy,
    pub max_receives_per_second: Option<u32>,
    pub header_content_type: Option<String>,
}

fn whole(map: &Map<String, Value>, key: &str, default: u32, max: u64) -> Result<u32, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(n as u32),
            _ => Err(format!("{key} must be a whole number from 0 to {max}, not {v}")),
        },
    }
}

/// Reads `healthyRetryPolicy` (absent: the HTTP default) as SNS checks it.
fn healthy(value: Option<&Value>) -> Result<RetryPolicy, String> {
    let Some(value) = value.filter(|v| !v.is_null()) else { return Ok(HTTP_DEFAULT) };
    let Value::Object(m) = value else { return Err("healthyRetryPolicy must be an object".into()) };
    const KEYS: &[&str] = &[
        "minDelayTarget",
        "maxDelayTarget",
        "numRetries",
        "numNoDelayRetries",
        "numMinDelayRetries",
        "numMaxDelayRetries",
        "backoffFunction",
    ];
    if let Some(k) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("healthyRetryPolicy has no field {k}; it takes {}", KEYS.join(", ")));
    }
    let limit = MAX_HTTP_RETRY_TIME_S;
    let policy = RetryPolicy {
        min_delay_s: whole(m, "minDelayTarget", 20, limit)?,
        max_delay_s: whole(m, "maxDelayTarget", 20, limit)?,
        num_retries: whole(m, "numRetries", 3, 100)?,
        num_no_delay: whole(m, "numNoDelayRetries", 0, 100)?,
        num_min_delay: whole(m, "numMinDelayRetries", 0, 100)?,
        num_max_delay: whole(m, "numMaxDelayRetries", 0, 100)?,
        backoff: match m.get("backoffFunction") {
            None | Some(Value::Null) => Backoff::Linear,
            Some(Value::String(s)) => Backoff::parse(s).ok_or_else(|| {
                format!("backoffFunction \"{s}\" is not one of linear, arithmetic, geometric, exponential")
            })?,
            Some(v) => return Err(format!("backoffFunction must be a string, not {v}")),
        },
    };
    if policy.min_delay_s < 1 || policy.min_delay_s > policy.max_delay_s {
        return Err(format!(
            "minDelayTarget must be from 1 to maxDelayTarget ({}), not {}",
            policy.max_delay_s, policy.min_delay_s
        ));
    }
    let phases = policy.num_no_delay + policy.num_min_delay + policy.num_max_delay;
    if phases > policy.num_retries {
        return Err(format!(
            "numNoDelayRetries + numMinDelayRetries + numMaxDelayRetries ({phases}) must not be more than numRetries ({})",
            policy.num_retries
        ));
    }
    let total = policy.total_retry_ms() / SECOND;
    if total > limit {
        return Err(format!("the policy's retries take {total} seconds in all; the limit is {limit} seconds"));
    }
    Ok(policy)
}

impl HttpDeliveryPolicy {
    /// Reads a subscription's `DeliveryPolicy`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<HttpDeliveryPolicy, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("failed to parse JSON ({e})"))?;
        let Value::Object(m) = v else { return Err("must be a JSON object".into()) };
        const KEYS: &[&str] =
            &["healthyRetryPolicy", "sicklyRetryPolicy", "throttlePolicy", "requestPolicy", "guaranteed"];
        if let Some(k) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!("unknown field {k}; a delivery policy has {}", KEYS.join(", ")));
        }
        let retry = healthy(m.get("healthyRetryPolicy"))?;
        let max_receives_per_second = match m.get("throttlePolicy").filter(|v| !v.is_null()) {
            None => None,
            Some(Value::Object(t)) => match t.get("maxReceivesPerSecond") {
                None | Some(Value::Null) => None,
                Some(v) => match v.as_u64() {
                    Some(n) if (1..=u64::from(u32::MAX)).contains(&n) => Some(n as u32),
                    _ => {
                        return Err(format!(
                            "throttlePolicy.maxReceivesPerSecond must be a whole number of 1 or more, not {v}"
                        ))
                    }
                },
            },
            Some(_) => return Err("throttlePolicy must be an object".into()),
        };
        let header_content_type = match m.get("requestPolicy").filter(|v| !v.is_null()) {
            None => None,
            Some(r) => match r.get("headerContentType") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => return Err("requestPolicy.headerContentType must be a string".into()),
            },
        };
        Ok(HttpDeliveryPolicy { retry, max_receives_per_second, header_content_type })
    }

    /// `EffectiveDeliveryPolicy` as SNS returns it for an HTTP/S subscription.
    pub fn effective_json(policy: Option<&HttpDeliveryPolicy>) -> Value {
        let retry = policy.map_or(HTTP_DEFAULT, |p| p.retry);
        let throttle = policy
            .and_then(|p| p.max_receives_per_second)
            .map_or(Value::Null, |n| json!({ "maxReceivesPerSecond": n }));
        let content = policy.and_then(|p| p.header_content_type.clone()).unwrap_or("text/plain; charset=UTF-8".into());
        json!({
            "healthyRetryPolicy": retry.json(),
            "sicklyRetryPolicy": null,
            "throttlePolicy": throttle,
            "requestPolicy": { "headerContentType": content },
            "guaranteed": false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delays(p: &RetryPolicy, n: u32) -> Vec<u64> {
        (1..=n).map(|i| p.delay_before_retry(i).unwrap() / SECOND).collect()
    }

    #[test]
    fn the_aws_managed_policy_has_its_four_phases() {
        let d = delays(&AWS_MANAGED, 17);
        assert_eq!(&d[..5], &[0, 0, 0, 1, 1], "3 immediate, 2 pre-backoff 1 s apart");
        assert_eq!((d[5], d[14]), (1, 20), "the backoff phase runs from 1 s to 20 s");
        assert!(d[5..15].windows(2).all(|w| w[0] <= w[1]));
        assert_eq!((d[15], d[16]), (20, 20), "post-backoff 20 s apart");
        assert_eq!(AWS_MANAGED.delay_before_retry(100_015), Some(20 * SECOND));
        assert_eq!(AWS_MANAGED.delay_before_retry(100_016), None);
        let days = AWS_MANAGED.total_retry_ms() / crate::time::DAY;
        assert_eq!(days, 23, "100,015 retries over 23 days");
    }

    #[test]
    fn the_customer_managed_policy_makes_fifty_retries_over_six_hours() {
        // SNS docs, "Amazon SNS message delivery retries": SMTP, SMS and mobile push get no
        // immediate retry, 2 pre-backoff 10 s apart, 10 backoff retries from 10 s to 600 s,
        // 38 post-backoff 600 s apart: 50 attempts over 6 hours.
        let d = delays(&CUSTOMER_MANAGED, 50);
        assert_eq!(&d[..2], &[10, 10], "no immediate retry; 2 pre-backoff 10 s apart");
        assert_eq!((d[2], d[11]), (10, 600), "the backoff phase runs from 10 s to 600 s");
        assert!(d[2..12].windows(2).all(|w| w[0] <= w[1]), "{d:?}");
        assert!(d[12..].iter().all(|&s| s == 600), "38 post-backoff retries 10 minutes apart");
        assert_eq!(d[12..].len(), 38);
        assert_eq!(CUSTOMER_MANAGED.delay_before_retry(51), None, "50 retries, then the end");
        let hours = CUSTOMER_MANAGED.total_retry_ms() / crate::time::HOUR;
        assert_eq!(hours, 6, "over 6 hours");
    }

    #[test]
    fn the_documented_sample_policy_makes_fifty_retries() {
        let p = HttpDeliveryPolicy::parse(
            r#"{"healthyRetryPolicy":{"minDelayTarget":1,"maxDelayTarget":60,"numRetries":50,"numNoDelayRetries":3,
            "numMinDelayRetries":2,"numMaxDelayRetries":35,"backoffFunction":"exponential"},"throttlePolicy":{"maxReceivesPerSecond":10}}"#,
        )
        .unwrap();
        let d = delays(&p.retry, 50);
        assert_eq!(&d[..5], &[0, 0, 0, 1, 1]);
        assert_eq!((d[5], d[14], d[15], d[49]), (1, 60, 60, 60));
        assert_eq!(p.retry.delay_before_retry(51), None);
        assert_eq!(p.max_receives_per_second, Some(10));
    }

    #[test]
    fn each_backoff_function_runs_from_the_minimum_to_the_maximum_in_its_own_shape() {
        let mid = |f: Backoff| backoff_delay(f, 5_000, 260_000, 5, 10);
        for f in [Backoff::Linear, Backoff::Arithmetic, Backoff::Geometric, Backoff::Exponential] {
            assert_eq!(
                (backoff_delay(f, 5_000, 260_000, 0, 10), backoff_delay(f, 5_000, 260_000, 9, 10)),
                (5_000, 260_000)
            );
            let all: Vec<u64> = (0..10).map(|k| backoff_delay(f, 5_000, 260_000, k, 10)).collect();
            assert!(all.windows(2).all(|w| w[0] <= w[1]), "{f:?}: {all:?}");
        }
        assert_eq!(mid(Backoff::Linear), 5_000 + 255_000 * 5 / 9);
        assert!(mid(Backoff::Exponential) < mid(Backoff::Geometric));
        assert!(mid(Backoff::Geometric) < mid(Backoff::Arithmetic));
        assert!(mid(Backoff::Arithmetic) < mid(Backoff::Linear));
        let g: Vec<u64> = (0..10).map(|k| backoff_delay(Backoff::Geometric, 5_000, 260_000, k, 10)).collect();
        let ratio_a = g[2] * 1000 / g[1];
        let ratio_b = g[8] * 1000 / g[7];
        assert!(ratio_a.abs_diff(ratio_b) <= 2, "a geometric series keeps its ratio: {g:?}");
    }

    #[test]
    fn invalid_policies_are_refused_with_the_reason() {
        for (text, why) in [
            (r#"{"healthyRetryPolicy":{"numRetries":101}}"#, "numRetries"),
            (r#"{"healthyRetryPolicy":{"minDelayTarget":30,"maxDelayTarget":20}}"#, "minDelayTarget"),
            (r#"{"healthyRetryPolicy":{"minDelayTarget":0}}"#, "minDelayTarget"),
            (r#"{"healthyRetryPolicy":{"maxDelayTarget":3601}}"#, "maxDelayTarget"),
            (r#"{"healthyRetryPolicy":{"numRetries":2,"numNoDelayRetries":3}}"#, "must not be more than numRetries"),
            (r#"{"healthyRetryPolicy":{"backoffFunction":"cubic"}}"#, "backoffFunction"),
            (r#"{"healthyRetryPolicy":{"numRetries":100,"minDelayTarget":60,"maxDelayTarget":60}}"#, "3600 seconds"),
            (r#"{"throttlePolicy":{"maxReceivesPerSecond":0}}"#, "maxReceivesPerSecond"),
            (r#"{"retryPolicy":{}}"#, "unknown field"),
            ("{", "failed to parse JSON"),
        ] {
            let e = HttpDeliveryPolicy::parse(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
