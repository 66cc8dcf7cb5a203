//! ReceiveMessage, DeleteMessage and ChangeMessageVisibility (single and batch), and the timers
//! that move messages between states: visibility timeout, delay, retention.

use super::received::{message_json, Received, SYSTEM_ATTRIBUTES};
use super::{batch_entries, queue::parse_receipt_handle, Incoming, MsgState, Queue};
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids;
use crate::params::Params;
use crate::sim::Sim;
use crate::time::{HOUR, SECOND};
use serde_json::{json, Map, Value};

/// How long a ReceiveRequestAttemptId can be repeated.
const ATTEMPT_WINDOW_MS: u64 = 5 * crate::time::MINUTE;

/// Visibility may be extended up to 12 hours from the receive that produced the handle.
const MAX_VISIBILITY_MS: u64 = 12 * HOUR;

/// DeleteMessage and its batch entries name the message the same way.
const DELETE_FIELDS: &[&str] = &["ReceiptHandle"];
pub(crate) const DELETE_PARAMS: &[&str] = crate::actions::names!(&["QueueUrl"], DELETE_FIELDS);
const DELETE_ENTRY_PARAMS: &[&str] = crate::actions::names!(&["Id"], DELETE_FIELDS);
/// ChangeMessageVisibility and its batch entries take the same fields.
const VISIBILITY_FIELDS: &[&str] = &["ReceiptHandle", "VisibilityTimeout"];
pub(crate) const VISIBILITY_PARAMS: &[&str] = crate::actions::names!(&["QueueUrl"], VISIBILITY_FIELDS);
const VISIBILITY_ENTRY_PARAMS: &[&str] = crate::actions::names!(&["Id"], VISIBILITY_FIELDS);

fn invalid_handle(handle: &str) -> ApiError {
    ApiError::new(
        "ReceiptHandleIsInvalid",
        format!("The input receipt handle \"{handle}\" is not a valid receipt handle."),
    )
}

/// What a receipt handle points at, once checked against the queue.
enum Handle {
    /// The handle of the latest receive of a stored copy.
    Current(u64),
    /// A handle from an earlier receive of a copy that has been received again since.
    Stale(u64),
    /// A handle of a copy that is no longer in the queue (deleted, moved or expired).
    Gone,
}

impl Sim {
    fn resolve_handle(&self, queue: &Queue, handle: &str) -> ApiResult<Handle> {
        let (key, generation) = parse_receipt_handle(handle).ok_or_else(|| invalid_handle(handle))?;
        if generation == 0 || key == 0 || key > self.counters.copy {
            return Err(invalid_handle(handle));
        }
        match queue.messages.get(&key) {
            Some(m) if m.receive_count == generation => Ok(Handle::Current(key)),
            Some(m) if m.receive_count > generation => Ok(Handle::Stale(key)),
            Some(_) => Err(invalid_handle(handle)),
            None => Ok(Handle::Gone),
        }
    }

    pub(crate) fn receive_message(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let max = p.opt_int("MaxNumberOfMessages", 1, 10)?.unwrap_or(1) as usize;
        let timeout = p.opt_int("VisibilityTimeout", 0, 43_200)?;
        // Long polling: in a scenario a receive answers at once with what is visible now.
        // The simulated workers wait in virtual time instead.
        p.opt_int("WaitTimeSeconds", 0, 20)?;
        let mut system = p.str_list("AttributeNames")?;
        system.extend(p.str_list("MessageSystemAttributeNames")?);
        if let Some(bad) = system.iter().find(|n| !SYSTEM_ATTRIBUTES.contains(n)) {
            return Err(ApiError::new("InvalidAttributeName", format!("Unknown Attribute {bad}.")));
        }
        let user = p.str_list("MessageAttributeNames")?;
        let attempt = p.opt_str("ReceiveRequestAttemptId")?;
        let keys = self.receive_keys(&name, max, timeout.map(|t| t as u32), attempt)?;
        let q = &self.queues[&name];
        let messages = keys.iter().map(|k| message_json(&q.messages[k], &system, &user)).collect();
        let mut out = Map::new();
        out.insert("Messages".into(), Value::Array(messages));
        Ok(Value::Object(out))
    }

