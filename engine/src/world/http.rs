//! Simulated HTTP/S endpoints: webhooks an SNS topic can deliver to (`Subscribe` with protocol
//! `http` or `https` and the endpoint's URL). Like a dependency, an endpoint has a latency, an
//! error rate, a `Down` switch and a schedule of windows that change them, so a server-side
//! outage can be drawn on the timeline and SNS's retries watched. `DescribeHttpEndpoint` lists
//! the requests it received, with when and what it answered.
//!
//! SNS developer guide, "Step 1: Prepare your HTTP/S endpoint": an endpoint that answers a status
//! "outside the range 200–4xx", or does not answer within about 15 seconds, fails the delivery
//! and SNS retries it; any 2xx, 3xx or 4xx answer ends the delivery. Simplified: the endpoint
//! confirms a subscription at once (it would fetch the `SubscribeURL` of the
//! `SubscriptionConfirmation` message), and that request always succeeds.
// Its actions are in the table only with the `extra-routes` feature (see `actions::ROUTE_ACTIONS`).
#![cfg_attr(not(feature = "extra-routes"), allow(dead_code))]

use super::dependency::{conditions_at, parse_window, Conditions, Window};
use super::spec::{self, has, invalid, opt_probability, Span};
use super::WorldEvent;
use crate::error::ApiResult;
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::{SimTime, SECOND};
use serde::Serialize;
use serde_json::{json, Value};

/// The parameters CreateHttpEndpoint and UpdateHttpEndpoint take.
pub(crate) const HTTP_ENDPOINT_KEYS: &[&str] =
    &["EndpointName", "Url", "Latency", "ErrorRate", "Down", "ErrorStatus", "Schedule"];

/// SNS waits about 15 seconds for an HTTP/S endpoint's answer.
pub const SNS_HTTP_TIMEOUT_MS: u64 = 15 * SECOND;
/// The requests an endpoint remembers for `DescribeHttpEndpoint` (the oldest fall off).
const MAX_REQUESTS: usize = 500;

/// One request an endpoint received.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HttpRequest {
    pub received_at: SimTime,
    /// `x-amz-sns-message-type`: `Notification` or `SubscriptionConfirmation`.
    pub message_type: &'static str,
    pub message_id: String,
    /// The status it answered; `None` when it refused the connection or did not answer in time.
    pub status: Option<u16>,
    pub outcome: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct HttpStats {
    pub requests: u64,
    /// Answers SNS counts as delivered (2xx to 4xx).
    pub accepted: u64,
    pub failed: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct HttpEndpoint {
    pub name: Name,
    pub url: String,
    pub base: Conditions,
    pub schedule: Vec<Window>,
    /// The status of an error answer (`ErrorRate`): 500 by default.
    pub error_status: u16,
    pub requests: Vec<HttpRequest>,
    pub stats: HttpStats,
}

/// What an endpoint answers SNS: when, with which status, and whether SNS counts it delivered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HttpAnswer {
    pub at: SimTime,
    pub status: Option<u16>,
    pub delivered: bool,
    pub reason: String,
}

/// The snapshot's picture of an endpoint: its conditions now and what it received.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HttpEndpointView {
    pub name: String,
    pub url: String,
    pub down: bool,
    pub error_rate_ppm: u32,
    pub requests: u64,
    pub accepted: u64,
    pub failed: u64,
}

fn configured(mut e: HttpEndpoint, p: &Params) -> ApiResult<HttpEndpoint> {
    if let Some(url) = p.opt_str("Url")? {
        check_url(url)?;
        e.url = url.to_string();
    }
    if let Some(v) = p.raw("Latency") {
        e.base.latency = Span::parse(v, "Latency")?;
    }
    if let Some(ppm) = opt_probability(p, "ErrorRate")? {
        e.base.error_ppm = ppm;
    }
    if let Some(down) = p.opt_bool("Down")? {
        e.base.down = down;
    }
    if let Some(s) = p.opt_int("ErrorStatus", 100, 599)? {
        e.error_status = s as u16;
    }
    if has(p, "Schedule") {
        let entries = p.object_list("Schedule")?;
        if entries.len() > 50 {
            return Err(invalid("Schedule takes at most 50 entries"));
        }
        e.schedule = entries.into_iter().map(parse_window).collect::<ApiResult<_>>()?;
    }
    Ok(e)
}

