//! An order service with its own database, in one of two designs, and where each can crash.
//!
//! - `DualWrite`: save the order (one transaction), then publish `OrderPlaced` to the topic. Two
//!   writes to two systems with nothing tying them: a crash between them (`AfterSave`) leaves an
//!   order that exists and an event that never goes out. Nothing will ever publish it.
//! - `Outbox` (the transactional outbox): the order and an outbox row holding the event are
//!   written in one transaction; a relay (`CreateOutboxRelay`, in `relay`) publishes the rows
//!   that are not sent yet and then marks them sent. A crash after the save loses nothing (the
//!   row is there); a relay crash after publishing and before marking the row (`AfterPublish`)
//!   publishes it again when the relay is back: at-least-once, so the consumers must be
//!   idempotent (the event keeps its `event_id`; `Idempotency: Atomic` skips the second copy).
//!
//! The database is the world's own: its rows and transactions are in the snapshot and in
//! `DescribeOrderService`. Simplified: writes take no time, a transaction always commits, and a
//! crashed service restarts after `RestartAfter` (default 5 s) with its database intact.
use super::commands::Command;
use super::spec::{self, invalid, opt_duration};
use super::{WorldEvent, WorldTimer};
use crate::attributes::{MessageAttributeValue, MessageAttributes};
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::{SimTime, SECOND};
use crate::timers::Timer;
use serde::Serialize;
use serde_json::{json, Value};

pub(crate) const ORDER_SERVICE_KEYS: &[&str] = &["ServiceName", "Design", "TopicArn", "RestartAfter"];

/// Where a crash strikes.
pub(crate) const AFTER_SAVE: &str = "AfterSave";
pub(crate) const AFTER_PUBLISH: &str = "AfterPublish";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum OrderDesign {
    DualWrite,
    Outbox,
}

/// A row of the `orders` table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderRow {
    pub order_id: u64,
    pub event_id: String,
    pub saved_at: SimTime,
    /// The transaction that wrote it.
    pub transaction: u64,
}

/// A row of the `outbox` table: an event waiting to be published, or published.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutboxRow {
    pub row: u64,
    pub event_id: String,
    pub order_id: u64,
    pub payload: String,
    pub transaction: u64,
    /// When the relay marked it sent; `None` while it is pending.
    pub sent_at: Option<SimTime>,
    /// How many times a relay published it (more than 1: a duplicate went out).
    pub published: u32,
}

/// The service's own database.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OrderDb {
    pub orders: Vec<OrderRow>,
    pub outbox: Vec<OutboxRow>,
    pub transactions: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct OrderService {
    pub name: Name,
    pub design: OrderDesign,
    pub topic: Name,
    pub restart_ms: u64,
    pub db: OrderDb,
    /// A crash armed for the next `AfterSave` or `AfterPublish` point.
    pub crash_armed: Option<&'static str>,
    pub crashed_until: Option<SimTime>,
    pub crashes: u64,
    /// Orders whose event the service itself published (`DualWrite`).
    pub published_orders: Vec<u64>,
}

/// The snapshot's picture of an order service and its database.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderServiceView {
    pub name: String,
    pub design: OrderDesign,
    pub topic: String,
    pub crashed: bool,
    pub crash_armed: Option<&'static str>,
    pub db: OrderDb,
    /// Orders whose event has not gone out (for `DualWrite`, never will).
    pub orders_without_event: Vec<u64>,
    /// The outbox relays that publish its rows (`Outbox` only), in name order.
    pub relays: Vec<RelayView>,
}

/// An outbox relay as the snapshot shows it: up, or crashed until it restarts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RelayView {
    pub name: String,
    pub crashed: bool,
    /// Rows it has published, a row published again after a crash counted again.
    pub published: u64,
}

/// The event a placed order publishes: the same text from the service and from the outbox.
fn order_event(order_id: u64, now: SimTime) -> (String, String) {
    let event_id = format!("evt-{order_id}");
    let body = json!({"event_id": event_id, "event_type": "OrderPlaced", "order_id": order_id, "version": 1, "occurred_at_ms": now.0});
    (event_id, body.to_string())
}

/// A crash point by its name in a parameter (`When`, `Crash`).
fn crash_point(name: &str, param: &str) -> ApiResult<&'static str> {
    match name {
        "AfterSave" => Ok(AFTER_SAVE),
        "AfterPublish" => Ok(AFTER_PUBLISH),
        other => Err(invalid(format!("{param} \"{other}\" is not one of AfterSave, AfterPublish"))),
    }
}

/// The publish of an order event, as an actor's command.
pub(crate) fn publish_command(topic: &Name, payload: String) -> Command {
    let mut attributes = MessageAttributes::new();
    attributes.insert("event_type".into(), MessageAttributeValue::string("OrderPlaced"));
    Command::Publish { topic: topic.to_string(), message: payload, attributes }
}

