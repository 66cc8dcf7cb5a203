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
//!
//! The same table holds the far ends of SNS's customer managed protocols (`recipient.rs`): a
//! mailbox (`email`, `email-json`), a phone (`sms`) and a device (`application`, mobile push),
//! each with the same conditions, so the short retry schedule of those protocols can be watched.
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
use std::sync::Arc;

/// The parameters CreateHttpEndpoint and UpdateHttpEndpoint take.
pub(crate) const HTTP_ENDPOINT_KEYS: &[&str] =
    &["EndpointName", "Url", "Latency", "ErrorRate", "Down", "ErrorStatus", "Schedule"];

/// SNS waits about 15 seconds for an HTTP/S endpoint's answer.
pub const SNS_HTTP_TIMEOUT_MS: u64 = 15 * SECOND;
/// The requests an endpoint remembers for `DescribeHttpEndpoint` (the oldest fall off).
const MAX_REQUESTS: usize = 500;

/// What a simulated endpoint is: the far end of which SNS protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EndpointKind {
    /// A webhook: `http` and `https` (`CreateHttpEndpoint`).
    Webhook,
    /// An e-mail address: `email` and `email-json` (`CreateRecipient`).
    Mailbox,
    /// A phone number: `sms`.
    Phone,
    /// A mobile app's platform endpoint: `application` (mobile push).
    Device,
}

impl EndpointKind {
    /// The kind of endpoint a subscription's protocol delivers to; `None` for a queue or a
    /// function (and a protocol the playground does not simulate).
    pub fn of_protocol(protocol: &str) -> Option<EndpointKind> {
        match protocol {
            "http" | "https" => Some(EndpointKind::Webhook),
            "email" | "email-json" => Some(EndpointKind::Mailbox),
            "sms" => Some(EndpointKind::Phone),
            "application" => Some(EndpointKind::Device),
            _ => None,
        }
    }

    /// What it is, in a word: "webhook", "mailbox", "phone", "device".
    pub fn noun(self) -> &'static str {
        match self {
            EndpointKind::Webhook => "webhook",
            EndpointKind::Mailbox => "mailbox",
            EndpointKind::Phone => "phone",
            EndpointKind::Device => "device",
        }
    }
}

/// One request an endpoint received.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HttpRequest {
    pub received_at: SimTime,
    /// `x-amz-sns-message-type`: `Notification` or `SubscriptionConfirmation`.
    pub message_type: &'static str,
    pub message_id: String,
    /// The status it answered; `None` when it refused the connection or did not answer in time
    /// (and always for a mailbox, a phone or a device, which answer no HTTP status).
    pub status: Option<u16>,
    pub outcome: String,
    /// What a mailbox, a phone or a device received (the text, or the JSON of `email-json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<Arc<str>>,
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
    pub kind: EndpointKind,
    /// Where it is reached: the URL of a webhook, the e-mail address, phone number or platform
    /// endpoint ARN of a recipient (a subscription's `Endpoint`).
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
    pub kind: EndpointKind,
    /// The URL, e-mail address, phone number or endpoint ARN.
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
    if let Some(s) = p.opt_int("ErrorStatus", 100, 599)? {
        e.error_status = s as u16;
    }
    with_conditions(e, p)
}

