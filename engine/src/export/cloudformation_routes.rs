//! The template's routes beyond SNS to SQS, as the CloudFormation template reference spells them:
//! `AWS::Lambda::EventInvokeConfig` (a function's asynchronous retries, maximum age and
//! destinations), `AWS::Events::EventBus`, `AWS::Events::Rule` with its `Targets`, and what lets
//! EventBridge deliver: a statement in the queue policy, an `AWS::SNS::TopicPolicy`, an
//! `AWS::Lambda::Permission`, and for a bus target an `AWS::IAM::Role` (bus-to-bus delivery in
//! one account uses a role: "Sending and receiving Amazon EventBridge events between event buses
//! in the same account and Region", EventBridge user guide).

use super::cloudformation::{resource, Writer};
use super::routes::DEFAULT_BUS;
use super::routes::{BusSpec, Dest, InvokeConfigSpec, RuleSpec, TargetSpec};
use super::yaml::{MapBuilder, Yaml};

/// The one version a playground function has; `Qualifier` is required by `EventInvokeConfig`.
pub(crate) const LATEST: &str = "$LATEST";

pub(crate) fn rule_key(bus: &str, rule: &str) -> String {
    format!("rule:{bus}/{rule}")
}

/// An event bus's ARN by its name (`sub_arn` would drop the `/` of `event-bus/NAME`).
fn bus_sub_arn(name: &str) -> Yaml {
    let safe: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')).collect();
    Yaml::Sub(format!("arn:${{AWS::Partition}}:events:${{AWS::Region}}:${{AWS::AccountId}}:event-bus/{safe}"))
}

/// What a rule's logical id is made of: its name, after its bus's unless that is the default
/// (`orders` + `big-orders` is `OrdersBigOrdersRule`).
fn rule_names(r: &RuleSpec) -> String {
    if r.bus == DEFAULT_BUS {
        r.name.clone()
    } else {
        format!("{}-{}", r.bus, r.name)
    }
}

/// A function's ARN by its fixed name, without `!GetAtt`: a role's policy may name a function
/// whose own role is this one (a function that is its own destination), which `!GetAtt` would
/// make a circular dependency.
fn function_sub_arn(name: &str) -> Yaml {
    let safe: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_')).collect();
    Yaml::Sub(format!("arn:${{AWS::Partition}}:lambda:${{AWS::Region}}:${{AWS::AccountId}}:function:{safe}"))
}

fn statement(principal: Option<&str>, action: &str, resource: Yaml, source: Option<Yaml>) -> Yaml {
    statement_on(principal, action, Some(resource), source)
}

fn statement_on(principal: Option<&str>, action: &str, resource: Option<Yaml>, source: Option<Yaml>) -> Yaml {
    let principal = principal.map(|p| MapBuilder::new().put("Service", Yaml::str(p)).build());
    let condition = source
        .map(|arn| MapBuilder::new().put("ArnEquals", MapBuilder::new().put("aws:SourceArn", arn).build()).build());
    MapBuilder::new()
        .put("Effect", Yaml::str("Allow"))
        .put_opt("Principal", principal)
        .put("Action", Yaml::str(action))
        .put_opt("Resource", resource)
        .put_opt("Condition", condition)
        .build()
}

fn document(statements: Vec<Yaml>) -> Yaml {
    MapBuilder::new().put("Version", Yaml::str("2012-10-17")).put("Statement", Yaml::List(statements)).build()
}

