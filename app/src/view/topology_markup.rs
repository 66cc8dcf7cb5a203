//! The diagram's markup (see [`super::Topology`]): what [`super::Layout`] lays out, as a list
//! of pieces in drawing order, every one built with `html!` (names, policies and other text
//! the learner typed enter escaped). What changes only with the topology (edges, topics,
//! badges, captions) is drawn markup; the nodes whose look follows the counts and states
//! (queues, dead-letter queues, consumers, services, counts) are live: a frame that stays
//! while the node is on the page, and a look (its classes, its accessible name, what it holds)
//! that [`super::live`] writes into it.

use super::*;
use crate::html;
use crate::view::markup::Markup;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// A text cut to `max` characters, with "…" when cut. A cut ends between words ("stock-sync-…",
/// not "stock-sync-ev…") when the text has a break to end at, so that what is shown is whole
/// words of the node's accessible name (WCAG 2.5.3, label in name).
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: Vec<char> = text.chars().take(max - 1).collect();
    let next = text.chars().nth(max - 1).unwrap_or(' ');
    let mut end = kept.len();
    if next.is_alphanumeric() {
        // Inside a word: back to just after the last character that is not a letter or digit.
        if let Some(i) = kept.iter().rposition(|c| !c.is_alphanumeric()) {
            end = i + 1;
        }
    }
    kept[..end].iter().chain(std::iter::once(&'…')).collect()
}

/// A name cut to `max` characters from its start, keeping its end ("…w2" of "billing-w2"):
/// workers on one queue share their name's start and differ at its end. The cut falls between
/// words when it can, as in [`cut`].
fn cut_start(text: &str, max: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    if n <= max {
        return text.to_string();
    }
    let mut start = n + 1 - max;
    if chars[start - 1].is_alphanumeric() {
        if let Some(i) = chars[start..].iter().position(|c| !c.is_alphanumeric()) {
            start += i + 1;
        }
    }
    std::iter::once('…').chain(chars[start..].iter().copied()).collect()
}

/// What a live node is while it stays on the page: where the narrow diagram moves it, whether
/// the keyboard reaches it (`tabindex="0" role="button"`), what a click on it selects (its
/// `data-select`), and its test id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Frame {
    pub(super) shift: Option<i64>,
    pub(super) focusable: bool,
    pub(super) select: Option<Selection>,
    pub(super) testid: Option<String>,
}

impl Frame {
    /// A node the keyboard reaches, selecting `select` (if anything) on a click or Enter.
    fn button(select: Option<Selection>) -> Frame {
        Frame { focusable: true, select, ..Frame::default() }
    }

    fn testid(self, testid: String) -> Frame {
        Frame { testid: Some(testid), ..self }
    }
}

/// How a live node looks now: its classes, its accessible name, what it holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Look {
    pub(super) class: String,
    pub(super) label: Option<String>,
    pub(super) inner: Markup,
}

/// The whole diagram as one piece of markup (see [`Diagram::to_markup`]): for tests.
#[cfg(test)]
pub(super) fn diagram_markup(layout: &Layout) -> String {
    diagram(layout).to_markup().into_string()
}

/// A piece of the diagram: drawn markup, or a live node's frame (its look is kept beside it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Piece {
    Drawn(Markup),
    Live(Frame),
}

impl Hash for Piece {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Piece::Drawn(m) => m.as_str().hash(state),
            Piece::Live(f) => f.hash(state),
        }
    }
}

/// A piece as the page keeps it: the piece, and how many equal pieces come before it (two
/// rows can draw one queue).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key {
    pub(super) piece: Piece,
    nth: usize,
}

/// The diagram: its pieces in drawing order, and the look of each live one, in the same order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Diagram {
    pub(super) pieces: Vec<Piece>,
    pub(super) looks: Vec<Look>,
}

impl Diagram {
    /// The pieces as the page keeps them: equal from one diagram to the next when only counts
    /// and states changed; a piece that stays keeps its elements.
    pub(super) fn keys(&self) -> Vec<Key> {
        let mut seen: HashMap<&Piece, usize> = HashMap::new();
        self.pieces
            .iter()
            .map(|piece| {
                let n = seen.entry(piece).or_default();
                *n += 1;
                Key { piece: piece.clone(), nth: *n - 1 }
            })
            .collect()
    }

    /// The look of the live node `key` names, if it is in this diagram.
    pub(super) fn look(&self, key: &Key) -> Option<&Look> {
        let mut nth = 0;
        let lives = self.pieces.iter().filter(|p| matches!(p, Piece::Live(_)));
        for (piece, look) in lives.zip(&self.looks) {
            if *piece == key.piece {
                if nth == key.nth {
                    return Some(look);
                }
                nth += 1;
            }
        }
        None
    }

    /// The whole diagram as one piece of markup, each live node as the page shows it (its
    /// attributes in a fixed order): for tests.
    #[cfg(test)]
    pub(super) fn to_markup(&self) -> Markup {
        let mut m = Markup::new();
        let mut looks = self.looks.iter();
        for piece in &self.pieces {
            match piece {
                Piece::Drawn(d) => {
                    m.push(d);
                }
                Piece::Live(f) => {
                    let look = looks.next().expect("a look for every live node");
                    html!(into m; "<g class=\"", &look.class, "\"");
                    if let Some(dx) = f.shift {
                        html!(into m; " transform=\"translate(", dx, " 0)\"");
                    }
                    if f.focusable {
                        m.raw(" tabindex=\"0\" role=\"button\"");
                    }
                    if let Some(s) = &f.select {
                        html!(into m; " data-select=\"", s.to_attr(), "\"");
                    }
                    if let Some(t) = &f.testid {
                        html!(into m; " data-testid=\"", t, "\"");
                    }
                    if let Some(l) = &look.label {
                        html!(into m; " aria-label=\"", l, "\"");
                    }
                    html!(into m; ">", &look.inner, "</g>");
                }
            }
        }
        m
    }
}

/// Builds a [`Diagram`]: drawn markup is written into the current run, which a live node (or
/// a change of shift) closes as one piece.
#[derive(Default)]
struct Builder {
    diagram: Diagram,
    run: Markup,
    /// In the narrow diagram, how far left what is written now is moved.
    shift: Option<i64>,
}

impl Builder {
    /// The markup being written.
    fn m(&mut self) -> &mut Markup {
        &mut self.run
    }

    /// Closes the current run of drawn markup as a piece (inside its shift's group).
    fn flush(&mut self) {
        if self.run.is_empty() {
            return;
        }
        let run = std::mem::take(&mut self.run);
        let piece = match self.shift {
            Some(dx) => html!("<g transform=\"translate(", dx, " 0)\">", run, "</g>"),
            None => run,
        };
        self.diagram.pieces.push(Piece::Drawn(piece));
    }

