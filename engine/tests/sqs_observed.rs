//! SQS as AWS answers it: behaviours recorded from real AWS responses (2024–2025) by a widely
//! used emulator's validated test suite. Where the documentation is silent or says otherwise,
//! the test says that it follows AWS's observed behaviour.
mod common;
use common::*;
use engine::{EventKind, Sim};
use serde_json::{json, Value};

fn bodies(messages: &[Value]) -> Vec<&str> {
    messages.iter().map(|m| m["Body"].as_str().unwrap()).collect()
}

/// A FIFO queue with group "g" holding `a`, `b`, `c`, all received by one call.
fn fifo_group_in_flight(sim: &mut Sim, visibility: &str) -> Vec<Value> {
    queue(
        sim,
        "q.fifo",
        json!({"FifoQueue": "true", "ContentBasedDeduplication": "true", "VisibilityTimeout": visibility}),
    );
    for body in ["a", "b", "c"] {
        ok(sim, "SendMessage", json!({"QueueUrl": "q.fifo", "MessageBody": body, "MessageGroupId": "g"}));
    }
    let got = receive(sim, "q.fifo", 10);
    assert_eq!(bodies(&got), ["a", "b", "c"]);
    got
}

fn change_visibility(sim: &mut Sim, queue: &str, message: &Value, seconds: u32) {
    let params = json!({"QueueUrl": queue, "ReceiptHandle": message["ReceiptHandle"], "VisibilityTimeout": seconds});
    ok(sim, "ChangeMessageVisibility", params);
}

#[test]
fn fifo_a_first_message_visible_again_is_received_while_later_messages_of_its_group_are_in_flight() {
    // SQS FIFO (AWS, observed; the guide says only that a group's messages come in order): a
    // message is withheld while an *earlier* message of its group is in flight, not a later one.
    // Here the first message's visibility is ended while the two after it stay in flight.
    let mut sim = Sim::new(1);
    let got = fifo_group_in_flight(&mut sim, "30");
    change_visibility(&mut sim, "q.fifo", &got[0], 0);
    let again = receive(&mut sim, "q.fifo", 10);
    assert_eq!(bodies(&again), ["a"], "the first message comes back; b and c are still in flight");
    assert_eq!(again[0]["Attributes"]["ApproximateReceiveCount"], "2");
    assert!(receive(&mut sim, "q.fifo", 10).is_empty());
}

#[test]
fn fifo_extending_one_message_hides_it_and_the_later_ones_of_its_group_but_not_the_earlier_ones() {
    // SQS FIFO (AWS, observed): of three messages received together, one has its visibility
    // extended; when the others' timeout runs out, the messages before it are receivable again,
    // while it and every later message of the group stay hidden. AWS answered [], [a], [a, b].
    for (extended, expected) in [(0, vec![]), (1, vec!["a"]), (2, vec!["a", "b"])] {
        let mut sim = Sim::new(1);
        let got = fifo_group_in_flight(&mut sim, "10");
        change_visibility(&mut sim, "q.fifo", &got[extended], 40);
        secs(&mut sim, 20);
        assert_eq!(bodies(&receive(&mut sim, "q.fifo", 10)), expected, "message {extended} extended");
        let in_flight = 1 + expected.len() as u64;
        assert_eq!(counts(&mut sim, "q.fifo").1, in_flight, "the extended message and those received now");
    }
}