    /// ReceiveMessage for the engine's own actors (workers, Lambda pollers): up to `max`
    /// messages, hidden for `visibility_timeout` seconds (the queue's own when `None`).
    pub(crate) fn receive(
        &mut self,
        queue: &Name,
        max: usize,
        visibility_timeout: Option<u32>,
    ) -> ApiResult<Vec<Received>> {
        let queue = self.queue_ref(queue)?;
        let keys = self.receive_keys(&queue, max.clamp(1, 10), visibility_timeout, None)?;
        let q = &self.queues[&queue];
        Ok(keys.iter().map(|k| Received::of(&q.messages[k])).collect())
    }

    /// The receive itself: the keys of the copies it put in flight, in the order received.
    fn receive_keys(
        &mut self,
        name: &Name,
        max: usize,
        visibility_timeout: Option<u32>,
        attempt: Option<&str>,
    ) -> ApiResult<Vec<u64>> {
        let timeout_s = visibility_timeout.unwrap_or(self.queues[name].config.visibility_timeout);
        let timeout_ms = u64::from(timeout_s) * SECOND;
        if self.queues[name].fifo.is_some() {
            self.fifo_quota(name, "Receive", None)?;
            if let Some(repeat) = attempt.and_then(|a| self.repeat_attempt(name, a)) {
                return Ok(repeat);
            }
            self.count_call(name, "Receive", None);
            return Ok(self.receive_fifo(name, max, timeout_ms, attempt));
        }
        if self.queues[name].config.redrive_policy.is_some() {
            let mut keys = Vec::new();
            while keys.len() < max {
                let Some(&(_, key)) = self.queues[name].visible.first() else { break };
                if self.redrive_if_exhausted(name, key) {
                    continue;
                }
                keys.push(self.receive_one(name, key, timeout_ms));
            }
            return Ok(keys);
        }
        // No redrive policy: nothing can move to a dead-letter queue during this receive, so
        // the queue is looked up once and the events are written after the loop (in order).
        let now = self.now;
        let until = now.plus_ms(timeout_ms);
        let (q, timers) = self.queue_parts(name);
        let mut keys = Vec::with_capacity(max.min(q.visible.len()));
        while keys.len() < max {
            let Some(&(_, key)) = q.visible.first() else { break };
            receive_in(q, timers, key, now, until);
            keys.push(key);
        }
        if self.record_events {
            for key in &keys {
                self.emit_received(name, *key, until);
            }
        }
        Ok(keys)
    }

    fn emit_received(&mut self, name: &Name, key: u64, until: crate::time::SimTime) {
        let msg = &self.queues[name].messages[&key];
        let (message_id, receive_count, receipt_handle) = (msg.id, msg.receive_count, msg.receipt_handle());
        self.emit(EventKind::Received {
            queue: name.clone(),
            message_id,
            receive_count,
            receipt_handle,
            visible_again_at: until,
        });
    }

    /// FIFO: serves message groups in the order of their oldest visible message. From a group,
    /// as many messages as fit are returned together, in order, up to the group's first message
    /// in flight: a message waits while an earlier message of its group is in flight (AWS,
    /// observed), and a group whose first message is in flight gives nothing.
    fn receive_fifo(&mut self, name: &Name, max: usize, timeout_ms: u64, attempt: Option<&str>) -> Vec<u64> {
        let mut messages = Vec::new();
        let mut received = Vec::new();
        while messages.len() < max {
            let fifo = self.queues[name].fifo.as_ref().expect("invariant: receive_fifo runs on FIFO queues");
            let Some((_, group)) = fifo.heads.first().cloned() else { break };
            // Fixed before this receive puts any of the group's messages in flight.
            let before = fifo.groups.get(&group).and_then(|g| g.receivable_before());
            while messages.len() < max {
                let fifo = self.queues[name].fifo.as_ref().expect("invariant: FIFO queue");
                let next = fifo.groups.get(&group).and_then(|g| g.visible.first()).copied();
                let Some((_, key)) = next.filter(|(order, _)| before.is_none_or(|b| *order < b)) else { break };
                if self.redrive_if_exhausted(name, key) {
                    continue;
                }
                messages.push(self.receive_one(name, key, timeout_ms));
                received.push((key, self.queues[name].messages[&key].receive_count));
            }
        }
        if let Some(a) = attempt {
            let now = self.now;
            if let Some(f) = self.queue_mut(name).fifo.as_mut() {
                f.attempts.retain(|_, (at, _)| now.0 < at.0 + ATTEMPT_WINDOW_MS);
                f.attempts.insert(a.to_string(), (now, received));
            }
        }
        messages
    }

