//! The CloudFormation export: a YAML template with the simulation's topics, queues, queue
//! policies, subscriptions, alarms and Lambda event source mappings, with resource types and
//! property names as the CloudFormation template reference spells them. Everything that links
//! resources is a `!Ref`/`!GetAtt`, so the template deploys into any account and region.

use super::logical_ids::LogicalIds;
use super::model::{AlarmSpec, Attr, FunctionSpec, Kind, MappingSpec, QueueSpec, SubscriptionSpec, Topology};
use super::yaml::{write_comments, write_map, Entry, MapBuilder, Yaml};
use crate::sim::Sim;
use serde_json::Value;

/// The placeholder handler of an exported function: the simulated behavior has no code to export.
const PLACEHOLDER_CODE: &str = r#"# PLACEHOLDER exported by Fan-out Playground: put your own code here.
# As written it logs each record and reports no failures, so every record is deleted.
import json


def handler(event, context):
    for record in event.get("Records", []):
        print(json.dumps({"messageId": record["messageId"], "body": record["body"]}))
    return {"batchItemFailures": []}
"#;

/// The CloudFormation template (YAML) of everything the simulation holds now.
pub fn template(sim: &Sim) -> String {
    let topology = sim.export_topology();
    let mut resources = resources(&topology);
    let mut out = String::new();
    write_comments(&mut out, 0, &header(sim, &topology));
    let mut top = MapBuilder::new()
        .put("AWSTemplateFormatVersion", Yaml::str("2010-09-09"))
        .put("Description", Yaml::str("Topics, queues and subscriptions exported from Fan-out Playground"));
    if resources.is_empty() {
        resources.push(Entry {
            comments: vec![
                "The simulation has no AWS resources; a template needs one, so here is an empty handle.".into()
            ],
            key: "EmptyStack".into(),
            value: MapBuilder::new().put("Type", Yaml::str("AWS::CloudFormation::WaitConditionHandle")).build(),
        });
    }
    top = top.put("Resources", Yaml::Map(resources));
    let Yaml::Map(entries) = top.build() else { return out };
    write_map(&mut out, 0, &entries);
    out
}

/// Every resource of the template, in the order written.
fn resources(topology: &Topology) -> Vec<Entry> {
    let mut w = Writer { ids: LogicalIds::default(), resources: Vec::new(), topology };
    w.assign_ids();
    w.assign_route_ids();
    w.topics();
    w.queues();
    w.subscriptions();
    w.functions();
    w.invoke_configs();
    w.eventbridge();
    w.alarms();
    w.resources
}

/// The resources as a tree, for the tests to read.
#[cfg(test)]
pub(crate) fn template_tree(sim: &Sim) -> Vec<Entry> {
    resources(&sim.export_topology())
}

fn header(sim: &Sim, topology: &Topology) -> Vec<String> {
    let mut lines = vec![
        "CloudFormation template exported by Fan-out Playground".to_string(),
        format!("from the simulation at virtual time {} (seed {}).", sim.now(), sim.seed()),
        format!(
            "Deploy: aws cloudformation deploy --template-file FILE --stack-name NAME{}",
            if topology.makes_roles() { " --capabilities CAPABILITY_IAM" } else { "" }
        ),
        "Resource names are fixed (TopicName, QueueName, FunctionName, AlarmName): one stack per account and region."
            .to_string(),
    ];
    if !topology.left_out.is_empty() {
        lines.push(String::new());
        lines.push("Left out, because only the simulator has them:".to_string());
        lines.extend(topology.left_out.iter().map(|l| format!("- {l}")));
    }
    lines
}

pub(crate) struct Writer<'a> {
    pub(crate) ids: LogicalIds,
    pub(crate) resources: Vec<Entry>,
    pub(crate) topology: &'a Topology,
}

/// A resource: `Type`, `Properties`, and `DependsOn` when it must wait for another.
pub(crate) fn resource(kind: &str, properties: MapBuilder, depends_on: Option<String>) -> Yaml {
    MapBuilder::new()
        .put("Type", Yaml::str(kind))
        .put_opt("DependsOn", depends_on.map(Yaml::Str))
        .put("Properties", properties.build())
        .build()
}