#[test]
fn list_queues_with_max_results_pages_through_every_queue_with_next_token() {
    // SQS developer guide, list queue pagination: with MaxResults the response includes a
    // NextToken when more results exist; passing it returns the next page. Without MaxResults
    // there is no NextToken. A token that is not one SQS gave out is InvalidParameterValue.
    let mut sim = Sim::new(1);
    for n in ["a", "b", "c", "d", "e", "other"] {
        queue(&mut sim, n, json!({}));
    }
    let everything = ok(&mut sim, "ListQueues", json!({"QueueNamePrefix": ""}));
    assert!(everything.get("NextToken").is_none());
    let (mut seen, mut token, mut pages) = (Vec::new(), None::<Value>, 0);
    loop {
        let mut params = json!({"MaxResults": 2});
        if let Some(t) = &token {
            params["NextToken"] = t.clone();
        }
        let page = ok(&mut sim, "ListQueues", params);
        assert!(page["QueueUrls"].as_array().unwrap().len() <= 2);
        seen.extend(page["QueueUrls"].as_array().unwrap().clone());
        pages += 1;
        match page.get("NextToken") {
            Some(t) => token = Some(t.clone()),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(Value::Array(seen), everything["QueueUrls"]);
    let prefixed = ok(&mut sim, "ListQueues", json!({"QueueNamePrefix": "o", "MaxResults": 1}));
    assert!(prefixed.get("NextToken").is_none(), "no more queues start with o");
    let e = fails(&mut sim, "ListQueues", json!({"MaxResults": 2, "NextToken": "not-a-token"}));
    assert_eq!(e.code, "InvalidParameterValue");
}

#[test]
fn send_message_batch_counts_attributes_toward_1_mib_and_fails_only_the_oversized_entry() {
    // SQS API reference, SendMessageBatch: the total payload, at most 1 MiB, counts message
    // attributes (names, types, values) with the bodies. An entry over the queue's
    // MaximumMessageSize fails on its own while the others are sent (AWS, observed).
    let mut sim = Sim::new(1);
    queue(&mut sim, "big", json!({}));
    let attributes = json!({"k": {"DataType": "String", "StringValue": "x"}});
    let body = "a".repeat(1_048_576 - ("k".len() + "String".len() + "x".len()));
    let entries =
        json!([{"Id": "1", "MessageBody": body, "MessageAttributes": attributes}, {"Id": "2", "MessageBody": "a"}]);
    let e = fails(&mut sim, "SendMessageBatch", json!({"QueueUrl": "big", "Entries": entries}));
    assert_eq!(e.code, "BatchRequestTooLong");
    assert!(e.message.contains("1048577"), "{}", e.message);

    queue(&mut sim, "small", json!({"MaximumMessageSize": "1024"}));
    let entries =
        json!([{"Id": "big", "MessageBody": "a".repeat(1100)}, {"Id": "fine", "MessageBody": "a".repeat(1000)}]);
    let r = ok(&mut sim, "SendMessageBatch", json!({"QueueUrl": "small", "Entries": entries}));
    assert_eq!(r["Failed"][0]["Id"], "big");
    assert_eq!(r["Failed"][0]["Code"], "InvalidParameterValue");
    assert_eq!(r["Successful"][0]["Id"], "fine");
    assert_eq!(counts(&mut sim, "small"), (1, 0, 0), "the batch as a whole (2,100 bytes) is well under 1 MiB");
}

#[test]
fn md5_of_message_attributes_hashes_the_decoded_bytes_of_a_binary_attribute() {
    // SQS developer guide, calculating the MD5 of message attributes: a Binary value is encoded
    // as its bytes. The digest below is the one AWS returned for these bytes.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    let bytes = "dHJhY2VwYXJlbnQeMDAtNzc0MDYyZDZjMzcwODFhNWEwYjliNWI4OGUzMDYyN2MtMmQyNDgyMjExZjY0ODlkYS0wMQ==";
    let attributes = json!({"attr1": {"DataType": "Binary", "BinaryValue": bytes}});
    let sent =
        ok(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "test", "MessageAttributes": attributes}));
    assert_eq!(sent["MD5OfMessageAttributes"], "8cbe4db156db8a94db8b801b7addb984");
    let got = receive(&mut sim, "q", 1);
    assert_eq!(got[0]["MD5OfMessageAttributes"], sent["MD5OfMessageAttributes"]);
    assert_eq!(got[0]["MessageAttributes"]["attr1"]["BinaryValue"], bytes, "the value comes back as sent");
}