    /// ReceiveRequestAttemptId (FIFO): repeating a receive with the same attempt id within five
    /// minutes returns the same messages and receipt handles, as long as they are still in flight
    /// from that receive; otherwise the receive runs anew.
    fn repeat_attempt(&self, name: &Name, attempt: &str) -> Option<Vec<u64>> {
        let q = &self.queues[name];
        let (at, copies) = q.fifo.as_ref()?.attempts.get(attempt)?;
        if self.now.0 >= at.0 + ATTEMPT_WINDOW_MS {
            return None;
        }
        copies
            .iter()
            .map(|(key, count)| {
                let m = q.messages.get(key)?;
                let in_flight = matches!(m.state, MsgState::InFlight { .. });
                (in_flight && m.receive_count == *count).then_some(*key)
            })
            .collect()
    }

    /// The dead-letter queue a receive now would move this visible copy to instead of returning
    /// it: its queue has a redrive policy, the copy was received `maxReceiveCount` times already,
    /// and the dead-letter queue exists (simplified: if it was deleted since, the copy is received
    /// as usual).
    fn exhausted_to(&self, name: &Name, key: u64) -> Option<Name> {
        let q = &self.queues[name];
        let policy = q.config.redrive_policy.as_ref()?;
        if q.messages.get(&key)?.receive_count < policy.max_receive_count {
            return None;
        }
        ids::queue_name_from(&policy.dead_letter_target_arn).and_then(|n| self.queue_ref(n).ok())
    }

    /// Moves a message to its queue's dead-letter queue instead of returning it, when this
    /// receive would exceed `maxReceiveCount`. As on AWS, this happens lazily, during a receive.
    fn redrive_if_exhausted(&mut self, name: &Name, key: u64) -> bool {
        let Some(dlq) = self.exhausted_to(name, key) else { return false };
        let source_arn = self.queues[name].arn.clone();
        let dlq_fifo = self.queues[&dlq].fifo.is_some();
        let (q, timers) = self.queue_parts(name);
        let msg = q.remove(key, timers).expect("invariant: visible message exists");
        q.stats.moved_to_dead_letter_queue += 1;
        q.schedule_retention(timers);
        let receive_count = msg.receive_count;
        let mut incoming = Incoming::new(msg.body, msg.attributes, msg.sender);
        incoming.md5 = Some(msg.md5);
        // A standard queue's dead-letter queue keeps the message id and its original enqueue
        // time, so retention keeps counting from the first send. A FIFO dead-letter queue resets
        // the enqueue time, and the deduplication id becomes the message id.
        incoming.id = Some(msg.id);
        incoming.sent_at = (!dlq_fifo).then_some(msg.sent_at);
        incoming.group = msg.group.clone();
        incoming.dedup_id = dlq_fifo.then(|| msg.id.to_string().into());
        incoming.sns_id = msg.sns_id;
        incoming.dead_letter_source = Some(source_arn);
        incoming.trace_header = msg.trace_header;
        // The receive count goes with the message (AWS, observed: a message received once and
        // moved shows ApproximateReceiveCount 2 at its first receive from the dead-letter queue).
        // A queue that is its own dead-letter queue (AWS accepts such a policy; what follows is
        // not documented): the message goes to the back of the queue like a move to any other
        // dead-letter queue, with its receive count reset, so it is not moved again at once.
        let to_itself = dlq == *name;
        incoming.receive_count = if to_itself { 0 } else { msg.receive_count };
        incoming.first_receive_at = if to_itself { None } else { msg.first_receive_at };
        let woken_before = self.queues[&dlq].receivable;
        self.store(&dlq, incoming);
        // A dead-letter queue whose own redrive policy would move the message on at its next
        // receive (a redrive cycle: `a` → `b` → `a`) does not wake its long pollers for it: their
        // poll would return nothing either way. The message waits there for the queue's next
        // receive, which moves it on; so a cycle moves it one queue per receive call, never in a
        // chain of wakes at one virtual moment.
        let key = self.counters.copy;
        if self.exhausted_to(&dlq, key).is_some() {
            self.queue_mut(&dlq).receivable = woken_before;
        }
        // Not counted in the dead-letter queue's NumberOfMessagesSent, as on AWS.
        self.queue_mut(&dlq).stats.arrived_from_redrive += 1;
        self.emit(EventKind::MovedToDeadLetterQueue {
            queue: name.clone(),
            dead_letter_queue: dlq,
            message_id: msg.id,
            receive_count,
        });
        true
    }

