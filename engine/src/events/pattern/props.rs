//! Property: compiling any text as a pattern and matching any JSON event never panics, and a
//! pattern that compiles gives the same answer twice.

use super::EventPattern;
use proptest::prelude::*;

fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        "-?[0-9]{1,3}(\\.[0-9]{1,7})?(e[0-9])?".prop_map(|s| s),
        prop::sample::select(vec!["\"prefix\"", "\"a.b\"", "\"10.0.0.1\"", "\"\"", "\"x*y\"", "\"$or\"", "\"exists\""])
            .prop_map(str::to_string),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        let key = prop::sample::select(vec![
            "source",
            "detail",
            "a",
            "a.b",
            "$or",
            "prefix",
            "suffix",
            "numeric",
            "anything-but",
            "exists",
            "wildcard",
            "cidr",
            "equals-ignore-case",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec((key, inner), 0..4).prop_map(|kv| {
                let fields: Vec<String> = kv.into_iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", fields.join(","))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]
    #[test]
    fn any_pattern_and_event_never_panic(pattern in json_text(), event in json_text(), garbage in "[\\[\\]{}\":,a-z0-9]{0,30}") {
        for text in [&pattern, &garbage] {
            if let Ok(p) = EventPattern::compile(text) {
                prop_assert_eq!(p.matches_json(&event), p.matches_json(&event));
                let _ = p.matches_json(&garbage);
            }
        }
    }
}
