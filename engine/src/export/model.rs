//! What every export reads from a simulation: its AWS resources as they are now, by name, in
//! name order, and one line for each thing only the simulator has (left out of every export).

use super::routes::{BusSpec, Dest, InvokeConfigSpec, RuleSpec};
use crate::ids;
use crate::sim::Sim;
use crate::sqs::RedriveAllow;
use serde_json::{json, Value};

/// How CloudFormation types an attribute that the SQS and SNS APIs write as a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Bool,
    Str,
}

/// One attribute as the API takes it (a string), with its CloudFormation type.
#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    pub name: &'static str,
    pub value: String,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TopicSpec {
    pub name: String,
    /// The attributes CreateTopic took that CloudFormation also sets, as given.
    pub attributes: Vec<Attr>,
    /// The EventBridge rules that target this topic, as (bus, rule): its topic policy lets them publish.
    pub rule_senders: Vec<(String, String)>,
    /// What was set in the playground and is not exported, and why.
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueSpec {
    pub name: String,
    /// Every attribute known when the queue is created (not the ARN-bearing policies).
    pub attributes: Vec<Attr>,
    /// `RedrivePolicy`: the dead-letter queue's name and `maxReceiveCount`.
    pub redrive: Option<(String, u32)>,
    /// `RedriveAllowPolicy`: `allowAll`, `denyAll` or `byQueue` with the source queues' names.
    pub redrive_allow: Option<(&'static str, Vec<String>)>,
    /// The topics that deliver to this queue (subscribed, or redriving a subscription to it):
    /// its queue policy lets exactly these send.
    pub senders: Vec<String>,
    /// The EventBridge rules that target this queue or use it as a target's dead-letter queue,
    /// as (bus, rule): the queue policy lets exactly these send too.
    pub rule_senders: Vec<(String, String)>,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SubscriptionSpec {
    pub topic: String,
    pub queue: String,
    pub raw: bool,
    /// The filter policy exactly as given, and its scope.
    pub filter_policy: Option<(String, &'static str)>,
    /// The subscription's own dead-letter queue (its `RedrivePolicy`), by name.
    pub dead_letter: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionSpec {
    pub name: String,
    pub runtime: String,
    pub handler: String,
    pub timeout_s: u32,
    pub memory_mb: u32,
    /// `DeadLetterConfig.TargetArn`, read.
    pub dead_letter: Option<Dest>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MappingSpec {
    pub uuid: String,
    pub queue: String,
    pub function: String,
    pub batch_size: u32,
    pub window_s: u32,
    pub max_concurrency: Option<u32>,
    pub report_failures: bool,
    pub enabled: bool,
}

/// An alarm in the shape `DescribeAlarms` answers (the `PutMetricAlarm` parameters).
#[derive(Clone, Debug, PartialEq)]
pub struct AlarmSpec {
    pub name: String,
    pub described: Value,
}

impl AlarmSpec {
    /// Whether it watches a metric AWS publishes (`AWS/SQS`, `AWS/Lambda`), not a playground one.
    pub fn on_aws_metric(&self) -> bool {
        self.field("Namespace").as_str().is_some_and(|n| n.starts_with("AWS/"))
    }

    pub fn field(&self, key: &str) -> &Value {
        &self.described[key]
    }

    /// The topic names of one action list (`AlarmActions`, `OKActions`, …).
    pub fn action_topics(&self, key: &str) -> Vec<String> {
        let list = self.described[key].as_array().map(Vec::as_slice).unwrap_or_default();
        list.iter().filter_map(Value::as_str).filter_map(ids::topic_name_from).map(str::to_string).collect()
    }
}

/// The resources of a simulation, ready to be written out.
#[derive(Clone, Debug, PartialEq)]
pub struct Topology {
    pub topics: Vec<TopicSpec>,
    pub queues: Vec<QueueSpec>,
    pub subscriptions: Vec<SubscriptionSpec>,
    pub functions: Vec<FunctionSpec>,
    pub mappings: Vec<MappingSpec>,
    pub alarms: Vec<AlarmSpec>,
    pub invoke_configs: Vec<InvokeConfigSpec>,
    /// Custom event buses only: the default bus is in every account.
    pub buses: Vec<BusSpec>,
    pub rules: Vec<RuleSpec>,
    /// One line per simulator-only thing, said in the export as a comment.
    pub left_out: Vec<String>,
    /// What the template has and the scripts do not make, one line each (said in the scripts).
    pub scripts_left_out: Vec<String>,
}

impl QueueSpec {
    /// Whether it needs a queue policy: something that sends to it needs its permission.
    pub fn has_policy(&self) -> bool {
        !self.senders.is_empty() || !self.rule_senders.is_empty()
    }
}

impl Topology {
    pub fn has_queue(&self, name: &str) -> bool {
        self.queues.iter().any(|q| q.name == name)
    }

    /// Whether the template makes IAM roles (a function's, a bus target's): deploying it needs
    /// `CAPABILITY_IAM`.
    pub fn makes_roles(&self) -> bool {
        let bus_target = self.rules.iter().flat_map(|r| &r.targets).any(|t| matches!(t.dest, Dest::Bus(_)));
        !self.functions.is_empty() || bus_target
    }

    pub fn has_topic(&self, name: &str) -> bool {
        self.topics.iter().any(|t| t.name == name)
    }
}

/// The rules with a target that sends to this queue (or topic), and for a queue, a target whose
/// dead-letter queue it is: as (bus, rule), sorted, each once.
fn rule_senders(rules: &[RuleSpec], name: &str, queue: bool) -> Vec<(String, String)> {
    let is_it = |d: &Dest| match d {
        Dest::Queue(n) => queue && n == name,
        Dest::Topic(n) => !queue && n == name,
        _ => false,
    };
    let mut out: Vec<(String, String)> = rules
        .iter()
        .filter(|r| r.targets.iter().any(|t| is_it(&t.dest) || t.dead_letter.as_ref().is_some_and(is_it)))
        .map(|r| (r.bus.clone(), r.name.clone()))
        .collect();
    crate::vecmap::sort(&mut out);
    out.dedup();
    out
}

/// The scripts make no Lambda functions and no IAM roles: one line for each invoke configuration
/// and each rule target (a function, or a bus, whose delivery needs a role) the template has and
/// the scripts do not make.
fn scripts_left_out(configs: &[InvokeConfigSpec], rules: &[RuleSpec]) -> Vec<String> {
    let mut out = Vec::new();
    for c in configs {
        out.push(format!(
            "event invoke config of function {} (retries, maximum event age, destinations): in the CloudFormation export only, with the function",
            c.function
        ));
    }
    for r in rules {
        for t in r.targets.iter().filter(|t| !t.scripted()) {
            out.push(format!(
                "target {} of rule {} on event bus {} ({}): in the CloudFormation export only (it needs a function or an IAM role)",
                t.id,
                r.name,
                r.bus,
                t.dest.describe()
            ));
        }
    }
    out
}

/// Topic attributes CloudFormation sets as `AWS::SNS::Topic` properties of the same name.
const TOPIC_EXPORTED: &[(&str, Kind)] = &[
    ("DisplayName", Kind::Str),
    ("FifoTopic", Kind::Bool),
    ("ContentBasedDeduplication", Kind::Bool),
    ("FifoThroughputScope", Kind::Str),
    ("KmsMasterKeyId", Kind::Str),
    ("SignatureVersion", Kind::Str),
    ("TracingConfig", Kind::Str),
    ("ArchivePolicy", Kind::Str),
];

fn topic_spec(t: &crate::sns::Topic) -> TopicSpec {
    let attributes = TOPIC_EXPORTED
        .iter()
        .filter_map(|(name, kind)| t.attributes.get(*name).map(|v| Attr { name, value: v.clone(), kind: *kind }))
        .collect();
    let mut notes = Vec::new();
    if t.attributes.contains_key("Policy") {
        notes.push("Its Policy attribute is left out: it names the playground's account; write an AWS::SNS::TopicPolicy for your own.".to_string());
    }
    if t.attributes.contains_key("DeliveryPolicy") {
        notes.push(
            "Its DeliveryPolicy is left out: it tunes HTTP/S retries, and CloudFormation sets it per subscription."
                .to_string(),
        );
    }
    TopicSpec { name: t.name.to_string(), attributes, rule_senders: Vec::new(), notes }
}

fn queue_spec(q: &crate::sqs::Queue, senders: Vec<String>) -> QueueSpec {
    let c = &q.config;
    let all = c.to_attributes();
    let int = |name: &'static str, v: u32| Attr { name, value: v.to_string(), kind: Kind::Int };
    let mut attributes = vec![
        int("VisibilityTimeout", c.visibility_timeout),
        int("MessageRetentionPeriod", c.retention_period),
        int("DelaySeconds", c.delay_seconds),
        int("ReceiveMessageWaitTimeSeconds", c.receive_wait_time),
        int("MaximumMessageSize", c.maximum_message_size),
    ];
    let given: [(&'static str, Kind, bool); 7] = [
        ("FifoQueue", Kind::Bool, c.fifo.is_some()),
        ("ContentBasedDeduplication", Kind::Bool, c.fifo.is_some()),
        ("DeduplicationScope", Kind::Str, c.fifo.is_some()),
        ("FifoThroughputLimit", Kind::Str, c.fifo.is_some()),
        ("SqsManagedSseEnabled", Kind::Bool, c.passthrough.contains_key("SqsManagedSseEnabled")),
        ("KmsMasterKeyId", Kind::Str, c.passthrough.contains_key("KmsMasterKeyId")),
        ("KmsDataKeyReusePeriodSeconds", Kind::Int, c.passthrough.contains_key("KmsDataKeyReusePeriodSeconds")),
    ];
    for (name, kind, set) in given {
        if let Some(value) = all.get(name).filter(|_| set) {
            attributes.push(Attr { name, value: value.clone(), kind });
        }
    }
    let redrive = c.redrive_policy.as_ref().and_then(|r| {
        ids::queue_name_from(&r.dead_letter_target_arn).map(|dlq| (dlq.to_string(), r.max_receive_count))
    });
    let redrive_allow = c.redrive_allow.as_ref().map(|a| match a {
        RedriveAllow::AllowAll => ("allowAll", Vec::new()),
        RedriveAllow::DenyAll => ("denyAll", Vec::new()),
        RedriveAllow::ByQueue(arns) => {
            ("byQueue", arns.iter().map(|a| ids::queue_name_from(a).unwrap_or(a).to_string()).collect())
        }
    });
    let mut notes = Vec::new();
    if c.passthrough.contains_key("Policy") {
        notes.push("Its Policy attribute is left out: it names the playground's account; the queue policy below lets exactly its subscribed topics send.".to_string());
    }
    QueueSpec { name: q.name.to_string(), attributes, redrive, redrive_allow, senders, rule_senders: Vec::new(), notes }
}

impl Sim {
    /// The simulation's AWS resources, for the exports (engine state read, nothing changed).
    pub(crate) fn export_topology(&self) -> Topology {
        let (buses, rules) = self.export_eventbridge();
        let topics: Vec<TopicSpec> = self
            .topics
            .values()
            .map(|t| TopicSpec { rule_senders: rule_senders(&rules, &t.name, false), ..topic_spec(t) })
            .collect();
        let subscriptions: Vec<SubscriptionSpec> = self
            .topics
            .values()
            .flat_map(|t| t.subscriptions.iter())
            .filter_map(|arn| self.subscriptions.get(arn))
            .filter_map(|s| {
                Some(SubscriptionSpec {
                    topic: s.topic.to_string(),
                    queue: s.queue_name()?.to_string(),
                    raw: s.raw,
                    filter_policy: s.filter.as_ref().map(|f| (f.json.clone(), s.scope.as_str())),
                    dead_letter: s.dead_letter_arn.as_deref().and_then(ids::queue_name_from).map(str::to_string),
                })
            })
            .collect();
        let queues = self
            .queues
            .values()
            .map(|q| {
                // SNS sends to the subscribed queue, and to a subscription's dead-letter queue.
                let mut senders: Vec<String> = subscriptions
                    .iter()
                    .filter(|s| s.queue == *q.name || s.dead_letter.as_deref() == Some(&*q.name))
                    .map(|s| s.topic.clone())
                    .collect();
                crate::vecmap::sort(&mut senders);
                senders.dedup();
                QueueSpec { rule_senders: rule_senders(&rules, &q.name, true), ..queue_spec(q, senders) }
            })
            .collect();
        let alarms = self.export_alarms();
        let mut left_out = self.export_left_out();
        self.eventbridge_left_out(&mut left_out);
        let invoke_configs = self.export_invoke_configs();
        for a in alarms.iter().filter(|a| !a.on_aws_metric()) {
            left_out.push(format!(
                "alarm {} on {} {}: a metric only the simulator has",
                a.name,
                a.field("Namespace").as_str().unwrap_or_default(),
                a.field("MetricName").as_str().unwrap_or_default()
            ));
        }
        Topology {
            topics,
            queues,
            subscriptions,
            functions: self.export_functions(),
            mappings: self.export_mappings(),
            alarms,
            scripts_left_out: scripts_left_out(&invoke_configs, &rules),
            invoke_configs,
            buses,
            rules,
            left_out,
        }
    }

    fn export_functions(&self) -> Vec<FunctionSpec> {
        let functions = self.world.functions.values();
        functions
            .map(|f| FunctionSpec {
                name: f.name.to_string(),
                runtime: f.runtime.clone(),
                handler: f.handler.clone(),
                timeout_s: f.timeout_s,
                memory_mb: f.memory_mb,
                dead_letter: self.export_dead_letter(&f.name),
            })
            .collect()
    }

    fn export_mappings(&self) -> Vec<MappingSpec> {
        let view = self.world_view();
        view.event_source_mappings
            .into_iter()
            .zip(self.world.mappings.values())
            .map(|(m, state)| MappingSpec {
                uuid: m.uuid,
                queue: m.queue,
                function: m.function,
                batch_size: m.batch_size,
                window_s: m.batching_window_s,
                max_concurrency: m.maximum_concurrency,
                report_failures: m.report_batch_item_failures,
                enabled: state.enabled,
            })
            .collect()
    }

    /// Alarms as `DescribeAlarms` answers, asked of a copy (a query through the API's own shapes).
    fn export_alarms(&self) -> Vec<AlarmSpec> {
        let names: Vec<String> = self.world.alarms.keys().map(|n| n.to_string()).collect();
        if names.is_empty() {
            return Vec::new();
        }
        let mut probe = self.clone();
        probe.set_event_recording(false);
        let mut out = Vec::new();
        for chunk in names.chunks(100) {
            let answer = probe.apply("DescribeAlarms", &json!({ "AlarmNames": chunk, "MaxRecords": 100 }));
            let alarms = answer.ok().and_then(|a| a.get("MetricAlarms").and_then(Value::as_array).cloned());
            for a in alarms.unwrap_or_default() {
                let name = a["AlarmName"].as_str().unwrap_or_default().to_string();
                out.push(AlarmSpec { name, described: a });
            }
        }
        out
    }
}
