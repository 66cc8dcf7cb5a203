//! Table: `MessageAttributes`-scope policies against message attributes.
//! Each row: (policy, attributes as (name, DataType, StringValue), expected match).
//! Doc pages cited are under <https://docs.aws.amazon.com/sns/latest/dg/>.

use super::tests::{attrs, compile, verdict, MA};
use super::Verdict;

type Row = (&'static str, &'static [(&'static str, &'static str, &'static str)], bool);

const CI: &str = r#"{"customer_interests": ["rugby", "tennis"]}"#;
const AB: &str = r#"{"customer_interests": [{"anything-but": ["rugby", "tennis"]}]}"#;
const PRICE_AB: &str = r#"{"price": [{"anything-but": [100, 500]}]}"#;
const RANGE: &str = r#"{"price_usd": [{"numeric": [">", 0, "<=", 150]}]}"#;
const OR: &str =
    r#"{"source": ["aws.cloudwatch"], "$or": [{"metricName": ["CPUUtilization"]}, {"namespace": ["AWS/EC2"]}]}"#;
const OR7: &str = r#"{"source": ["aws.cloudwatch"], "$or": [{"metricName": ["CPUUtilization", "ReadLatency"]}, {"metricType": ["MetricType"], "$or": [{"metricId": [1234, 4321]}, {"spaceId": [1000, 2000, 3000]}]}]}"#;
const ACCEPTS: &str = r#"{"store": ["example_corp"], "event": [{"anything-but": "order_cancelled"}], "customer_interests": ["rugby", "football", "baseball"], "price_usd": [{"numeric": [">=", 100]}]}"#;
const REJECTS: &str = r#"{"store": ["example_corp"], "event": ["order_cancelled"], "encrypted": [false], "customer_interests": ["basketball", "baseball"]}"#;
const EXAMPLE_MESSAGE: &[(&str, &str, &str)] = &[
    ("customer_interests", "String.Array", r#"["soccer", "rugby", "hockey"]"#),
    ("store", "String", "example_corp"),
    ("event", "String", "order_placed"),
    ("price_usd", "Number", "210.75"),
];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // "String value matching", exact: a listed value matches.
    (CI, &[("customer_interests", "String", "rugby")], true),
    // "String value matching", exact: any value of the list matches (OR).
    (CI, &[("customer_interests", "String", "tennis")], true),
    // "String value matching", exact: an unlisted value does not match.
    (CI, &[("customer_interests", "String", "baseball")], false),
    // "String value matching": String.Array elements are matched one by one.
    (CI, &[("customer_interests", "String.Array", r#"["rugby", "tennis"]"#)], true),
    // "String value matching": a String.Array with no listed element does not match.
    (CI, &[("customer_interests", "String.Array", r#"["baseball"]"#)], false),
    // "Filter policy constraints": string matching is case-sensitive.
    (CI, &[("customer_interests", "String", "Rugby")], false),
    // "Amazon SNS subscription filter policies": every policy key must name a message attribute.
    (CI, &[("other", "String", "rugby")], false),
    // "Amazon SNS subscription filter policies": attributes not in the policy are ignored.
    (CI, &[("customer_interests", "String", "rugby"), ("other", "String", "x")], true),
    // "Amazon SNS subscription filter policies": no attributes at all cannot satisfy a key.
    (CI, &[], false),
    // "Numeric value matching": a bare number matches a Number attribute numerically.
    (r#"{"price": [100]}"#, &[("price", "Number", "100")], true),
    // "Amazon SNS message attributes": leading and trailing zeroes of a Number are trimmed.
    (r#"{"price": [100]}"#, &[("price", "Number", "100.000")], true),
    // "Numeric value matching": exponent notation is the same number.
    (r#"{"price": [100]}"#, &[("price", "Number", "1e2")], true),
    // "Numeric value matching": a different number does not match.
    (r#"{"price": [100]}"#, &[("price", "Number", "101")], false),
    // Typed values (not confirmed in docs): a number in the policy does not match a String attribute.
    (r#"{"price": [100]}"#, &[("price", "String", "100")], false),
    // Typed values (not confirmed in docs): a string in the policy does not match a Number attribute.
    (r#"{"price": ["100"]}"#, &[("price", "Number", "100")], false),
    // "Numeric value matching", exact: "=" with 301.5.
    (r#"{"price_usd": [{"numeric": ["=", 301.5]}]}"#, &[("price_usd", "Number", "301.5")], true),
    // "Numeric value matching", exact: 3.015e2 equals 301.5.
    (r#"{"price_usd": [{"numeric": ["=", 301.5]}]}"#, &[("price_usd", "Number", "3.015e2")], true),
    // "Numeric value matching", exact: numbers compare exactly (no float rounding).
    (r#"{"price_usd": [{"numeric": ["=", 301.5]}]}"#, &[("price_usd", "Number", "301.50001")], false),
    // "Numeric value matching", range: "<" 0 matches negative values.
    (r#"{"price_usd": [{"numeric": ["<", 0]}]}"#, &[("price_usd", "Number", "-1")], true),
    // "Numeric value matching", range: "<" 0 excludes 0.
    (r#"{"price_usd": [{"numeric": ["<", 0]}]}"#, &[("price_usd", "Number", "0")], false),
    // "Numeric value matching", range: five digits of accuracy below zero.
    (r#"{"price_usd": [{"numeric": ["<", 0]}]}"#, &[("price_usd", "Number", "-0.00001")], true),
    // "Numeric value matching", range: "> 0, <= 150" includes 150.
    (RANGE, &[("price_usd", "Number", "150")], true),
    // "Numeric value matching", range: "> 0" excludes 0.
    (RANGE, &[("price_usd", "Number", "0")], false),
    // "Numeric value matching", range: just above the upper bound.
    (RANGE, &[("price_usd", "Number", "150.00001")], false),
    // "Numeric value matching", range: just above the lower bound.
    (RANGE, &[("price_usd", "Number", "0.00001")], true),
    // "Numeric value matching": ">=" includes its bound.
    (r#"{"p": [{"numeric": [">=", 100]}]}"#, &[("p", "Number", "100")], true),
    // "Numeric value matching": ">" excludes its bound.
    (r#"{"p": [{"numeric": [">", 100]}]}"#, &[("p", "Number", "100")], false),
    // "Numeric value matching": "<=" includes its bound.
    (r#"{"p": [{"numeric": ["<=", 5]}]}"#, &[("p", "Number", "5")], true),
    // "Numeric value matching": half-open range excludes the top.
    (r#"{"p": [{"numeric": [">=", 10, "<", 20]}]}"#, &[("p", "Number", "20")], false),
    // "Numeric value matching": half-open range includes the bottom.
    (r#"{"p": [{"numeric": [">=", 10, "<", 20]}]}"#, &[("p", "Number", "10")], true),
    // "Numeric value matching": a range of negative numbers.
    (r#"{"p": [{"numeric": [">=", -10, "<=", -5]}]}"#, &[("p", "Number", "-7.5")], true),
    // "Numeric value matching" ("Prefixes are supported for string matching only"): numeric needs a number, not a String.
    (r#"{"p": [{"numeric": [">", 1]}]}"#, &[("p", "String", "50")], false),
    // "Amazon SNS message attributes": String.Array may hold numbers, matched numerically.
    (r#"{"p": [{"numeric": [">", 1]}]}"#, &[("p", "String.Array", r#"[5, "x"]"#)], true),
    // "Amazon SNS message attributes": a quoted number in a String.Array is a string.
    (r#"{"p": [{"numeric": [">", 1]}]}"#, &[("p", "String.Array", r#"["5"]"#)], false),
    // "Amazon SNS message attributes": a Number attribute that is not a number matches nothing.
    (r#"{"p": [{"numeric": [">", 1]}]}"#, &[("p", "Number", "abc")], false),
    // "Numeric value matching": message values beyond 10^9 still compare correctly (exactly).
    (r#"{"p": [{"numeric": ["<", 1000000000]}]}"#, &[("p", "Number", "1e20")], false),
    // "Numeric value matching": and match an open-ended range.
    (r#"{"p": [{"numeric": [">", 0]}]}"#, &[("p", "Number", "1e20")], true),
    // "Filter policy constraints": custom type labels keep their base type (Number.float).
    (r#"{"p": [{"numeric": [">", 1]}]}"#, &[("p", "Number.float", "2.5")], true),
    // "Filter policy constraints": String.custom is a String.
    (r#"{"a": ["x"]}"#, &[("a", "String.custom", "x")], true),
    // "String value matching", anything-but: an unlisted value matches.
    (AB, &[("customer_interests", "String", "baseball")], true),
    // "String value matching", anything-but: another unlisted value matches.
    (AB, &[("customer_interests", "String", "football")], true),
    // "String value matching", anything-but: a listed value does not match.
    (AB, &[("customer_interests", "String", "rugby")], false),
    // "String value matching", anything-but: String.Array ["rugby", "baseball"] matches (an element isn't listed).
    (AB, &[("customer_interests", "String.Array", r#"["rugby", "baseball"]"#)], true),
    // "String value matching", anything-but: String.Array ["rugby"] does not match.
    (AB, &[("customer_interests", "String.Array", r#"["rugby"]"#)], false),
    // "String value matching", anything-but: the attribute must be present.
    (AB, &[("other", "String", "baseball")], false),
    // "String value matching": anything-but "can be combined with "exists": false" (absent key).
    (r#"{"ci": [{"anything-but": ["rugby"]}, {"exists": false}]}"#, &[("other", "String", "x")], true),
    // "String value matching": anything-but with exists false still rejects a listed value.
    (r#"{"ci": [{"anything-but": ["rugby"]}, {"exists": false}]}"#, &[("ci", "String", "rugby")], false),
    // "Example filter policies": anything-but with a single string.
    (r#"{"event": [{"anything-but": "order_cancelled"}]}"#, &[("event", "String", "order_placed")], true),
    // "Example filter policies": anything-but with a single string rejects that string.
    (r#"{"event": [{"anything-but": "order_cancelled"}]}"#, &[("event", "String", "order_cancelled")], false),
    // "Numeric value matching", anything-but: 101 is not 100 or 500.
    (PRICE_AB, &[("price", "Number", "101")], true),
    // "Numeric value matching", anything-but: 100.1 is not 100 or 500.
    (PRICE_AB, &[("price", "Number", "100.1")], true),
    // "Numeric value matching", anything-but: 100 is excluded.
    (PRICE_AB, &[("price", "Number", "100")], false),
    // "Numeric value matching", anything-but: excluded numerically (1e2 is 100).
    (PRICE_AB, &[("price", "Number", "1e2")], false),
    // "Numeric value matching", anything-but: an array [100, 50] contains a value that isn't excluded.
    (PRICE_AB, &[("price", "String.Array", "[100, 50]")], true),
    // "Numeric value matching", anything-but: an array of excluded values only does not match.
    (PRICE_AB, &[("price", "String.Array", "[500, 100]")], false),
    // Typed values (not confirmed in docs): a Number is never one of excluded strings.
    (r#"{"a": [{"anything-but": ["5"]}]}"#, &[("a", "Number", "5")], true),
    // "String value matching", anything-but prefix: "data-entry" does not start with "order-".
    (r#"{"event": [{"anything-but": {"prefix": "order-"}}]}"#, &[("event", "String", "data-entry")], true),
    // "String value matching", anything-but prefix: "order_number" does not start with "order-".
    (r#"{"event": [{"anything-but": {"prefix": "order-"}}]}"#, &[("event", "String", "order_number")], true),
    // "String value matching", anything-but prefix: "order-cancelled" is denied.
    (r#"{"event": [{"anything-but": {"prefix": "order-"}}]}"#, &[("event", "String", "order-cancelled")], false),
    // "String value matching", anything-but suffix: hockey/rugby/soccer match.
    (r#"{"ci": [{"anything-but": {"suffix": "ball"}}]}"#, &[("ci", "String.Array", r#"["hockey", "rugby", "soccer"]"#)], true),
    // "String value matching", anything-but suffix: baseball/basketball do not.
    (r#"{"ci": [{"anything-but": {"suffix": "ball"}}]}"#, &[("ci", "String.Array", r#"["baseball", "basketball"]"#)], false),
    // "String value matching", anything-but wildcard: "*ball" denies basketball.
    (r#"{"ci": [{"anything-but": {"wildcard": "*ball"}}]}"#, &[("ci", "String", "basketball")], false),
    // "String value matching", anything-but wildcard: rugby passes.
    (r#"{"ci": [{"anything-but": {"wildcard": "*ball"}}]}"#, &[("ci", "String", "rugby")], true),
    // "String value matching", prefix: baseball begins with "bas".
    (r#"{"ci": [{"prefix": "bas"}]}"#, &[("ci", "String", "baseball")], true),
    // "String value matching", prefix: basketball begins with "bas".
    (r#"{"ci": [{"prefix": "bas"}]}"#, &[("ci", "String", "basketball")], true),
    // "String value matching", prefix: rugby does not.
    (r#"{"ci": [{"prefix": "bas"}]}"#, &[("ci", "String", "rugby")], false),
    // "Filter policy constraints": prefix matching is case-sensitive.
    (r#"{"ci": [{"prefix": "bas"}]}"#, &[("ci", "String", "Baseball")], false),
    // "Numeric value matching": "Prefixes are supported for string matching only".
    (r#"{"n": [{"prefix": "12"}]}"#, &[("n", "Number", "123")], false),
    // "String value matching": prefix on a String.Array element.
    (r#"{"ci": [{"prefix": "bas"}]}"#, &[("ci", "String.Array", r#"["rugby", "basketball"]"#)], true),
    // "String value matching", suffix: baseball ends with "ball".
    (r#"{"ci": [{"suffix": "ball"}]}"#, &[("ci", "String", "baseball")], true),
    // "String value matching", suffix: rugby does not.
    (r#"{"ci": [{"suffix": "ball"}]}"#, &[("ci", "String", "rugby")], false),
    // "String value matching", suffix: multi-byte characters are handled.
    (r#"{"w": [{"suffix": "é"}]}"#, &[("w", "String", "café")], true),
    // "String value matching", equals-ignore-case: TENNIS.
    (r#"{"ci": [{"equals-ignore-case": "tennis"}]}"#, &[("ci", "String", "TENNIS")], true),
    // "String value matching", equals-ignore-case: Tennis.
    (r#"{"ci": [{"equals-ignore-case": "tennis"}]}"#, &[("ci", "String", "Tennis")], true),
    // "String value matching", equals-ignore-case: still an equality, not a prefix.
    (r#"{"ci": [{"equals-ignore-case": "tennis"}]}"#, &[("ci", "String", "tennis2")], false),
    // "String value matching", equals-ignore-case: beyond ASCII.
    (r#"{"ci": [{"equals-ignore-case": "ÉCOLE"}]}"#, &[("ci", "String", "école")], true),
    // "String value matching", wildcard: "*ball" matches baseball.
    (r#"{"ci": [{"wildcard": "*ball"}]}"#, &[("ci", "String", "baseball")], true),
    // "String value matching", wildcard: hockey does not match "*ball".
    (r#"{"ci": [{"wildcard": "*ball"}]}"#, &[("ci", "String", "hockey")], false),
    // "String value matching", wildcard: a star in the middle.
    (r#"{"ci": [{"wildcard": "b*ll"}]}"#, &[("ci", "String", "ball")], true),
    // "String value matching", IP address matching: 10.0.0.0 is in 10.0.0.0/24.
    (r#"{"source_ip": [{"cidr": "10.0.0.0/24"}]}"#, &[("source_ip", "String", "10.0.0.0")], true),
    // "String value matching", IP address matching: 10.0.0.255 is in 10.0.0.0/24.
    (r#"{"source_ip": [{"cidr": "10.0.0.0/24"}]}"#, &[("source_ip", "String", "10.0.0.255")], true),
    // "String value matching", IP address matching: 10.1.1.0 is not.
    (r#"{"source_ip": [{"cidr": "10.0.0.0/24"}]}"#, &[("source_ip", "String", "10.1.1.0")], false),
    // "String value matching", IP address matching: a non-address never matches.
    (r#"{"source_ip": [{"cidr": "10.0.0.0/24"}]}"#, &[("source_ip", "String", "not-an-ip")], false),
    // IP address matching, IPv6 (not confirmed in the SNS docs, which only show IPv4).
    (r#"{"ip": [{"cidr": "2001:db8::/32"}]}"#, &[("ip", "String", "2001:db8::1")], true),
    // "Key matching": exists true matches a message with the key.
    (r#"{"store": [{"exists": true}]}"#, &[("store", "String", "fans"), ("customer_interests", "String.Array", r#"["baseball", "basketball"]"#)], true),
    // "Key matching": exists true does not match without the key.
    (r#"{"store": [{"exists": true}]}"#, &[("customer_interests", "String.Array", r#"["baseball", "basketball"]"#)], false),
    // "Key matching": exists false does not match with the key.
    (r#"{"store": [{"exists": false}]}"#, &[("store", "String", "fans"), ("customer_interests", "String.Array", r#"["baseball", "basketball"]"#)], false),
    // "Key matching": exists false matches without the key.
    (r#"{"store": [{"exists": false}]}"#, &[("customer_interests", "String.Array", r#"["baseball", "basketball"]"#)], true),
    // "Key matching": "An empty set of attributes results in the filter not matching" (exists false).
    (r#"{"store": [{"exists": false}]}"#, &[], false),
    // "Key matching": exists true is satisfied by a Number attribute (LocalStack, AWS-recorded).
    (r#"{"store": [{"exists": true}]}"#, &[("store", "Number", "99")], true),
    // "Filter policy constraints": Binary attributes are ignored, so they do not exist for the policy.
    (r#"{"store": [{"exists": true}]}"#, &[("store", "Binary", "AAEC")], false),
    // "Filter policy constraints": a message with only Binary attributes has no attributes to match (chosen).
    (r#"{"store": [{"exists": false}]}"#, &[("other", "Binary", "AAEC")], false),
    // "Key matching": exists true needs a non-empty value; an empty String.Array has none.
    (r#"{"store": [{"exists": true}]}"#, &[("store", "String.Array", "[]")], false),
    // "Filter policy constraints": a Binary attribute never matches a value.
    (r#"{"a": ["x"]}"#, &[("a", "Binary", "eA==")], false),
    // "AND/OR logic", AND: both keys match.
    (r#"{"customer_interests": ["rugby"], "price_usd": [{"numeric": [">", 100]}]}"#, &[("customer_interests", "String", "rugby"), ("price_usd", "Number", "101")], true),
    // "AND/OR logic", AND: one key fails.
    (r#"{"customer_interests": ["rugby"], "price_usd": [{"numeric": [">", 100]}]}"#, &[("customer_interests", "String", "rugby"), ("price_usd", "Number", "100")], false),
    // "AND/OR logic", AND: one key missing.
    (r#"{"customer_interests": ["rugby"], "price_usd": [{"numeric": [">", 100]}]}"#, &[("price_usd", "Number", "500")], false),
    // "AND/OR logic", OR within a key: operators of different kinds mix in one list (prefix).
    (r#"{"a": ["x", {"prefix": "y"}, {"numeric": [">", 5]}]}"#, &[("a", "String", "yes")], true),
    // "AND/OR logic", OR within a key: the numeric condition.
    (r#"{"a": ["x", {"prefix": "y"}, {"numeric": [">", 5]}]}"#, &[("a", "Number", "6")], true),
    // "AND/OR logic", OR within a key: nothing matches.
    (r#"{"a": ["x", {"prefix": "y"}, {"numeric": [">", 5]}]}"#, &[("a", "String", "z")], false),
    // "AND/OR logic", $or: source and metricName.
    (OR, &[("source", "String", "aws.cloudwatch"), ("metricName", "String", "CPUUtilization")], true),
    // "AND/OR logic", $or: source and namespace.
    (OR, &[("source", "String", "aws.cloudwatch"), ("namespace", "String", "AWS/EC2")], true),
    // "AND/OR logic", $or: neither alternative.
    (OR, &[("source", "String", "aws.cloudwatch")], false),
    // "AND/OR logic", $or: the keys outside $or are still required.
    (OR, &[("metricName", "String", "CPUUtilization")], false),
    // "AND/OR logic", nested $or: source AND metricType AND spaceId.
    (OR7, &[("source", "String", "aws.cloudwatch"), ("metricType", "String", "MetricType"), ("spaceId", "Number", "2000")], true),
    // "AND/OR logic", nested $or: metricId not listed.
    (OR7, &[("source", "String", "aws.cloudwatch"), ("metricType", "String", "MetricType"), ("metricId", "Number", "9999")], false),
    // "AND/OR logic": "$or" without an array of objects is a regular attribute name.
    (r#"{"$or": ["a", "b"]}"#, &[("$or", "String", "a")], true),
    // "AND/OR logic": "$or" whose objects use reserved keywords is a regular attribute name.
    (r#"{"$or": [{"prefix": "ab"}, {"suffix": "yz"}]}"#, &[("$or", "String", "abc")], true),
    // "Filter policy constraints": the keyword false matches a String.Array false.
    (r#"{"encrypted": [false]}"#, &[("encrypted", "String.Array", "[false]")], true),
    // Typed values (not confirmed in docs): the keyword false does not match the String "false".
    (r#"{"encrypted": [false]}"#, &[("encrypted", "String", "false")], false),
    // null matches only an explicit null, not a missing attribute (LocalStack, AWS-recorded).
    (r#"{"a": [null]}"#, &[("b", "String", "x")], false),
    // "Amazon SNS message attributes": String.Array may hold null.
    (r#"{"a": [null]}"#, &[("a", "String.Array", "[null]")], true),
    // "Amazon SNS message attributes": String.Array may hold true.
    (r#"{"a": [true]}"#, &[("a", "String.Array", "[true, 1]")], true),
    // "Amazon SNS message attributes": String.Array numbers match bare policy numbers.
    (r#"{"a": [1]}"#, &[("a", "String.Array", "[1, 2]")], true),
    // A String.Array whose value is not a JSON array matches nothing (chosen).
    (r#"{"a": ["x"]}"#, &[("a", "String.Array", "not json")], false),
    // "Example filter policies": the policy that accepts the example message.
    (ACCEPTS, EXAMPLE_MESSAGE, true),
    // "Example filter policies": the policy that rejects the example message.
    (REJECTS, EXAMPLE_MESSAGE, false),
];

#[test]
fn attribute_scope_table() {
    let mut failures = Vec::new();
    for (i, &(policy, attributes, want)) in ROWS.iter().enumerate() {
        let got = verdict(&compile(MA, policy), &attrs(attributes), "") == Verdict::Match;
        if got != want {
            failures.push(format!("row {i}: {policy} with {attributes:?}: expected {want}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ROWS.len() >= 100, "{} rows", ROWS.len());
}
