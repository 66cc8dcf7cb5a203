//! Dead-letter queue redrive: StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask.
//! A task moves the messages that were in the dead-letter queue when it started, one at a time
//! at `MaxNumberOfMessagesPerSecond`, back to their source queues or to a named destination.

use super::Incoming;
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids;
use crate::params::Params;
use crate::sim::Sim;
use crate::time::{SimTime, SECOND};
use crate::timers::Timer;
use serde_json::{json, Value};

/// The rate used when a task names none ("system optimized" on AWS; a fixed figure here).
const DEFAULT_RATE: u32 = 100;

#[derive(Clone, Debug)]
pub(crate) struct MoveTask {
    pub number: u64,
    pub source: Name,
    pub destination: Option<Name>,
    pub rate: Option<u32>,
    pub status: &'static str,
    pub to_move: usize,
    pub moved: usize,
    pub started_at: SimTime,
    pub failure: Option<String>,
}

impl MoveTask {
    pub fn handle(&self) -> String {
        format!("task-{}", self.number)
    }

    pub fn is_running(&self) -> bool {
        self.status == "RUNNING"
    }

    fn interval_ms(&self) -> u64 {
        (SECOND / u64::from(self.rate.unwrap_or(DEFAULT_RATE))).max(1)
    }
}

fn not_found(what: &str) -> ApiError {
    ApiError::new(
        "ResourceNotFoundException",
        format!("The resource that you specified for the {what} parameter doesn't exist."),
    )
}

impl Sim {
    fn queue_by_arn(&self, arn: &str, what: &str) -> ApiResult<Name> {
        match ids::queue_name_from(arn) {
            Some(name) if arn.starts_with("arn:") => self.queue_ref(name).map_err(|_| not_found(what)),
            _ => Err(Service::Sqs.invalid_value(format!(
                "Value {arn} for parameter {what} is invalid. Reason: it must be a queue ARN."
            ))),
        }
    }

    pub(crate) fn start_message_move_task(&mut self, p: &Params) -> ApiResult<Value> {
        let source = self.queue_by_arn(p.str("SourceArn")?, "SourceArn")?;
        let destination = p.opt_str("DestinationArn")?.map(|d| self.queue_by_arn(d, "DestinationArn")).transpose()?;
        // SQS developer guide, "Configure a dead-letter queue redrive": any other queue may be the
        // destination "if both queues are the same type" (a FIFO DLQ redrives to a FIFO queue).
        let fifo = |q: &Name| self.queues[q].fifo.is_some();
        if destination.as_ref().is_some_and(|d| fifo(d) != fifo(&source)) {
            return Err(Service::Sqs.invalid_value(
                "The source queue and the destination queue must be of the same type: both standard, or both FIFO.",
            ));
        }
        let rate = p.opt_int("MaxNumberOfMessagesPerSecond", 1, 500)?.map(|r| r as u32);
        let source_arn = ids::queue_arn(&source);
        let is_dlq = self
            .queues
            .values()
            .any(|q| q.config.redrive_policy.as_ref().is_some_and(|r| r.dead_letter_target_arn == source_arn));
        if !is_dlq {
            return Err(Service::Sqs.invalid_value("Source queue must be configured as a Dead Letter Queue."));
        }
        if self.move_tasks.values().any(|t| t.is_running() && t.source == source) {
            return Err(Service::Sqs.invalid_value(
                "There is already a task running. Only one active task is allowed for a source queue arn at a given time.",
            ));
        }
        self.counters.move_task += 1;
        let task = MoveTask {
            number: self.counters.move_task,
            source: source.clone(),
            destination: destination.clone(),
            rate,
            status: "RUNNING",
            to_move: self.queues[&source].visible_count(),
            moved: 0,
            started_at: self.now,
            failure: None,
        };
        let handle = task.handle();
        let first = self.now.plus_ms(task.interval_ms());
        self.emit(EventKind::MoveTaskStarted { task: handle.clone(), source, destination, to_move: task.to_move });
        self.timers.schedule(first, Timer::MoveTaskTick { task: task.number });
        self.move_tasks.insert(task.number, task);
        Ok(json!({ "TaskHandle": handle }))
    }