    /// Receives one visible copy for `timeout_ms`; its key.
    fn receive_one(&mut self, name: &Name, key: u64, timeout_ms: u64) -> u64 {
        let now = self.now;
        let until = now.plus_ms(timeout_ms);
        let (q, timers) = self.queue_parts(name);
        receive_in(q, timers, key, now, until);
        if self.record_events {
            self.emit_received(name, key, until);
        }
        key
    }

    pub(crate) fn delete_message(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        self.delete(&name, p.str("ReceiptHandle")?)?;
        Ok(json!({}))
    }

    /// DeleteMessage, for the JSON action and the engine's own actors alike.
    pub(crate) fn delete(&mut self, name: &Name, receipt_handle: &str) -> ApiResult<()> {
        self.fifo_quota(name, "Delete", None)?;
        let handle = self.resolve_for_fifo(name, receipt_handle)?;
        self.count_call(name, "Delete", None);
        self.delete_resolved(name, handle);
        Ok(())
    }

    /// DeleteMessageBatch for the engine's own actors: one call (one FIFO quota unit) deleting
    /// each handle; a handle that fails does so on its own.
    pub(crate) fn delete_messages(&mut self, name: &Name, receipt_handles: &[String]) -> ApiResult<Vec<ApiResult<()>>> {
        self.fifo_quota(name, "Delete", None)?;
        self.count_call(name, "Delete", None);
        let mut results = Vec::with_capacity(receipt_handles.len());
        for h in receipt_handles {
            let resolved = self.resolve_for_fifo(name, h);
            results.push(resolved.map(|handle| self.delete_resolved(name, handle)));
        }
        Ok(results)
    }

    /// Resolves a handle; on a FIFO queue, a handle whose message is no longer in flight from
    /// that receive has expired, which is an error (a standard queue answers success instead).
    fn resolve_for_fifo(&self, name: &Name, handle: &str) -> ApiResult<Handle> {
        let q = &self.queues[name];
        let resolved = self.resolve_handle(q, handle)?;
        if q.fifo.is_none() {
            return Ok(resolved);
        }
        let expired = match resolved {
            Handle::Current(key) => !matches!(q.messages[&key].state, MsgState::InFlight { .. }),
            Handle::Stale(_) => true,
            Handle::Gone => false,
        };
        if expired {
            return Err(Service::Sqs.invalid_value(format!(
                "Value {handle} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired."
            )));
        }
        Ok(resolved)
    }

