//! The `wildcard` operator (and `anything-but` with `wildcard`).
//!
//! SNS docs, "String value matching" / "Wildcard": `"customer_interests": [{"wildcard": "*ball"}]`
//! matches `baseball` and `basketball`. SNS docs, "Filter policy constraints" / "Wildcard pattern
//! usage guidelines": at most 3 wildcards per pattern, and a total wildcard complexity of at most
//! 100 points (see `limits.rs`).
//!
//! Not in the SNS docs, taken from the EventBridge docs and event-ruler (the engine both share):
//! `*` matches any run of characters including none; `\*` is a literal star and `\\` a literal
//! backslash; any other backslash escape, and two consecutive wildcards (`**`), are rejected.

/// A compiled wildcard pattern: the literal text between its stars.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Wildcard {
    /// `stars + 1` literal segments; the first precedes the first star, the last follows the last.
    segments: Vec<String>,
}

/// SNS docs, "Wildcard pattern usage guidelines": "Maximum 3 wildcards per pattern".
pub(crate) const MAX_WILDCARDS_PER_PATTERN: usize = 3;

impl Wildcard {
    /// Parses a pattern; the error names the rule that was broken.
    pub(crate) fn parse(pattern: &str) -> Result<Wildcard, String> {
        let parsed = Wildcard::parse_unbounded(pattern)?;
        let stars = parsed.stars();
        if stars > MAX_WILDCARDS_PER_PATTERN {
            return Err(format!(
                "wildcard pattern {pattern:?} has {stars} wildcards; SNS allows at most {MAX_WILDCARDS_PER_PATTERN} per pattern"
            ));
        }
        Ok(parsed)
    }

    /// Parses a pattern with any number of stars (EventBridge: "A single value can contain zero to
    /// many wildcard characters, but consecutive wildcard characters are not allowed").
    pub(crate) fn parse_unbounded(pattern: &str) -> Result<Wildcard, String> {
        let mut segments = vec![String::new()];
        let mut chars = pattern.chars().enumerate();
        let mut previous_was_star = false;
        while let Some((position, c)) = chars.next() {
            match c {
                '\\' => {
                    match chars.next() {
                        Some((_, escaped @ ('*' | '\\'))) => push_char(&mut segments, escaped),
                        _ => {
                            return Err(format!(
                                "Invalid escape character at pos {position} of wildcard pattern {pattern:?}: \
                                 only \\* and \\\\ may be escaped"
                            ))
                        }
                    }
                    previous_was_star = false;
                }
                '*' => {
                    if previous_was_star {
                        return Err(format!(
                            "Consecutive wildcard characters at pos {position} of wildcard pattern {pattern:?}"
                        ));
                    }
                    segments.push(String::new());
                    previous_was_star = true;
                }
                other => {
                    push_char(&mut segments, other);
                    previous_was_star = false;
                }
            }
        }
        Ok(Wildcard { segments })
    }

    pub(crate) fn stars(&self) -> usize {
        self.segments().len() - 1
    }

    /// The literal text between the stars, in order: `stars() + 1` segments, escapes resolved.
    pub(crate) fn segments(&self) -> &[String] {
        &self.segments
    }

    /// Whether `value` matches. Star-only globs match greedily left to right without backtracking:
    /// taking the leftmost occurrence of each middle segment never loses a match.
    pub(crate) fn matches(&self, value: &str) -> bool {
        let (first, rest) = match self.segments.split_first() {
            Some(split) => split,
            None => return false,
        };
        let Some((last, middle)) = rest.split_last() else {
            return value == first;
        };
        let Some(remaining) = value.strip_prefix(first.as_str()) else {
            return false;
        };
        let Some(mut remaining) = remaining.strip_suffix(last.as_str()) else {
            return false;
        };
        // The prefix and suffix must not overlap: `strip_suffix` ran on what the prefix left over.
        for segment in middle {
            match remaining.find(segment.as_str()) {
                Some(at) => match remaining.get(at + segment.len()..) {
                    Some(after) => remaining = after,
                    None => return false,
                },
                None => return false,
            }
        }
        true
    }
}

fn push_char(segments: &mut [String], c: char) {
    if let Some(last) = segments.last_mut() {
        last.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::Wildcard;

    fn m(pattern: &str, value: &str) -> bool {
        Wildcard::parse(pattern).unwrap().matches(value)
    }

    #[test]
    fn documented_example() {
        assert!(m("*ball", "baseball"));
        assert!(m("*ball", "basketball"));
        assert!(!m("*ball", "hockey"));
    }

    #[test]
    fn stars_in_every_position() {
        assert!(m("a*", "a"));
        assert!(m("*", ""));
        assert!(m("a*c", "abc"));
        assert!(m("a*c", "ac"));
        assert!(!m("a*c", "abd"));
        assert!(m("a*b*c", "a-b-b-c"));
        assert!(!m("ab*ba", "aba"), "prefix and suffix may not overlap");
        assert!(m("*.txt", "notes.txt"));
        assert!(m("H*", "Hello"));
        assert!(m("plain", "plain"));
        assert!(!m("plain", "plains"));
        assert!(m("é*ü", "éaü"));
    }

    #[test]
    fn escapes() {
        assert!(m(r"a\*b", "a*b"));
        assert!(!m(r"a\*b", "axb"));
        assert!(m(r"a\\*", r"a\anything"));
    }

    #[test]
    fn rejected_patterns() {
        assert!(Wildcard::parse("a**b").unwrap_err().contains("Consecutive wildcard"));
        assert!(Wildcard::parse(r"a\b").unwrap_err().contains("Invalid escape"));
        assert!(Wildcard::parse(r"trailing\").unwrap_err().contains("Invalid escape"));
        assert!(Wildcard::parse("*a*b*c*").unwrap_err().contains("at most 3"));
        assert_eq!(Wildcard::parse("*a*b*").unwrap().stars(), 3);
    }
}
