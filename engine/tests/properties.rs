//! Properties of the engine over random command sequences on a small world (a topic; `work`
//! redriving to `dlq`; `plain` without a redrive policy; `sms` behind a filtered subscription):
//! (a) it never panics; (b) every stored copy is accounted for; (c) a message in flight is never
//! received; (d) receive counts never go down; (e) a run replays byte for byte, straight and
//! through `History::seek`; (f) a failed action changes nothing; (g) whatever reaches a queue can
//! be received from it: no copy is counted but unreceivable. With `fifo`, a FIFO topic
//! `orders.fifo` fans out to `jobs.fifo` (its subscription dead-letter queue `jobs-dlq.fifo`),
//! so deleting `jobs.fifo` sends its copies to that DLQ.
use engine::history::History;
use engine::snapshot::{MessageView, QueueView, Snapshot};
use engine::sqs::{MsgState, QueueStats};
use engine::{event_log_jsonl, ApiError, Event, EventKind, Sim, SimTime};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};

const ARN: &str = "arn:aws:sqs:us-east-1:000000000000:";
/// Index 4 names a queue that never exists; 5 and 6 are FIFO queues (when the world has them).
const QUEUES: [&str; 7] = ["work", "plain", "sms", "dlq", "ghost", "jobs.fifo", "jobs-dlq.fifo"];

// ---------------------------------------------------------------------------------------------
// The world and the commands

#[derive(Clone, Debug)]
struct World {
    visibility: u32,
    max_receive: u32,
    /// `MessageRetentionPeriod` of `work`, `plain` and `sms`; then of `dlq`.
    retention: u32,
    dlq_retention: u32,
    with_sms: bool,
    body_scope: bool,
    raw: bool,
    /// A FIFO queue `jobs.fifo` (content-based deduplication) redriving to `jobs-dlq.fifo`,
    /// subscribed to the FIFO topic `orders.fifo` with `jobs-dlq.fifo` as its subscription DLQ.
    fifo: bool,
}

fn redrive(target: &str, max: u32) -> String {
    json!({"deadLetterTargetArn": format!("{ARN}{target}"), "maxReceiveCount": max}).to_string()
}

impl World {
    fn queue_attributes(&self, queue: &str) -> Value {
        let (v, r) = (self.visibility.to_string(), self.retention.to_string());
        match queue {
            "dlq" => json!({"MessageRetentionPeriod": self.dlq_retention.to_string()}),
            "jobs-dlq.fifo" => json!({"FifoQueue": "true"}),
            "jobs.fifo" => json!({"FifoQueue": "true", "ContentBasedDeduplication": "true", "VisibilityTimeout": v,
                                  "MessageRetentionPeriod": r, "RedrivePolicy": redrive("jobs-dlq.fifo", self.max_receive)}),
            "work" => json!({"VisibilityTimeout": v, "MessageRetentionPeriod": r,
                             "RedrivePolicy": redrive("dlq", self.max_receive)}),
            "sms" => json!({"VisibilityTimeout": v, "MessageRetentionPeriod": r,
                            "RedrivePolicy": redrive("dlq", self.max_receive + 1)}),
            _ => json!({"VisibilityTimeout": v, "MessageRetentionPeriod": r}),
        }
    }

    fn setup(&self) -> Vec<Step> {
        let mut steps = vec![Step::apply("CreateTopic", json!({"Name": "orders"}))];
        let queues: &[&str] = if self.with_sms { &["dlq", "work", "plain", "sms"] } else { &["dlq", "work", "plain"] };
        let fifo: &[&str] = if self.fifo { &["jobs-dlq.fifo", "jobs.fifo"] } else { &[] };
        for q in queues.iter().chain(fifo) {
            steps.push(Step::apply("CreateQueue", json!({"QueueName": q, "Attributes": self.queue_attributes(q)})));
        }
        let subscribe = |q: &str, attributes: Value| {
            let endpoint = format!("{ARN}{q}");
            Step::apply(
                "Subscribe",
                json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": endpoint, "Attributes": attributes}),
            )
        };
        if self.fifo {
            let attributes = json!({"FifoTopic": "true", "ContentBasedDeduplication": "true"});
            steps.push(Step::apply("CreateTopic", json!({"Name": "orders.fifo", "Attributes": attributes})));
            let dlq = json!({"deadLetterTargetArn": format!("{ARN}jobs-dlq.fifo")}).to_string();
            steps.push(Step::apply(
                "Subscribe",
                json!({"TopicArn": "orders.fifo", "Protocol": "sqs", "Endpoint": format!("{ARN}jobs.fifo"),
                       "Attributes": {"RawMessageDelivery": self.raw.to_string(), "RedrivePolicy": dlq}}),
            ));
        }
        steps.push(subscribe("work", json!({"RawMessageDelivery": self.raw.to_string()})));
        steps.push(subscribe("plain", json!({})));
        if self.with_sms {
            let scope = if self.body_scope { "MessageBody" } else { "MessageAttributes" };
            let policy = json!({"kind": ["a", "b"]}).to_string();
            steps.push(subscribe("sms", json!({"FilterPolicyScope": scope, "FilterPolicy": policy})));
        }
        steps
    }
}