    fn delete_resolved(&mut self, name: &Name, handle: Handle) {
        match handle {
            Handle::Current(key) => {
                let (q, timers) = self.queue_parts(name);
                let msg = q.remove(key, timers).expect("invariant: current handle's message exists");
                q.stats.deleted += 1;
                q.schedule_retention(timers);
                self.emit(EventKind::Deleted { queue: name.clone(), message_id: msg.id });
            }
            // AWS: the request succeeds, but the message might not be deleted; you must use the
            // handle of the most recent receive. The playground does not delete it, to show why.
            Handle::Stale(key) => {
                let id = self.queues[name].messages[&key].id;
                let reason = "the receipt handle is from an earlier receive; use the latest one".to_string();
                self.emit(EventKind::DeleteIgnored { queue: name.clone(), message_id: id, reason });
            }
            // Deleting a message that is already gone succeeds and changes nothing.
            Handle::Gone => {}
        }
    }

    pub(crate) fn delete_message_batch(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let entries = batch_entries(p, "Entries")?;
        self.fifo_quota(&name, "Delete", None)?;
        self.count_call(&name, "Delete", None);
        let mut successful = Vec::with_capacity(entries.len());
        let mut failed = Vec::new();
        for (id, entry) in entries {
            let resolved = Params::new(Service::Sqs, "DeleteMessageBatch entry", entry, DELETE_ENTRY_PARAMS)
                .and_then(|ep| self.resolve_for_fifo(&name, ep.str("ReceiptHandle")?));
            match resolved {
                Ok(handle) => {
                    self.delete_resolved(&name, handle);
                    let mut entry = Map::new();
                    entry.insert("Id".into(), Value::String(id.to_string()));
                    successful.push(Value::Object(entry));
                }
                Err(e) => failed.push(json!({"Id": id, "SenderFault": true, "Code": e.code, "Message": e.message})),
            }
        }
        let mut out = Map::new();
        out.insert("Successful".into(), Value::Array(successful));
        out.insert("Failed".into(), Value::Array(failed));
        Ok(Value::Object(out))
    }

    pub(crate) fn change_message_visibility(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        self.change_visibility_as_asked(&name, p)?;
        Ok(json!({}))
    }

    /// ChangeMessageVisibility as a call or a batch entry asks it: `ReceiptHandle` and
    /// `VisibilityTimeout` (0 to 43,200 seconds, required).
    fn change_visibility_as_asked(&mut self, name: &Name, p: &Params) -> ApiResult<()> {
        let handle = p.str("ReceiptHandle")?;
        let timeout =
            p.opt_int("VisibilityTimeout", 0, 43_200)?.ok_or_else(|| Service::Sqs.missing("VisibilityTimeout"))?;
        self.change_visibility(name, handle, timeout as u64)
    }

    /// Sets a new visibility timeout, counted from now, for an in-flight message.
    pub(crate) fn change_visibility(&mut self, name: &Name, handle: &str, timeout_s: u64) -> ApiResult<()> {
        let key = match self.resolve_handle(&self.queues[name], handle)? {
            Handle::Current(key) => key,
            // AWS answers success and changes nothing for the handle of an earlier receive.
            Handle::Stale(_) => return Ok(()),
            Handle::Gone => {
                return Err(ApiError::new(
                    "InvalidParameterValue",
                    format!("Value {handle} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change."),
                ))
            }
        };
        let now = self.now;
        let (q, timers) = self.queue_parts(name);
        let MsgState::InFlight { since, .. } = q.messages[&key].state else {
            // Its visibility timeout already ran out: success, and it stays visible.
            return Ok(());
        };
        let until = now.plus_secs(timeout_s);
        if until.0 - since.0 > MAX_VISIBILITY_MS {
            return Err(ApiError::new(
                "InvalidParameterValue",
                format!("Value {timeout_s} for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the limit [43200 seconds]"),
            ));
        }
        let id = q.messages[&key].id;
        if timeout_s == 0 {
            q.set_state(key, MsgState::Visible, timers);
            self.emit(EventKind::VisibilityChanged { queue: name.clone(), message_id: id, visible_again_at: now });
        } else {
            q.set_state(key, MsgState::InFlight { since, until }, timers);
            self.emit(EventKind::VisibilityChanged { queue: name.clone(), message_id: id, visible_again_at: until });
        }
        Ok(())
    }

