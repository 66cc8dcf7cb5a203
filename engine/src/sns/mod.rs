//! Amazon SNS: topics. Subscriptions and their attributes live in `subscription`; Publish and
//! the fan-out in `publish`; each copy's delivery, SNS's retries and the subscription's
//! dead-letter queue in `delivery` (with `delivery_policy` and `subscription_dlq`).

mod delivery;
pub mod delivery_policy;
mod message_attributes;
mod publish;
mod subscription;
mod subscription_dlq;

pub(crate) use publish::Delivery;
pub(crate) use publish::PUBLISH_PARAMS;
pub use publish::{parse_publish_attributes, MAX_PUBLISH_BYTES, MAX_RAW_ATTRIBUTES};
pub(crate) use subscription::check_customer_endpoint;
pub use subscription::{Filter, Subscription};

use crate::error::{ApiError, ApiResult};
use crate::event::{EventKind, Name};
use crate::ids::{self, ACCOUNT};
use crate::params::Params;
use crate::sim::Sim;
use crate::sqs::fifo::Dedup;
use crate::throttle::RateWindows;
use crate::time::SimTime;
use crate::vecmap::VecMap;
use serde_json::{json, Value};

#[derive(Clone, Debug)]
pub struct Topic {
    pub name: Name,
    pub arn: Name,
    /// Attributes as given (`DisplayName`, `Policy`, …).
    pub attributes: VecMap<String, String>,
    pub created_at: SimTime,
    /// Subscription ARNs in the order they were made: the order copies are handed out.
    pub subscriptions: Vec<Name>,
    pub published: u64,
    /// FIFO topics only: deduplication, sequence numbers, throughput.
    pub fifo: Option<TopicFifo>,
}

/// A FIFO topic's settings and state.
#[derive(Clone, Debug)]
pub struct TopicFifo {
    /// `ContentBasedDeduplication`: the SHA-256 of the message is the deduplication id.
    pub content_based_deduplication: bool,
    /// `FifoThroughputScope` `MessageGroup` (high throughput): quotas and deduplication per group.
    pub per_message_group: bool,
    pub(crate) dedup: Dedup,
    pub(crate) sequence: u64,
    pub(crate) rates: RateWindows,
}

impl TopicFifo {
    /// Reads `FifoTopic`, `ContentBasedDeduplication` and `FifoThroughputScope`; a FIFO topic's
    /// name ends in `.fifo`, and only a FIFO topic's.
    fn from_attributes(name: &str, attributes: &VecMap<String, String>) -> ApiResult<Option<TopicFifo>> {
        let flag = |key: &str| -> ApiResult<bool> {
            match attributes.get(key).map(String::as_str) {
                None | Some("false") => Ok(false),
                Some("true") => Ok(true),
                Some(other) => Err(invalid(format!(
                    "Invalid parameter: Attributes Reason: {key} must be true or false, not \"{other}\""
                ))),
            }
        };
        let fifo = flag("FifoTopic")?;
        if fifo != name.ends_with(".fifo") {
            return Err(invalid(if fifo {
                "Invalid parameter: Fifo Topic names must end with .fifo and they must be between 1 and 256 characters long."
                    .to_string()
            } else {
                format!("Invalid parameter: Topic Name \"{name}\" ends with .fifo: set the attribute FifoTopic \"true\" for a FIFO topic.")
            }));
        }
        let content = flag("ContentBasedDeduplication")?;
        let scope = attributes.get("FifoThroughputScope").map(String::as_str);
        if !fifo {
            if let Some(k) =
                ["ContentBasedDeduplication", "FifoThroughputScope"].iter().find(|k| attributes.contains_key(**k))
            {
                return Err(invalid(format!("Invalid parameter: Attributes Reason: {k} is only for FIFO topics")));
            }
            return Ok(None);
        }
        let per_message_group = match scope {
            None | Some("Topic") => false,
            Some("MessageGroup") => true,
            Some(other) => {
                return Err(invalid(format!(
                    "Invalid parameter: FifoThroughputScope \"{other}\" (Topic or MessageGroup)"
                )))
            }
        };
        Ok(Some(TopicFifo {
            content_based_deduplication: content,
            per_message_group,
            dedup: Dedup::default(),
            sequence: 0,
            rates: RateWindows::default(),
        }))
    }
}

