//! The CloudFormation export (`engine::export::cloudformation`): the quilt store's template byte
//! for byte against `tests/golden/quilt-store.cfn.yaml` (regenerate after an intended change with
//! `FANOUT_BLESS=1 cargo test -p fanout-engine --test export`), and, read back with an independent
//! YAML reader, each property carrying the engine's own value, the queue policies, the logical
//! ids, what is left out, and hostile strings surviving exactly. cfn-lint checks the same
//! templates in `scripts/export_check.sh`.
mod common;
#[path = "support/yaml_subset.rs"]
mod yaml_subset;

use common::{fails, ok, queue};
use engine::{export, Scenario, Sim};
use serde_json::{json, Value};
use yaml_subset::{parse, Node};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/quilt-store.cfn.yaml");
const ARN: &str = "arn:aws:sqs:us-east-1:000000000000:";

fn scenario(path: &str) -> Scenario {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("the file reads");
    Scenario::parse(&text).expect("the scenario parses")
}

fn template(sim: &Sim) -> Node {
    let text = export::cloudformation(sim);
    parse(&text).unwrap_or_else(|e| panic!("the template is not the YAML subset: {e}\n{text}"))
}

/// Every resource of one type, as (logical id, resource).
fn resources<'a>(t: &'a Node, kind: &str) -> Vec<(&'a str, &'a Node)> {
    let all = t.get("Resources").expect("Resources").entries();
    all.iter()
        .filter(|(_, r)| r.at(&["Type"]).and_then(Node::str) == Some(kind))
        .map(|(id, r)| (id.as_str(), r))
        .collect()
}

fn prop<'a>(r: &'a Node, key: &str) -> &'a Node {
    r.at(&["Properties", key]).unwrap_or_else(|| panic!("no property {key} in {r:?}"))
}

fn named<'a>(t: &'a Node, kind: &str, name_key: &str, name: &str) -> (&'a str, &'a Node) {
    resources(t, kind)
        .into_iter()
        .find(|(_, r)| prop(r, name_key).str() == Some(name))
        .unwrap_or_else(|| panic!("no {kind} named {name}"))
}

fn subscribe(sim: &mut Sim, topic: &str, queue: &str, attributes: Value) {
    ok(
        sim,
        "Subscribe",
        json!({"TopicArn": topic, "Protocol": "sqs", "Endpoint": format!("{ARN}{queue}"), "Attributes": attributes}),
    );
}

#[test]
fn the_quilt_store_template_matches_the_golden_file() {
    let run = scenario("../public/scenarios/quilt-store.json").run();
    let text = export::cloudformation(run.sim());
    if std::env::var_os("FANOUT_BLESS").is_some() {
        std::fs::write(GOLDEN, &text).expect("golden file written");
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("golden file present");
    assert!(text.contains("AWS::SNS::Subscription"), "the quilt store has subscriptions to compare");
    if text != golden {
        let first = text.lines().zip(golden.lines()).position(|(a, b)| a != b);
        panic!("the template differs from the golden file (first differing line: {first:?}); if intended, run FANOUT_BLESS=1 cargo test -p fanout-engine --test export");
    }
    assert_eq!(export::cloudformation(run.sim()), text, "two exports of one state are identical");
}

#[test]
fn every_queue_property_is_the_value_the_engine_answers() {
    // AWS::SQS::Queue takes VisibilityTimeout, MessageRetentionPeriod, DelaySeconds,
    // ReceiveMessageWaitTimeSeconds and MaximumMessageSize as integers (seconds, bytes), and the
    // FIFO ones (FifoQueue, ContentBasedDeduplication as booleans): the values GetQueueAttributes gives.
    let mut sim = Sim::new(1);
    queue(
        &mut sim,
        "orders.fifo",
        json!({"FifoQueue": "true", "ContentBasedDeduplication": "true", "VisibilityTimeout": "120"}),
    );
    queue(
        &mut sim,
        "slow",
        json!({"DelaySeconds": "5", "ReceiveMessageWaitTimeSeconds": "20", "MessageRetentionPeriod": "3600"}),
    );
    ok(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "slow", "Attributes": {"VisibilityTimeout": "45", "MaximumMessageSize": "2048"}}),
    );
    let t = template(&sim);
    for name in ["orders.fifo", "slow"] {
        let answer = ok(&mut sim, "GetQueueAttributes", json!({"QueueUrl": name, "AttributeNames": ["All"]}));
        let (_, q) = named(&t, "AWS::SQS::Queue", "QueueName", name);
        for key in [
            "VisibilityTimeout",
            "MessageRetentionPeriod",
            "DelaySeconds",
            "ReceiveMessageWaitTimeSeconds",
            "MaximumMessageSize",
        ] {
            assert_eq!(prop(q, key).str(), answer["Attributes"][key].as_str(), "{name} {key}");
        }
        if name.ends_with(".fifo") {
            assert_eq!(prop(q, "FifoQueue").str(), Some("true"));
            assert_eq!(
                prop(q, "ContentBasedDeduplication").str(),
                answer["Attributes"]["ContentBasedDeduplication"].as_str()
            );
        } else {
            assert!(q.at(&["Properties", "FifoQueue"]).is_none(), "a standard queue has no FifoQueue (not even false)");
        }
    }
}

