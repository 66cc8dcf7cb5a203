//! Dead-letter queues: the redrive policy, lazy moves, retention in the DLQ, move tasks.
mod common;
use common::*;
use engine::Sim;
use serde_json::json;

fn source_and_dlq(sim: &mut Sim, max: u32, source_attrs: serde_json::Value) {
    queue(sim, "dlq", json!({}));
    let mut attrs = source_attrs;
    attrs["RedrivePolicy"] = json!(redrive("dlq", max));
    queue(sim, "src", attrs);
}

#[test]
fn moved_lazily_on_the_receive_after_max_receive_count() {
    // SQS: a message received maxReceiveCount times without a delete moves to the DLQ on the next
    // receive. The seeds' check: VisibilityTimeout 1 s, maxReceiveCount 5: five receives return it,
    // the sixth finds the source queue empty and the message sits in the DLQ.
    let mut sim = Sim::new(1);
    source_and_dlq(&mut sim, 5, json!({"VisibilityTimeout": "1"}));
    send(&mut sim, "src", "poison");
    for n in 1..=5 {
        let got = receive(&mut sim, "src", 1);
        assert_eq!(got.len(), 1, "receive {n} returns it");
        assert_eq!(got[0]["Attributes"]["ApproximateReceiveCount"], n.to_string());
        secs(&mut sim, 1);
    }
    assert_eq!(counts(&mut sim, "dlq"), (0, 0, 0), "not moved when the timer runs out, only on a receive");
    assert!(receive(&mut sim, "src", 1).is_empty(), "the sixth receive finds the source empty");
    assert_eq!(counts(&mut sim, "dlq"), (1, 0, 0));
    assert!(event_names(&sim).contains(&"MovedToDeadLetterQueue"));
    let m = receive(&mut sim, "dlq", 1).remove(0);
    assert_eq!(m["Attributes"]["DeadLetterQueueSourceArn"], format!("{ACCOUNT_ARN}src"));
}

#[test]
fn good_messages_keep_flowing_past_a_poison_one() {
    // SQS: the redrive policy moves only the message that keeps failing.
    let mut sim = Sim::new(1);
    source_and_dlq(&mut sim, 2, json!({"VisibilityTimeout": "1"}));
    send(&mut sim, "src", "poison");
    for _ in 0..2 {
        receive(&mut sim, "src", 1);
        secs(&mut sim, 1);
    }
    send(&mut sim, "src", "good");
    let got = receive(&mut sim, "src", 10);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["Body"], "good");
    assert_eq!(counts(&mut sim, "dlq"), (1, 0, 0));
}

#[test]
fn a_standard_dlq_keeps_the_original_enqueue_time_so_short_retention_loses_old_failures() {
    // SQS: for standard queues the DLQ keeps the message's original enqueue timestamp; a DLQ with a
    // shorter retention than the time already spent can expire the message at once.
    let mut sim = Sim::new(1);
    queue(&mut sim, "dlq", json!({"MessageRetentionPeriod": "3600"}));
    queue(&mut sim, "src", json!({"VisibilityTimeout": "1800", "RedrivePolicy": redrive("dlq", 1)}));
    send(&mut sim, "src", "slow failure");
    let sent = receive(&mut sim, "src", 1)[0]["Attributes"]["SentTimestamp"].clone();
    secs(&mut sim, 1800);
    receive(&mut sim, "src", 1);
    assert_eq!(counts(&mut sim, "dlq"), (1, 0, 0));
    let in_dlq = ok(
        &mut sim,
        "ReceiveMessage",
        json!({"QueueUrl": "dlq", "VisibilityTimeout": 0, "MessageSystemAttributeNames": ["SentTimestamp"]}),
    );
    assert_eq!(in_dlq["Messages"][0]["Attributes"]["SentTimestamp"], sent, "enqueue time kept");
    secs(&mut sim, 1800);
    assert_eq!(counts(&mut sim, "dlq"), (0, 0, 0), "expired one hour after the first send, not after the move");
}

#[test]
fn messages_received_three_times_go_to_the_back_of_the_queue() {
    // SQS: in a standard queue, a message received 3 or more times without a delete moves to the
    // back of the queue (here with maxReceiveCount above 3).
    let mut sim = Sim::new(1);
    source_and_dlq(&mut sim, 10, json!({"VisibilityTimeout": "1"}));
    send(&mut sim, "src", "retried");
    send(&mut sim, "src", "waiting");
    for n in 1..=3 {
        assert_eq!(receive(&mut sim, "src", 1)[0]["Body"], "retried", "receive {n}: still first in line");
        secs(&mut sim, 1);
    }
    let got = receive(&mut sim, "src", 2);
    assert_eq!(got[0]["Body"], "waiting", "the thrice-received message now waits behind the others");
    assert_eq!(got[1]["Body"], "retried");
}