impl Writer<'_> {
    pub(crate) fn assign_route_ids(&mut self) {
        let t = self.topology;
        for b in &t.buses {
            self.ids.assign(&format!("bus:{}", b.name), &[&b.name], "EventBus");
        }
        for r in &t.rules {
            let names = rule_names(r);
            self.ids.assign(&rule_key(&r.bus, &r.name), &[&names], "Rule");
        }
    }

    pub(crate) fn rule_arn(&self, bus: &str, rule: &str) -> Yaml {
        let id = self.ids.get(&rule_key(bus, rule)).unwrap_or_default();
        Yaml::GetAtt(id.to_string(), "Arn")
    }

    fn function_arn(&self, name: &str) -> Yaml {
        match self.ids.get(&format!("function:{name}")) {
            Some(id) => Yaml::GetAtt(id.to_string(), "Arn"),
            None => function_sub_arn(name),
        }
    }

    fn bus_arn(&self, name: &str) -> Yaml {
        match self.ids.get(&format!("bus:{name}")) {
            Some(id) => Yaml::GetAtt(id.to_string(), "Arn"),
            // The default bus (in every account), or one the simulation no longer has.
            None => bus_sub_arn(name),
        }
    }

    /// `EventBusName`: a custom bus by `!Ref` (its name), the default bus by its name.
    fn bus_name(&self, name: &str) -> Yaml {
        match self.ids.get(&format!("bus:{name}")) {
            Some(id) => Yaml::Ref(id.to_string()),
            None => Yaml::str(name),
        }
    }

    /// Whether the template (or every account, for the default bus) has it.
    fn in_template(&self, d: &Dest) -> bool {
        match d {
            Dest::Queue(n) => self.ids.get(&format!("queue:{n}")).is_some(),
            Dest::Topic(n) => self.ids.get(&format!("topic:{n}")).is_some(),
            Dest::Function(n) => self.ids.get(&format!("function:{n}")).is_some(),
            Dest::Bus(n) => n == DEFAULT_BUS || self.ids.get(&format!("bus:{n}")).is_some(),
            Dest::Other(_) => false,
        }
    }

    /// The ARN of a destination or target in the template (`!Ref` for a topic, which is its ARN).
    fn dest_arn(&self, d: &Dest) -> Yaml {
        match d {
            Dest::Queue(n) => self.queue_arn(n),
            Dest::Topic(n) => self.topic_arn(n),
            Dest::Function(n) => self.function_arn(n),
            Dest::Bus(n) => self.bus_arn(n),
            Dest::Other(arn) => Yaml::str(arn),
        }
    }

    /// What a function's role must allow for Lambda to send to `d` (Lambda checks it when the
    /// destination or dead-letter queue is set).
    fn send_statement(&self, d: &Dest) -> Option<Yaml> {
        let (action, arn) = match d {
            Dest::Queue(n) => ("sqs:SendMessage", self.queue_arn(n)),
            Dest::Topic(n) => ("sns:Publish", self.topic_arn(n)),
            Dest::Function(n) => ("lambda:InvokeFunction", function_sub_arn(n)),
            Dest::Bus(n) => ("events:PutEvents", self.bus_arn(n)),
            Dest::Other(_) => return None,
        };
        Some(statement(None, action, arn, None))
    }

    /// The inline policy of `function`'s role: send to its destinations and dead-letter queue.
    pub(crate) fn destination_policy(&self, function: &str) -> Option<Yaml> {
        let f = self.topology.functions.iter().find(|f| f.name == function)?;
        let config = self.topology.invoke_configs.iter().find(|c| c.function == function);
        let dests = [
            config.and_then(|c| c.on_success.as_ref()),
            config.and_then(|c| c.on_failure.as_ref()),
            f.dead_letter.as_ref(),
        ];
        let statements: Vec<Yaml> = dests.into_iter().flatten().filter_map(|d| self.send_statement(d)).collect();
        if statements.is_empty() {
            return None;
        }
        let policy =
            MapBuilder::new().put("PolicyName", Yaml::str("destinations")).put("PolicyDocument", document(statements));
        Some(Yaml::List(vec![policy.build()]))
    }

    /// `DeadLetterConfig` of `AWS::Lambda::Function`: `TargetArn`, a queue or a topic.
    pub(crate) fn function_dead_letter(&self, function: &str) -> Option<Yaml> {
        let f = self.topology.functions.iter().find(|f| f.name == function)?;
        let d = f.dead_letter.as_ref()?;
        Some(MapBuilder::new().put("TargetArn", self.dest_arn(d)).build())
    }

    pub(crate) fn invoke_configs(&mut self) {
        for c in &self.topology.invoke_configs {
            self.invoke_config(c);
        }
    }

    fn invoke_config(&mut self, c: &InvokeConfigSpec) {
        let function = match self.ids.get(&format!("function:{}", c.function)) {
            Some(id) => Yaml::Ref(id.to_string()),
            None => Yaml::str(&c.function),
        };
        let on = |d: &Option<Dest>| d.as_ref().map(|d| MapBuilder::new().put("Destination", self.dest_arn(d)).build());
        let (success, failure) = (on(&c.on_success), on(&c.on_failure));
        let destinations = (success.is_some() || failure.is_some())
            .then(|| MapBuilder::new().put_opt("OnSuccess", success).put_opt("OnFailure", failure).build());
        let props = MapBuilder::new()
            .put("FunctionName", function)
            .put("Qualifier", Yaml::str(LATEST))
            .put_opt("MaximumRetryAttempts", c.max_retry_attempts.map(|n| Yaml::Int(u64::from(n))))
            .put_opt("MaximumEventAgeInSeconds", c.max_event_age_s.map(|n| Yaml::Int(u64::from(n))))
            .put_opt("DestinationConfig", destinations);
        let key = format!("invoke-config:{}", c.function);
        let id = self.ids.derive(&key, &format!("function:{}", c.function), "EventInvokeConfig");
        let comment =
            format!("Asynchronous invocation of {} ($LATEST): retries, maximum age, destinations.", c.function);
        self.add(vec![comment], id, resource("AWS::Lambda::EventInvokeConfig", props, None));
    }

    pub(crate) fn eventbridge(&mut self) {
        for b in &self.topology.buses {
            self.bus(b);
        }
        for r in &self.topology.rules {
            self.rule(r);
        }
        for t in &self.topology.topics {
            if !t.rule_senders.is_empty() {
                self.topic_policy(&t.name, &t.rule_senders);
            }
        }
        for r in &self.topology.rules {
            for t in &r.targets {
                if let Dest::Function(f) = &t.dest {
                    self.permission(r, t, f);
                }
            }
        }
    }

    fn bus(&mut self, b: &BusSpec) {
        let props = MapBuilder::new()
            .put("Name", Yaml::str(&b.name))
            .put_opt("Description", b.description.as_deref().map(Yaml::str));
        let id = self.ids.assign(&format!("bus:{}", b.name), &[&b.name], "EventBus");
        self.add(Vec::new(), id, resource("AWS::Events::EventBus", props, None));
    }

    fn rule(&mut self, r: &RuleSpec) {
        let key = rule_key(&r.bus, &r.name);
        let targets: Vec<Yaml> = r.targets.iter().map(|t| self.target(r, t)).collect();
        let mut comments = r.notes.clone();
        comments.extend(r.targets.iter().flat_map(|t| t.notes.iter().cloned()));
        for t in r.targets.iter().filter(|t| !self.in_template(&t.dest)) {
            comments.push(format!(
                "Target {}: {} is not in the simulation now (a delivery to it fails): create it, or drop this target.",
                t.id,
                t.dest.describe()
            ));
        }
        let props = MapBuilder::new()
            .put("Name", Yaml::str(&r.name))
            .put("EventBusName", self.bus_name(&r.bus))
            .put_opt("Description", r.description.as_deref().map(Yaml::str))
            // The pattern's own text, as a string: CloudFormation takes JSON text or a mapping.
            .put_opt("EventPattern", r.pattern.as_deref().map(Yaml::str))
            .put_opt("ScheduleExpression", r.schedule.as_deref().map(Yaml::str))
            .put("State", Yaml::str(r.state))
            .put_opt("Targets", (!targets.is_empty()).then_some(Yaml::List(targets)));
        let names = rule_names(r);
        let id = self.ids.assign(&key, &[&names], "Rule");
        self.add(comments, id, resource("AWS::Events::Rule", props, None));
    }

    fn target(&mut self, r: &RuleSpec, t: &TargetSpec) -> Yaml {
        let transformer = t.transformer.as_ref().map(|(paths, template)| {
            let map = paths.iter().fold(MapBuilder::new(), |m, (k, v)| m.put(k, Yaml::str(v)));
            MapBuilder::new()
                .put_opt("InputPathsMap", (!paths.is_empty()).then(|| map.build()))
                .put("InputTemplate", Yaml::str(template))
                .build()
        });
        let retry = t.retry.map(|(attempts, age)| {
            MapBuilder::new()
                .put_opt("MaximumRetryAttempts", attempts.map(Yaml::Int))
                .put_opt("MaximumEventAgeInSeconds", age.map(Yaml::Int))
                .build()
        });
        let dead_letter = t.dead_letter.as_ref().map(|d| MapBuilder::new().put("Arn", self.dest_arn(d)).build());
        let group =
            t.message_group_id.as_deref().map(|g| MapBuilder::new().put("MessageGroupId", Yaml::str(g)).build());
        let role = match &t.dest {
            Dest::Bus(b) => Some(self.bus_target_role(r, t, b)),
            _ => None,
        };
        MapBuilder::new()
            .put("Id", Yaml::str(&t.id))
            .put("Arn", self.dest_arn(&t.dest))
            .put_opt("RoleArn", role)
            .put_opt("Input", t.input.as_deref().map(Yaml::str))
            .put_opt("InputPath", t.input_path.as_deref().map(Yaml::str))
            .put_opt("InputTransformer", transformer)
            .put_opt("SqsParameters", group)
            .put_opt("RetryPolicy", retry)
            .put_opt("DeadLetterConfig", dead_letter)
            .build()
    }

    /// The role EventBridge assumes to put events on another bus of the account.
    fn bus_target_role(&mut self, r: &RuleSpec, t: &TargetSpec, bus: &str) -> Yaml {
        let key = format!("target-role:{}/{}/{}", r.bus, r.name, t.id);
        let id = self.ids.derive(&key, &rule_key(&r.bus, &r.name), &format!("{}Role", super::quote::camel(&t.id)));
        // A trust policy names no Resource.
        let trust = statement_on(Some("events.amazonaws.com"), "sts:AssumeRole", None, None);
        let send = statement(None, "events:PutEvents", self.bus_arn(bus), None);
        let policy =
            MapBuilder::new().put("PolicyName", Yaml::str("put-events")).put("PolicyDocument", document(vec![send]));
        let props = MapBuilder::new()
            .put("AssumeRolePolicyDocument", document(vec![trust]))
            .put("Policies", Yaml::List(vec![policy.build()]));
        let comment = format!("Lets rule {} put events on the event bus {} (target {}).", r.name, bus, t.id);
        self.add(vec![comment], id.clone(), resource("AWS::IAM::Role", props, None));
        Yaml::GetAtt(id, "Arn")
    }

    /// Statements of a queue policy: EventBridge may send, from exactly these rules.
    pub(crate) fn rule_statements(&self, queue_id: &str, rules: &[(String, String)]) -> Vec<Yaml> {
        let arn = Yaml::GetAtt(queue_id.to_string(), "Arn");
        let principal = Some("events.amazonaws.com");
        rules
            .iter()
            .map(|(b, r)| statement(principal, "sqs:SendMessage", arn.clone(), Some(self.rule_arn(b, r))))
            .collect()
    }

    fn topic_policy(&mut self, topic: &str, rules: &[(String, String)]) {
        let topic_ref = self.topic_arn(topic);
        let principal = Some("events.amazonaws.com");
        let statements = rules
            .iter()
            .map(|(b, r)| statement(principal, "sns:Publish", topic_ref.clone(), Some(self.rule_arn(b, r))))
            .collect();
        let props =
            MapBuilder::new().put("Topics", Yaml::List(vec![topic_ref])).put("PolicyDocument", document(statements));
        let id = self.ids.derive(&format!("topic-policy:{topic}"), &format!("topic:{topic}"), "Policy");
        let names: Vec<&str> = rules.iter().map(|(_, r)| r.as_str()).collect();
        let comment = format!("Lets EventBridge publish to {topic} from exactly the rules: {}.", names.join(", "));
        self.add(vec![comment], id, resource("AWS::SNS::TopicPolicy", props, None));
    }

    /// `lambda:InvokeFunction` for EventBridge, from exactly this rule.
    fn permission(&mut self, r: &RuleSpec, t: &TargetSpec, function: &str) {
        let function_ref = match self.ids.get(&format!("function:{function}")) {
            Some(id) => Yaml::Ref(id.to_string()),
            None => Yaml::str(function),
        };
        let props = MapBuilder::new()
            .put("FunctionName", function_ref)
            .put("Action", Yaml::str("lambda:InvokeFunction"))
            .put("Principal", Yaml::str("events.amazonaws.com"))
            .put("SourceArn", self.rule_arn(&r.bus, &r.name));
        let key = format!("permission:{}/{}/{}", r.bus, r.name, t.id);
        let id =
            self.ids.derive(&key, &rule_key(&r.bus, &r.name), &format!("{}Permission", super::quote::camel(&t.id)));
        let comment = format!("Lets rule {} invoke {} (target {}).", r.name, function, t.id);
        self.add(vec![comment], id, resource("AWS::Lambda::Permission", props, None));
    }
}

