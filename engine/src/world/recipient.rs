//! Simulated recipients of SNS's customer managed protocols: a mailbox (`email`, `email-json`),
//! a phone (`sms`) and a device (`application`, mobile push). Like an HTTP/S endpoint, a
//! recipient has a latency, an error rate, a `Down` switch and a schedule of windows, so an
//! outage of a carrier or a mail server can be put on the timeline and SNS's retries watched.
//! `DescribeRecipient` lists what it received: when, the text, and what happened.
//!
//! SNS developer guide, "Amazon SNS message delivery retries": these endpoints share one delivery
//! policy that nobody can change (no immediate retry, 2 retries 10 s apart, 10 with exponential
//! backoff from 10 s to 600 s, 38 retries 600 s apart: 50 over about 6 hours); when it is
//! exhausted the copy goes to the subscription's dead-letter queue or is discarded. SNS API
//! reference, `Subscribe`: an e-mail endpoint's owner must confirm the subscription; a phone
//! number and a platform endpoint need no confirmation.
//!
//! Simplified: a mailbox's owner confirms at once (follows the link in the confirmation e-mail);
//! a copy to a number or a device the playground does not simulate counts as delivered (the
//! carrier or the push platform accepted it); SMS spending limits, opt-outs, origination
//! numbers, the SMS sandbox and platform applications' credentials are not modelled; every
//! protocol gets the `default` text of a `MessageStructure: json` message (or its `sqs` entry).
use super::dependency::conditions_at;
use super::http::{blank, with_conditions, EndpointKind, HttpAnswer};
use super::spec::{has, invalid};
use super::WorldEvent;
use crate::error::ApiResult;
use crate::event::EventKind;
use crate::params::Params;
use crate::sim::Sim;
use serde_json::{json, Value};
use std::sync::Arc;

/// The parameters `CreateRecipient` takes; `UpdateRecipient` takes them but `Protocol`.
pub(crate) const RECIPIENT_KEYS: &[&str] =
    &["RecipientName", "Protocol", "Endpoint", "Latency", "ErrorRate", "Down", "Schedule"];
pub(crate) const RECIPIENT_UPDATE_KEYS: &[&str] =
    &["RecipientName", "Endpoint", "Latency", "ErrorRate", "Down", "Schedule"];

/// The protocol a recipient of `kind` is checked as (a mailbox serves `email` and `email-json`).
fn protocol_of(kind: EndpointKind) -> &'static str {
    match kind {
        EndpointKind::Mailbox => "email",
        EndpointKind::Phone => "sms",
        EndpointKind::Device | EndpointKind::Webhook => "application",
    }
}

/// Why a copy did not reach a recipient of `kind` that is down, or that failed it.
fn failure(kind: EndpointKind, down: bool) -> &'static str {
    match (kind, down) {
        (EndpointKind::Mailbox, true) => "server-side error: the mail server did not answer",
        (EndpointKind::Mailbox, false) => "server-side error: the mail server refused it for now",
        (EndpointKind::Phone, true) => "server-side error: the carrier could not reach the phone",
        (EndpointKind::Phone, false) => "server-side error: the carrier failed it",
        (_, true) => "server-side error: the push platform could not reach the device",
        (_, false) => "server-side error: the push platform failed it",
    }
}

impl Sim {
    /// `CreateRecipient`: a mailbox, phone or device at `Endpoint`, reached by `Protocol`.
    pub(crate) fn create_recipient(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("RecipientName")?;
        if !crate::ids::valid_resource_name(name, 80) {
            return Err(invalid(format!(
                "RecipientName \"{name}\": use 1 to 80 letters, digits, hyphens and underscores"
            )));
        }
        let protocol = p.str("Protocol")?;
        let kind = EndpointKind::of_protocol(protocol).filter(|k| *k != EndpointKind::Webhook).ok_or_else(|| {
            invalid(format!(
                "Protocol \"{protocol}\": a recipient is reached by email, email-json, sms or application \
                 (mobile push); make an HTTP/S endpoint with CreateHttpEndpoint"
            ))
        })?;
        let address = p.str("Endpoint")?;
        crate::sns::check_customer_endpoint(protocol, address)?;
        let e = with_conditions(blank(name, kind, address.to_string()), p)?;
        self.add_endpoint(e)?;
        self.emit(EventKind::World(WorldEvent::RecipientCreated {
            recipient: name.into(),
            protocol: protocol.to_string(),
            endpoint: address.to_string(),
        }));
        Ok(json!({ "RecipientName": name, "Endpoint": address }))
    }

    /// `UpdateRecipient`: changes its address or its conditions (or its whole schedule) from now on.
    pub(crate) fn update_recipient(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.endpoint_named(p, "RecipientName", false)?;
        let mut e = self.world.http_endpoints[&key].clone();
        if let Some(address) = p.opt_str("Endpoint")? {
            crate::sns::check_customer_endpoint(protocol_of(e.kind), address)?;
            e.url = address.to_string();
        }
        let e = with_conditions(e, p)?;
        self.url_taken(&e)?;
        self.world.http_endpoints.insert(key.clone(), e);
        let settings = RECIPIENT_UPDATE_KEYS[1..].iter().filter(|k| has(p, k)).map(|k| k.to_string()).collect();
        self.emit(EventKind::World(WorldEvent::RecipientUpdated { recipient: key, settings }));
        Ok(json!({}))
    }

    pub(crate) fn delete_recipient(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.endpoint_named(p, "RecipientName", false)?;
        self.world.http_endpoints.remove(&key);
        self.emit(EventKind::World(WorldEvent::RecipientDeleted { recipient: key }));
        Ok(json!({}))
    }

    /// `DescribeRecipient`: its conditions now, its counts, and what it received
    /// (`ReceivedAtMs` is virtual time in milliseconds).
    pub(crate) fn describe_recipient(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.endpoint_named(p, "RecipientName", false)?;
        let e = &self.world.http_endpoints[&key];
        let now = conditions_at(e.base, &e.schedule, self.now);
        Ok(json!({
            "RecipientName": &*e.name,
            "Kind": e.kind,
            "Endpoint": e.url,
            "Latency": now.latency.describe(),
            "ErrorRatePpm": now.error_ppm,
            "Down": now.down,
            "Stats": { "Messages": e.stats.requests, "Delivered": e.stats.accepted, "Failed": e.stats.failed },
            "Messages": super::http::requests_json(e),
        }))
    }

    /// SNS hands a copy to the recipient of `kind` at `address` now: what happens, and when.
    pub(crate) fn recipient_send(
        &mut self,
        kind: EndpointKind,
        address: &str,
        message_id: &str,
        text: Arc<str>,
    ) -> HttpAnswer {
        let now = self.now;
        let Some(key) = self.endpoint_at(kind, address) else {
            return HttpAnswer {
                at: now,
                status: None,
                delivered: true,
                reason: format!("accepted (the playground simulates no recipient at {address})"),
            };
        };
        let e = &self.world.http_endpoints[&key];
        let c = conditions_at(e.base, &e.schedule, now);
        let answer = if c.down {
            HttpAnswer { at: now, status: None, delivered: false, reason: failure(kind, true).into() }
        } else {
            let at = now.plus_ms(c.latency.draw(&mut self.rng));
            if self.rng.chance_ppm(c.error_ppm) {
                HttpAnswer { at, status: None, delivered: false, reason: failure(kind, false).into() }
            } else {
                HttpAnswer { at, status: None, delivered: true, reason: "delivered".into() }
            }
        };
        self.record_answer(&key, message_id, &answer, Some(text));
        answer
    }
}
