//! Lambda's asynchronous invocation settings as AWS answers them: responses recorded from real
//! AWS by LocalStack's AWS-validated suite (`tests/aws/services/lambda_/test_lambda_api.py`,
//! `test_lambda_eventinvokeconfig_exceptions`, recorded 2025-11, and its snapshot), beside the
//! Lambda API reference.
mod common;
use common::*;
use engine::Sim;
use serde_json::json;

const F_ARN: &str = "arn:aws:lambda:us-east-1:000000000000:function:f";

fn with_function() -> Sim {
    let mut sim = Sim::new(1);
    ok(&mut sim, "CreateFunction", json!({"FunctionName": "f"}));
    ok(&mut sim, "CreateFunction", json!({"FunctionName": "g"}));
    sim
}

#[test]
fn put_function_event_invoke_config_with_no_settings_is_refused_before_the_function_is_looked_up() {
    // Item 11. AWS, recorded: PutFunctionEventInvokeConfig(FunctionName="doesnotexist") with no
    // other argument answers InvalidParameterValueException "You must specify at least one of
    // error handling or destination setting." (not ResourceNotFoundException).
    let mut sim = with_function();
    for name in ["doesnotexist", "f"] {
        let e = fails(&mut sim, "PutFunctionEventInvokeConfig", json!({"FunctionName": name}));
        assert_eq!(e.code, "InvalidParameterValueException");
        assert_eq!(e.message, "You must specify at least one of error handling or destination setting.");
    }
    // A destination setting without a destination counts as a setting (recorded:
    // put_destination_success_no_destination_arn).
    ok(&mut sim, "PutFunctionEventInvokeConfig", json!({"FunctionName": "f", "DestinationConfig": {"OnSuccess": {}}}));
    let e = fails(
        &mut sim,
        "PutFunctionEventInvokeConfig",
        json!({"FunctionName": "doesnotexist", "MaximumRetryAttempts": 1}),
    );
    assert_eq!(e.code, "ResourceNotFoundException");
}

#[test]
fn a_function_cannot_be_its_own_destination() {
    // Item 12. AWS, recorded (put_destination_recursive): InvalidParameterValueException "You
    // can't specify the function as a destination for itself."; another function is accepted.
    let mut sim = with_function();
    for arn in [F_ARN.to_string(), format!("{F_ARN}:$LATEST")] {
        let e = fails(
            &mut sim,
            "PutFunctionEventInvokeConfig",
            json!({"FunctionName": "f", "DestinationConfig": {"OnSuccess": {"Destination": arn}}}),
        );
        assert_eq!(e.code, "InvalidParameterValueException");
        assert_eq!(e.message, "You can't specify the function as a destination for itself.");
    }
    let other = "arn:aws:lambda:us-east-1:000000000000:function:g";
    ok(
        &mut sim,
        "PutFunctionEventInvokeConfig",
        json!({"FunctionName": "f", "DestinationConfig": {"OnFailure": {"Destination": other}}}),
    );
}

#[test]
fn a_destination_not_matching_the_arn_pattern_is_a_validation_exception() {
    // Item 13. AWS, recorded (put_destination_invalid_arn_pattern): "arn:aws:_-/!lambda:…" answers
    // ValidationException "1 validation error detected: Value '…' at
    // 'destinationConfig.onFailure.destination' failed to satisfy constraint: Member must satisfy
    // regular expression pattern: …". An ARN of the right shape but another service stays
    // InvalidParameterValueException (put_destination_invalid_service_arn).
    let mut sim = with_function();
    let bad = "arn:aws:_-/!lambda:us-east-1:000000000000:function:g";
    let e = fails(
        &mut sim,
        "PutFunctionEventInvokeConfig",
        json!({"FunctionName": "f", "DestinationConfig": {"OnFailure": {"Destination": bad}}}),
    );
    assert_eq!(e.code, "ValidationException");
    assert!(
        e.message.starts_with(&format!(
            "1 validation error detected: Value '{bad}' at 'destinationConfig.onFailure.destination'"
        )),
        "{}",
        e.message
    );
    for bad in ["not-an-arn", "arn:aws:sqs:us-east-1:12345:q", "arn:aws:sqs:useast1:000000000000:q"] {
        let e = fails(
            &mut sim,
            "UpdateFunctionEventInvokeConfig",
            json!({"FunctionName": "f", "DestinationConfig": {"OnSuccess": {"Destination": bad}}}),
        );
        assert_eq!(e.code, "ValidationException", "{bad}");
    }
    let iam = "arn:aws:iam:us-east-1:000000000000:function:g";
    let e = fails(
        &mut sim,
        "PutFunctionEventInvokeConfig",
        json!({"FunctionName": "f", "DestinationConfig": {"OnSuccess": {"Destination": iam}}}),
    );
    assert_eq!(e.code, "InvalidParameterValueException");
}

#[test]
fn update_function_event_invoke_config_where_none_exists_is_resource_not_found() {
    // Item 14. AWS, recorded (update_eventinvokeconfig_config_doesnotexist_without_qualifier):
    // ResourceNotFoundException "The function …:f:$LATEST doesn't have an EventInvokeConfig"; it
    // creates nothing. With a configuration, Update changes only the settings given.
    let mut sim = with_function();
    let e = fails(&mut sim, "UpdateFunctionEventInvokeConfig", json!({"FunctionName": "f", "MaximumRetryAttempts": 0}));
    assert_eq!(e.code, "ResourceNotFoundException");
    assert_eq!(e.message, format!("The function {F_ARN}:$LATEST doesn't have an EventInvokeConfig"));
    ok(
        &mut sim,
        "PutFunctionEventInvokeConfig",
        json!({"FunctionName": "f", "MaximumRetryAttempts": 2, "MaximumEventAgeInSeconds": 60}),
    );
    let r = ok(&mut sim, "UpdateFunctionEventInvokeConfig", json!({"FunctionName": "f", "MaximumRetryAttempts": 0}));
    assert_eq!((r["MaximumRetryAttempts"].as_u64(), r["MaximumEventAgeInSeconds"].as_u64()), (Some(0), Some(60)));
}