fn attr_value(a: &Attr) -> Yaml {
    match a.kind {
        Kind::Int => a.value.parse().map(Yaml::Int).unwrap_or_else(|_| Yaml::str(&a.value)),
        Kind::Bool => Yaml::Bool(a.value == "true"),
        Kind::Str => Yaml::str(&a.value),
    }
}

/// `arn:<partition>:<service>:<region>:<account>:<name>` for a resource not in the template.
/// The name was checked by the engine (letters, digits, `-`, `_`, `.`), so it is safe in `!Sub`.
pub(crate) fn sub_arn(service: &str, name: &str) -> Yaml {
    let safe: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')).collect();
    Yaml::Sub(format!("arn:${{AWS::Partition}}:{service}:${{AWS::Region}}:${{AWS::AccountId}}:{safe}"))
}

impl Writer<'_> {
    fn assign_ids(&mut self) {
        let t = self.topology;
        for topic in &t.topics {
            self.ids.assign(&format!("topic:{}", topic.name), &[&topic.name], "Topic");
        }
        for q in &t.queues {
            self.ids.assign(&format!("queue:{}", q.name), &[&q.name], "Queue");
        }
        for q in t.queues.iter().filter(|q| q.has_policy()) {
            self.ids.derive(&format!("policy:{}", q.name), &format!("queue:{}", q.name), "Policy");
        }
        for f in &t.functions {
            self.ids.assign(&format!("function:{}", f.name), &[&f.name], "Function");
            self.ids.derive(&format!("role:{}", f.name), &format!("function:{}", f.name), "Role");
        }
    }

    pub(crate) fn add(&mut self, comments: Vec<String>, id: String, value: Yaml) {
        self.resources.push(Entry { comments, key: id, value });
    }

    pub(crate) fn queue_arn(&self, name: &str) -> Yaml {
        match self.ids.get(&format!("queue:{name}")) {
            Some(id) => Yaml::GetAtt(id.to_string(), "Arn"),
            None => sub_arn("sqs", name),
        }
    }

    pub(crate) fn topic_arn(&self, name: &str) -> Yaml {
        match self.ids.get(&format!("topic:{name}")) {
            Some(id) => Yaml::Ref(id.to_string()),
            None => sub_arn("sns", name),
        }
    }

    fn topics(&mut self) {
        for t in &self.topology.topics {
            let mut props = MapBuilder::new().put("TopicName", Yaml::str(&t.name));
            for a in &t.attributes {
                props = props.put(a.name, attr_value(a));
            }
            let id = self.ids.assign(&format!("topic:{}", t.name), &[&t.name], "Topic");
            self.add(t.notes.clone(), id, resource("AWS::SNS::Topic", props, None));
        }
    }

    fn queues(&mut self) {
        let cycles = QueueCycles::of(&self.topology.queues);
        for (i, q) in self.topology.queues.iter().enumerate() {
            let id = self.ids.assign(&format!("queue:{}", q.name), &[&q.name], "Queue");
            let mut notes = q.notes.clone();
            let props = self.queue_properties(q, &cycles.dropped[i], &cycles.by_name[i]);
            if let (Some((dlq, max)), true) = (&q.redrive, cycles.dropped[i]) {
                let chain = cycles.chain(&self.topology.queues, i);
                notes.push(format!(
                    "Its RedrivePolicy (dead-letter queue {dlq}, maxReceiveCount {max}) is left out: the dead-letter queues {chain} form a cycle, and a stack cannot create one (each queue's RedrivePolicy needs its dead-letter queue to exist first)."
                ));
                notes.push(format!(
                    "Set it once the stack exists: aws sqs set-queue-attributes --queue-url QUEUE_URL_OF_{} --attributes '{{\"RedrivePolicy\":\"{{\\\"deadLetterTargetArn\\\":\\\"ARN_OF_{}\\\",\\\"maxReceiveCount\\\":{max}}}\"}}'",
                    q.name, dlq
                ));
            }
            self.add(notes, id, resource("AWS::SQS::Queue", props, None));
            if q.has_policy() {
                self.queue_policy(q);
            }
        }
    }

    /// `drop_redrive`: the redrive policy closes a dead-letter cycle and is left out;
    /// `by_name`: the redrive allow policy's sources written as `!Sub` ARNs, not `!GetAtt`, where
    /// a reference would close a cycle (a source queue's ARN is only a name there, so it may
    /// come later).
    fn queue_properties(&self, q: &QueueSpec, drop_redrive: &bool, by_name: &[usize]) -> MapBuilder {
        let mut props = MapBuilder::new().put("QueueName", Yaml::str(&q.name));
        for a in &q.attributes {
            props = props.put(a.name, attr_value(a));
        }
        if let (Some((dlq, max)), false) = (&q.redrive, *drop_redrive) {
            let policy = MapBuilder::new()
                .put("deadLetterTargetArn", self.queue_arn(dlq))
                .put("maxReceiveCount", Yaml::Int(u64::from(*max)));
            props = props.put("RedrivePolicy", policy.build());
        }
        if let Some((permission, sources)) = &q.redrive_allow {
            let mut policy = MapBuilder::new().put("redrivePermission", Yaml::str(*permission));
            if !sources.is_empty() {
                let arns = sources
                    .iter()
                    .enumerate()
                    .map(|(k, s)| if by_name.contains(&k) { sub_arn("sqs", s) } else { self.queue_arn(s) })
                    .collect();
                policy = policy.put("sourceQueueArns", Yaml::List(arns));
            }
            props = props.put("RedriveAllowPolicy", policy.build());
        }
        props
    }

    /// One statement per topic that delivers here: SNS may send, from exactly that topic.
    fn queue_policy(&mut self, q: &QueueSpec) {
        let queue_id = self.ids.get(&format!("queue:{}", q.name)).unwrap_or_default().to_string();
        let mut statements: Vec<Yaml> = q
            .senders
            .iter()
            .map(|topic| {
                let condition = MapBuilder::new()
                    .put("ArnEquals", MapBuilder::new().put("aws:SourceArn", self.topic_arn(topic)).build());
                MapBuilder::new()
                    .put("Effect", Yaml::str("Allow"))
                    .put("Principal", MapBuilder::new().put("Service", Yaml::str("sns.amazonaws.com")).build())
                    .put("Action", Yaml::str("sqs:SendMessage"))
                    .put("Resource", Yaml::GetAtt(queue_id.clone(), "Arn"))
                    .put("Condition", condition.build())
                    .build()
            })
            .collect();
        statements.extend(self.rule_statements(&queue_id, &q.rule_senders));
        let document =
            MapBuilder::new().put("Version", Yaml::str("2012-10-17")).put("Statement", Yaml::List(statements));
        let props = MapBuilder::new()
            .put("Queues", Yaml::List(vec![Yaml::Ref(queue_id)]))
            .put("PolicyDocument", document.build());
        let id = self.ids.derive(&format!("policy:{}", q.name), &format!("queue:{}", q.name), "Policy");
        let mut comments = Vec::new();
        if !q.senders.is_empty() {
            comments.push(format!("Lets SNS deliver to {} from exactly: {}.", q.name, q.senders.join(", ")));
        }
        if !q.rule_senders.is_empty() {
            let rules: Vec<&str> = q.rule_senders.iter().map(|(_, r)| r.as_str()).collect();
            comments.push(format!(
                "Lets EventBridge deliver to {} from exactly the rules: {}.",
                q.name,
                rules.join(", ")
            ));
        }
        self.add(comments, id, resource("AWS::SQS::QueuePolicy", props, None));
    }

    fn subscriptions(&mut self) {
        for s in &self.topology.subscriptions {
            let key = format!("subscription:{}>{}", s.topic, s.queue);
            let id = self.ids.assign(&key, &[&s.topic, &s.queue], "Subscription");
            let (props, comments) = self.subscription_properties(s);
            let policy = self.ids.get(&format!("policy:{}", s.queue)).map(str::to_string);
            self.add(comments, id, resource("AWS::SNS::Subscription", props, policy));
        }
    }

    fn subscription_properties(&self, s: &SubscriptionSpec) -> (MapBuilder, Vec<String>) {
        let mut comments = Vec::new();
        if !self.topology.has_queue(&s.queue) {
            comments
                .push(format!("The queue {} does not exist in the simulation now: create it, or drop this.", s.queue));
        }
        let mut props = MapBuilder::new()
            .put("TopicArn", self.topic_arn(&s.topic))
            .put("Protocol", Yaml::str("sqs"))
            .put("Endpoint", self.queue_arn(&s.queue))
            .put("RawMessageDelivery", Yaml::Bool(s.raw));
        if let Some((policy, scope)) = &s.filter_policy {
            // The policy's own text, as a string: CloudFormation takes JSON text or a mapping.
            props = props.put("FilterPolicyScope", Yaml::str(*scope)).put("FilterPolicy", Yaml::str(policy));
        }
        if let Some(dlq) = &s.dead_letter {
            let policy = MapBuilder::new().put("deadLetterTargetArn", self.queue_arn(dlq));
            props = props.put("RedrivePolicy", policy.build());
        }
        (props, comments)
    }

    fn functions(&mut self) {
        for f in &self.topology.functions {
            self.function(f);
        }
        for m in &self.topology.mappings {
            self.mapping(m);
        }
    }

    fn function(&mut self, f: &FunctionSpec) {
        let role_id = self.ids.derive(&format!("role:{}", f.name), &format!("function:{}", f.name), "Role");
        let trust = MapBuilder::new()
            .put("Effect", Yaml::str("Allow"))
            .put("Principal", MapBuilder::new().put("Service", Yaml::str("lambda.amazonaws.com")).build())
            .put("Action", Yaml::str("sts:AssumeRole"));
        let role = MapBuilder::new()
            .put(
                "AssumeRolePolicyDocument",
                MapBuilder::new()
                    .put("Version", Yaml::str("2012-10-17"))
                    .put("Statement", Yaml::List(vec![trust.build()]))
                    .build(),
            )
            .put(
                "ManagedPolicyArns",
                Yaml::List(vec![Yaml::Sub(
                    "arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole".into(),
                )]),
            )
            .put_opt("Policies", self.destination_policy(&f.name));
        let role_comment = format!("Lets {} read and delete from SQS and write its logs.", f.name);
        self.add(vec![role_comment], role_id.clone(), resource("AWS::IAM::Role", role, None));
        let python = f.runtime.starts_with("python3");
        let runtime = if python { f.runtime.clone() } else { "python3.13".to_string() };
        let mut comments = vec![format!(
            "PLACEHOLDER: the playground simulates {}'s behavior; this inline handler only logs and succeeds. Replace Code with yours.",
            f.name
        )];
        if !python || f.handler != "index.handler" {
            comments.push(format!(
                "In the playground: runtime {}, handler {}; inline code runs as index.handler on Python.",
                f.runtime, f.handler
            ));
        }
        let props = MapBuilder::new()
            .put("FunctionName", Yaml::str(&f.name))
            .put("Runtime", Yaml::str(runtime))
            .put("Handler", Yaml::str("index.handler"))
            .put("Role", Yaml::GetAtt(role_id, "Arn"))
            .put("Timeout", Yaml::Int(u64::from(f.timeout_s)))
            .put("MemorySize", Yaml::Int(u64::from(f.memory_mb)))
            .put_opt("DeadLetterConfig", self.function_dead_letter(&f.name))
            .put("Code", MapBuilder::new().put("ZipFile", Yaml::Block(PLACEHOLDER_CODE)).build());
        let id = self.ids.assign(&format!("function:{}", f.name), &[&f.name], "Function");
        self.add(comments, id, resource("AWS::Lambda::Function", props, None));
    }

    fn mapping(&mut self, m: &MappingSpec) {
        let function = match self.ids.get(&format!("function:{}", m.function)) {
            Some(id) => Yaml::Ref(id.to_string()),
            None => Yaml::str(&m.function),
        };
        let mut props = MapBuilder::new()
            .put("EventSourceArn", self.queue_arn(&m.queue))
            .put("FunctionName", function)
            .put("BatchSize", Yaml::Int(u64::from(m.batch_size)))
            .put("MaximumBatchingWindowInSeconds", Yaml::Int(u64::from(m.window_s)))
            .put("Enabled", Yaml::Bool(m.enabled));
        if m.report_failures {
            props = props.put("FunctionResponseTypes", Yaml::List(vec![Yaml::str("ReportBatchItemFailures")]));
        }
        if let Some(c) = m.max_concurrency {
            props = props
                .put("ScalingConfig", MapBuilder::new().put("MaximumConcurrency", Yaml::Int(u64::from(c))).build());
        }
        let id = self.ids.assign(&format!("mapping:{}", m.uuid), &[&m.queue, &m.function], "Mapping");
        let comment = format!("Event source mapping {} in the playground.", m.uuid);
        self.add(vec![comment], id, resource("AWS::Lambda::EventSourceMapping", props, None));
    }

    fn alarms(&mut self) {
        for a in self.topology.alarms.iter().filter(|a| a.on_aws_metric()) {
            let (props, comments) = self.alarm_properties(a);
            let id = self.ids.assign(&format!("alarm:{}", a.name), &[&a.name], "Alarm");
            self.add(comments, id, resource("AWS::CloudWatch::Alarm", props, None));
        }
    }

    fn alarm_properties(&self, a: &AlarmSpec) -> (MapBuilder, Vec<String>) {
        let text = |k: &str| Yaml::str(a.field(k).as_str().unwrap_or_default());
        let int = |k: &str| Yaml::Int(a.field(k).as_u64().unwrap_or(1));
        let mut comments = Vec::new();
        let period = a.field("Period").as_u64().unwrap_or(60);
        if period < 60 {
            comments.push(format!(
                "Period {period} s: AWS metrics come once a minute, so on AWS this alarm may often be INSUFFICIENT_DATA."
            ));
        }
        let description = a.field("AlarmDescription").as_str().filter(|d| !d.is_empty());
        let mut props = MapBuilder::new()
            .put("AlarmName", Yaml::str(&a.name))
            .put_opt("AlarmDescription", description.map(Yaml::str))
            .put("Namespace", text("Namespace"))
            .put("MetricName", text("MetricName"))
            .put("Dimensions", Yaml::List(self.dimensions(a)))
            .put("Statistic", text("Statistic"))
            .put("Period", Yaml::Int(period))
            .put("EvaluationPeriods", int("EvaluationPeriods"))
            .put("DatapointsToAlarm", int("DatapointsToAlarm"))
            .put("Threshold", Yaml::Number(number_text(a.field("Threshold"))))
            .put("ComparisonOperator", text("ComparisonOperator"))
            .put("TreatMissingData", text("TreatMissingData"))
            .put("ActionsEnabled", Yaml::Bool(a.field("ActionsEnabled").as_bool().unwrap_or(true)));
        for key in ["AlarmActions", "OKActions", "InsufficientDataActions"] {
            let topics = a.action_topics(key);
            if !topics.is_empty() {
                props = props.put(key, Yaml::List(topics.iter().map(|t| self.topic_arn(t)).collect()));
            }
        }
        (props, comments)
    }

    /// The alarm's dimension; a queue or function of the template is named through it.
    fn dimensions(&self, a: &AlarmSpec) -> Vec<Yaml> {
        let list = a.field("Dimensions").as_array().cloned().unwrap_or_default();
        list.iter()
            .map(|d| {
                let name = d["Name"].as_str().unwrap_or_default();
                let value = d["Value"].as_str().unwrap_or_default();
                let linked = match name {
                    "QueueName" => {
                        self.ids.get(&format!("queue:{value}")).map(|id| Yaml::GetAtt(id.into(), "QueueName"))
                    }
                    "FunctionName" => self.ids.get(&format!("function:{value}")).map(|id| Yaml::Ref(id.into())),
                    _ => None,
                };
                MapBuilder::new().put("Name", Yaml::str(name)).put("Value", linked.unwrap_or(Yaml::str(value))).build()
            })
            .collect()
    }
}

