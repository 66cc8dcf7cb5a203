//! CloudFormation logical ids from resource names: `order-events` (a topic) is `OrderEventsTopic`.
//! Letters and digits only, as CloudFormation requires; the same state always gets the same ids.
//! Two names that read the same in CamelCase (`sms-dlq`, `sms_dlq`) do not collide: the first one
//! assigned keeps the plain id, the next gets eight hex digits of the SHA-256 of its own key, so
//! its id does not depend on which other names exist.

use super::quote::camel;
use crate::vecmap::{VecMap, VecSet};
use sha2::{Digest, Sha256};

/// Room left for the kind and a suffix under CloudFormation's 255 characters.
const MAX_BASE: usize = 200;

#[derive(Clone, Debug, Default)]
pub struct LogicalIds {
    used: VecSet<String>,
    by_key: VecMap<String, String>,
}

impl LogicalIds {
    /// The id for `key` (unique per resource, e.g. `queue:billing`), made from `names` (joined,
    /// in CamelCase) and the kind (`Queue`). Asking twice for one key gives the same id.
    pub fn assign(&mut self, key: &str, names: &[&str], kind: &str) -> String {
        if let Some(id) = self.by_key.get(key) {
            return id.clone();
        }
        let mut base: String = names.iter().map(|n| camel(n)).collect::<Vec<_>>().join("To");
        base.truncate(MAX_BASE);
        if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            base.insert(0, 'R');
        }
        self.assign_base(key, base, kind)
    }

    /// The id for `key`, made from the id of `owner` (already assigned) and a kind: the policy
    /// of queue `WeirdDlqDB591E56Queue` is `WeirdDlqDB591E56QueuePolicy`.
    pub fn derive(&mut self, key: &str, owner: &str, kind: &str) -> String {
        if let Some(id) = self.by_key.get(key) {
            return id.clone();
        }
        let base = self.by_key.get(owner).cloned().unwrap_or_else(|| "R".to_string());
        self.assign_base(key, base, kind)
    }

    fn assign_base(&mut self, key: &str, base: String, kind: &str) -> String {
        let plain = format!("{base}{kind}");
        let id = if self.used.contains(&plain) { self.suffixed(key, &base, kind) } else { plain };
        self.used.insert(id.clone());
        self.by_key.insert(key.to_string(), id.clone());
        id
    }

    /// The id already assigned to `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.by_key.get(key).map(String::as_str)
    }

    fn suffixed(&self, key: &str, base: &str, kind: &str) -> String {
        let digest = Sha256::digest(key.as_bytes());
        let hex: String = digest.iter().take(4).map(|b| format!("{b:02X}")).collect();
        let mut id = format!("{base}{hex}{kind}");
        let mut n = 2u32;
        while self.used.contains(&id) {
            id = format!("{base}{hex}N{n}{kind}");
            n += 1;
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_camel_case_and_collisions_get_a_suffix_of_their_own() {
        let mut ids = LogicalIds::default();
        assert_eq!(ids.assign("queue:sms-dlq", &["sms-dlq"], "Queue"), "SmsDlqQueue");
        let other = ids.assign("queue:sms_dlq", &["sms_dlq"], "Queue");
        assert!(other.starts_with("SmsDlq") && other.ends_with("Queue") && other != "SmsDlqQueue", "{other}");
        assert!(other.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(ids.assign("queue:sms_dlq", &["sms_dlq"], "Queue"), other, "asking again gives the same id");
        assert_eq!(ids.assign("alarm:×", &["×"], "Alarm"), "RAlarm");
        assert_eq!(ids.assign("queue:1st", &["1st"], "Queue"), "R1stQueue");
        assert_eq!(
            ids.assign("sub:a>b", &["order-events", "billing"], "Subscription"),
            "OrderEventsToBillingSubscription"
        );
    }
}