/// A receipt handle to use: the latest or an earlier one of a copy in the queue, any handle
/// seen so far (of a copy since gone, or in another queue), or one never issued.
#[derive(Clone, Debug)]
enum HandleRef {
    Latest(Index),
    Earlier(Index),
    Seen(Index),
    Garbage(&'static str),
}

#[derive(Clone, Debug)]
enum Cmd {
    /// `kind` 0 to 3 to `orders`; 4 and above to `orders.fifo` (group `kind % 3`).
    Publish {
        kind: usize,
    },
    /// `group` and `body` vary FIFO sends (content-based deduplication drops a repeated body).
    Send {
        queue: usize,
        delay: Option<u32>,
        group: usize,
        body: usize,
    },
    Receive {
        queue: usize,
        max: u32,
        visibility: Option<u32>,
    },
    Delete {
        queue: usize,
        handle: HandleRef,
    },
    ChangeVisibility {
        queue: usize,
        handle: HandleRef,
        timeout: u32,
    },
    Purge {
        queue: usize,
    },
    SetAttribute {
        queue: usize,
        name: &'static str,
        value: &'static str,
    },
    StartMove {
        rate: Option<u32>,
        destination: Option<usize>,
        fifo: bool,
    },
    DeleteQueue {
        queue: usize,
    },
    RecreateQueue {
        queue: usize,
    },
    Configure {
        duplicate: &'static str,
        reorder: &'static str,
    },
    Advance {
        ms: u64,
    },
    Random {
        action: String,
        params: Value,
    },
}

/// One concrete step, as run and as replayed.
#[derive(Clone, Debug)]
enum Step {
    Advance(u64),
    Apply(String, Value),
}

impl Step {
    fn apply(action: &str, params: Value) -> Step {
        Step::Apply(action.to_string(), params)
    }
}

/// `SetQueueAttributes` values as `Name=value`, valid and not. `RedrivePolicy=other` stands for
/// a redrive policy to another queue (a queue that is its own dead-letter queue is covered by
/// `a_queue_that_is_its_own_dead_letter_queue_still_answers_a_receive`).
const ATTRIBUTES: &str = "VisibilityTimeout=0 VisibilityTimeout=1 VisibilityTimeout=4 DelaySeconds=0 DelaySeconds=2 \
    MessageRetentionPeriod=60 MessageRetentionPeriod=345600 ReceiveMessageWaitTimeSeconds=5 RedrivePolicy= \
    RedrivePolicy=other VisibilityTimeout=-1 VisibilityTimeout=43201 MessageRetentionPeriod=59 DelaySeconds=soon \
    Bogus=1 FifoQueue=true RedrivePolicy={\"maxReceiveCount\":0} \
    RedrivePolicy={\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:missing\",\"maxReceiveCount\":2}";
const GARBAGE_HANDLES: &[&str] = &["rh-999999-1", "rh-1-0", "rh-1-99", "not-a-handle", "", "rh--1"];
/// Parameter names for random params. Never `deadLetterTargetArn`: a random redrive policy
/// could then name its own queue.
const PARAM_NAMES: &str = "QueueUrl QueueName Attributes MessageBody DelaySeconds TopicArn Message MessageAttributes \
    ReceiptHandle Entries Id VisibilityTimeout MaxNumberOfMessages SourceArn DestinationArn TaskHandle Name Protocol \
    Endpoint SubscriptionArn AttributeName AttributeValue AttributeNames DuplicateDeliveryProbability \
    ReorderProbability SnsDeliveryLatency DataType StringValue RawMessageDelivery FilterPolicy \
    PublishBatchRequestEntries MessageStructure";
const WORDS: &str = "work plain sms dlq orders arn:aws:sqs:us-east-1:000000000000:dlq \
    arn:aws:sqs:us-east-1:000000000000:work https://sqs.us-east-1.amazonaws.com/000000000000/plain \
    arn:aws:sns:us-east-1:000000000000:orders arn:aws:sns:us-east-1:000000000000:orders:sub-1 sqs rh-1-1 rh-2-1 \
    task-1 0.5 1 true String Number All hello {} json 2s {\"kind\":[\"a\"]}";

fn tokens(text: &'static str) -> Vec<&'static str> {
    text.split_whitespace().collect()
}

fn object<K: ToString>(map: BTreeMap<K, Value>) -> Value {
    Value::Object(map.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn random_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..50).prop_map(Value::from),
        Just(json!(1e20)),
        prop::sample::select(tokens(WORDS)).prop_map(Value::from),
        "[a-z0-9 .\\-{}\"]{0,10}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(prop::sample::select(tokens(PARAM_NAMES)), inner, 0..4).prop_map(object),
        ]
    })
}

/// Any action the engine's API knows, or one it does not, with params of any shape.
fn random_command() -> impl Strategy<Value = Cmd> {
    let mut names: Vec<&str> = engine::actions::action_names().collect();
    names.extend(["publish", "", "Frobnicate"]);
    let action = prop_oneof![3 => prop::sample::select(names).prop_map(String::from), 1 => "[A-Za-z]{0,10}"];
    let params = prop_oneof![
        1 => random_value(),
        4 => prop::collection::btree_map(prop::sample::select(tokens(PARAM_NAMES)), random_value(), 0..5)
            .prop_map(object),
    ];
    (action, params).prop_map(|(action, params)| Cmd::Random { action, params })
}

fn handle_ref() -> impl Strategy<Value = HandleRef> {
    prop_oneof![
        6 => any::<Index>().prop_map(HandleRef::Latest),
        2 => any::<Index>().prop_map(HandleRef::Earlier),
        2 => any::<Index>().prop_map(HandleRef::Seen),
        1 => prop::sample::select(GARBAGE_HANDLES).prop_map(HandleRef::Garbage),
    ]
}

fn command() -> impl Strategy<Value = Cmd> {
    let queue = prop_oneof![12 => 0usize..4, 1 => Just(4usize), 5 => 5usize..7];
    let attribute = prop::sample::select(tokens(ATTRIBUTES)).prop_map(|t| t.split_once('=').expect("Name=value"));
    let probability = |values: &'static [&'static str]| prop::sample::select(values);
    prop_oneof![
        6 => (0usize..4).prop_map(|kind| Cmd::Publish { kind }),
        2 => (4usize..10).prop_map(|kind| Cmd::Publish { kind }),
        4 => (queue.clone(), prop::option::of(prop_oneof![6 => 0u32..4, 1 => Just(901u32)]), 0usize..3, 0usize..6)
            .prop_map(|(queue, delay, group, body)| Cmd::Send { queue, delay, group, body }),
        14 => (queue.clone(), 0u32..=11, prop::option::of(0u32..5))
            .prop_map(|(queue, max, visibility)| Cmd::Receive { queue, max, visibility }),
        7 => (queue.clone(), handle_ref()).prop_map(|(queue, handle)| Cmd::Delete { queue, handle }),
        4 => (queue.clone(), handle_ref(), prop_oneof![8 => 0u32..7, 1 => Just(43_201u32)])
            .prop_map(|(queue, handle, timeout)| Cmd::ChangeVisibility { queue, handle, timeout }),
        1 => queue.clone().prop_map(|queue| Cmd::Purge { queue }),
        2 => (queue.clone(), attribute).prop_map(|(queue, (name, value))| Cmd::SetAttribute { queue, name, value }),
        2 => (prop::option::of(1u32..5), prop::option::of(0usize..7), any::<bool>())
            .prop_map(|(rate, destination, fifo)| Cmd::StartMove { rate, destination, fifo }),
        1 => queue.clone().prop_map(|queue| Cmd::DeleteQueue { queue }),
        2 => queue.prop_map(|queue| Cmd::RecreateQueue { queue }),
        1 => (probability(&["0", "0.1", "0.5", "1", "2"]), probability(&["0", "0.3", "1", "2"]))
            .prop_map(|(duplicate, reorder)| Cmd::Configure { duplicate, reorder }),
        10 => prop_oneof![20 => 0u64..3_000, 2 => 55_000u64..65_000, 1 => 100_000u64..700_000]
            .prop_map(|ms| Cmd::Advance { ms }),
        2 => random_command(),
    ]
}