#[test]
fn fifo_send_message_batch_without_group_or_deduplication_id_fails_as_a_whole() {
    // SQS FIFO (AWS, observed): a SendMessageBatch entry without MessageGroupId, or without
    // MessageDeduplicationId on a queue without content-based deduplication, fails the whole
    // call with InvalidParameterValue, and no entry is sent.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q.fifo", json!({"FifoQueue": "true"}));
    let good = json!({"Id": "good", "MessageBody": "x", "MessageGroupId": "g", "MessageDeduplicationId": "1"});
    let no_group = json!({"Id": "bad", "MessageBody": "y", "MessageDeduplicationId": "2"});
    let no_dedup = json!({"Id": "bad", "MessageBody": "y", "MessageGroupId": "g"});
    for bad in [no_group.clone(), no_dedup.clone()] {
        let e = fails(&mut sim, "SendMessageBatch", json!({"QueueUrl": "q.fifo", "Entries": [good, bad]}));
        assert_eq!(e.code, "InvalidParameterValue");
    }
    queue(&mut sim, "cbd.fifo", json!({"FifoQueue": "true", "ContentBasedDeduplication": "true"}));
    let e = fails(&mut sim, "SendMessageBatch", json!({"QueueUrl": "cbd.fifo", "Entries": [no_group]}));
    assert!(e.message.contains("MessageGroupId"), "{}", e.message);
    let r = ok(&mut sim, "SendMessageBatch", json!({"QueueUrl": "cbd.fifo", "Entries": [no_dedup]}));
    assert_eq!(r["Successful"].as_array().unwrap().len(), 1, "content-based deduplication supplies the id");
}

#[test]
fn fifo_delay_seconds_zero_is_accepted_and_the_queue_delay_still_applies() {
    // SQS FIFO (AWS, observed; the API reference says FIFO queues take no per-message delay):
    // DelaySeconds 0 on a message is accepted and the queue's DelaySeconds still applies; a
    // non-zero per-message delay is refused.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q.fifo", json!({"FifoQueue": "true", "ContentBasedDeduplication": "true", "DelaySeconds": "2"}));
    let send = |d: u32| json!({"QueueUrl": "q.fifo", "MessageBody": format!("d{d}"), "MessageGroupId": "g", "DelaySeconds": d});
    ok(&mut sim, "SendMessage", send(0));
    assert!(receive(&mut sim, "q.fifo", 1).is_empty(), "the queue's 2-second delay applies");
    secs(&mut sim, 2);
    assert_eq!(bodies(&receive(&mut sim, "q.fifo", 1)), ["d0"]);
    assert_eq!(fails(&mut sim, "SendMessage", send(1)).code, "InvalidParameterValue");
}

