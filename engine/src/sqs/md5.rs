//! The MD5 digests SQS returns: of the body, and of the message attributes in the binary
//! encoding AWS documents (each attribute sorted by name: length-prefixed name, type, a transport
//! byte of 1 for string values or 2 for binary, then the length-prefixed value).

use crate::attributes::{decode_base64, MessageAttributes};
use md5::{Digest, Md5};

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

pub fn md5_hex(text: &str) -> String {
    hex(&Md5::digest(text.as_bytes()))
}

/// `MD5OfMessageAttributes`; `None` when there are no attributes (AWS omits the field).
/// A Binary value is hashed as its decoded bytes, as the documented algorithm says (a value
/// that is not base64 is hashed as its text).
pub fn md5_of_attributes(attributes: &MessageAttributes) -> Option<String> {
    if attributes.is_empty() {
        return None;
    }
    fn put(hasher: &mut Md5, bytes: &[u8]) {
        hasher.update((bytes.len() as u32).to_be_bytes());
        hasher.update(bytes);
    }
    let mut hasher = Md5::new();
    for (name, value) in attributes {
        put(&mut hasher, name.as_bytes());
        put(&mut hasher, value.data_type.as_bytes());
        match (&value.string_value, &value.binary_value) {
            (Some(s), _) => {
                hasher.update([1u8]);
                put(&mut hasher, s.as_bytes());
            }
            (None, Some(b)) => {
                hasher.update([2u8]);
                put(&mut hasher, &decode_base64(b).unwrap_or_else(|| b.as_bytes().to_vec()));
            }
            (None, None) => hasher.update([1u8]),
        }
    }
    Some(hex(&hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attributes::MessageAttributeValue;

    #[test]
    fn body_digest_is_plain_md5() {
        // RFC 1321 test vector.
        assert_eq!(md5_hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
    }

    #[test]
    fn attribute_digest_follows_the_documented_encoding() {
        let mut attrs = MessageAttributes::new();
        assert_eq!(md5_of_attributes(&attrs), None);
        attrs.insert("event_type".into(), MessageAttributeValue::string("OrderPlaced"));
        let mut expected = Vec::new();
        for part in [&b"event_type"[..], b"String"] {
            expected.extend((part.len() as u32).to_be_bytes());
            expected.extend(part);
        }
        expected.push(1);
        expected.extend(11u32.to_be_bytes());
        expected.extend(b"OrderPlaced");
        assert_eq!(md5_of_attributes(&attrs), Some(hex(&Md5::digest(&expected))));
    }
}
