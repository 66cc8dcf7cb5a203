//! Message attributes in the shape SNS and SQS share on the wire:
//! `{"DataType": "String" | "Number" | "Binary" | "String.Array" | "<type>.<label>", "StringValue": "...", "BinaryValue": "..."}`.

use serde::{Deserialize, Serialize};

/// One message attribute value, as in `Publish`'s and `SendMessage`'s `MessageAttributes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageAttributeValue {
    #[serde(rename = "DataType")]
    pub data_type: String,
    #[serde(rename = "StringValue", default, skip_serializing_if = "Option::is_none")]
    pub string_value: Option<String>,
    /// Base64 text, kept as given; decoded only for `MD5OfMessageAttributes`.
    #[serde(rename = "BinaryValue", default, skip_serializing_if = "Option::is_none")]
    pub binary_value: Option<String>,
}

impl MessageAttributeValue {
    /// The base type before any custom label: `Number.float` is a `Number`.
    pub fn base_type(&self) -> &str {
        match self.data_type.split_once('.') {
            // `String.Array` is a base type of its own in SNS, not a labelled String.
            Some(("String", "Array")) => "String.Array",
            Some((base, _)) => base,
            None => &self.data_type,
        }
    }

    pub fn string(value: &str) -> Self {
        Self { data_type: "String".into(), string_value: Some(value.into()), binary_value: None }
    }

    pub fn number(value: &str) -> Self {
        Self { data_type: "Number".into(), string_value: Some(value.into()), binary_value: None }
    }
}

/// Decodes standard base64 (RFC 4648, `+` and `/`, `=` padding optional); `None` when `text` is
/// not base64.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    fn sextet(c: u8) -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }
    let data = text.trim_end_matches('=').as_bytes();
    if text.len() - data.len() > 2 || data.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(data.len() * 3 / 4);
    for chunk in data.chunks(4) {
        let mut bits = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            bits |= sextet(*c)? << (18 - 6 * i);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
}

/// Attributes by name; a `BTreeMap` so that every walk over them is in one fixed order.
pub type MessageAttributes = crate::vecmap::VecMap<String, MessageAttributeValue>;

#[cfg(test)]
mod tests {
    use super::decode_base64;

    #[test]
    fn base64_decodes_the_rfc_4648_test_vectors() {
        let vectors =
            [("", ""), ("Zg==", "f"), ("Zm8=", "fo"), ("Zm9v", "foo"), ("Zm9vYg==", "foob"), ("Zm9vYmE=", "fooba")];
        for (text, plain) in vectors {
            assert_eq!(decode_base64(text).as_deref(), Some(plain.as_bytes()), "{text}");
        }
        assert_eq!(decode_base64("Zm9vYmFy").as_deref(), Some(&b"foobar"[..]));
        for bad in ["Z", "Zm9v!", "Zg===", "Zm 9v"] {
            assert_eq!(decode_base64(bad), None, "{bad}");
        }
    }
}