#[test]
fn a_visibility_timeout_out_of_range_never_reaches_a_template() {
    // SQS: VisibilityTimeout is 0 to 43,200 seconds (12 hours). The engine refuses 50,000 and
    // changes nothing, so the template keeps the value the queue has.
    let mut sim = Sim::new(1);
    queue(&mut sim, "billing", json!({"VisibilityTimeout": "60"}));
    let e = fails(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "billing", "Attributes": {"VisibilityTimeout": "50000"}}),
    );
    assert_eq!(e.code, "InvalidAttributeValue");
    let e =
        fails(&mut sim, "CreateQueue", json!({"QueueName": "too-long", "Attributes": {"VisibilityTimeout": "50000"}}));
    assert_eq!(e.code, "InvalidAttributeValue");
    let t = template(&sim);
    let (_, q) = named(&t, "AWS::SQS::Queue", "QueueName", "billing");
    assert_eq!(prop(q, "VisibilityTimeout").str(), Some("60"));
    assert_eq!(resources(&t, "AWS::SQS::Queue").len(), 1, "the refused queue is not in the template");
    assert!(!export::cloudformation(&sim).contains("50000"));
}

#[test]
fn each_queue_policy_lets_exactly_the_topics_that_deliver_to_it_send() {
    // SNS docs ("Subscribing an Amazon SQS queue to an Amazon SNS topic"): the queue's policy must
    // allow sns.amazonaws.com sqs:SendMessage, with the aws:SourceArn condition naming the topic;
    // ("Configuring an Amazon SNS dead-letter queue"): a subscription's dead-letter queue too.
    let mut sim = Sim::new(1);
    for t in ["orders", "refunds", "unused"] {
        ok(&mut sim, "CreateTopic", json!({"Name": t}));
    }
    for q in ["audit", "sms", "sms-dlq", "lonely"] {
        queue(&mut sim, q, json!({}));
    }
    subscribe(&mut sim, "orders", "audit", json!({}));
    subscribe(&mut sim, "refunds", "audit", json!({}));
    subscribe(
        &mut sim,
        "orders",
        "sms",
        json!({"RedrivePolicy": format!("{{\"deadLetterTargetArn\": \"{ARN}sms-dlq\"}}")}),
    );
    let t = template(&sim);
    let topic_id = |name: &str| named(&t, "AWS::SNS::Topic", "TopicName", name).0.to_string();
    let queue_id = |name: &str| named(&t, "AWS::SQS::Queue", "QueueName", name).0.to_string();
    let policies = resources(&t, "AWS::SQS::QueuePolicy");
    let senders = |queue: &str| -> Vec<String> {
        let (_, p) = policies
            .iter()
            .find(|(_, p)| prop(p, "Queues").items() == [Node::Tag("Ref".into(), queue_id(queue))])
            .unwrap_or_else(|| panic!("no policy for {queue}"));
        prop(p, "PolicyDocument")
            .at(&["Statement"])
            .unwrap()
            .items()
            .iter()
            .map(|s| {
                assert_eq!(s.at(&["Principal", "Service"]).and_then(Node::str), Some("sns.amazonaws.com"));
                assert_eq!(s.at(&["Action"]).and_then(Node::str), Some("sqs:SendMessage"));
                assert_eq!(s.at(&["Resource"]), Some(&Node::Tag("GetAtt".into(), format!("{}.Arn", queue_id(queue)))));
                match s.at(&["Condition", "ArnEquals", "aws:SourceArn"]) {
                    Some(Node::Tag(tag, id)) if tag == "Ref" => id.clone(),
                    other => panic!("the condition names no topic: {other:?}"),
                }
            })
            .collect()
    };
    assert_eq!(senders("audit"), vec![topic_id("orders"), topic_id("refunds")]);
    assert_eq!(senders("sms"), vec![topic_id("orders")]);
    assert_eq!(senders("sms-dlq"), vec![topic_id("orders")], "the subscription's dead-letter queue");
    assert_eq!(policies.len(), 3, "a queue no topic delivers to gets no policy");
    let (_, sub) = named(&t, "AWS::SNS::Subscription", "Protocol", "sqs");
    assert!(matches!(sub.get("DependsOn"), Some(Node::Str(p)) if p.ends_with("QueuePolicy")), "made after its policy");
}

