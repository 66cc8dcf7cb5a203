//! The queue-management actions: CreateQueue, DeleteQueue, GetQueueUrl, ListQueues,
//! GetQueueAttributes, SetQueueAttributes, ListDeadLetterSourceQueues, PurgeQueue.

use super::config::{self, FifoConfig, QueueConfig};
use super::{queue_not_found, Queue};
use crate::error::{ApiError, ApiResult, Service};
use crate::event::EventKind;
use crate::ids;
use crate::params::Params;
use crate::sim::Sim;
use crate::vecmap::VecMap;
use serde_json::{json, Map, Value};

/// Without `MaxResults`, a list answers up to 1,000 queues and no `NextToken`.
const MAX_RESULTS: i64 = 1000;
/// `NextToken`s this engine gives out: readable (AWS's are opaque), naming the page's last queue.
const TOKEN_PREFIX: &str = "after:";

impl Sim {
    pub(crate) fn create_queue(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("QueueName")?;
        if !ids::valid_resource_name(name, 80) {
            return Err(Service::Sqs.invalid_value(format!(
                "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length (queue name \"{name}\")."
            )));
        }
        let attributes = p.string_map("Attributes")?;
        let fifo = attributes.get("FifoQueue").is_some_and(|v| v == "true");
        if fifo != name.ends_with(".fifo") {
            return Err(Service::Sqs.invalid_value(if fifo {
                format!("The name of a FIFO queue must end with the .fifo suffix (\"{name}\").")
            } else {
                format!("\"{name}\" ends with .fifo, which only FIFO queues may: add the attribute FifoQueue \"true\".")
            }));
        }
        if let Some(existing) = self.queues.get(name) {
            let current = existing.config.to_attributes();
            if let Some((k, _)) = attributes.iter().find(|(k, v)| current.get(*k) != Some(*v)) {
                return Err(ApiError::new(
                    "QueueNameExists",
                    format!("A queue already exists with the same name and a different value for attribute {k}"),
                ));
            }
            return Ok(json!({ "QueueUrl": existing.url() }));
        }
        if let Some(deleted_at) = self.deleted_queues.get(name) {
            if self.now.0 < deleted_at.0 + 60_000 {
                return Err(ApiError::new(
                    "QueueDeletedRecently",
                    format!("You must wait 60 seconds after deleting a queue before you can create another with the same name (\"{name}\")."),
                ));
            }
        }
        let base = QueueConfig { fifo: fifo.then(FifoConfig::default), ..QueueConfig::default() };
        let config = self.config_with(&base, &attributes, &ids::queue_arn(name))?;
        let queue = Queue::new(name, config, self.now);
        let url = queue.url();
        let key = queue.name.clone();
        self.queues.insert(key.clone(), queue);
        self.emit(EventKind::QueueCreated { queue: key });
        Ok(json!({ "QueueUrl": url }))
    }

    fn config_with(&self, base: &QueueConfig, attrs: &VecMap<String, String>, arn: &str) -> ApiResult<QueueConfig> {
        let lookup = |dlq: &str| self.queues.get(dlq).map(|q| (q.config.redrive_allow.clone(), q.fifo.is_some()));
        base.with_attributes(attrs, arn, &lookup)
    }

    pub(crate) fn delete_queue(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let mut queue = self.queues.remove(&name).expect("invariant: resolved queue exists");
        let lost = queue.clear(&mut self.timers);
        let orphaned: Vec<u64> =
            self.move_tasks.values().filter(|t| t.is_running() && t.source == name).map(|t| t.number).collect();
        for task in orphaned {
            self.end_task(task, "FAILED", Some("AWS.SimpleQueueService.NonExistentQueue".into()));
        }
        // Messages its sources held back for it (received `maxReceiveCount` times) are now
        // received as usual: their long pollers are woken.
        let arn = ids::queue_arn(&name);
        for q in self.queues.values_mut() {
            if q.config.redrive_policy.as_ref().is_some_and(|r| r.dead_letter_target_arn == arn) {
                q.receivable |= q.visible_count() > 0;
            }
        }
        self.deleted_queues.insert(name.clone(), self.now);
        self.emit(EventKind::QueueDeleted { queue: name, messages_lost: lost });
        Ok(json!({}))
    }

    pub(crate) fn get_queue_url(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("QueueName")?;
        let queue = self.queues.get(name).ok_or_else(queue_not_found)?;
        Ok(json!({ "QueueUrl": queue.url() }))
    }

    pub(crate) fn list_queues(&mut self, p: &Params) -> ApiResult<Value> {
        let prefix = p.opt_str("QueueNamePrefix")?.unwrap_or("");
        page(self.queues.values().filter(|q| q.name.starts_with(prefix)), p, "QueueUrls")
    }

