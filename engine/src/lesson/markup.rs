//! The lessons' tiny markup: `*emphasis*` and `` `code` ``, nothing else. The page renders the
//! spans as text nodes, never as HTML, and a lesson is refused if any of its text holds something
//! that looks like an HTML tag (`<b>`, `</p>`, `<!--`), so that nobody writes HTML expecting it to
//! work. A lone `<` ("fewer than < 3") is plain text, and code spans may hold anything but a
//! backtick (`` `Vec<String>` ``).

/// A piece of a lesson text, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    Text(String),
    /// Between `*` and `*`.
    Emphasis(String),
    /// Between two backticks: shown in a code font, kept exactly.
    Code(String),
}

/// Splits a checked text into its spans (see [`check`]); an unbalanced marker is kept as text.
pub fn spans(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(['*', '`']) {
        let marker = rest.as_bytes()[i] as char;
        let after = &rest[i + 1..];
        let Some(end) = after.find(marker) else { break };
        plain.push_str(&rest[..i]);
        if !plain.is_empty() {
            out.push(Span::Text(std::mem::take(&mut plain)));
        }
        let inner = after[..end].to_string();
        out.push(if marker == '*' { Span::Emphasis(inner) } else { Span::Code(inner) });
        rest = &after[end + 1..];
    }
    plain.push_str(rest);
    if !plain.is_empty() {
        out.push(Span::Text(plain));
    }
    out
}

/// The text without its markers, as a screen reader or a plain log would have it.
pub fn plain(text: &str) -> String {
    spans(text)
        .into_iter()
        .map(|s| match s {
            Span::Text(t) | Span::Emphasis(t) | Span::Code(t) => t,
        })
        .collect()
}

/// Checks a lesson text: not empty, no HTML-like tag, every `` ` `` closed, every `*` outside
/// code closed, no emphasis across a code span and none empty.
pub fn check(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("must not be empty".into());
    }
    if let Some(tag) = html_tag(&outside_code(text)) {
        return Err(format!(
            "contains \"{tag}\", which looks like HTML: lesson text is shown as plain text, with only *emphasis* and `code` as markup"
        ));
    }
    let mut rest = text;
    while let Some(i) = rest.find(['*', '`']) {
        let marker = rest.as_bytes()[i] as char;
        let after = &rest[i + 1..];
        let Some(end) = after.find(marker) else {
            let what = if marker == '`' { "a `code` span" } else { "an *emphasis*" };
            return Err(format!("{what} is opened but never closed (\"{}\")", excerpt(&rest[i..])));
        };
        let inner = &after[..end];
        if marker == '*' && inner.contains('`') {
            return Err(format!("*emphasis* cannot hold `code` (\"{}\")", excerpt(&rest[i..])));
        }
        if inner.trim().is_empty() {
            return Err(format!("an empty {marker}{marker} pair (\"{}\")", excerpt(&rest[i..])));
        }
        rest = &after[end + 1..];
    }
    Ok(())
}

/// The text with every `code` span blanked out: code may hold `Vec<String>`.
fn outside_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
        }
        out.push(if in_code && c != '`' { ' ' } else { c });
    }
    out
}

/// The first `<` that starts something tag-like: `<` followed by a letter, `/`, `!` or `?`.
fn html_tag(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let at = (0..bytes.len()).find(|&i| {
        bytes[i] == b'<' && bytes.get(i + 1).is_some_and(|b| b.is_ascii_alphabetic() || b"/!?".contains(b))
    })?;
    let tail = &text[at..];
    Some(match tail.find('>') {
        Some(e) => tail[..=e].chars().take(30).collect(),
        None => tail.chars().take(12).collect(),
    })
}

fn excerpt(text: &str) -> String {
    let short: String = text.chars().take(24).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emphasis_and_code_become_spans_and_nothing_else_does() {
        let s = spans("The *visibility timeout* is `30` s; <3 is text.");
        assert_eq!(
            s,
            vec![
                Span::Text("The ".into()),
                Span::Emphasis("visibility timeout".into()),
                Span::Text(" is ".into()),
                Span::Code("30".into()),
                Span::Text(" s; <3 is text.".into()),
            ]
        );
        assert_eq!(plain("a `{\"x\": [\"*\"]}` b"), "a {\"x\": [\"*\"]} b", "a star inside code is code");
    }

    #[test]
    fn html_and_unbalanced_markers_are_refused_with_what_is_wrong() {
        assert!(check("Fine: `x < 15`, `Vec<String>` and a < b.").is_ok());
        let e = check("Click <b>here</b>.").unwrap_err();
        assert!(e.contains("\"<b>\"") && e.contains("looks like HTML"), "{e}");
        assert!(check("a </p> b").unwrap_err().contains("</p>"));
        assert!(check("<!-- note -->").unwrap_err().contains("HTML"));
        assert!(check("a <quilt—queen ✓✓✓✓ size").unwrap_err().contains("\"<quilt—queen"), "no '>', multibyte text");
        assert!(check("an *open emphasis").unwrap_err().contains("never closed"));
        assert!(check("an `open code").unwrap_err().contains("`code` span"));
        assert!(check("*emph `code` inside*").unwrap_err().contains("cannot hold"));
        assert!(check("  ").unwrap_err().contains("empty"));
        assert!(check("a ** b").unwrap_err().contains("empty"));
    }
}
