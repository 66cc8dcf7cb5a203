//! Durations written as durations ("16.4 s", "3 min 20 s"), never as times of day, with integer
//! arithmetic only (the browser build formats no float).

use engine::world::DurationMs;

/// `ms` as a learner reads a duration: "400 ms", "2 s", "16.4 s", "3 min 20 s", "2 h 5 min", "4 d".
pub fn duration(ms: u64) -> String {
    const MINUTE: u64 = 60_000;
    const HOUR: u64 = 60 * MINUTE;
    if ms < 1_000 {
        return format!("{ms} ms");
    }
    if ms < MINUTE {
        let (s, tenths) = (ms / 1_000, ms % 1_000 / 100);
        return if tenths == 0 { format!("{s} s") } else { format!("{s}.{tenths} s") };
    }
    const DAY: u64 = 24 * HOUR;
    let (big, small, big_unit, small_unit) = if ms < HOUR {
        (ms / MINUTE, ms % MINUTE / 1_000, "min", "s")
    } else if ms < DAY {
        (ms / HOUR, ms % HOUR / MINUTE, "h", "min")
    } else {
        (ms / DAY, ms % DAY / HOUR, "d", "h")
    };
    if small == 0 {
        format!("{big} {big_unit}")
    } else {
        format!("{big} {big_unit} {small} {small_unit}")
    }
}

/// A fixed duration, or a seeded range: "2 s", "200 ms to 2 s".
pub fn span(d: DurationMs) -> String {
    if d.min_ms == d.max_ms {
        duration(d.min_ms)
    } else {
        format!("{} to {}", duration(d.min_ms), duration(d.max_ms))
    }
}

/// `n` and the noun for it: "1 receive", "2 receives".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A lesson probe's reading in its unit, as a learner reads it: "3 messages", "2 min", "66.7%",
/// "Crashed". A reading that is not what its unit expects is shown as it is.
pub fn reading(value: &Result<serde_json::Value, String>, unit: engine::lesson::unit::Unit) -> String {
    use engine::lesson::unit::Unit;
    use serde_json::Value;
    // As the engine reads a number: a list counts its items.
    let number = value.as_ref().ok().and_then(engine::lesson::test::number_of).and_then(|n| u64::try_from(n).ok());
    match (unit, number) {
        (Unit::Count(one, many), Some(n)) => count(n, one, many),
        (Unit::Ms, Some(n)) => duration(n),
        (Unit::Seconds, Some(n)) => duration(n.saturating_mul(1_000)),
        // Parts per million as a percentage with one decimal, rounded half up: 666,666 is 66.7%.
        (Unit::Ppm, Some(n)) => {
            let tenths = (n + 500) / 1_000;
            format!("{}.{}%", tenths / 10, tenths % 10)
        }
        _ => match value {
            Ok(Value::String(s)) => s.clone(),
            // A list of names or numbers (message ids, event ids in the order they came), as words.
            Ok(Value::Array(items)) if items.iter().all(|i| i.is_string() || i.is_number()) => items
                .iter()
                .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(", "),
            Ok(Value::Null) => "nothing".into(),
            Ok(v) => v.to_string(),
            // What the engine could not read is not there yet (a job nobody has done, a queue
            // not made): the learner reads that, not the engine's words ('there is no job "sms"').
            Err(_) => "not yet".into(),
        },
    }
}

/// An engine error as the learner reads it: the message alone when it already says what the
/// code says ("InvalidParameter" and "Invalid parameter: …"), else the code, a colon, the message.
pub fn error_text(code: &str, message: &str) -> String {
    let mut words = String::new();
    for c in code.chars() {
        if c.is_ascii_uppercase() && !words.is_empty() {
            words.push(' ');
        }
        words.push(c.to_ascii_lowercase());
    }
    // ASCII only: Unicode case tables would cost the bundle kilobytes for an English code.
    let head: String = message.chars().take(words.chars().count()).collect::<String>().to_ascii_lowercase();
    if !words.is_empty() && head == words {
        message.to_string()
    } else {
        format!("{code}: {message}")
    }
}