#[test]
fn aws_trace_header_system_attribute_is_returned_on_receive_and_kept_in_the_dead_letter_queue() {
    // SQS API reference: AWSTraceHeader is the one message system attribute (a String); it does
    // not change MD5OfMessageAttributes, SendMessage answers MD5OfMessageSystemAttributes (the
    // digest below is AWS's for this header), and a receive returns it when asked for. It stays
    // with the message moved to a dead-letter queue (AWS, observed).
    let mut sim = Sim::new(1);
    queue(&mut sim, "dlq", json!({}));
    queue(&mut sim, "plain", json!({}));
    queue(&mut sim, "q", json!({"VisibilityTimeout": "1", "RedrivePolicy": redrive("dlq", 1)}));
    let header = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    let system = json!({"AWSTraceHeader": {"DataType": "String", "StringValue": header}});
    let attributes = json!({"timestamp": {"DataType": "Number", "StringValue": "1493147359900"}});
    let plain =
        ok(&mut sim, "SendMessage", json!({"QueueUrl": "plain", "MessageBody": "t", "MessageAttributes": attributes}));
    let traced = ok(
        &mut sim,
        "SendMessage",
        json!({"QueueUrl": "q", "MessageBody": "t", "MessageAttributes": attributes, "MessageSystemAttributes": system}),
    );
    assert!(plain.get("MD5OfMessageSystemAttributes").is_none());
    assert_eq!(traced["MD5OfMessageSystemAttributes"], "5ae4d5d7636402d80f4eb6d213245a88");
    assert_eq!(traced["MD5OfMessageAttributes"], plain["MD5OfMessageAttributes"]);

    let asked = |names: Value| json!({"QueueUrl": "q", "AttributeNames": names});
    let r = ok(&mut sim, "ReceiveMessage", asked(json!(["SentTimestamp"])));
    assert!(r["Messages"][0]["Attributes"].get("AWSTraceHeader").is_none(), "not asked for");
    secs(&mut sim, 1);
    let r = ok(&mut sim, "ReceiveMessage", asked(json!(["AWSTraceHeader"])));
    assert!(r["Messages"].as_array().unwrap().is_empty(), "received once already: moved to the DLQ");
    let dead = receive(&mut sim, "dlq", 1);
    assert_eq!(dead[0]["Attributes"]["AWSTraceHeader"], header);
    assert!(dead[0]["Attributes"]["DeadLetterQueueSourceArn"].is_string());

    let entry = json!({"Id": "1", "MessageBody": "t", "MessageSystemAttributes": system});
    let r = ok(&mut sim, "SendMessageBatch", json!({"QueueUrl": "dlq", "Entries": [entry]}));
    assert_eq!(r["Successful"][0]["MD5OfMessageSystemAttributes"], traced["MD5OfMessageSystemAttributes"]);
    let r =
        ok(&mut sim, "ReceiveMessage", json!({"QueueUrl": "dlq", "MessageSystemAttributeNames": ["AWSTraceHeader"]}));
    assert_eq!(r["Messages"][0]["Attributes"]["AWSTraceHeader"], header);
    let other = json!({"Other": {"DataType": "String", "StringValue": "x"}});
    let e =
        fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "t", "MessageSystemAttributes": other}));
    assert_eq!(e.code, "InvalidParameterValue");
}

#[test]
fn an_empty_message_body_is_missing_and_an_empty_string_attribute_is_invalid() {
    // SQS developer guide: the attribute name, type and value and the message body must not be
    // empty. AWS answers an empty body as MissingParameter (observed) and an empty String value
    // as InvalidParameterValue.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    let e = fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": ""}));
    assert_eq!(e.code, "MissingParameter");
    let empty = json!({"ErrorDetails": {"DataType": "String", "StringValue": ""}});
    let e = fails(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "x", "MessageAttributes": empty}));
    assert_eq!(e.code, "InvalidParameterValue");
    assert!(e.message.contains("ErrorDetails"), "{}", e.message);
}

#[test]
fn a_kms_key_turns_sqs_managed_encryption_off_and_the_two_exclude_each_other() {
    // SQS (AWS, observed): a queue has SqsManagedSseEnabled "true" by default; setting
    // KmsMasterKeyId turns it "false", and it stays false after the KMS attributes are cleared.
    // A KMS key and SqsManagedSseEnabled "true" in one call are refused with InvalidAttributeName.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    assert_eq!(attr(&mut sim, "q", "SqsManagedSseEnabled"), "true");
    let set = |attributes: Value| json!({"QueueUrl": "q", "Attributes": attributes});
    ok(
        &mut sim,
        "SetQueueAttributes",
        set(json!({"KmsMasterKeyId": "testKeyId", "KmsDataKeyReusePeriodSeconds": "6000"})),
    );
    assert_eq!(attr(&mut sim, "q", "SqsManagedSseEnabled"), "false");
    assert_eq!(attr(&mut sim, "q", "KmsMasterKeyId"), "testKeyId");
    ok(&mut sim, "SetQueueAttributes", set(json!({"KmsMasterKeyId": "", "KmsDataKeyReusePeriodSeconds": "300"})));
    let all = ok(&mut sim, "GetQueueAttributes", json!({"QueueUrl": "q", "AttributeNames": ["All"]}));
    assert_eq!(all["Attributes"]["SqsManagedSseEnabled"], "false");
    assert!(all["Attributes"].get("KmsMasterKeyId").is_none(), "{all}");
    assert!(all["Attributes"].get("KmsDataKeyReusePeriodSeconds").is_none(), "{all}");
    let both = set(json!({"KmsMasterKeyId": "testKeyId", "SqsManagedSseEnabled": "true"}));
    assert_eq!(fails(&mut sim, "SetQueueAttributes", both).code, "InvalidAttributeName");
}