/// Sets what any simulated endpoint has: `Latency`, `ErrorRate`, `Down` and `Schedule`.
pub(super) fn with_conditions(mut e: HttpEndpoint, p: &Params) -> ApiResult<HttpEndpoint> {
    if let Some(v) = p.raw("Latency") {
        e.base.latency = Span::parse(v, "Latency")?;
    }
    if let Some(ppm) = opt_probability(p, "ErrorRate")? {
        e.base.error_ppm = ppm;
    }
    if let Some(down) = p.opt_bool("Down")? {
        e.base.down = down;
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

/// A new endpoint of `kind` at `url`, up, answering in 50 ms, with no schedule.
pub(super) fn blank(name: &str, kind: EndpointKind, url: String) -> HttpEndpoint {
    HttpEndpoint {
        name: name.into(),
        kind,
        url,
        base: Conditions { latency: Span::fixed(50), error_ppm: 0, down: false, capacity: None },
        schedule: Vec::new(),
        error_status: 500,
        requests: Vec::new(),
        stats: HttpStats::default(),
    }
}

impl Sim {
    /// The name of the endpoint `p` names under `key` (`EndpointName`, `RecipientName`), if it
    /// is a webhook (`webhook`) or a recipient (`!webhook`).
    pub(super) fn endpoint_named(&self, p: &Params, key: &str, webhook: bool) -> ApiResult<Name> {
        let name = p.str(key)?;
        let resource = if webhook { "HttpEndpoint" } else { "Recipient" };
        self.world
            .http_endpoints
            .get_key_value(name)
            .filter(|(_, e)| (e.kind == EndpointKind::Webhook) == webhook)
            .map(|(k, _)| k.clone())
            .ok_or_else(|| spec::not_found(resource, name))
    }

    fn endpoint_ref(&self, p: &Params) -> ApiResult<Name> {
        self.endpoint_named(p, "EndpointName", true)
    }

    /// Refuses a second endpoint of the same kind at the same address.
    pub(super) fn url_taken(&self, e: &HttpEndpoint) -> ApiResult<()> {
        let same = |o: &&HttpEndpoint| o.kind == e.kind && o.url == e.url && o.name != e.name;
        match self.world.http_endpoints.values().find(same) {
            Some(o) if e.kind == EndpointKind::Webhook => {
                Err(spec::conflict("HttpEndpoint with the Url", &format!("{} ({})", e.url, o.name)))
            }
            Some(o) => Err(spec::conflict("Recipient with the Endpoint", &format!("{} ({})", e.url, o.name))),
            None => Ok(()),
        }
    }

    /// Stores a new endpoint (a webhook or a recipient), refusing a taken name or address.
    pub(super) fn add_endpoint(&mut self, e: HttpEndpoint) -> ApiResult<()> {
        if self.world.http_endpoints.contains_key(e.name.as_ref()) {
            let resource = if e.kind == EndpointKind::Webhook { "HttpEndpoint" } else { "Recipient" };
            return Err(spec::conflict(resource, &e.name));
        }
        self.url_taken(&e)?;
        self.world.http_endpoints.insert(e.name.clone(), e);
        self.ensure_ticking();
        Ok(())
    }

    /// `CreateHttpEndpoint`: a webhook at `Url` (default `https://NAME.example.com/sns`).
    pub(crate) fn create_http_endpoint(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("EndpointName")?;
        if !crate::ids::valid_resource_name(name, 80) {
            return Err(invalid(format!(
                "EndpointName \"{name}\": use 1 to 80 letters, digits, hyphens and underscores"
            )));
        }
        let e = configured(blank(name, EndpointKind::Webhook, format!("https://{name}.example.com/sns")), p)?;
        let url = e.url.clone();
        self.add_endpoint(e)?;
        self.emit(EventKind::World(WorldEvent::HttpEndpointCreated { endpoint: name.into(), url: url.clone() }));
        Ok(json!({ "EndpointName": name, "Url": url }))
    }

    /// `UpdateHttpEndpoint`: changes its conditions (or its whole schedule) from now on.
    pub(crate) fn update_http_endpoint(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.endpoint_ref(p)?;
        let e = configured(self.world.http_endpoints[&key].clone(), p)?;
        self.url_taken(&e)?;
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
        Ok(json!({
            "EndpointName": &*e.name,
            "Url": e.url,
            "Latency": now.latency.describe(),
            "ErrorRatePpm": now.error_ppm,
            "Down": now.down,
            "ErrorStatus": e.error_status,
            "Stats": { "Requests": e.stats.requests, "Accepted": e.stats.accepted, "Failed": e.stats.failed },
            "Requests": requests_json(e),
        }))
    }

    /// The endpoint of `kind` that serves `address`, if the playground simulates one.
    pub(crate) fn endpoint_at(&self, kind: EndpointKind, address: &str) -> Option<Name> {
        self.world.http_endpoints.values().find(|e| e.kind == kind && e.url == address).map(|e| e.name.clone())
    }

    /// The endpoint receives a subscription confirmation and confirms (always, at once): a
    /// webhook visits the `SubscribeURL`, a mailbox's owner follows the link in the e-mail.
    pub(crate) fn http_confirm(&mut self, endpoint: &Name, message_id: &str) {
        let now = self.now;
        if let Some(e) = self.world.http_endpoints.get_mut(endpoint) {
            e.stats.requests += 1;
            e.stats.accepted += 1;
            let webhook = e.kind == EndpointKind::Webhook;
            push_request(
                e,
                HttpRequest {
                    received_at: now,
                    message_type: "SubscriptionConfirmation",
                    message_id: message_id.to_string(),
                    status: webhook.then_some(200),
                    outcome: if webhook { "200: confirmed the subscription" } else { "followed the link: confirmed" }
                        .into(),
                    text: None,
                },
            );
        }
    }

    /// SNS posts a notification to `url` now: what the endpoint answers, and when. No endpoint
    /// there, or one that is down, refuses the connection at once; one slower than 15 s times out.
    pub(crate) fn http_post(&mut self, url: &str, message_id: &str) -> HttpAnswer {
        let now = self.now;
        let key = self.endpoint_at(EndpointKind::Webhook, url);
        let Some(key) = key else {
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
        self.record_answer(&key, message_id, &answer, None);
        answer
    }

    /// The endpoint notes a notification it received and what it answered.
    pub(super) fn record_answer(&mut self, key: &Name, message_id: &str, answer: &HttpAnswer, text: Option<Arc<str>>) {
        let e = self.world.http_endpoints.get_mut(key).expect("invariant: the caller looked it up");
        e.stats.requests += 1;
        if answer.delivered {
            e.stats.accepted += 1;
        } else {
            e.stats.failed += 1;
        }
        push_request(
            e,
            HttpRequest {
                received_at: self.now,
                message_type: "Notification",
                message_id: message_id.to_string(),
                status: answer.status,
                outcome: answer.reason.clone(),
                text,
            },
        );
    }

    pub(crate) fn http_endpoint_views(&self) -> Vec<HttpEndpointView> {
        self.world
            .http_endpoints
            .values()
            .map(|e| {
                let c = conditions_at(e.base, &e.schedule, self.now);
                HttpEndpointView {
                    name: e.name.to_string(),
                    kind: e.kind,
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

/// What an endpoint received, oldest first, for its Describe action.
pub(super) fn requests_json(e: &HttpEndpoint) -> Vec<Value> {
    let one = |r: &HttpRequest| {
        let mut v = json!({
            "ReceivedAtMs": r.received_at.0,
            "ReceivedAt": r.received_at.to_string(),
            "Type": r.message_type,
            "MessageId": r.message_id,
            "Status": r.status,
            "Outcome": r.outcome,
        });
        if let Some(text) = &r.text {
            v["Text"] = Value::from(&**text);
        }
        v
    };
    e.requests.iter().map(one).collect()
}

pub(super) fn push_request(e: &mut HttpEndpoint, r: HttpRequest) {
    if e.requests.len() >= MAX_REQUESTS {
        e.requests.remove(0);
    }
    e.requests.push(r);
}
