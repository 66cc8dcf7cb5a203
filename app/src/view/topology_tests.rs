//! The diagram's layout and markup against real scenarios: rows, dead-letter queues, consumers,
//! messages inside the nodes, and the pieces that stay when only counts change.

use super::parts::{diagram, diagram_markup, Piece};
use super::{edge_path, ConsumerState, HandsTo, Layout, WorkerStatus, DLQ_ROW, ROW};
use crate::playground::{Playground, DEFAULT_SCENARIO};
use crate::view::Selection;
use serde_json::json;

#[test]
fn every_queue_is_drawn_once_with_its_dlq_under_it_and_its_consumers_beside_it() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    // A plain work queue that no topic feeds, with a worker; the quilt store's sms-dlq is
    // drawn under sms, not as a row of its own.
    pg.apply("CreateQueue", &json!({"QueueName": "reports"})).expect("queue");
    pg.add_worker("reports").expect("worker");
    let layout = Layout::of_now(&pg.snapshot());
    let names: Vec<&str> = layout.rows.iter().map(|r| r.queue.as_str()).collect();
    assert_eq!(names, ["billing", "packing", "sms", "reports"]);
    assert!(layout.rows[3].sub.is_none(), "no topic feeds the work queue");
    assert_eq!(layout.rows[2].dlq, Some(("sms-dlq".to_string(), 0)));
    assert_eq!(layout.rows[3].consumers.len(), 1);
    assert_eq!(layout.rows[3].consumers[0].state, ConsumerState::Worker(WorkerStatus::Waiting));
    // Rows stack without overlap; the DLQ's row is taller; the topic sits level with the
    // middle of the queues it feeds.
    assert_eq!(layout.rows[3].y - layout.rows[2].y, ROW + DLQ_ROW);
    assert_eq!(layout.rows[1].y - layout.rows[0].y, ROW);
    assert_eq!(layout.topic_y(), (layout.rows[0].y + layout.rows[2].y) / 2);
    assert_eq!(layout.height(), layout.rows[3].y - super::ROW_CENTRE + ROW);
    assert_eq!(layout.row_with_dlq("sms-dlq").map(|r| r.queue.as_str()), Some("sms"));
}