fn world() -> impl Strategy<Value = World> {
    let retention = prop::sample::select(&[60u32, 300, 345_600][..]);
    (1u32..5, 1u32..3, retention, 60u32..400, any::<[bool; 4]>()).prop_map(
        |(visibility, max_receive, retention, dlq_retention, [with_sms, body_scope, raw, fifo])| World {
            visibility,
            max_receive,
            retention,
            dlq_retention,
            with_sms,
            body_scope,
            raw,
            fifo,
        },
    )
}

/// Turns a command into a concrete step; receipt handles come from the state now and from the
/// handles seen so far.
fn concretize(world: &World, cmd: &Cmd, now: &Snapshot, seen: &[String]) -> Step {
    let q = |i: usize| QUEUES[i];
    let with = |mut params: Value, key: &str, value: Option<Value>| {
        if let Some(v) = value {
            params[key] = v;
        }
        params
    };
    match cmd {
        Cmd::Publish { kind } if *kind >= 4 => {
            let params = json!({"TopicArn": "orders.fifo", "Message": format!("job {kind}"),
                                "MessageGroupId": format!("g{}", kind % 3)});
            Step::apply("Publish", params)
        }
        Cmd::Publish { kind } => {
            let kind = ["a", "b", "c"].get(*kind).copied();
            let params = json!({"TopicArn": "orders", "Message": json!({"kind": kind}).to_string()});
            let attributes = kind.map(|k| json!({"kind": {"DataType": "String", "StringValue": k}}));
            Step::apply("Publish", with(params, "MessageAttributes", attributes))
        }
        Cmd::Send { queue, delay, group, body } => {
            let params =
                json!({"QueueUrl": q(*queue), "MessageBody": json!({"kind": "direct", "n": body}).to_string()});
            let group = q(*queue).ends_with(".fifo").then(|| json!(format!("g{group}")));
            Step::apply(
                "SendMessage",
                with(with(params, "DelaySeconds", delay.map(Value::from)), "MessageGroupId", group),
            )
        }
        Cmd::Receive { queue, max, visibility } => {
            let params = json!({"QueueUrl": q(*queue), "MaxNumberOfMessages": max});
            Step::apply("ReceiveMessage", with(params, "VisibilityTimeout", visibility.map(Value::from)))
        }
        Cmd::Delete { queue, handle } => {
            let handle = pick_handle(handle, q(*queue), now, seen);
            Step::apply("DeleteMessage", json!({"QueueUrl": q(*queue), "ReceiptHandle": handle}))
        }
        Cmd::ChangeVisibility { queue, handle, timeout } => {
            let handle = pick_handle(handle, q(*queue), now, seen);
            let params = json!({"QueueUrl": q(*queue), "ReceiptHandle": handle, "VisibilityTimeout": timeout});
            Step::apply("ChangeMessageVisibility", params)
        }
        Cmd::Purge { queue } => Step::apply("PurgeQueue", json!({"QueueUrl": q(*queue)})),
        Cmd::SetAttribute { queue, name, value } => {
            let value = match (*value, q(*queue)) {
                ("other", "plain") => redrive("dlq", 2),
                ("other", _) => redrive("plain", 2),
                (v, _) => v.to_string(),
            };
            Step::apply("SetQueueAttributes", json!({"QueueUrl": q(*queue), "Attributes": {*name: value}}))
        }
        Cmd::StartMove { rate, destination, fifo } => {
            let source = if *fifo { "jobs-dlq.fifo" } else { "dlq" };
            let params = with(
                json!({"SourceArn": format!("{ARN}{source}")}),
                "MaxNumberOfMessagesPerSecond",
                rate.map(Value::from),
            );
            Step::apply(
                "StartMessageMoveTask",
                with(params, "DestinationArn", destination.map(|d| json!(format!("{ARN}{}", q(d))))),
            )
        }
        Cmd::DeleteQueue { queue } => Step::apply("DeleteQueue", json!({"QueueUrl": q(*queue)})),
        Cmd::RecreateQueue { queue } => {
            Step::apply("CreateQueue", json!({"QueueName": q(*queue), "Attributes": world.queue_attributes(q(*queue))}))
        }
        Cmd::Configure { duplicate, reorder } => Step::apply(
            "ConfigureSimulation",
            json!({"DuplicateDeliveryProbability": duplicate, "ReorderProbability": reorder}),
        ),
        Cmd::Advance { ms } => Step::Advance(*ms),
        Cmd::Random { action, params } => Step::Apply(action.clone(), params.clone()),
    }
}

fn pick_handle(choice: &HandleRef, queue: &str, now: &Snapshot, seen: &[String]) -> String {
    let received: Vec<&MessageView> =
        queue_view(now, queue).map_or(vec![], |q| q.messages.iter().filter(|m| m.receive_count > 0).collect());
    match choice {
        HandleRef::Latest(i) if !received.is_empty() => {
            let m = i.get(&received);
            format!("rh-{}-{}", m.copy, m.receive_count)
        }
        HandleRef::Earlier(i) if !received.is_empty() => {
            let m = i.get(&received);
            format!("rh-{}-{}", m.copy, (m.receive_count - 1).max(1))
        }
        HandleRef::Seen(i) if !seen.is_empty() => i.get(seen).clone(),
        HandleRef::Garbage(text) => text.to_string(),
        _ => "rh-1-1".to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// The checks, after every step

fn parse_handle(handle: &str) -> Option<(u64, u32)> {
    let (key, generation) = handle.strip_prefix("rh-")?.split_once('-')?;
    Some((key.parse().ok()?, generation.parse().ok()?))
}

/// An integer parameter as the engine reads it: a JSON number or a numeric string.
fn int_param(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
}

fn queue_view<'a>(snapshot: &'a Snapshot, name: &str) -> Option<&'a QueueView> {
    snapshot.queues.iter().find(|q| q.name == name)
}

fn copy_view<'a>(snapshot: &'a Snapshot, queue: &str, key: u64) -> Option<&'a MessageView> {
    queue_view(snapshot, queue)?.messages.iter().find(|m| m.copy == key)
}