#[test]
fn subscriptions_carry_raw_delivery_the_filter_policy_as_given_its_scope_and_redrive() {
    // AWS::SNS::Subscription: RawMessageDelivery (Boolean), FilterPolicy (JSON text or object),
    // FilterPolicyScope, RedrivePolicy {deadLetterTargetArn}.
    let mut sim = Sim::new(1);
    ok(&mut sim, "CreateTopic", json!({"Name": "orders"}));
    queue(&mut sim, "wholesale", json!({}));
    queue(&mut sim, "wholesale-dlq", json!({}));
    let policy = "{\"order\": {\"total\": [{\"numeric\": [\">=\", 1000]}]}}";
    subscribe(
        &mut sim,
        "orders",
        "wholesale",
        json!({"RawMessageDelivery": "true", "FilterPolicyScope": "MessageBody", "FilterPolicy": policy,
        "RedrivePolicy": format!("{{\"deadLetterTargetArn\": \"{ARN}wholesale-dlq\"}}")}),
    );
    let t = template(&sim);
    let (_, s) = resources(&t, "AWS::SNS::Subscription")[0];
    let dlq = named(&t, "AWS::SQS::Queue", "QueueName", "wholesale-dlq").0;
    assert_eq!(prop(s, "RawMessageDelivery").str(), Some("true"));
    assert_eq!(prop(s, "FilterPolicy").str(), Some(policy), "the policy's own text");
    assert_eq!(prop(s, "FilterPolicyScope").str(), Some("MessageBody"));
    assert_eq!(
        prop(s, "RedrivePolicy").get("deadLetterTargetArn"),
        Some(&Node::Tag("GetAtt".into(), format!("{dlq}.Arn")))
    );
    assert_eq!(prop(s, "Protocol").str(), Some("sqs"));
}