#[test]
fn max_receive_count_is_1_to_1000_and_the_dlq_must_exist() {
    // SQS: maxReceiveCount 1 to 1000; the dead-letter target must be an existing queue.
    let mut sim = Sim::new(1);
    queue(&mut sim, "dlq", json!({}));
    queue(&mut sim, "src", json!({}));
    for policy in [redrive("dlq", 0), redrive("dlq", 1001), redrive("missing", 5), "not json".into(), "{}".into()] {
        let e =
            fails(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "src", "Attributes": {"RedrivePolicy": policy}}));
        assert_eq!(e.code, "InvalidParameterValue", "{policy}");
        assert!(e.message.contains("RedrivePolicy"));
    }
}

#[test]
fn redrive_allow_policy_decides_which_sources_may_use_a_dlq() {
    // SQS: RedriveAllowPolicy allowAll, denyAll or byQueue with up to 10 source queue ARNs.
    let mut sim = Sim::new(1);
    queue(&mut sim, "closed", json!({"RedriveAllowPolicy": "{\"redrivePermission\":\"denyAll\"}"}));
    queue(
        &mut sim,
        "picky",
        json!({"RedriveAllowPolicy": format!("{{\"redrivePermission\":\"byQueue\",\"sourceQueueArns\":[\"{ACCOUNT_ARN}a\"]}}")}),
    );
    queue(&mut sim, "a", json!({}));
    queue(&mut sim, "b", json!({}));
    fails(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "a", "Attributes": {"RedrivePolicy": redrive("closed", 3)}}),
    );
    fails(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "b", "Attributes": {"RedrivePolicy": redrive("picky", 3)}}),
    );
    ok(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "a", "Attributes": {"RedrivePolicy": redrive("picky", 3)}}));
    let e = fails(
        &mut sim,
        "SetQueueAttributes",
        json!({"QueueUrl": "b", "Attributes": {"RedriveAllowPolicy": "{\"redrivePermission\":\"byQueue\"}"}}),
    );
    assert_eq!(e.code, "InvalidAttributeValue");
    let dead_letter_sources = ok(&mut sim, "ListDeadLetterSourceQueues", json!({"QueueUrl": "picky"}));
    assert_eq!(dead_letter_sources["queueUrls"][0], "https://sqs.us-east-1.amazonaws.com/000000000000/a");
}

fn fill_dlq(sim: &mut Sim, n: usize) {
    source_and_dlq(sim, 1, json!({"VisibilityTimeout": "1"}));
    for i in 0..n {
        send(sim, "src", &format!("m{i}"));
    }
    receive(sim, "src", 10);
    secs(sim, 1);
    receive(sim, "src", 10);
    assert_eq!(counts(sim, "dlq").0, n as u64);
}

#[test]
fn a_move_task_redrives_to_the_source_as_new_messages_at_the_given_rate() {
    // SQS: StartMessageMoveTask moves DLQ messages back to their source queue (no DestinationArn)
    // at MaxNumberOfMessagesPerSecond; redriven messages are new messages (new id, new enqueue time).
    let mut sim = Sim::new(1);
    fill_dlq(&mut sim, 4);
    secs(&mut sim, 100);
    let task = ok(
        &mut sim,
        "StartMessageMoveTask",
        json!({"SourceArn": format!("{ACCOUNT_ARN}dlq"), "MaxNumberOfMessagesPerSecond": 2}),
    );
    assert!(task["TaskHandle"].is_string());
    secs(&mut sim, 1);
    assert_eq!(counts(&mut sim, "src").0, 2, "two per second");
    let listed = ok(&mut sim, "ListMessageMoveTasks", json!({"SourceArn": format!("{ACCOUNT_ARN}dlq")}));
    assert_eq!(listed["Results"][0]["Status"], "RUNNING");
    assert_eq!(listed["Results"][0]["ApproximateNumberOfMessagesToMove"], 4);
    secs(&mut sim, 2);
    assert_eq!(counts(&mut sim, "src").0, 4);
    assert_eq!(counts(&mut sim, "dlq").0, 0);
    let listed = ok(&mut sim, "ListMessageMoveTasks", json!({"SourceArn": format!("{ACCOUNT_ARN}dlq")}));
    assert_eq!(listed["Results"][0]["Status"], "COMPLETED");
    assert_eq!(listed["Results"][0]["ApproximateNumberOfMessagesMoved"], 4);
    let m = receive(&mut sim, "src", 1).remove(0);
    assert_eq!(m["Attributes"]["ApproximateReceiveCount"], "1", "receive count starts again");
    let sent: u64 = m["Attributes"]["SentTimestamp"].as_str().unwrap().parse().unwrap();
    assert!(sent >= engine::time::EPOCH_MS + 100_000, "new enqueue time");
}