/// What the event log says about one queue (since it was last created): the copies it holds and
/// the counters the queue should show.
#[derive(Default)]
struct QueueLedger {
    held: i64,
    stats: QueueStats,
}

/// Where every stored copy went, over the whole run, by the event log.
#[derive(Debug, Default)]
struct Fates {
    stored: u64,
    deleted: u64,
    moved_on: u64,
    expired: u64,
    purged: u64,
    lost_with_queue: u64,
}

/// Everything the properties remember between steps.
#[derive(Default)]
struct Checker {
    /// How many events of the log the ledger has read.
    cursor: usize,
    queues: BTreeMap<String, QueueLedger>,
    fates: Fates,
    /// Per received copy: its latest receive number and the earliest it may be received again,
    /// kept from the receives and visibility changes seen (a model independent of the engine's).
    hidden_until: BTreeMap<u64, (u32, SimTime)>,
    seen_handles: Vec<String>,
}

impl Checker {
    /// Checks every property that holds after one step; `before` is the state just before it.
    fn after_step(
        &mut self,
        step: &Step,
        result: &Option<Result<Value, ApiError>>,
        before: &Snapshot,
        after: &Snapshot,
        sim: &Sim,
    ) -> Result<(), String> {
        match (step, result) {
            (Step::Apply(action, _), Some(Err(e))) if after != before || sim.events().len() != before.events => {
                return Err(format!("(f) {action} failed with {e} but changed the state or logged events"));
            }
            (Step::Apply(action, params), Some(Ok(response))) => {
                self.check_receives(sim.events(), before, after)?;
                if action == "ReceiveMessage" {
                    check_receive_response(params, response, sim.events(), before, after)?;
                }
                self.check_handle_use(action, params, before, after)?;
            }
            _ => self.check_receives(sim.events(), before, after)?,
        }
        self.read_ledger(&sim.events()[self.cursor..])?;
        self.cursor = sim.events().len();
        self.check_conservation(after)?;
        check_receive_counts(before, after)?;
        check_everything_counted_is_receivable(after)
    }

    /// (c) Every copy a receive returned was visible, and not hidden by an earlier receive or
    /// visibility change; its receive number went up by exactly one.
    fn check_receives(&mut self, events: &[Event], before: &Snapshot, after: &Snapshot) -> Result<(), String> {
        let now = after.now;
        let mut this_step = BTreeSet::new();
        let mut fifo_groups = BTreeMap::new();
        for event in &events[before.events..] {
            match &event.kind {
                EventKind::Received { queue, receipt_handle: handle, visible_again_at, .. } => {
                    let (key, generation) = parse_handle(handle).ok_or("(c) a receipt handle of an unknown form")?;
                    let was = copy_view(before, queue, key)
                        .ok_or_else(|| format!("(c) {handle} returned from {queue}, which did not hold copy {key}"))?;
                    if was.state != MsgState::Visible {
                        return Err(format!("(c) copy {key} returned by a receive of {queue} while {:?}", was.state));
                    }
                    if let Some((_, until)) = self.hidden_until.get(&key).filter(|(_, until)| *until > now) {
                        return Err(format!("(c) copy {key} returned at {now} though hidden until {until}"));
                    }
                    if generation != was.receive_count + 1 || !this_step.insert(key) {
                        return Err(format!("(c) {handle}: receive {generation} after {} receives", was.receive_count));
                    }
                    self.hidden_until.insert(key, (generation, *visible_again_at));
                    self.seen_handles.push(handle.clone());
                    if let (true, Some(group)) = (queue.ends_with(".fifo"), &was.group) {
                        fifo_groups
                            .entry((queue.to_string(), group.clone()))
                            .or_insert_with(Vec::new)
                            .push((key, was.sequence));
                    }
                }
                // A change by a command whose handle is not tracked (a random one): keep the
                // earlier time, which stays sound whichever copy of the message it applied to.
                EventKind::VisibilityChanged { queue, message_id, visible_again_at } => {
                    for m in queue_view(before, queue).map_or(&[][..], |q| &q.messages) {
                        if let Some((_, until)) =
                            self.hidden_until.get_mut(&m.copy).filter(|_| m.message_id == *message_id)
                        {
                            *until = (*until).min(*visible_again_at);
                        }
                    }
                }
                _ => {}
            }
        }
        fifo_groups
            .iter()
            .try_for_each(|((queue, group), sequences)| check_fifo_group(queue, group, sequences, before, after))
    }

    /// DeleteMessage and ChangeMessageVisibility act only through the latest receipt handle;
    /// an earlier one succeeds and changes nothing.
    fn check_handle_use(
        &mut self,
        action: &str,
        params: &Value,
        before: &Snapshot,
        after: &Snapshot,
    ) -> Result<(), String> {
        if action != "DeleteMessage" && action != "ChangeMessageVisibility" {
            return Ok(());
        }
        let (Some(queue), Some(handle)) = (params["QueueUrl"].as_str(), params["ReceiptHandle"].as_str()) else {
            return Ok(());
        };
        let Some((key, generation)) = parse_handle(handle).filter(|_| queue_view(before, queue).is_some()) else {
            return Ok(());
        };
        let Some(was) = copy_view(before, queue, key) else {
            return match action {
                "DeleteMessage" => Ok(()),
                _ => Err(format!("ChangeMessageVisibility with {handle} succeeded but {queue} has no such copy")),
            };
        };
        let expected = match (action, generation == was.receive_count, was.state) {
            (_, false, state) => Some(state),
            ("DeleteMessage", true, _) => None,
            (_, true, MsgState::InFlight { since, .. }) => {
                let timeout = int_param(&params["VisibilityTimeout"]).unwrap_or_default();
                let until = after.now.plus_ms(timeout * 1000);
                self.hidden_until.insert(key, (generation, until));
                Some(if timeout == 0 { MsgState::Visible } else { MsgState::InFlight { since, until } })
            }
            (_, true, state) => Some(state),
        };
        let is = copy_view(after, queue, key).map(|m| m.state);
        if is != expected {
            let (count, state) = (was.receive_count, was.state);
            return Err(format!(
                "{action} {handle} (copy received {count} times, {state:?}) left {is:?}, not {expected:?}"
            ));
        }
        Ok(())
    }