#[test]
fn fifo_topics_and_queue_redrive_are_linked_by_reference() {
    // AWS::SNS::Topic: FifoTopic and ContentBasedDeduplication; AWS::SQS::Queue: RedrivePolicy
    // {deadLetterTargetArn, maxReceiveCount} and RedriveAllowPolicy {redrivePermission, sourceQueueArns}.
    let mut sim = Sim::new(1);
    ok(
        &mut sim,
        "CreateTopic",
        json!({"Name": "orders.fifo", "Attributes": {"FifoTopic": "true", "ContentBasedDeduplication": "true"}}),
    );
    queue(&mut sim, "dlq.fifo", json!({"FifoQueue": "true"}));
    queue(&mut sim, "packing.fifo", json!({"FifoQueue": "true"}));
    ok(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "dlq.fifo", "Attributes": {"RedriveAllowPolicy":
        format!("{{\"redrivePermission\": \"byQueue\", \"sourceQueueArns\": [\"{ARN}packing.fifo\"]}}")}}),
    );
    ok(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "packing.fifo", "Attributes": {"RedrivePolicy":
        format!("{{\"deadLetterTargetArn\": \"{ARN}dlq.fifo\", \"maxReceiveCount\": 3}}")}}),
    );
    let t = template(&sim);
    let (_, topic) = named(&t, "AWS::SNS::Topic", "TopicName", "orders.fifo");
    assert_eq!(prop(topic, "FifoTopic").str(), Some("true"));
    assert_eq!(prop(topic, "ContentBasedDeduplication").str(), Some("true"));
    let (dlq_id, dlq) = named(&t, "AWS::SQS::Queue", "QueueName", "dlq.fifo");
    let (packing_id, packing) = named(&t, "AWS::SQS::Queue", "QueueName", "packing.fifo");
    let redrive = prop(packing, "RedrivePolicy");
    assert_eq!(redrive.get("deadLetterTargetArn"), Some(&Node::Tag("GetAtt".into(), format!("{dlq_id}.Arn"))));
    assert_eq!(redrive.get("maxReceiveCount").and_then(Node::str), Some("3"));
    let allow = prop(dlq, "RedriveAllowPolicy");
    assert_eq!(allow.get("redrivePermission").and_then(Node::str), Some("byQueue"));
    // packing's RedrivePolicy already refers to dlq: a !GetAtt back would make the two a
    // circular dependency (cfn-lint E3004), so the source is named by its ARN, which needs no order.
    assert_ne!(packing_id, "");
    assert_eq!(
        allow.get("sourceQueueArns").unwrap().items(),
        [Node::Tag("Sub".into(), "arn:${AWS::Partition}:sqs:${AWS::Region}:${AWS::AccountId}:packing.fifo".into())]
    );
}

#[test]
fn a_cycle_of_dead_letter_queues_leaves_one_policy_out_with_the_command_that_sets_it() {
    // AWS accepts queues that are each other's dead-letter queue (set one after the other), but
    // one stack cannot create them: a !GetAtt each way is a circular dependency, and SQS refuses
    // a RedrivePolicy whose deadLetterTargetArn does not exist yet. So the last queue of the cycle
    // is created without its policy, and the template says how to set it.
    let run = scenario("tests/scenarios/dlq-cycle.json").run();
    let text = export::cloudformation(run.sim());
    let t = parse(&text).expect("the template reads");
    let (a_id, a) = named(&t, "AWS::SQS::Queue", "QueueName", "a");
    let (b_id, b) = named(&t, "AWS::SQS::Queue", "QueueName", "b");
    assert_eq!(
        prop(a, "RedrivePolicy").get("deadLetterTargetArn"),
        Some(&Node::Tag("GetAtt".into(), format!("{b_id}.Arn")))
    );
    assert!(b.at(&["Properties", "RedrivePolicy"]).is_none(), "b keeps no RedrivePolicy: {b:?}");
    assert!(!text.contains(&format!("GetAtt {a_id}.Arn")), "nothing refers back to a:\n{text}");
    assert!(text.contains("dead-letter queues b -> a -> b form a cycle"), "{text}");
    assert!(
        text.contains(r#"--queue-url QUEUE_URL_OF_b --attributes '{"RedrivePolicy":"{\"deadLetterTargetArn\":\"ARN_OF_a\",\"maxReceiveCount\":1}"}'"#),
        "{text}"
    );
}

#[test]
fn logical_ids_are_camel_case_collision_safe_and_stable() {
    let mut sim = Sim::new(1);
    for q in ["sms-dlq", "sms_dlq", "billing"] {
        queue(&mut sim, q, json!({}));
    }
    let ids = |sim: &Sim| -> Vec<(String, String)> {
        let t = template(sim);
        resources(&t, "AWS::SQS::Queue")
            .iter()
            .map(|(id, r)| (prop(r, "QueueName").str().unwrap().to_string(), id.to_string()))
            .collect()
    };
    let before = ids(&sim);
    let id_of = |list: &[(String, String)], name: &str| list.iter().find(|(n, _)| n == name).unwrap().1.clone();
    assert_eq!(id_of(&before, "billing"), "BillingQueue");
    assert_ne!(id_of(&before, "sms-dlq"), id_of(&before, "sms_dlq"), "two names that camel-case alike");
    assert!(before.iter().all(|(_, id)| id.chars().all(|c| c.is_ascii_alphanumeric())), "{before:?}");
    queue(&mut sim, "aaa-first", json!({}));
    let after = ids(&sim);
    for (name, id) in &before {
        assert_eq!(&id_of(&after, name), id, "adding a queue renames no other");
    }
}

#[test]
fn what_only_the_simulator_has_is_said_in_comments_not_dropped() {
    let mut sim = Sim::new(1);
    queue(&mut sim, "billing", json!({}));
    ok(&mut sim, "ConfigureSimulation", json!({"DuplicateDeliveryProbability": "0.05"}));
    ok(&mut sim, "CreateWorker", json!({"WorkerName": "billing-w1", "QueueUrl": "billing"}));
    ok(
        &mut sim,
        "PutMetricAlarm",
        json!({"AlarmName": "slips", "Namespace": "Playground/Job", "MetricName": "SideEffects",
        "Dimensions": [{"Name": "Job", "Value": "billing"}], "Statistic": "Sum", "Period": 60, "EvaluationPeriods": 1,
        "Threshold": 1, "ComparisonOperator": "GreaterThanThreshold"}),
    );
    let text = export::cloudformation(&sim);
    let comments: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with('#')).collect();
    let said = |what: &str| comments.iter().any(|c| c.contains(what));
    assert!(said("worker billing-w1 on queue billing"), "{comments:?}");
    assert!(said("DuplicateDeliveryProbability 0.05"), "{comments:?}");
    assert!(said("alarm slips on Playground/Job SideEffects"), "{comments:?}");
    let t = template(&sim);
    assert!(resources(&t, "AWS::CloudWatch::Alarm").is_empty(), "no alarm on a metric AWS never publishes");
}