#[test]
fn a_queues_first_messages_are_drawn_inside_its_node_waiting_ones_first() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    pg.publish("OrderPlaced").expect("publish");
    pg.publish("OrderPlaced").expect("publish");
    pg.apply("ReceiveMessage", &json!({"QueueUrl": "sms", "MaxNumberOfMessages": 1})).expect("receive");
    let layout = Layout::of_now(&pg.snapshot());
    let sms = layout.row_of("sms").expect("the sms row");
    // sms's visibility timeout is 60 s and its maxReceiveCount 5: the waiting message
    // comes first, the received one last with its timer's seconds and a full ring.
    let shown: Vec<(&str, &str, Option<u64>)> = sms.dots.iter().map(|d| (d.class, d.label.as_str(), d.ring)).collect();
    assert_eq!(shown, [("visible", "", None), ("inflight", "60s", Some(100))]);
    assert!(sms.dots[1].title.contains("in flight, received 1 of 5 times before the DLQ"), "{}", sms.dots[1].title);
    assert_eq!(sms.more, 0);
    let markup = diagram_markup(&layout);
    let id = format!(r#"data-testid="diagram-msg-sms-{}""#, sms.dots[1].copy);
    assert!(markup.contains(&id) && markup.contains(">60s</text>"));
    let select = format!(r#"data-select="msg:{}:sms""#, sms.dots[1].copy);
    assert!(markup.contains(&select), "a dot selects its message");
    // Half the timeout later the ring is half full; when it runs out the message is back
    // with the waiting ones, its receive count against the maximum written.
    pg.play_for(30_000);
    let half = Layout::of_now(&pg.snapshot());
    assert_eq!(half.row_of("sms").unwrap().dots[1].ring, Some(50));
    pg.play_for(31_000);
    let back = Layout::of_now(&pg.snapshot());
    let labels: Vec<&str> = back.row_of("sms").unwrap().dots.iter().map(|d| d.label.as_str()).collect();
    assert_eq!(labels.len(), 2);
    assert!(labels.contains(&"1/5") && back.row_of("sms").unwrap().dots.iter().all(|d| d.class == "visible"));
    // Counts and dots never change the diagram's pieces: its nodes are updated in place.
    assert_eq!(diagram(&back).keys(), diagram(&layout).keys());
    // With more messages than dots, the one a consumer holds is still drawn (last).
    for _ in 0..5 {
        pg.publish("OrderPlaced").expect("publish");
    }
    pg.apply("ReceiveMessage", &json!({"QueueUrl": "sms", "MaxNumberOfMessages": 1})).expect("receive");
    let full = Layout::of_now(&pg.snapshot());
    let sms = full.row_of("sms").unwrap();
    let classes: Vec<&str> = sms.dots.iter().map(|d| d.class).collect();
    assert_eq!(classes, ["visible", "visible", "visible", "visible", "inflight"]);
    assert_eq!(sms.more, 2, "7 messages, 5 drawn");
    assert!(diagram_markup(&full).contains(">+2</text>"));
}

#[test]
fn the_two_dead_letter_queues_are_drawn_apart_each_named_by_what_it_catches() {
    // SNS docs: a copy SNS cannot deliver (here: its queue was deleted) goes to the
    // subscription's dead-letter queue, not to any queue's redrive DLQ.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/scenarios/sns-deleted-queue.json");
    let text = std::fs::read_to_string(path).expect("the scenario file");
    let pg = Playground::from_scenario(&text).expect("the scenario loads");
    let layout = Layout::of_now(&pg.snapshot());
    let names: Vec<&str> = layout.rows.iter().map(|r| r.queue.as_str()).collect();
    assert_eq!(names, ["sms", "billing"], "the subscription's DLQ is not a row of its own");
    assert_eq!(layout.rows[0].sub_dlq, Some(("sms-undeliverable".to_string(), 1)));
    assert_eq!(layout.rows[0].dlq, None);
    assert_eq!(layout.rows[1].y - layout.rows[0].y, ROW + DLQ_ROW, "room under sms for its subscription's DLQ");
    let markup = diagram_markup(&layout);
    assert!(markup.contains(r#"data-testid="diagram-sub-dlq-sms-undeliverable""#));
    assert!(markup.contains("sms-undeliverable · 1") && markup.contains("delivery failures"));
    // The quilt store's sms-dlq is the queue's own: it catches processing failures.
    let quilt = diagram_markup(&Layout::of_now(&Playground::from_scenario(DEFAULT_SCENARIO).unwrap().snapshot()));
    assert!(
        quilt.contains("sms-dlq · 0") && quilt.contains("processing failures") && !quilt.contains("delivery failures")
    );
}

/// The quilt store's SMS subscription (the one with a filter policy), by ARN.
fn sms_subscription(pg: &Playground) -> String {
    let snapshot = pg.snapshot();
    let sub = snapshot.topics[0].subscriptions.iter().find(|s| s.queue.as_deref() == Some("sms"));
    sub.expect("the quilt store subscribes sms").arn.clone()
}

#[test]
fn the_markup_names_every_node_and_escapes_what_learners_typed() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    pg.add_worker("packing").expect("worker");
    let sms = sms_subscription(&pg);
    pg.set_filter_policy(&sms, r#"{"note": ["<b>&\"quoted\"</b>"]}"#).expect("a valid policy");
    let markup = diagram_markup(&Layout::of_now(&pg.snapshot()));
    for needle in [
        r#"data-select="queue:billing""#,
        r#"data-select="queue:sms-dlq""#,
        r#"data-select="worker:packing-w1""#,
        r#"data-testid="diagram-consumer-packing-w1""#,
        &format!(r#"data-select="sub:{sms}""#),
        "&lt;b&gt;&amp;\\&quot;quoted\\&quot;&lt;/b&gt;",
    ] {
        assert!(markup.contains(needle), "{needle} missing from {markup}");
    }
    assert!(!markup.contains("<b>"), "learner text must not become markup");
    // The three queues, the worker, sms's filter counts and sms's DLQ are live nodes, in
    // drawing order.
    let d = diagram(&Layout::of_now(&pg.snapshot()));
    let live: Vec<(Option<String>, Option<&str>)> = d
        .pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Live(f) => Some((f.select.as_ref().map(Selection::to_attr), f.testid.as_deref())),
            Piece::Drawn(_) => None,
        })
        .collect();
    let worker = Some("diagram-consumer-packing-w1");
    assert_eq!(
        live,
        [
            (Some("queue:billing".into()), None),
            (Some("queue:packing".into()), None),
            (Some("worker:packing-w1".into()), worker),
            (Some("queue:sms".into()), None),
            (None, Some("filter-sms-dropped")),
            (Some("queue:sms-dlq".into()), None),
        ]
    );
    assert_eq!(d.looks.len(), live.len(), "a look for each");
    assert_eq!(d.looks[1].label.as_deref(), Some("Queue packing: 0 visible, 0 in flight"));
}

#[test]
fn a_count_change_keeps_every_piece_and_a_topology_change_keeps_the_nodes_it_leaves_alone() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    pg.add_worker("packing").expect("worker");
    let before = Layout::of_now(&pg.snapshot());
    pg.publish("OrderPlaced").expect("publish");
    pg.play_for(1_000);
    let after = Layout::of_now(&pg.snapshot());
    assert_ne!(after, before, "the counts and the worker's state changed");
    let (was, now) = (diagram(&before), diagram(&after));
    assert_eq!(now.keys(), was.keys(), "messages arriving change no piece");
    assert_ne!(now.looks, was.looks, "they change the looks");
    let markup = diagram_markup(&after);
    for text in ["Queue packing: 0 visible, 1 in flight", "node consumer processing", "1 visible · 0 in flight"] {
        assert!(markup.contains(text), "{text} missing from {markup}");
    }
    // A new worker is a new node; every live node there was stays (the worker takes a message
    // at once: billing's look changes, not its node), the packing queue's look as it was.
    pg.add_worker("billing").expect("a second worker");
    let worker = diagram(&Layout::of_now(&pg.snapshot()));
    let keys = worker.keys();
    assert_ne!(keys, now.keys(), "a new node is a new piece");
    for (key, look) in now.keys().iter().filter(|k| matches!(k.piece, Piece::Live(_))).zip(&now.looks) {
        assert!(keys.contains(key) && worker.look(key).is_some(), "{key:?} stays");
        if look.label.as_deref().is_some_and(|l| l.starts_with("Queue packing")) {
            assert_eq!(worker.look(key), Some(look), "{key:?} looks as it did");
        }
    }
    let sms = pg.snapshot().topics[0].subscriptions[2].arn.clone();
    pg.set_filter_policy(&sms, r#"{"event_type": ["OrderShipped"]}"#).expect("a valid policy");
    // The badge's title says the new policy: its drawn piece is another; the nodes stay.
    let filtered = diagram(&Layout::of_now(&pg.snapshot())).keys();
    let drawn = |keys: &[super::parts::Key]| keys.iter().filter(|k| matches!(k.piece, Piece::Drawn(_))).count();
    let changed = filtered.iter().filter(|k| !keys.contains(k)).collect::<Vec<_>>();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(matches!(&changed[0].piece, Piece::Drawn(m) if m.as_str().contains("OrderShipped")));
    assert_eq!(drawn(&filtered), drawn(&keys));
}

#[test]
fn a_filter_keeps_its_latest_drop_until_the_next_delivery() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    let sms = sms_subscription(&pg);
    pg.publish("RefundIssued").expect("publish");
    let filtered = Layout::of_now(&pg.snapshot()).filtered();
    assert_eq!(filtered, std::slice::from_ref(&sms), "only sms filters");
    let drops = super::last_drops(pg.events(), &filtered);
    assert_eq!(drops.len(), 1, "{drops:?}");
    assert_eq!(drops[0].0, sms);
    assert!(drops[0].1.contains("RefundIssued"), "the reason names what was dropped: {}", drops[0].1);
    let markup = diagram_markup(&Layout::of_now(&pg.snapshot()).with_drops(&drops));
    assert!(markup.contains(">1 filtered out<") && markup.contains("class=\"why\""), "{markup}");
    pg.publish("OrderPlaced").expect("publish");
    assert_eq!(super::last_drops(pg.events(), &filtered), [], "delivered since: the reason goes");
    let markup = diagram_markup(&Layout::of_now(&pg.snapshot()));
    assert!(markup.contains(">1 filtered out<") && !markup.contains("class=\"why\""), "the count stays");
}

#[test]
fn every_node_the_diagram_routes_clicks_to_reads_back_as_a_selection() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    pg.add_worker("packing").expect("worker");
    pg.publish("OrderPlaced").expect("publish");
    let markup = diagram_markup(&Layout::of_now(&pg.snapshot()));
    let values: Vec<&str> = markup.split(r#"data-select=""#).skip(1).filter_map(|v| v.split('"').next()).collect();
    assert!(values.len() >= 8, "{values:?}");
    for v in &values {
        assert!(Selection::parse_attr(v).is_some(), "{v} names nothing");
    }
    for kind in ["queue:", "sub:", "worker:", "msg:"] {
        assert!(values.iter().any(|v| v.starts_with(kind)), "no {kind} in {values:?}");
    }
}

#[test]
fn a_design_without_a_topic_draws_the_producer_sending_to_its_queue_or_calling_its_services() {
    // The work queue: checkout sends to one queue itself; no topic node, one edge to it.
    let wq = Playground::from_scenario(include_str!("../../../public/designs/workqueue.json")).unwrap();
    let layout = Layout::of_now(&wq.snapshot());
    assert!(layout.topics.is_empty());
    let markup = diagram_markup(&layout);
    assert!(!markup.contains("SNS topic"), "no topic is drawn");
    assert_eq!(markup.matches("M 130 ").count(), 1, "one edge, from checkout to the orders queue");
    assert!(markup.contains("data-select=\"queue:orders\""));
    // Direct calls: no queue at all; the three services checkout waits on, each with its
    // latency now, and the counts follow without a new piece.
    let mut dc = Playground::from_scenario(include_str!("../../../public/designs/directcalls.json")).unwrap();
    let before = Layout::of_now(&dc.snapshot());
    assert!(before.rows.is_empty());
    let names: Vec<&str> = before.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["billing-api", "packing-api", "sms-api"]);
    let markup = diagram_markup(&before);
    assert_eq!(markup.matches("M 130 ").count(), 1, "one edge from the producer, to the first service it calls");
    assert_eq!(markup.matches("class=\"edge then\"").count(), 2, "then a line down to each next one: in turn");
    assert!(markup.contains("data-testid=\"diagram-call-sms-api\""));
    assert_eq!(before.height(), 3 * ROW);
    dc.apply("Produce", &json!({"ProducerName": "checkout"})).unwrap();
    dc.play_for(20_000);
    let after = Layout::of_now(&dc.snapshot());
    assert!(after.calls.iter().all(|c| c.calls == 1), "{:?}", after.calls);
    assert_eq!(diagram(&after).keys(), diagram(&before).keys(), "counts change no piece");
}