#[test]
fn a_standard_queue_knows_no_fifo_queue_attribute() {
    // SQS (AWS, observed): CreateQueue of a standard queue with FifoQueue "false", and
    // SetQueueAttributes with FifoQueue (true or false) on a standard queue, are refused with
    // InvalidAttributeName "Unknown Attribute FifoQueue".
    let mut sim = Sim::new(1);
    let e = fails(&mut sim, "CreateQueue", json!({"QueueName": "std", "Attributes": {"FifoQueue": "false"}}));
    assert_eq!(e.code, "InvalidAttributeName");
    queue(&mut sim, "std", json!({}));
    for value in ["true", "false"] {
        let e = fails(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "std", "Attributes": {"FifoQueue": value}}));
        assert_eq!(e.code, "InvalidAttributeName", "FifoQueue {value}");
        assert!(e.message.contains("Unknown Attribute FifoQueue"), "{}", e.message);
    }
}

#[test]
fn a_queue_can_be_its_own_dead_letter_queue() {
    // SQS (AWS, observed): a redrive policy may name the queue itself. What then happens is not
    // documented; the playground moves the exhausted message as to any dead-letter queue — to
    // the back of the queue, with MovedToDeadLetterQueue in the log — with its receive count
    // reset, so the same receive can return it again.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({"VisibilityTimeout": "1", "RedrivePolicy": redrive("q", 2)}));
    queue(&mut sim, "r", json!({}));
    ok(&mut sim, "SetQueueAttributes", json!({"QueueUrl": "r", "Attributes": {"RedrivePolicy": redrive("r", 1)}}));
    let id = send(&mut sim, "q", "poison");
    for count in ["1", "2"] {
        assert_eq!(receive(&mut sim, "q", 1)[0]["Attributes"]["ApproximateReceiveCount"], count);
        secs(&mut sim, 1);
    }
    let moved = receive(&mut sim, "q", 1);
    assert_eq!(moved[0]["MessageId"], id);
    assert_eq!(moved[0]["Attributes"]["ApproximateReceiveCount"], "1", "counted afresh after the move");
    assert_eq!(moved[0]["Attributes"]["DeadLetterQueueSourceArn"], format!("{ACCOUNT_ARN}q"));
    let moves: Vec<_> = sim
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MovedToDeadLetterQueue { queue, dead_letter_queue, .. } => {
                Some((&**queue, &**dead_letter_queue))
            }
            _ => None,
        })
        .collect();
    assert_eq!(moves, [("q", "q")]);
    let sources = ok(&mut sim, "ListDeadLetterSourceQueues", json!({"QueueUrl": "q"}));
    assert_eq!(sources["queueUrls"], json!(["https://sqs.us-east-1.amazonaws.com/000000000000/q"]));
}

#[test]
fn message_attribute_names_star_returns_every_attribute() {
    // SQS (AWS, observed): MessageAttributeNames ["*"] returns every message attribute, as
    // "All" and ".*" do.
    let mut sim = Sim::new(1);
    queue(&mut sim, "q", json!({}));
    let attributes = json!({"Hello": {"DataType": "String", "StringValue": "There"}, "Help.Me": {"DataType": "String", "StringValue": "Me"}});
    ok(&mut sim, "SendMessage", json!({"QueueUrl": "q", "MessageBody": "msg", "MessageAttributes": attributes}));
    let mut with = |names: Value| {
        let asked = json!({"QueueUrl": "q", "MessageAttributeNames": names, "VisibilityTimeout": 1});
        let r = ok(&mut sim, "ReceiveMessage", asked);
        secs(&mut sim, 1);
        r["Messages"][0]["MessageAttributes"].clone()
    };
    assert_eq!(with(json!(["*"])), attributes);
    assert_eq!(with(json!(["All"])), attributes);
    assert_eq!(with(json!([".*"])), attributes);
    assert_eq!(with(json!(["Hello"])), json!({"Hello": attributes["Hello"]}));
}