    /// What is written from now on is moved `dx` across (`None`: not moved).
    fn shift(&mut self, dx: Option<i64>) {
        self.flush();
        self.shift = dx;
    }

    fn live(&mut self, frame: Frame, look: Look) {
        self.flush();
        self.diagram.pieces.push(Piece::Live(Frame { shift: self.shift, ..frame }));
        self.diagram.looks.push(look);
    }

    fn finish(mut self) -> Diagram {
        self.flush();
        self.diagram
    }

    /// Appends what `other` drew, after everything drawn here.
    fn append(&mut self, other: Builder) {
        self.flush();
        let other = other.finish();
        self.diagram.pieces.extend(other.pieces);
        self.diagram.looks.extend(other.looks);
    }
}

/// A topic's name inside its 80-unit node: one line when it fits, else two, broken before its
/// last "." or "-" (`order-events` / `.fifo`), as `<tspan>`s under the node's title.
fn topic_lines(name: &str, y: i64, narrow: bool) -> Markup {
    let (fits, x, line) = if narrow { (18, 245, 15) } else { (13, 210, 12) };
    let cut = (name.chars().count() > fits).then(|| name.rfind(['.', '-'])).flatten().filter(|i| *i > 0);
    // A hyphen ends the first line ("email-" / "requests"); a dot starts the second (".fifo").
    let cut = cut.map(|i| if name[i..].starts_with('-') { i + 1 } else { i });
    match cut {
        Some(i) => html! {
            "<tspan x=\"", x, "\" y=\"", y, "\">", &name[..i], "</tspan><tspan x=\"", x, "\" y=\"", y + line, "\">",
            &name[i..], "</tspan>"
        },
        None => html!(name),
    }
}

/// A queue's first messages inside its node, on the line at `y`: a dot each in its state's
/// colour, a ring for a timer with its seconds, the receive count; "+N" for the rest, at the
/// top right of the node. A dot selects its message.
fn dots_markup(queue: &str, dots: &[Dot], more: usize, y: i64, narrow: bool) -> (Markup, Vec<String>) {
    let mut m = Markup::new();
    // What the dots show as text, in reading order (for the queue's accessible name).
    let mut shown = Vec::new();
    // In the narrow diagram the labels are written larger: four dots, further apart.
    let (step, room) = if narrow { (44, 4) } else { (34, DOTS) };
    let more = more + dots.len().saturating_sub(room);
    let alone = dots.len() == 1 && more == 0;
    for (i, d) in dots.iter().take(room).enumerate() {
        // A lone timed dot has room for its receives after its seconds ("9s · 2/5"): how many
        // times a returning message was tried, in view between its tries.
        let label = if alone && d.ring.is_some() && !d.receives.is_empty() {
            format!("{} · {}", d.label, d.receives)
        } else {
            d.label.clone()
        };
        let x = 430 + i as i64 * step;
        let select = Selection::Message { queue: queue.to_string(), copy: d.copy }.to_attr();
        html!(into m;
            " <g class=\"msg ", d.class, "\" data-select=\"", select, "\" data-testid=\"diagram-msg-", queue, "-", d.copy,
            "\"><title>", &d.title, "</title><circle cx=\"", x, "\" cy=\"", y, "\" r=\"4.5\"/>"
        );
        if let Some(left) = d.ring {
            html!(into m;
                "<circle class=\"ring\" cx=\"", x, "\" cy=\"", y, "\" r=\"7\" pathLength=\"100\" stroke-dasharray=\"", left,
                " 100\" transform=\"rotate(-90 ", x, " ", y, ")\"/>"
            );
        }
        html!(into m; "<text x=\"", x + 9, "\" y=\"", y + 3, "\">", &label, "</text></g>");
        if !label.is_empty() {
            shown.push(label);
        }
    }
    // On the name's line, at the node's right edge: the last dot's seconds ("29s") leave no
    // room for it on the dots' line.
    if more > 0 {
        html!(into m; " <text class=\"more\" x=\"600\" y=\"", y - 29, "\" text-anchor=\"end\">+", more, "</text>");
        shown.push(format!("+{more} more"));
    }
    (m, shown)
}

/// A box on the queues' column (a queue, or a service called directly): its name, a line of
/// counts under it, then `inner`. `(top, height)` is its box.
/// A box's left edge, width and inner padding in the diagram (see [`box_look`]).
const BOX_X: i64 = 410;
const BOX_W: i64 = 200;
/// Text starts 14 px in; 8 px are kept free on the right.
const BOX_PAD: i64 = 8;
const TEXT_X: i64 = BOX_X + 14;

/// The widest a character of the box's text is drawn: the name's 13 px sans, bold (most
/// letters are narrower), and the stat's 12 px monospace (0.6 em a character), in tenths of a px.
const NAME_CHAR_TENTHS: i64 = 80;
const STAT_CHAR_TENTHS: i64 = 72;

/// A dependency's box texts: its name (cut to what fits beside the answer time), the answer
/// time ("100 ms", "25 s, down") and "4 calls · 0 failed". Each fits its box: the name and the
/// time share the first line, the counts have the second.
fn call_texts(name: &str, answers: &str, calls: u64, errors: u64) -> (String, String, String) {
    let inner = (BOX_X + BOX_W - BOX_PAD - TEXT_X) * 10;
    let time_w = answers.chars().count() as i64 * STAT_CHAR_TENTHS;
    let fits = ((inner - time_w - 60) / NAME_CHAR_TENTHS).max(4) as usize;
    let mut stat = format!("{} · {errors} failed", crate::format::count(calls, "call", "calls"));
    if stat.chars().count() as i64 * STAT_CHAR_TENTHS > inner {
        // Past 9,999 calls: the word "calls" goes (the box's title still says it).
        stat = format!("{calls} · {errors} failed");
    }
    (cut(name, fits), answers.to_string(), stat)
}

fn box_look(class: &str, label: String, (top, height): (i64, i64), name: &str, stat: &str, inner: Markup) -> Look {
    box_look_after(class, label, (top, height), Markup::new(), name, stat, inner)
}

/// A box as [`box_look`] draws it, with `lead` (text drawn elsewhere in the box, such as its
/// kind) first in reading order. Texts are apart by a space: a reader (axe-core among them)
/// does not run "billing" and "0 visible" together into one word.
fn box_look_after(
    class: &str,
    label: String,
    (top, height): (i64, i64),
    lead: Markup,
    name: &str,
    stat: &str,
    inner: Markup,
) -> Look {
    let inner = html! {
        "<rect x=\"", BOX_X, "\" y=\"", top, "\" width=\"", BOX_W, "\" height=\"", height,
        "\" rx=\"10\"/>", lead, " <text class=\"name\" x=\"", TEXT_X, "\" y=\"", top + 20, "\">", name,
        "</text> <text class=\"stat\" x=\"", TEXT_X, "\" y=\"", top + 36, "\">", stat, "</text> ", inner
    };
    Look { class: format!("node {class}"), label: Some(label), inner }
}