#[test]
fn each_topic_is_drawn_beside_the_queues_it_feeds() {
    // Lesson 9's world: orders fan out from order-events; two alarm topics each feed a pager
    // queue. A pager queue's edge comes from its own topic, never from order-events.
    let lesson: serde_json::Value =
        serde_json::from_str(include_str!("../../../public/lessons/two-kinds-of-dlq.json")).unwrap();
    let mut pg = Playground::from_scenario(&lesson["scenario"].to_string()).unwrap();
    // A topic nothing is subscribed to yet: on a row of its own, under the queues.
    pg.apply("CreateTopic", &json!({"Name": "returns"})).unwrap();
    let layout = Layout::of_now(&pg.snapshot());
    let topics: Vec<&str> = layout.topics.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(topics, ["order-events", "packing-on-call", "platform-on-call", "returns"]);
    let last = layout.rows.last().unwrap();
    assert_eq!(layout.topics[3].1, last.y + ROW, "the lone topic sits a row under the last queue");
    assert_eq!(layout.height(), last.y + ROW - super::ROW_CENTRE + ROW);
    let row = |q: &str| layout.row_of(q).unwrap_or_else(|| panic!("{q} is drawn"));
    let y_of = |t: &str| layout.topics.iter().find(|(n, _)| n == t).map(|(_, y)| *y).unwrap();
    assert_eq!(layout.topic_y_of(row("packing")), y_of("order-events"));
    assert_eq!(layout.topic_y_of(row("billing")), y_of("order-events"));
    assert_eq!(
        layout.topic_y_of(row("packing-pager")),
        row("packing-pager").y,
        "a topic feeding one queue is level with it"
    );
    assert_eq!(layout.topic_y_of(row("platform-pager")), row("platform-pager").y);
    assert_eq!(layout.topic_y(), y_of("order-events"), "the producer publishes to the first topic");
    let markup = diagram_markup(&layout);
    for t in topics {
        assert!(markup.contains(&format!("data-testid=\"diagram-topic-{t}\"")), "{t} is drawn");
    }
    assert_eq!(markup.matches("M 130 ").count(), 1, "one edge from the producer, to order-events");
    assert!(markup.contains(&edge_path(y_of("packing-on-call"), row("packing-pager").y)));
    assert!(!markup.contains(&edge_path(y_of("order-events"), row("packing-pager").y)));
    // Topic nodes (60 high) never overlap.
    assert!(layout.topics.windows(2).all(|w| w[1].1 - w[0].1 >= 60), "{:?}", layout.topics);
}

