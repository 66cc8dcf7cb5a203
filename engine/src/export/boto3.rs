//! The boto3 export: a Python script that makes the simulation's resources in order (topics,
//! queues, redrive policies once every queue has its ARN, queue policies, subscriptions, alarms),
//! sends the story's messages again exactly as they were sent, and prints each queue's count.

use super::messages::{is_integer_param, message_calls, MessageCall};
use super::model::{AlarmSpec, QueueSpec, SubscriptionSpec, Topology};
use super::quote::{comment_text, py_str};
use super::routes::{Dest, RuleSpec, TargetSpec};
use super::yaml::write_comments;
use crate::history::Command;
use crate::sim::Sim;
use serde_json::Value;

const PRELUDE: &str = r#"import argparse
import base64
import json
import time

import boto3


def statement(service, action, resource, source_arn):
    """Lets one service principal act on the resource, from exactly one source ARN."""
    return {
        "Effect": "Allow",
        "Principal": {"Service": service},
        "Action": action,
        "Resource": resource,
        "Condition": {"ArnEquals": {"aws:SourceArn": source_arn}},
    }


def queue_policy(queue_arn, topic_arns, rule_arns=()):
    """A queue policy that lets SNS send to the queue from exactly these topics, and EventBridge
    from exactly these rules."""
    statements = [statement("sns.amazonaws.com", "sqs:SendMessage", queue_arn, t) for t in topic_arns]
    statements += [statement("events.amazonaws.com", "sqs:SendMessage", queue_arn, r) for r in rule_arns]
    return json.dumps({"Version": "2012-10-17", "Statement": statements})


def topic_policy(topic_arn, rule_arns):
    """A topic policy that lets EventBridge publish to the topic from exactly these rules."""
    statements = [statement("events.amazonaws.com", "sns:Publish", topic_arn, r) for r in rule_arns]
    return json.dumps({"Version": "2012-10-17", "Statement": statements})


def main():
    parser = argparse.ArgumentParser(description="Make the exported resources, send the messages, count.")
    parser.add_argument("--endpoint-url", default=None, help="a local emulator's URL (default: AWS)")
    parser.add_argument("--region", default="us-east-1")
    parser.add_argument("--wait", type=float, default=5.0, help="seconds to let SNS deliver before counting")
    args = parser.parse_args()
    session = boto3.session.Session(region_name=args.region)
    sns = session.client("sns", endpoint_url=args.endpoint_url)
    sqs = session.client("sqs", endpoint_url=args.endpoint_url)
    cloudwatch = session.client("cloudwatch", endpoint_url=args.endpoint_url)
    events = session.client("events", endpoint_url=args.endpoint_url)
    topic, queue, queue_arn, rule_arn = {}, {}, {}, {}
"#;

const COUNTS: &str = r#"
    # Each queue's ApproximateNumberOfMessages, one "<queue name> <count>" line per queue.
    time.sleep(args.wait)
    for name, url in queue.items():
        attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])
        print(name, attributes["Attributes"]["ApproximateNumberOfMessages"])


if __name__ == "__main__":
    main()
"#;

/// The message calls sent again are SNS's and SQS's (`messages`): said when events could matter.
pub(crate) const EVENTS_NOT_SENT: &str =
    "The story's PutEvents calls are not sent again: the counts of queues its rules target may differ.";

/// The whole script.
pub fn script(sim: &Sim, commands: &[Command]) -> String {
    let t = sim.export_topology();
    let mut out = String::from("#!/usr/bin/env python3\n");
    out.push_str(&header(sim, &t));
    out.push_str(PRELUDE);
    let mut body = Body(String::new());
    body.topics(&t);
    body.queues(&t);
    body.subscriptions(&t);
    body.alarms(&t);
    body.eventbridge(&t);
    body.messages(&t, commands);
    out.push_str(&body.0);
    out.push_str(COUNTS);
    out
}

fn header(sim: &Sim, t: &Topology) -> String {
    let mut lines = vec![
        "Fan-out Playground export, for boto3.".to_string(),
        format!("Exported from the simulation at virtual time {} (seed {}).", sim.now(), sim.seed()),
        String::new(),
        "Makes the topics, queues, queue policies, subscriptions, alarms and EventBridge buses, rules".to_string(),
        "and queue and topic targets as they are at the end of the story, sends the story's messages".to_string(),
        "again in order (without its pauses), then prints one line per queue, in name order:".to_string(),
        "\"<queue name> <ApproximateNumberOfMessages>\". Receives, deletes and the simulated".to_string(),
        "consumers are not replayed: the counts match the playground's only when nothing consumed".to_string(),
        "messages. Lambda functions are in the CloudFormation export only (they need code).".to_string(),
    ];
    if !t.rules.is_empty() {
        lines.push(EVENTS_NOT_SENT.to_string());
    }
    lines.extend([
        String::new(),
        "Usage: python3 FILE [--endpoint-url URL] [--region us-east-1] [--wait 5]".to_string(),
    ]);
    if !t.left_out.is_empty() {
        lines.push(String::new());
        lines.push("Left out, because only the simulator has them:".to_string());
        lines.extend(t.left_out.iter().map(|l| format!("- {l}")));
    }
    if !t.scripts_left_out.is_empty() {
        lines.push(String::new());
        lines.push("Not made by this script (the CloudFormation export has them):".to_string());
        lines.extend(t.scripts_left_out.iter().map(|l| format!("- {l}")));
    }
    let mut out = String::new();
    write_comments(&mut out, 0, &lines);
    out.push('\n');
    out
}

