//! AWS Lambda functions in the AWS shapes: `CreateFunction` (with a playground-only `Behavior`
//! for what the handler does), `UpdateFunctionConfiguration`, `DeleteFunction`. The event source
//! mappings that invoke them live in `mapping`, their poller in `poller`.

use super::mapping::uuid;
use super::spec::{self, Behavior, BEHAVIOR_KEYS};
use super::WorldEvent;
use crate::error::{ApiError, ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids::{ACCOUNT, REGION};
use crate::params::Params;
use crate::sim::Sim;
use serde_json::{json, Value};
use std::sync::Arc;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FunctionStats {
    pub invocations: u64,
    pub errors: u64,
    pub timeouts: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct Function {
    pub name: Name,
    pub runtime: String,
    pub handler: String,
    pub role: String,
    pub timeout_s: u32,
    pub memory_mb: u32,
    pub behavior: Arc<Behavior>,
    pub running: u32,
    pub stats: FunctionStats,
    /// `DeadLetterConfig.TargetArn`: where discarded asynchronous events go, as they are.
    pub dead_letter_target: Option<String>,
    /// `PutFunctionEventInvokeConfig`: retries, maximum age, destinations.
    pub invoke_config: Option<super::invoke_config::InvokeConfig>,
}

impl Function {
    pub(crate) fn arn(&self) -> String {
        format!("arn:aws:lambda:{REGION}:{ACCOUNT}:function:{}", self.name)
    }

    fn json(&self) -> Value {
        let mut out = json!({
            "FunctionName": &*self.name,
            "FunctionArn": self.arn(),
            "Runtime": self.runtime,
            "Role": self.role,
            "Handler": self.handler,
            "Timeout": self.timeout_s,
            "MemorySize": self.memory_mb,
            "State": "Active",
            "LastUpdateStatus": "Successful",
            "PackageType": "Zip",
        });
        if let Some(t) = &self.dead_letter_target {
            out["DeadLetterConfig"] = json!({ "TargetArn": t });
        }
        out
    }
}

/// Lambda spells parameter errors `InvalidParameterValueException`.
pub(crate) fn lambda_error(e: ApiError) -> ApiError {
    match e.code.as_str() {
        "InvalidParameterValue" | "MissingParameter" => ApiError::new("InvalidParameterValueException", e.message),
        _ => e,
    }
}

pub(crate) fn function_name(reference: &str) -> &str {
    reference.rsplit_once(":function:").map_or(reference, |(_, n)| n)
}

pub(crate) const FUNCTION_KEYS: &[&str] = &[
    "FunctionName",
    "Runtime",
    "Role",
    "Handler",
    "Code",
    "Description",
    "Timeout",
    "MemorySize",
    "Publish",
    "Environment",
    "Architectures",
    "Behavior",
    "DeadLetterConfig",
];

/// `Invoke`'s parameters.
pub(crate) const INVOKE_KEYS: &[&str] =
    &["FunctionName", "InvocationType", "Payload", "Qualifier", "LogType", "ClientContext"];

/// The largest asynchronous payload: 1 MB (Lambda quotas, raised from 256 KB in 2025).
pub const MAX_ASYNC_PAYLOAD_BYTES: usize = 1_048_576;

impl Sim {
    pub(crate) fn create_function(&mut self, p: &Params) -> ApiResult<Value> {
        self.create_function_checked(p).map_err(lambda_error)
    }

    fn create_function_checked(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("FunctionName")?;
        let valid = !name.is_empty()
            && name.len() <= 64
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(spec::invalid(format!(
                "FunctionName \"{name}\": use 1 to 64 letters, digits, hyphens and underscores"
            )));
        }
        if self.world.functions.contains_key(name) {
            return Err(ApiError::new("ResourceConflictException", format!("Function already exist: {name}")));
        }
        let function = Function {
            name: name.into(),
            runtime: "python3.12".into(),
            handler: "app.handler".into(),
            role: format!("arn:aws:iam::{ACCOUNT}:role/playground-lambda"),
            timeout_s: 3,
            memory_mb: 128,
            behavior: Arc::new(Behavior::new(name)?),
            running: 0,
            stats: FunctionStats::default(),
            dead_letter_target: None,
            invoke_config: None,
        };
        let function = self.configured_function(function, p)?;
        let out = function.json();
        self.declare_jobs(&function.behavior.jobs.clone());
        self.world.functions.insert(function.name.clone(), function);
        self.ensure_ticking();
        self.emit(EventKind::World(WorldEvent::FunctionCreated { function: name.into() }));
        Ok(out)
    }

    fn configured_function(&self, mut f: Function, p: &Params) -> ApiResult<Function> {
        for (key, slot) in [("Runtime", &mut f.runtime), ("Handler", &mut f.handler), ("Role", &mut f.role)] {
            if let Some(v) = p.opt_str(key)? {
                *slot = v.to_string();
            }
        }
        if let Some(t) = p.opt_int("Timeout", 1, 900)? {
            f.timeout_s = t as u32;
        }
        if let Some(m) = p.opt_int("MemorySize", 128, 10_240)? {
            f.memory_mb = m as u32;
        }
        if let Some(d) = p.raw("DeadLetterConfig") {
            f.dead_letter_target = self.dead_letter_config(d)?;
        }
        if let Some(b) = p.raw("Behavior") {
            let bp = Params::new(Service::Sim, "Behavior", b, BEHAVIOR_KEYS)?;
            f.behavior = Arc::new(f.behavior.updated(&bp, &|d| self.world.dependencies.contains_key(d))?);
        }
        Ok(f)
    }

    pub(crate) fn update_function_configuration(&mut self, p: &Params) -> ApiResult<Value> {
        let checked = (|| {
            let name = function_name(p.str("FunctionName")?);
            let f = self.world.functions.get(name).ok_or_else(|| function_not_found(name))?.clone();
            let settings = p.given().filter(|k| *k != "FunctionName").map(String::from).collect();
            Ok((self.configured_function(f, p)?, settings))
        })();
        let (f, settings) = checked.map_err(lambda_error)?;
        let out = f.json();
        self.declare_jobs(&f.behavior.jobs.clone());
        let name = f.name.clone();
        self.world.functions.insert(name.clone(), f);
        self.emit(EventKind::World(WorldEvent::FunctionUpdated { function: name, settings }));
        Ok(out)
    }

    pub(crate) fn delete_function(&mut self, p: &Params) -> ApiResult<Value> {
        let name = function_name(p.str("FunctionName").map_err(lambda_error)?);
        let key =
            self.world.functions.get_key_value(name).map(|(k, _)| k.clone()).ok_or_else(|| function_not_found(name))?;
        if let Some(m) = self.world.mappings.values().find(|m| m.function == key) {
            return Err(ApiError::new(
                "ResourceConflictException",
                format!(
                    "Function {name} is used by event source mapping {}; delete it first (DeleteEventSourceMapping).",
                    uuid(m.id)
                ),
            ));
        }
        self.world.functions.remove(&key);
        self.emit(EventKind::World(WorldEvent::FunctionDeleted { function: key }));
        Ok(json!({}))
    }
}

impl Sim {
    /// `Invoke`: `Event` queues the payload for an asynchronous invocation (202); `DryRun` only
    /// checks (204). A synchronous `RequestResponse` would need the function's answer at this
    /// virtual instant, and is not simulated.
    pub(crate) fn invoke_function(&mut self, p: &Params) -> ApiResult<Value> {
        let name = function_name(p.str("FunctionName").map_err(lambda_error)?);
        let key =
            self.world.functions.get_key_value(name).map(|(k, _)| k.clone()).ok_or_else(|| function_not_found(name))?;
        if let Some(q) = p.opt_str("Qualifier").map_err(lambda_error)?.filter(|q| *q != "$LATEST") {
            return Err(ApiError::new(
                "ResourceNotFoundException",
                format!("Function not found: {}:{q}", self.world.functions[&key].arn()),
            ));
        }
        let payload = match p.raw("Payload") {
            None => "{}".to_string(),
            Some(Value::String(s)) => {
                serde_json::from_str::<Value>(s).map_err(|e| {
                    ApiError::new(
                        "InvalidRequestContentException",
                        format!("Could not parse request body into json: {e}"),
                    )
                })?;
                s.clone()
            }
            Some(v) => v.to_string(),
        };
        for key in ["LogType", "ClientContext"] {
            p.opt_str(key).map_err(lambda_error)?;
        }
        let kind = p.opt_str("InvocationType").map_err(lambda_error)?.unwrap_or("RequestResponse");
        match kind {
            "Event" => {}
            "DryRun" => return Ok(json!({ "StatusCode": 204 })),
            "RequestResponse" => {
                return Err(spec_invalid(
                    "InvocationType RequestResponse (synchronous) is not simulated: use Event, as SNS and EventBridge do",
                ))
            }
            other => {
                return Err(ApiError::new(
                    "ValidationException",
                    format!("1 validation error detected: Value '{other}' at 'invocationType' failed to satisfy constraint: Member must satisfy enum value set: [Event, RequestResponse, DryRun]"),
                ))
            }
        }
        if payload.len() > MAX_ASYNC_PAYLOAD_BYTES {
            return Err(ApiError::new(
                "RequestTooLargeException",
                format!("Request must be smaller than {MAX_ASYNC_PAYLOAD_BYTES} bytes for the InvokeAsync operation"),
            ));
        }
        let request_id = self.invoke_async(&key, payload, "Invoke".into());
        Ok(json!({ "StatusCode": 202, "RequestId": request_id }))
    }
}

fn spec_invalid(message: &str) -> ApiError {
    ApiError::new("InvalidParameterValueException", message)
}

pub(crate) fn function_not_found(name: &str) -> ApiError {
    ApiError::new(
        "ResourceNotFoundException",
        format!("Function not found: arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"),
    )
}
