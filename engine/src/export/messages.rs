//! The messages of a story, for the scripts to send again: every successful `Publish`,
//! `PublishBatch`, `SendMessage` and `SendMessageBatch`, in order, with its parameters exactly as
//! given (bodies, attributes, group and deduplication ids), the topic or queue named by name.

use super::model::Topology;
use crate::history::Command;
use crate::ids;
use crate::time::SimTime;
use serde_json::{Map, Value};

/// The four calls that bring messages in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    Publish,
    PublishBatch,
    SendMessage,
    SendMessageBatch,
}

impl Call {
    fn of(action: &str) -> Option<Call> {
        Some(match action {
            "Publish" => Call::Publish,
            "PublishBatch" => Call::PublishBatch,
            "SendMessage" => Call::SendMessage,
            "SendMessageBatch" => Call::SendMessageBatch,
            _ => return None,
        })
    }

    pub fn to_topic(self) -> bool {
        matches!(self, Call::Publish | Call::PublishBatch)
    }

    /// The boto3 method and the AWS CLI command.
    pub fn python_and_cli(self) -> (&'static str, &'static str) {
        match self {
            Call::Publish => ("publish", "publish"),
            Call::PublishBatch => ("publish_batch", "publish-batch"),
            Call::SendMessage => ("send_message", "send-message"),
            Call::SendMessageBatch => ("send_message_batch", "send-message-batch"),
        }
    }
}

/// One message-bearing call of the story.
#[derive(Clone, Debug, PartialEq)]
pub struct MessageCall {
    pub at: SimTime,
    pub kind: Call,
    /// The topic's or the queue's name.
    pub target: String,
    /// The parameters without the topic or queue reference, exactly as applied.
    pub params: Map<String, Value>,
    /// Why the call is not made again (its topic or queue is gone now).
    pub skipped: Option<String>,
}

/// The parameters that name the target, by action.
const TARGET_KEYS: &[&str] = &["TopicArn", "TargetArn", "QueueUrl"];

/// The story's message calls, in the order they were made.
pub fn message_calls(commands: &[Command], topology: &Topology) -> Vec<MessageCall> {
    commands.iter().filter_map(|c| message_call(c, topology)).collect()
}

fn message_call(c: &Command, topology: &Topology) -> Option<MessageCall> {
    let kind = Call::of(&c.action)?;
    let Value::Object(all) = &c.params else { return None };
    let reference = TARGET_KEYS.iter().find_map(|k| all.get(*k).and_then(Value::as_str)).unwrap_or_default();
    let name = if kind.to_topic() { ids::topic_name_from(reference) } else { ids::queue_name_from(reference) };
    let target = name.unwrap_or(reference).to_string();
    let exists = if kind.to_topic() { topology.has_topic(&target) } else { topology.has_queue(&target) };
    let skipped = (!exists).then(|| {
        format!("{} {target} does not exist at the end of the story", if kind.to_topic() { "topic" } else { "queue" })
    });
    let params = all.iter().filter(|(k, _)| !TARGET_KEYS.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone()));
    Some(MessageCall { at: c.at, kind, target, params: crate::vecmap::json_object(params), skipped })
}

/// Parameters the API types as integers, which the playground also takes as numeric strings.
pub fn is_integer_param(key: &str) -> bool {
    key == "DelaySeconds"
}
