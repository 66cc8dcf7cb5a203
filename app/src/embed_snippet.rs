//! The snippet an author pastes to embed their own story (the Embed dialog,
//! `view/embed_dialog.rs`), in plain Rust: the options they chose, the embed's address they
//! make (`embed.html?…`, with the story's share fragment), and the iframe with its `embed.js`
//! line. The parameters are the embed's own ([`crate::view`]'s `embed::parse_params` reads them
//! back; a test checks the round trip), and the author's title and caption travel as text:
//! percent-encoded in the address, escaped in the page's HTML, never markup.

use crate::playground::SPEEDS;

/// Where the embedded story comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The author's own story, as its share link's payload (after `#share=`).
    Share(String),
    /// A lesson's step (1-based), and the lesson's title (what the frame shows as its title
    /// when the author gives none).
    Lesson { id: String, step: usize, title: String },
}

/// The control sets an embed offers (`controls=`).
pub const CONTROLS: &[(&str, &str)] = &[
    ("min", "Minimal: Play, Step, Publish"),
    ("full", "Full: time controls, Publish"),
    ("none", "None: the diagram alone"),
];

/// The same for a lesson's step, whose panel has its own Publish where a step needs one.
pub const LESSON_CONTROLS: &[(&str, &str)] = &[
    ("min", "Minimal: Play, Step"),
    ("full", "Full: time controls, Publish"),
    ("none", "None: the diagram and the step"),
];

/// The themes (`theme=`).
pub const THEMES: &[(&str, &str)] = &[("auto", "The reader's system setting"), ("light", "Light"), ("dark", "Dark")];

/// The panels an embed can open under its diagram (`panels=`), closed unless asked for.
pub const PANELS: &[(&str, &str)] = &[("cards", "Queue cards")];

/// The longest a snippet's share fragment is before the dialog calls it long (characters):
/// about two screens of a documentation source file.
pub const LONG_FRAGMENT_CHARS: usize = 2_000;

/// What the author chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// One of [`CONTROLS`].
    pub controls: String,
    /// One of [`THEMES`].
    pub theme: String,
    /// An index into [`SPEEDS`]; `None`: the story's own speed.
    pub speed: Option<usize>,
    /// Starts playing once seen (`autoplay=1`; not for a lesson).
    pub autoplay: bool,
    /// The reader watches the story from its start, its commands happening as the clock passes
    /// (`start=0`), not from the moment the author copied it (not for a lesson).
    pub from_start: bool,
    /// The frame's height before `embed.js` sizes it to its content (px).
    pub height: u32,
    /// Keep that height (`height=`): the content scrolls inside the frame when taller.
    pub fixed_height: bool,
    /// Of [`PANELS`], the ones to open, in that order.
    pub panels: Vec<String>,
    /// Shown as the frame's title, and the iframe's `title` (plain text).
    pub title: String,
    /// Shown under the title in the frame (plain text).
    pub caption: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            controls: "min".into(),
            theme: "auto".into(),
            speed: None,
            autoplay: false,
            from_start: true,
            height: 360,
            fixed_height: false,
            panels: Vec::new(),
            title: String::new(),
            caption: String::new(),
        }
    }
}

/// The embed's query, parameters in a fixed order (no `?`): what the options and the source ask
/// for, nothing that is the default but `embed=1` and `controls`.
pub fn query(source: &Source, o: &Options) -> String {
    let mut q = vec![("embed", "1".to_string())];
    if let Source::Lesson { id, step, .. } = source {
        q.push(("lesson", id.clone()));
        q.push(("step", step.to_string()));
    }
    q.push(("controls", o.controls.clone()));
    if o.theme != "auto" {
        q.push(("theme", o.theme.clone()));
    }
    if let Some(label) = o.speed.and_then(|i| SPEEDS.get(i)) {
        q.push(("speed", format!("{}x", label.0.trim_end_matches('×'))));
    }
    if o.autoplay && matches!(source, Source::Share(_)) {
        q.push(("autoplay", "1".into()));
    }
    if o.from_start && matches!(source, Source::Share(_)) {
        q.push(("start", "0".into()));
    }
    if o.fixed_height {
        q.push(("height", o.height.to_string()));
    }
    let panels: Vec<&str> = PANELS.iter().map(|p| p.0).filter(|p| o.panels.iter().any(|chosen| chosen == p)).collect();
    if !panels.is_empty() {
        q.push(("panels", panels.join(",")));
    }
    // The values above are the embed's own words (and a lesson id, letters, digits and hyphens);
    // the author's text is percent-encoded.
    for (k, v) in [("title", o.title.trim()), ("caption", o.caption.trim())] {
        if !v.is_empty() {
            q.push((k, crate::route::encode(v)));
        }
    }
    q.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&")
}

/// The embed's address: `site` (the playground's address, ending in `/`), `embed.html`, the
/// query, and a story's share fragment.
pub fn address(site: &str, source: &Source, o: &Options) -> String {
    let fragment = match source {
        Source::Share(payload) => format!("#{}{payload}", crate::share::PREFIX),
        Source::Lesson { .. } => String::new(),
    };
    format!("{site}embed.html?{}{fragment}", query(source, o))
}

