//! May an AWS service send to this queue? Asked by SNS (for a subscription and for a
//! subscription's dead-letter queue) and by EventBridge (for a target and a target's
//! dead-letter queue) before they send.
//!
//! Two things can refuse, both client-side errors for the sender (SNS docs, "Amazon SNS
//! dead-letter queues": client-side errors happen "when an owner changes the policy attached to
//! the subscribed endpoint in a way that prevents Amazon SNS from delivering messages"; SNS does
//! not retry them):
//! - the queue's access policy (`policy`): the service principal needs a statement allowing
//!   `sqs:SendMessage` on the queue, usually with an `aws:SourceArn` condition naming the topic
//!   or rule; an explicit `Deny` wins.
//! - the queue's encryption key: SQS guide, "Enable compatibility between event sources from AWS
//!   services and encrypted queues": the services need `kms:GenerateDataKey` and `kms:Decrypt` on
//!   the key, and the key policy of the AWS managed key for SQS (`alias/aws/sqs`) cannot be
//!   changed to grant them — use a customer managed key. The engine knows no key policies: a
//!   customer managed key (any other `KmsMasterKeyId`) is assumed to grant them.
//!
//! Simplified: a queue without a `Policy` accepts its own account's topics and rules. On AWS a
//! service principal always needs the policy statement (the console's subscribe wizard adds
//! it); `ConfigureSimulation` `RequireQueuePolicies: true` makes the playground as strict.

use super::policy::{Decision, QueuePolicy, Request};
use crate::event::Name;
use crate::ids::ACCOUNT;
use crate::sim::Sim;

/// Why a service may not send: the error code the service meets, and what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub code: &'static str,
    pub message: String,
}

/// The service principal SNS uses.
pub(crate) const SNS_PRINCIPAL: &str = "sns.amazonaws.com";
/// The service principal EventBridge uses.
pub(crate) const EVENTS_PRINCIPAL: &str = "events.amazonaws.com";

/// Whether a `KmsMasterKeyId` names the AWS managed key for SQS, by alias or alias ARN.
pub(crate) fn is_aws_managed_sqs_key(key: &str) -> bool {
    key == "alias/aws/sqs" || key.ends_with(":alias/aws/sqs")
}

impl Sim {
    /// Whether `service` may call `sqs:SendMessage` on `queue` for `source_arn` (a topic or a rule).
    /// `source_arn` is built only when a policy must be read: the common case (no policy, no
    /// strict mode) costs no string (the SNS fan-out path delivers millions of copies).
    pub(crate) fn service_may_send(
        &self,
        queue: &Name,
        service: &str,
        source_arn: &dyn Fn() -> String,
    ) -> Result<(), Refusal> {
        let q = &self.queues[queue];
        if let Some(key) = q.config.passthrough.get("KmsMasterKeyId").filter(|k| is_aws_managed_sqs_key(k)) {
            return Err(Refusal {
                code: "KMS.AccessDeniedException",
                message: format!(
                    "the queue {queue} is encrypted with the AWS managed key {key}, whose key policy cannot let {service} use it; encrypt the queue with a customer managed key"
                ),
            });
        }
        let denied = |why: String| Refusal {
            code: "AccessDenied",
            message: format!("Access to the resource {} is denied: {why}", q.url()),
        };
        let text = q.config.passthrough.get("Policy").map(String::as_str).unwrap_or("");
        if text.trim().is_empty() {
            if self.settings.require_queue_policies {
                return Err(denied(format!(
                    "the queue has no Policy, and a service principal needs a statement allowing {service} sqs:SendMessage (RequireQueuePolicies)"
                )));
            }
            return Ok(());
        }
        let policy = QueuePolicy::parse(text).map_err(|e| denied(format!("its Policy cannot be read ({e})")))?;
        let source_arn = &source_arn();
        let request =
            Request { service, action: "sqs:SendMessage", resource: &q.arn, source_arn, source_account: ACCOUNT };
        match policy.evaluate(&request) {
            Decision::Allowed => Ok(()),
            Decision::ExplicitDeny(i) => Err(denied(format!(
                "statement {i} of its Policy denies {service} sqs:SendMessage for {source_arn} (an explicit Deny wins)"
            ))),
            Decision::ImplicitDeny => {
                Err(denied(format!("no statement of its Policy allows {service} sqs:SendMessage for {source_arn}")))
            }
        }
    }
}