#[test]
fn alarms_carry_their_metric_statistic_period_threshold_and_topic_actions() {
    // AWS::CloudWatch::Alarm: Namespace, MetricName, Dimensions, Statistic, Period, Threshold,
    // ComparisonOperator; an SNS topic action by its ARN (Ref of AWS::SNS::Topic).
    let run = scenario("tests/scenarios/world-dlq-alarm.json").run();
    let mut probe = run.sim().clone();
    let described = ok(&mut probe, "DescribeAlarms", json!({}))["MetricAlarms"].as_array().unwrap().clone();
    let t = template(run.sim());
    assert_eq!(resources(&t, "AWS::CloudWatch::Alarm").len(), described.len());
    for d in &described {
        let (_, a) = named(&t, "AWS::CloudWatch::Alarm", "AlarmName", d["AlarmName"].as_str().unwrap());
        for key in ["Namespace", "MetricName", "Statistic", "ComparisonOperator", "TreatMissingData"] {
            assert_eq!(prop(a, key).str(), d[key].as_str(), "{key}");
        }
        assert_eq!(prop(a, "Period").str(), Some(d["Period"].to_string().as_str()));
        let threshold: f64 = prop(a, "Threshold").str().unwrap().parse().unwrap();
        assert_eq!(threshold, d["Threshold"].as_f64().unwrap());
        let queue = d["Dimensions"][0]["Value"].as_str().unwrap();
        let queue_id = named(&t, "AWS::SQS::Queue", "QueueName", queue).0;
        assert_eq!(
            prop(a, "Dimensions").items()[0].get("Value"),
            Some(&Node::Tag("GetAtt".into(), format!("{queue_id}.QueueName")))
        );
        let actions: Vec<&Node> =
            a.at(&["Properties", "AlarmActions"]).map(|l| l.items().iter().collect()).unwrap_or_default();
        assert_eq!(actions.len(), d["AlarmActions"].as_array().unwrap().len());
        assert!(actions.iter().all(|n| matches!(n, Node::Tag(tag, _) if tag == "Ref")));
    }
}

