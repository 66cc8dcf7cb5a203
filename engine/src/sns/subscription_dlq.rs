//! The subscription's dead-letter queue: where SNS keeps a copy it could not deliver.
//!
//! SNS docs, "Amazon SNS dead-letter queues (DLQs)": "A dead-letter queue is attached to an Amazon
//! SNS subscription (rather than a topic) because message deliveries happen at the subscription
//! level"; it catches what SNS gives up on — a client-side error at once, a server-side error once
//! the delivery policy's retries are exhausted. It is a different queue from an SQS queue's own
//! dead-letter queue (its `RedrivePolicy` with `maxReceiveCount`), which catches what consumers
//! received and never deleted. The `RedrivePolicy` is `{"deadLetterTargetArn": "<queue ARN>"}`,
//! a queue in the same account and region; "For a FIFO topic, use an Amazon SQS FIFO queue as a
//! dead-letter queue". SNS needs the same permission on it as on any queue (its access policy,
//! and a key it may use).
//!
//! The copy is the message as the endpoint would have received it: the SNS envelope, or with raw
//! delivery the body and its message attributes. The docs name no attributes SNS adds, and AWS
//! was observed to add none (LocalStack's AWS-validated snapshots of
//! `test_redrive_policy_sqs_queue_subscription` and `test_redrive_policy_lambda_subscription`).
//! Error messages of `RedrivePolicy` as AWS was observed to answer them (same source).

use super::invalid;
use crate::error::ApiResult;
use crate::event::Name;
use crate::ids;
use crate::sim::Sim;
use crate::sqs::access::SNS_PRINCIPAL;
use crate::sqs::Incoming;
use serde_json::Value;

/// Reads a subscription's `RedrivePolicy` (empty: none): the dead-letter queue's ARN.
/// `fifo_subscription`: a FIFO queue subscribed to a FIFO topic, whose dead-letter queue must be
/// FIFO. A standard queue subscribed to a FIFO topic may have a standard one (AWS, recorded:
/// LocalStack's AWS-validated `test_publish_fifo_messages_to_dlq`; its validation checks the
/// endpoint, as the error message's "FIFO Subscription to a FIFO Topic" says).
pub(crate) fn parse_redrive_policy(value: &str, fifo_subscription: bool) -> ApiResult<Option<String>> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    let v: Value = serde_json::from_str(value)
        .map_err(|e| invalid(format!("Invalid parameter: RedrivePolicy: failed to parse JSON. {e}")))?;
    let arn = v.get("deadLetterTargetArn").and_then(Value::as_str).ok_or_else(|| {
        invalid("Invalid parameter: RedrivePolicy: must be {\"deadLetterTargetArn\": \"<queue ARN>\"}")
    })?;
    if !arn.starts_with("arn:aws:sqs:") || ids::queue_name_from(arn).is_none() {
        return Err(invalid("Invalid parameter: RedrivePolicy: deadLetterTargetArn is an invalid arn"));
    }
    if fifo_subscription && !arn.ends_with(".fifo") {
        return Err(invalid(
            "Invalid parameter: RedrivePolicy: must use a FIFO queue as DLQ for a FIFO Subscription to a FIFO Topic.",
        ));
    }
    Ok(Some(arn.to_string()))
}

impl Sim {
    /// Puts `copy` in the subscription's dead-letter queue. `Ok(None)`: the subscription has none;
    /// `Err`: it has one, and it refused (missing, or SNS may not send to it).
    pub(crate) fn redrive_to_subscription_dlq(
        &mut self,
        subscription: &Name,
        copy: Incoming,
    ) -> Result<Option<Name>, String> {
        let Some(sub) = self.subscriptions.get(subscription) else { return Ok(None) };
        let Some(arn) = sub.dead_letter_arn.clone() else { return Ok(None) };
        let topic_arn = ids::topic_arn(&sub.topic);
        let name = ids::queue_name_from(&arn).unwrap_or(&arn).to_string();
        let dlq = self.queue_ref(&name).map_err(|_| format!("its dead-letter queue {name} does not exist"))?;
        self.service_may_send(&dlq, SNS_PRINCIPAL, &|| topic_arn.to_string())
            .map_err(|r| format!("its dead-letter queue {name} refused it ({}: {})", r.code, r.message))?;
        // SQS takes nothing into a FIFO queue without a message group: a copy of a standard
        // topic's message that has none is refused, as SQS refuses such a SendMessage.
        if self.queues[&dlq].fifo.is_some() && copy.group.is_none() {
            return Err(format!(
                "its dead-letter queue {name} is a FIFO queue and the message has no MessageGroupId \
                 (MissingParameter); use a standard queue as the dead-letter queue of a standard topic's subscription"
            ));
        }
        self.store(&dlq, copy);
        self.queue_mut(&dlq).stats.sent += 1;
        Ok(Some(dlq))
    }
}
