//! How deep the JSON the engine reads from a learner may nest: event patterns and events, filter
//! policies, the message bodies a filter policy reads. Checked in one pass over the bytes before
//! anything is parsed, so a document of any depth costs time in proportion to its length, and
//! nothing after the check (a parser, a pattern compiler that copies its path at every level)
//! meets more than [`MAX_NESTING`] levels.
//!
//! The limit is serde_json's (its default recursion limit of 128 levels: 127 objects or arrays
//! inside one another around a value), which the engine's other JSON (scenario files, action
//! parameters, queue policies) already meets; here it holds for every reader alike, with a
//! message that says where the text goes too deep.

/// Objects and arrays that may open inside one another.
pub const MAX_NESTING: usize = 127;

/// `Ok` when `text` opens at most [`MAX_NESTING`] objects or arrays inside one another; otherwise
/// where the first one too many opens, and what to change. Brackets inside strings do not count.
/// Only nesting is checked: the text may still be invalid JSON, for the parser to say.
pub fn check(text: &str) -> Result<(), String> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (at, &byte) in text.as_bytes().iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(text, at));
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn too_deep(text: &str, at: usize) -> String {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!(
        "the JSON nests objects and arrays more than {MAX_NESTING} deep (one more opens at line {line}, column \
         {column}); at most {MAX_NESTING} may open inside one another: flatten the structure"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(n: usize) -> String {
        format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n))
    }

    #[test]
    fn the_limit_is_serde_jsons_and_brackets_in_strings_do_not_count() {
        for n in [0, 1, MAX_NESTING] {
            assert_eq!(check(&nested(n)), Ok(()), "{n} deep");
            assert!(serde_json::from_str::<serde_json::Value>(&nested(n)).is_ok(), "serde_json reads {n} deep");
        }
        let e = check(&nested(MAX_NESTING + 1)).unwrap_err();
        assert!(e.contains("more than 127 deep (one more opens at line 1, column 636)"), "{e}");
        assert!(serde_json::from_str::<serde_json::Value>(&nested(MAX_NESTING + 1)).is_err(), "nor does serde_json");
        let strings = format!("{{\"k\": \"{}\", \"e\": \"\\\"[\"}}", "[{".repeat(500));
        assert_eq!(check(&strings), Ok(()));
        let mixed = format!("[\n{}{}", "[".repeat(MAX_NESTING - 1), "{");
        assert!(check(&mixed).unwrap_err().contains("line 2, column 127"), "{}", check(&mixed).unwrap_err());
    }

    #[test]
    fn a_deep_document_is_refused_in_time_proportional_to_its_length() {
        // 5,000,000 levels: refused at the 128th, long before the end.
        let deep = "[".repeat(5_000_000);
        assert!(check(&deep).is_err());
        let wide = format!("[{}1]", "[1],".repeat(1_000_000));
        assert_eq!(check(&wide), Ok(()));
    }
}
