//! A function's asynchronous invocation settings, in the AWS shapes:
//! `PutFunctionEventInvokeConfig` (replaces the whole configuration: "If you exclude any
//! settings, they are removed"), `UpdateFunctionEventInvokeConfig` (changes the settings given
//! of an existing configuration),
//! `GetFunctionEventInvokeConfig`, `DeleteFunctionEventInvokeConfig`; and the legacy
//! `DeadLetterConfig` of `CreateFunction`/`UpdateFunctionConfiguration`.
//!
//! API reference: `MaximumRetryAttempts` 0–2, `MaximumEventAgeInSeconds` 60–21,600;
//! `DestinationConfig` `{"OnSuccess": {"Destination": ARN}, "OnFailure": {"Destination": ARN}}`
//! to a queue, a topic, a function or an event bus; errors `InvalidParameterValueException` and
//! `ResourceNotFoundException`. "Only standard SQS queues are supported" as destinations (CDK
//! docs for Lambda destinations). A dead-letter queue is an SQS queue or an SNS topic.
//!
//! Simplified: Lambda checks that the execution role may send to a destination; the playground
//! has no IAM, so it checks that the destination exists. Only `$LATEST` (no versions or aliases).
use super::lambda::{function_name, function_not_found, lambda_error, Function};
use crate::error::{ApiError, ApiResult, Service};
use crate::event::Name;
use crate::ids::{ACCOUNT, REGION};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::SimTime;
use serde_json::{json, Value};

/// The parameters of the three actions that set or read an invoke configuration.
pub(crate) const INVOKE_CONFIG_KEYS: &[&str] =
    &["FunctionName", "Qualifier", "MaximumRetryAttempts", "MaximumEventAgeInSeconds", "DestinationConfig"];

/// `PutFunctionEventInvokeConfig`'s settings; `None` is "not set" (Lambda's default applies).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct InvokeConfig {
    pub maximum_retry_attempts: Option<u32>,
    pub maximum_event_age_seconds: Option<u32>,
    pub on_success: Option<String>,
    pub on_failure: Option<String>,
    pub last_modified: SimTime,
}

/// Where a destination (or a dead-letter queue) sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Destination {
    Queue(Name),
    Topic(Name),
    Function(Name),
    Bus(Name),
}

/// Reads a destination ARN of this account and region.
pub(crate) fn destination_of(arn: &str) -> Option<Destination> {
    let prefix = |service: &str| format!("arn:aws:{service}:{REGION}:{ACCOUNT}:");
    let rest = |service: &str| arn.strip_prefix(&prefix(service)).filter(|r| !r.is_empty());
    if let Some(q) = rest("sqs") {
        return Some(Destination::Queue(q.into()));
    }
    if let Some(t) = rest("sns") {
        return Some(Destination::Topic(t.into()));
    }
    if let Some(f) = rest("lambda").and_then(|r| r.strip_prefix("function:")) {
        return Some(Destination::Function(f.split(':').next().unwrap_or(f).into()));
    }
    rest("events").and_then(|r| r.strip_prefix("event-bus/")).map(|b| Destination::Bus(b.into()))
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new("InvalidParameterValueException", message)
}

/// Whether `arn` matches the pattern the API model gives a destination: empty, a `kafka://` URL,
/// or `arn:aws…:SERVICE:[REGION]:[ACCOUNT]:…` (the region as `us-east-1`, `us-gov-west-1`,
/// `us-iso-east-1`, optionally `eusc-` first; the account 12 digits).
fn matches_destination_pattern(arn: &str) -> bool {
    if arn.is_empty() || arn.starts_with("kafka://") {
        return arn.len() <= "kafka://".len() + 249;
    }
    let parts: Vec<&str> = arn.splitn(6, ':').collect();
    let [arn_, partition, service, region, account, _rest] = parts[..] else { return false };
    let word = |s: &str| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    arn_ == "arn"
        && partition.strip_prefix("aws").is_some_and(word)
        && !service.is_empty()
        && word(service)
        && (region.is_empty() || region_like(region))
        && (account.is_empty() || (account.len() == 12 && account.bytes().all(|b| b.is_ascii_digit())))
}

/// `(eusc-)?[a-z]{2}((-gov)|(-iso([a-z]?)))?-[a-z]+-\d{1}`.
fn region_like(region: &str) -> bool {
    let region = region.strip_prefix("eusc-").unwrap_or(region);
    let parts: Vec<&str> = region.split('-').collect();
    let lower = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase());
    let digit = |s: &str| s.len() == 1 && s.bytes().all(|b| b.is_ascii_digit());
    let middle_ok = |m: &[&str]| match m {
        [name] => lower(name),
        [flag, name] => {
            (*flag == "gov"
                || flag.strip_prefix("iso").is_some_and(|r| r.len() <= 1 && r.bytes().all(|b| b.is_ascii_lowercase())))
                && lower(name)
        }
        _ => false,
    };
    parts.len() >= 3
        && parts[0].len() == 2
        && lower(parts[0])
        && digit(parts[parts.len() - 1])
        && middle_ok(&parts[1..parts.len() - 1])
}

