//! Event buses: `CreateEventBus`, `DeleteEventBus`, `DescribeEventBus`, `ListEventBuses`.
//!
//! API reference, CreateEventBus: a name of 1–256 characters `[/\.\-_A-Za-z0-9]+`; "Custom event
//! bus names can't contain the / character" and "You can't use the name default for a custom event
//! bus". Quotas: at most 100 event buses per account.

use super::{bus_arn, validation, Bus, DEFAULT_BUS};
use crate::error::{ApiError, ApiResult};
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::SimTime;
use serde_json::{json, Value};

/// "Event buses: Maximum event buses per account: 100" (EventBridge quotas).
pub const MAX_EVENT_BUSES: usize = 100;

/// Timestamps in responses: epoch seconds, as the JSON protocol sends them.
pub(crate) fn epoch_seconds(t: SimTime) -> u64 {
    t.epoch_ms() / 1000
}

/// `after:<last name>`: a readable page token (AWS's are opaque).
pub(crate) fn page<T>(items: Vec<(&str, T)>, p: &Params, max: i64) -> ApiResult<(Vec<T>, Option<String>)> {
    let limit = p.opt_int("Limit", 1, max)?.unwrap_or(max) as usize;
    let after = match p.opt_str("NextToken")? {
        None => None,
        Some(token) => Some(
            token
                .strip_prefix("after:")
                .ok_or_else(|| validation(format!("The NextToken \"{token}\" is not valid.")))?,
        ),
    };
    let mut rest: Vec<(&str, T)> = items.into_iter().filter(|(name, _)| after.is_none_or(|a| *name > a)).collect();
    let next = (rest.len() > limit).then(|| format!("after:{}", rest[limit - 1].0));
    rest.truncate(limit);
    Ok((rest.into_iter().map(|(_, t)| t).collect(), next))
}

fn bus_json(bus: &Bus) -> Value {
    let mut out = json!({
        "Name": bus.name.to_string(),
        "Arn": bus.arn.to_string(),
        "CreationTime": epoch_seconds(bus.created_at),
        "LastModifiedTime": epoch_seconds(bus.created_at),
    });
    if let Some(d) = &bus.description {
        out["Description"] = json!(d);
    }
    out
}

impl Sim {
    pub(crate) fn create_event_bus(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("Name")?;
        let valid = !name.is_empty()
            && name.len() <= 256
            && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if !valid {
            return Err(validation(format!(
                "Event bus name \"{name}\" is not valid: use 1 to 256 letters, digits, '.', '-' and '_' (custom event bus names can't contain /)."
            )));
        }
        if p.opt_str("EventSourceName")?.is_some() {
            return Err(validation("Partner event buses (EventSourceName) are not simulated by the playground."));
        }
        if let Some(k) = ["KmsKeyIdentifier", "DeadLetterConfig"].into_iter().find(|k| p.raw(k).is_some()) {
            return Err(validation(format!(
                "{k} on an event bus (customer managed keys) is not simulated by the playground."
            )));
        }
        let description = p.opt_str("Description")?;
        if description.is_some_and(|d| d.chars().count() > 512) {
            return Err(validation("Description must be at most 512 characters."));
        }
        if self.events.buses.contains_key(name) {
            return Err(ApiError::new("ResourceAlreadyExistsException", format!("Event bus {name} already exists.")));
        }
        if self.events.buses.len() >= MAX_EVENT_BUSES {
            return Err(ApiError::new(
                "LimitExceededException",
                format!("An account can have at most {MAX_EVENT_BUSES} event buses."),
            ));
        }
        let key: Name = name.into();
        let bus = Bus::new(key.clone(), description.map(str::to_string), self.now);
        self.events.buses.insert(key.clone(), bus);
        self.emit(EventKind::EventBridge(super::EbEvent::EventBusCreated { bus: key }));
        let mut out = json!({ "EventBusArn": bus_arn(name) });
        if let Some(d) = description {
            out["Description"] = json!(d);
        }
        Ok(out)
    }

    /// The default bus cannot be deleted; a bus with rules neither ("All rules associated with
    /// this event bus need to be deleted", API reference). A bus that does not exist is not an
    /// error (observed behaviour, as moto models it).
    pub(crate) fn delete_event_bus(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("Name")?;
        if name == DEFAULT_BUS {
            return Err(validation("Cannot delete event bus default."));
        }
        let Some(bus) = self.events.buses.get(name) else { return Ok(json!({})) };
        if !bus.rules.is_empty() {
            let rules: Vec<&str> = bus.rules.keys().map(|r| &**r).collect();
            return Err(validation(format!(
                "Event bus {name} still has rules ({}); delete them before the event bus.",
                rules.join(", ")
            )));
        }
        let key = bus.name.clone();
        self.events.buses.remove(name);
        self.emit(EventKind::EventBridge(super::EbEvent::EventBusDeleted { bus: key, rules_removed: 0 }));
        Ok(json!({}))
    }

    pub(crate) fn describe_event_bus(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.bus_ref(p.opt_str("Name")?)?;
        Ok(bus_json(&self.events.buses[&name]))
    }

    pub(crate) fn list_event_buses(&mut self, p: &Params) -> ApiResult<Value> {
        let prefix = p.opt_str("NamePrefix")?.unwrap_or("");
        let items: Vec<(&str, Value)> = self
            .events
            .buses
            .values()
            .filter(|b| b.name.starts_with(prefix))
            .map(|b| (&*b.name, bus_json(b)))
            .collect();
        let (buses, next) = page(items, p, 100)?;
        let mut out = json!({ "EventBuses": buses });
        if let Some(token) = next {
            out["NextToken"] = json!(token);
        }
        Ok(out)
    }
}
