//! What the playground's actors want done, as data. An actor does not call the SQS or SNS
//! handlers itself: it returns [`Command`]s, and [`Sim::perform`] runs them in one place, which
//! stamps the actor's cause on everything they log (the shape of stateright's `Out`). Receiving
//! is the one call that answers an actor directly ([`Sim::receive_as`]), with typed messages:
//! nothing is written to JSON and parsed back.

use crate::attributes::MessageAttributes;
use crate::error::ApiResult;
use crate::event::Name;
use crate::sim::Sim;
use crate::sqs::Received;

/// One thing an actor wants done, in AWS terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// DeleteMessage with the handle of the actor's own receive.
    Delete { queue: Name, receipt_handle: String },
    /// DeleteMessageBatch: one call per ten handles, as Lambda's poller deletes.
    DeleteBatch { queue: Name, receipt_handles: Vec<String> },
    /// ChangeMessageVisibility: a heartbeat's "still working on it".
    ChangeVisibility { queue: Name, receipt_handle: String, seconds: u32 },
    /// SendMessage of a plain body.
    Send { queue: Name, body: String },
    /// Publish to a topic named by name or ARN.
    Publish { topic: String, message: String, attributes: MessageAttributes },
    /// SendMessage of a body with message attributes.
    SendWithAttributes { queue: Name, body: String, attributes: MessageAttributes },
    /// Invoke with `InvocationType: Event`: the event joins the function's asynchronous queue.
    InvokeAsync { function: Name, payload: String, source: Name },
    /// PutEvents of one event on a bus, as an AWS service puts it.
    PutEvent { bus: Name, source: String, detail_type: String, detail: String, resources: Vec<String> },
}

/// What a command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Done {
    /// Deletes and visibility changes: how many messages it applied to.
    Applied(usize),
    /// A send or a publish was accepted.
    Accepted,
}

impl Sim {
    /// Runs an actor's commands in order, every event they log caused by `cause`. One command
    /// failing (a queue deleted meanwhile, a FIFO quota) does not stop the others.
    pub(crate) fn perform(&mut self, cause: &'static str, commands: Vec<Command>) -> Vec<ApiResult<Done>> {
        self.with_cause(cause, |sim| commands.into_iter().map(|c| sim.perform_one(c)).collect())
    }

    /// ReceiveMessage for an actor, as `cause`: typed messages, nothing to parse back.
    pub(crate) fn receive_as(
        &mut self,
        cause: &'static str,
        queue: &Name,
        max: usize,
        visibility_timeout: Option<u32>,
    ) -> ApiResult<Vec<Received>> {
        self.with_cause(cause, |sim| sim.receive(queue, max, visibility_timeout))
    }

    /// Runs `f` with `cause` stamped on what it logs, then puts the previous cause back: the one
    /// place the engine's actors change the cause.
    pub(crate) fn with_cause<T>(&mut self, cause: &'static str, f: impl FnOnce(&mut Sim) -> T) -> T {
        let previous = std::mem::replace(&mut self.cause, cause);
        let out = f(self);
        self.cause = previous;
        out
    }

    fn perform_one(&mut self, command: Command) -> ApiResult<Done> {
        match command {
            Command::Delete { queue, receipt_handle } => {
                let queue = self.queue_ref(&queue)?;
                self.delete(&queue, &receipt_handle).map(|()| Done::Applied(1))
            }
            Command::DeleteBatch { queue, receipt_handles } => {
                let queue = self.queue_ref(&queue)?;
                let mut deleted = 0;
                for chunk in receipt_handles.chunks(10) {
                    if let Ok(results) = self.delete_messages(&queue, chunk) {
                        deleted += results.iter().filter(|r| r.is_ok()).count();
                    }
                }
                Ok(Done::Applied(deleted))
            }
            Command::ChangeVisibility { queue, receipt_handle, seconds } => {
                let queue = self.queue_ref(&queue)?;
                self.change_visibility(&queue, &receipt_handle, u64::from(seconds)).map(|()| Done::Applied(1))
            }
            Command::Send { queue, body } => {
                let queue = self.queue_ref(&queue)?;
                self.send_body(&queue, &body).map(|_| Done::Accepted)
            }
            Command::Publish { topic, message, attributes } => {
                let topic = self.topic_ref(&topic)?;
                self.publish_message(&topic, message, attributes).map(|_| Done::Accepted)
            }
            Command::SendWithAttributes { queue, body, attributes } => {
                let queue = self.queue_ref(&queue)?;
                self.send_with_attributes(&queue, &body, attributes).map(|_| Done::Accepted)
            }
            Command::InvokeAsync { function, payload, source } => {
                let name = super::lambda::function_name(&function);
                let key = self
                    .world
                    .functions
                    .get_key_value(name)
                    .map(|(k, _)| k.clone())
                    .ok_or_else(|| super::lambda::function_not_found(name))?;
                self.invoke_async(&key, payload, source);
                Ok(Done::Accepted)
            }
            Command::PutEvent { bus, source, detail_type, detail, resources } => {
                let bus = self.bus_ref(Some(&bus))?;
                self.put_service_event(&bus, &source, &detail_type, &detail, resources);
                Ok(Done::Accepted)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sim_with_queue() -> Sim {
        let mut sim = Sim::new(1);
        sim.apply("CreateQueue", &json!({"QueueName": "q"})).expect("queue");
        sim
    }

    #[test]
    fn a_command_logs_with_the_actors_cause_and_the_cause_is_restored() {
        let mut sim = sim_with_queue();
        let before = sim.cause;
        let done = sim.perform("Producer", vec![Command::Send { queue: "q".into(), body: "hello".into() }]);
        assert_eq!(done, [Ok(Done::Accepted)]);
        assert_eq!(sim.events().last().map(|e| e.cause), Some("Producer"));
        assert_eq!(sim.cause, before);
    }

    #[test]
    fn one_failing_command_does_not_stop_the_next() {
        let mut sim = sim_with_queue();
        let done = sim.perform(
            "Worker",
            vec![
                Command::Delete { queue: "gone".into(), receipt_handle: "rh-1-1".into() },
                Command::Send { queue: "q".into(), body: "still sent".into() },
            ],
        );
        assert_eq!(done[0].as_ref().map_err(|e| e.code.as_str()), Err("QueueDoesNotExist"));
        assert_eq!(done[1], Ok(Done::Accepted));
    }

    #[test]
    fn a_typed_receive_answers_what_the_json_receive_would() {
        let mut sim = sim_with_queue();
        sim.apply("SendMessage", &json!({"QueueUrl": "q", "MessageBody": "order 4417"})).expect("sent");
        let got = sim.receive_as("Worker", &"q".into(), 10, Some(5)).expect("received");
        assert_eq!(got.len(), 1);
        assert_eq!((&*got[0].body, got[0].receive_count), ("order 4417", 1));
        assert_eq!(sim.events().last().map(|e| e.cause), Some("Worker"));
        let rh = got[0].receipt_handle.clone();
        let done = sim.perform("Worker", vec![Command::Delete { queue: "q".into(), receipt_handle: rh }]);
        assert_eq!(done, [Ok(Done::Applied(1))]);
    }
}
