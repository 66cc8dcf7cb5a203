//! Message attributes in the shape SNS and SQS share on the wire:
//! `{"DataType": "String" | "Number" | "Binary" | "String.Array" | "<type>.<label>", "StringValue": "...", "BinaryValue": "..."}`.

use serde::{Deserialize, Serialize};

/// One message attribute value, as in `Publish`'s and `SendMessage`'s `MessageAttributes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageAttributeValue {
    #[serde(rename = "DataType")]
    pub data_type: String,
    #[serde(rename = "StringValue", default, skip_serializing_if = "Option::is_none")]
    pub string_value: Option<String>,
    /// Base64 text, kept as given (the simulator never decodes it).
    #[serde(rename = "BinaryValue", default, skip_serializing_if = "Option::is_none")]
    pub binary_value: Option<String>,
}

impl MessageAttributeValue {
    /// The base type before any custom label: `Number.float` is a `Number`.
    pub fn base_type(&self) -> &str {
        match self.data_type.split_once('.') {
            // `String.Array` is a base type of its own in SNS, not a labelled String.
            Some(("String", "Array")) => "String.Array",
            Some((base, _)) => base,
            None => &self.data_type,
        }
    }

    pub fn string(value: &str) -> Self {
        Self { data_type: "String".into(), string_value: Some(value.into()), binary_value: None }
    }

    pub fn number(value: &str) -> Self {
        Self { data_type: "Number".into(), string_value: Some(value.into()), binary_value: None }
    }
}

/// Attributes by name; a `BTreeMap` so that every walk over them is in one fixed order.
pub type MessageAttributes = crate::vecmap::VecMap<String, MessageAttributeValue>;
