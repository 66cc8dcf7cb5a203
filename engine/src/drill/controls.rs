//! What a drill lets a learner change: the sandbox's own controls, named by the AWS action they
//! send. A drill's `may_change` lists whole actions (`"StartMessageMoveTask"`: any call of it) or
//! one attribute or option of an action that sets several (`"SetQueueAttributes:VisibilityTimeout"`,
//! `"SetSubscriptionAttributes:FilterPolicy"`, `"UpdateWorker:Idempotency"`,
//! `"UpdateEventSourceMapping:FunctionResponseTypes"`). Nothing outside [`CONTROLS`] may be
//! listed: a drill cannot hand the learner a control the sandbox does not have (a dependency's
//! health, the producer's traffic).
//!
//! A call changes the names it sets: for `SetQueueAttributes` the keys of `Attributes`, for
//! `SetSubscriptionAttributes` its `AttributeName`, for the `Update…` and `Put…Config` actions
//! every parameter but the ones that say what is changed (`WorkerName`, `UUID`, `FunctionName`).
//! Read-only actions (`Get…`, `Describe…`, `List…`) change nothing and are always allowed.

use serde_json::Value;

/// How a control's call says what it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Names {
    /// One change: the action itself.
    Whole,
    /// The keys of the `Attributes` object (`SetQueueAttributes`).
    AttributeKeys,
    /// The value of `AttributeName` (`SetSubscriptionAttributes`).
    AttributeName,
    /// Every parameter given, except these, which name what is changed.
    ParamsExcept(&'static [&'static str]),
}

/// One of the sandbox's controls.
#[derive(Clone, Copy, Debug)]
pub struct Control {
    pub action: &'static str,
    names: Names,
    /// For a control with names: the names a drill may grant.
    known: &'static [&'static str],
}

const QUEUE_ATTRIBUTES: &[&str] = &[
    "VisibilityTimeout",
    "MessageRetentionPeriod",
    "DelaySeconds",
    "ReceiveMessageWaitTimeSeconds",
    "MaximumMessageSize",
    "RedrivePolicy",
    "RedriveAllowPolicy",
    "Policy",
    "ContentBasedDeduplication",
    "DeduplicationScope",
    "FifoThroughputLimit",
];
const SUBSCRIPTION_ATTRIBUTES: &[&str] =
    &["FilterPolicy", "FilterPolicyScope", "RawMessageDelivery", "RedrivePolicy", "DeliveryPolicy"];
const WORKER_OPTIONS: &[&str] = &[
    "MaxNumberOfMessages",
    "WaitTimeSeconds",
    "VisibilityTimeout",
    "Heartbeat",
    "ProcessingTime",
    "Idempotency",
    "EntityField",
    "VersionField",
    "Retry",
];
const MAPPING_OPTIONS: &[&str] =
    &["BatchSize", "MaximumBatchingWindowInSeconds", "ScalingConfig", "FunctionResponseTypes", "Enabled"];
const INVOKE_OPTIONS: &[&str] = &["MaximumRetryAttempts", "MaximumEventAgeInSeconds", "DestinationConfig"];

const fn whole(action: &'static str) -> Control {
    Control { action, names: Names::Whole, known: &[] }
}

/// The sandbox's controls a drill may grant, in the order `fanout` lists them.
pub const CONTROLS: &[Control] = &[
    Control { action: "SetQueueAttributes", names: Names::AttributeKeys, known: QUEUE_ATTRIBUTES },
    whole("StartMessageMoveTask"),
    whole("PurgeQueue"),
    whole("CreateQueue"),
    whole("ReceiveMessage"),
    whole("DeleteMessage"),
    Control { action: "SetSubscriptionAttributes", names: Names::AttributeName, known: SUBSCRIPTION_ATTRIBUTES },
    whole("Subscribe"),
    whole("Publish"),
    Control { action: "UpdateWorker", names: Names::ParamsExcept(&["WorkerName"]), known: WORKER_OPTIONS },
    whole("CreateWorker"),
    whole("PauseWorker"),
    whole("ResumeWorker"),
    whole("RestartWorker"),
    whole("DeleteWorker"),
    Control { action: "UpdateEventSourceMapping", names: Names::ParamsExcept(&["UUID"]), known: MAPPING_OPTIONS },
    Control {
        action: "PutFunctionEventInvokeConfig",
        names: Names::ParamsExcept(&["FunctionName", "Qualifier"]),
        known: INVOKE_OPTIONS,
    },
    Control {
        action: "UpdateFunctionEventInvokeConfig",
        names: Names::ParamsExcept(&["FunctionName", "Qualifier"]),
        known: INVOKE_OPTIONS,
    },
    whole("PutMetricAlarm"),
    whole("DeleteAlarms"),
    whole("PutTargets"),
    whole("EnableRule"),
];

/// One entry of a drill's `may_change`: an action, or one name it sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowed {
    pub action: String,
    /// `None`: any call of the action.
    pub name: Option<String>,
}