/// The request's destinations checked against the API model's pattern, before anything else is
/// (AWS, recorded: LocalStack's AWS-validated `test_lambda_eventinvokeconfig_exceptions`,
/// 2025-11: ValidationException, the message naming the field and the pattern).
fn check_destination_patterns(p: &Params) -> ApiResult<()> {
    let Some(Value::Object(dc)) = p.raw("DestinationConfig") else { return Ok(()) };
    for (key, field) in [("OnSuccess", "onSuccess"), ("OnFailure", "onFailure")] {
        let Some(arn) = dc.get(key).and_then(|o| o.get("Destination")).and_then(Value::as_str) else { continue };
        if !matches_destination_pattern(arn) {
            return Err(ApiError::new(
                "ValidationException",
                format!(
                    "1 validation error detected: Value '{arn}' at 'destinationConfig.{field}.destination' failed to satisfy constraint: Member must satisfy regular expression pattern: {DESTINATION_PATTERN}"
                ),
            ));
        }
    }
    Ok(())
}

/// The destination pattern as the API model (and AWS's message) gives it.
const DESTINATION_PATTERN: &str = r"$|kafka://([^.]([a-zA-Z0-9\-_.]{0,248}))|arn:(aws[a-zA-Z0-9-]*):([a-zA-Z0-9\-])+:((eusc-)?[a-z]{2}((-gov)|(-iso([a-z]?)))?-[a-z]+-\d{1})?:(\d{12})?:(.*)";

impl Sim {
    /// Whether a destination exists (standard queues only), as Lambda requires of a destination.
    pub(crate) fn check_destination(&self, arn: &str, dead_letter: bool) -> ApiResult<()> {
        let what = if dead_letter { "DeadLetterConfig TargetArn" } else { "destination" };
        let missing = |kind: &str, name: &str| {
            invalid(format!("The {what} {arn} is not valid: the {kind} {name} does not exist. Create it first."))
        };
        match destination_of(arn) {
            Some(Destination::Queue(q)) if q.ends_with(".fifo") => {
                Err(invalid(format!("The {what} {arn} is a FIFO queue: Lambda sends only to standard queues.")))
            }
            Some(Destination::Queue(q)) => self.queue_ref(&q).map(|_| ()).map_err(|_| missing("queue", &q)),
            Some(Destination::Topic(t)) => self.topic_ref(&t).map(|_| ()).map_err(|_| missing("topic", &t)),
            Some(Destination::Function(f)) if !dead_letter => {
                self.world.functions.get(f.as_ref()).map(|_| ()).ok_or_else(|| missing("function", &f))
            }
            Some(Destination::Bus(b)) if !dead_letter => {
                self.bus_ref(Some(&b)).map(|_| ()).map_err(|_| missing("event bus", &b))
            }
            _ => Err(invalid(format!(
                "The {what} {arn} must be the ARN of {} in {REGION}, account {ACCOUNT}.",
                if dead_letter {
                    "an SQS queue or an SNS topic"
                } else {
                    "an SQS queue, an SNS topic, a Lambda function or an event bus"
                }
            ))),
        }
    }

    /// The function named by `FunctionName` (and `Qualifier`, which may only be `$LATEST`).
    fn config_function(&self, p: &Params) -> ApiResult<Name> {
        let name = function_name(p.str("FunctionName").map_err(lambda_error)?);
        let name = name.strip_suffix(":$LATEST").unwrap_or(name);
        let f =
            self.world.functions.get_key_value(name).map(|(k, _)| k.clone()).ok_or_else(|| function_not_found(name))?;
        match p.opt_str("Qualifier").map_err(lambda_error)? {
            None | Some("$LATEST") => Ok(f),
            Some(q) => Err(ApiError::new(
                "ResourceNotFoundException",
                format!(
                    "Function not found: {}:{q} (the playground's functions have only $LATEST)",
                    self.world.functions[&f].arn()
                ),
            )),
        }
    }

