//! What Lambda sends when it is done with an asynchronous event: the invocation record to an
//! `OnSuccess` or `OnFailure` destination, and the event itself to the function's dead-letter
//! queue.
//!
//! Lambda developer guide, "Asynchronous invocation": the record has `version`, `timestamp`,
//! `requestContext` (`requestId`, `functionArn` with its version, `condition` — `Success`,
//! `RetriesExhausted` or `EventAgeExceeded` — and `approximateInvokeCount`), `requestPayload`,
//! `responseContext` (`statusCode`, `executedVersion`, `functionError`) and `responsePayload`.
//! "For Amazon SQS and Amazon SNS, the invocation record is passed as the Message"; for a function
//! as its payload; for EventBridge as the `detail` of an event whose `source` is `lambda` and
//! whose `detail-type` is "Lambda Function Invocation Result – Success" (or "– Failure"), with
//! the destination's and the function's ARNs in `resources` (in that order, AWS recorded). "For dead-letter queues, Lambda only
//! sends the content of the event", with the attributes `RequestID` (String), `ErrorCode`
//! (Number, "The HTTP status code") and `ErrorMessage` (String, "The first 1 KB of the error
//! message").
//!
//! Chosen: an event that expired before any attempt has neither `responseContext` nor
//! `responsePayload`; a failure's `responsePayload` is `{"errorMessage", "errorType": "Error"}`
//! (a timeout's has no `errorType`); a success's is `null`; `ErrorCode` is 200, the status of an
//! invocation whose function failed (observed on AWS). The detail-type uses a plain hyphen.

use super::async_invoke::{request_id, AsyncEvent};
use super::commands::Command;
use super::invoke_config::{destination_of, Destination};
use super::WorldEvent;
use crate::attributes::{MessageAttributeValue, MessageAttributes};
use crate::event::EventKind;
use crate::sim::Sim;
use serde_json::{json, Value};

/// The documented record, fields in the documented order.
fn record(e: &AsyncEvent, function_arn: &str, condition: &str, now: crate::time::SimTime) -> String {
    // The payload as it came, without its whitespace (a payload that is not JSON, as a string).
    let payload = match serde_json::from_str::<Value>(&e.payload) {
        Ok(_) => crate::events::json::minify(&e.payload),
        Err(_) => Value::String(e.payload.to_string()).to_string(),
    };
    let request_context = json!({
        "requestId": request_id(e.id),
        "functionArn": format!("{function_arn}:$LATEST"),
        "condition": condition,
        "approximateInvokeCount": e.attempts,
    });
    let mut out = format!(
        "{{\"version\":\"1.0\",\"timestamp\":{},\"requestContext\":{},\"requestPayload\":{}",
        json!(now.iso8601()),
        ordered_context(&request_context),
        payload
    );
    if condition == "Success" {
        out.push_str(
            ",\"responseContext\":{\"statusCode\":200,\"executedVersion\":\"$LATEST\"},\"responsePayload\":null",
        );
    } else if let (true, Some(error)) = (e.attempts > 0, &e.last_error) {
        let response = if error.starts_with("Task timed out") {
            json!({ "errorMessage": format!("RequestId: {} Error: {error}", request_id(e.id)) })
        } else {
            json!({ "errorMessage": error, "errorType": "Error" })
        };
        out.push_str(&format!(
            ",\"responseContext\":{{\"statusCode\":200,\"executedVersion\":\"$LATEST\",\"functionError\":\"Unhandled\"}},\"responsePayload\":{response}"
        ));
    }
    out.push('}');
    out
}

/// `requestContext` in the documented order (serde_json would sort its keys).
fn ordered_context(c: &Value) -> String {
    format!(
        "{{\"requestId\":{},\"functionArn\":{},\"condition\":{},\"approximateInvokeCount\":{}}}",
        c["requestId"], c["functionArn"], c["condition"], c["approximateInvokeCount"]
    )
}

