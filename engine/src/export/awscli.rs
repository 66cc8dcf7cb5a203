//! The AWS CLI export: the boto3 script's steps as a bash script of `aws` calls. Every call
//! takes its whole request as `--cli-input-json`, so no value is read as a file or a URL (the
//! CLI's `file://` and, in v1, `http://` prefixes) and no shorthand syntax can misread it. A
//! request that needs an ARN or URL known only at run time is a `shell_json` word.

use super::messages::{is_integer_param, message_calls, MessageCall};
use super::model::{QueueSpec, Topology};
use super::quote::sh_str;
use super::routes::{Dest, RuleSpec, TargetSpec};
use super::shell_json::{lit, obj, shell_json, J};
use super::yaml::write_comments;
use crate::history::Command;
use crate::sim::Sim;
use serde_json::{json, Value};

const PRELUDE: &str = r#"set -euo pipefail

ENDPOINT_URL=""
REGION="us-east-1"
WAIT=5
while [ $# -gt 0 ]; do
  case "$1" in
    --endpoint-url) ENDPOINT_URL="$2"; shift 2 ;;
    --region) REGION="$2"; shift 2 ;;
    --wait) WAIT="$2"; shift 2 ;;
    *) echo "usage: $0 [--endpoint-url URL] [--region REGION] [--wait SECONDS]" >&2; exit 2 ;;
  esac
done
command -v aws >/dev/null || { echo "this script needs the AWS CLI (aws) on the PATH" >&2; exit 2; }

# aws_ SERVICE COMMAND REQUEST [OPTIONS...]: one call, the whole request as JSON.
aws_() {
  local service=$1 command=$2 request=$3
  shift 3
  if [ -n "$ENDPOINT_URL" ]; then
    aws --region "$REGION" --endpoint-url "$ENDPOINT_URL" "$service" "$command" --cli-input-json "$request" "$@"
  else
    aws --region "$REGION" "$service" "$command" --cli-input-json "$request" "$@"
  fi
}
"#;

/// The whole script.
pub fn script(sim: &Sim, commands: &[Command]) -> String {
    let t = sim.export_topology();
    let mut s = Script { out: String::from("#!/usr/bin/env bash\n"), t: &t };
    write_comments(&mut s.out, 0, &header(sim, &t));
    s.out.push_str(PRELUDE);
    s.topics();
    s.queues();
    s.subscriptions();
    s.alarms();
    s.eventbridge();
    s.messages(commands);
    s.counts();
    s.out
}

fn header(sim: &Sim, t: &Topology) -> Vec<String> {
    let mut lines = vec![
        "Fan-out Playground export, for the AWS CLI.".to_string(),
        format!("Exported from the simulation at virtual time {} (seed {}).", sim.now(), sim.seed()),
        String::new(),
        "The same steps as the boto3 export: the resources as they are at the end of the story, the".to_string(),
        "story's messages again in order (without its pauses), then one line per queue, in name".to_string(),
        "order: \"<queue name> <ApproximateNumberOfMessages>\". Receives, deletes and the simulated".to_string(),
        "consumers are not replayed; Lambda functions are in the CloudFormation export only.".to_string(),
    ];
    if !t.rules.is_empty() {
        lines.push(super::boto3::EVENTS_NOT_SENT.to_string());
    }
    lines.extend([String::new(), "Usage: bash FILE [--endpoint-url URL] [--region us-east-1] [--wait 5]".to_string()]);
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
    lines
}

struct Script<'a> {
    out: String,
    t: &'a Topology,
}