#[test]
fn move_tasks_check_their_source_and_allow_one_at_a_time() {
    // SQS: the source must be a DLQ; only one active task per source; a task can be cancelled while running.
    let mut sim = Sim::new(1);
    fill_dlq(&mut sim, 3);
    let e = fails(&mut sim, "StartMessageMoveTask", json!({"SourceArn": format!("{ACCOUNT_ARN}src")}));
    assert!(e.message.contains("Dead Letter Queue"));
    assert_eq!(
        fails(&mut sim, "StartMessageMoveTask", json!({"SourceArn": format!("{ACCOUNT_ARN}nope")})).code,
        "ResourceNotFoundException"
    );
    let h = ok(
        &mut sim,
        "StartMessageMoveTask",
        json!({"SourceArn": format!("{ACCOUNT_ARN}dlq"), "MaxNumberOfMessagesPerSecond": 1}),
    )["TaskHandle"]
        .clone();
    let e = fails(&mut sim, "StartMessageMoveTask", json!({"SourceArn": format!("{ACCOUNT_ARN}dlq")}));
    assert!(e.message.contains("already a task running"));
    secs(&mut sim, 1);
    let r = ok(&mut sim, "CancelMessageMoveTask", json!({"TaskHandle": h}));
    assert_eq!(r["ApproximateNumberOfMessagesMoved"], 1);
    secs(&mut sim, 10);
    assert_eq!(counts(&mut sim, "dlq").0, 2, "messages not yet moved stay");
    assert_eq!(
        fails(&mut sim, "CancelMessageMoveTask", json!({"TaskHandle": "garbage"})).code,
        "InvalidParameterValue"
    );
    assert_eq!(
        fails(&mut sim, "CancelMessageMoveTask", json!({"TaskHandle": "task-99"})).code,
        "ResourceNotFoundException"
    );
}

#[test]
fn a_move_task_can_send_to_another_destination() {
    // SQS: DestinationArn names a queue other than the source.
    let mut sim = Sim::new(1);
    fill_dlq(&mut sim, 2);
    queue(&mut sim, "inspect", json!({}));
    ok(
        &mut sim,
        "StartMessageMoveTask",
        json!({"SourceArn": format!("{ACCOUNT_ARN}dlq"), "DestinationArn": format!("{ACCOUNT_ARN}inspect")}),
    );
    secs(&mut sim, 1);
    assert_eq!(counts(&mut sim, "inspect").0, 2);
    assert_eq!(counts(&mut sim, "src").0, 0);
}

#[test]
fn moves_to_a_dlq_do_not_count_as_sent_there() {
    // SQS/CloudWatch: NumberOfMessagesSent does not count messages moved to a DLQ by redrive,
    // so an alarm on it stays silent; ApproximateNumberOfMessagesVisible sees them.
    let mut sim = Sim::new(1);
    fill_dlq(&mut sim, 2);
    let dlq = sim.snapshot().queues.into_iter().find(|q| q.name == "dlq").unwrap();
    assert_eq!(dlq.stats.sent, 0);
    assert_eq!(dlq.stats.arrived_from_redrive, 2);
    assert_eq!(dlq.visible, 2);
}

#[test]
fn a_fifo_dlq_redrive_keeps_each_message_group_so_the_moved_messages_can_be_received() {
    // Regression (found by property (g), issue 48): a move task from a FIFO dead-letter queue
    // stored its messages without their MessageGroupId, counted but never received. SQS developer
    // guide, "Configure a dead-letter queue redrive": the destination must be "the same type" as
    // the DLQ (a FIFO DLQ redrives to a FIFO queue), so the messages keep their groups.
    let mut sim = Sim::new(1);
    queue(&mut sim, "dlq.fifo", json!({"FifoQueue": "true"}));
    queue(&mut sim, "standard", json!({}));
    let policy = json!({"deadLetterTargetArn": format!("{ACCOUNT_ARN}dlq.fifo"), "maxReceiveCount": 1}).to_string();
    queue(
        &mut sim,
        "q.fifo",
        json!({"FifoQueue": "true", "ContentBasedDeduplication": "true", "VisibilityTimeout": "1", "RedrivePolicy": policy}),
    );
    ok(&mut sim, "SendMessage", json!({"QueueUrl": "q.fifo", "MessageBody": "a", "MessageGroupId": "g"}));
    receive(&mut sim, "q.fifo", 1);
    secs(&mut sim, 2);
    assert!(receive(&mut sim, "q.fifo", 1).is_empty(), "moved to dlq.fifo");
    let e = fails(
        &mut sim,
        "StartMessageMoveTask",
        json!({"SourceArn": format!("{ACCOUNT_ARN}dlq.fifo"), "DestinationArn": format!("{ACCOUNT_ARN}standard")}),
    );
    assert!(e.message.contains("same type"), "{}", e.message);
    ok(&mut sim, "StartMessageMoveTask", json!({"SourceArn": format!("{ACCOUNT_ARN}dlq.fifo")}));
    secs(&mut sim, 5);
    let got = receive(&mut sim, "q.fifo", 10);
    assert_eq!(got.len(), 1, "the moved message is received");
    assert_eq!(got[0]["Attributes"]["MessageGroupId"], "g");
}