    pub(crate) fn get_queue_attributes(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let wanted = p.str_list("AttributeNames")?;
        let all = self.queue_attributes(&self.queues[&name]);
        let mut out = Map::new();
        for w in &wanted {
            if *w == "All" {
                out.extend(all.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))));
            } else if let Some(v) = all.get(*w) {
                out.insert(w.to_string(), Value::String(v.clone()));
            } else if !config::is_attribute_name(w) {
                return Err(ApiError::new("InvalidAttributeName", format!("Unknown Attribute {w}.")));
            }
        }
        Ok(json!({ "Attributes": out }))
    }

    /// Every attribute GetQueueAttributes can return for a queue, as strings.
    pub(crate) fn queue_attributes(&self, q: &Queue) -> VecMap<String, String> {
        let mut m = q.config.to_attributes();
        m.insert("ApproximateNumberOfMessages".into(), q.visible_count().to_string());
        m.insert("ApproximateNumberOfMessagesNotVisible".into(), q.inflight.to_string());
        m.insert("ApproximateNumberOfMessagesDelayed".into(), q.delayed.to_string());
        m.insert("CreatedTimestamp".into(), (q.created_at.epoch_ms() / 1000).to_string());
        m.insert("LastModifiedTimestamp".into(), (q.modified_at.epoch_ms() / 1000).to_string());
        m.insert("QueueArn".into(), q.arn.to_string());
        m
    }

    pub(crate) fn set_queue_attributes(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let attributes = p.string_map("Attributes")?;
        let config = self.config_with(&self.queues[&name].config, &attributes, &ids::queue_arn(&name))?;
        let now = self.now;
        let q = self.queues.get_mut(&name).expect("invariant: resolved queue exists");
        // A new redrive policy may let a receive return what the old one would have moved on:
        // the queue's long pollers are woken to look.
        if q.config.redrive_policy != config.redrive_policy {
            q.receivable |= q.visible_count() > 0;
        }
        q.config = config;
        q.modified_at = now;
        // A new retention period applies to the messages already there.
        q.schedule_retention(&mut self.timers);
        self.emit(EventKind::QueueAttributesSet { queue: name, attributes: attributes.into_keys().collect() });
        Ok(json!({}))
    }

    pub(crate) fn list_dead_letter_source_queues(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let arn = ids::queue_arn(&name);
        let sources = self
            .queues
            .values()
            .filter(|q| q.config.redrive_policy.as_ref().is_some_and(|r| r.dead_letter_target_arn == arn));
        page(sources, p, "queueUrls")
    }

    pub(crate) fn purge_queue(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let now = self.now;
        let (q, timers) = self.queue_parts(&name);
        if q.last_purge.is_some_and(|t| now.0 < t.0 + 60_000) {
            return Err(ApiError::new(
                "PurgeQueueInProgress",
                format!("Only one PurgeQueue operation on {name} is allowed every 60 seconds."),
            ));
        }
        q.last_purge = Some(now);
        // Simplified: AWS may take up to 60 s to finish a purge; here it is immediate.
        let removed = q.clear(timers);
        q.stats.purged += removed as u64;
        self.emit(EventKind::Purged { queue: name, messages: removed });
        Ok(json!({}))
    }
}

/// One page of queue URLs, queues in name order, for ListQueues and ListDeadLetterSourceQueues
/// (SQS developer guide, "list queue pagination"): with `MaxResults`, the answer carries a
/// `NextToken` when more queues follow, and passing it back returns the next page.
fn page<'q>(queues: impl Iterator<Item = &'q Queue>, p: &Params, urls: &str) -> ApiResult<Value> {
    let max = p.opt_int("MaxResults", 1, MAX_RESULTS)?;
    let after = p.opt_str("NextToken")?.map(token_queue).transpose()?;
    let mut rest = queues.filter(|q| after.is_none_or(|last| &*q.name > last));
    let page: Vec<&Queue> = rest.by_ref().take(max.unwrap_or(MAX_RESULTS) as usize).collect();
    let mut out = Map::new();
    out.insert(urls.to_string(), page.iter().map(|q| Value::String(q.url())).collect());
    if let (Some(_), Some(last), Some(_)) = (max, page.last(), rest.next()) {
        out.insert("NextToken".into(), Value::String(format!("{TOKEN_PREFIX}{}", last.name)));
    }
    Ok(Value::Object(out))
}

/// The queue name a `NextToken` continues after. A token this engine did not give out is
/// refused with InvalidParameterValue (the API reference lists no error of its own for it).
fn token_queue(token: &str) -> ApiResult<&str> {
    token.strip_prefix(TOKEN_PREFIX).filter(|name| ids::valid_resource_name(name, 80)).ok_or_else(|| {
        Service::Sqs.invalid_value(format!(
            "Value {token} for parameter NextToken is invalid. Reason: pass the NextToken of the previous page unchanged."
        ))
    })
}
