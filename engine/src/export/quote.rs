//! Quoting any user string for the three languages an export writes: YAML scalars, Python string
//! literals and shell words, plus YAML comments. Every function is total: whatever the text
//! (quotes, colons, `#`, newlines, control characters, any Unicode), the output parses back to
//! exactly that text. Characters that are legal but invisible or reorder the display (bidi
//! controls, zero-width spaces, line and paragraph separators, the byte-order mark) are always
//! written as escapes, so what a reader sees is what runs.

/// Characters written as an escape even where they would be legal as they are.
fn is_invisible(c: char) -> bool {
    matches!(c as u32, 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x2069 | 0xFEFF)
}

/// YAML 1.1's printable set (what PyYAML, and so cfn-lint, reads), minus the invisible ones.
fn yaml_printable(c: char) -> bool {
    // U+0085 (NEL) is printable to YAML but read as a line break, so it is left out here too.
    matches!(c as u32, 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x1_0000..=0x10_FFFF) && !is_invisible(c)
}

/// Words a YAML 1.1 reader turns into booleans or null when they stand unquoted.
const YAML_KEYWORDS: &[&str] = &["y", "n", "yes", "no", "on", "off", "true", "false", "null"];

/// Whether `s` can stand as a plain YAML scalar and still be read as this string: it starts with
/// a letter (so it is no number, date or indicator) and has only letters, digits and `_ . / - :`
/// (a colon not last, so never `: `, as in `AWS::SQS::Queue`).
fn yaml_plain_ok(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else { return false };
    first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-' | ':'))
        && !s.ends_with(':')
        && !YAML_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(s))
}

/// A YAML scalar that reads back as `s`, a string: plain when that is safe, single-quoted when
/// every character is printable, double-quoted with escapes otherwise.
pub fn yaml_str(s: &str) -> String {
    if yaml_plain_ok(s) {
        return s.to_string();
    }
    if s.chars().all(yaml_printable) {
        return format!("'{}'", s.replace('\'', "''"));
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if yaml_printable(c) => out.push(c),
            c => push_hex_escape(&mut out, c),
        }
    }
    out.push('"');
    out
}

/// `\xHH`, `\uHHHH` or `\UHHHHHHHH`: the escapes YAML and Python share.
fn push_hex_escape(out: &mut String, c: char) {
    let n = c as u32;
    let text = if n < 0x100 {
        format!("\\x{n:02x}")
    } else if n < 0x1_0000 {
        format!("\\u{n:04x}")
    } else {
        format!("\\U{n:08x}")
    };
    out.push_str(&text);
}

/// Text safe inside a YAML (or Python, or shell) comment on one line: whatever is not printable,
/// or is invisible, is shown as `\u{…}`; line breaks become spaces.
pub fn comment_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' => " ".to_string(),
            c if yaml_printable(c) => c.to_string(),
            c => format!("\\u{{{:x}}}", c as u32),
        })
        .collect()
}

/// A Python 3 string literal whose value is `s`: in double quotes, or in single quotes when
/// that spares escaping the double quotes of a JSON text.
pub fn py_str(s: &str) -> String {
    let q = if s.contains('"') && !s.contains('\'') { '\'' } else { '"' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || is_invisible(c) || !yaml_printable(c) => push_hex_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// A shell word (bash) whose value is `s`: `'…'` when every character can stand as it is,
/// else `$'…'` with each awkward character written as its UTF-8 bytes in `\xHH` (which bash
/// reads the same in every locale). A NUL cannot be in a shell argument at all: `None`.
pub fn sh_str(s: &str) -> Option<String> {
    if s.contains('\0') {
        return None;
    }
    if s.chars().all(|c| c == '\n' || yaml_printable(c)) {
        return Some(format!("'{}'", s.replace('\'', "'\\''")));
    }
    let mut out = String::from("$'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            c if yaml_printable(c) => out.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
        }
    }
    out.push('\'');
    Some(out)
}

/// `order-events` → `OrderEvents`: ASCII letters and digits only, each run of them capitalised.
/// Empty when `s` has no ASCII letter or digit.
pub fn camel(s: &str) -> String {
    let mut out = String::new();
    for part in s.split(|c: char| !c.is_ascii_alphanumeric()).filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_yaml_only_for_words_that_read_back_as_strings() {
        assert_eq!(yaml_str("order-events"), "order-events");
        assert_eq!(yaml_str("AWS/SQS"), "AWS/SQS");
        assert_eq!(yaml_str("AWS::SQS::Queue"), "AWS::SQS::Queue");
        for s in ["60", "yes", "No", "null", "2026-01-01", "", " x", "a: b", "a:", "#x", "1e3", "on"] {
            assert!(yaml_str(s).starts_with('\''), "{s:?} must be quoted, got {}", yaml_str(s));
        }
    }

    #[test]
    fn quoted_yaml_escapes_what_cannot_stand() {
        assert_eq!(yaml_str("it's"), "'it''s'");
        assert_eq!(yaml_str("a\nb\t\"c\"\\"), "\"a\\nb\\t\\\"c\\\"\\\\\"");
        assert_eq!(yaml_str("x\u{7f}\u{202e}"), "\"x\\x7f\\u202e\"");
        assert_eq!(yaml_str("é 😀"), "'é 😀'");
    }

    #[test]
    fn python_literals_escape_controls_and_invisible_characters() {
        assert_eq!(py_str("a\"b'\\c\nd"), "\"a\\\"b'\\\\c\\nd\"");
        assert_eq!(py_str("{\"k\": 1}"), "'{\"k\": 1}'");
        assert_eq!(py_str("\u{0}\u{2028}é"), "\"\\x00\\u2028é\"");
    }

    #[test]
    fn shell_words_quote_or_escape() {
        assert_eq!(sh_str("it's").as_deref(), Some("'it'\\''s'"));
        assert_eq!(sh_str("a\u{1}b").as_deref(), Some("$'a\\x01b'"));
        assert_eq!(sh_str("\u{202e}").as_deref(), Some("$'\\xe2\\x80\\xae'"));
        assert_eq!(sh_str("nul\0"), None);
    }

    #[test]
    fn camel_case_keeps_ascii_letters_and_digits() {
        assert_eq!(camel("order-events"), "OrderEvents");
        assert_eq!(camel("sms_dlq.fifo"), "SmsDlqFifo");
        assert_eq!(camel("ünï"), "N");
        assert_eq!(camel("--"), "");
    }
}
