//! Table: patterns EventBridge refuses with `InvalidEventPatternException`, each with the rule
//! it breaks (reasons are event-ruler's `JsonRuleCompiler` texts unless noted).

use super::EventPattern;

#[rustfmt::skip]
const ROWS: &[(&str, &str)] = &[
    ("not json", "Filter is not valid JSON"),
    (r#"["source"]"#, "Filter is not an object"),
    ("{}", "Empty objects are not allowed"),
    (r#"{"detail": {}}"#, "Empty objects are not allowed"),
    (r#"{"source": "aws.ec2"}"#, "must be an object or an array"),
    (r#"{"source": []}"#, "Empty arrays are not allowed"),
    (r#"{"source": [["a"]]}"#, "Match value must be String, number, true, false, or null"),
    (r#"{"source": [{}]}"#, "Match expression name not found"),
    (r#"{"source": [{"prefix": "a", "suffix": "b"}]}"#, "Only one key allowed in match expression"),
    (r#"{"source": [{"contains": "a"}]}"#, "Unrecognized match type contains"),
    (r#"{"source": [{"prefix": 5}]}"#, "prefix match pattern must be a string"),
    (r#"{"source": [{"prefix": {"wildcard": "a*"}}]}"#, "Unsupported prefix pattern: wildcard"),
    (r#"{"source": [{"suffix": {}}]}"#, "Suffix expression name not found"),
    (r#"{"source": [{"equals-ignore-case": ["a"]}]}"#, "equals-ignore-case match pattern must be a string"),
    (r#"{"source": [{"wildcard": "a**b"}]}"#, "Consecutive wildcard"),
    (r#"{"source": [{"wildcard": "a\\b"}]}"#, "Invalid escape"),
    (r#"{"ip": [{"cidr": "10.0.0.0/33"}]}"#, "between 0 and 32"),
    (r#"{"ip": [{"cidr": "bad"}]}"#, "Malformed CIDR"),
    (r#"{"s": [{"exists": "yes"}]}"#, "exists match pattern must be either true or false."),
    (r#"{"n": [{"numeric": 5}]}"#, "Value of numeric must be an array."),
    (r#"{"n": [{"numeric": [">", "5"]}]}"#, "Value of > must be numeric"),
    (r#"{"n": [{"numeric": ["!=", 5]}]}"#, "Unrecognized numeric range operator"),
    (r#"{"n": [{"numeric": [">", 10, "<", 5]}]}"#, "Bottom must be less than top"),
    (r#"{"n": [{"numeric": ["<", 10, ">", 5]}]}"#, "Too many elements in numeric expression"),
    // "limited to values between -5.0e9 and +5.0e9 inclusive".
    (r#"{"n": [{"numeric": [">", 5000000001]}]}"#, "out of range"),
    (r#"{"n": [{"anything-but": [1, "a"]}]}"#, "mixed type is not supported"),
    (r#"{"n": [{"anything-but": []}]}"#, "mixed type is not supported"),
    (r#"{"n": [{"anything-but": [null]}]}"#, "start|null|boolean is not supported"),
    (r#"{"n": [{"anything-but": true}]}"#, "must be an array or single string/number value"),
    (r#"{"n": [{"anything-but": {"numeric": [">", 1]}}]}"#, "Unsupported anything-but pattern: numeric"),
    (r#"{"n": [{"anything-but": {}}]}"#, "Anything-But expression name not found"),
    (r#"{"n": [{"anything-but": {"prefix": ""}}]}"#, "Null prefix/suffix not allowed"),
    (r#"{"n": [{"anything-but": {"equals-ignore-case": [1]}}]}"#, "number|start|null|boolean is not supported"),
    (r#"{"n": [{"anything-but": {"wildcard": [1]}}]}"#, "wildcard match pattern must be a string"),
    // "Wildcards and event pattern complexity" (complexity.rs): the recorded refusal, and the same
    // wildcard under anything-but.
    (r#"{"EventBusArn": [{"wildcard": "*:*:*:*:*:event-bus/*"}]}"#, "Rule is too complex - try using fewer wildcard characters or fewer repeating character sequences after a wildcard character"),
    (r#"{"a": [{"anything-but": {"wildcard": ["*:*:*:*:*:event-bus/*"]}}]}"#, "Rule is too complex"),
    (r#"{"$or": [{"a": ["x"]}, {"b": [{"wildcard": "*:*:*:*:*:event-bus/*"}]}]}"#, "Rule is too complex"),
    // An $or alternative that is empty.
    (r#"{"$or": [{"a": ["1"]}, {}]}"#, "Empty objects are not allowed"),
];

#[test]
fn invalid_patterns_are_refused_with_the_broken_rule() {
    for (pattern, rule) in ROWS {
        let err = EventPattern::compile(pattern).expect_err(pattern);
        assert_eq!(err.code, "InvalidEventPatternException", "{pattern}");
        assert!(err.message.starts_with("Event pattern is not valid. Reason: "), "{pattern}: {}", err.message);
        assert!(err.message.contains(rule), "{pattern}: {} should say {rule:?}", err.message);
    }
}

#[test]
fn what_eventbridge_accepts_and_sns_does_not() {
    // No five-key limit, no 150-combination limit, no three-wildcard limit (SNS's limits); a
    // wildcard is limited by its complexity instead.
    let six_keys = r#"{"a": [1], "b": [2], "c": [3], "d": [4], "e": [5], "f": [6]}"#;
    let many_values = format!("{{\"a\": [{}]}}", (0..200).map(|i| i.to_string()).collect::<Vec<_>>().join(","));
    for ok in [
        six_keys,
        &many_values,
        r#"{"p": [{"wildcard": "*a*b*c*d*"}]}"#,
        // The recorded accepted wildcards (complexity.rs): 3, 7 and 2 prefixes at most.
        r#"{"EventBusArn": [{"wildcard": "arn:aws:events:us-east-1:*:event-bus/*"}]}"#,
        r#"{"FileName": [{"wildcard": "/Users/*/dir/dir/dir/dir/dir/doc.txt"}]}"#,
        r#"{"FileName": [{"wildcard": "/Users/*/doc.txt"}]}"#,
        r#"{"detail": {"state": [{"anything-but": {"prefix": ["init", "error"]}}]}}"#,
        r#"{"detail": {"state": [{"anything-but": {"equals-ignore-case": ["Stopped", "OverLoaded"]}}]}}"#,
        r#"{"$or": {"metricType": ["MetricType"]}}"#,
    ] {
        assert!(EventPattern::compile(ok).is_ok(), "{ok}");
    }
}