impl Sim {
    /// The command that hands `body` to a destination (or dead-letter queue) ARN.
    fn destination_command(
        &self,
        arn: &str,
        body: String,
        attributes: MessageAttributes,
        success: bool,
        function_arn: &str,
    ) -> Option<Command> {
        Some(match destination_of(arn)? {
            Destination::Queue(q) => Command::SendWithAttributes { queue: q, body, attributes },
            Destination::Topic(t) => Command::Publish { topic: t.to_string(), message: body, attributes },
            Destination::Function(f) => {
                Command::InvokeAsync { function: f, payload: body, source: function_arn.into() }
            }
            Destination::Bus(b) => Command::PutEvent {
                bus: b,
                source: "lambda".into(),
                detail_type: format!(
                    "Lambda Function Invocation Result - {}",
                    if success { "Success" } else { "Failure" }
                ),
                detail: body,
                // The bus first, then the function (AWS, recorded: LocalStack's AWS-validated
                // `test_invoke_lambda_eventbridge`, 2025-11).
                resources: vec![arn.to_string(), format!("{function_arn}:$LATEST")],
            },
        })
    }

    /// Runs a destination's command; logs where the record went, or why it could not.
    fn send_to(&mut self, e: &AsyncEvent, arn: &str, command: Option<Command>, what: &'static str) -> bool {
        let result = match command {
            Some(c) => self.perform("Lambda", vec![c]).pop().expect("one command, one result"),
            None => Err(crate::error::ApiError::new(
                "InvalidParameterValueException",
                format!("{arn} is not a destination"),
            )),
        };
        let function = e.function.clone();
        match result {
            Ok(_) => {
                self.emit(EventKind::World(WorldEvent::AsyncRecordSent {
                    function,
                    request_id: request_id(e.id),
                    to: what,
                    destination: arn.into(),
                }));
                true
            }
            Err(err) => {
                let metric = if what == "DeadLetterQueue" { "DeadLetterErrors" } else { "DestinationDeliveryFailures" };
                self.world.metrics.count(super::MetricKey::function(metric, &function), 1);
                self.emit(EventKind::World(WorldEvent::AsyncEventDropped {
                    function,
                    request_id: request_id(e.id),
                    reason: format!("the {what} {arn} refused it: {}: {}", err.code, err.message),
                }));
                false
            }
        }
    }

    /// Sends the invocation record to `OnSuccess` (condition `Success`) or `OnFailure`. Whether
    /// a destination took it.
    pub(crate) fn send_invocation_record(&mut self, e: &AsyncEvent, condition: &'static str) -> bool {
        let Some(f) = self.world.functions.get(&e.function) else { return false };
        let success = condition == "Success";
        let config = f.invoke_config.as_ref();
        let target =
            if success { config.and_then(|c| c.on_success.clone()) } else { config.and_then(|c| c.on_failure.clone()) };
        let Some(arn) = target else { return false };
        let function_arn = f.arn();
        let body = record(e, &function_arn, condition, self.now);
        let command = self.destination_command(&arn, body, MessageAttributes::new(), success, &function_arn);
        self.send_to(e, &arn, command, if success { "OnSuccess" } else { "OnFailure" })
    }

    /// Sends a discarded event, as it is, to the function's `DeadLetterConfig` target.
    pub(crate) fn send_to_function_dlq(&mut self, e: &AsyncEvent, condition: &str) -> bool {
        let Some(f) = self.world.functions.get(&e.function) else { return false };
        let Some(arn) = f.dead_letter_target.clone() else { return false };
        let function_arn = f.arn();
        let mut attributes = MessageAttributes::new();
        attributes.insert("RequestID".into(), MessageAttributeValue::string(&request_id(e.id)));
        let message = e.last_error.clone().unwrap_or_else(|| format!("{condition}: the event was not processed"));
        let first_kb: String = message
            .chars()
            .scan(0, |n, c| {
                *n += c.len_utf8();
                (*n <= 1024).then_some(c)
            })
            .collect();
        attributes.insert("ErrorMessage".into(), MessageAttributeValue::string(&first_kb));
        if e.attempts > 0 {
            attributes.insert("ErrorCode".into(), MessageAttributeValue::number("200"));
        }
        let command = self.destination_command(&arn, e.payload.to_string(), attributes, false, &function_arn);
        self.send_to(e, &arn, command, "DeadLetterQueue")
    }
}