#[test]
fn the_narrow_diagram_stacks_each_topic_over_the_queues_it_feeds() {
    // Lesson 9's world, a worker on packing (its consumers go under the queue) and a topic
    // nothing is subscribed to, drawn top to bottom for a phone.
    let lesson: serde_json::Value =
        serde_json::from_str(include_str!("../../../public/lessons/two-kinds-of-dlq.json")).unwrap();
    let mut pg = Playground::from_scenario(&lesson["scenario"].to_string()).unwrap();
    pg.apply("CreateTopic", &json!({"Name": "returns"})).unwrap();
    pg.add_worker("packing").expect("worker");
    let layout = Layout::of_now(&pg.snapshot()).narrow();
    assert_eq!(layout.view_box(), format!("0 0 384 {}", layout.height()), "narrow enough for a phone");
    // Top to bottom: the producer (0–48), then each topic's box (60 high) followed by the boxes
    // of the queues it feeds; nothing overlaps, and the last thing drawn ends the diagram.
    let mut spans: Vec<(i64, i64, String)> = Vec::new();
    for (i, (topic, ty)) in layout.topics.iter().enumerate() {
        spans.push((ty - 30, ty + 30, topic.clone()));
        for row in layout.rows.iter().filter(|r| r.topic == Some(i)) {
            assert!(row.y - 30 > ty + 30, "{} sits under its topic {topic}", row.queue);
            spans.push((row.y - 30, row.y - 30 + row.narrow_height(), row.queue.clone()));
            // Its feed comes down the topic's line from the topic's bottom to the queue's left edge.
            let path = layout.feed_path(row, false).expect("a fed row has an edge");
            assert!(
                path.starts_with(&format!("M 50 {}", ty + 30)) && path.ends_with(&format!("L 174 {}", row.y)),
                "{path}"
            );
        }
    }
    assert!(spans[0].0 >= 48, "the first topic is under the producer");
    for w in spans.windows(2) {
        assert!(w[0].1 <= w[1].0, "{} and {} overlap: {spans:?}", w[0].2, w[1].2);
    }
    assert_eq!(spans.last().unwrap().2, "returns");
    assert_eq!(layout.height(), spans.last().unwrap().1 + 12, "a gap under the last topic ends it");
    // The workers sit under packing, one under the other, above packing's dead-letter queue.
    let packing = layout.row_of("packing").unwrap();
    let workers = packing.consumers.len() as i64;
    assert!(workers >= 2 && packing.dlq.is_some(), "the lesson's worker and the one added");
    assert_eq!(packing.dlq_top(true), packing.y + 30 + workers * 24 + 8 + 14);
    let markup = diagram_markup(&layout);
    assert!(
        markup.contains(&format!("<rect x=\"200\" y=\"{}\" width=\"140\"", packing.y + 36)),
        "the worker under its queue"
    );
    assert!(markup.contains("<g transform=\"translate(-236 0)\">"), "badges and queues moved left");
    assert!(!markup.contains("M 130 "), "no edge leaves the producer sideways");
}

