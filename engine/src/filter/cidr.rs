//! IP address matching: the `cidr` operator.
//!
//! SNS docs, "String value matching" / "IP address matching": `"source_ip": [{"cidr": "10.0.0.0/24"}]`
//! matches a string value `10.0.0.0` … `10.0.0.255` and not `10.1.1.0`. The SNS docs only show
//! IPv4; IPv6 blocks are accepted as well because the matching engine SNS shares with EventBridge
//! (aws/event-ruler, `CIDR.java`) parses both. Not confirmed in the SNS docs: whether IPv6 is
//! accepted, and what SNS does with host bits set below the mask (`10.0.0.5/24`); here they are
//! accepted and masked off, as event-ruler does. The error texts mirror event-ruler's.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

/// One compiled `cidr` block.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Cidr {
    V4 { network: u32, mask: u32 },
    V6 { network: u128, mask: u128 },
}

impl Cidr {
    /// Parses `address/bits`. The error is the rule that was broken, without the key.
    pub(crate) fn parse(text: &str) -> Result<Cidr, String> {
        let mut parts = text.split('/');
        let (address, bits) = match (parts.next(), parts.next(), parts.next()) {
            (Some(address), Some(bits), None) => (address, bits),
            _ => return Err(format!("Malformed CIDR, one '/' required (got {text:?})")),
        };
        if bits.is_empty() || !bits.bytes().all(|b| b.is_ascii_digit()) || bits.len() > 3 {
            return Err(format!("Malformed CIDR, mask bits must be an integer (got {bits:?} in {text:?})"));
        }
        let bits: u32 = bits.parse().map_err(|_| format!("Malformed CIDR, mask bits must be an integer ({text:?})"))?;
        if let Ok(v4) = address.parse::<Ipv4Addr>() {
            if bits > 32 {
                return Err(format!("Malformed CIDR, mask bits must be between 0 and 32 for IPv4 (got {bits})"));
            }
            let mask = if bits == 0 { 0 } else { u32::MAX << (32 - bits) };
            return Ok(Cidr::V4 { network: u32::from(v4) & mask, mask });
        }
        if let Ok(v6) = address.parse::<Ipv6Addr>() {
            if bits > 128 {
                return Err(format!("Malformed CIDR, mask bits must be between 0 and 128 for IPv6 (got {bits})"));
            }
            let mask = if bits == 0 { 0 } else { u128::MAX << (128 - bits) };
            return Ok(Cidr::V6 { network: u128::from(v6) & mask, mask });
        }
        Err(format!("Nonstandard IP address: {address}"))
    }

    /// Whether the string value is an IP address inside this block. A value that is not an IP
    /// address of the block's family never matches.
    pub(crate) fn contains(&self, value: &str) -> bool {
        match self {
            Cidr::V4 { network, mask } => {
                value.parse::<Ipv4Addr>().map(|ip| u32::from(ip) & mask == *network).unwrap_or(false)
            }
            Cidr::V6 { network, mask } => {
                value.parse::<Ipv6Addr>().map(|ip| u128::from(ip) & mask == *network).unwrap_or(false)
            }
        }
    }
}

impl fmt::Debug for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cidr::V4 { network, mask } => {
                write!(f, "{}/{}", Ipv4Addr::from(*network), mask.count_ones())
            }
            Cidr::V6 { network, mask } => {
                write!(f, "{}/{}", Ipv6Addr::from(*network), mask.count_ones())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cidr;

    #[test]
    fn ipv4_block() {
        let block = Cidr::parse("10.0.0.0/24").unwrap();
        assert!(block.contains("10.0.0.0"));
        assert!(block.contains("10.0.0.255"));
        assert!(!block.contains("10.1.1.0"));
        assert!(!block.contains("not an ip"));
        assert!(!block.contains("::1"));
    }

    #[test]
    fn ipv6_block_and_edges() {
        let block = Cidr::parse("2001:db8::/32").unwrap();
        assert!(block.contains("2001:db8::1"));
        assert!(!block.contains("2001:db9::1"));
        assert!(Cidr::parse("0.0.0.0/0").unwrap().contains("255.255.255.255"));
        assert!(Cidr::parse("10.0.0.5/24").unwrap().contains("10.0.0.77"));
        assert!(Cidr::parse("1.2.3.4/32").unwrap().contains("1.2.3.4"));
    }

    #[test]
    fn malformed_blocks() {
        for (text, rule) in [
            ("10.0.0.0", "one '/' required"),
            ("10.0.0.0/8/8", "one '/' required"),
            ("10.0.0.0/x", "must be an integer"),
            ("10.0.0.0/", "must be an integer"),
            ("10.0.0.0/33", "between 0 and 32"),
            ("::/129", "between 0 and 128"),
            ("10.0.0/8", "Nonstandard IP address"),
            ("/8", "Nonstandard IP address"),
        ] {
            let err = Cidr::parse(text).unwrap_err();
            assert!(err.contains(rule), "{text}: {err}");
        }
    }
}