    pub(crate) fn on_move_task_tick(&mut self, number: u64) {
        let Some(task) = self.move_tasks.get(&number).filter(|t| t.is_running()).cloned() else { return };
        let Some(q) = self.queues.get(&task.source) else { return };
        let next = q.visible.first().map(|&(_, key)| key);
        let Some(key) = next.filter(|_| task.moved < task.to_move) else {
            return self.end_task(number, "COMPLETED", None);
        };
        let origin = q.messages[&key].dead_letter_source.clone();
        // A destination deleted while the task runs fails the task, as on AWS.
        let target = match (&task.destination, origin) {
            (Some(d), _) => self.queue_ref(d).ok(),
            (None, Some(src)) => ids::queue_name_from(&src).and_then(|n| self.queue_ref(n).ok()),
            (None, None) => None,
        };
        let Some(target) = target else {
            return self.end_task(number, "FAILED", Some("AWS.SimpleQueueService.NonExistentQueue".into()));
        };
        let (source, timers) = self.queue_parts(&task.source);
        let msg = source.remove(key, timers).expect("invariant: visible message exists");
        source.schedule_retention(timers);
        // Redrive makes a new message: a new id, a new enqueue time (retention starts again)
        // and a receive count from zero.
        let mut incoming = Incoming::new(msg.body, msg.attributes, msg.sender);
        incoming.sns_id = msg.sns_id;
        incoming.md5 = Some(msg.md5);
        incoming.trace_header = msg.trace_header;
        // A FIFO message moves with its message group (and deduplication id), FIFO to FIFO.
        if self.queues[&target].fifo.is_some() {
            incoming.group = msg.group;
            incoming.dedup_id = msg.dedup_id;
        }
        let new_id = self.store(&target, incoming);
        if let Some(t) = self.move_tasks.get_mut(&number) {
            t.moved += 1;
        }
        self.emit(EventKind::MessageMoved {
            task: task.handle(),
            source: task.source.clone(),
            destination: target,
            message_id: msg.id,
            new_message_id: new_id,
        });
        let next_at = self.now.plus_ms(task.interval_ms());
        self.timers.schedule(next_at, Timer::MoveTaskTick { task: number });
    }

    pub(crate) fn end_task(&mut self, number: u64, status: &'static str, reason: Option<String>) {
        let Some(task) = self.move_tasks.get_mut(&number) else { return };
        task.status = status;
        task.failure = reason.clone();
        let (handle, moved) = (task.handle(), task.moved);
        self.emit(EventKind::MoveTaskEnded { task: handle, status, moved, reason });
    }

    pub(crate) fn list_message_move_tasks(&mut self, p: &Params) -> ApiResult<Value> {
        let source = self.queue_by_arn(p.str("SourceArn")?, "SourceArn")?;
        let max = p.opt_int("MaxResults", 1, 10)?.unwrap_or(1) as usize;
        let results: Vec<Value> = self
            .move_tasks
            .values()
            .rev()
            .filter(|t| t.source == source)
            .take(max)
            .map(|t| {
                let mut r = json!({
                    "Status": t.status,
                    "SourceArn": ids::queue_arn(&t.source),
                    "ApproximateNumberOfMessagesMoved": t.moved,
                    "ApproximateNumberOfMessagesToMove": t.to_move,
                    "StartedTimestamp": t.started_at.epoch_ms(),
                });
                if t.is_running() {
                    r["TaskHandle"] = json!(t.handle());
                }
                if let Some(d) = &t.destination {
                    r["DestinationArn"] = json!(ids::queue_arn(d));
                }
                if let Some(rate) = t.rate {
                    r["MaxNumberOfMessagesPerSecond"] = json!(rate);
                }
                if let Some(f) = &t.failure {
                    r["FailureReason"] = json!(f);
                }
                r
            })
            .collect();
        Ok(json!({ "Results": results }))
    }

    pub(crate) fn cancel_message_move_task(&mut self, p: &Params) -> ApiResult<Value> {
        let handle = p.str("TaskHandle")?;
        let number = handle
            .strip_prefix("task-")
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| Service::Sqs.invalid_value("Value for parameter TaskHandle is invalid."))?;
        let task = self
            .move_tasks
            .get(&number)
            .ok_or_else(|| ApiError::new("ResourceNotFoundException", "Task does not exist."))?;
        if !task.is_running() {
            return Err(Service::Sqs
                .invalid_value(format!("The task {handle} is {} and can no longer be cancelled.", task.status)));
        }
        let moved = task.moved;
        // Simplified: AWS passes through CANCELLING; here the task stops at once.
        self.end_task(number, "CANCELLED", None);
        Ok(json!({ "ApproximateNumberOfMessagesMoved": moved }))
    }
}
