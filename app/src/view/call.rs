//! "AWS call": any of the sandbox's controls sent as the AWS API call it is, its parameters
//! written as JSON (the shape `aws … --cli-input-json` takes). What the other controls do not
//! reach (an alarm, a queue policy, a subscription's dead-letter queue, a worker's retry
//! strategy, a rule's targets, Lambda's invoke config) is reached here, in a drill as in the
//! sandbox. Choosing a call fills in its parameters with the story's own names and, for a
//! setting, its current value (read from a copy of the story, so reading changes nothing). A
//! change goes through the one dispatch point and is the learner's own (undo takes it back); a
//! drill refuses what it does not allow, in words. The answer, or the engine's error, is text.

use super::{use_ctx, Selection};
use crate::playground::Playground;
use engine::drill::controls::{reads_only, CONTROLS};
use engine::Snapshot;
use leptos::prelude::*;
use serde_json::{json, Value};

/// The reads offered beside the changes, each with the kind of thing it needs to exist.
const READS: &[&str] = &[
    "GetQueueAttributes",
    "GetSubscriptionAttributes",
    "DescribeWorker",
    "DescribeAlarms",
    "GetEventSourceMapping",
    "GetFunctionEventInvokeConfig",
    "ListTargetsByRule",
];

/// The action an offered entry calls ("SetQueueAttributes:VisibilityTimeout" calls
/// SetQueueAttributes).
fn action_of(entry: &str) -> &str {
    entry.split(':').next().unwrap_or_default()
}

/// Whether an offered entry is an AWS API call, not one of the playground's own.
fn is_aws(entry: &str) -> bool {
    engine::actions::is_aws(action_of(entry))
}