fn check_url(url: &str) -> ApiResult<()> {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(r) if !r.is_empty() && url.len() <= 2048 && !url.chars().any(char::is_whitespace) => Ok(()),
        _ => Err(invalid(format!("Url \"{url}\" must be an http:// or https:// URL without spaces"))),
    }
}

impl Sim {
    fn endpoint_ref(&self, p: &Params) -> ApiResult<Name> {
        let name = p.str("EndpointName")?;
        self.world
            .http_endpoints
            .get_key_value(name)
            .map(|(k, _)| k.clone())
            .ok_or_else(|| spec::not_found("HttpEndpoint", name))
    }

    fn url_taken(&self, url: &str, by_other_than: &str) -> ApiResult<()> {
        match self.world.http_endpoints.values().find(|e| e.url == url && &*e.name != by_other_than) {
            Some(e) => Err(spec::conflict("HttpEndpoint with the Url", &format!("{url} ({})", e.name))),
            None => Ok(()),
        }
    }

    /// `CreateHttpEndpoint`: a webhook at `Url` (default `https://NAME.example.com/sns`).
    pub(crate) fn create_http_endpoint(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("EndpointName")?;
        if !crate::ids::valid_resource_name(name, 80) {
            return Err(invalid(format!(
                "EndpointName \"{name}\": use 1 to 80 letters, digits, hyphens and underscores"
            )));
        }
        if self.world.http_endpoints.contains_key(name) {
            return Err(spec::conflict("HttpEndpoint", name));
        }
        let base = Conditions { latency: Span::fixed(50), error_ppm: 0, down: false, capacity: None };
        let blank = HttpEndpoint {
            name: name.into(),
            url: format!("https://{name}.example.com/sns"),
            base,
            schedule: Vec::new(),
            error_status: 500,
            requests: Vec::new(),
            stats: HttpStats::default(),
        };
        let e = configured(blank, p)?;
        self.url_taken(&e.url, name)?;
        let url = e.url.clone();
        self.world.http_endpoints.insert(e.name.clone(), e);
        self.ensure_ticking();
        self.emit(EventKind::World(WorldEvent::HttpEndpointCreated { endpoint: name.into(), url: url.clone() }));
        Ok(json!({ "EndpointName": name, "Url": url }))
    }

    /// `UpdateHttpEndpoint`: changes its conditions (or its whole schedule) from now on.
    pub(crate) fn update_http_endpoint(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.endpoint_ref(p)?;
        let e = configured(self.world.http_endpoints[&key].clone(), p)?;
        self.url_taken(&e.url, &key)?;
        self.world.http_endpoints.insert(key.clone(), e);
        let settings = HTTP_ENDPOINT_KEYS[1..].iter().filter(|k| has(p, k)).map(|k| k.to_string()).collect();
        self.emit(EventKind::World(WorldEvent::HttpEndpointUpdated { endpoint: key, settings }));
        Ok(json!({}))
    }

    pub(crate) fn delete_http_endpoint(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.endpoint_ref(p)?;
        self.world.http_endpoints.remove(&key);
        self.emit(EventKind::World(WorldEvent::HttpEndpointDeleted { endpoint: key }));
        Ok(json!({}))
    }

    /// `DescribeHttpEndpoint`: its conditions now, its counts, and the requests it received
    /// (`ReceivedAtMs` is virtual time in milliseconds).
    pub(crate) fn describe_http_endpoint(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.endpoint_ref(p)?;
        let e = &self.world.http_endpoints[&key];
        let now = conditions_at(e.base, &e.schedule, self.now);
        let requests: Vec<Value> = e
            .requests
            .iter()
            .map(|r| {
                json!({
                    "ReceivedAtMs": r.received_at.0,
                    "ReceivedAt": r.received_at.to_string(),
                    "Type": r.message_type,
                    "MessageId": r.message_id,
                    "Status": r.status,
                    "Outcome": r.outcome,
                })
            })
            .collect();
        Ok(json!({
            "EndpointName": &*e.name,
            "Url": e.url,
            "Latency": now.latency.describe(),
            "ErrorRatePpm": now.error_ppm,
            "Down": now.down,
            "ErrorStatus": e.error_status,
            "Stats": { "Requests": e.stats.requests, "Accepted": e.stats.accepted, "Failed": e.stats.failed },
            "Requests": requests,
        }))
    }