    /// Reads events into the ledger: which queue each stored a copy in, moved one out of, or
    /// removed one from, and what the queue's counters should say.
    fn read_ledger(&mut self, events: &[Event]) -> Result<(), String> {
        for event in events {
            let (queues, f) = (&mut self.queues, &mut self.fates);
            match &event.kind {
                EventKind::QueueCreated { queue } => {
                    let ledger = on(queues, queue, 0);
                    if ledger.held != 0 || ledger.stats != QueueStats::default() {
                        return Err(format!("(b) {queue} created again while the ledger holds copies in it"));
                    }
                }
                EventKind::MessageSent { queue, .. }
                | EventKind::DeliveredToQueue { queue, .. }
                | EventKind::DeliveryFailed { dead_letter_queue: Some(queue), .. } => {
                    f.stored += 1;
                    on(queues, queue, 1).stats.sent += 1;
                }
                EventKind::DuplicateStored { queue, .. } => {
                    f.stored += 1;
                    on(queues, queue, 1);
                }
                EventKind::MovedToDeadLetterQueue { queue, dead_letter_queue, .. } => {
                    f.stored += 1;
                    f.moved_on += 1;
                    on(queues, queue, -1).stats.moved_to_dead_letter_queue += 1;
                    on(queues, dead_letter_queue, 1).stats.arrived_from_redrive += 1;
                }
                EventKind::MessageMoved { source, destination, .. } => {
                    f.stored += 1;
                    f.moved_on += 1;
                    on(queues, source, -1);
                    on(queues, destination, 1);
                }
                EventKind::Deleted { queue, .. } => {
                    f.deleted += 1;
                    on(queues, queue, -1).stats.deleted += 1;
                }
                EventKind::ExpiredByRetention { queue, .. } => {
                    f.expired += 1;
                    on(queues, queue, -1).stats.expired += 1;
                }
                EventKind::Purged { queue, messages } => {
                    f.purged += *messages as u64;
                    on(queues, queue, -(*messages as i64)).stats.purged += *messages as u64;
                }
                EventKind::QueueDeleted { queue, messages_lost } => {
                    f.lost_with_queue += *messages_lost as u64;
                    on(queues, queue, -(*messages_lost as i64)).stats = QueueStats::default();
                }
                EventKind::Received { queue, .. } => on(queues, queue, 0).stats.received += 1,
                _ => {}
            }
        }
        Ok(())
    }

    /// (b) Per queue: the counts agree with the messages listed, the copies held with the
    /// ledger, the counters with the log. Over the run: every copy stored is in a queue or was
    /// deleted, moved on, expired, purged or lost with its queue.
    fn check_conservation(&self, after: &Snapshot) -> Result<(), String> {
        let mut in_queues = 0;
        for q in &after.queues {
            let count = |f: fn(&MsgState) -> bool| q.messages.iter().filter(|m| f(&m.state)).count();
            let visible = count(|s| matches!(s, MsgState::Visible));
            let in_flight = count(|s| matches!(s, MsgState::InFlight { .. }));
            let delayed = count(|s| matches!(s, MsgState::Delayed { .. }));
            if (q.visible, q.in_flight, q.delayed) != (visible, in_flight, delayed) {
                let counts = (q.visible, q.in_flight, q.delayed);
                return Err(format!(
                    "(b) {}: counts {counts:?} but messages listed {:?}",
                    q.name,
                    (visible, in_flight, delayed)
                ));
            }
            let ledger = self.queues.get(&q.name).ok_or_else(|| format!("(b) {} has no QueueCreated event", q.name))?;
            if ledger.held != q.messages.len() as i64 {
                return Err(format!(
                    "(b) {}: the event log leaves {} copies, the queue holds {}",
                    q.name,
                    ledger.held,
                    q.messages.len()
                ));
            }
            if ledger.stats != q.stats {
                return Err(format!(
                    "(b) {}: counters {:?} but the event log says {:?}",
                    q.name, q.stats, ledger.stats
                ));
            }
            in_queues += q.messages.len() as u64;
        }
        if let Some((name, ledger)) = self.queues.iter().find(|(n, l)| l.held != 0 && queue_view(after, n).is_none()) {
            return Err(format!("(b) the event log leaves {} copies in {name}, which no longer exists", ledger.held));
        }
        let f = &self.fates;
        let accounted = in_queues + f.deleted + f.moved_on + f.expired + f.purged + f.lost_with_queue;
        if f.stored != accounted {
            return Err(format!(
                "(b) {} copies stored, {accounted} accounted for: {in_queues} in queues, {f:?}",
                f.stored
            ));
        }
        Ok(())
    }
}

/// The ledger of `queue`, with `held` more copies.
fn on<'a>(queues: &'a mut BTreeMap<String, QueueLedger>, queue: &str, held: i64) -> &'a mut QueueLedger {
    let ledger = queues.entry(queue.to_string()).or_default();
    ledger.held += held;
    ledger
}

/// The response lists exactly the copies the log says were received, in order, each hidden for
/// the receive's (or the queue's) visibility timeout.
fn check_receive_response(
    params: &Value,
    response: &Value,
    events: &[Event],
    before: &Snapshot,
    after: &Snapshot,
) -> Result<(), String> {
    let messages = response["Messages"].as_array().map_or(&[][..], |m| &m[..]);
    let handles: Vec<&str> = messages.iter().filter_map(|m| m["ReceiptHandle"].as_str()).collect();
    let logged: Vec<&str> = events[before.events..]
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Received { receipt_handle, .. } => Some(receipt_handle.as_str()),
            _ => None,
        })
        .collect();
    if handles != logged || handles.len() != messages.len() {
        return Err(format!("(c) the response lists {handles:?}, the log {logged:?}"));
    }
    let queue = params["QueueUrl"].as_str().unwrap_or_default();
    let Some(view) = queue_view(before, queue) else { return Ok(()) };
    let timeout = int_param(&params["VisibilityTimeout"]).unwrap_or(u64::from(view.visibility_timeout));
    let expected = match timeout {
        0 => MsgState::Visible,
        _ => MsgState::InFlight { since: after.now, until: after.now.plus_ms(timeout * 1000) },
    };
    for handle in handles {
        let (key, _) = parse_handle(handle).unwrap_or_default();
        let state = copy_view(after, queue, key).map(|m| m.state);
        if state != Some(expected) {
            return Err(format!("(c) {handle} received with visibility {timeout} s is {state:?}, not {expected:?}"));
        }
    }
    Ok(())
}