#[component]
pub fn AwsCall() -> impl IntoView {
    let ctx = use_ctx();
    // The calls offered: a drill's allowed changes, else every control; then the reads that
    // have something to read. Follows the snapshot, which a new story changes too (the story
    // itself moves at every frame while time plays).
    let offered = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            let changes = ctx
                .pg
                .with_untracked(|p| p.may_change())
                .unwrap_or_else(|| CONTROLS.iter().map(|c| c.action.into()).collect());
            let names = Names::of(s, None);
            let reads = READS.iter().filter(|r| names.has(r)).map(|r| r.to_string());
            changes.into_iter().chain(reads).collect::<Vec<_>>()
        })
    });
    let call = RwSignal::new(String::new());
    let params = RwSignal::new(String::new());
    let answer = RwSignal::new(None::<Result<String, String>>);
    // Fills in the parameters of `entry` from the story as it is now.
    let choose = move |entry: String| {
        let text = ctx.pg.with_untracked(|p| {
            ctx.snapshot.with_untracked(|s| {
                let names = Names::of(s, ctx.selected.get_untracked().as_ref());
                format!("{:#}", template(&entry, &names, p))
            })
        });
        call.set(entry);
        params.set(text);
        answer.set(None);
    };
    // The first call is filled in once there is one (and again when a new drill offers others).
    Effect::new(move |_| {
        let first = offered.with(|o| o.first().cloned());
        if let Some(first) = first.filter(|_| offered.with_untracked(|o| !o.contains(&call.get_untracked()))) {
            choose(first);
        }
    });
    let send = move |_| {
        let action = call.with_untracked(|c| action_of(c).to_string());
        let parsed = params.with_untracked(|t| serde_json::from_str::<Value>(t));
        let result = match parsed {
            Err(e) => Err(format!("The parameters are not JSON: {e}. Nothing was sent.")),
            Ok(p) if !p.is_object() => Err("The parameters must be one JSON object, {…}. Nothing was sent.".into()),
            Ok(p) if reads_only(&action) => ctx.pg.with_untracked(|pg| pg.read(&action, &p)).map_err(words),
            Ok(p) => ctx.pg.try_update(|pg| pg.apply(&action, &p)).unwrap_or(Ok(Value::Null)).map_err(words),
        };
        answer.set(Some(result.map(|v| format!("{v:#}"))));
    };
    let failed = move || answer.with(|a| matches!(a, Some(Err(_))));
    // The calls of one kind (AWS's, or the playground's own), each named as "Action · name".
    let options = move |aws: bool| {
        offered.with(|o| {
            o.iter()
                .filter(|c| is_aws(c) == aws)
                .map(|c| view! { <option value=c.clone()>{c.replacen(':', " · ", 1)}</option> })
                .collect_view()
        })
    };
    // A subscription's ARN ends in an id that names nothing a learner sees: say where each one
    // in the parameters delivers ("…:sub-2 is order-events → packing").
    // `try_with`: the drills' copy of this panel is left behind when the learner moves on, and
    // the story it follows keeps changing (a disposed field reads as nothing).
    let named = move || {
        params
            .try_with(|text| {
                ctx.snapshot.with(|s| {
                    let subs = s.topics.iter().flat_map(|t| t.subscriptions.iter().map(move |x| (t, x)));
                    subs.filter(|(_, x)| text.contains(&format!("\"{}\"", x.arn)))
                        .map(|(t, x)| {
                            let id = x.arn.rsplit(':').next().unwrap_or_default();
                            format!("{id} is {} → {}", t.name, x.queue.as_deref().unwrap_or(x.endpoint.as_str()))
                        })
                        .collect::<Vec<_>>()
                        .join("; ")
                })
            })
            .unwrap_or_default()
    };
    view! {
        <details class="export aws-call" data-testid="aws-call">
            <summary>
                <h2>"AWS call"</h2>
                <p class="hint">"Any setting, as the API call that changes it: AWS's, or the playground's own for what it simulates"</p>
            </summary>
            <label class="field wide">
                <span>"Action"</span>
                <select data-testid="aws-call-action" prop:value=move || call.get()
                    on:change=move |ev| choose(event_target_value(&ev))>
                    <optgroup label="AWS API calls">{move || options(true)}</optgroup>
                    {move || offered.with(|o| o.iter().any(|c| !is_aws(c))).then(|| view! {
                        <optgroup label="The playground's own (not AWS): its workers, services and settings">{options(false)}</optgroup>
                    })}
                </select>
            </label>
            <p class="hint" data-testid="aws-call-own" hidden=move || call.with(|c| c.is_empty() || is_aws(c))>
                {move || call.with(|c| format!(
                    "{} is the playground's own, not an AWS call: on AWS, your code and how you run it play this part.",
                    action_of(c)
                ))}
            </p>
            <label class="field wide">
                <span>"Parameters (JSON)"</span>
                <textarea data-testid="aws-call-params" rows="8" spellcheck="false" class:invalid=failed
                    prop:value=move || params.get() on:input=move |ev| params.set(event_target_value(&ev))></textarea>
            </label>
            <p class="hint" data-testid="aws-call-names" hidden=move || named().is_empty()>{named}</p>
            <button data-testid="aws-call-send" on:click=send>"Send"</button>
            <p class="policy-status" data-testid="aws-call-error" role="alert">
                {move || answer.with(|a| match a { Some(Err(e)) => e.clone(), _ => String::new() })}
            </p>
            <pre class="aws-call-answer" data-testid="aws-call-answer" hidden=move || !answer.with(|a| matches!(a, Some(Ok(_))))>
                {move || answer.with(|a| match a { Some(Ok(t)) => t.clone(), _ => String::new() })}
            </pre>
        </details>
    }
}

/// The shape of a setting that has no value yet (the worker reads answer none for these).
fn example(setting: &str) -> Value {
    match setting {
        "Retry" => json!({"Strategy": "Fixed", "MaxAttempts": 3, "Base": "1s"}),
        "Heartbeat" => json!({"Interval": "20s", "VisibilityTimeout": 60}),
        "VisibilityTimeout" => json!(30),
        "MaximumEventAgeInSeconds" => json!(21_600),
        _ => Value::Null,
    }
}

/// An engine error (or a drill's refusal) in words.
fn words(e: engine::ApiError) -> String {
    crate::format::error_text(&e.code, &e.message)
}

/// The names a call is filled in with: what the learner selected, else the first of its kind.
struct Names {
    queue: Option<(String, String)>,
    /// A dead-letter queue (one that others send to), for a redrive.
    dlq: Option<String>,
    subscription: Option<String>,
    topic: Option<String>,
    worker: Option<String>,
    mapping: Option<String>,
    function: Option<String>,
    rule: Option<(String, String)>,
    alarm: Option<String>,
}

