//! What a probe's reading is measured in, so that a page says "66.7%", "2 min" or "3 messages"
//! rather than the engine's raw 666666, 120000 or 3. Read from the probe itself: its field, or
//! the last part of an action probe's path (`…Ms` is milliseconds, `…Ppm` parts per million).

use super::probe::{JobField, Probe, QueueField, WorkerField};

/// The unit of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A count of things: (one, many), such as ("message", "messages").
    Count(&'static str, &'static str),
    /// Milliseconds of virtual time.
    Ms,
    /// Seconds (a queue's settings).
    Seconds,
    /// Parts per million (a share, shown as a percentage).
    Ppm,
    /// As it is: a state, a name, a text.
    Plain,
}

const MESSAGES: Unit = Unit::Count("message", "messages");
const EVENTS: Unit = Unit::Count("event", "events");
const SIDE_EFFECTS: Unit = Unit::Count("side effect", "side effects");
const STALE: Unit = Unit::Count("older version applied late", "older versions applied late");

impl Probe {
    /// What this probe's reading is measured in.
    pub fn unit(&self) -> Unit {
        match self {
            Probe::Queue { field, .. } => match field {
                QueueField::VisibilityTimeout | QueueField::RetentionPeriod => Unit::Seconds,
                QueueField::MaxReceiveCount => Unit::Count("receive", "receives"),
                _ => MESSAGES,
            },
            Probe::WorkersOn { .. } => Unit::Count("worker", "workers"),
            Probe::Worker { field, .. } => match field {
                WorkerField::State | WorkerField::Held => Unit::Plain,
                WorkerField::Crashes => Unit::Count("crash", "crashes"),
                _ => MESSAGES,
            },
            Probe::Job { field, .. } => match field {
                JobField::SideEffects => SIDE_EFFECTS,
                JobField::DistinctEvents => EVENTS,
                JobField::Duplicates => Unit::Count("duplicate", "duplicates"),
                JobField::Skipped => Unit::Count("skipped message", "skipped messages"),
                JobField::EndToEndMeanMs | JobField::EndToEndMaxMs => Unit::Ms,
            },
            Probe::Events { kind, field: None, .. } => of_events(kind),
            Probe::Events { field: Some((name, _)), .. } => of_name(name),
            Probe::Action { largest: Some(name), .. } => of_name(name),
            Probe::Action { path: Some(path), .. } | Probe::Response { path: Some(path) } => {
                of_name(path.rsplit('.').next().unwrap_or(path))
            }
            _ => Unit::Plain,
        }
    }
}

/// What a count of events of `kind` counts, in the learner's words.
fn of_events(kind: &str) -> Unit {
    match kind {
        "Received" => Unit::Count("receive", "receives"),
        "SideEffectPerformed" => SIDE_EFFECTS,
        "SideEffectSkipped" => Unit::Count("skipped side effect", "skipped side effects"),
        "DeliveredToQueue" => Unit::Count("delivery", "deliveries"),
        "DeliveryAttemptFailed" => Unit::Count("failed attempt", "failed attempts"),
        "DeliveryFailed" => Unit::Count("failed delivery", "failed deliveries"),
        "VisibilityExpired" => Unit::Count("return to visible", "returns to visible"),
        "ProcessingFailed" | "FunctionFailed" | "DependencyCallFailed" => Unit::Count("failure", "failures"),
        "MovedToDeadLetterQueue" => Unit::Count("move to the DLQ", "moves to the DLQ"),
        "Deleted" => Unit::Count("delete", "deletes"),
        "DeleteIgnored" => Unit::Count("delete with an old handle", "deletes with an old handle"),
        "HeartbeatSent" => Unit::Count("heartbeat", "heartbeats"),
        "ExpiredByRetention" => Unit::Count("expired message", "expired messages"),
        "FunctionInvoked" => Unit::Count("invocation", "invocations"),
        "Deduplicated" | "DuplicateStored" => MESSAGES,
        "WorkerCrashed" => Unit::Count("crash", "crashes"),
        "DependencyUpdated" => Unit::Count("setting change", "setting changes"),
        "StaleVersionApplied" => STALE,
        _ => EVENTS,
    }
}