/// A JSON number as JSON writes it (serde_json's shortest round-trip form), `0` if not a number.
pub(crate) fn number_text(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        _ => "0".to_string(),
    }
}

/// Where the queues' references to each other would make CloudFormation's dependency graph a
/// cycle (cfn-lint E3004), and how the template breaks it. AWS accepts a cycle of dead-letter
/// queues (each set after the other exists), but one stack cannot create it: a `!GetAtt` each way
/// is a circular dependency, and a `!Sub` ARN is refused because SQS checks that the
/// dead-letter target exists. So a cycle of redrive policies leaves out the policy of its last
/// queue in the template's order, with a note on how to set it; a redrive allow policy whose
/// source would close a cycle names that source by ARN, which needs no order.
struct QueueCycles {
    /// Per queue: its redrive policy is left out.
    dropped: Vec<bool>,
    /// Per queue: the indexes, in its redrive allow policy's sources, written by name.
    by_name: Vec<Vec<usize>>,
}

impl QueueCycles {
    fn of(queues: &[QueueSpec]) -> QueueCycles {
        let index = |name: &str| queues.iter().position(|q| q.name == name);
        let target: Vec<Option<usize>> =
            queues.iter().map(|q| q.redrive.as_ref().and_then(|(dlq, _)| index(dlq))).collect();
        let mut dropped = vec![false; queues.len()];
        // The redrive graph has at most one edge out of each queue: follow it from each queue;
        // if it comes back, the cycle's last member (highest index) loses its policy.
        for start in 0..queues.len() {
            let mut seen = vec![start];
            let mut at = start;
            while let Some(next) = target[at].filter(|_| !dropped[at]) {
                if next == start {
                    let last = *seen.iter().max().unwrap_or(&start);
                    dropped[last] = true;
                    break;
                }
                if seen.contains(&next) {
                    break;
                }
                seen.push(next);
                at = next;
            }
        }
        // Allow-policy edges (queue -> each source), each kept as a reference unless the source
        // already reaches the queue through the references kept so far (then it is by name).
        let mut by_name: Vec<Vec<usize>> = vec![Vec::new(); queues.len()];
        let mut allow: Vec<Vec<(usize, usize)>> = queues
            .iter()
            .map(|q| match &q.redrive_allow {
                Some((_, sources)) => sources.iter().enumerate().filter_map(|(k, s)| Some((k, index(s)?))).collect(),
                None => Vec::new(),
            })
            .collect();
        for q in 0..queues.len() {
            for n in 0..allow[q].len() {
                let (k, source) = allow[q][n];
                let reaches = |from: usize, allow: &Vec<Vec<(usize, usize)>>| {
                    let mut stack = vec![from];
                    let mut seen = vec![false; queues.len()];
                    while let Some(at) = stack.pop() {
                        if at == q {
                            return true;
                        }
                        if std::mem::replace(&mut seen[at], true) {
                            continue;
                        }
                        stack.extend(target[at].filter(|_| !dropped[at]));
                        stack.extend(allow[at].iter().map(|&(_, s)| s));
                    }
                    false
                };
                if reaches(source, &allow) {
                    by_name[q].push(k);
                    allow[q][n].1 = q; // a self-edge stands for "no reference"
                }
            }
            allow[q].retain(|&(_, s)| s != q);
        }
        QueueCycles { dropped, by_name }
    }

    /// The cycle through queue `i` as `a -> b -> a`.
    fn chain(&self, queues: &[QueueSpec], i: usize) -> String {
        let mut names = vec![queues[i].name.as_str()];
        let mut at = i;
        while let Some((dlq, _)) = &queues[at].redrive {
            names.push(dlq);
            match queues.iter().position(|q| q.name == *dlq) {
                Some(next) if next != i && names.len() <= queues.len() => at = next,
                _ => break,
            }
        }
        names.join(" -> ")
    }
}