/// A node's accessible name: `label`, after what the node shows when that is cut short (so that
/// the name has the words on screen, WCAG 2.5.3: "packing-sns-… · 0: Subscription dead-letter
/// queue packing-sns-dlq: …").
fn shown_first(shown: &str, cut: bool, label: String) -> String {
    if cut {
        format!("{shown}: {label}")
    } else {
        label
    }
}

/// A dead-letter queue drawn under what feeds it (a queue, or a subscription): a dashed edge
/// down to it, the node with its count, and a caption saying what it catches.
struct DeadLetter<'a> {
    name: &'a str,
    count: usize,
    /// The node's centre line.
    centre: i64,
    width: i64,
    /// Where the dashed edge comes down.
    edge_x: i64,
    /// Where the dashed edge starts (the bottom of what feeds it).
    edge_from: i64,
    /// The top of its box.
    top: i64,
    /// How many characters of its name fit.
    fits: usize,
    /// More classes (a leading space each).
    class: &'static str,
    /// Whether the node carries `data-testid="diagram-sub-dlq-<name>"`.
    testid: bool,
}

impl DeadLetter<'_> {
    /// Draws the edge, the node (live: its count) and the caption.
    fn draw(&self, b: &mut Builder, label: String, title: &str, caption: &str) {
        let (c, x, top) = (self.centre, self.edge_x, self.top);
        html!(into *b.m(); "<g class=\"edge dlq\"><path d=\"M ", x, " ", self.edge_from, " L ", x, " ", top, "\"/></g>");
        let mut frame = Frame::button(Some(Selection::Queue(self.name.to_string())));
        if self.testid {
            frame = frame.testid(format!("diagram-sub-dlq-{}", self.name));
        }
        let shown = cut(self.name, self.fits);
        let label = shown_first(&format!("{shown} · {}", self.count), shown != self.name, label);
        let inner = html! {
            "<title>", title, "</title><rect x=\"", c - self.width / 2, "\" y=\"", top, "\" width=\"", self.width,
            "\" height=\"32\" rx=\"8\"/><text class=\"name small\" x=\"", c, "\" y=\"", top + 20,
            "\" text-anchor=\"middle\">", &shown, " · ", self.count, "</text>"
        };
        b.live(frame, Look { class: format!("node dlq{}", self.class), label: Some(label), inner });
        html!(into *b.m();
            "<text class=\"caption\" x=\"", c, "\" y=\"", top + 44, "\" text-anchor=\"middle\">", caption, "</text>"
        );
    }
}

/// The diagram `layout` lays out. The nodes whose look follows the counts and states are live
/// pieces, so that [`Topology`] updates them in place when only the counts change. Clicks and
/// keys reach the nodes through `data-select`.
pub(super) fn diagram(layout: &Layout) -> Diagram {
    let topic_y = layout.topic_y();
    let mut b = Builder::default();
    let narrow = layout.narrow;
    if layout.services.is_empty() {
        html!(into *b.m();
            "<g class=\"node producer\"><rect x=\"10\" y=\"", topic_y - 24, "\" width=\"120\" height=\"48\" rx=\"24\"/>",
            "<text class=\"name\" x=\"70\" y=\"", topic_y + 5, "\" text-anchor=\"middle\">", &layout.producer, "</text></g>"
        );
    }
    services(&mut b, layout);
    // In the narrow diagram the topics and each row's badges and queue are drawn where the
    // wide one draws them, moved left.
    let shift = |dx: i64| narrow.then_some(dx);
    if !layout.topics.is_empty() && layout.services.is_empty() {
        // The producer publishes to the first topic; the others are fed by what publishes to
        // them (an alarm's action, say).
        let (from, to) = if narrow { ((N_TRUNK, 48), (N_TRUNK, N_TOP)) } else { ((130, topic_y), (170, topic_y)) };
        html!(into *b.m(); "<g class=\"edge\"><path d=\"M ", from.0, " ", from.1, " L ", to.0, " ", to.1, "\"/></g>");
    }
    // In the narrow diagram a topic's node is wider: its name is written larger there (see
    // style.css), and nothing stands beside it.
    let (topic_w, topic_c) = if narrow { (150, 245) } else { (80, 210) };
    for (i, (topic, y)) in layout.topics.iter().enumerate() {
        // A bus drawn after the SNS topics is fed by the producer's PutEvents too (unless only a
        // rule of another bus feeds it): its own edge from the producer (the first source has
        // the straight one above). The narrow diagram
        // stacks the sources under the producer: the edge runs down the left margin.
        if i > 0 && layout.producer_feeds(i) && layout.services.is_empty() {
            let y = *y;
            if narrow {
                html!(into *b.m();
                    "<g class=\"edge\"><path d=\"M 10 24 Q 3 24, 3 32 L 3 ", y - 8, " Q 3 ", y, ", 10 ", y, "\"/></g>"
                );
            } else {
                html!(into *b.m();
                    "<g class=\"edge\"><path d=\"M 130 ", topic_y, " C 150 ", topic_y, ", 150 ", y, ", 170 ", y, "\"/></g>"
                );
            }
        }
        b.shift(shift(N_TOPIC_SHIFT));
        let (class, kind, testid) =
            if layout.is_bus(i) { ("topic bus", "event bus", "bus") } else { ("topic", "SNS topic", "topic") };
        html!(into *b.m();
            "<g class=\"node ", class, "\" data-testid=\"diagram-", testid, "-", topic, "\"><title>", kind, " ", topic,
            "</title><rect x=\"170\" y=\"", y - 30, "\" width=\"", topic_w, "\" height=\"60\" rx=\"12\"/>",
            "<text class=\"kind\" x=\"", topic_c, "\" y=\"", y - 10, "\" text-anchor=\"middle\">", kind, "</text>",
            "<text class=\"name small\" x=\"", topic_c, "\" y=\"", y + 6, "\" text-anchor=\"middle\">",
            topic_lines(topic, y + 6, narrow), "</text></g>"
        );
        // A bus's archives and replays, under it (in the narrow diagram beside it): live, their
        // counts change.
        for (k, (_, note)) in layout.notes.iter().filter(|(b, _)| *b == i).enumerate() {
            let (x, top, anchor) = if narrow { (330, y - 4, "start") } else { (210, y + 42, "middle") };
            let inner = html! {
                "<text class=\"caption note\" x=\"", x, "\" y=\"", top + k as i64 * 11, "\" text-anchor=\"", anchor,
                "\">", note, "</text>"
            };
            b.live(Frame::default(), Look { class: "note".into(), label: None, inner });
        }
        b.shift(None);
    }
    // Direct calls: each service the producer waits on, in turn, with its latency now. Drawn as
    // a chain: the producer calls the first, and each next one is called once the one above
    // it has answered (a line down from box to box), not as a fan of calls made at once.
    for (i, Call { name, latency, calls, errors, down, .. }) in layout.calls.iter().enumerate() {
        let y = layout.call_y(i);
        let (class, state) = if *down { ("queue call down", ", down") } else { ("queue call", "") };
        if i == 0 {
            html!(into *b.m(); "<g class=\"edge\"><path d=\"", layout.producer_path(y), "\"/></g>");
        }
        b.shift(shift(N_SHIFT));
        if i > 0 {
            let (x, from) = (BOX_X + BOX_W / 2, layout.call_y(i - 1) + 24);
            html!(into *b.m(); "<g class=\"edge then\"><path d=\"M ", x, " ", from, " L ", x, " ", y - 24, "\"/></g>");
        }
        let label = format!("Service {name}: answers in {latency}{state}; {calls} calls, {errors} failed");
        let (name, answers, stat) = call_texts(name, &format!("{latency}{state}"), *calls, *errors);
        // The answer time on the name's line, at the box's right edge (inside its padding).
        let answers = html! {
            "<text class=\"stat\" x=\"", BOX_X + BOX_W - BOX_PAD, "\" y=\"", y - 4, "\" text-anchor=\"end\">", answers, "</text>"
        };
        let look = box_look(class, label, (y - 24, 48), &name, &stat, answers);
        b.live(Frame::default().testid(format!("diagram-call-{name}")), look);
        b.shift(None);
    }
    let mut over = Builder::default();
    for row in &layout.rows {
        queue_row(&mut b, &mut over, layout, row);
    }
    // A function's destinations: an edge from its box to the queue's or the topic's, named.
    for (from, to, what, kind) in &layout.hands_on {
        let Some(a) = layout.row_of(from) else { continue };
        let (path, caption) = match kind {
            HandsTo::Row => match layout.row_of(to) {
                Some(z) => hands_on_to_row(a.y + 20, z.y),
                None => continue,
            },
            HandsTo::Topic => match layout.topics.iter().position(|(t, _)| t == to) {
                Some(i) => {
                    let ty = layout.topics[i].1;
                    let first = layout.rows.iter().filter(|r| r.topic == Some(i)).map(|r| r.y).min().unwrap_or(ty);
                    hands_on_to_topic(a.y + 20, (ty, first), narrow)
                }
                None => continue,
            },
        };
        // An edge to a row is drawn where the rows are (moved left in the narrow diagram); an
        // edge to a topic is drawn where the topics are, with its own numbers for each layout.
        b.shift(if *kind == HandsTo::Row { shift(N_SHIFT) } else { None });
        let (cx, cy, anchor) = caption;
        html!(into *b.m();
            "<g class=\"edge hands-on\" data-testid=\"diagram-hands-on-", to, "\"><path d=\"", path,
            "\"/><text class=\"caption\" x=\"", cx, "\" y=\"", cy, "\" text-anchor=\"", anchor, "\">", *what, "</text></g>"
        );
        b.shift(None);
    }
    b.append(over);
    b.finish()
}

