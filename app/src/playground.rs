//! The app's one piece of logic: a story (the engine's `History`) loaded from a scenario file,
//! and the learner's commands. Plain Rust, no signals: the view holds it in one signal.

use engine::history::History;
use engine::scenario::{Scenario, Step};
use engine::{ApiError, SimTime, Snapshot};
use serde_json::{json, Value};

/// The scenario the page opens with.
pub const DEFAULT_SCENARIO: &str = include_str!("../../public/scenarios/quilt-store.json");

/// The event types a learner can publish with one click.
pub const EVENT_TYPES: &[&str] = &["OrderPlaced", "OrderShipped", "OrderCancelled", "RefundIssued"];

#[derive(Clone, Debug)]
pub struct Playground {
    pub name: String,
    pub description: String,
    pub history: History,
}

impl Playground {
    /// Builds the story a scenario file describes: its actions are applied in order and its
    /// `advance` steps move the clock. Expectations are for `fanout test`, not for the page.
    pub fn from_scenario(text: &str) -> Result<Playground, String> {
        let scenario = Scenario::parse(text).map_err(|e| e.to_string())?;
        let mut history = History::new(scenario.seed);
        for (i, step) in scenario.steps.iter().enumerate() {
            match step {
                Step::Advance { ms, .. } => history.advance_to(history.sim().now().plus_ms(*ms)),
                Step::Action { action, params, .. } => {
                    history.apply(action, params).map_err(|e| format!("step {}: {}: {}", i + 1, e.code, e.message))?;
                }
            }
        }
        Ok(Playground { name: scenario.name, description: scenario.description, history })
    }

    pub fn snapshot(&self) -> Snapshot {
        self.history.sim().snapshot_limited(200)
    }

    pub fn now(&self) -> SimTime {
        self.history.sim().now()
    }

    /// Publishes one order event of `event_type` to the first topic, with the fields a
    /// consumer needs (event-carried state transfer) and `event_type` as a message attribute.
    pub fn publish(&mut self, event_type: &str) -> Result<Value, ApiError> {
        let snapshot = self.history.sim().snapshot_limited(0);
        let Some(topic) = snapshot.topics.first() else {
            return Err(ApiError::new("NotFound", "This scenario has no topic to publish to."));
        };
        let n = topic.published + 1;
        let order_id = 4416 + n;
        let body = json!({
            "event_id": format!("evt-{n}"),
            "event_type": event_type,
            "order_id": order_id,
            "version": 1,
            "occurred_at": self.now().iso8601(),
            "data": {"items": [{"sku": "quilt-queen", "qty": 1}], "amount": 4999, "phone": "+91 98765 43210"}
        });
        let params = json!({
            "TopicArn": topic.arn,
            "Message": body.to_string(),
            "MessageAttributes": {"event_type": {"DataType": "String", "StringValue": event_type}}
        });
        self.history.apply("Publish", &params)
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_default_scenario_builds_the_quilt_store() {
        let pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("default scenario loads");
        let s = pg.snapshot();
        assert_eq!(s.topics[0].name, "order-events");
        let names: Vec<&str> = s.queues.iter().map(|q| q.name.as_str()).collect();
        assert_eq!(names, ["billing", "packing", "sms", "sms-dlq"]);
    }

    #[test]
    fn publishing_fans_out_and_the_sms_filter_drops_refunds() {
        let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).unwrap();
        pg.publish("OrderPlaced").unwrap();
        pg.publish("RefundIssued").unwrap();
        let s = pg.snapshot();
        let visible = |name: &str| s.queues.iter().find(|q| q.name == name).unwrap().visible;
        assert_eq!((visible("billing"), visible("packing"), visible("sms")), (2, 2, 1));
    }

    #[test]
    fn a_broken_scenario_says_where() {
        let err = Playground::from_scenario(r#"{"name": "x", "steps": [{"action": "CreateQueue", "params": {}}]}"#)
            .unwrap_err();
        assert!(err.contains("step 1") && err.contains("QueueName"), "{err}");
    }
}