    /// The settings given in `p`, applied over `base`, for the function `function`.
    fn configured(&self, mut c: InvokeConfig, p: &Params, function: &Name) -> ApiResult<InvokeConfig> {
        if let Some(n) = p.opt_int("MaximumRetryAttempts", 0, 2).map_err(lambda_error)? {
            c.maximum_retry_attempts = Some(n as u32);
        }
        if let Some(n) = p.opt_int("MaximumEventAgeInSeconds", 60, 21_600).map_err(lambda_error)? {
            c.maximum_event_age_seconds = Some(n as u32);
        }
        if let Some(dc) = p.raw("DestinationConfig") {
            let dp = Params::new(Service::Lambda, "DestinationConfig", dc, &["OnSuccess", "OnFailure"])?;
            for (key, slot) in [("OnSuccess", &mut c.on_success), ("OnFailure", &mut c.on_failure)] {
                let Some(v) = dp.raw(key) else { continue };
                let op = Params::new(Service::Lambda, key, v, &["Destination"])?;
                *slot = match op.opt_str("Destination")?.filter(|d| !d.is_empty()) {
                    None => None,
                    Some(arn) => {
                        if destination_of(arn) == Some(Destination::Function(function.clone())) {
                            return Err(invalid("You can't specify the function as a destination for itself."));
                        }
                        self.check_destination(arn, false)?;
                        Some(arn.to_string())
                    }
                };
            }
        }
        c.last_modified = self.now;
        Ok(c)
    }

    fn store_config(&mut self, f: &Name, c: InvokeConfig) -> Value {
        let function = self.world.functions.get_mut(f).expect("invariant: resolved function exists");
        let out = config_json(function, &c);
        function.invoke_config = Some(c);
        out
    }

    /// AWS, recorded (LocalStack's AWS-validated `test_lambda_eventinvokeconfig_exceptions`,
    /// 2025-11): a call with none of the three settings is refused before the function is looked
    /// up (`DestinationConfig` `{"OnSuccess": {}}` counts as a setting).
    pub(crate) fn put_function_event_invoke_config(&mut self, p: &Params) -> ApiResult<Value> {
        if ["MaximumRetryAttempts", "MaximumEventAgeInSeconds", "DestinationConfig"].iter().all(|k| p.raw(k).is_none())
        {
            return Err(invalid("You must specify at least one of error handling or destination setting."));
        }
        check_destination_patterns(p)?;
        let f = self.config_function(p)?;
        let c = self.configured(InvokeConfig::default(), p, &f)?;
        Ok(self.store_config(&f, c))
    }

    /// Changes the settings of an existing configuration: where there is none, AWS answers
    /// `ResourceNotFoundException` (recorded: `test_lambda_eventinvokeconfig_exceptions`, 2025-11).
    pub(crate) fn update_function_event_invoke_config(&mut self, p: &Params) -> ApiResult<Value> {
        check_destination_patterns(p)?;
        let f = self.config_function(p)?;
        let function = &self.world.functions[&f];
        let base = function.invoke_config.clone().ok_or_else(|| no_config(function))?;
        let c = self.configured(base, p, &f)?;
        Ok(self.store_config(&f, c))
    }

    pub(crate) fn get_function_event_invoke_config(&mut self, p: &Params) -> ApiResult<Value> {
        let f = self.config_function(p)?;
        let function = &self.world.functions[&f];
        let c = function.invoke_config.as_ref().ok_or_else(|| no_config(function))?;
        Ok(config_json(function, c))
    }

    pub(crate) fn delete_function_event_invoke_config(&mut self, p: &Params) -> ApiResult<Value> {
        let f = self.config_function(p)?;
        let function = self.world.functions.get_mut(&f).expect("invariant: resolved function exists");
        if function.invoke_config.take().is_none() {
            return Err(no_config(function));
        }
        Ok(json!({}))
    }

    /// `DeadLetterConfig` `{"TargetArn": ARN}` (empty: none): an SQS queue or an SNS topic.
    pub(crate) fn dead_letter_config(&self, value: &Value) -> ApiResult<Option<String>> {
        let p = Params::new(Service::Lambda, "DeadLetterConfig", value, &["TargetArn"])?;
        match p.opt_str("TargetArn")?.filter(|t| !t.is_empty()) {
            None => Ok(None),
            Some(arn) => {
                self.check_destination(arn, true)?;
                Ok(Some(arn.to_string()))
            }
        }
    }
}

fn no_config(f: &Function) -> ApiError {
    ApiError::new(
        "ResourceNotFoundException",
        format!("The function {}:$LATEST doesn't have an EventInvokeConfig", f.arn()),
    )
}

/// The response shape of the invoke-configuration actions.
fn config_json(f: &Function, c: &InvokeConfig) -> Value {
    let dest = |d: &Option<String>| d.as_ref().map_or(json!({}), |a| json!({ "Destination": a }));
    let mut out = json!({
        "LastModified": c.last_modified.epoch_ms() / 1000,
        "FunctionArn": format!("{}:$LATEST", f.arn()),
        "DestinationConfig": { "OnSuccess": dest(&c.on_success), "OnFailure": dest(&c.on_failure) },
    });
    if let Some(n) = c.maximum_retry_attempts {
        out["MaximumRetryAttempts"] = json!(n);
    }
    if let Some(n) = c.maximum_event_age_seconds {
        out["MaximumEventAgeInSeconds"] = json!(n);
    }
    out
}
