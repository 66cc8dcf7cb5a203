//! Names, ARNs and URLs. Every resource lives in region `us-east-1`, account `000000000000`,
//! and can be named by its name, its ARN or (queues) its URL.

use serde::{Serialize, Serializer};
use std::fmt;

pub const REGION: &str = "us-east-1";
pub const ACCOUNT: &str = "000000000000";

/// Every queue ARN starts with this (region us-east-1, account 000000000000).
const QUEUE_ARN_PREFIX: &str = "arn:aws:sqs:us-east-1:000000000000:";

/// Every topic ARN starts with this.
const TOPIC_ARN_PREFIX: &str = "arn:aws:sns:us-east-1:000000000000:";

/// Every queue URL starts with this.
const QUEUE_URL_PREFIX: &str = "https://sqs.us-east-1.amazonaws.com/000000000000/";

// Joined rather than `format!`ed: ARNs are made for every delivery, and the formatting
// machinery costs several times the copy.
pub fn queue_arn(name: &str) -> String {
    [QUEUE_ARN_PREFIX, name].concat()
}

pub fn queue_url(name: &str) -> String {
    [QUEUE_URL_PREFIX, name].concat()
}

pub fn topic_arn(name: &str) -> String {
    [TOPIC_ARN_PREFIX, name].concat()
}

/// The queue name in a name, a queue ARN or a queue URL; `None` when it is an ARN or URL of
/// something else (another service, region or account).
pub fn queue_name_from(reference: &str) -> Option<&str> {
    if reference.starts_with("arn:") {
        return reference.strip_prefix(QUEUE_ARN_PREFIX);
    }
    if reference.starts_with("http://") || reference.starts_with("https://") {
        let (_, path) = reference.split_once("://")?;
        let mut parts = path.split('/');
        let _host = parts.next()?;
        let account = parts.next()?;
        let name = parts.next()?;
        return (account == ACCOUNT && parts.next().is_none()).then_some(name);
    }
    Some(reference)
}

/// The topic name in a name or a topic ARN.
pub fn topic_name_from(reference: &str) -> Option<&str> {
    match reference.strip_prefix("arn:") {
        Some(_) => reference.strip_prefix(TOPIC_ARN_PREFIX).filter(|n| !n.contains(':')),
        None => Some(reference),
    }
}

/// Queue and topic names: 1–80 (queues) or 1–256 (topics) characters of letters, digits,
/// hyphens and underscores, with an optional `.fifo` suffix.
pub fn valid_resource_name(name: &str, max_len: usize) -> bool {
    let stem = name.strip_suffix(".fifo").unwrap_or(name);
    !stem.is_empty() && name.len() <= max_len && stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `n` in decimal, as `format!("{n}")` writes it, through `u64`'s printer: `u128`'s own is
/// 1.3 KB of wasm for the two complexity limits that count in `u128`.
pub(crate) fn decimal_u128(n: u128) -> String {
    const TEN_19: u128 = 10_000_000_000_000_000_000;
    match u64::try_from(n) {
        Ok(small) => {
            let mut out = String::new();
            push_decimal(&mut out, small);
            out
        }
        // At least 2^64, so the high part is not zero: no leading zeros.
        Err(_) => format!("{}{:019}", decimal_u128(n / TEN_19), (n % TEN_19) as u64),
    }
}

/// Appends `n` in decimal, as `format!("{n}")` would, without the formatting machinery.
pub(crate) fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

macro_rules! counter_id {
    ($name:ident, $prefix:literal, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl $name {
            /// The id as text (`msg-17`), as `to_string` gives it but without the formatting
            /// machinery: ids are written into responses for every message.
            pub fn text(&self) -> String {
                let mut out = String::with_capacity($prefix.len() + 20);
                out.push_str($prefix);
                push_decimal(&mut out, self.0);
                out
            }

            /// Reads the id back from its text form (`msg-17`).
            pub fn parse(text: &str) -> Option<Self> {
                let digits = text.strip_prefix($prefix)?;
                (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| digits.parse().ok().map($name))
                    .flatten()
            }
        }
    };
}

counter_id!(MsgId, "msg-", "An SQS message id, readable (`msg-17`) where AWS uses a UUID. Duplicates share it.");
counter_id!(SnsId, "sns-", "An SNS message id (`sns-4`): one per Publish, the `MessageId` inside the envelope.");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_u128_is_written_as_format_writes_it() {
        let big = [
            0,
            9,
            150,
            u128::from(u64::MAX),
            u128::from(u64::MAX) + 1,
            10_000_000_000_000_000_000,
            100_000_000_000_000_000_000_000_000_000_000_000_007,
            1 << 100,
            u128::MAX - 1,
            u128::MAX,
        ];
        for n in big {
            assert_eq!(decimal_u128(n), format!("{n}"));
        }
    }

    #[test]
    fn queues_resolve_by_name_arn_and_url() {
        assert_eq!(QUEUE_ARN_PREFIX, format!("arn:aws:sqs:{REGION}:{ACCOUNT}:"));
        assert_eq!(TOPIC_ARN_PREFIX, format!("arn:aws:sns:{REGION}:{ACCOUNT}:"));
        assert_eq!(QUEUE_URL_PREFIX, format!("https://sqs.{REGION}.amazonaws.com/{ACCOUNT}/"));
        assert_eq!(queue_name_from("sms"), Some("sms"));
        assert_eq!(queue_name_from(&queue_arn("sms")), Some("sms"));
        assert_eq!(queue_name_from(&queue_url("sms")), Some("sms"));
        assert_eq!(queue_name_from("arn:aws:sqs:eu-west-1:000000000000:sms"), None);
        assert_eq!(queue_name_from("https://sqs.us-east-1.amazonaws.com/123456789012/sms"), None);
        assert_eq!(topic_name_from(&topic_arn("order-events")), Some("order-events"));
        assert_eq!(topic_name_from("arn:aws:sns:us-east-1:000000000000:t:sub-1"), None);
    }

    #[test]
    fn names_follow_the_aws_character_rules() {
        assert!(valid_resource_name("order-events_2", 80));
        assert!(valid_resource_name("orders.fifo", 80));
        assert!(!valid_resource_name(".fifo", 80));
        assert!(!valid_resource_name("has space", 80));
        assert!(!valid_resource_name(&"a".repeat(81), 80));
        assert_eq!(MsgId::parse("msg-17"), Some(MsgId(17)));
        assert_eq!(MsgId::parse("msg-"), None);
        assert_eq!(MsgId(3).to_string(), "msg-3");
        for n in [0, 9, 10, 4417, u64::MAX] {
            assert_eq!(MsgId(n).text(), MsgId(n).to_string());
            assert_eq!(SnsId(n).text(), SnsId(n).to_string());
        }
    }
}