/// Where a function's destination edge runs to a queue's row: from the function's box at `y0`
/// down (or up) the narrow gap between the badges (which end at x 396) and the boxes (x 410),
/// into the queue's box at its line `y1`; crossing the other rows there, it crosses no badge.
/// The caption sits over the end, right-aligned with the badges, clear of the target's own
/// badges on its line. Returns the path and the caption's (x, y, anchor), in the wide
/// diagram's numbers (the narrow one moves them left with the rows).
fn hands_on_to_row(y0: i64, y1: i64) -> (String, (i64, i64, &'static str)) {
    let gap = BOX_X - 12;
    let path = format!("M {BOX_X} {y0} C {gap} {y0}, {gap} {y1}, {BOX_X} {y1}");
    (path, (BOX_X - 14, y1 - 16, "end"))
}

/// Where a function's destination edge runs to a topic's node at `ty`, whose first row is on
/// the line `first` (`ty` for a topic on a row of its own): down (or up) the same gap beside
/// the boxes, across 38 above that row (between it and the rows before), to the topic's
/// column and into the node's top. In the narrow diagram the topic stands at the left under
/// the rows before it: the edge comes down the gap into its right side. The caption sits on
/// the line across (wide) or over the node's right end (narrow).
fn hands_on_to_topic(y0: i64, (ty, first): (i64, i64), narrow: bool) -> (String, (i64, i64, &'static str)) {
    if narrow {
        // The rows' boxes start at 174 here, and the topics' nodes end at 160.
        let (x, gap, end) = (BOX_X + N_SHIFT, BOX_X + N_SHIFT - 7, 160);
        let dir = if ty >= y0 { 1 } else { -1 };
        let path = format!(
            "M {x} {y0} Q {gap} {y0}, {gap} {} L {gap} {} Q {gap} {ty}, {end} {ty}",
            y0 + 7 * dir,
            ty - 7 * dir
        );
        return (path, (end - 4, ty - 34, "end"));
    }
    let (gap, across, centre) = (BOX_X - 12, first.min(ty) - 38, 210);
    let dir = if across >= y0 { 1 } else { -1 };
    let path = format!(
        "M {BOX_X} {y0} Q {gap} {y0}, {gap} {} L {gap} {} Q {gap} {across}, {} {across} L {} {across} Q {centre} {across}, {centre} {} L {centre} {}",
        y0 + 8 * dir,
        across - 8 * dir,
        gap - 8,
        centre + 8,
        across + 8,
        ty - 30
    );
    (path, (centre + 12, across - 4, "start"))
}

/// One row: the edge that feeds it, its subscription's badges or its rule's, its queue (or what
/// else it delivers to) with the filter's counts, its consumers and its dead-letter queues.
/// The subscription's dead-letter queue goes into `over`, drawn after every row.
fn queue_row(b: &mut Builder, over: &mut Builder, layout: &Layout, row: &Row) {
    let narrow = layout.narrow;
    let Row {
        sub,
        rule,
        endpoint,
        queue,
        visible,
        inflight,
        dlq,
        sub_dlq,
        consumers,
        dots,
        more,
        y,
        drop,
        alarms,
        topic: _,
        service: _,
    } = row;
    let y = *y;
    if let Some(path) = layout.feed_path(row, false) {
        html!(into *b.m(); "<g class=\"edge\"><path d=\"", path, "\"/></g>");
    }
    b.shift(narrow.then_some(N_SHIFT));
    if let Some(sub) = sub {
        // The narrow diagram writes the badges larger: "filter" takes more of the room.
        let (filter_w, raw_x) = if narrow { (66, 364) } else { (56, 356) };
        let select = Selection::Subscription(sub.arn.clone()).to_attr();
        html!(into *b.m(); "<g class=\"badges\" data-select=\"", select, "\">");
        if let Some(p) = &sub.filter_policy {
            html!(into *b.m();
                "<g class=\"badge filter\" tabindex=\"0\" role=\"button\" aria-label=\"Filter policy for ", queue, ": ", p,
                "\"><title>Filter policy: ", p, "</title><rect x=\"296\" y=\"", y - 11,
                "\" width=\"", filter_w, "\" height=\"20\" rx=\"10\"/><path class=\"funnel\" d=\"M 303 ", y - 5,
                " h 11 l -4 5 v 4 l -3 1 v -5 z\"/><text x=\"", filter_w / 2 + 302, "\" y=\"", y + 4, "\">filter</text></g>"
            );
        }
        let (title, label) = if sub.raw {
            ("Raw message delivery: the body arrives exactly as published", "raw")
        } else {
            ("SNS envelope: the event arrives inside a JSON notification", "env")
        };
        html!(into *b.m();
            "<g class=\"badge raw\"><title>", title, "</title><rect x=\"", raw_x, "\" y=\"", y - 11,
            "\" width=\"", 396 - raw_x, "\" height=\"20\" rx=\"10\"/><text x=\"", (raw_x + 396) / 2, "\" y=\"", y + 4,
            "\">", label, "</text></g></g>"
        );
    }
    if let Some(rule) = rule {
        rule_badge(b, rule, queue, y);
    }
    // What is not a queue is drawn as what it is (only on the routes page); a queue with its
    // messages inside.
    match endpoint {
        Some(e) => endpoint_box(b, e, sub.as_ref(), rule.as_ref(), y),
        None => {
            let frame = Frame::button(Some(Selection::Queue(queue.clone())));
            let stat = format!("{visible} visible · {inflight} in flight");
            let (inner, shown) = dots_markup(queue, dots, *more, y + 19, narrow);
            // The dots' texts follow the counts, as on screen (their timers and receives).
            let mut label = format!("Queue {queue}: {visible} visible, {inflight} in flight");
            if !shown.is_empty() {
                label = format!("{label} (first messages, their seconds left or receives:) {}", shown.join(", "));
            }
            b.live(frame, box_look("queue", label, (y - 30, 60), queue, &stat, inner));
        }
    }
    if let Some(sub) = sub.as_ref().filter(|s| s.filter_policy.is_some()) {
        let why = if narrow { (296, 20) } else { (258, 34) };
        filter_stats(b, queue, sub.filtered_out, drop.as_deref(), y, why);
    }
    b.shift(None);
    consumers_of(b, layout, queue, consumers, y);
    if let Some(service) = &row.service {
        service_box(b, row, service, narrow);
    }
    if let Some((d, n)) = dlq {
        let label = format!(
            "Dead-letter queue {d}: {}, what {queue}'s consumers never deleted",
            crate::format::count(*n as u64, "message", "messages")
        );
        let title =
            format!("{queue}'s dead-letter queue: the messages its consumers received too often without deleting them");
        let (centre, width, edge_x) = row.dlq_place(narrow);
        let node = DeadLetter {
            name: d,
            count: *n,
            centre,
            width,
            edge_x,
            edge_from: y + 30,
            top: row.dlq_top(narrow),
            fits: 18,
            class: "",
            testid: false,
        };
        node.draw(b, label, &title, "processing failures");
    }
    alarm_badges(b, row, alarms, narrow);
    // Under the subscription's badge, right of the topic's edges; drawn after every row.
    if let Some((d, n)) = sub_dlq {
        let (label, title) = match rule {
            Some(r) => (
                format!(
                    "Target dead-letter queue {d}: {}, the events rule {} could not deliver to {queue}",
                    crate::format::count(*n as u64, "message", "messages"),
                    r.name
                ),
                format!("The target's dead-letter queue: the events EventBridge could not deliver to {queue}"),
            ),
            None => (
                format!(
                    "Subscription dead-letter queue {d}: {}, the copies SNS could not deliver to {queue}",
                    crate::format::count(*n as u64, "message", "messages")
                ),
                format!("The subscription's dead-letter queue: the copies SNS could not deliver to {queue}"),
            ),
        };
        let ((centre, width, fits), edge_x) =
            if narrow { ((110, 110, 13), 376 + N_SHIFT) } else { ((432, 136, 18), 376) };
        let node = DeadLetter {
            name: d,
            count: *n,
            centre,
            width,
            edge_x,
            edge_from: y + 9,
            top: row.dlq_top(narrow),
            fits,
            class: " sub-dlq",
            testid: true,
        };
        node.draw(over, label, &title, "delivery failures");
    }
}

/// The downstream service a row's workers call, under their column: its name, whether it is
/// up, its calls and failures, and the calls it throttled (live: they count). An edge comes
/// down to it from the consumers.
fn service_box(b: &mut Builder, row: &Row, c: &Call, narrow: bool) {
    let top = row.service_top(narrow);
    let (x, width, from_x, from_y) = if narrow {
        (200, 170, 188, row.y + 30)
    } else {
        let lines = row.consumers.len().clamp(1, MAX_CONSUMERS) as i64;
        (652, 172, 740, row.y + (lines - 1) * 12 + 10)
    };
    let path = if narrow {
        html!("M ", from_x, " ", from_y, " L ", from_x, " ", top + 18, " L ", x, " ", top + 18)
    } else {
        html!("M ", from_x, " ", from_y, " L ", from_x, " ", top)
    };
    html!(into *b.m(); "<g class=\"edge calls\"><path d=\"", path, "\"/></g>");
    let (class, state) = if c.down { ("service down", "down") } else { ("service", "up") };
    let limit = c.capacity.map_or_else(String::new, |n| format!(", serves {n} calls at a time"));
    let label = format!(
        "Service {}, called by {}'s workers: {state}{limit}; {} calls, {} failed, {} throttled",
        c.name, row.queue, c.calls, c.errors, c.throttled
    );
    // 10.5 px monospace (style.css): about 6.3 px a character, 12 px in and 10 px kept free.
    let fits = ((width - 22) * 10 / 63) as usize;
    let counts = cut(&format!("{} · {} failed", crate::format::count(c.calls, "call", "calls"), c.errors), fits);
    // Throttled calls are failed calls too: "of them" says so.
    let throttled =
        if c.errors > 0 { format!("{} of them throttled", c.throttled) } else { format!("{} throttled", c.throttled) };
    let throttled = cut(&throttled, fits);
    let inner = html! {
        "<title>", &label, "</title><rect x=\"", x, "\" y=\"", top, "\" width=\"", width, "\" height=\"54\" rx=\"10\"/>",
        "<text class=\"name small\" x=\"", x + 12, "\" y=\"", top + 17, "\">", cut(&c.name, fits - 5), "</text>",
        "<text class=\"stat state\" x=\"", x + width - 10, "\" y=\"", top + 17, "\" text-anchor=\"end\">", state, "</text>",
        "<text class=\"stat\" x=\"", x + 12, "\" y=\"", top + 33, "\">", counts, "</text>",
        "<text class=\"stat\" x=\"", x + 12, "\" y=\"", top + 48, "\">", throttled, "</text>"
    };
    let frame = Frame::default().testid(format!("diagram-service-{}", c.name));
    b.live(frame, Look { class: format!("node {class}"), label: Some(label), inner });
}

/// The alarms on a row's queues, each a badge with its name and state (live: the state
/// changes), one under the other; "+N alarms" past the first few.
fn alarm_badges(b: &mut Builder, row: &Row, alarms: &[AlarmBadge], narrow: bool) {
    use engine::world::AlarmState;
    let (x, top, width) = row.alarms_at(narrow);
    let over = alarms.len() > MAX_ALARMS;
    let shown = if over { MAX_ALARMS - 1 } else { alarms.len() };
    for (i, a) in alarms.iter().take(shown).enumerate() {
        let y = top + i as i64 * ALARM_LINE;
        let (class, state) = match a.state {
            AlarmState::Ok => ("state-ok", "OK"),
            AlarmState::Alarm => ("state-alarm", "ALARM"),
            AlarmState::InsufficientData => ("state-insufficient", "no data"),
        };
        // About 6.3 px a character at 11 px, after the lamp and before the state.
        let fits = ((width - 34) * 10 / 63) as usize - state.len() - 2;
        let inner = html! {
            "<title>Alarm ", &a.name, ": ", a.state.as_str(), ". ", &a.reason, "</title><rect x=\"", x, "\" y=\"", y,
            "\" width=\"", width, "\" height=\"20\" rx=\"10\"/><circle class=\"lamp\" cx=\"", x + 12, "\" cy=\"", y + 10, "\" r=\"4\"/><text x=\"", x + 26, "\" y=\"", y + 14, "\">", cut(&a.name, fits), ": ", state, "</text>"
        };
        let frame = Frame::default().testid(format!("diagram-alarm-{}", a.name));
        let label = Some(format!("Alarm {}: {}", a.name, a.state.as_str()));
        b.live(frame, Look { class: format!("node alarm {class}"), label, inner });
    }
    if over {
        html!(into *b.m();
            "<text class=\"more\" x=\"", x + 26, "\" y=\"", top + shown as i64 * ALARM_LINE + 14, "\">+",
            alarms.len() - shown, " alarms</text>"
        );
    }
}

/// A wide diagram's worker holding a message (`held`: "msg-2 ×1"): its name and what it holds,
/// as they fit in 136 px after the glyph (7.2 px a name character at 12 px, 6.6 px a held one at
/// 11 px). The worker's whole name first: the message's id goes before the name is cut (both
/// stay in the title and the accessible name).
pub(super) fn holding_wide<'a>(label: &str, held: &'a str) -> (String, &'a str) {
    let count = held.rsplit(' ').next().unwrap_or_default();
    let fits = |name: usize, held: usize| name * 72 + (held + 3) * 66 <= 1360;
    let name = label.chars().count();
    if fits(name, held.chars().count()) {
        (label.to_string(), held)
    } else if fits(name, count.chars().count()) {
        (label.to_string(), count)
    } else {
        (cut_start(label, 7), held)
    }
}

/// The shape that carries a consumer's state along with its colour (the queue cards write it
/// as a character, [`state_glyph`]), centred on `(x, y)`: a dot while it works, a ring while it
/// waits, a cross when crashed, two bars when paused, a λ for a function's mapping.
fn glyph_shape(state: ConsumerState, x: i64, y: i64) -> Markup {
    use ConsumerState::{Mapping, Worker};
    match state {
        Worker(WorkerStatus::Crashed) => html!(
            "<path class=\"glyph line\" d=\"M ",
            x - 4,
            " ",
            y - 4,
            " L ",
            x + 4,
            " ",
            y + 4,
            " M ",
            x + 4,
            " ",
            y - 4,
            " L ",
            x - 4,
            " ",
            y + 4,
            "\"/>"
        ),
        Worker(WorkerStatus::Paused | WorkerStatus::Pausing) | Mapping(MappingState::Disabled) => html!(
            "<path class=\"glyph line\" d=\"M ",
            x - 2,
            " ",
            y - 4,
            " L ",
            x - 2,
            " ",
            y + 4,
            " M ",
            x + 2,
            " ",
            y - 4,
            " L ",
            x + 2,
            " ",
            y + 4,
            "\"/>"
        ),
        Worker(WorkerStatus::Processing) => html!("<circle class=\"glyph\" cx=\"", x, "\" cy=\"", y, "\" r=\"4.5\"/>"),
        Mapping(MappingState::Enabled) => html!(
            "<path class=\"glyph line\" d=\"M ",
            x - 4,
            " ",
            y - 5,
            " L ",
            x + 4,
            " ",
            y + 5,
            " M ",
            x,
            " ",
            y,
            " L ",
            x - 4,
            " ",
            y + 5,
            "\"/>"
        ),
        Worker(WorkerStatus::Waiting | WorkerStatus::Stopped) | Mapping(MappingState::Deleting) => {
            html!("<circle class=\"glyph line\" cx=\"", x, "\" cy=\"", y, "\" r=\"4\"/>")
        }
    }
}

/// A queue's consumers beside it, or in the narrow diagram under it, one under the other; "+N
/// more" on the last line past the first few.
fn consumers_of(b: &mut Builder, layout: &Layout, queue: &str, consumers: &[Consumer], y: i64) {
    let narrow = layout.narrow;
    // Past MAX_CONSUMERS, "+N more" takes the last line, inside the row.
    let over = consumers.len() > MAX_CONSUMERS;
    let shown = if over { MAX_CONSUMERS - 1 } else { consumers.len() };
    let lines = consumers.len().min(MAX_CONSUMERS);
    let first_y = if narrow { y + 46 } else { y - (lines.max(1) as i64 - 1) * 12 };
    let (cx, cw) = if narrow { (200, 140) } else { (650, 170) };
    for (i, c) in consumers.iter().take(shown).enumerate() {
        let cy = first_y + i as i64 * 24;
        if narrow {
            html!(into *b.m(); "<g class=\"edge consume\"><path d=\"M 188 ", y + 30, " L 188 ", cy, " L 200 ", cy, "\"/></g>");
        } else {
            html!(into *b.m();
                "<g class=\"edge consume\"><path d=\"M 610 ", y, " C 630 ", y, ", 630 ", cy, ", 650 ", cy, "\"/></g>"
            );
        }
        // A function's node: "Lambda function ship" to a screen reader; its test id keeps the
        // "λ " it has always had.
        let (who, testid) = match &c.worker {
            Some(w) => ("", w.clone()),
            None => ("Lambda function ", format!("λ {}", c.label)),
        };
        let state = c.state.name();
        let frame = Frame::button(c.worker.clone().map(Selection::Worker)).testid(format!("diagram-consumer-{testid}"));
        // A worker holding a message shows which, with its receive count, after its name. Its
        // accessible name has what is shown in the same order (the words in parentheses say
        // what a sighted learner sees without them).
        let title = match &c.holding {
            Some(h) => format!("{who}{}: {state}, holding {h}", c.label),
            None => format!("{who}{}: {state}", c.label),
        };
        let (name, held, holding) = match &c.holding {
            // On a phone only the receive count fits beside the name ("sms-w1 · 1/5").
            Some(h) if narrow => {
                let (id, count) = h.rsplit_once(' ').unwrap_or((h.as_str(), ""));
                (
                    cut_start(&c.label, 8),
                    html!("<tspan class=\"holding\"> · ", count, "</tspan>"),
                    format!(" (holding {id}) {count}"),
                )
            }
            Some(h) => {
                let (shown, held) = holding_wide(&c.label, h);
                // Only the count shown: the id goes in parentheses, as on a phone.
                let said = match h.rsplit_once(' ') {
                    Some((id, count)) if held == count => format!(" (holding {id}) {count}"),
                    _ => format!(" (holding) {h}"),
                };
                (shown, html!("<tspan class=\"holding\"> · ", held, "</tspan>"), said)
            }
            None => (c.label.clone(), Markup::new(), String::new()),
        };
        // The state's glyph is a shape, not a letter: "λ" or "Ⅱ" as text would be a word the
        // accessible name would have to contain.
        let inner = html! {
            "<title>", &title, "</title><rect x=\"", cx, "\" y=\"", cy - 10, "\" width=\"", cw,
            "\" height=\"20\" rx=\"10\"/>", glyph_shape(c.state, cx + 16, cy), "<text x=\"", cx + 26, "\" y=\"", cy + 4, "\">",
            name, held, "</text>"
        };
        let look = Look {
            class: format!("node consumer {}", state.to_ascii_lowercase()),
            label: Some(format!("{who}{}{holding} on {queue}: {state}", c.label)),
            inner,
        };
        b.live(frame, look);
    }
    if over {
        html!(into *b.m();
            "<text class=\"more\" x=\"", cx + 26, "\" y=\"", first_y + shown as i64 * 24 + 4, "\">+",
            consumers.len() - shown, " more</text>"
        );
    }
}

/// The order services in the producer's place (wide: stacked, each with its line to the
/// first topic; narrow: side by side on top, the second's line joining the first's), each
/// with its database in a caption under it. A service opens its database in the inspector.
fn services(b: &mut Builder, layout: &Layout) {
    let topic_y = layout.topic_y();
    for (i, service) in layout.services.iter().enumerate() {
        let (x, y) = if layout.narrow { (10 + i as i64 * 130, 24) } else { (10, layout.service_y(i)) };
        let (cx, name) = (x + 60, &service.name);
        if !layout.topics.is_empty() {
            let (lift, trunk) = (layout.lift, N_TRUNK);
            match (layout.narrow, i) {
                (true, 0) => {
                    html!(into *b.m(); "<g class=\"edge\"><path d=\"M ", trunk, " 48 L ", trunk, " ", N_TOP + lift, "\"/></g>")
                }
                // From inside the box's left end, down past its captions, to the trunk.
                (true, _) => html!(into *b.m();
                    "<g class=\"edge\"><path d=\"M ", x + 8, " 24 L ", x + 8, " ", 48 + lift + 4, " L ", trunk, " ", 48 + lift + 4,
                    "\"/></g>"
                ),
                (false, _) => html!(into *b.m();
                    "<g class=\"edge\"><path d=\"M 130 ", y, " C 150 ", y, ", 150 ", topic_y, ", 170 ", topic_y, "\"/></g>"
                ),
            }
        }
        let class = if service.crashed { "node producer service crashed" } else { "node producer service" };
        let (line, design) = (&service.line, service.design);
        // Side by side on a phone, each caption has the width of its box: the database's line
        // alone there (a crash shows as the box's and the caption's colour; the title and the
        // accessible name keep the whole line).
        let shown = if layout.narrow {
            line.trim_start_matches("crashed · ").trim_end_matches(" · crash armed").to_string()
        } else {
            line.clone()
        };
        let frame = Frame::button(Some(Selection::Service(name.clone()))).testid(format!("diagram-service-{name}"));
        let inner = html! {
            "<title>", name, " (", design, "): ", line, "</title><rect x=\"", x, "\" y=\"", y - 20,
            "\" width=\"120\" height=\"40\" rx=\"20\"/><text class=\"name small\" x=\"", cx, "\" y=\"", y + 4,
            "\" text-anchor=\"middle\">", cut(name, 16), "</text> <text class=\"caption result\" x=\"", cx, "\" y=\"", y + 32,
            "\" text-anchor=\"middle\">", cut(&shown, 30), "</text>"
        };
        let shown_cut = cut(name, 16) != *name || cut(&shown, 30) != *line;
        let label = shown_first(
            &format!("{} {}", cut(name, 16), cut(&shown, 30)),
            shown_cut,
            format!("Order service {name} ({design}): {line}"),
        );
        b.live(frame, Look { class: class.into(), label: Some(label), inner });
        // The relay that publishes its outbox, under its database: live, dashed while down.
        if let Some((line, crashed)) = &service.relay {
            // Under the database's caption, a line apart (the narrow diagram's text is larger).
            let relay_dy = if layout.narrow { 50 } else { 45 };
            let state = line.split_once(':').map_or("", |(_, state)| state);
            let inner = html! {
                "<text class=\"caption\" x=\"", cx, "\" y=\"", y + relay_dy, "\" text-anchor=\"middle\">relay", state,
                "</text>"
            };
            let class = if *crashed { "relay crashed" } else { "relay" };
            let look = Look { class: class.into(), label: Some(line.clone()), inner };
            b.live(Frame::default().testid(format!("diagram-relay-{name}")), look);
        }
    }
}

/// A row's box for what is not a queue (see [`Endpoint`]). It opens what delivers to it: its
/// subscription, or its rule.
fn endpoint_box(b: &mut Builder, e: &Endpoint, sub: Option<&SubscriptionView>, rule: Option<&RuleBadge>, y: i64) {
    let (label, kind, stat, more) = (&e.label, e.kind, &e.stat, &e.more);
    let select = match (sub, rule) {
        (Some(x), _) => Some(Selection::Subscription(x.arn.clone())),
        (None, Some(r)) => Some(Selection::Rule(format!("{}/{}", r.bus, r.name))),
        _ => None,
    };
    let frame = match select {
        Some(s) => Frame::button(Some(s)),
        None => Frame::default(),
    };
    let sep = if more.is_empty() { "" } else { "; " };
    let class = if e.down { "queue endpoint call down" } else { "queue endpoint call" };
    // The second line is cut to the box; whole in the title and the accessible name.
    // The kind (at the box's top right) is read first, as the accessible name says it.
    let kind_text = html!("<text class=\"kind\" x=\"596\" y=\"", y - 10, "\" text-anchor=\"end\">", kind, "</text>");
    let inner = html! {
        "<title>", label, ": ", stat, sep, more, "</title><text class=\"stat more-line\" x=\"424\" y=\"", y + 22, "\">",
        cut(more, 31), "</text>"
    };
    let shown = cut(label, 18);
    let name =
        shown_first(&format!("{kind} {shown} {stat}"), shown != *label, format!("{kind} {label}: {stat}{sep}{more}"));
    let look = box_look_after(class, name, (y - 30, 60), kind_text, &shown, stat, inner);
    b.live(frame.testid(format!("diagram-endpoint-{label}")), look);
}

/// A rule's badge on its target's row, where a subscription's badges would be: the rule's name
/// (its pattern in the title), selecting the rule; under it, a live count of the events it
/// matched and what the target receives when not the whole event.
fn rule_badge(b: &mut Builder, rule: &RuleBadge, queue: &str, y: i64) {
    let (name, bus, pattern) = (&rule.name, &rule.bus, &rule.pattern);
    let (state, disabled) = if rule.enabled { ("", "") } else { (" disabled", " (disabled)") };
    let matched = crate::format::count(rule.matched, "matched", "matched");
    let select = Selection::Rule(format!("{bus}/{name}")).to_attr();
    html!(into *b.m();
        "<g class=\"badges\" data-select=\"", select, "\"><g class=\"badge rule", state,
        "\" tabindex=\"0\" role=\"button\" data-testid=\"diagram-rule-", name, "\" aria-label=\"Rule ", name, " on ", bus,
        ", to ", queue, disabled, ": ", pattern, "\"><title>Rule ", name, disabled, ": ", pattern, "</title><rect x=\"296\" y=\"",
        y - 11, "\" width=\"100\" height=\"20\" rx=\"10\"/><text x=\"346\" y=\"", y + 4, "\">", cut(name, 14),
        "</text></g></g>"
    );
    // What the target receives when not the whole event, in a word (the inspector says more).
    // On a line of its own, flush with the badge's end: beside the count it would run under
    // the target's node, and at the badge's start the line from the bus can cross it.
    let input = match rule.input {
        "Input" => "constant",
        "InputPath" => "a path",
        "InputTransformer" => "transformed",
        _ => "",
    };
    let mut inner = html!("<text class=\"count\" x=\"296\" y=\"", y + 21, "\">", &matched, "</text>");
    if !input.is_empty() {
        html!(into inner; "<text class=\"count\" x=\"396\" y=\"", y + 40, "\" text-anchor=\"end\">", input, "</text>");
    }
    let look = Look { class: "filter-stats rule-stats".into(), label: Some(format!("Rule {name}: {matched}")), inner };
    b.live(Frame::default().testid(format!("rule-{name}-matched")), look);
}

/// Under a filter badge: how many messages it has dropped, and why it dropped the latest one
/// until the next delivery (whole in its title and accessible name). A live node.
fn filter_stats(b: &mut Builder, queue: &str, dropped: u64, drop: Option<&str>, y: i64, (why_x, fits): (i64, usize)) {
    let count = crate::format::count(dropped, "filtered out", "filtered out");
    let mut inner = Markup::new();
    if let Some(r) = drop {
        html!(into inner; "<title>Latest drop: ", r, "</title>");
    }
    html!(into inner; "<text class=\"count\" x=\"296\" y=\"", y + 21, "\">", &count, "</text>");
    if let Some(r) = drop {
        html!(into inner; "<text class=\"why\" x=\"", why_x, "\" y=\"", y + 33, "\">", cut(r, fits), "</text>");
    }
    let look = Look {
        class: if drop.is_some() { "filter-stats dropping" } else { "filter-stats" }.into(),
        label: Some(match drop {
            Some(r) => format!("{queue}'s filter: {count}; latest: {r}"),
            None => format!("{queue}'s filter: {count}"),
        }),
        inner,
    };
    b.live(Frame::default().testid(format!("filter-{queue}-dropped")), look);
}

#[cfg(test)]
mod call_text_tests {
    use super::*;

    #[test]
    fn a_cut_keeps_whole_words_when_the_text_has_a_break_to_end_at() {
        assert_eq!(cut("stock-sync-every-minute", 14), "stock-sync-…");
        assert_eq!(cut("packing-sns-dlq", 13), "packing-sns-…");
        assert_eq!(cut("notifications", 8), "notific…", "one long word is cut inside it");
        assert_eq!(cut("sms-dlq", 18), "sms-dlq");
        assert_eq!(cut_start("billing-w1", 7), "…w1");
        assert_eq!(cut_start("packing-w12", 8), "…w12");
        assert_eq!(cut_start("sms-w1", 7), "sms-w1");
        assert_eq!(cut_start("abcdefghij", 7), "…efghij", "one long word keeps its end");
    }

    /// Text width at the widest a character is drawn, in tenths of a px.
    fn width(text: &str, per_char: i64) -> i64 {
        text.chars().count() as i64 * per_char
    }

    #[test]
    fn a_dependencys_texts_fit_its_box_even_with_long_names_and_counts() {
        let inner = (BOX_X + BOX_W - BOX_PAD - TEXT_X) * 10;
        for (name, answers) in
            [("billing-api", "100 ms"), ("a-very-long-dependency-name", "25 s, down"), ("sms", "1.5 s")]
        {
            let (name, time, stat) = call_texts(name, answers, 99_999, 99_999);
            assert!(width(&name, NAME_CHAR_TENTHS) + width(&time, STAT_CHAR_TENTHS) + 60 <= inner, "{name} {time}");
            assert!(width(&stat, STAT_CHAR_TENTHS) <= inner, "{stat}");
        }
        assert_eq!(
            call_texts("billing-api", "100 ms", 4, 0),
            ("billing-api".into(), "100 ms".into(), "4 calls · 0 failed".into())
        );
    }
}