#[test]
fn lambda_mappings_keep_batch_settings_and_function_response_types_with_a_placeholder_function() {
    // AWS::Lambda::EventSourceMapping: EventSourceArn, FunctionName, BatchSize,
    // FunctionResponseTypes [ReportBatchItemFailures]; a function needs code and a role, so the
    // export writes a clearly marked placeholder handler and a role with AWSLambdaSQSQueueExecutionRole.
    let run = scenario("tests/scenarios/world-lambda-batch-failures.json").run();
    let mappings = run.sim().snapshot().world.event_source_mappings;
    let t = template(run.sim());
    let exported = resources(&t, "AWS::Lambda::EventSourceMapping");
    assert_eq!(exported.len(), mappings.len());
    for m in &mappings {
        let queue_id = named(&t, "AWS::SQS::Queue", "QueueName", &m.queue).0;
        let (fn_id, f) = named(&t, "AWS::Lambda::Function", "FunctionName", &m.function);
        let (_, e) = exported
            .iter()
            .find(|(_, e)| prop(e, "EventSourceArn") == &Node::Tag("GetAtt".into(), format!("{queue_id}.Arn")))
            .expect("a mapping for the queue");
        assert_eq!(prop(e, "FunctionName"), &Node::Tag("Ref".into(), fn_id.to_string()));
        assert_eq!(prop(e, "BatchSize").str(), Some(m.batch_size.to_string().as_str()));
        let types = e.at(&["Properties", "FunctionResponseTypes"]).map(|l| l.items().to_vec()).unwrap_or_default();
        let want =
            if m.report_batch_item_failures { vec![Node::Str("ReportBatchItemFailures".into())] } else { vec![] };
        assert_eq!(types, want, "{}", m.uuid);
        assert!(prop(f, "Code").get("ZipFile").and_then(Node::str).unwrap().contains("PLACEHOLDER"));
        let Node::Tag(_, role) = prop(f, "Role") else { panic!("the role is a reference") };
        let role_id = role.trim_end_matches(".Arn");
        let roles = resources(&t, "AWS::IAM::Role");
        let (_, r) = roles.iter().find(|(id, _)| *id == role_id).expect("the function's role");
        let Node::Tag(_, arn) = &prop(r, "ManagedPolicyArns").items()[0] else { panic!("a !Sub ARN") };
        assert!(arn.ends_with(":iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole"));
    }
    assert!(export::cloudformation(run.sim()).contains("--capabilities CAPABILITY_IAM"));
}

#[test]
fn hostile_names_and_policies_read_back_exactly() {
    // Quotes, colons, `#`, line breaks, tabs, a bell, Unicode and a right-to-left override: each
    // string reads back as given, and no invisible or control character stands raw in the file.
    let s = scenario("tests/scenarios/export-hostile.json");
    let run = s.run();
    let text = export::cloudformation(run.sim());
    assert!(!text.contains('\u{202e}') && !text.contains('\u{7}') && !text.contains('\t'), "raw in:\n{text}");
    let t = template(run.sim());
    let given = |action: &str, pick: &dyn Fn(&Value) -> Option<String>| -> Vec<String> {
        let mut v: Vec<String> = s
            .steps
            .iter()
            .filter_map(|st| match st {
                engine::scenario::Step::Action { action: a, params, .. } if a == action => pick(params),
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    let exported = |kind: &str, key: &str| -> Vec<String> {
        let mut v: Vec<String> = resources(&t, kind)
            .iter()
            .filter_map(|(_, r)| r.at(&["Properties", key]).and_then(Node::str).map(str::to_string))
            .collect();
        v.sort();
        v
    };
    let attr = |key: &'static str| move |p: &Value| p["Attributes"][key].as_str().map(str::to_string);
    let field = |key: &'static str| move |p: &Value| p[key].as_str().map(str::to_string);
    assert_eq!(exported("AWS::SNS::Topic", "DisplayName"), given("CreateTopic", &attr("DisplayName")));
    assert_eq!(exported("AWS::SNS::Subscription", "FilterPolicy"), given("Subscribe", &attr("FilterPolicy")));
    assert_eq!(exported("AWS::CloudWatch::Alarm", "AlarmName"), given("PutMetricAlarm", &field("AlarmName")));
    assert_eq!(
        exported("AWS::CloudWatch::Alarm", "AlarmDescription"),
        given("PutMetricAlarm", &field("AlarmDescription"))
    );
    assert!(given("Subscribe", &attr("FilterPolicy")).iter().any(|p| p.contains('\n') && p.contains('#')));
}

#[test]
fn a_simulation_without_resources_still_gives_a_deployable_template() {
    // CloudFormation requires at least one resource.
    let t = template(&Sim::new(1));
    assert_eq!(resources(&t, "AWS::CloudFormation::WaitConditionHandle").len(), 1);
}