/// What the iframe's `title` says: the author's title, else what the frame shows as its title
/// without one (the embed's `heading`): a lesson's title, or a plain name for a story.
pub fn frame_title(o: &Options, source: &Source) -> String {
    match (o.title.trim(), source) {
        ("", Source::Lesson { title, .. }) => title.clone(),
        ("", Source::Share(_)) => STORY_TITLE.to_string(),
        (t, _) => t.to_string(),
    }
}

/// The title an author's story shows in its frame when they give none.
pub const STORY_TITLE: &str = "A Fan-out Playground story";

/// The snippet: the iframe (`data-fanout`, for `embed.js`) and the `embed.js` line.
pub fn snippet(site: &str, source: &Source, o: &Options) -> String {
    format!(
        "<iframe data-fanout title=\"{}\" loading=\"lazy\" style=\"width: 100%; height: {}px; border: 0\"\n  src=\"{}\"></iframe>\n<script src=\"{}embed.js\"></script>",
        attribute(&frame_title(o, source)),
        o.height,
        attribute(&address(site, source, o)),
        attribute(site),
    )
}

/// Text as an HTML attribute's value (in double quotes): `&`, `<`, `>`, `"` and `'` escaped.
pub fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
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
    out
}

/// What the dialog says of a snippet's length: its characters, and the share fragment's when
/// the story is long.
pub fn length_note(snippet: &str, source: &Source) -> String {
    let n = snippet.chars().count();
    match source {
        Source::Share(payload) if payload.len() + 7 > LONG_FRAGMENT_CHARS => format!(
            "{n} characters. This story is long: its share fragment (#share=…) is {} of them. A story with fewer commands makes a shorter snippet.",
            payload.len() + 7
        ),
        Source::Share(payload) => format!("{n} characters, {} of them the story (#share=…).", payload.len() + 7),
        Source::Lesson { .. } => format!("{n} characters."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::parse_query;

    fn story() -> Source {
        Source::Share("eJyrVkrLz1eyUkpKLFKqBQAdegQt".into())
    }

    #[test]
    fn a_title_and_caption_travel_as_text_in_the_address_and_escaped_in_the_snippet() {
        let o = Options {
            title: "Orders <b>& \"DLQs\"</b>".into(),
            caption: "Press Play; it's 2×".into(),
            ..Options::default()
        };
        let s = snippet("https://example.org/fanout/", &story(), &o);
        assert!(s.starts_with("<iframe data-fanout title=\"Orders &lt;b&gt;&amp; &quot;DLQs&quot;&lt;/b&gt;\""), "{s}");
        assert!(!s.contains("<b>"), "{s}");
        assert!(s.ends_with("<script src=\"https://example.org/fanout/embed.js\"></script>"), "{s}");
        assert!(s.contains("#share=eJyrVkrLz1eyUkpKLFKqBQAdegQt\""), "{s}");
        // The address reads back to the same words.
        let q = query(&story(), &o);
        let pairs = parse_query(&q);
        let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        assert_eq!(get("title"), Some("Orders <b>& \"DLQs\"</b>"));
        assert_eq!(get("caption"), Some("Press Play; it's 2×"));
        assert!(!q.contains(' ') && !q.contains('<') && !q.contains('#'), "{q}");
    }

    #[test]
    fn the_options_become_the_embeds_own_parameters() {
        let o = Options {
            controls: "full".into(),
            theme: "dark".into(),
            speed: Some(5),
            autoplay: true,
            height: 420,
            fixed_height: true,
            panels: vec!["cards".into()],
            ..Options::default()
        };
        assert_eq!(
            query(&story(), &o),
            "embed=1&controls=full&theme=dark&speed=8x&autoplay=1&start=0&height=420&panels=cards"
        );
        // From where the author stopped, only when asked.
        let now = Options { from_start: false, ..o };
        assert_eq!(
            query(&story(), &now),
            "embed=1&controls=full&theme=dark&speed=8x&autoplay=1&height=420&panels=cards"
        );
        // A lesson plays its own steps: no autoplay, no start; its step is in the address.
        let lesson = Source::Lesson { id: "visibility-timeout".into(), step: 2, title: "Visibility timeout".into() };
        assert_eq!(
            address("https://x/", &lesson, &Options::default()),
            "https://x/embed.html?embed=1&lesson=visibility-timeout&step=2&controls=min"
        );
        // Without the author's title, the iframe's is the one the frame shows.
        assert_eq!(frame_title(&Options::default(), &story()), "A Fan-out Playground story");
        assert_eq!(frame_title(&Options::default(), &lesson), "Visibility timeout");
        let titled = Options { title: " Orders ".into(), ..Options::default() };
        assert_eq!(frame_title(&titled, &lesson), "Orders");
    }

    #[test]
    fn the_dialog_says_how_long_a_long_story_is() {
        let short = length_note("x".repeat(300).as_str(), &story());
        assert!(short.starts_with("300 characters, 35 of them the story"), "{short}");
        let long = length_note("x", &Source::Share("A".repeat(3000)));
        assert!(long.contains("This story is long: its share fragment (#share=…) is 3007 of them"), "{long}");
    }
}
