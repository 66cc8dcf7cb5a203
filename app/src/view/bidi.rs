//! Bidirectional-text safety for text written as markup. A learner's text (a message body, an
//! attribute value, a filter policy) can hold right-to-left letters or explicit direction
//! controls such as U+202E RIGHT-TO-LEFT OVERRIDE, which would otherwise reorder the page's own
//! words around them. [`isolated`] escapes a text and puts each word that holds such a
//! character in its own `<bdi>`: whatever it holds stays inside it.

use super::markup::Markup;
use crate::html;

/// Whether `c` is an explicit direction control (marks, embeddings, overrides, isolates).
fn is_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and the other
/// right-to-left blocks, their presentation forms included).
fn is_rtl(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}' | '\u{10800}'..='\u{10FFF}' | '\u{1E800}'..='\u{1EFFF}')
}

/// Whether a text holds anything that can change the order of the words around it.
pub(crate) fn needs_isolation(text: &str) -> bool {
    text.chars().any(|c| is_control(c) || is_rtl(c))
}

/// `text` as markup: escaped, with every space-separated word that holds a right-to-left
/// letter or a direction control inside its own `<bdi>`. Line breaks and spaces stay as they
/// are (a `<pre>` keeps its layout).
pub(crate) fn isolated(text: &str) -> Markup {
    if !needs_isolation(text) {
        return html!(text);
    }
    let mut out = Markup::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Markup| {
        if needs_isolation(word) {
            html!(into *out; "<bdi>", &*word, "</bdi>");
        } else {
            out.push(&*word);
        }
        word.clear();
    };
    for c in text.chars() {
        if matches!(c, ' ' | '\n' | '\t' | '\r') {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::isolated;

    #[test]
    fn an_override_stays_inside_its_own_word() {
        // An event_type attribute holding U+202E: the app's words after it keep their order.
        let reason = "event_type \u{202E}OrderPlaced not one of [\"RefundIssued\"]";
        assert_eq!(
            isolated(reason).as_str(),
            "event_type <bdi>\u{202E}OrderPlaced</bdi> not one of [&quot;RefundIssued&quot;]"
        );
        // Right-to-left letters are isolated too; plain text is only escaped.
        assert_eq!(isolated("שלום <b>").as_str(), "<bdi>שלום</bdi> &lt;b&gt;");
        assert_eq!(isolated("order <4417>\n  ok").as_str(), "order &lt;4417&gt;\n  ok");
        assert_eq!(isolated("a\u{2067}b\nc").as_str(), "<bdi>a\u{2067}b</bdi>\nc");
    }
}
