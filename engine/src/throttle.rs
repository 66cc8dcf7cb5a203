//! Request-rate quotas in virtual time, for FIFO queues and topics: a count of calls per
//! one-second window of virtual time, per key (a queue and an action, or a message group).
//! Simplified: AWS spreads its limits over partitions and bursts; the playground counts whole
//! virtual seconds. Only calls that succeed count.

use crate::time::{SimTime, SECOND};
use crate::vecmap::VecMap;

#[derive(Clone, Debug, Default)]
pub struct RateWindows {
    /// key → (virtual second, calls in it)
    windows: VecMap<String, (u64, u32)>,
}

impl RateWindows {
    /// Whether one more call under `key` fits in `limit` calls per second now.
    pub fn allows(&self, key: &str, now: SimTime, limit: u32) -> bool {
        let second = now.0 / SECOND;
        match self.windows.get(key) {
            Some((s, n)) if *s == second => *n < limit,
            _ => true,
        }
    }

    pub fn count(&mut self, key: &str, now: SimTime) {
        let second = now.0 / SECOND;
        let entry = self.windows.entry(key.to_string()).or_insert((second, 0));
        if entry.0 != second {
            *entry = (second, 0);
        }
        entry.1 += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_fills_and_the_next_second_starts_empty() {
        let mut r = RateWindows::default();
        for _ in 0..3 {
            assert!(r.allows("k", SimTime(500), 3));
            r.count("k", SimTime(500));
        }
        assert!(!r.allows("k", SimTime(999), 3));
        assert!(r.allows("other", SimTime(999), 3));
        assert!(r.allows("k", SimTime(1000), 3));
    }
}