impl Script<'_> {
    fn comment(&mut self, text: &str) {
        write_comments(&mut self.out, 0, &[text.to_string()]);
    }

    fn section(&mut self, title: &str) {
        self.out.push('\n');
        self.comment(title);
    }

    /// `aws_ SERVICE COMMAND '<request>' ARGS`, or a comment if the request cannot be a shell word.
    fn call(&mut self, assign: Option<&str>, service: &str, command: &str, request: &J, args: &str) {
        let Some(word) = shell_json(request) else {
            self.comment(&format!(
                "{service} {command}: not made, its text has a NUL character no shell word can hold"
            ));
            return;
        };
        let call = format!("aws_ {service} {command} {word}{args}");
        match assign {
            Some(var) => self.out.push_str(&format!("{var}=$({call})\n")),
            None => self.out.push_str(&format!("{call} >/dev/null\n")),
        }
    }

    fn topic_var(&self, name: &str) -> Option<String> {
        self.t.topics.iter().position(|t| t.name == name).map(|i| format!("T{}", i + 1))
    }

    fn queue_var(&self, name: &str) -> Option<String> {
        self.t.queues.iter().position(|q| q.name == name).map(|i| format!("Q{}", i + 1))
    }

    fn topics(&mut self) {
        self.section("Topics (T1, T2, ... hold their ARNs)");
        for (i, topic) in self.t.topics.iter().enumerate() {
            self.comment(&format!("T{}: {}", i + 1, topic.name));
            for note in &topic.notes {
                self.comment(note);
            }
            let attrs = topic.attributes.iter().map(|a| (a.name.to_string(), lit(&a.value))).collect();
            let request = obj(vec![("Name", lit(&topic.name)), ("Attributes", J::Obj(attrs))]);
            self.call(Some(&format!("T{}", i + 1)), "sns", "create-topic", &request, " --query TopicArn --output text");
        }
    }

    fn queues(&mut self) {
        self.section("Queues (Q1, Q2, ... hold their URLs, Q1_ARN, ... their ARNs)");
        for (i, q) in self.t.queues.iter().enumerate() {
            let var = format!("Q{}", i + 1);
            self.comment(&format!("{var}: {}", q.name));
            for note in &q.notes {
                self.comment(note);
            }
            let attrs = q.attributes.iter().map(|a| (a.name.to_string(), lit(&a.value))).collect();
            let request = obj(vec![("QueueName", lit(&q.name)), ("Attributes", J::Obj(attrs))]);
            self.call(Some(&var), "sqs", "create-queue", &request, " --query QueueUrl --output text");
            let request =
                obj(vec![("QueueUrl", J::Var(var.clone())), ("AttributeNames", J::Arr(vec![lit("QueueArn")]))]);
            self.call(
                Some(&format!("{var}_ARN")),
                "sqs",
                "get-queue-attributes",
                &request,
                " --query Attributes.QueueArn --output text",
            );
        }
        self.section("Redrive policies, once every queue has its ARN");
        for q in &self.t.queues {
            self.redrive(q);
        }
        self.section("Queue policies: SNS may send to each queue from exactly the topics that deliver to it");
        // A queue EventBridge also sends to gets its policy once its rules have ARNs, below.
        for q in self.t.queues.iter().filter(|q| !q.senders.is_empty() && q.rule_senders.is_empty()) {
            self.queue_policy(q);
        }
    }

    /// SNS may send from exactly the topics that deliver here, EventBridge from exactly the rules.
    fn queue_policy(&mut self, q: &QueueSpec) {
        let var = self.queue_var(&q.name).unwrap_or_default();
        let resource = J::Var(format!("{var}_ARN"));
        let topics = q.senders.iter().filter_map(|s| self.topic_var(s));
        let mut statements: Vec<J> =
            topics.map(|topic| statement("sns.amazonaws.com", "sqs:SendMessage", &resource, J::Var(topic))).collect();
        let rules = q.rule_senders.iter().filter_map(|(b, r)| self.rule_var(b, r));
        statements
            .extend(rules.map(|rule| statement("events.amazonaws.com", "sqs:SendMessage", &resource, J::Var(rule))));
        self.set_attribute(&var, "Policy", policy_document(statements));
    }

    fn rule_var(&self, bus: &str, rule: &str) -> Option<String> {
        self.t.rules.iter().position(|r| r.bus == bus && r.name == rule).map(|i| format!("R{}", i + 1))
    }

    fn eventbridge(&mut self) {
        let t = self.t;
        if t.buses.is_empty() && t.rules.is_empty() {
            return;
        }
        self.section(
            "EventBridge: custom event buses, rules (R1, R2, ... hold their ARNs), their queue and topic targets",
        );
        for b in &t.buses {
            let mut request = vec![("Name", lit(&b.name))];
            if let Some(d) = &b.description {
                request.push(("Description", lit(d)));
            }
            self.call(None, "events", "create-event-bus", &obj(request), "");
        }
        for (i, r) in t.rules.iter().enumerate() {
            self.rule(&format!("R{}", i + 1), r);
        }
        self.section("Policies: EventBridge may send to each queue and topic from exactly the rules that target it");
        for q in t.queues.iter().filter(|q| !q.rule_senders.is_empty()) {
            self.queue_policy(q);
        }
        for topic in t.topics.iter().filter(|t| !t.rule_senders.is_empty()) {
            let var = self.topic_var(&topic.name).unwrap_or_default();
            let rules = topic.rule_senders.iter().filter_map(|(b, r)| self.rule_var(b, r));
            let resource = J::Var(var.clone());
            let statements =
                rules.map(|rule| statement("events.amazonaws.com", "sns:Publish", &resource, J::Var(rule))).collect();
            let request = obj(vec![
                ("TopicArn", J::Var(var)),
                ("AttributeName", lit("Policy")),
                ("AttributeValue", J::Text(Box::new(policy_document(statements)))),
            ]);
            self.call(None, "sns", "set-topic-attributes", &request, "");
        }
    }

    fn rule(&mut self, var: &str, r: &RuleSpec) {
        self.comment(&format!("{var}: rule {} on event bus {}", r.name, r.bus));
        for note in &r.notes {
            self.comment(note);
        }
        let mut request = vec![("Name", lit(&r.name)), ("EventBusName", lit(&r.bus))];
        let optional =
            [("Description", &r.description), ("EventPattern", &r.pattern), ("ScheduleExpression", &r.schedule)];
        request.extend(optional.iter().filter_map(|(k, v)| v.as_deref().map(|v| (*k, lit(v)))));
        request.push(("State", lit(r.state)));
        self.call(Some(var), "events", "put-rule", &obj(request), " --query RuleArn --output text");
        let targets: Vec<J> = r.targets.iter().filter_map(|t| self.target(r, t)).collect();
        if !targets.is_empty() {
            let request =
                obj(vec![("Rule", lit(&r.name)), ("EventBusName", lit(&r.bus)), ("Targets", J::Arr(targets))]);
            self.call(None, "events", "put-targets", &request, "");
        }
    }

    /// A target as `put-targets` takes it, or a comment saying why it is not made.
    fn target(&mut self, r: &RuleSpec, target: &TargetSpec) -> Option<J> {
        let arn = match &target.dest {
            Dest::Queue(n) => self.queue_var(n).map(|v| J::Var(format!("{v}_ARN"))),
            Dest::Topic(n) => self.topic_var(n).map(J::Var),
            _ => None,
        };
        let Some(arn) = arn else {
            self.comment(&target.not_made(&r.name));
            return None;
        };
        let mut fields = vec![("Id".to_string(), lit(&target.id)), ("Arn".to_string(), arn)];
        fields.extend(target.plain_fields().into_iter().map(|(k, v)| (k.to_string(), J::Lit(v))));
        let dlq_var = match &target.dead_letter {
            Some(Dest::Queue(dlq)) => self.queue_var(dlq),
            _ => None,
        };
        match (&target.dead_letter, dlq_var) {
            (_, Some(v)) => fields.push(("DeadLetterConfig".into(), obj(vec![("Arn", J::Var(format!("{v}_ARN")))]))),
            (Some(d), None) => self.comment(&target.dead_letter_not_made(&r.name, d)),
            (None, None) => {}
        }
        Some(J::Obj(fields))
    }

    fn set_attribute(&mut self, queue_var: &str, name: &str, policy: J) {
        let request = obj(vec![
            ("QueueUrl", J::Var(queue_var.to_string())),
            ("Attributes", obj(vec![(name, J::Text(Box::new(policy)))])),
        ]);
        self.call(None, "sqs", "set-queue-attributes", &request, "");
    }

    fn redrive(&mut self, q: &QueueSpec) {
        let var = self.queue_var(&q.name).unwrap_or_default();
        if let Some((dlq, max)) = &q.redrive {
            match self.queue_var(dlq) {
                Some(dlq_var) => {
                    let policy = obj(vec![
                        ("deadLetterTargetArn", J::Var(format!("{dlq_var}_ARN"))),
                        ("maxReceiveCount", J::Lit(json!(max))),
                    ]);
                    self.set_attribute(&var, "RedrivePolicy", policy);
                }
                None => self
                    .comment(&format!("{}: its dead-letter queue {dlq} no longer exists; no redrive policy", q.name)),
            }
        }
        if let Some((permission, sources)) = &q.redrive_allow {
            let mut policy = vec![("redrivePermission", lit(permission))];
            if *permission == "byQueue" {
                let arns =
                    sources.iter().filter_map(|s| self.queue_var(s)).map(|v| J::Var(format!("{v}_ARN"))).collect();
                policy.push(("sourceQueueArns", J::Arr(arns)));
            }
            self.set_attribute(&var, "RedriveAllowPolicy", obj(policy));
        }
    }

    fn subscriptions(&mut self) {
        self.section("Subscriptions");
        for s in &self.t.subscriptions {
            let (Some(topic), Some(queue)) = (self.topic_var(&s.topic), self.queue_var(&s.queue)) else {
                self.comment(&format!("{} -> {}: the queue no longer exists; not subscribed", s.topic, s.queue));
                continue;
            };
            self.comment(&format!("{} -> {}", s.topic, s.queue));
            let mut attrs = vec![("RawMessageDelivery", lit(if s.raw { "true" } else { "false" }))];
            if let Some((policy, scope)) = &s.filter_policy {
                attrs.push(("FilterPolicyScope", lit(scope)));
                attrs.push(("FilterPolicy", lit(policy)));
            }
            if let Some(dlq) = s.dead_letter.as_deref().and_then(|d| self.queue_var(d)) {
                let policy = obj(vec![("deadLetterTargetArn", J::Var(format!("{dlq}_ARN")))]);
                attrs.push(("RedrivePolicy", J::Text(Box::new(policy))));
            }
            let request = obj(vec![
                ("TopicArn", J::Var(topic)),
                ("Protocol", lit("sqs")),
                ("Endpoint", J::Var(format!("{queue}_ARN"))),
                ("Attributes", obj(attrs)),
                ("ReturnSubscriptionArn", J::Lit(json!(true))),
            ]);
            self.call(None, "sns", "subscribe", &request, "");
        }
    }

    fn alarms(&mut self) {
        let t = self.t;
        if t.alarms.iter().any(|a| a.on_aws_metric()) {
            self.section("Alarms");
        }
        for a in t.alarms.iter().filter(|a| a.on_aws_metric()) {
            let mut request = vec![("AlarmName".to_string(), lit(&a.name))];
            if let Some(d) = a.field("AlarmDescription").as_str().filter(|d| !d.is_empty()) {
                request.push(("AlarmDescription".into(), lit(d)));
            }
            for key in [
                "Namespace",
                "MetricName",
                "Dimensions",
                "Statistic",
                "Period",
                "EvaluationPeriods",
                "DatapointsToAlarm",
                "Threshold",
                "ComparisonOperator",
                "TreatMissingData",
                "ActionsEnabled",
            ] {
                request.push((key.into(), J::Lit(a.field(key).clone())));
            }
            for key in ["AlarmActions", "OKActions", "InsufficientDataActions"] {
                let vars: Vec<J> = a.action_topics(key).iter().filter_map(|n| self.topic_var(n)).map(J::Var).collect();
                if !vars.is_empty() {
                    request.push((key.into(), J::Arr(vars)));
                }
            }
            self.call(None, "cloudwatch", "put-metric-alarm", &J::Obj(request), "");
        }
    }

    fn messages(&mut self, commands: &[Command]) {
        let calls = message_calls(commands, self.t);
        self.section("The story's messages, in order (virtual time of each in the comment)");
        for call in &calls {
            self.message(call);
        }
        if calls.is_empty() {
            self.comment("(the story sent none)");
        }
    }

    fn message(&mut self, call: &MessageCall) {
        let (_, command) = call.kind.python_and_cli();
        if let Some(why) = &call.skipped {
            self.comment(&format!("{} {command} to {}: not sent again, {why}", call.at, call.target));
            return;
        }
        self.comment(&format!("{}", call.at));
        let (service, key, var) = if call.kind.to_topic() {
            ("sns", "TopicArn", self.topic_var(&call.target))
        } else {
            ("sqs", "QueueUrl", self.queue_var(&call.target))
        };
        let mut request = vec![(key.to_string(), J::Var(var.unwrap_or_default()))];
        request.extend(call.params.iter().map(|(k, v)| (k.clone(), J::Lit(integers(k, v)))));
        self.call(None, service, command, &J::Obj(request), "");
    }

    fn counts(&mut self) {
        self.section("Each queue's ApproximateNumberOfMessages, one \"<queue name> <count>\" line per queue");
        self.out.push_str("sleep \"$WAIT\"\n");
        for q in &self.t.queues {
            let var = self.queue_var(&q.name).unwrap_or_default();
            let request = obj(vec![
                ("QueueUrl", J::Var(var)),
                ("AttributeNames", J::Arr(vec![lit("ApproximateNumberOfMessages")])),
            ]);
            self.call(
                Some("count"),
                "sqs",
                "get-queue-attributes",
                &request,
                " --query Attributes.ApproximateNumberOfMessages --output text",
            );
            let name = sh_str(&q.name).unwrap_or_default();
            self.out.push_str(&format!("printf '%s %s\\n' {name} \"$count\"\n"));
        }
    }
}

/// Integer parameters given as numeric strings become numbers, as the CLI's JSON input wants.
/// Lets one service principal act on the resource, from exactly one source ARN.
fn statement(service: &str, action: &str, resource: &J, source: J) -> J {
    obj(vec![
        ("Effect", lit("Allow")),
        ("Principal", obj(vec![("Service", lit(service))])),
        ("Action", lit(action)),
        ("Resource", resource.clone()),
        ("Condition", obj(vec![("ArnEquals", obj(vec![("aws:SourceArn", source)]))])),
    ])
}

fn policy_document(statements: Vec<J>) -> J {
    obj(vec![("Version", lit("2012-10-17")), ("Statement", J::Arr(statements))])
}

fn integers(key: &str, v: &Value) -> Value {
    match v {
        Value::String(s) if is_integer_param(key) => s.trim().parse::<i64>().map(Value::from).unwrap_or(v.clone()),
        Value::Array(items) => Value::Array(items.iter().map(|i| integers("", i)).collect()),
        Value::Object(map) => {
            Value::Object(crate::vecmap::json_object(map.iter().map(|(k, v)| (k.clone(), integers(k, v)))))
        }
        other => other.clone(),
    }
}
