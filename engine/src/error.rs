//! Errors a caller can cause, in the AWS shape: a code and a message that says what to change.
//! A failed action leaves the simulation exactly as it was.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    #[serde(rename = "Code")]
    pub code: String,
    #[serde(rename = "Message")]
    pub message: String,
}

impl ApiError {
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        ApiError { code: code.to_string(), message: message.into() }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

pub type ApiResult<T> = Result<T, ApiError>;

/// Which service an action belongs to; each spells its parameter errors its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    Sns,
    Sqs,
    /// The playground's own actions (workers, outages, simulation settings, CloudWatch).
    Sim,
    /// AWS Lambda's actions, which answer a bad or missing value with
    /// `InvalidParameterValueException`.
    Lambda,
    /// Amazon EventBridge's actions, which answer a bad or missing value with
    /// `ValidationException`.
    Events,
}

impl Service {
    /// The service's short name: SNS, SQS, Lambda, or Playground for the playground's own.
    pub fn label(self) -> &'static str {
        match self {
            Service::Sns => "SNS",
            Service::Sqs => "SQS",
            Service::Lambda => "Lambda",
            Service::Sim => "Playground",
            Service::Events => "EventBridge",
        }
    }

    /// SQS answers a bad value with `InvalidParameterValue`; SNS with `InvalidParameter`.
    pub fn invalid_value(self, message: impl Into<String>) -> ApiError {
        match self {
            Service::Sns => ApiError::new("InvalidParameter", message),
            Service::Sqs | Service::Sim => ApiError::new("InvalidParameterValue", message),
            Service::Lambda => ApiError::new("InvalidParameterValueException", message),
            Service::Events => ApiError::new("ValidationException", message),
        }
    }

    pub fn missing(self, name: &str) -> ApiError {
        match self {
            Service::Sns => ApiError::new("InvalidParameter", format!("Invalid parameter: {name} is required.")),
            Service::Sqs | Service::Sim => {
                ApiError::new("MissingParameter", format!("The request must contain the parameter {name}."))
            }
            Service::Lambda => ApiError::new(
                "InvalidParameterValueException",
                format!("The request must contain the parameter {name}."),
            ),
            Service::Events => ApiError::new(
                "ValidationException",
                format!("1 validation error detected: Value null at '{name}' failed to satisfy constraint: Member must not be null"),
            ),
        }
    }
}