    /// The endpoint that serves `url`, if the playground simulates one.
    pub(crate) fn http_endpoint_at(&self, url: &str) -> Option<Name> {
        self.world.http_endpoints.values().find(|e| e.url == url).map(|e| e.name.clone())
    }

    /// The endpoint receives a subscription confirmation and confirms (always, at once).
    pub(crate) fn http_confirm(&mut self, endpoint: &Name, message_id: &str) {
        let now = self.now;
        if let Some(e) = self.world.http_endpoints.get_mut(endpoint) {
            e.stats.requests += 1;
            e.stats.accepted += 1;
            push_request(
                e,
                HttpRequest {
                    received_at: now,
                    message_type: "SubscriptionConfirmation",
                    message_id: message_id.to_string(),
                    status: Some(200),
                    outcome: "200: confirmed the subscription".into(),
                },
            );
        }
    }

    /// SNS posts a notification to `url` now: what the endpoint answers, and when. No endpoint
    /// there, or one that is down, refuses the connection at once; one slower than 15 s times out.
    pub(crate) fn http_post(&mut self, url: &str, message_id: &str) -> HttpAnswer {
        let now = self.now;
        let Some(key) = self.http_endpoint_at(url) else {
            return HttpAnswer {
                at: now,
                status: None,
                delivered: false,
                reason: format!("connection refused: no server at {url}"),
            };
        };
        let e = &self.world.http_endpoints[&key];
        let c = conditions_at(e.base, &e.schedule, now);
        let error_status = e.error_status;
        let answer = if c.down {
            HttpAnswer {
                at: now,
                status: None,
                delivered: false,
                reason: "connection refused (the endpoint is down)".into(),
            }
        } else {
            let latency = c.latency.draw(&mut self.rng);
            let error = self.rng.chance_ppm(c.error_ppm);
            if latency > SNS_HTTP_TIMEOUT_MS {
                let at = now.plus_ms(SNS_HTTP_TIMEOUT_MS);
                HttpAnswer { at, status: None, delivered: false, reason: "no answer within 15 s (timed out)".into() }
            } else {
                let status = if error { error_status } else { 200 };
                let delivered = (200..500).contains(&status);
                let reason = if delivered {
                    format!("answered {status}")
                } else {
                    format!("answered {status} (a server-side error)")
                };
                HttpAnswer { at: now.plus_ms(latency), status: Some(status), delivered, reason }
            }
        };
        let e = self.world.http_endpoints.get_mut(&key).expect("invariant: looked up above");
        e.stats.requests += 1;
        if answer.delivered {
            e.stats.accepted += 1;
        } else {
            e.stats.failed += 1;
        }
        push_request(
            e,
            HttpRequest {
                received_at: now,
                message_type: "Notification",
                message_id: message_id.to_string(),
                status: answer.status,
                outcome: answer.reason.clone(),
            },
        );
        answer
    }

    pub(crate) fn http_endpoint_views(&self) -> Vec<HttpEndpointView> {
        self.world
            .http_endpoints
            .values()
            .map(|e| {
                let c = conditions_at(e.base, &e.schedule, self.now);
                HttpEndpointView {
                    name: e.name.to_string(),
                    url: e.url.clone(),
                    down: c.down,
                    error_rate_ppm: c.error_ppm,
                    requests: e.stats.requests,
                    accepted: e.stats.accepted,
                    failed: e.stats.failed,
                }
            })
            .collect()
    }
}

fn push_request(e: &mut HttpEndpoint, r: HttpRequest) {
    if e.requests.len() >= MAX_REQUESTS {
        e.requests.remove(0);
    }
    e.requests.push(r);
}