impl Names {
    fn of(s: &Snapshot, selected: Option<&Selection>) -> Names {
        let w = &s.world;
        let picked = |want: fn(&Selection) -> Option<&String>| selected.and_then(want).cloned();
        let queue = picked(|s| match s {
            Selection::Queue(q) | Selection::Message { queue: q, .. } => Some(q),
            _ => None,
        });
        let queue = s.queues.iter().find(|q| queue.as_ref() == Some(&q.name)).or(s.queues.first());
        let sub = picked(|s| if let Selection::Subscription(a) = s { Some(a) } else { None });
        let subs = || s.topics.iter().flat_map(|t| &t.subscriptions);
        let rules =
            || s.eventbridge.buses.iter().flat_map(|b| b.rules.iter().map(move |r| (b.name.clone(), r.name.clone())));
        Names {
            queue: queue.map(|q| (q.url.clone(), q.arn.clone())),
            dlq: s.queues.iter().find(|q| !q.dead_letter_sources.is_empty()).map(|q| q.arn.clone()),
            // The selected subscription, else the selected queue's, else the first.
            subscription: subs()
                .find(|x| sub.as_ref() == Some(&x.arn))
                .or(subs().find(|x| x.queue.is_some() && x.queue.as_deref() == queue.map(|q| q.name.as_str())))
                .or(subs().next())
                .map(|x| x.arn.clone()),
            topic: s.topics.first().map(|t| t.arn.clone()),
            worker: picked(|s| if let Selection::Worker(n) = s { Some(n) } else { None })
                .or(w.workers.first().map(|x| x.name.clone())),
            mapping: w.event_source_mappings.first().map(|m| m.uuid.clone()),
            function: w.functions.first().map(|f| f.name.clone()),
            rule: rules().next(),
            alarm: w.alarms.first().map(|a| a.name.clone()),
        }
    }

    /// A name by what it names (`queue`, `queue_arn`, `rule`, the settings' `WorkerName`, …),
    /// or `<what>` for the learner to fill in when the story has none.
    fn get(&self, what: &str) -> String {
        let q = self.queue.as_ref();
        let found = match what {
            "queue" => q.map(|q| &q.0),
            "queue_arn" => q.map(|q| &q.1),
            "dlq" => self.dlq.as_ref().or(q.map(|q| &q.1)),
            "subscription" => self.subscription.as_ref(),
            "topic" => self.topic.as_ref(),
            "worker" | "WorkerName" => self.worker.as_ref(),
            "mapping" | "UUID" => self.mapping.as_ref(),
            "function" | "FunctionName" => self.function.as_ref(),
            "bus" => self.rule.as_ref().map(|r| &r.0),
            "rule" => self.rule.as_ref().map(|r| &r.1),
            _ => self.alarm.as_ref(),
        };
        found.cloned().unwrap_or_else(|| format!("<{what}>"))
    }

    /// Whether the story has what a read needs.
    fn has(&self, read: &str) -> bool {
        match read {
            "GetQueueAttributes" => self.queue.is_some(),
            "GetSubscriptionAttributes" => self.subscription.is_some(),
            "DescribeWorker" => self.worker.is_some(),
            "DescribeAlarms" => self.alarm.is_some(),
            "GetEventSourceMapping" => self.mapping.is_some(),
            "GetFunctionEventInvokeConfig" => self.function.is_some(),
            _ => self.rule.is_some(),
        }
    }
}

