//! The simulated world around the queues: the playground's own actors (workers, Lambda event
//! source mappings, downstream dependencies, metrics and alarms). Its actions join the AWS ones
//! in `Sim::apply`; its timers share the engine's timer table; its events join the log.

use crate::error::ApiResult;
use crate::sim::Sim;
use serde::Serialize;
use serde_json::Value;

/// The playground's own actions handled here.
pub const ACTIONS: &[&str] = &[];

/// The actors' state.
#[derive(Clone, Debug, Default)]
pub struct World {}

/// What an actor's timer does when it fires.
#[derive(Clone, Debug)]
pub(crate) enum WorldTimer {}

impl WorldTimer {
    pub fn cause(&self) -> &'static str {
        match *self {}
    }
}

/// Events of the simulated actors; they appear in the log beside the AWS ones.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event")]
pub enum WorldEvent {}

impl WorldEvent {
    pub fn name(&self) -> &'static str {
        match *self {}
    }

    pub fn summary(&self) -> String {
        match *self {}
    }

    pub fn resources(&self) -> Vec<&str> {
        match *self {}
    }
}

/// The actors as the snapshot shows them.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WorldView {}

impl Sim {
    pub(crate) fn world_action(&mut self, action: &'static str, _params: &Value) -> ApiResult<Value> {
        unreachable!("world::ACTIONS is empty, so {action} is never dispatched here")
    }

    pub(crate) fn on_world_timer(&mut self, timer: WorldTimer) {
        match timer {}
    }

    pub(crate) fn world_view(&self) -> WorldView {
        WorldView {}
    }
}