#[cfg(test)]
mod tests {
    use super::super::cloudformation::template_tree;
    use super::super::yaml::{Entry, Yaml};
    use crate::sim::Sim;
    use serde_json::{json, Value};

    const ARN: &str = "arn:aws:{}:us-east-1:000000000000:";

    fn arn(service: &str, rest: &str) -> String {
        format!("{}{rest}", ARN.replace("{}", service))
    }

    fn ok(sim: &mut Sim, action: &str, params: Value) {
        if let Err(e) = sim.apply(action, &params) {
            panic!("{action}: {e:?}");
        }
    }

    /// A function `charge` with every asynchronous setting, a custom bus `orders` with a rule
    /// whose targets are a queue (with a dead-letter queue), a topic, a function and a bus.
    fn routes() -> Sim {
        let mut sim = Sim::new(1);
        ok(&mut sim, "CreateQueue", json!({"QueueName": "audit"}));
        ok(&mut sim, "CreateQueue", json!({"QueueName": "failed"}));
        ok(&mut sim, "CreateTopic", json!({"Name": "alerts"}));
        ok(&mut sim, "CreateFunction", json!({"FunctionName": "notify", "Behavior": {"ProcessingTime": "10ms"}}));
        let dlq = json!({"TargetArn": arn("sqs", "failed")});
        let charge = json!({"FunctionName": "charge", "Behavior": {"ProcessingTime": "10ms"}, "DeadLetterConfig": dlq});
        ok(&mut sim, "CreateFunction", charge);
        ok(&mut sim, "CreateEventBus", json!({"Name": "orders"}));
        let pattern = r#"{"source": ["shop"], "detail": {"total": [{"numeric": [">=", 100.50]}]}}"#;
        ok(&mut sim, "PutRule", json!({"Name": "big", "EventBusName": "orders", "EventPattern": pattern}));
        let targets = json!([
            {"Id": "q", "Arn": arn("sqs", "audit"), "InputPath": "$.detail",
             "RetryPolicy": {"MaximumRetryAttempts": 4, "MaximumEventAgeInSeconds": 120},
             "DeadLetterConfig": {"Arn": arn("sqs", "failed")}},
            {"Id": "t", "Arn": arn("sns", "alerts"),
             "InputTransformer": {"InputPathsMap": {"total": "$.detail.total"}, "InputTemplate": "\"total <total>\""}},
            {"Id": "f", "Arn": arn("lambda", "function:notify"), "Input": "{\"k\": 1}"},
            {"Id": "b", "Arn": arn("events", "event-bus/default")}
        ]);
        ok(&mut sim, "PutTargets", json!({"Rule": "big", "EventBusName": "orders", "Targets": targets}));
        let destinations = json!({"OnSuccess": {"Destination": arn("events", "event-bus/orders")},
                                  "OnFailure": {"Destination": arn("sqs", "audit")}});
        let config = json!({"FunctionName": "charge", "MaximumRetryAttempts": 0, "MaximumEventAgeInSeconds": 60,
                            "DestinationConfig": destinations});
        ok(&mut sim, "PutFunctionEventInvokeConfig", config);
        sim
    }