fn topic_not_found() -> ApiError {
    ApiError::new("NotFound", "Topic does not exist")
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new("InvalidParameter", message)
}

/// AWS's answer to an ARN parameter that is not an ARN (recorded: LocalStack's AWS-validated
/// `test_publish_wrong_arn_format`, `test_subscribe_with_invalid_topic`,
/// `test_unsubscribe_wrong_arn_format`): `InvalidParameter`, "An ARN must have at least 6
/// elements, not N" (N: the `:`-separated parts).
pub(crate) fn check_arn_shape(param: &str, value: &str) -> ApiResult<()> {
    let parts = value.split(':').count();
    if parts < 6 {
        return Err(invalid(format!(
            "Invalid parameter: {param} Reason: An ARN must have at least 6 elements, not {parts}"
        )));
    }
    Ok(())
}

impl Sim {
    /// The topic a `TopicArn` names. Playground convenience: a bare name of an existing topic is
    /// taken for its ARN; any other value that is not an ARN gets AWS's `InvalidParameter`
    /// (`check_arn_shape`), and an ARN of no topic `NotFound`.
    pub(crate) fn topic_ref(&self, reference: &str) -> ApiResult<Name> {
        self.topic_ref_in("TopicArn", reference)
    }

    pub(crate) fn topic_ref_in(&self, param: &str, reference: &str) -> ApiResult<Name> {
        if !reference.contains(':') {
            if let Some((k, _)) = self.topics.get_key_value(reference) {
                return Ok(k.clone());
            }
        }
        check_arn_shape(param, reference)?;
        let name = ids::topic_name_from(reference).ok_or_else(topic_not_found)?;
        self.topics.get_key_value(name).map(|(k, _)| k.clone()).ok_or_else(topic_not_found)
    }

    pub(crate) fn create_topic(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("Name")?;
        if !ids::valid_resource_name(name, 256) {
            return Err(invalid(format!(
                "Invalid parameter: Topic Name \"{name}\": use 1 to 256 letters, digits, hyphens and underscores."
            )));
        }
        let attributes = p.string_map("Attributes")?;
        if let Some(k) = attributes.keys().find(|k| !TOPIC_ATTRIBUTES.contains(&k.as_str())) {
            return Err(invalid(format!("Invalid parameter: Attributes Reason: Unknown attribute {k}")));
        }
        let fifo = TopicFifo::from_attributes(name, &attributes)?;
        // `FifoTopic` "false" is a standard topic's default: accepted again, and not listed (AWS,
        // recorded: LocalStack's AWS-validated `test_create_topic_different_attrs`, 2026-02, and
        // `test_topic_get_attributes_with_fifo_false`).
        let mut attributes = attributes;
        if fifo.is_none() {
            attributes.remove("FifoTopic");
        }
        if let Some(existing) = self.topics.get(name) {
            if attributes.iter().any(|(k, v)| existing.attributes.get(k) != Some(v)) {
                return Err(invalid(
                    "Invalid parameter: Attributes Reason: Topic already exists with different attributes",
                ));
            }
            return Ok(json!({ "TopicArn": existing.arn.to_string() }));
        }
        let topic = Topic {
            name: name.into(),
            arn: ids::topic_arn(name).into(),
            attributes,
            created_at: self.now,
            subscriptions: Vec::new(),
            published: 0,
            fifo,
        };
        let arn = topic.arn.to_string();
        let key = topic.name.clone();
        self.topics.insert(key.clone(), topic);
        self.emit(EventKind::TopicCreated { topic: key });
        Ok(json!({ "TopicArn": arn }))
    }

    pub(crate) fn delete_topic(&mut self, p: &Params) -> ApiResult<Value> {
        // Deleting a topic that does not exist is not an error.
        let Ok(name) = self.topic_ref(p.str("TopicArn")?) else { return Ok(json!({})) };
        let topic = self.topics.remove(&name).expect("invariant: resolved topic exists");
        for sub in &topic.subscriptions {
            self.subscriptions.remove(sub);
        }
        self.emit(EventKind::TopicDeleted { topic: name, subscriptions_removed: topic.subscriptions.len() });
        Ok(json!({}))
    }