/// (c) FIFO: a receive takes from a message group only when none of its messages is in flight,
/// returns the group's messages in order, and leaves no earlier visible one of it behind.
fn check_fifo_group(
    queue: &str,
    group: &str,
    returned: &[(u64, Option<u64>)],
    before: &Snapshot,
    after: &Snapshot,
) -> Result<(), String> {
    let of_group = |s: &Snapshot| -> Vec<MessageView> {
        queue_view(s, queue)
            .map_or(vec![], |q| q.messages.iter().filter(|m| m.group.as_deref() == Some(group)).cloned().collect())
    };
    if let Some(m) = of_group(before).iter().find(|m| matches!(m.state, MsgState::InFlight { .. })) {
        return Err(format!("(c) {queue} returned group {group} while its copy {} was in flight", m.copy));
    }
    let sequences: Vec<Option<u64>> = returned.iter().map(|(_, s)| *s).collect();
    if sequences.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("(c) {queue} returned group {group} out of order: sequence numbers {sequences:?}"));
    }
    let last = sequences.last().copied().flatten();
    let left_behind = |m: &&MessageView| {
        m.state == MsgState::Visible && m.sequence < last && returned.iter().all(|(key, _)| *key != m.copy)
    };
    if let Some(m) = of_group(after).iter().find(left_behind) {
        return Err(format!("(c) {queue} returned group {group} up to {last:?} but left {:?} visible", m.sequence));
    }
    Ok(())
}

/// (g) Whatever reaches a queue can be received from it: a FIFO queue holds no copy without a
/// message group (a receive serves FIFO queues by group, so such a copy is counted but never
/// received), and a visible copy that waits behind nothing in its group is one a receive can take.
fn check_everything_counted_is_receivable(after: &Snapshot) -> Result<(), String> {
    for q in after.queues.iter().filter(|q| q.fifo) {
        if let Some(m) = q.messages.iter().find(|m| m.group.is_none()) {
            return Err(format!("(g) {}: copy {} has no MessageGroupId, so no receive can return it", q.name, m.copy));
        }
    }
    Ok(())
}

/// (g) On a copy of the world: receive from every queue, again and again, until no receive
/// returns anything; then no queue holds a visible copy that waits behind nothing. A copy
/// counted by `ApproximateNumberOfMessages` that no receive returns fails here.
fn check_drain(sim: &Sim) -> Result<(), String> {
    let mut sim = sim.clone();
    // Until a round of receives logs nothing: neither a receive nor a move to a dead-letter
    // queue (which a receive makes, and which the next round must receive from).
    loop {
        let logged = sim.events().len();
        for q in sim.snapshot().queues {
            let params = json!({"QueueUrl": q.name, "MaxNumberOfMessages": 10, "VisibilityTimeout": 43_200});
            // A FIFO queue's receive quota may refuse: then this queue proves nothing here.
            let _ = sim.apply("ReceiveMessage", &params);
        }
        if sim.events().len() == logged {
            break;
        }
    }
    let after = sim.snapshot();
    for q in &after.queues {
        let stuck = q.messages.iter().find(|m| m.state == MsgState::Visible && m.blocked_by.is_none());
        if let Some(m) = stuck {
            return Err(format!(
                "(g) {}: copy {} is counted visible, but receives until empty never returned it: {m:?}",
                q.name, m.copy
            ));
        }
    }
    Ok(())
}