/// The unit a field's name says: `age_ms`, `MaxMs` and `latency_ms` are milliseconds,
/// `AvailabilityPpm` parts per million, and a few counts by name.
fn of_name(name: &str) -> Unit {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with("_ms") || (name.ends_with("Ms") && name.len() > 2) {
        return Unit::Ms;
    }
    if lower.ends_with("ppm") {
        return Unit::Ppm;
    }
    match lower.as_str() {
        "receive_count" | "approximatereceivecount" => Unit::Count("receive", "receives"),
        "distinctevents" => EVENTS,
        "duplicatesideeffects" => Unit::Count("duplicate side effect", "duplicate side effects"),
        "halfdone" => Unit::Count("half-done order", "half-done orders"),
        "calls" => Unit::Count("call", "calls"),
        "throttled" => Unit::Count("throttled call", "throttled calls"),
        "outoforder" => STALE,
        "visible" | "stored" | "in_flight" | "delayed" | "messages" => MESSAGES,
        // `EffectsByEvent.evt-4417`: how many times one event's work was done.
        n if n.starts_with("evt-") => SIDE_EFFECTS,
        _ => Unit::Plain,
    }
}

/// What is wrong with a check's label for a reading in `unit`, if anything: the page shows a
/// duration in the unit that reads best ("39.7 s", "4 d") and a share as a percentage, so a label
/// that names a unit of its own ("…, in ms") reads "in ms: 39.7 s"; and a label that does sums
/// ("(90 s minus 60 s)") promises a number the reading is not.
pub fn label_problem(label: &str, unit: Unit) -> Option<String> {
    if !matches!(unit, Unit::Ms | Unit::Seconds | Unit::Ppm) {
        return None;
    }
    let lower = label.to_ascii_lowercase();
    let named =
        ["in ms", "in milliseconds", "in seconds", "in minutes", "in hours", "in days", "in ppm", "parts per million"];
    if let Some(u) = named.iter().find(|u| lower.contains(*u)) {
        let shown = if unit == Unit::Ppm {
            "a percentage (\"66.7%\")"
        } else {
            "a duration in the unit that reads best (\"39.7 s\", \"4 d\")"
        };
        return Some(format!(
            "the label \"{label}\" says \"{u}\", but the page shows this reading as {shown}: leave the unit out of the label"
        ));
    }
    if [" minus ", " plus ", " times "].iter().any(|w| lower.contains(w)) {
        return Some(format!(
            "the label \"{label}\" does a sum the reading does not show: say what the reading is (\"time since attempt 2 began\")"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Unit, MESSAGES};
    use crate::lesson::probe::Probe;
    use serde_json::json;

    fn unit(probe: serde_json::Value) -> Unit {
        Probe::parse(&probe, &[]).expect("a probe").unit()
    }

    #[test]
    fn a_label_does_not_name_a_unit_the_reading_is_not_shown_in() {
        use super::label_problem;
        let e = label_problem("Slowest checkout, in ms", Unit::Ms).expect("flagged");
        assert!(e.contains("says \"in ms\"") && e.contains("leave the unit out"), "{e}");
        assert!(label_problem("billing keeps a message 4 days by default, in seconds", Unit::Seconds).is_some());
        assert!(label_problem("so this long ago (90 s minus 60 s)", Unit::Ms).unwrap().contains("sum"));
        assert_eq!(label_problem("Slowest checkout", Unit::Ms), None);
        assert_eq!(
            label_problem("Its longest wait, in seconds", Unit::Plain),
            None,
            "a plain number keeps its label's unit"
        );
    }

    #[test]
    fn a_reading_knows_its_unit_from_the_probe() {
        assert_eq!(unit(json!({"queue": "sms", "field": "visible"})), MESSAGES);
        assert_eq!(unit(json!({"queue": "sms", "field": "retention_period"})), Unit::Seconds);
        assert_eq!(unit(json!({"events": "ExpiredByRetention", "field": "age_ms"})), Unit::Ms);
        assert_eq!(unit(json!({"events": "Received"})), Unit::Count("receive", "receives"));
        assert_eq!(unit(json!({"response": "Messages"})), MESSAGES, "a receive's messages, counted");
        assert_eq!(unit(json!({"events": "TopicCreated"})), Unit::Count("event", "events"));
        let producer =
            |path: &str| json!({"action": "DescribeProducer", "params": {"ProducerName": "chain"}, "path": path});
        assert_eq!(unit(producer("AvailabilityPpm")), Unit::Ppm);
        assert_eq!(unit(producer("Latency.MaxMs")), Unit::Ms);
        assert_eq!(unit(producer("HalfDone")), Unit::Count("half-done order", "half-done orders"));
        assert_eq!(unit(producer("Availability")), Unit::Plain);
        assert_eq!(unit(json!({"worker": "packing-w1", "field": "state"})), Unit::Plain);
        assert_eq!(unit(json!({"job": "packing", "field": "end_to_end_max_ms"})), Unit::Ms);
    }
}