/// The calls whose parameters are the same shape in every story, with `$name` for the story's
/// names (`Names::get`). Kept as text: one reader for all of them costs the page less than code
/// building each one.
const SHAPES: &[(&str, &str)] = &[
    (
        "PutMetricAlarm",
        r#"{"AlarmName": "my-alarm", "Namespace": "AWS/SQS", "MetricName": "ApproximateNumberOfMessagesVisible",
            "Dimensions": [{"Name": "QueueName", "Value": "$queue"}], "Statistic": "Maximum", "Period": 60,
            "EvaluationPeriods": 1, "Threshold": 0, "ComparisonOperator": "GreaterThanThreshold"}"#,
    ),
    ("DeleteAlarms", r#"{"AlarmNames": ["$alarm"]}"#),
    (
        "PutTargets",
        r#"{"Rule": "$rule", "EventBusName": "$bus", "Targets": [{"Id": "target-1", "Arn": "$queue_arn"}]}"#,
    ),
    ("EnableRule", r#"{"Name": "$rule", "EventBusName": "$bus"}"#),
    ("ListTargetsByRule", r#"{"Rule": "$rule", "EventBusName": "$bus"}"#),
    ("StartMessageMoveTask", r#"{"SourceArn": "$dlq", "MaxNumberOfMessagesPerSecond": 10}"#),
    ("CreateQueue", r#"{"QueueName": "new-queue", "Attributes": {}}"#),
    ("Subscribe", r#"{"TopicArn": "$topic", "Protocol": "sqs", "Endpoint": "$queue_arn"}"#),
    ("Publish", r#"{"TopicArn": "$topic", "Message": "{}"}"#),
    ("ReceiveMessage", r#"{"QueueUrl": "$queue", "MaxNumberOfMessages": 1}"#),
    ("DeleteMessage", r#"{"QueueUrl": "$queue", "ReceiptHandle": "<receipt handle>"}"#),
    ("CreateWorker", r#"{"QueueUrl": "$queue"}"#),
    ("PurgeQueue", r#"{"QueueUrl": "$queue"}"#),
    ("GetQueueAttributes", r#"{"QueueUrl": "$queue", "AttributeNames": ["All"]}"#),
    ("GetSubscriptionAttributes", r#"{"SubscriptionArn": "$subscription"}"#),
    ("GetFunctionEventInvokeConfig", r#"{"FunctionName": "$function"}"#),
    ("GetEventSourceMapping", r#"{"UUID": "$mapping"}"#),
    ("DescribeAlarms", "{}"),
];

/// The settings: the action, the parameter naming what it sets, the read that answers its
/// value now, and the setting filled in when a drill does not name one.
const SETTINGS: &[(&str, &str, &str, &str)] = &[
    ("UpdateWorker", "WorkerName", "DescribeWorker", "ProcessingTime"),
    ("UpdateEventSourceMapping", "UUID", "GetEventSourceMapping", "BatchSize"),
    ("PutFunctionEventInvokeConfig", "FunctionName", "GetFunctionEventInvokeConfig", "MaximumRetryAttempts"),
    ("UpdateFunctionEventInvokeConfig", "FunctionName", "GetFunctionEventInvokeConfig", "MaximumRetryAttempts"),
];

/// The parameters of `entry` (`"Action"` or `"Action:Name"`, as a drill's `may_change` spells
/// it) for the story `p`, with its names and, for a setting, the value it has now.
fn template(entry: &str, n: &Names, p: &Playground) -> Value {
    let (action, name) = entry.split_once(':').map_or((entry, None), |(a, k)| (a, Some(k)));
    // The value a setting has now, as its read answers it.
    let now = |read: &str, params: Value, path: &[&str]| {
        let v = p.read(read, &params).unwrap_or_default();
        let v = path.iter().fold(v, |v, k| v.get(k).cloned().unwrap_or_default());
        match v {
            Value::Null => example(path.last().copied().unwrap_or_default()),
            // A random processing time reads "1000ms-6000ms"; it is set as {"Min", "Max"}.
            Value::String(t) if t.contains("ms-") => match t.split_once('-') {
                Some((min, max)) => json!({"Min": min, "Max": max}),
                None => Value::String(t),
            },
            v => v,
        }
    };
    let text = |v: Value| Value::String(v.as_str().unwrap_or_default().into());
    match action {
        "SetQueueAttributes" => {
            let (k, url) = (name.unwrap_or("VisibilityTimeout"), n.get("queue"));
            let v = now("GetQueueAttributes", json!({"QueueUrl": url, "AttributeNames": [k]}), &["Attributes", k]);
            json!({"QueueUrl": url, "Attributes": {k: text(v)}})
        }
        "SetSubscriptionAttributes" => {
            let (k, sub) = (name.unwrap_or("FilterPolicy"), n.get("subscription"));
            let v = now("GetSubscriptionAttributes", json!({"SubscriptionArn": sub}), &["Attributes", k]);
            json!({"SubscriptionArn": sub, "AttributeName": k, "AttributeValue": text(v)})
        }
        _ => {
            if let Some((_, id, read, k)) = SETTINGS.iter().find(|s| s.0 == action) {
                let (k, who) = (name.unwrap_or(k), n.get(id));
                let mut m = serde_json::Map::new();
                m.insert(id.to_string(), who.clone().into());
                let v = now(read, Value::Object(m.clone()), &[k]);
                m.insert(k.to_string(), v);
                return Value::Object(m);
            }
            // The worker actions and DescribeWorker.
            let shape = SHAPES.iter().find(|s| s.0 == action).map_or(r#"{"WorkerName": "$worker"}"#, |s| s.1);
            let mut v = serde_json::from_str(shape).unwrap_or_default();
            fill(&mut v, n);
            v
        }
    }
}

/// Puts the story's names in place of `$name` strings.
fn fill(v: &mut Value, n: &Names) {
    match v {
        Value::String(s) if s.starts_with('$') => *s = n.get(&s[1..]),
        Value::Array(a) => a.iter_mut().for_each(|v| fill(v, n)),
        Value::Object(m) => m.values_mut().for_each(|v| fill(v, n)),
        _ => {}
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use engine::drill::Drill;

    fn drills() -> Vec<Drill> {
        let dir = format!("{}/../public/drills", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        files
            .iter()
            .filter(|f| !f.ends_with("index.json"))
            .map(|f| Drill::parse(&std::fs::read_to_string(f).unwrap(), &[]).unwrap_or_else(|e| panic!("{f:?}: {e}")))
            .collect()
    }

    #[test]
    fn every_setting_a_drill_allows_is_filled_in_with_its_value_now_and_sent_back_unchanged_is_accepted() {
        let mut settings = 0;
        for d in drills() {
            let mut pg = Playground::from_drill(&d, String::new()).expect("the world builds");
            for entry in pg.may_change().unwrap().into_iter().filter(|e| e.contains(':')) {
                let names = Names::of(&pg.snapshot(), None);
                let params = template(&entry, &names, &pg);
                let action = entry.split(':').next().unwrap();
                let text = serde_json::to_string(&params).unwrap();
                assert!(!text.contains("\"<") && !text.contains("null"), "{}: {entry} fills in nothing: {text}", d.id);
                pg.apply(action, &params).unwrap_or_else(|e| panic!("{}: {entry} {text}: {}", d.id, e.message));
                settings += 1;
            }
        }
        assert!(settings >= 20, "only {settings} settings in the drills");
    }

    #[test]
    fn a_read_is_answered_by_a_copy_and_changes_nothing_and_a_change_is_not_a_read() {
        let d = drills().into_iter().find(|d| d.id == "silent-subscription").expect("the drill");
        let pg = Playground::from_drill(&d, String::new()).unwrap();
        let before = (pg.history().commands().len(), pg.snapshot());
        let names = Names::of(&pg.snapshot(), Some(&Selection::Queue("packing".into())));
        let v = pg.read("GetQueueAttributes", &template("GetQueueAttributes", &names, &pg)).expect("read");
        assert!(v["Attributes"]["Policy"].as_str().is_some_and(|p| p.contains("aws:SourceArn")), "{v}");
        let packing = pg
            .snapshot()
            .topics
            .iter()
            .flat_map(|t| t.subscriptions.clone())
            .find(|s| s.queue.as_deref() == Some("packing"));
        assert_eq!(Some(names.get("subscription")), packing.map(|s| s.arn), "the selected queue's subscription");
        assert_eq!((pg.history().commands().len(), pg.snapshot()), before, "reading changed nothing");
        let e = pg.read("PurgeQueue", &json!({"QueueUrl": "packing"})).expect_err("a change");
        assert!(e.message.contains("not a read-only action"), "{}", e.message);
    }

    #[test]
    fn a_drill_offers_its_allowed_changes_and_the_sandbox_every_control() {
        let d = drills().into_iter().find(|d| d.id == "points-lost").expect("the drill");
        let pg = Playground::from_drill(&d, String::new()).unwrap();
        assert!(pg.may_change().unwrap().contains(&"PutMetricAlarm".to_string()));
        assert_eq!(Playground::blank().may_change(), None);
        let names = Names::of(&pg.snapshot(), Some(&Selection::Queue("loyalty-dlq".into())));
        let alarm = template("PutMetricAlarm", &names, &pg);
        assert_eq!(alarm["Dimensions"][0]["Value"], names.queue.unwrap().0, "the selected queue");
    }

    #[test]
    fn every_shape_is_json_and_every_control_and_read_has_one() {
        for (action, shape) in SHAPES {
            serde_json::from_str::<Value>(shape).unwrap_or_else(|e| panic!("{action}: {e}"));
        }
        let known = |a: &str| {
            SHAPES.iter().any(|s| s.0 == a)
                || SETTINGS.iter().any(|s| s.0 == a)
                || a.ends_with("Worker")
                || a.starts_with("Set")
        };
        for a in CONTROLS.iter().map(|c| c.action).chain(READS.iter().copied()) {
            assert!(known(a), "{a} has no shape");
        }
    }
}