impl OrderService {
    /// Orders with no published event: in `DualWrite` those the service did not publish, in
    /// `Outbox` those whose row no relay has published yet.
    pub(crate) fn orders_without_event(&self) -> Vec<u64> {
        match self.design {
            OrderDesign::DualWrite => {
                self.db.orders.iter().map(|o| o.order_id).filter(|id| !self.published_orders.contains(id)).collect()
            }
            OrderDesign::Outbox => self.db.outbox.iter().filter(|r| r.published == 0).map(|r| r.order_id).collect(),
        }
    }
}

impl Sim {
    pub(crate) fn order_service_ref(&self, name: &str) -> ApiResult<Name> {
        self.world
            .order_services
            .get_key_value(name)
            .map(|(k, _)| k.clone())
            .ok_or_else(|| spec::not_found("OrderService", name))
    }

    /// `CreateOrderService` {ServiceName, Design: DualWrite | Outbox, TopicArn, RestartAfter}.
    pub(crate) fn create_order_service(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("ServiceName")?;
        if !crate::ids::valid_resource_name(name, 80) {
            return Err(invalid(format!(
                "ServiceName \"{name}\": use 1 to 80 letters, digits, hyphens and underscores"
            )));
        }
        if self.world.order_services.contains_key(name) {
            return Err(spec::conflict("OrderService", name));
        }
        let design = match p.str("Design")? {
            "DualWrite" => OrderDesign::DualWrite,
            "Outbox" => OrderDesign::Outbox,
            other => return Err(invalid(format!("Design \"{other}\" is not one of DualWrite, Outbox"))),
        };
        let topic = self.topic_ref(p.str("TopicArn")?)?;
        if self.topics[&topic].fifo.is_some() {
            return Err(invalid("the order service publishes to a standard topic"));
        }
        let restart_ms = opt_duration(p, "RestartAfter")?.unwrap_or(5 * SECOND).max(1);
        let service = OrderService {
            name: name.into(),
            design,
            topic,
            restart_ms,
            db: OrderDb::default(),
            crash_armed: None,
            crashed_until: None,
            crashes: 0,
            published_orders: Vec::new(),
        };
        self.world.order_services.insert(service.name.clone(), service);
        self.emit(EventKind::World(WorldEvent::OrderServiceCreated {
            service: name.into(),
            design: format!("{design:?}"),
        }));
        Ok(json!({ "ServiceName": name, "Design": format!("{design:?}") }))
    }

    /// `CrashOrderService` {ServiceName, When: AfterSave | AfterPublish}: arms a crash for the
    /// next such point (for `AfterPublish` in the `Outbox` design, the relay's).
    pub(crate) fn crash_order_service(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.order_service_ref(p.str("ServiceName")?)?;
        let point = crash_point(p.str("When")?, "When")?;
        self.arm_crash(key, point);
        Ok(json!({}))
    }

    fn arm_crash(&mut self, key: Name, point: &'static str) {
        self.world.order_services.get_mut(&key).expect("invariant: resolved").crash_armed = Some(point);
        self.emit(EventKind::World(WorldEvent::OrderServiceCrashArmed { service: key, point }));
    }