/// A JSON value as a Python literal; `BinaryValue`s become bytes and integer parameters ints.
fn py_value(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(b) => (if *b { "True" } else { "False" }).into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => py_str(s),
        Value::Array(items) => format!("[{}]", items.iter().map(py_value).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => {
            let entries: Vec<String> = map.iter().map(|(k, v)| format!("{}: {}", py_str(k), py_field(k, v))).collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

fn py_field(key: &str, v: &Value) -> String {
    match v {
        Value::String(s) if key == "BinaryValue" => format!("base64.b64decode({})", py_str(s)),
        Value::String(s) if is_integer_param(key) && s.trim().parse::<i64>().is_ok() => s.trim().to_string(),
        other => py_value(other),
    }
}

fn py_attributes(attrs: &[(String, String)]) -> String {
    let entries: Vec<String> = attrs.iter().map(|(k, v)| format!("{}: {}", py_str(k), py_str(v))).collect();
    format!("{{{}}}", entries.join(", "))
}

struct Body(String);

impl Body {
    fn line(&mut self, text: &str) {
        self.0.push_str("    ");
        self.0.push_str(text);
        self.0.push('\n');
    }

    fn comment(&mut self, text: &str) {
        self.line(&format!("# {}", comment_text(text)));
    }

    fn section(&mut self, title: &str) {
        self.0.push('\n');
        self.comment(title);
    }

    fn topics(&mut self, t: &Topology) {
        self.section("Topics");
        for topic in &t.topics {
            for note in &topic.notes {
                self.comment(&format!("{}: {note}", topic.name));
            }
            let attrs: Vec<(String, String)> =
                topic.attributes.iter().map(|a| (a.name.to_string(), a.value.clone())).collect();
            self.line(&format!(
                "topic[{name}] = sns.create_topic(Name={name}, Attributes={})[\"TopicArn\"]",
                py_attributes(&attrs),
                name = py_str(&topic.name)
            ));
        }
    }

    fn queues(&mut self, t: &Topology) {
        self.section("Queues, then their ARNs");
        for q in &t.queues {
            for note in &q.notes {
                self.comment(&format!("{}: {note}", q.name));
            }
            let attrs: Vec<(String, String)> =
                q.attributes.iter().map(|a| (a.name.to_string(), a.value.clone())).collect();
            self.line(&format!(
                "queue[{name}] = sqs.create_queue(QueueName={name}, Attributes={})[\"QueueUrl\"]",
                py_attributes(&attrs),
                name = py_str(&q.name)
            ));
        }
        self.line("for name, url in queue.items():");
        self.line("    found = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[\"QueueArn\"])");
        self.line("    queue_arn[name] = found[\"Attributes\"][\"QueueArn\"]");
        self.section("Redrive policies, once every queue has its ARN");
        for q in &t.queues {
            self.redrive(t, q);
        }
        self.section("Queue policies: SNS may send to each queue from exactly the topics that deliver to it");
        // A queue EventBridge also sends to gets its policy once its rules have ARNs, below.
        for q in t.queues.iter().filter(|q| !q.senders.is_empty() && q.rule_senders.is_empty()) {
            let topics: Vec<String> = q.senders.iter().map(|s| format!("topic[{}]", py_str(s))).collect();
            self.line(&format!(
                "sqs.set_queue_attributes(QueueUrl=queue[{name}], Attributes={{\"Policy\": queue_policy(queue_arn[{name}], [{}])}})",
                topics.join(", "),
                name = py_str(&q.name)
            ));
        }
    }

    fn redrive(&mut self, t: &Topology, q: &QueueSpec) {
        let name = py_str(&q.name);
        if let Some((dlq, max)) = &q.redrive {
            if t.has_queue(dlq) {
                self.line(&format!(
                    "sqs.set_queue_attributes(QueueUrl=queue[{name}], Attributes={{\"RedrivePolicy\": json.dumps({{\"deadLetterTargetArn\": queue_arn[{}], \"maxReceiveCount\": {max}}})}})",
                    py_str(dlq)
                ));
            } else {
                self.comment(&format!("{}: its dead-letter queue {dlq} no longer exists; no redrive policy", q.name));
            }
        }
        if let Some((permission, sources)) = &q.redrive_allow {
            let (known, gone): (Vec<&String>, Vec<&String>) = sources.iter().partition(|s| t.has_queue(s));
            if !gone.is_empty() {
                let gone: Vec<&str> = gone.iter().map(|s| s.as_str()).collect();
                self.comment(&format!("{}: allowed sources that no longer exist: {}", q.name, gone.join(", ")));
            }
            let arns: Vec<String> = known.iter().map(|s| format!("queue_arn[{}]", py_str(s))).collect();
            let sources = if *permission == "byQueue" {
                format!(", \"sourceQueueArns\": [{}]", arns.join(", "))
            } else {
                String::new()
            };
            self.line(&format!(
                "sqs.set_queue_attributes(QueueUrl=queue[{name}], Attributes={{\"RedriveAllowPolicy\": json.dumps({{\"redrivePermission\": {}{sources}}})}})",
                py_str(permission)
            ));
        }
    }

    fn subscriptions(&mut self, t: &Topology) {
        self.section("Subscriptions");
        for s in &t.subscriptions {
            if !t.has_queue(&s.queue) {
                self.comment(&format!("{} -> {}: the queue no longer exists; not subscribed", s.topic, s.queue));
                continue;
            }
            self.line(&format!(
                "sns.subscribe(TopicArn=topic[{}], Protocol=\"sqs\", Endpoint=queue_arn[{}], Attributes={}, ReturnSubscriptionArn=True)",
                py_str(&s.topic),
                py_str(&s.queue),
                subscription_attributes(t, s)
            ));
        }
    }

    fn alarms(&mut self, t: &Topology) {
        if t.alarms.iter().any(AlarmSpec::on_aws_metric) {
            self.section("Alarms");
        }
        for a in t.alarms.iter().filter(|a| a.on_aws_metric()) {
            let mut args = vec![format!("AlarmName={}", py_str(&a.name))];
            if let Some(d) = a.field("AlarmDescription").as_str().filter(|d| !d.is_empty()) {
                args.push(format!("AlarmDescription={}", py_str(d)));
            }
            for key in ["Namespace", "MetricName", "Dimensions", "Statistic", "Period", "EvaluationPeriods"] {
                args.push(format!("{key}={}", py_value(a.field(key))));
            }
            for key in ["DatapointsToAlarm", "Threshold", "ComparisonOperator", "TreatMissingData", "ActionsEnabled"] {
                args.push(format!("{key}={}", py_value(a.field(key))));
            }
            for key in ["AlarmActions", "OKActions", "InsufficientDataActions"] {
                let topics: Vec<String> = a
                    .action_topics(key)
                    .iter()
                    .filter(|n| t.has_topic(n))
                    .map(|n| format!("topic[{}]", py_str(n)))
                    .collect();
                if !topics.is_empty() {
                    args.push(format!("{key}=[{}]", topics.join(", ")));
                }
            }
            self.line(&format!("cloudwatch.put_metric_alarm({})", args.join(", ")));
        }
    }

    fn eventbridge(&mut self, t: &Topology) {
        if t.buses.is_empty() && t.rules.is_empty() {
            return;
        }
        self.section("EventBridge: custom event buses, rules, their queue and topic targets");
        for b in &t.buses {
            let description = b.description.as_deref().map(|d| format!(", Description={}", py_str(d)));
            self.line(&format!("events.create_event_bus(Name={}{})", py_str(&b.name), description.unwrap_or_default()));
        }
        for r in &t.rules {
            self.rule(t, r);
        }
        self.section("Policies: EventBridge may send to each queue and topic from exactly the rules that target it");
        for q in t.queues.iter().filter(|q| !q.rule_senders.is_empty()) {
            let topics: Vec<String> = q.senders.iter().map(|s| format!("topic[{}]", py_str(s))).collect();
            self.line(&format!(
                "sqs.set_queue_attributes(QueueUrl=queue[{name}], Attributes={{\"Policy\": queue_policy(queue_arn[{name}], [{}], [{}])}})",
                topics.join(", "),
                rule_arns(&q.rule_senders),
                name = py_str(&q.name)
            ));
        }
        for topic in t.topics.iter().filter(|t| !t.rule_senders.is_empty()) {
            self.line(&format!(
                "sns.set_topic_attributes(TopicArn=topic[{name}], AttributeName=\"Policy\", AttributeValue=topic_policy(topic[{name}], [{}]))",
                rule_arns(&topic.rule_senders),
                name = py_str(&topic.name)
            ));
        }
    }

    fn rule(&mut self, t: &Topology, r: &RuleSpec) {
        let mut args = vec![format!("Name={}", py_str(&r.name)), format!("EventBusName={}", py_str(&r.bus))];
        let optional =
            [("Description", &r.description), ("EventPattern", &r.pattern), ("ScheduleExpression", &r.schedule)];
        args.extend(optional.iter().filter_map(|(k, v)| v.as_deref().map(|v| format!("{k}={}", py_str(v)))));
        args.push(format!("State={}", py_str(r.state)));
        for note in &r.notes {
            self.comment(&format!("{}: {note}", r.name));
        }
        let key = py_str(&format!("{}/{}", r.bus, r.name));
        self.line(&format!("rule_arn[{key}] = events.put_rule({})[\"RuleArn\"]", args.join(", ")));
        let targets: Vec<String> = r.targets.iter().filter_map(|target| self.target(t, r, target)).collect();
        if !targets.is_empty() {
            self.line(&format!(
                "events.put_targets(Rule={}, EventBusName={}, Targets=[{}])",
                py_str(&r.name),
                py_str(&r.bus),
                targets.join(", ")
            ));
        }
    }

    /// A target as a Python dict, or a comment saying why it is not made.
    fn target(&mut self, t: &Topology, r: &RuleSpec, target: &TargetSpec) -> Option<String> {
        let arn = match &target.dest {
            Dest::Queue(n) if t.has_queue(n) => format!("queue_arn[{}]", py_str(n)),
            Dest::Topic(n) if t.has_topic(n) => format!("topic[{}]", py_str(n)),
            _ => {
                self.comment(&target.not_made(&r.name));
                return None;
            }
        };
        let mut fields = vec![format!("\"Id\": {}", py_str(&target.id)), format!("\"Arn\": {arn}")];
        fields.extend(target.plain_fields().iter().map(|(k, v)| format!("{}: {}", py_str(k), py_value(v))));
        match &target.dead_letter {
            Some(Dest::Queue(dlq)) if t.has_queue(dlq) => {
                fields.push(format!("\"DeadLetterConfig\": {{\"Arn\": queue_arn[{}]}}", py_str(dlq)))
            }
            Some(d) => self.comment(&target.dead_letter_not_made(&r.name, d)),
            None => {}
        }
        Some(format!("{{{}}}", fields.join(", ")))
    }

    fn messages(&mut self, t: &Topology, commands: &[Command]) {
        let calls = message_calls(commands, t);
        self.section("The story's messages, in order (virtual time of each in the comment)");
        for call in &calls {
            self.message(call);
        }
        if calls.is_empty() {
            self.comment("(the story sent none)");
        }
    }

    fn message(&mut self, call: &MessageCall) {
        let (method, _) = call.kind.python_and_cli();
        if let Some(why) = &call.skipped {
            self.comment(&format!("{} {method} to {}: not sent again, {why}", call.at, call.target));
            return;
        }
        self.comment(&format!("{}", call.at));
        let (client, target) = if call.kind.to_topic() {
            ("sns", format!("TopicArn=topic[{}]", py_str(&call.target)))
        } else {
            ("sqs", format!("QueueUrl=queue[{}]", py_str(&call.target)))
        };
        let mut args = vec![target];
        args.extend(call.params.iter().map(|(k, v)| format!("{k}={}", py_field(k, v))));
        self.line(&format!("{client}.{method}({})", args.join(", ")));
    }
}

/// `rule_arn[...]` of each (bus, rule), for a policy's list.
fn rule_arns(rules: &[(String, String)]) -> String {
    let arns: Vec<String> = rules.iter().map(|(b, r)| format!("rule_arn[{}]", py_str(&format!("{b}/{r}")))).collect();
    arns.join(", ")
}

/// A subscription's attributes as `Subscribe` takes them; the scope before the policy.
fn subscription_attributes(t: &Topology, s: &SubscriptionSpec) -> String {
    let mut entries = vec![format!("\"RawMessageDelivery\": {}", py_str(if s.raw { "true" } else { "false" }))];
    if let Some((policy, scope)) = &s.filter_policy {
        entries.push(format!("\"FilterPolicyScope\": {}", py_str(scope)));
        entries.push(format!("\"FilterPolicy\": {}", py_str(policy)));
    }
    if let Some(dlq) = s.dead_letter.as_ref().filter(|d| t.has_queue(d)) {
        entries.push(format!("\"RedrivePolicy\": json.dumps({{\"deadLetterTargetArn\": queue_arn[{}]}})", py_str(dlq)));
    }
    format!("{{{}}}", entries.join(", "))
}
