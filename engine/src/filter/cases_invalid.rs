//! Table: policies SNS rejects, with the error each must produce.
//! Each row: (scope, policy, substrings the message must contain). "AWS text" marks an error
//! wording AWS returns for that policy (LocalStack's AWS-recorded snapshots, May 2024).

use super::tests::{MA, MB};
use super::{FilterPolicy, FilterPolicyScope};

type Row = (FilterPolicyScope, &'static str, &'static [&'static str]);

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // "Filter policy constraints": the policy must be valid JSON.
    (MA, "", &["failed to parse JSON"]),
    (MA, r#"{"a": ["x"]"#, &["failed to parse JSON"]),
    // The policy must be a JSON object (AWS text: "Filter is not an object").
    (MA, r#"["a"]"#, &["Filter is not an object"]),
    (MB, r#""a string""#, &["Filter is not an object"]),
    // The empty policy `{}` is valid ("Removing a subscription filter policy"; see
    // `tests::the_empty_policy_accepts_every_message`), but an empty `$or` alternative has no keys.
    (MA, r#"{"$or": [{}, {"a": ["x"]}]}"#, &["Empty objects are not allowed", "$or alternative"]),
    // A key must hold a list or (body scope) an object (AWS text).
    (MA, r#"{"key_a": "value_one"}"#, &[r#"key "key_a""#, "must be an object or an array"]),
    (MB, r#"{"a": 5}"#, &[r#"key "a""#, "must be an object or an array"]),
    // Empty value lists (AWS text: "Empty arrays are not allowed").
    (MA, r#"{"a": []}"#, &[r#"key "a""#, "Empty arrays are not allowed"]),
    // List elements are strings, numbers, true, false, null or match expressions (AWS text).
    (MA, r#"{"key": [["value"]]}"#, &[r#"key "key""#, "Match value must be String, number, true, false, or null"]),
    // Unknown operators (AWS text: "Unrecognized match type wrong-operator").
    (MA, r#"{"key": [{"wrong-operator": true}]}"#, &[r#"key "key""#, "Unrecognized match type wrong-operator"]),
    // One operator per expression (AWS text).
    (MA, r#"{"key": [{"suffix": "value", "prefix": "value2"}]}"#, &["Only one key allowed in match expression"]),
    (MA, r#"{"key": [{}]}"#, &["Match expression name not found"]),
    // "String value matching": prefix/suffix/equals-ignore-case/wildcard take a string (AWS text for suffix).
    (MA, r#"{"key": [{"prefix": 5}]}"#, &["prefix match pattern must be a string"]),
    (MA, r#"{"key": [{"suffix": null}]}"#, &["suffix match pattern must be a string"]),
    (MA, r#"{"key": [{"suffix": ["test", "test2"]}]}"#, &["suffix match pattern must be a string"]),
    (MA, r#"{"key": [{"equals-ignore-case": 1}]}"#, &["equals-ignore-case match pattern must be a string"]),
    (MA, r#"{"key": [{"wildcard": true}]}"#, &["wildcard match pattern must be a string"]),
    // Wildcards: no consecutive stars (EventBridge/event-ruler rule), at most 3 per pattern ("Filter policy constraints").
    (MA, r#"{"key": [{"wildcard": "a**b"}]}"#, &[r#"key "key""#, "Consecutive wildcard"]),
    (MA, r#"{"key": [{"wildcard": "*a*b*c*"}]}"#, &["at most 3"]),
    (MA, r#"{"key": [{"wildcard": "a\\b"}]}"#, &["Invalid escape"]),
    // "Key matching": exists takes true or false (AWS text).
    (MA, r#"{"key": [{"exists": null}]}"#, &["exists match pattern must be either true or false"]),
    (MA, r#"{"key": [{"exists": "no"}]}"#, &["exists match pattern must be either true or false"]),
    // "Numeric value matching": the operand of numeric is an array (event-ruler text).
    (MA, r#"{"key": [{"numeric": 5}]}"#, &["Value of numeric must be an array"]),
    // Numeric expressions, AWS texts for each malformed shape.
    (MA, r#"{"key": [{"numeric": []}]}"#, &["Invalid member in numeric match: ]"]),
    (MA, r#"{"key": [{"numeric": ["operator"]}]}"#, &["Unrecognized numeric range operator: operator"]),
    (MA, r#"{"key": [{"numeric": [1, "<="]}]}"#, &["Invalid member in numeric match: 1"]),
    (MA, r#"{"key": [{"numeric": ["=", "000"]}]}"#, &["Value of equals must be numeric"]),
    (MA, r#"{"key": [{"numeric": [">="]}]}"#, &["Value of >= must be numeric"]),
    (MA, r#"{"key": [{"numeric": ["<", 100, ">", 10]}]}"#, &["Too many elements in numeric expression"]),
    (MA, r#"{"key": [{"numeric": ["=", 1, "<", 10]}]}"#, &["Too many elements in numeric expression"]),
    (MA, r#"{"key": [{"numeric": [">=", 1, ">", 2]}]}"#, &["Bad numeric range operator: >"]),
    (MA, r#"{"price": [{"numeric": [">", 3, "<", 1]}]}"#, &[r#"key "price""#, "Bottom must be less than top", "lower bound below the upper bound"]),
    (MA, r#"{"price": [{"numeric": [">=", 5, "<=", 5]}]}"#, &["Bottom must be less than top"]),
    (MA, r#"{"key": [{"numeric": [">", 20, "<="]}]}"#, &["Value of <= must be numeric"]),
    (MA, r#"{"key": [{"numeric": [">", 20, 30]}]}"#, &["Bad value in numeric range: 30"]),
    (MA, r#"{"key": [{"numeric": [">", 20, "test"]}]}"#, &["Bad numeric range operator: test"]),
    (MA, r#"{"key": [{"numeric": [">", "20", "<", "30"]}]}"#, &["Value of > must be numeric"]),
    (MA, r#"{"key": [{"numeric": [">", 20, "<", "30"]}]}"#, &["Value of < must be numeric"]),
    (MA, r#"{"key": [{"numeric": [">", 20, "<", 30, "<", 50]}]}"#, &["Too many terms in numeric range expression"]),
    // "Filter policy constraints": numbers range from -10^9 to 10^9 …
    (MA, r#"{"key": [{"numeric": ["=", 1000000001]}]}"#, &["out of range", "1000000000"]),
    (MA, r#"{"key": [{"numeric": [">", -1e10]}]}"#, &["out of range"]),
    // … checked on the number as written, before rounding to five decimals.
    (MA, r#"{"key": [{"numeric": ["<=", 1000000000.000001]}]}"#, &["out of range"]),
    // … "with five digits of accuracy after the decimal point": bounds equal at five decimals are
    // not a range (more decimals are accepted, see `tests::numbers_match_at_five_digits_of_accuracy`).
    (MA, r#"{"key": [{"numeric": [">", 1.000001, "<", 1.000002]}]}"#, &["Bottom must be less than top", "1.000001 and 1.000002", "equal at 5 digits of accuracy"]),
    // anything-but operands (AWS texts).
    (MA, r#"{"key": [{"anything-but": {"wrong-operator": null}}]}"#, &["Unsupported anything-but pattern: wrong-operator"]),
    (MA, r#"{"key": [{"anything-but": {"exists": false}}]}"#, &["Unsupported anything-but pattern: exists"]),
    // anything-but with equals-ignore-case is EventBridge-only (not in the SNS docs).
    (MA, r#"{"key": [{"anything-but": {"equals-ignore-case": "x"}}]}"#, &["Unsupported anything-but pattern: equals-ignore-case"]),
    (MA, r#"{"key": [{"anything-but": {"prefix": false}}]}"#, &["prefix match pattern must be a string"]),
    (MA, r#"{"key": [{"anything-but": {"prefix": ""}}]}"#, &["Null prefix/suffix not allowed"]),
    (MA, r#"{"key": [{"anything-but": {"prefix": "a", "suffix": "b"}}]}"#, &["Only one key allowed"]),
    (MA, r#"{"key": [{"anything-but": ["a", 1]}]}"#, &["mixed type is not supported"]),
    (MA, r#"{"key": [{"anything-but": []}]}"#, &["mixed type is not supported", "empty"]),
    (MA, r#"{"key": [{"anything-but": [true]}]}"#, &["start|null|boolean is not supported"]),
    (MA, r#"{"key": [{"anything-but": true}]}"#, &["Value of anything-but must be an array or single string/number value"]),
    (MA, r#"{"key": [{"anything-but": 2000000000}]}"#, &["out of range"]),
    // "String value matching", IP address matching: a CIDR block.
    (MA, r#"{"ip": [{"cidr": "10.0.0.0"}]}"#, &[r#"key "ip""#, "Malformed CIDR, one '/' required"]),
    (MA, r#"{"ip": [{"cidr": "10.0.0.0/x"}]}"#, &["mask bits must be an integer"]),
    (MA, r#"{"ip": [{"cidr": "300.0.0.1/8"}]}"#, &["Nonstandard IP address: 300.0.0.1"]),
    (MA, r#"{"ip": [{"cidr": "10.0.0.0/40"}]}"#, &["between 0 and 32"]),
    (MA, r#"{"ip": [{"cidr": 10}]}"#, &["cidr match pattern must be a string"]),
    // "Filter policy constraints": no nesting with MessageAttributes scope (AWS text).
    (MA, r#"{"object": {"key": [{"prefix": "auto-"}]}}"#, &["Filter policy scope MessageAttributes does not support nested filter policy", r#"key "object""#]),
    (MA, r#"{"$or": [{"a": ["x"]}, {"b": {"c": ["y"]}}]}"#, &["does not support nested filter policy", r#"key "b""#]),
    // Body scope: errors name the dotted path of nested keys.
    (MB, r#"{"a": {}}"#, &[r#"key "a""#, "Empty objects are not allowed"]),
    (MB, r#"{"a": {"b": "x"}}"#, &[r#"key "a.b""#, "must be an object or an array"]),
    (MB, r#"{"a": {"b": [{"prefix": 1}]}}"#, &[r#"key "a.b""#, "prefix match pattern must be a string"]),
    // "AND/OR logic": errors inside $or alternatives name the key.
    (MA, r#"{"$or": [{"a": ["x"]}, {"b": [{"nope": 1}]}]}"#, &[r#"key "b""#, "Unrecognized match type nope"]),
    // "AND/OR logic": a one-object "$or" is an ordinary key, whose object is then an unknown operator.
    (MA, r#"{"$or": [{"a": ["x"]}]}"#, &[r#"key "$or""#, "Unrecognized match type a"]),
    // "Filter policy constraints": at most five keys (AWS text).
    (MA, r#"{"key1": ["value1"], "key2": ["value2"], "key3": ["value3"], "key4": ["value4"], "key5": ["value5"], "key6": ["value6"]}"#, &["Filter policy can not have more than 5 keys"]),
    // "Filter policy constraints": in a nested policy the leaf keys count.
    (MB, r#"{"p": {"a": [1], "b": [1], "c": [1]}, "q": {"d": [1], "e": [1], "f": [1]}}"#, &["more than 5 keys", "leaf keys"]),
    // The key limit applies to each $or branch (chosen: not documented).
    (MA, r#"{"a": ["1"], "b": ["1"], "$or": [{"c": ["1"], "d": ["1"], "e": ["1"], "f": ["1"]}, {"g": ["1"]}]}"#, &["more than 5 keys"]),
    // "Filter policy constraints": at most 150 combinations (AWS text).
    (MA, r#"{"key1": ["1","2","3","4","5","6","7","8","9","10","11","12","13"], "key2": ["1","2","3","4","5","6","7","8","9","10","11","12"]}"#, &["Filter policy is too complex", "156"]),
    // "AND/OR logic": $or sums its branches: 4 x (6 + 4 x (4 + 4)) = 152 (AWS rejects it, LocalStack-recorded).
    (MA, r#"{"source": ["aws.cloudwatch", "aws.events", "aws.test", "aws.test2"], "$or": [{"metricName": ["CPUUtilization", "ReadLatency", "t1", "t2", "t3", "t4"]}, {"metricType": ["MetricType", "TestType", "TestType2", "TestType3"], "$or": [{"metricId": [1234, 4321, 5678, 9012]}, {"spaceId": [1, 2, 3, 4]}]}]}"#, &["too complex", "152"]),
    // Nested keys multiply by their nesting level: 5 x (2·2) x (1·2 + 3·2) = 160 (AWS rejects it, LocalStack-recorded).
    (MB, r#"{"$or": [{"metricName": ["CPUUtilization", "ReadLatency", "TestValue"]}, {"namespace": ["AWS/EC2", "AWS/ES"]}], "detail": {"scope": ["Service", "Test"], "$or": [{"source": ["aws.cloudwatch"]}, {"type": ["CloudWatch Alarm State Change", "TestValue", "TestValue2"]}]}}"#, &["too complex", "160"]),
    // 4·3 x 3·2 x 3·1 = 216 (AWS rejects it, LocalStack-recorded).
    (MB, r#"{"key_a": {"key_b": {"key_c": ["value_one", "value_two", "value_three", "value_four"]}}, "key_d": {"key_e": ["value_one", "value_two", "value_three"]}, "key_f": ["value_one", "value_two", "value_three"]}"#, &["too complex", "216"]),
    // "Wildcard pattern usage guidelines": total wildcard complexity at most 100 (4 patterns x 9 points x 4).
    (MA, r#"{"w": [{"wildcard": "*a*b*"}, {"wildcard": "*c*d*"}, {"wildcard": "*e*f*"}, {"wildcard": "*g*h*"}]}"#, &["wildcard complexity is 144"]),
];

#[test]
fn invalid_policy_table() {
    let mut failures = Vec::new();
    for (i, &(scope, policy, expected)) in ROWS.iter().enumerate() {
        match FilterPolicy::compile(policy, scope) {
            Ok(_) => failures.push(format!("row {i}: {policy} compiled")),
            Err(e) => {
                if !e.message.starts_with("Invalid parameter: ") {
                    failures.push(format!("row {i}: {} lacks the AWS prefix", e.message));
                }
                for part in expected {
                    if !e.message.contains(part) {
                        failures.push(format!("row {i}: {:?} does not contain {part:?}", e.message));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ROWS.len() >= 40, "{} rows", ROWS.len());
}

#[test]
fn oversized_policy_is_rejected() {
    // "Filter policy constraints": "The maximum size of a filter policy is 256 KB".
    let padding = "x".repeat(300 * 1024);
    let policy = format!("{{\"a\": [\"{padding}\"]}}");
    let e = FilterPolicy::compile(&policy, MA).unwrap_err();
    assert!(e.message.contains("maximum size of a filter policy is 256 KB"), "{}", e.message);
    // Just under the limit is fine.
    let padding = "x".repeat(256 * 1024 - 20);
    assert!(FilterPolicy::compile(&format!("{{\"a\": [\"{padding}\"]}}"), MA).is_ok());
}
