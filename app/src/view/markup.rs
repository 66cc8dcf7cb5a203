//! Markup written as text, for the large read-only parts of the page where it pays for itself
//! (the diagram's SVG, the event log's rows, the chips, the charts). Text is escaped by default:
//! [`html!`] writes its string literals as they are (the page's own markup) and every other
//! argument through [`Part`], which escapes text and numbers and lets only a [`Markup`] (built
//! the same way) through unescaped. User text therefore enters markup only escaped.
//!
//! ```ignore
//! let name = "<b>"; // a queue name the learner typed
//! let m = html!("<text class=\"name\">", name, "</text>");
//! assert_eq!(m.as_str(), "<text class=\"name\">&lt;b&gt;</text>");
//! ```

use std::fmt::Write;

/// Markup made only of the page's own literals, escaped text and other `Markup`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Markup(String);

impl Markup {
    pub fn new() -> Markup {
        Markup(String::new())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Appends the page's own markup: a literal, never text from elsewhere.
    pub fn raw(&mut self, literal: &'static str) -> &mut Markup {
        self.0.push_str(literal);
        self
    }

    /// Appends a literal of the page's own: a string as markup, a number or a character as it is.
    pub fn lit(&mut self, literal: impl Literal) -> &mut Markup {
        literal.write_to(&mut self.0);
        self
    }

    /// Appends a part: text escaped, a number written, markup as it is.
    pub fn push(&mut self, part: impl Part) -> &mut Markup {
        part.write_to(&mut self.0);
        self
    }
}

impl std::fmt::Display for Markup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromIterator<Markup> for Markup {
    fn from_iter<I: IntoIterator<Item = Markup>>(iter: I) -> Markup {
        let mut out = Markup::new();
        for m in iter {
            out.0.push_str(&m.0);
        }
        out
    }
}

/// A literal in an [`html!`] call: the page's own markup, written as it is.
pub trait Literal {
    fn write_to(self, out: &mut String);
}

impl Literal for &'static str {
    fn write_to(self, out: &mut String) {
        out.push_str(self);
    }
}

impl Literal for char {
    fn write_to(self, out: &mut String) {
        out.push(self);
    }
}

/// What may go into markup, and how.
pub trait Part {
    fn write_to(&self, out: &mut String);
}

impl Part for Markup {
    fn write_to(&self, out: &mut String) {
        out.push_str(&self.0);
    }
}

impl Part for &Markup {
    fn write_to(&self, out: &mut String) {
        out.push_str(&self.0);
    }
}

impl Part for str {
    fn write_to(&self, out: &mut String) {
        escape_into(self, out);
    }
}

impl Part for &str {
    fn write_to(&self, out: &mut String) {
        escape_into(self, out);
    }
}

impl Part for String {
    fn write_to(&self, out: &mut String) {
        escape_into(self, out);
    }
}

impl Part for &String {
    fn write_to(&self, out: &mut String) {
        escape_into(self, out);
    }
}

impl Part for char {
    fn write_to(&self, out: &mut String) {
        escape_into(self.encode_utf8(&mut [0; 4]), out);
    }
}

impl<T: Part> Part for Option<T> {
    fn write_to(&self, out: &mut String) {
        if let Some(p) = self {
            p.write_to(out);
        }
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Part for $t {
            fn write_to(&self, out: &mut String) {
                let _ = write!(out, "{self}");
            }
        }
    )*};
}
numbers!(u8, u16, u32, u64, usize, i32, i64);

macro_rules! literal_numbers {
    ($($t:ty),*) => {$(
        impl Literal for $t {
            fn write_to(self, out: &mut String) {
                let _ = write!(out, "{self}");
            }
        }
    )*};
}
literal_numbers!(u8, u16, u32, u64, usize, i32, i64);

/// Text made safe inside HTML or SVG markup, in an element or a quoted attribute.
pub fn escape_into(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Builds [`Markup`]: string literals are written as they are, every other argument through
/// [`Part`] (text escaped). `html!(into m; …)` appends to an existing `Markup` instead.
#[macro_export]
macro_rules! html {
    (into $m:expr; $($rest:tt)*) => {{
        let m: &mut $crate::view::markup::Markup = &mut $m;
        $crate::html!(@parts m; $($rest)*);
    }};
    (@parts $m:ident;) => {};
    (@parts $m:ident; $lit:literal $(, $($rest:tt)*)?) => {
        $m.lit($lit);
        $crate::html!(@parts $m; $($($rest)*)?);
    };
    (@parts $m:ident; $e:expr $(, $($rest:tt)*)?) => {
        $m.push($e);
        $crate::html!(@parts $m; $($($rest)*)?);
    };
    ($($rest:tt)*) => {{
        let mut m = $crate::view::markup::Markup::new();
        {
            let mm = &mut m;
            $crate::html!(@parts mm; $($rest)*);
        }
        m
    }};
}

#[cfg(test)]
mod tests {
    use super::Markup;

    #[test]
    fn literals_are_markup_and_everything_else_is_escaped_text() {
        let name = "<img src=x onerror=alert(1)>";
        let quoted = String::from("\"><script>");
        let m = html!("<g data-name=\"", quoted, "\"><text>", name, "</text><text>", 42u64, "</text></g>");
        assert_eq!(
            m.as_str(),
            "<g data-name=\"&quot;&gt;&lt;script&gt;\"><text>&lt;img src=x onerror=alert(1)&gt;</text><text>42</text></g>"
        );
    }

    #[test]
    fn markup_nests_unescaped_and_appends() {
        let text = "a&b";
        let inner = html!("<b>", text, "</b>");
        let mut outer = html!("<p>", &inner, "</p>");
        html!(into outer; "<i>", 'x', "</i>", None::<Markup>, Some(String::from("'")));
        assert_eq!(outer.as_str(), "<p><b>a&amp;b</b></p><i>x</i>&#39;");
        let quote = '"';
        assert_eq!(html!(quote, 7).as_str(), "&quot;7", "a char or number that is not a literal is a part");
        let list: Markup = ["1", "2"].iter().map(|n| html!("<li>", *n, "</li>")).collect();
        assert_eq!(list.as_str(), "<li>1</li><li>2</li>");
    }

    #[test]
    fn a_bidi_override_stays_text() {
        // U+202E cannot reorder the page's own words: it is text inside its element, and the
        // element isolates it (callers wrap user text in `dir="auto"` or <bdi>).
        let m = html!("<bdi>", "\u{202e}evil", "</bdi>");
        assert_eq!(m.as_str(), "<bdi>\u{202e}evil</bdi>");
    }
}
