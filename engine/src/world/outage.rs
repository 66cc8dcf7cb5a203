//! `SimulateServiceOutage`: a stretch of virtual time during which an AWS managed endpoint — an
//! SQS queue or a Lambda function — answers SNS with a server-side error (SQS
//! `ServiceUnavailable`, Lambda `ServiceException`), so that SNS's long retry schedule for
//! managed endpoints can be watched. A queue in an outage also fails EventBridge's deliveries,
//! which EventBridge retries under the target's `RetryPolicy` ("If the target resource is
//! unavailable", user guide, "How EventBridge retries delivering events").
//!
//! SNS docs, "Amazon SNS dead-letter queues": "Server-side errors can happen when the system
//! responsible for the subscribed endpoint becomes unavailable … When server-side errors occur,
//! Amazon SNS retries the failed deliveries". Simplified: the outage affects SNS's deliveries to
//! the resource, and EventBridge's to a queue, only (the playground's own calls to it go through).

use super::spec::{self, opt_duration};
use super::WorldEvent;
use crate::error::{ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::params::Params;
use crate::sim::Sim;
use serde_json::{json, Value};

impl Sim {
    /// `SimulateServiceOutage` {ResourceArn, Duration, StartAfter}: the resource fails SNS's
    /// deliveries from now (or `StartAfter` from now) for `Duration`.
    pub(crate) fn simulate_service_outage(&mut self, p: &Params) -> ApiResult<Value> {
        let arn = p.str("ResourceArn")?;
        let duration = opt_duration(p, "Duration")?.ok_or_else(|| Service::Sim.missing("Duration"))?;
        if duration == 0 {
            return Err(spec::invalid("Duration must be at least 1ms"));
        }
        let start = self.now.plus_ms(opt_duration(p, "StartAfter")?.unwrap_or(0));
        let resource = self.outage_resource(arn)?;
        let until = start.plus_ms(duration);
        self.world.outages.entry(resource.clone()).or_default().push((start, until));
        self.emit(EventKind::World(WorldEvent::ServiceOutageScheduled { resource, from: start, until }));
        Ok(json!({ "ResourceArn": arn, "StartsAt": start.to_string(), "EndsAt": until.to_string() }))
    }

    /// The canonical ARN of an existing queue or function.
    fn outage_resource(&self, arn: &str) -> ApiResult<Name> {
        if arn.starts_with("arn:aws:sqs:") {
            let queue = self.queue_ref(arn)?;
            return Ok(crate::ids::queue_arn(&queue).into());
        }
        if arn.starts_with("arn:aws:lambda:") {
            let name = super::lambda::function_name(arn);
            let f = self.world.functions.get(name).ok_or_else(|| super::lambda::function_not_found(name))?;
            return Ok(f.arn().into());
        }
        Err(spec::invalid(format!(
            "ResourceArn \"{arn}\" must be the ARN of a queue (arn:aws:sqs:…) or a function (arn:aws:lambda:…)"
        )))
    }

    /// Whether the resource with this ARN is in a simulated outage now.
    pub(crate) fn in_outage(&self, arn: &str) -> bool {
        let now = self.now;
        self.world.outages.get(arn).is_some_and(|w| w.iter().any(|(s, e)| *s <= now && now < *e))
    }
}