    fn resources(sim: &Sim) -> Vec<Entry> {
        template_tree(sim)
    }

    fn get<'a>(y: &'a Yaml, path: &[&str]) -> Option<&'a Yaml> {
        path.iter().try_fold(y, |y, key| match y {
            Yaml::Map(entries) => entries.iter().find(|e| e.key == *key).map(|e| &e.value),
            _ => None,
        })
    }

    fn of_type<'a>(all: &'a [Entry], kind: &str) -> Vec<&'a Entry> {
        all.iter().filter(|e| get(&e.value, &["Type"]) == Some(&Yaml::str(kind))).collect()
    }

    fn one<'a>(all: &'a [Entry], kind: &str) -> &'a Entry {
        let found = of_type(all, kind);
        assert_eq!(found.len(), 1, "one {kind}: {found:?}");
        found[0]
    }

    fn prop<'a>(e: &'a Entry, path: &[&str]) -> &'a Yaml {
        let mut full = vec!["Properties"];
        full.extend_from_slice(path);
        get(&e.value, &full).unwrap_or_else(|| panic!("{} has no {path:?}: {:?}", e.key, e.value))
    }

    fn int(n: u64) -> Yaml {
        Yaml::Int(n)
    }

    fn getatt(id: &str) -> Yaml {
        Yaml::GetAtt(id.to_string(), "Arn")
    }

    #[test]
    fn event_invoke_config_names_latest_and_links_its_destinations() {
        let all = resources(&routes());
        let c = one(&all, "AWS::Lambda::EventInvokeConfig");
        assert_eq!(c.key, "ChargeFunctionEventInvokeConfig");
        // EventInvokeConfig's FunctionName and Qualifier are required; $LATEST is the
        // unpublished version, the only one a playground function has.
        assert_eq!(prop(c, &["FunctionName"]), &Yaml::Ref("ChargeFunction".into()));
        assert_eq!(prop(c, &["Qualifier"]), &Yaml::str("$LATEST"));
        // MaximumRetryAttempts 0-2 and MaximumEventAgeInSeconds 60-21600, as set (0 is a value).
        assert_eq!(prop(c, &["MaximumRetryAttempts"]), &int(0));
        assert_eq!(prop(c, &["MaximumEventAgeInSeconds"]), &int(60));
        // DestinationConfig.OnSuccess/OnFailure.Destination: an ARN (a bus's and a queue's GetAtt Arn).
        assert_eq!(prop(c, &["DestinationConfig", "OnSuccess", "Destination"]), &getatt("OrdersEventBus"));
        assert_eq!(prop(c, &["DestinationConfig", "OnFailure", "Destination"]), &getatt("AuditQueue"));
    }

    #[test]
    fn a_function_role_may_send_to_its_destinations_and_dead_letter_queue() {
        // Lambda checks the execution role's permission when a destination or DeadLetterConfig
        // is set, so the role carries it; AWS::Lambda::Function's DeadLetterConfig is TargetArn.
        let all = resources(&routes());
        let f = all.iter().find(|e| e.key == "ChargeFunction").expect("the function");
        assert_eq!(prop(f, &["DeadLetterConfig", "TargetArn"]), &getatt("FailedQueue"));
        let role = all.iter().find(|e| e.key == "ChargeFunctionRole").expect("the role");
        let Yaml::List(policies) = prop(role, &["Policies"]) else { panic!("Policies is a list") };
        let Some(Yaml::List(statements)) = get(&policies[0], &["PolicyDocument", "Statement"]) else {
            panic!("statements")
        };
        // OnSuccess, OnFailure, then the dead-letter queue.
        let actions: Vec<(&Yaml, &Yaml)> =
            statements.iter().map(|s| (get(s, &["Action"]).unwrap(), get(s, &["Resource"]).unwrap())).collect();
        assert_eq!(
            actions,
            vec![
                (&Yaml::str("events:PutEvents"), &getatt("OrdersEventBus")),
                (&Yaml::str("sqs:SendMessage"), &getatt("AuditQueue")),
                (&Yaml::str("sqs:SendMessage"), &getatt("FailedQueue")),
            ]
        );
        let notify = all.iter().find(|e| e.key == "NotifyFunctionRole").expect("notify's role");
        assert!(get(&notify.value, &["Properties", "Policies"]).is_none(), "no destinations, no policy");
    }

    #[test]
    fn a_custom_bus_is_a_resource_and_the_default_bus_never_is() {
        let all = resources(&routes());
        let bus = one(&all, "AWS::Events::EventBus");
        // AWS::Events::EventBus: Name is required.
        assert_eq!((bus.key.as_str(), prop(bus, &["Name"])), ("OrdersEventBus", &Yaml::str("orders")));
        let rule = one(&all, "AWS::Events::Rule");
        // EventBusName takes a name; Ref of an AWS::Events::EventBus is its name.
        assert_eq!(prop(rule, &["EventBusName"]), &Yaml::Ref("OrdersEventBus".into()));
        // The default bus, as a target, is named by its ARN in every account.
        let Yaml::List(targets) = prop(rule, &["Targets"]) else { panic!("Targets") };
        let b = targets.iter().find(|t| get(t, &["Id"]) == Some(&Yaml::str("b"))).expect("target b");
        let want = "arn:${AWS::Partition}:events:${AWS::Region}:${AWS::AccountId}:event-bus/default";
        assert_eq!(get(b, &["Arn"]), Some(&Yaml::Sub(want.into())));
    }

    #[test]
    fn a_rule_keeps_its_pattern_text_state_and_every_target_field_as_given() {
        let all = resources(&routes());
        let rule = one(&all, "AWS::Events::Rule");
        assert_eq!(rule.key, "OrdersBigRule");
        assert_eq!(prop(rule, &["Name"]), &Yaml::str("big"));
        // EventPattern is JSON: the text as given, so 100.50 stays as written.
        let pattern = r#"{"source": ["shop"], "detail": {"total": [{"numeric": [">=", 100.50]}]}}"#;
        assert_eq!(prop(rule, &["EventPattern"]), &Yaml::str(pattern));
        // State: ENABLED, DISABLED or ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS.
        assert_eq!(prop(rule, &["State"]), &Yaml::str("ENABLED"));
        let Yaml::List(targets) = prop(rule, &["Targets"]) else { panic!("Targets") };
        let target = |id: &str| targets.iter().find(|t| get(t, &["Id"]) == Some(&Yaml::str(id))).expect(id);
        // Target: Id and Arn are required; a topic's ARN is its Ref, the others' GetAtt Arn.
        assert_eq!(get(target("q"), &["Arn"]), Some(&getatt("AuditQueue")));
        assert_eq!(get(target("t"), &["Arn"]), Some(&Yaml::Ref("AlertsTopic".into())));
        assert_eq!(get(target("f"), &["Arn"]), Some(&getatt("NotifyFunction")));
        assert_eq!(get(target("q"), &["InputPath"]), Some(&Yaml::str("$.detail")));
        assert_eq!(get(target("q"), &["RetryPolicy", "MaximumRetryAttempts"]), Some(&int(4)));
        assert_eq!(get(target("q"), &["RetryPolicy", "MaximumEventAgeInSeconds"]), Some(&int(120)));
        assert_eq!(get(target("q"), &["DeadLetterConfig", "Arn"]), Some(&getatt("FailedQueue")));
        let transformer = get(target("t"), &["InputTransformer"]).expect("InputTransformer");
        assert_eq!(get(transformer, &["InputPathsMap", "total"]), Some(&Yaml::str("$.detail.total")));
        assert_eq!(get(transformer, &["InputTemplate"]), Some(&Yaml::str("\"total <total>\"")));
        assert_eq!(get(target("f"), &["Input"]), Some(&Yaml::str("{\"k\": 1}")));
        // Bus-to-bus delivery in one account uses an IAM role EventBridge assumes.
        assert_eq!(get(target("b"), &["RoleArn"]), Some(&getatt("OrdersBigRuleBRole")));
        let role = all.iter().find(|e| e.key == "OrdersBigRuleBRole").expect("the bus target's role");
        let principal = prop(role, &["AssumeRolePolicyDocument", "Statement"]);
        assert!(
            matches!(principal, Yaml::List(s) if get(&s[0], &["Principal", "Service"]) == Some(&Yaml::str("events.amazonaws.com")))
        );
    }

    #[test]
    fn what_a_rule_targets_lets_exactly_that_rule_deliver() {
        let all = resources(&routes());
        let from_rule =
            |s: &Yaml| get(s, &["Condition", "ArnEquals", "aws:SourceArn"]) == Some(&getatt("OrdersBigRule"));
        let events = Yaml::str("events.amazonaws.com");
        // An SQS queue (a target, or a target's dead-letter queue): a queue policy statement.
        for queue in ["AuditQueuePolicy", "FailedQueuePolicy"] {
            let policy = all.iter().find(|e| e.key == queue).unwrap_or_else(|| panic!("{queue}"));
            let Yaml::List(statements) = prop(policy, &["PolicyDocument", "Statement"]) else { panic!("Statement") };
            assert!(statements.iter().any(|s| from_rule(s) && get(s, &["Principal", "Service"]) == Some(&events)));
        }
        // An SNS topic: an AWS::SNS::TopicPolicy that lets events.amazonaws.com publish.
        let topic = one(&all, "AWS::SNS::TopicPolicy");
        assert_eq!(prop(topic, &["Topics"]), &Yaml::List(vec![Yaml::Ref("AlertsTopic".into())]));
        let Yaml::List(statements) = prop(topic, &["PolicyDocument", "Statement"]) else { panic!("Statement") };
        assert!(from_rule(&statements[0]) && get(&statements[0], &["Action"]) == Some(&Yaml::str("sns:Publish")));
        // A function: an AWS::Lambda::Permission with the rule as SourceArn.
        let permission = one(&all, "AWS::Lambda::Permission");
        assert_eq!(prop(permission, &["Principal"]), &events);
        assert_eq!(prop(permission, &["Action"]), &Yaml::str("lambda:InvokeFunction"));
        assert_eq!(prop(permission, &["SourceArn"]), &getatt("OrdersBigRule"));
    }

    #[test]
    fn logical_ids_are_stable_between_exports() {
        let sim = routes();
        let ids = |all: Vec<Entry>| all.into_iter().map(|e| e.key).collect::<Vec<_>>();
        assert_eq!(ids(resources(&sim)), ids(resources(&sim.clone())));
        assert_eq!(super::super::cloudformation(&sim), super::super::cloudformation(&sim));
    }

    #[test]
    fn archives_replays_and_playground_role_arns_are_said_not_dropped() {
        let mut sim = routes();
        ok(
            &mut sim,
            "CreateArchive",
            json!({"ArchiveName": "keep", "EventSourceArn": arn("events", "event-bus/orders")}),
        );
        let role = "arn:aws:iam::000000000000:role/playground";
        let targets = json!([{"Id": "r", "Arn": arn("sqs", "audit"), "RoleArn": role}]);
        ok(&mut sim, "PutRule", json!({"Name": "roled", "EventPattern": "{\"source\": [\"x\"]}", "RoleArn": role}));
        ok(&mut sim, "PutTargets", json!({"Rule": "roled", "Targets": targets}));
        let text = super::super::cloudformation(&sim);
        assert!(text.contains("# - archive keep of event bus orders: the exports do not make archives"), "{text}");
        assert!(text.contains("# Its RoleArn is left out: it names the playground's account."), "{text}");
        assert!(text.contains("# Target r: its RoleArn is left out: it names the playground's account."), "{text}");
        assert!(!text.contains("role/playground"), "the playground's account is not in the template");
    }

    #[test]
    fn the_scripts_say_each_invoke_config_and_each_target_they_do_not_make() {
        let sim = routes();
        for script in [super::super::boto3(&sim, &[]), super::super::awscli(&sim, &[])] {
            assert!(script.contains("# - event invoke config of function charge (retries, maximum event age, destinations): in the CloudFormation export only"), "{script}");
            assert!(script.contains("# - target f of rule big on event bus orders (the function notify): in the CloudFormation export only"), "{script}");
            assert!(script.contains("# - target b of rule big on event bus orders (the event bus default): in the CloudFormation export only"), "{script}");
            assert!(script.contains("The story's PutEvents calls are not sent again"), "{script}");
        }
    }
}