#[test]
fn a_learners_text_enters_the_diagram_only_as_text() {
    // An attribute value the learner typed, which sms's filter quotes in its reason for the drop
    // (under the badge, in its title, in its accessible name) and a policy of their own.
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    let evil = r#"x"><img src=x onerror=alert(1)>"#;
    let attributes = json!({"event_type": {"DataType": "String", "StringValue": evil}}).to_string();
    pg.publish_custom(r#"{"order_id": 1}"#, &attributes, "").expect("publish");
    let layout = Layout::of_now(&pg.snapshot());
    let drops = super::last_drops(pg.events(), &layout.filtered());
    assert!(drops.iter().any(|(_, reason)| reason.contains("<img")), "the reason quotes it: {drops:?}");
    let d = diagram(&layout.with_drops(&drops));
    let markup = d.to_markup().into_string();
    assert!(!markup.contains("<img"), "{markup}");
    assert!(markup.contains("&lt;img src=x onerror=alert(1)&gt;"), "written as text");
    // An accessible name is an attribute the page sets as it is (the browser takes it as text).
    assert!(d.looks.iter().any(|l| l.label.as_deref().is_some_and(|l| l.contains("<img"))));
}

/// A world with two topics, the alarm's made first: `on-call` feeds `pager`, `order-events`
/// feeds `sms` (its dead-letter queue `sms-dlq`), and two alarms watch `sms-dlq`, one of them
/// on the same threshold as the other.
fn two_topics(producer: bool) -> Playground {
    let producer = if producer {
        r#"{"action": "CreateProducer", "params": {"ProducerName": "shop", "Design": "FanOut", "TopicArn": "order-events", "Manual": true}},"#
    } else {
        ""
    };
    let alarm = |name: &str, metric: &str| {
        format!(
            r#"{{"action": "PutMetricAlarm", "params": {{"AlarmName": "{name}", "Namespace": "AWS/SQS", "MetricName": "{metric}",
            "Dimensions": [{{"Name": "QueueName", "Value": "sms-dlq"}}], "Statistic": "Maximum", "Period": 60, "EvaluationPeriods": 1,
            "Threshold": 0, "ComparisonOperator": "GreaterThanThreshold", "AlarmActions": ["arn:aws:sns:us-east-1:000000000000:on-call"]}}}}"#
        )
    };
    let text = format!(
        r#"{{"name": "t", "seed": 1, "steps": [
        {{"action": "CreateTopic", "params": {{"Name": "on-call"}}}},
        {{"action": "CreateTopic", "params": {{"Name": "order-events"}}}},
        {{"action": "CreateQueue", "params": {{"QueueName": "pager"}}}},
        {{"action": "Subscribe", "params": {{"TopicArn": "on-call", "Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:000000000000:pager"}}}},
        {{"action": "CreateQueue", "params": {{"QueueName": "sms-dlq"}}}},
        {{"action": "CreateQueue", "params": {{"QueueName": "sms", "Attributes": {{"RedrivePolicy": "{{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:sms-dlq\",\"maxReceiveCount\":5}}"}}}}}},
        {{"action": "Subscribe", "params": {{"TopicArn": "order-events", "Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:000000000000:sms"}}}},
        {producer}
        {}, {}
        ], "publish": {{"topic": "order-events", "presets": [{{"name": "OrderPlaced", "body": {{"id": "${{n}}"}}}}]}}}}"#,
        alarm("sms-dlq-visible", "ApproximateNumberOfMessagesVisible"),
        alarm("sms-dlq-sent", "NumberOfMessagesSent"),
    );
    Playground::from_scenario(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn the_producer_is_drawn_beside_the_topic_it_publishes_to() {
    // A simulated producer says where it publishes; without one, the page's Publish does (the
    // scenario's `publish.topic`). Either way that topic is drawn first, level with the producer
    // and fed by its edge, although the alarm's topic was made before it.
    for (with_producer, producer) in [(true, "shop"), (false, "checkout")] {
        let pg = two_topics(with_producer);
        let publish_to = if with_producer { None } else { pg.topic_wanted() };
        let layout = Layout::of(&pg.snapshot(), pg.snapshot().now, publish_to);
        let topics: Vec<&str> = layout.topics.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(topics, ["order-events", "on-call"], "with a producer: {with_producer}");
        assert_eq!(layout.producer, producer);
        assert_eq!(layout.topic_y(), layout.topics[0].1);
        assert_eq!(layout.row_of("sms").map(|r| r.y), Some(layout.topics[0].1), "order-events faces sms");
        let pager = layout.row_of("pager").expect("the pager row");
        assert_eq!(layout.topic_y_of(pager), layout.topics[1].1, "pager's edge comes from on-call");
    }
    // With neither, the topics keep the order they were made in.
    let pg = two_topics(false);
    let layout = Layout::of_now(&pg.snapshot());
    assert_eq!(layout.topics[0].0, "on-call");
}

#[test]
fn alarms_are_drawn_by_the_queue_they_watch_with_their_state_and_never_overlap() {
    let pg = two_topics(true);
    let layout = Layout::of_now(&pg.snapshot());
    let sms = layout.row_of("sms").expect("the sms row");
    let alarms: Vec<&str> = sms.alarms.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(alarms, ["sms-dlq-sent", "sms-dlq-visible"], "both watch sms's dead-letter queue, by name");
    assert!(layout.row_of("pager").unwrap().alarms.is_empty());
    for narrow in [false, true] {
        let layout = if narrow { Layout::of_now(&pg.snapshot()).narrow() } else { Layout::of_now(&pg.snapshot()) };
        let markup = diagram_markup(&layout);
        for name in alarms.iter() {
            assert!(markup.contains(&format!("data-testid=\"diagram-alarm-{name}\"")), "{name} drawn, narrow {narrow}");
        }
        // Two badges, one under the other, inside the row's room and beside its dead-letter
        // queue (wide) or under it (narrow).
        let sms = layout.row_of("sms").unwrap();
        let (x, top, width) = sms.alarms_at(narrow);
        let dlq = sms.dlq_place(narrow);
        let dlq_right = dlq.0 + dlq.1 / 2;
        let next_row = layout.rows.iter().map(|r| r.y - super::ROW_CENTRE).filter(|t| *t > sms.y).min();
        let bottom = top + 2 * super::ALARM_LINE;
        if narrow {
            assert!(top >= sms.dlq_top(true) + 44, "under the dead-letter queue's caption");
        } else {
            assert!(x >= dlq_right + 20, "right of the dead-letter queue: {x} vs {dlq_right}");
        }
        assert!(x + width <= layout.width(), "inside the diagram");
        assert!(next_row.is_none_or(|t| bottom <= t), "inside the row: {bottom} vs {next_row:?}");
        assert!(bottom <= layout.height(), "inside the diagram: {bottom} vs {}", layout.height());
    }
}

#[test]
fn the_service_a_queues_workers_call_is_drawn_under_them_with_its_state_and_throttled_calls() {
    // Two workers on sms call a provider that serves one call at a time: the second call is
    // throttled. The provider is drawn under sms's consumers, inside the row, clear of the
    // dead-letter queue, its counts and its state live.
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    pg.apply("CreateDependency", &json!({"DependencyName": "sms-provider", "Latency": "5s", "Capacity": 1}))
        .expect("dependency");
    for w in ["sms-a", "sms-b"] {
        let worker = json!({"WorkerName": w, "QueueUrl": "sms", "Job": "sms", "Effect": "SMS sent",
            "Dependency": "sms-provider", "ProcessingTime": "10ms"});
        pg.apply("CreateWorker", &worker).expect("worker");
    }
    pg.publish("OrderPlaced").expect("publish");
    pg.publish("OrderPlaced").expect("publish");
    pg.play_for(1_000);
    for narrow in [false, true] {
        let layout = if narrow { Layout::of_now(&pg.snapshot()).narrow() } else { Layout::of_now(&pg.snapshot()) };
        let sms = layout.row_of("sms").expect("the sms row");
        let service = sms.service.as_ref().expect("the provider is drawn on sms's row");
        assert_eq!(
            (service.name.as_str(), service.calls, service.throttled, service.down),
            ("sms-provider", 2, 1, false)
        );
        assert!(layout.row_of("billing").unwrap().service.is_none());
        let markup = diagram_markup(&layout);
        assert!(markup.contains("data-testid=\"diagram-service-sms-provider\""), "narrow {narrow}");
        assert!(
            markup.contains(">1 of them throttled</text>") && markup.contains(">2 calls · 1 failed</text>"),
            "narrow {narrow}"
        );
        // Inside the row, under the consumers, clear of the dead-letter queue.
        let top = sms.service_top(narrow);
        let (dlq_centre, dlq_width, _) = sms.dlq_place(narrow);
        let next = layout.rows.iter().map(|r| r.y - super::ROW_CENTRE).filter(|t| *t > sms.y).min();
        assert!(next.is_none_or(|t| top + 54 <= t), "inside the row: {top} vs {next:?}, narrow {narrow}");
        if narrow {
            assert!(top + 54 <= sms.dlq_top(true), "over the dead-letter queue");
        } else {
            assert!(dlq_centre + dlq_width / 2 <= 652, "left of the service");
            assert!(652 + 172 <= layout.width(), "inside the diagram");
            assert!(top + 54 <= layout.height(), "inside the diagram's height");
        }
    }
    pg.apply("UpdateDependency", &json!({"DependencyName": "sms-provider", "Down": true})).expect("down");
    let layout = Layout::of_now(&pg.snapshot());
    assert!(layout.row_of("sms").unwrap().service.as_ref().unwrap().down);
    assert!(diagram_markup(&layout).contains("class=\"node service down\""));
}

#[test]
fn a_dots_timer_never_takes_more_than_three_characters() {
    // Five dots sit about 32 px apart: "835s" ran into its neighbour.
    let labels: Vec<String> =
        [1, 99, 100, 835, 900, 3_599, 3_600, 43_200].into_iter().map(super::timer_label).collect();
    assert_eq!(labels, ["1s", "99s", "2m", "14m", "15m", "60m", "1h", "12h"]);
    assert!(labels.iter().all(|l| l.chars().count() <= 3));
}

#[test]
fn more_consumers_than_drawn_say_so_inside_their_row() {
    // Five workers on billing, the quilt store's first row: two drawn, then "+3 more" on the
    // third line, all above the next row's top.
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    for _ in 0..5 {
        pg.add_worker("billing").expect("worker");
    }
    for narrow in [false, true] {
        let layout = if narrow { Layout::of_now(&pg.snapshot()).narrow() } else { Layout::of_now(&pg.snapshot()) };
        let markup = diagram_markup(&layout);
        let billing = layout.row_of("billing").unwrap();
        let packing = layout.row_of("packing").unwrap();
        assert_eq!(markup.matches("diagram-consumer-").count(), 2, "narrow {narrow}");
        let at = markup.find(">+3 more</text>").expect("+3 more is written");
        let y: i64 = markup[..at].rsplit("y=\"").next().unwrap().split('"').next().unwrap().parse().unwrap();
        let next_top = if narrow { packing.y - 30 } else { packing.y - super::ROW_CENTRE };
        assert!(y > billing.y - 30 && y + 4 <= next_top, "+3 more at {y}, next row at {next_top}, narrow {narrow}");
    }
}

/// The diagram of a lesson step's stage, as the view draws it: the staged part of the story, or
/// the whole story when the stage names no producer.
fn staged_layout(s: &engine::snapshot::Snapshot, stage: &super::Stage) -> Layout {
    let own = super::staged(s, stage);
    Layout::of(own.as_ref().unwrap_or(s), s.now, None)
}

#[test]
fn a_lesson_stage_draws_one_design_of_the_three_the_world_holds() {
    // Lesson 1's world holds all three designs' parts; each of its steps draws the one it runs.
    let lesson: serde_json::Value =
        serde_json::from_str(include_str!("../../../public/lessons/three-designs.json")).unwrap();
    let mut pg = Playground::from_scenario(&lesson["scenario"].to_string()).unwrap();
    let producers =
        [("chain", "Chain", ""), ("one-queue", "SingleQueue", "all-jobs"), ("fan-out", "FanOut", "order-events")];
    for (name, design, to) in producers {
        let mut params = json!({"ProducerName": name, "Design": design, "Manual": true});
        match design {
            "Chain" => {
                params["Jobs"] = json!([
                    {"Job": "c-billing", "Effect": "invoice written", "Dependency": "billing-api"},
                    {"Job": "c-sms", "Effect": "SMS sent", "Dependency": "sms-api"}
                ])
            }
            "SingleQueue" => params["QueueUrl"] = json!(to),
            _ => params["TopicArn"] = json!(to),
        }
        pg.apply("CreateProducer", &params).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
    let s = pg.snapshot();
    let staged = |name: &str| staged_layout(&s, &super::Stage { name: name.into(), planned: None });
    // Design 1: checkout calls its services in turn; no topic, no queue.
    let chain = staged("chain");
    assert_eq!(chain.producer, "chain");
    assert!(chain.topics.is_empty() && chain.rows.is_empty());
    let calls: Vec<&str> = chain.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(calls, ["billing-api", "sms-api"], "the services it calls, in its order");
    // Design 2: one queue and its one worker.
    let one = staged("one-queue");
    assert!(one.topics.is_empty());
    let rows: Vec<&str> = one.rows.iter().map(|r| r.queue.as_str()).collect();
    assert_eq!(rows, ["all-jobs"]);
    assert_eq!(one.rows[0].consumers.len(), 1);
    assert_eq!(diagram_markup(&one).matches("M 130 ").count(), 1, "one edge, from the producer to its queue");
    // Design 3: the topic and the three queues it feeds; not the work queue.
    let fan = staged("fan-out");
    let rows: Vec<&str> = fan.rows.iter().map(|r| r.queue.as_str()).collect();
    assert_eq!(rows, ["billing", "packing", "sms"]);
    assert_eq!(fan.topics.len(), 1);
    // No stage, or one naming no producer: the whole world, with the producer that publishes
    // to its topic.
    for whole in [Layout::of(&s, s.now, None), staged("nobody")] {
        assert_eq!(whole.rows.len(), 4, "the three fan-out queues and all-jobs");
        assert_eq!(whole.producer, "fan-out");
    }
}

#[test]
fn a_stage_is_drawn_from_the_steps_run_before_the_run_creates_its_producer() {
    // Before a prediction's run, its producer does not exist yet: the stage is drawn from the
    // run's CreateProducer, so the question is asked over the design it is about.
    let lesson: serde_json::Value =
        serde_json::from_str(include_str!("../../../public/lessons/three-designs.json")).unwrap();
    let pg = Playground::from_scenario(&lesson["scenario"].to_string()).unwrap();
    let s = pg.snapshot();
    let parsed = engine::lesson::Lesson::parse(include_str!("../../../public/lessons/three-designs.json"), &[])
        .expect("the lesson parses");
    let run = |i: usize| match &parsed.steps[i].kind {
        engine::lesson::StepKind::Predict(p) => p.run.clone(),
        other => panic!("step {} is {}", i + 1, other.name()),
    };
    let chain = super::Stage::of("checkout-1", &run(1));
    let drawn = staged_layout(&s, &chain);
    assert_eq!(drawn.producer, "checkout-1");
    assert!(drawn.rows.is_empty() && drawn.topics.is_empty());
    let calls: Vec<&str> = drawn.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(calls, ["payment-api", "billing-api", "packing-api", "sms-api"]);
    let one = staged_layout(&s, &super::Stage::of("checkout-2", &run(2)));
    assert_eq!(one.rows.iter().map(|r| r.queue.as_str()).collect::<Vec<_>>(), ["all-jobs"]);
    let fan = staged_layout(&s, &super::Stage::of("checkout-3", &run(3)));
    assert_eq!(fan.rows.iter().map(|r| r.queue.as_str()).collect::<Vec<_>>(), ["billing", "packing", "sms"]);
    assert_eq!(fan.producer, "checkout-3");
}

#[test]
fn a_worker_holding_a_message_keeps_its_whole_name_before_the_messages_id() {
    use super::parts::holding_wide;
    assert_eq!(holding_wide("sms-w1", "msg-1 1/5"), ("sms-w1".to_string(), "msg-1 1/5"));
    // "packing-w1 · msg-2 ×1" does not fit: the id goes, the name stays whole.
    assert_eq!(holding_wide("packing-w1", "msg-2 ×1"), ("packing-w1".to_string(), "×1"));
    // A name too long even then is cut at its start, as before.
    let (cut, held) = holding_wide("email-jitter-worker-0001", "msg-9 ×2");
    assert!(cut.starts_with('…') && cut.ends_with("0001") && cut.chars().count() <= 7, "{cut}");
    assert_eq!(held, "msg-9 ×2");
}

#[test]
fn a_worker_shows_the_message_it_holds_with_its_receive_count() {
    // The poison lesson's sms queue: maxReceiveCount 5, a 1 s job. While the worker works on
    // the message it shows which, and the receive count against the maximum; once it fails,
    // it holds nothing and the message waits out its timeout in the queue, its count on its title.
    let lesson: serde_json::Value =
        serde_json::from_str(include_str!("../../../public/lessons/poison-messages.json")).unwrap();
    let mut pg = Playground::from_scenario(&lesson["scenario"].to_string()).unwrap();
    pg.apply("SendMessage", &json!({"QueueUrl": "sms", "MessageBody": "{\"data\": {\"phone\": \"+4412\"}}"})).unwrap();
    pg.play_for(500);
    let layout = Layout::of_now(&pg.snapshot());
    let worker = &layout.row_of("sms").unwrap().consumers[0];
    assert_eq!(worker.state, ConsumerState::Worker(WorkerStatus::Processing));
    assert_eq!(worker.holding.as_deref(), Some("msg-1 1/5"));
    let markup = diagram_markup(&layout);
    assert!(markup.contains("<tspan class=\"holding\"> · msg-1 1/5</tspan>"), "{markup}");
    // Its accessible name has what it shows, in that order (WCAG 2.5.3); its title says it in words.
    assert!(markup.contains("aria-label=\"sms-w1 (holding) msg-1 1/5 on sms: Processing\""), "{markup}");
    assert!(markup.contains("<title>sms-w1: Processing, holding msg-1 1/5</title>"), "{markup}");
    pg.play_for(1_000);
    let layout = Layout::of_now(&pg.snapshot());
    let sms = layout.row_of("sms").unwrap();
    assert_eq!(sms.consumers[0].holding, None, "the failed job lets go of it");
    assert!(sms.dots[0].title.contains("in flight, received 1 of 5 times before the DLQ"), "{}", sms.dots[0].title);
}

#[test]
fn a_functions_failure_destination_is_an_edge_to_its_queue_and_a_later_bus_has_one_from_the_producer() {
    // Lambda-async's world: the topic invokes loyalty; loyalty-failed is its OnFailure queue.
    let lesson: serde_json::Value =
        serde_json::from_str(include_str!("../../../public/lessons/lambda-async.json")).unwrap();
    let mut pg = Playground::from_scenario(&lesson["scenario"].to_string()).unwrap();
    let before = diagram_markup(&Layout::of_now(&pg.snapshot()));
    assert!(!before.contains("diagram-hands-on-"), "no destination yet, no edge");
    let on_failure = json!({"FunctionName": "loyalty", "DestinationConfig": {"OnFailure": {"Destination": "arn:aws:sqs:us-east-1:000000000000:loyalty-failed"}}});
    pg.apply("PutFunctionEventInvokeConfig", &on_failure).expect("the destination is set");
    for layout in [Layout::of_now(&pg.snapshot()), Layout::of_now(&pg.snapshot()).narrow()] {
        let edge = (layout.rows[0].queue.clone(), "loyalty-failed".to_string(), "on failure", HandsTo::Row);
        assert_eq!(layout.hands_on, [edge]);
        let markup = diagram_markup(&layout);
        assert!(markup.contains("data-testid=\"diagram-hands-on-loyalty-failed\""), "{markup}");
        assert!(markup.contains(">on failure</text>"));
    }
    // EventBridge's world with an SNS topic made later: the bus keeps an edge from checkout.
    let lesson: serde_json::Value =
        serde_json::from_str(include_str!("../../../public/lessons/eventbridge.json")).unwrap();
    let mut pg = Playground::from_scenario(&lesson["scenario"].to_string()).unwrap();
    let alone = diagram_markup(&Layout::of_now(&pg.snapshot()));
    assert_eq!(alone.matches("M 130 ").count(), 1, "the bus is the first source: the straight edge");
    pg.apply("CreateTopic", &json!({"Name": "orders"})).expect("topic");
    pg.apply("CreateQueue", &json!({"QueueName": "sns-body"})).expect("queue");
    let sub =
        json!({"TopicArn": "orders", "Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:000000000000:sns-body"});
    pg.apply("Subscribe", &sub).expect("subscribed");
    let layout = Layout::of_now(&pg.snapshot());
    assert_eq!(layout.topics[0].0, "orders");
    let markup = diagram_markup(&layout);
    let bus_y = layout.topics.iter().find(|(n, _)| n == "shop").map(|(_, y)| *y).expect("the bus is drawn");
    assert!(markup.contains(&format!(", 170 {bus_y}\"")), "an edge from the producer to the bus");
    let narrow = layout.narrow();
    let bus_y = narrow.topics.iter().find(|(n, _)| n == "shop").map(|(_, y)| *y).expect("the bus is drawn");
    assert!(diagram_markup(&narrow).contains(&format!(", 10 {bus_y}\"")), "down the left margin to the bus");
}

#[test]
fn a_functions_success_destination_is_an_edge_to_its_queue_or_topic_with_its_caption_clear_of_every_badge() {
    // Issue 49: lambda-destinations 2 wrote "on success" under analytics' badge, and in step 6
    // the OnSuccess topic, points-events, had no edge at all: only queues got one.
    use engine::lesson::{Lesson, Session};
    let text = include_str!("../../../public/lessons/lambda-destinations.json");
    // The state once step `n` (1-based) has run, as the page shows it.
    let after = |n: usize| {
        let lesson = Lesson::parse(text, &[]).expect("the lesson reads");
        let mut sim = engine::Sim::new(lesson.scenario.seed);
        let mut session = Session::resume(lesson, &mut sim, n - 1).expect("it resumes");
        assert!(session.perform(&mut sim).errors.is_empty());
        sim.snapshot()
    };
    let loyalty = "arn:aws:lambda:us-east-1:000000000000:function:loyalty".to_string();
    for (n, to, kind) in [(2, "points-added", HandsTo::Row), (6, "points-events", HandsTo::Topic)] {
        let s = after(n);
        for layout in [Layout::of_now(&s), Layout::of_now(&s).narrow()] {
            assert_eq!(layout.hands_on, [(loyalty.clone(), to.to_string(), "on success", kind)], "step {n}");
            let markup = diagram_markup(&layout);
            let group = markup
                .split(&format!("data-testid=\"diagram-hands-on-{to}\""))
                .nth(1)
                .unwrap_or_else(|| panic!("step {n}: no edge to {to}: {markup}"));
            let group = &group[..group.find("</g>").expect("the edge's group ends")];
            assert!(group.contains(">on success</text>"), "{group}");
            // The edge ends at what it names: the queue's box, or the topic's node.
            let path = group.split("d=\"").nth(1).and_then(|p| p.split('"').next()).expect("a path");
            let end = match kind {
                HandsTo::Row => format!("410 {}", layout.row_of(to).expect("its row").y),
                HandsTo::Topic => {
                    let ty = layout.topics.iter().find(|(t, _)| t == to).expect("the topic is drawn").1;
                    if layout.narrow {
                        format!("160 {ty}")
                    } else {
                        format!("210 {}", ty - 30)
                    }
                }
            };
            assert!(path.ends_with(&end), "step {n}: {path} does not end at {end}");
            // The caption (9 px text, at most 5.5 px a character) is clear of every badge, in
            // the rows' own numbers (an edge to a row is moved left with them when narrow).
            let attr = |name: &str| -> i64 {
                let v = group.split("<text class=\"caption\" ").nth(1).expect("a caption");
                let v = v.split(&format!("{name}=\"")).nth(1).expect("the attribute");
                v[..v.find('"').expect("closed")].parse().expect("a number")
            };
            let (x, y, width) = (attr("x"), attr("y"), ("on success".len() as f64 * 5.5) as i64);
            let (left, right) = if group.contains("text-anchor=\"end\"") { (x - width, x) } else { (x, x + width) };
            let moved = if layout.narrow && kind == HandsTo::Topic { 236 } else { 0 };
            for row in layout.rows.iter().filter(|r| r.sub.is_some()) {
                let clear = right + moved <= 296 || left + moved >= 396 || y <= row.y - 11 || y - 9 >= row.y + 9;
                assert!(clear, "step {n}: the caption at ({x}, {y}) touches {}'s badges", row.queue);
            }
        }
    }
}

/// The names the layout draws as nodes, for comparing with the engine's account of it.
fn names_drawn(layout: &Layout) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let after = |text: &str, word: &str| text.strip_prefix(word).and_then(|t| t.split(':').next()).map(str::to_string);
    if layout.services.is_empty() {
        out.push(layout.producer.clone());
    }
    for s in &layout.services {
        out.push(s.name.clone());
        out.extend(s.relay.as_ref().and_then(|(line, _)| after(line, "relay ")));
    }
    out.extend(layout.topics.iter().map(|(t, _)| t.clone()));
    for (_, note) in &layout.notes {
        out.extend(after(note, "archive ").or_else(|| after(note, "replay ")));
    }
    for r in &layout.rows {
        out.push(r.endpoint.as_ref().map_or_else(|| r.queue.clone(), |e| e.label.clone()));
        out.extend(r.dlq.iter().chain(r.sub_dlq.iter()).map(|(d, _)| d.clone()));
        out.extend(r.consumers.iter().map(|c| c.label.clone()));
        out.extend(r.alarms.iter().map(|a| a.name.clone()));
        out.extend(r.rule.iter().map(|b| b.name.clone()));
        out.extend(r.service.iter().map(|c| c.name.clone()));
    }
    out.extend(layout.calls.iter().map(|c| c.name.clone()));
    out.sort();
    out.dedup();
    out
}

#[test]
fn the_engine_knows_what_the_diagram_draws_for_every_lesson_and_built_in_world() {
    // `fanout test` checks each lesson's text against engine::lesson::drawn: it must list the
    // names this diagram draws, world by world (each lesson's start, every built-in scenario
    // and compare design), or the check would pass text the diagram does not show.
    let public = concat!(env!("CARGO_MANIFEST_DIR"), "/../public");
    let mut worlds: Vec<(String, String)> = Vec::new();
    for folder in ["scenarios", "designs", "lessons"] {
        let mut files: Vec<_> =
            std::fs::read_dir(format!("{public}/{folder}")).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files.into_iter().filter(|p| !p.ends_with("index.json")) {
            let text = std::fs::read_to_string(&path).unwrap();
            let scenario = if folder == "lessons" {
                let lesson: serde_json::Value = serde_json::from_str(&text).unwrap();
                match &lesson["scenario"] {
                    serde_json::Value::String(id) => {
                        std::fs::read_to_string(format!("{public}/scenarios/{id}.json")).unwrap()
                    }
                    inline => inline.to_string(),
                }
            } else {
                text
            };
            worlds.push((path.display().to_string(), scenario));
        }
    }
    assert!(worlds.len() > 30, "{}", worlds.len());
    let mut compared = 0;
    for (name, scenario) in worlds {
        let Ok(pg) = Playground::from_scenario(&scenario) else { continue };
        compared += 1;
        let s = pg.snapshot();
        let mut engine = engine::lesson::drawn::drawn(&s);
        engine.sort();
        engine.dedup();
        assert_eq!(engine, names_drawn(&Layout::of_now(&s)), "{name}");
    }
    assert!(compared > 30, "{compared} worlds compared");
}

#[test]
fn the_table_of_the_diagram_starts_with_the_producer_and_what_each_topic_feeds() {
    // The nodes drawn as plain markup (no accessible name of their own) in words: the producer,
    // where it sends, and each topic's queues, in the diagram's order.
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    pg.apply("CreateQueue", &json!({"QueueName": "reports"})).expect("queue");
    let rows = Layout::of_now(&pg.snapshot()).table_rows();
    let rows: Vec<(&str, &str)> = rows.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(
        rows[..2],
        [("Producer checkout", "sends to order-events"), ("SNS topic order-events", "feeds billing, packing, sms")]
    );
    assert!(rows.contains(&("Subscription of billing", "raw message delivery")), "{rows:?}");
    assert!(rows.iter().any(|(node, _)| *node == "Filter policy for sms"), "{rows:?}");
}

#[test]
fn a_lone_message_in_flight_shows_its_receives_beside_its_seconds() {
    // Between a poison message's tries, nothing holds it: its dot's receives say how many tries
    // it has had ("30s · 1/5"), when the dot is alone in its queue and so has the room.
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    pg.publish("OrderPlaced").expect("publish");
    pg.apply("ReceiveMessage", &json!({"QueueUrl": "sms", "MaxNumberOfMessages": 1})).expect("receive");
    let markup = diagram_markup(&Layout::of_now(&pg.snapshot()));
    let sms = pg.snapshot().queues.into_iter().find(|q| q.name == "sms").expect("sms");
    let max = sms.max_receive_count.expect("sms has a redrive policy");
    assert!(markup.contains(&format!("s · 1/{max}</text>")), "{markup}");
    // Two dots: each keeps to its seconds.
    pg.publish("OrderPlaced").expect("publish");
    pg.apply("ReceiveMessage", &json!({"QueueUrl": "sms", "MaxNumberOfMessages": 1})).expect("receive");
    let markup = diagram_markup(&Layout::of_now(&pg.snapshot()));
    assert!(!markup.contains(&format!("s · 1/{max}</text>")), "{markup}");
}