/// (d) A copy that stays in its queue never sees its receive count go down. Both snapshots list
/// a queue's copies in key order, and a copy never changes queues (a move stores a new copy).
fn check_receive_counts(before: &Snapshot, after: &Snapshot) -> Result<(), String> {
    for q in &after.queues {
        let Some(was) = queue_view(before, &q.name) else { continue };
        let mut earlier = was.messages.iter().peekable();
        for m in &q.messages {
            while earlier.next_if(|e| e.copy < m.copy).is_some() {}
            if let Some(e) = earlier.peek().filter(|e| e.copy == m.copy && m.receive_count < e.receive_count) {
                let (copy, from, to) = (m.copy, e.receive_count, m.receive_count);
                return Err(format!("(d) copy {copy} in {}: receive count went from {from} to {to}", q.name));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Runs

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload.downcast_ref::<&str>().map(|s| s.to_string());
    text.or_else(|| payload.downcast_ref::<String>().cloned()).unwrap_or_else(|| "(no message)".into())
}

fn describe(step: &Step) -> String {
    match step {
        Step::Advance(ms) => format!("advance {ms} ms"),
        Step::Apply(action, params) => format!("{action} {params}"),
    }
}

/// A run's concrete steps and events, and (if kept) the state after the last step at each time.
struct Straight {
    steps: Vec<Step>,
    events: Vec<Event>,
    at: BTreeMap<SimTime, Snapshot>,
}

/// Runs the world's setup then the commands, checking (a)–(d) and (f) after every step.
fn run_checked(seed: u64, world: &World, commands: &[Cmd], keep_states: bool) -> Result<Straight, String> {
    let mut sim = Sim::new(seed);
    let mut checker = Checker::default();
    let mut steps = world.setup();
    let setup = steps.len();
    let mut at = BTreeMap::new();
    let mut before = sim.snapshot();
    for i in 0..setup + commands.len() {
        if i >= setup {
            steps.push(concretize(world, &commands[i - setup], &before, &checker.seen_handles));
        }
        let step = &steps[i];
        if keep_states && matches!(step, Step::Advance(ms) if *ms > 0) {
            at.insert(before.now, before.clone());
        }
        let result = catch_unwind(AssertUnwindSafe(|| match step {
            Step::Advance(ms) => {
                sim.advance_by(*ms);
                None
            }
            Step::Apply(action, params) => Some(sim.apply(action, params)),
        }))
        .map_err(|p| format!("(a) step {} ({}) panicked: {}", i + 1, describe(step), panic_text(&*p)))?;
        if i < setup && !matches!(result, Some(Ok(_))) {
            return Err(format!("setup step {} ({}) failed: {result:?}", i + 1, describe(step)));
        }
        let after = sim.snapshot();
        checker
            .after_step(step, &result, &before, &after, &sim)
            .map_err(|e| format!("step {} ({}): {e}", i + 1, describe(step)))?;
        if i % 25 == 24 {
            check_drain(&sim).map_err(|e| format!("step {} ({}): {e}", i + 1, describe(step)))?;
        }
        before = after;
    }
    check_drain(&sim).map_err(|e| format!("after the last step: {e}"))?;
    at.insert(before.now, before);
    Ok(Straight { steps, events: sim.events().to_vec(), at })
}

/// (e) The same steps on a fresh `Sim` with the same seed log the same events (compared as
/// JSON lines, byte for byte, when `bytes`). With `seeks`, a `History` of the steps (which keeps
/// only the successful commands) logs them too, and seeking to those times, back and forth,
/// rebuilds the straight run's state at each.
fn check_replay(seed: u64, straight: &Straight, bytes: bool, seeks: &[usize]) -> Result<(), String> {
    let mut sim = Sim::new(seed);
    for step in &straight.steps {
        match step {
            Step::Advance(ms) => sim.advance_by(*ms),
            Step::Apply(action, params) => drop(sim.apply(action, params)),
        }
    }
    let same = match bytes {
        true => event_log_jsonl(sim.events()) == event_log_jsonl(&straight.events),
        false => sim.events() == straight.events,
    };
    if !same {
        return Err(format!("(e) seed {seed}: a second run of the same steps logged other events"));
    }
    if seeks.is_empty() {
        return Ok(());
    }
    let history = catch_unwind(|| {
        let mut history = History::new(seed);
        for step in &straight.steps {
            match step {
                Step::Advance(ms) => history.advance_to(history.sim().now().plus_ms(*ms)),
                Step::Apply(action, params) => drop(history.apply(action, params)),
            }
        }
        history
    });
    let mut history = history.map_err(|p| format!("(e) seed {seed}: History panicked: {}", panic_text(&*p)))?;
    if event_log_jsonl(history.sim().events()) != event_log_jsonl(&straight.events) {
        return Err(format!("(e) seed {seed}: History, which drops failed commands, logged other events"));
    }
    let times: Vec<(&SimTime, &Snapshot)> = straight.at.iter().collect();
    for &i in seeks {
        let (t, expected) = times[i % times.len()];
        let from = history.sim().now();
        catch_unwind(AssertUnwindSafe(|| history.seek(*t)))
            .map_err(|p| format!("(e) seed {seed}: History::seek({t}) panicked: {}", panic_text(&*p)))?;
        if history.sim().snapshot() != *expected || history.sim().events() != &straight.events[..expected.events] {
            return Err(format!(
                "(e) seed {seed}: History::seek({t}) from {from} rebuilt another state than the straight run's"
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_command_sequences_keep_every_invariant(
        seed in any::<u64>(),
        world in world(),
        commands in prop::collection::vec(command(), 1..150),
        seeks in prop::collection::vec(any::<usize>(), 1..6),
    ) {
        // (a)–(f): no panic, conservation, no receive in flight, monotone receive counts,
        // byte-identical replay and seek, failed actions change nothing.
        let straight = run_checked(seed, &world, &commands, true).map_err(TestCaseError::fail)?;
        check_replay(seed, &straight, true, &seeks).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn seed_sweep_with_duplicates_and_reordering_keeps_every_invariant() {
    // One 300-step script under 200 seeds, with at-least-once duplicates and reordering on:
    // every seed keeps (a)–(f).
    let world = World {
        visibility: 2,
        max_receive: 3,
        retention: 90,
        dlq_retention: 120,
        with_sms: true,
        body_scope: false,
        raw: true,
        fifo: true,
    };
    let mut runner = TestRunner::deterministic();
    let random = prop::collection::vec(command(), 300).new_tree(&mut runner).expect("a script");
    let indexes = prop::collection::vec(any::<Index>(), 300).new_tree(&mut runner).expect("indexes").current();
    // Duplicates stay on, and the world stays whole: the random test deletes queues and topics.
    let mut random = random.current().into_iter().filter(|c| match c {
        Cmd::Configure { .. } | Cmd::DeleteQueue { .. } => false,
        Cmd::Random { action, .. } => !action.starts_with("Delete") && action != "Unsubscribe",
        _ => true,
    });
    // Before every 12 random steps, a round that is sure to exercise the hard parts: messages
    // received and never deleted (so redriven), a delete with an earlier handle, a visibility
    // change, a purge (refused within 60 s of the last), a FIFO send and receive.
    let round = |i: usize| {
        let earlier = HandleRef::Earlier(indexes[i]);
        [
            Cmd::Publish { kind: i % 3 },
            Cmd::Receive { queue: 0, max: 10, visibility: Some(1) },
            Cmd::Advance { ms: 1_200 },
            Cmd::Receive { queue: 0, max: 10, visibility: None },
            Cmd::Delete { queue: 0, handle: earlier },
            Cmd::ChangeVisibility { queue: 0, handle: HandleRef::Latest(indexes[i + 1]), timeout: 2 },
            Cmd::Purge { queue: 1 },
            Cmd::Send { queue: 5, delay: None, group: i % 3, body: i % 6 },
            Cmd::Publish { kind: 4 + i % 6 },
            Cmd::Receive { queue: 5, max: 10, visibility: Some(1) },
            Cmd::Advance { ms: 1_100 },
        ]
    };
    let mut script = vec![Cmd::Configure { duplicate: "0.3", reorder: "0.3" }];
    for i in 0..13 {
        script.extend(round(i));
        script.extend(random.by_ref().take(12));
    }
    script.truncate(292);
    // A redrive at the end, once the dead-letter queues have filled.
    script.extend([
        Cmd::StartMove { rate: Some(2), destination: None, fifo: false },
        Cmd::Advance { ms: 2_000 },
        Cmd::Receive { queue: 0, max: 10, visibility: Some(0) },
        Cmd::StartMove { rate: Some(4), destination: Some(1), fifo: false },
        Cmd::StartMove { rate: Some(4), destination: None, fifo: true },
        Cmd::Advance { ms: 2_000 },
        Cmd::Receive { queue: 1, max: 10, visibility: None },
        Cmd::Advance { ms: 60_000 },
        // The FIFO topic's queue deleted: its copies go to its FIFO subscription DLQ.
        Cmd::Publish { kind: 4 },
        Cmd::DeleteQueue { queue: 5 },
        Cmd::Publish { kind: 5 },
        Cmd::Publish { kind: 6 },
        Cmd::Advance { ms: 2_000 },
        Cmd::Receive { queue: 6, max: 10, visibility: None },
    ]);
    // Each seed on its own; the seeds split over two threads.
    let sweep = |first: u64| -> Result<BTreeMap<&'static str, usize>, String> {
        let mut totals = BTreeMap::new();
        for seed in (first..200).step_by(2) {
            // History is rebuilt and sought, and logs compared as bytes, for one seed in ten.
            let sampled = seed % 10 == 0;
            let seeks: &[usize] = if sampled { &[usize::MAX / 2, 0, usize::MAX, 7] } else { &[] };
            let straight = run_checked(seed, &world, &script, sampled).map_err(|e| format!("seed {seed}: {e}"))?;
            for e in &straight.events {
                *totals.entry(e.kind.name()).or_default() += 1;
            }
            check_replay(seed, &straight, sampled, seeks)?;
        }
        Ok(totals)
    };
    let mut totals: BTreeMap<&str, usize> = BTreeMap::new();
    let halves = std::thread::scope(|s| {
        let threads = [0, 1].map(|first| s.spawn(move || sweep(first)));
        threads.map(|t| t.join().unwrap_or_else(|p| Err(format!("(a) {}", panic_text(&*p)))))
    });
    for half in halves {
        for (kind, n) in half.unwrap_or_else(|e| panic!("{e}")) {
            *totals.entry(kind).or_default() += n;
        }
    }
    let kinds = ["DuplicateStored", "MovedToDeadLetterQueue", "MessageMoved", "DeleteIgnored", "ExpiredByRetention"];
    // DeliveryFailed: the FIFO topic's copies to the deleted jobs.fifo, kept by its FIFO DLQ.
    let more = ["Deduplicated", "Purged", "VisibilityChanged", "DelayEnded", "DeliveryFailed"];
    for kind in kinds.into_iter().chain(more) {
        assert!(totals.get(kind).is_some_and(|n| *n >= 200), "the sweep should exercise {kind}: {totals:?}");
    }
}

/// The small world the regression tests start from: `work` redriving to `dlq` after one
/// receive, `plain` beside it, set up and ready.
fn regression_sim() -> Sim {
    let world = World {
        visibility: 1,
        max_receive: 1,
        retention: 600,
        dlq_retention: 600,
        with_sms: false,
        body_scope: false,
        raw: true,
        fifo: false,
    };
    let mut sim = Sim::new(1);
    for step in world.setup() {
        let Step::Apply(action, params) = step else { continue };
        sim.apply(&action, &params).unwrap_or_else(|e| panic!("{action}: {e}"));
    }
    sim
}

#[test]
fn deleting_a_move_tasks_destination_does_not_panic() {
    // Regression: a move task whose DestinationArn queue is deleted while it runs fails instead of
    // panicking (store() expected the destination to exist); its message stays in the DLQ.
    let mut sim = regression_sim();
    let move_to_plain = json!({"SourceArn": format!("{ARN}dlq"), "DestinationArn": format!("{ARN}plain"), "MaxNumberOfMessagesPerSecond": 1});
    let steps = [
        ("SendMessage", json!({"QueueUrl": "work", "MessageBody": "m"})),
        ("ReceiveMessage", json!({"QueueUrl": "work"})),
        ("ReceiveMessage", json!({"QueueUrl": "work"})),
        ("StartMessageMoveTask", move_to_plain),
        ("DeleteQueue", json!({"QueueUrl": "plain"})),
    ];
    for (i, (action, params)) in steps.iter().enumerate() {
        if i == 2 {
            sim.advance_by(1_000);
        }
        sim.apply(action, params).unwrap_or_else(|e| panic!("{action}: {e}"));
    }
    let tick = catch_unwind(AssertUnwindSafe(|| sim.advance_by(2_000)));
    assert!(tick.is_ok(), "the move task's next tick panicked after its destination queue was deleted");
    assert_eq!(queue_view(&sim.snapshot(), "dlq").map(|q| q.messages.len()), Some(1), "the message stays in the DLQ");
    assert_eq!(sim.snapshot().move_tasks[0].status, "FAILED", "the task fails, as on AWS");
}

#[test]
fn a_queue_that_is_its_own_dead_letter_queue_still_answers_a_receive() {
    // Regression: with a RedrivePolicy naming the queue itself, a receive of an exhausted message
    // looped for ever, redriving it into its own queue. AWS accepts such a policy (observed), so
    // the policy is accepted and the receive must return.
    let mut sim = Sim::new(1);
    sim.set_event_recording(false);
    let setup = [
        ("CreateQueue", json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "1"}})),
        ("SetQueueAttributes", json!({"QueueUrl": "q", "Attributes": {"RedrivePolicy": redrive("q", 1)}})),
        ("SendMessage", json!({"QueueUrl": "q", "MessageBody": "poison"})),
        ("ReceiveMessage", json!({"QueueUrl": "q"})),
    ];
    for (action, params) in setup {
        sim.apply(action, &params).unwrap_or_else(|e| panic!("{action}: {e}"));
    }
    sim.advance_by(1_000);
    // A loop cannot be interrupted: a watchdog thread waits for the answer (microseconds when
    // right) and gives up after 30 s. With recording off, a looping receive uses no more memory.
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(sim.apply("ReceiveMessage", &json!({"QueueUrl": "q"})).is_ok());
    });
    let answered = finished.recv_timeout(std::time::Duration::from_secs(30));
    assert_eq!(
        answered,
        Ok(true),
        "ReceiveMessage never returned: the message is redriven into its own queue for ever"
    );
}

#[test]
fn deleting_a_move_tasks_source_logs_the_task_as_failed() {
    // The event log tells the whole story: a move task that fails because its source queue was
    // deleted ends with a MoveTaskEnded event (FAILED), as one whose destination was deleted does.
    let mut sim = regression_sim();
    let move_back = json!({"SourceArn": format!("{ARN}dlq"), "MaxNumberOfMessagesPerSecond": 1});
    let steps = [
        ("SendMessage", json!({"QueueUrl": "work", "MessageBody": "m1"})),
        ("SendMessage", json!({"QueueUrl": "work", "MessageBody": "m2"})),
        ("ReceiveMessage", json!({"QueueUrl": "work", "MaxNumberOfMessages": 10})),
        ("ReceiveMessage", json!({"QueueUrl": "work", "MaxNumberOfMessages": 10})),
        ("StartMessageMoveTask", move_back),
        ("DeleteQueue", json!({"QueueUrl": "dlq"})),
    ];
    for (i, (action, params)) in steps.iter().enumerate() {
        if i == 3 {
            sim.advance_by(1_000);
        }
        sim.apply(action, params).unwrap_or_else(|e| panic!("{action}: {e}"));
    }
    sim.advance_by(5_000);
    assert_eq!(sim.snapshot().move_tasks[0].status, "FAILED", "the task failed with its source");
    let ended: Vec<_> = sim.events().iter().filter(|e| e.kind.name() == "MoveTaskEnded").collect();
    assert_eq!(ended.len(), 1, "no MoveTaskEnded event for task-1, which the snapshot shows FAILED");
}
