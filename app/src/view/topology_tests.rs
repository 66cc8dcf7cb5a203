//! The diagram's layout and markup against real scenarios: rows, dead-letter queues, consumers,
//! messages inside the nodes, and the nodes updated in place.

use super::{
    diagram_markup, edge_path, live::node_parts, live_pieces, selection_of, ConsumerState, Layout, WorkerStatus,
    DLQ_ROW, ROW,
};
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
    assert_eq!(
        selection_of(&format!("msg:{}:sms", sms.dots[1].copy)),
        Some(Selection::Message { queue: "sms".into(), copy: sms.dots[1].copy })
    );
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
    // Counts and dots never change the diagram's shape: its nodes are updated in place.
    assert_eq!(back.shape(), layout.shape());
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
    // The three queues, sms's DLQ and the worker are live nodes, numbered in order.
    for (i, node) in [
        r#"data-select="queue:billing""#,
        "queue:packing",
        "diagram-consumer-packing-w1",
        "queue:sms\"",
        "filter-sms-dropped",
        "queue:sms-dlq",
    ]
    .iter()
    .enumerate()
    {
        let at = markup.find(&format!(r#"data-live="{i}""#)).unwrap_or_else(|| panic!("no live node {i}"));
        let tag = &markup[at..at + markup[at..].find('>').unwrap()];
        assert!(tag.contains(node), "live node {i} is {tag}, not {node}");
    }
    // sms's filter counts its drops right after its queue's node.
    assert!(!markup.contains(r#"data-live="6""#));
}

#[test]
fn a_count_change_keeps_the_shape_and_a_topology_change_does_not() {
    let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
    pg.add_worker("packing").expect("worker");
    let before = Layout::of_now(&pg.snapshot());
    pg.publish("OrderPlaced").expect("publish");
    pg.play_for(1_000);
    let after = Layout::of_now(&pg.snapshot());
    assert_ne!(after, before, "the counts and the worker's state changed");
    assert_eq!(after.shape(), before.shape(), "messages arriving change no node");
    let markup = diagram_markup(&after);
    for text in ["Queue packing: 0 visible, 1 in flight", "node consumer processing", "1 visible · 0 in flight"] {
        assert!(markup.contains(text), "{text} missing from {markup}");
    }
    pg.add_worker("billing").expect("a second worker");
    assert_ne!(Layout::of_now(&pg.snapshot()).shape(), after.shape(), "a new node is a new shape");
    let sms = pg.snapshot().topics[0].subscriptions[2].arn.clone();
    let shape = Layout::of_now(&pg.snapshot()).shape();
    pg.set_filter_policy(&sms, r#"{"event_type": ["OrderShipped"]}"#).expect("a valid policy");
    assert_ne!(Layout::of_now(&pg.snapshot()).shape(), shape, "a new filter is a new shape");
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
fn a_selection_reads_back_from_its_attribute() {
    assert_eq!(selection_of("queue:billing"), Some(Selection::Queue("billing".into())));
    assert_eq!(selection_of("worker:packing-w1"), Some(Selection::Worker("packing-w1".into())));
    let arn = "arn:aws:sns:us-east-1:000000000000:order-events:1";
    assert_eq!(selection_of(&format!("sub:{arn}")), Some(Selection::Subscription(arn.into())));
    assert_eq!(selection_of("nothing"), None);
    assert_eq!(selection_of("planet:mars"), None);
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
    // latency now, and the counts follow without a new shape.
    let mut dc = Playground::from_scenario(include_str!("../../../public/designs/directcalls.json")).unwrap();
    let before = Layout::of_now(&dc.snapshot());
    assert!(before.rows.is_empty());
    let names: Vec<&str> = before.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["billing-api", "packing-api", "sms-api"]);
    let markup = diagram_markup(&before);
    assert_eq!(markup.matches("M 130 ").count(), 3, "an edge to each service");
    assert!(markup.contains("data-testid=\"diagram-call-sms-api\""));
    assert_eq!(before.height(), 3 * ROW);
    dc.apply("Produce", &json!({"ProducerName": "checkout"})).unwrap();
    dc.play_for(20_000);
    let after = Layout::of_now(&dc.snapshot());
    assert!(after.calls.iter().all(|c| c.calls == 1), "{:?}", after.calls);
    assert_eq!(after.shape(), before.shape(), "counts change no node");
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
fn each_live_node_is_cut_from_the_markup_whole_and_once() {
    // The sub-DLQ's node is written after every row, out of its number's order; a queue in
    // flight draws a ring inside its node.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/scenarios/sns-deleted-queue.json");
    let mut pg = Playground::from_scenario(&std::fs::read_to_string(path).expect("the file")).expect("loads");
    pg.apply("CreateQueue", &json!({"QueueName": "work"})).expect("queue");
    pg.apply("SendMessage", &json!({"QueueUrl": "work", "MessageBody": "x"})).expect("send");
    pg.apply("ReceiveMessage", &json!({"QueueUrl": "work"})).expect("receive");
    let markup = diagram_markup(&Layout::of_now(&pg.snapshot()));
    let pieces: Vec<(usize, &str)> = live_pieces(&markup).into_iter().enumerate().collect();
    assert_eq!(pieces.len(), markup.matches(" data-live=\"").count());
    for (n, piece) in &pieces {
        assert!(piece.starts_with('<') && piece.contains(&format!(" data-live=\"{n}\"")), "{n}: {piece}");
        assert_eq!(piece.matches(" data-live=").count(), 1, "one node a piece: {piece}");
        let opened = piece.matches('<').count() - 2 * piece.matches("</").count() - piece.matches("/>").count();
        assert_eq!(opened, 0, "every tag it opens is closed: {piece}");
    }
    assert!(pieces.iter().any(|(_, p)| p.contains("sub-dlq") && p.ends_with("</g>")));
    assert!(pieces.iter().any(|(_, p)| p.contains("queue:work") && p.contains("class=\"ring\"")));
    // A node is cut into its opening tag and its children, each whole; a text node has text.
    for (_, piece) in &pieces {
        let parts = node_parts(piece).expect("a node");
        assert!(piece.starts_with(parts.open) && parts.open.ends_with('>') && piece.contains(parts.inner));
        if let Some(children) = &parts.children {
            assert_eq!(children.concat(), parts.inner, "the children are the whole contents");
            assert!(children.iter().all(|c| c.starts_with('<') && c.ends_with('>')));
        } else {
            assert!(piece.starts_with("<text"), "only a caption holds bare text: {piece}");
        }
    }
    let queue = pieces.iter().find(|(_, p)| p.contains("queue:work")).map(|(_, p)| node_parts(p).unwrap()).unwrap();
    let children = queue.children.expect("a queue's node holds elements only");
    assert!(children[0].starts_with("<rect") && children.iter().any(|c| c.starts_with("<g class=\"msg")));
    assert!(pieces.iter().any(|(_, p)| p.contains("queue:work") && p.contains("class=\"ring\"")));
}