    pub(crate) fn list_topics(&mut self, _: &Params) -> ApiResult<Value> {
        let topics: Vec<Value> = self.topics.values().map(|t| json!({ "TopicArn": t.arn.to_string() })).collect();
        Ok(json!({ "Topics": topics }))
    }

    pub(crate) fn get_topic_attributes(&mut self, p: &Params) -> ApiResult<Value> {
        let topic = &self.topics[&self.topic_ref(p.str("TopicArn")?)?];
        let mut attrs = topic.attributes.clone();
        attrs.insert("TopicArn".into(), topic.arn.to_string());
        attrs.insert("Owner".into(), ACCOUNT.into());
        let pending = topic
            .subscriptions
            .iter()
            .filter(|s| self.subscriptions.get(*s).is_some_and(|s| s.pending_confirmation))
            .count();
        attrs.insert("SubscriptionsConfirmed".into(), (topic.subscriptions.len() - pending).to_string());
        attrs.insert("SubscriptionsPending".into(), pending.to_string());
        attrs.insert("SubscriptionsDeleted".into(), "0".into());
        attrs.entry("DisplayName".into()).or_default();
        // Defaults AWS lists (recorded: LocalStack's AWS-validated `test_create_topic_with_attributes`,
        // `test_topic_delivery_policy_crud`): a FIFO topic's ContentBasedDeduplication, the default
        // access policy, and the delivery policy in effect.
        if topic.fifo.is_some() {
            attrs.entry("ContentBasedDeduplication".into()).or_insert_with(|| "false".into());
        }
        attrs.entry("Policy".into()).or_insert_with(|| default_topic_policy(&topic.arn));
        let effective = effective_topic_delivery_policy(topic.attributes.get("DeliveryPolicy").map(String::as_str));
        attrs.insert("EffectiveDeliveryPolicy".into(), effective);
        Ok(json!({ "Attributes": attrs }))
    }
}

/// The access policy SNS gives a new topic: the owner's account may use it.
fn default_topic_policy(topic_arn: &str) -> String {
    json!({
        "Version": "2008-10-17",
        "Id": "__default_policy_ID",
        "Statement": [{
            "Sid": "__default_statement_ID",
            "Effect": "Allow",
            "Principal": {"AWS": "*"},
            "Action": ["SNS:GetTopicAttributes", "SNS:SetTopicAttributes", "SNS:AddPermission", "SNS:RemovePermission",
                       "SNS:DeleteTopic", "SNS:Subscribe", "SNS:ListSubscriptionsByTopic", "SNS:Publish"],
            "Resource": topic_arn,
            "Condition": {"StringEquals": {"AWS:SourceOwner": ACCOUNT}},
        }],
    })
    .to_string()
}

/// A topic's `EffectiveDeliveryPolicy`: the HTTP/S defaults, with what the topic's own
/// `DeliveryPolicy` sets in its `http` part laid over them.
fn effective_topic_delivery_policy(given: Option<&str>) -> String {
    let mut retry = json!({"minDelayTarget": 20, "maxDelayTarget": 20, "numRetries": 3, "numMaxDelayRetries": 0,
                           "numNoDelayRetries": 0, "numMinDelayRetries": 0, "backoffFunction": "linear"});
    let mut http = serde_json::Map::new();
    http.insert("disableSubscriptionOverrides".into(), json!(false));
    http.insert("defaultRequestPolicy".into(), json!({"headerContentType": "text/plain; charset=UTF-8"}));
    let given: Option<Value> = given.and_then(|g| serde_json::from_str(g).ok());
    if let Some(Value::Object(set)) = given.as_ref().and_then(|g| g.get("http")) {
        for (k, v) in set {
            match (k.as_str(), v, retry.as_object_mut()) {
                ("defaultHealthyRetryPolicy", Value::Object(fields), Some(r)) => {
                    r.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())))
                }
                _ => {
                    http.insert(k.clone(), v.clone());
                }
            }
        }
    }
    http.insert("defaultHealthyRetryPolicy".into(), retry);
    json!({ "http": Value::Object(http) }).to_string()
}

const TOPIC_ATTRIBUTES: &[&str] = &[
    "DisplayName",
    "Policy",
    "DeliveryPolicy",
    "KmsMasterKeyId",
    "SignatureVersion",
    "TracingConfig",
    "FifoTopic",
    "ContentBasedDeduplication",
    "ArchivePolicy",
    "FifoThroughputScope",
];