    pub(crate) fn change_message_visibility_batch(&mut self, p: &Params) -> ApiResult<Value> {
        let name = self.queue_ref(p.str("QueueUrl")?)?;
        let entries = batch_entries(p, "Entries")?;
        self.fifo_quota(&name, "ChangeMessageVisibility", None)?;
        self.count_call(&name, "ChangeMessageVisibility", None);
        let mut successful = Vec::new();
        let mut failed = Vec::new();
        for (id, entry) in entries {
            let result =
                Params::new(Service::Sqs, "ChangeMessageVisibilityBatch entry", entry, VISIBILITY_ENTRY_PARAMS)
                    .and_then(|ep| self.change_visibility_as_asked(&name, &ep));
            match result {
                Ok(()) => successful.push(json!({ "Id": id })),
                Err(e) => failed.push(json!({"Id": id, "SenderFault": true, "Code": e.code, "Message": e.message})),
            }
        }
        Ok(json!({ "Successful": successful, "Failed": failed }))
    }

    pub(crate) fn on_visibility_timeout(&mut self, name: &Name, key: u64) {
        let Some(q) = self.queues.get_mut(name) else { return };
        let Some(msg) = q.messages.get_mut(&key) else { return };
        msg.state_timer = None;
        let (id, receive_count) = (msg.id, msg.receive_count);
        q.set_state(key, MsgState::Visible, &mut self.timers);
        // AWS: in a standard queue, a message received three or more times without being
        // deleted moves to the back of the queue. Following the project's source, this applies
        // when the redrive policy's maxReceiveCount is above 3 (the CloudWatch metrics page
        // states it without that condition).
        let to_back = q.fifo.is_none()
            && receive_count >= 3
            && q.config.redrive_policy.as_ref().is_some_and(|r| r.max_receive_count > 3);
        if to_back {
            q.move_to_back(key);
        }
        self.emit(EventKind::VisibilityExpired {
            queue: name.clone(),
            message_id: id,
            receive_count,
            moved_to_back: to_back,
        });
    }

    pub(crate) fn on_delay_end(&mut self, name: &Name, key: u64) {
        let Some(q) = self.queues.get_mut(name) else { return };
        let Some(msg) = q.messages.get_mut(&key) else { return };
        msg.state_timer = None;
        let id = msg.id;
        q.set_state(key, MsgState::Visible, &mut self.timers);
        self.emit(EventKind::DelayEnded { queue: name.clone(), message_id: id });
    }

    /// Deletes every message whose retention period has run out, oldest first, whatever its
    /// state (in flight too), then arms the timer for the next oldest.
    pub(crate) fn on_retention(&mut self, name: &Name) {
        let now = self.now;
        let Some(q) = self.queues.get_mut(name) else { return };
        q.retention_timer = None;
        let retention_ms = u64::from(q.config.retention_period) * SECOND;
        let mut expired = Vec::new();
        while let Some(&(sent, key)) = q.by_sent.first() {
            if sent + retention_ms > now.0 {
                break;
            }
            let msg = q.remove(key, &mut self.timers).expect("invariant: indexed message exists");
            q.stats.expired += 1;
            expired.push((msg.id, now.0 - sent));
        }
        q.schedule_retention(&mut self.timers);
        for (id, age_ms) in expired {
            self.emit(EventKind::ExpiredByRetention { queue: name.clone(), message_id: id, age_ms });
        }
    }
}

/// Receives one visible copy: counts it and puts it in flight until `until`.
fn receive_in(
    q: &mut Queue,
    timers: &mut crate::timers::Timers,
    key: u64,
    now: crate::time::SimTime,
    until: crate::time::SimTime,
) {
    q.stats.received += 1;
    let msg = q.messages.get_mut(&key).expect("invariant: visible message exists");
    msg.receive_count += 1;
    msg.first_receive_at.get_or_insert(now);
    q.set_state(key, MsgState::InFlight { since: now, until }, timers);
}