    /// `PlaceOrder` {ServiceName, OrderId, Crash}: the service's request path, run now. `Crash`
    /// (AfterSave | AfterPublish) arms that crash first, as `CrashOrderService` would: one
    /// command for "place an order and crash here" (the page's presets).
    pub(crate) fn place_order(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.order_service_ref(p.str("ServiceName")?)?;
        let order_id =
            p.opt_int("OrderId", 1, 1_000_000_000_000)?.ok_or_else(|| Service::Sim.missing("OrderId"))? as u64;
        let crash = p.opt_str("Crash")?.map(|c| crash_point(c, "Crash")).transpose()?;
        let s = &self.world.order_services[&key];
        if let Some(until) = s.crashed_until {
            return Err(ApiError::new(
                "ServiceUnavailableException",
                format!("{key} crashed and is restarting until {until}; try again then"),
            ));
        }
        if s.db.orders.iter().any(|o| o.order_id == order_id) {
            return Err(ApiError::new(
                "ResourceConflictException",
                format!("order {order_id} already exists in {key}"),
            ));
        }
        let (design, topic) = (s.design, s.topic.clone());
        if let Some(point) = crash {
            self.arm_crash(key.clone(), point);
        }
        let now = self.now;
        let (event_id, payload) = order_event(order_id, now);
        let s = self.world.order_services.get_mut(&key).expect("invariant: resolved");
        s.db.transactions += 1;
        let transaction = s.db.transactions;
        s.db.orders.push(OrderRow { order_id, event_id: event_id.clone(), saved_at: now, transaction });
        let outbox_row = (design == OrderDesign::Outbox).then(|| {
            let row = s.db.outbox.len() as u64 + 1;
            s.db.outbox.push(OutboxRow {
                row,
                event_id: event_id.clone(),
                order_id,
                payload: payload.clone(),
                transaction,
                sent_at: None,
                published: 0,
            });
            row
        });
        self.emit(EventKind::World(WorldEvent::OrderSaved { service: key.clone(), order_id, transaction, outbox_row }));
        if self.take_crash(&key, AFTER_SAVE) {
            let lost = (design == OrderDesign::DualWrite).then(|| event_id.clone());
            self.crash_service(&key, AFTER_SAVE, lost);
            let outcome = match design {
                OrderDesign::DualWrite => "saved; crashed before publishing: the order exists and its event is lost",
                OrderDesign::Outbox => "saved with its outbox row; crashed: the relay will publish the event",
            };
            return Ok(json!({ "OrderId": order_id, "EventId": event_id, "Outcome": outcome }));
        }
        if design == OrderDesign::Outbox {
            return Ok(json!({ "OrderId": order_id, "EventId": event_id, "Outcome": "saved with its outbox row" }));
        }
        let published =
            self.perform("OrderService", vec![publish_command(&topic, payload)]).pop().expect("one command");
        let s = self.world.order_services.get_mut(&key).expect("invariant: resolved");
        let outcome = match published {
            Ok(_) => {
                s.published_orders.push(order_id);
                "saved and published"
            }
            Err(_) => "saved; the publish failed: the order exists and its event is lost",
        };
        if self.take_crash(&key, AFTER_PUBLISH) {
            self.crash_service(&key, AFTER_PUBLISH, None);
        }
        Ok(json!({ "OrderId": order_id, "EventId": event_id, "Outcome": outcome }))
    }

    /// Whether a crash is armed at `point` (and disarms it).
    pub(crate) fn take_crash(&mut self, service: &Name, point: &'static str) -> bool {
        let Some(s) = self.world.order_services.get_mut(service) else { return false };
        if s.crash_armed == Some(point) {
            s.crash_armed = None;
            return true;
        }
        false
    }

    fn crash_service(&mut self, service: &Name, point: &'static str, lost_event: Option<String>) {
        let s = self.world.order_services.get_mut(service).expect("invariant: resolved");
        s.crashes += 1;
        let until = self.now.plus_ms(s.restart_ms);
        s.crashed_until = Some(until);
        self.timers.schedule(until, Timer::World(WorldTimer::OrderServiceRestart(service.clone())));
        self.emit(EventKind::World(WorldEvent::OrderServiceCrashed { service: service.clone(), point, lost_event }));
    }

    pub(crate) fn on_order_service_restart(&mut self, service: &Name) {
        let Some(s) = self.world.order_services.get_mut(service) else { return };
        s.crashed_until = None;
        self.emit(EventKind::World(WorldEvent::OrderServiceRestarted { service: service.clone() }));
    }

    /// `DescribeOrderService`: the database's counts, and the orders whose event has not gone out.
    pub(crate) fn describe_order_service(&mut self, p: &Params) -> ApiResult<Value> {
        let key = self.order_service_ref(p.str("ServiceName")?)?;
        let s = &self.world.order_services[&key];
        let pending = s.db.outbox.iter().filter(|r| r.sent_at.is_none()).count();
        let duplicates: u32 = s.db.outbox.iter().map(|r| r.published.saturating_sub(1)).sum();
        Ok(json!({
            "ServiceName": &*key,
            "Design": format!("{:?}", s.design),
            "Orders": s.db.orders.len(),
            "Transactions": s.db.transactions,
            "OutboxPending": pending,
            "OutboxSent": s.db.outbox.len() - pending,
            "EventsPublished": s.published_orders.len() as u64 + s.db.outbox.iter().map(|r| u64::from(r.published)).sum::<u64>(),
            "DuplicatesPublished": duplicates,
            "OrdersWithoutEvent": s.orders_without_event(),
            "Crashes": s.crashes,
            "Crashed": s.crashed_until.is_some(),
        }))
    }

    pub(crate) fn order_service_views(&self) -> Vec<OrderServiceView> {
        self.world
            .order_services
            .values()
            .map(|s| OrderServiceView {
                name: s.name.to_string(),
                design: s.design,
                topic: s.topic.to_string(),
                crashed: s.crashed_until.is_some(),
                crash_armed: s.crash_armed,
                db: s.db.clone(),
                orders_without_event: s.orders_without_event(),
                relays: (self.world.relays.values())
                    .filter(|r| r.service == s.name)
                    .map(|r| RelayView {
                        name: r.name.to_string(),
                        crashed: r.crashed_until.is_some(),
                        published: r.published,
                    })
                    .collect(),
            })
            .collect()
    }
}