/// A long ARN or queue URL shortened for reading, its region and account left out:
/// "arn:aws:sns:…:order-events:1", "https://sqs.…/billing". `None` when it is short already.
pub fn abbreviated(id: &str) -> Option<String> {
    if id.len() <= 28 {
        return None;
    }
    if let Some(rest) = id.strip_prefix("arn:") {
        let parts: Vec<&str> = rest.splitn(5, ':').collect();
        let [partition, service, _, _, resource] = parts[..] else { return None };
        let resource = match resource.rsplit_once(':') {
            Some((head, tail)) if tail.chars().count() > 12 => {
                format!("{head}:{}…", tail.chars().take(8).collect::<String>())
            }
            _ => resource.to_string(),
        };
        return Some(format!("arn:{partition}:{service}:…:{resource}"));
    }
    let (scheme, rest) = id.split_once("://")?;
    let (host, path) = rest.split_once('/')?;
    let name = path.rsplit('/').next()?;
    let service = host.split('.').next()?;
    Some(format!("{scheme}://{service}.…/{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lesson_reading_is_written_in_its_unit() {
        use engine::lesson::unit::Unit;
        use serde_json::json;
        let r = |v: serde_json::Value, u| reading(&Ok(v), u);
        assert_eq!(r(json!(666_666), Unit::Ppm), "66.7%");
        assert_eq!(r(json!(1_000_000), Unit::Ppm), "100.0%");
        assert_eq!(r(json!(120_000), Unit::Ms), "2 min");
        assert_eq!(r(json!(1_209_600), Unit::Seconds), "14 d");
        assert_eq!(r(json!(3), Unit::Count("message", "messages")), "3 messages");
        assert_eq!(r(json!("1"), Unit::Count("message", "messages")), "1 message");
        assert_eq!(r(json!("Crashed"), Unit::Plain), "Crashed");
        // A receive's messages, as the engine checks them: by how many.
        assert_eq!(
            r(json!([{"Body": "4418 OrderPlaced", "MD5OfBody": "f2df"}]), Unit::Count("message", "messages")),
            "1 message"
        );
        assert_eq!(r(json!(["evt-4418-2", "evt-4418-3"]), Unit::Plain), "evt-4418-2, evt-4418-3");
        assert_eq!(r(json!(null), Unit::Ms), "nothing");
        assert_eq!(reading(&Err("there is no job \"sms\"".into()), Unit::Ms), "not yet");
    }

    #[test]
    fn durations_read_as_durations() {
        let cases = [
            (0, "0 ms"),
            (400, "400 ms"),
            (2_000, "2 s"),
            (16_400, "16.4 s"),
            (16_499, "16.4 s"),
            (60_000, "1 min"),
            (200_000, "3 min 20 s"),
            (3_600_000, "1 h"),
            (7_500_000, "2 h 5 min"),
            (345_600_000, "4 d"),
            (352_800_000, "4 d 2 h"),
        ];
        for (ms, text) in cases {
            assert_eq!(duration(ms), text, "{ms} ms");
        }
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1u32, "receive", "receives"), "1 receive");
        assert_eq!(count(0u32, "receive", "receives"), "0 receives");
        assert_eq!(count(12u64, "receive", "receives"), "12 receives");
    }

    #[test]
    fn an_error_does_not_say_its_code_twice() {
        assert_eq!(
            error_text(
                "InvalidParameter",
                "Invalid parameter: The MessageGroupId parameter is required for FIFO topics"
            ),
            "Invalid parameter: The MessageGroupId parameter is required for FIFO topics"
        );
        assert_eq!(
            error_text("InvalidAttributeValue", "Invalid value for the parameter VisibilityTimeout."),
            "InvalidAttributeValue: Invalid value for the parameter VisibilityTimeout."
        );
        assert_eq!(error_text("NotFound", "no such queue"), "NotFound: no such queue");
    }

    #[test]
    fn long_identifiers_keep_what_names_them() {
        let sub = "arn:aws:sns:us-east-1:000000000000:order-events:1";
        assert_eq!(abbreviated(sub).as_deref(), Some("arn:aws:sns:…:order-events:1"));
        let uuid = "arn:aws:sns:us-east-1:000000000000:order-events:5f0c2a8e-9d3b-4c1e-8f2a-1b2c3d4e5f60";
        assert_eq!(abbreviated(uuid).as_deref(), Some("arn:aws:sns:…:order-events:5f0c2a8e…"));
        let url = "https://sqs.us-east-1.amazonaws.com/000000000000/billing";
        assert_eq!(abbreviated(url).as_deref(), Some("https://sqs.…/billing"));
        assert_eq!(abbreviated("arn:aws:sqs:eu:1:q"), None, "short already");
    }

    #[test]
    fn a_range_names_both_ends() {
        assert_eq!(span(DurationMs::fixed(2_000)), "2 s");
        assert_eq!(span(DurationMs { min_ms: 200, max_ms: 2_000 }), "200 ms to 2 s");
    }
}