impl Allowed {
    /// Reads `"Action"` or `"Action:Name"`, checked against [`CONTROLS`].
    pub fn parse(text: &str) -> Result<Allowed, String> {
        let (action, name) = match text.split_once(':') {
            Some((a, n)) => (a, Some(n)),
            None => (text, None),
        };
        let Some(control) = CONTROLS.iter().find(|c| c.action == action) else {
            let all: Vec<&str> = CONTROLS.iter().map(|c| c.action).collect();
            return Err(format!("\"{action}\" is not one of the sandbox's controls ({})", all.join(", ")));
        };
        match (name, control.names) {
            (None, _) => Ok(Allowed { action: action.to_string(), name: None }),
            (Some(_), Names::Whole) => Err(format!(
                "{action} is allowed whole or not at all: write \"{action}\", with no \":{}\"",
                name.unwrap_or("")
            )),
            (Some(n), _) if control.known.contains(&n) => {
                Ok(Allowed { action: action.to_string(), name: Some(n.to_string()) })
            }
            (Some(n), _) => {
                Err(format!("{action} has no \"{n}\" a learner can set (it has {})", control.known.join(", ")))
            }
        }
    }

    /// As the drill file writes it.
    pub fn as_text(&self) -> String {
        match &self.name {
            Some(n) => format!("{}:{n}", self.action),
            None => self.action.clone(),
        }
    }
}

/// Whether an action only reads (`Get…`, `Describe…`, `List…`).
pub fn reads_only(action: &str) -> bool {
    ["Get", "Describe", "List"].iter().any(|p| action.starts_with(p))
}

/// What one call changes, spelt as `may_change` spells it: `["SetQueueAttributes:VisibilityTimeout"]`,
/// `["PurgeQueue"]`; nothing for a read-only action. `Err` names an action that is not one of
/// the sandbox's controls.
pub fn changes(action: &str, params: &Value) -> Result<Vec<String>, String> {
    if reads_only(action) {
        return Ok(Vec::new());
    }
    let control = CONTROLS.iter().find(|c| c.action == action).ok_or_else(|| action.to_string())?;
    let named = |n: &str| format!("{action}:{n}");
    Ok(match control.names {
        Names::Whole => vec![action.to_string()],
        Names::AttributeKeys => match params.get("Attributes") {
            Some(Value::Object(m)) => m.keys().map(|k| named(k)).collect(),
            _ => Vec::new(),
        },
        Names::AttributeName => params.get("AttributeName").and_then(Value::as_str).map(named).into_iter().collect(),
        Names::ParamsExcept(identity) => match params {
            Value::Object(m) => m.keys().filter(|k| !identity.contains(&k.as_str())).map(|k| named(k)).collect(),
            _ => Vec::new(),
        },
    })
}

/// The first change of this call that `allowed` does not grant, as `may_change` would spell it;
/// `None` when the call is allowed.
pub fn refused(allowed: &[Allowed], action: &str, params: &Value) -> Option<String> {
    let changes = match changes(action, params) {
        Ok(c) => c,
        Err(not_a_control) => return Some(not_a_control),
    };
    let grants = |change: &String| {
        allowed.iter().any(|a| a.action == action && a.name.as_ref().is_none_or(|n| *change == format!("{action}:{n}")))
    };
    changes.into_iter().find(|c| !grants(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn allowed(list: &[&str]) -> Vec<Allowed> {
        list.iter().map(|t| Allowed::parse(t).unwrap()).collect()
    }

    #[test]
    fn a_call_is_allowed_only_when_every_name_it_sets_is_granted() {
        let a = allowed(&["SetQueueAttributes:VisibilityTimeout", "StartMessageMoveTask"]);
        let set = |attrs: Value| refused(&a, "SetQueueAttributes", &json!({"QueueUrl": "q", "Attributes": attrs}));
        assert_eq!(set(json!({"VisibilityTimeout": "60"})), None);
        assert_eq!(
            set(json!({"VisibilityTimeout": "60", "DelaySeconds": "5"})).as_deref(),
            Some("SetQueueAttributes:DelaySeconds")
        );
        assert_eq!(refused(&a, "StartMessageMoveTask", &json!({"SourceArn": "x"})), None);
        assert_eq!(refused(&a, "PurgeQueue", &json!({"QueueUrl": "q"})).as_deref(), Some("PurgeQueue"));
        assert_eq!(refused(&a, "UpdateDependency", &json!({})).as_deref(), Some("UpdateDependency"));
        assert_eq!(refused(&a, "GetQueueAttributes", &json!({})), None, "reading is always allowed");
    }

    #[test]
    fn options_are_named_by_the_parameters_a_call_sets_beside_what_it_names() {
        let a = allowed(&["UpdateWorker:Idempotency", "SetSubscriptionAttributes:FilterPolicy"]);
        assert_eq!(refused(&a, "UpdateWorker", &json!({"WorkerName": "w", "Idempotency": "Atomic"})), None);
        assert_eq!(
            refused(&a, "UpdateWorker", &json!({"WorkerName": "w", "Heartbeat": {}})).as_deref(),
            Some("UpdateWorker:Heartbeat")
        );
        let sub = |name: &str| json!({"SubscriptionArn": "s", "AttributeName": name, "AttributeValue": "{}"});
        assert_eq!(refused(&a, "SetSubscriptionAttributes", &sub("FilterPolicy")), None);
        assert!(refused(&a, "SetSubscriptionAttributes", &sub("RedrivePolicy")).is_some());
    }

    #[test]
    fn a_drill_may_grant_only_the_sandboxs_controls_and_their_known_names() {
        assert!(Allowed::parse("UpdateDependency").unwrap_err().contains("not one of the sandbox's controls"));
        assert!(Allowed::parse("PurgeQueue:All").unwrap_err().contains("whole or not at all"));
        assert!(Allowed::parse("SetQueueAttributes:Colour").unwrap_err().contains("has no \"Colour\""));
        assert_eq!(Allowed::parse("UpdateWorker:Retry").unwrap().as_text(), "UpdateWorker:Retry");
    }
}
