//! The outbox relay: every `PollInterval` it reads the outbox rows not sent yet (oldest first, up
//! to `BatchSize`), publishes each row's event to the service's topic, and then marks the row
//! sent — two steps again, in the other order than the dual write. A crash between them
//! (`CrashOrderService` `When: AfterPublish`) leaves a published row unmarked, and the relay
//! publishes it again when it is back: the event goes out twice with the same `event_id`, which
//! an idempotent consumer skips. The relay returns its publishes as commands.
use super::outbox::{publish_command, OrderDesign, AFTER_PUBLISH};
use super::spec::{self, invalid, opt_duration};
use super::{WorldEvent, WorldTimer};
use crate::error::ApiResult;
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::{SimTime, SECOND};
use crate::timers::Timer;
use serde_json::{json, Value};

pub(crate) const RELAY_KEYS: &[&str] = &["RelayName", "ServiceName", "PollInterval", "BatchSize", "RestartAfter"];

#[derive(Clone, Debug)]
pub(crate) struct OutboxRelay {
    pub name: Name,
    pub service: Name,
    pub poll_ms: u64,
    pub batch: usize,
    pub restart_ms: u64,
    pub crashed_until: Option<SimTime>,
    pub published: u64,
}

impl Sim {
    /// `CreateOutboxRelay` {RelayName, ServiceName, PollInterval (1s), BatchSize (10), RestartAfter (5s)}.
    pub(crate) fn create_outbox_relay(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("RelayName")?;
        if !crate::ids::valid_resource_name(name, 80) {
            return Err(invalid(format!("RelayName \"{name}\": use 1 to 80 letters, digits, hyphens and underscores")));
        }
        if self.world.relays.contains_key(name) {
            return Err(spec::conflict("OutboxRelay", name));
        }
        let service = self.order_service_ref(p.str("ServiceName")?)?;
        if self.world.order_services[&service].design != OrderDesign::Outbox {
            return Err(invalid(format!("{service} writes no outbox: its Design is DualWrite")));
        }
        let poll_ms = opt_duration(p, "PollInterval")?.unwrap_or(SECOND);
        if poll_ms == 0 {
            return Err(invalid("PollInterval must be at least 1ms"));
        }
        let batch = p.opt_int("BatchSize", 1, 1000)?.unwrap_or(10) as usize;
        let restart_ms = opt_duration(p, "RestartAfter")?.unwrap_or(5 * SECOND).max(1);
        let relay = OutboxRelay {
            name: name.into(),
            service: service.clone(),
            poll_ms,
            batch,
            restart_ms,
            crashed_until: None,
            published: 0,
        };
        self.world.relays.insert(relay.name.clone(), relay);
        self.timers.schedule(self.now.plus_ms(poll_ms), Timer::World(WorldTimer::RelayTick(name.into())));
        self.emit(EventKind::World(WorldEvent::OutboxRelayCreated { relay: name.into(), service }));
        Ok(json!({ "RelayName": name }))
    }

    /// One poll: publish the pending rows in order, marking each sent right after its publish.
    pub(crate) fn on_relay_tick(&mut self, name: &Name) {
        let Some(relay) = self.world.relays.get(name) else { return };
        if relay.crashed_until.is_some() {
            return;
        }
        let (service, batch, poll_ms) = (relay.service.clone(), relay.batch, relay.poll_ms);
        let Some(s) = self.world.order_services.get(&service) else { return };
        let topic = s.topic.clone();
        let pending: Vec<(usize, String)> =
            s.db.outbox
                .iter()
                .enumerate()
                .filter(|(_, r)| r.sent_at.is_none())
                .take(batch)
                .map(|(i, r)| (i, r.payload.clone()))
                .collect();
        for (i, payload) in pending {
            let done = self.perform("OutboxRelay", vec![publish_command(&topic, payload)]).pop().expect("one command");
            if done.is_err() {
                break;
            }
            let s = self.world.order_services.get_mut(&service).expect("invariant: looked up above");
            let row = &mut s.db.outbox[i];
            row.published += 1;
            let (row_id, event_id, times) = (row.row, row.event_id.clone(), row.published);
            self.world.relays.get_mut(name).expect("invariant: looked up above").published += 1;
            if self.take_crash(&service, AFTER_PUBLISH) {
                return self.crash_relay(name, row_id, event_id);
            }
            let now = self.now;
            let s = self.world.order_services.get_mut(&service).expect("invariant: looked up above");
            s.db.transactions += 1;
            s.db.outbox[i].sent_at = Some(now);
            self.emit(EventKind::World(WorldEvent::OutboxRowSent {
                relay: name.clone(),
                service: service.clone(),
                row: row_id,
                event_id,
                times,
            }));
        }
        self.timers.schedule(self.now.plus_ms(poll_ms), Timer::World(WorldTimer::RelayTick(name.clone())));
    }

    fn crash_relay(&mut self, name: &Name, row: u64, event_id: String) {
        let relay = self.world.relays.get_mut(name).expect("invariant: a ticking relay exists");
        let until = self.now.plus_ms(relay.restart_ms);
        relay.crashed_until = Some(until);
        self.timers.schedule(until, Timer::World(WorldTimer::RelayRestart(name.clone())));
        self.emit(EventKind::World(WorldEvent::OutboxRelayCrashed { relay: name.clone(), row, event_id }));
    }

    pub(crate) fn on_relay_restart(&mut self, name: &Name) {
        let Some(relay) = self.world.relays.get_mut(name) else { return };
        relay.crashed_until = None;
        self.emit(EventKind::World(WorldEvent::OutboxRelayRestarted { relay: name.clone() }));
        self.on_relay_tick(name);
    }
}
