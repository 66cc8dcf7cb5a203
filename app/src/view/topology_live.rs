//! The diagram's live nodes (see [`super::Topology`]): cut out of its markup as strings, and
//! brought up to date on the page by writing only the parts that changed.

use super::*;

/// Where the element that starts at `start` in `markup` ends (just after its closing tag):
/// where the tags opened from its start are all closed again.
fn element_end(markup: &str, start: usize) -> Option<usize> {
    let (mut depth, mut i) = (0usize, start);
    while let Some(open) = markup[i..].find('<').map(|k| i + k) {
        let close = markup[open..].find('>').map(|k| open + k)?;
        let tag = &markup[open..=close];
        if tag.starts_with("</") {
            depth = depth.saturating_sub(1);
        } else if !tag.ends_with("/>") {
            depth += 1;
        }
        i = close + 1;
        if depth == 0 {
            return Some(i);
        }
    }
    None
}

/// The live nodes in the diagram's `markup` (each element that carries `data-live="i"`, with
/// everything inside it), at their number's index. The markup is the diagram's own (see
/// [`diagram_markup`]): every attribute value and text is escaped, so a `<` or `>` is always a
/// tag's.
pub(super) fn live_pieces(markup: &str) -> Vec<&str> {
    const MARK: &str = " data-live=\"";
    // Indexed by number (no sort: the numbers run from 0, though not in the markup's order).
    let mut pieces: Vec<&str> = Vec::new();
    let mut from = 0;
    while let Some(at) = markup[from..].find(MARK).map(|i| from + i) {
        from = at + MARK.len();
        let (Some(start), Some(number)) = (markup[..at].rfind('<'), markup[from..].split('"').next()) else { break };
        let (Ok(number), Some(end)) = (number.parse::<usize>(), element_end(markup, start)) else { continue };
        if pieces.len() <= number {
            pieces.resize(number + 1, "");
        }
        pieces[number] = &markup[start..end];
    }
    pieces
}

/// A live node's markup cut up: its opening tag, its contents, and its children's markup
/// (`None` when there is text among them, not only elements).
pub(super) struct NodeParts<'a> {
    pub(super) open: &'a str,
    pub(super) inner: &'a str,
    pub(super) children: Option<Vec<&'a str>>,
}

pub(super) fn node_parts(piece: &str) -> Option<NodeParts<'_>> {
    let open = piece.find('>')? + 1;
    // The last tag is the node's closing tag.
    let inner = piece.get(open..piece.rfind('<')?)?;
    let mut children = Some(Vec::new());
    let mut i = 0;
    while i < inner.len() {
        let end = inner[i..].starts_with('<').then(|| element_end(inner, i)).flatten();
        match (end, children.as_mut()) {
            (Some(end), Some(list)) => {
                list.push(&inner[i..end]);
                i = end;
            }
            _ => {
                children = None;
                break;
            }
        }
    }
    Some(NodeParts { open: &piece[..open], inner, children })
}

/// Brings the live nodes of the diagram on the page up to date from `old` (the pieces drawn
/// last, see [`live_pieces`]) to `new`, of the same topology. Only what changed is parsed and
/// written: a node's class and accessible name when its opening tag changed (the rest of it
/// is the topology's, which is the same), and each of its children whose markup changed (a
/// message's dot, the line of counts), replaced alone. The nodes stay, and so does a keyboard
/// focus on one of them.
pub(super) fn update_live(svg: &web_sys::Element, old: &[String], new: &[&str]) {
    let Ok(scratch) = document().create_element_ns(Some("http://www.w3.org/2000/svg"), "svg") else { return };
    // `markup` parsed on its own: its first element.
    let parse = |markup: &str| {
        scratch.set_inner_html(markup);
        scratch.first_element_child()
    };
    for (i, piece) in new.iter().enumerate() {
        // Most nodes are as they were: compared whole, they are not cut up at all.
        if old.get(i).is_some_and(|w| w == piece) {
            continue;
        }
        let was = old.get(i).and_then(|w| node_parts(w));
        let Some(now) = node_parts(piece) else { continue };
        let Ok(Some(node)) = svg.query_selector(&format!("[data-live=\"{i}\"]")) else { continue };
        if was.as_ref().is_none_or(|w| w.open != now.open) {
            if let Some(fresh) = parse(piece) {
                for name in ["class", "aria-label"] {
                    let value = fresh.get_attribute(name).unwrap_or_default();
                    if node.get_attribute(name).as_deref() != Some(value.as_str()) {
                        node.set_attribute(name, &value).ok();
                    }
                }
            }
        }
        match (&now.children, was.as_ref().and_then(|w| w.children.as_ref())) {
            (Some(children), Some(was)) if children.len() == was.len() => {
                let mut child = node.first_element_child();
                for (new, was) in children.iter().zip(was) {
                    let Some(c) = child else { break };
                    child = c.next_element_sibling();
                    if new != was {
                        if let Some(fresh) = parse(new) {
                            c.replace_with_with_node_1(&fresh).ok();
                        }
                    }
                }
            }
            _ if was.as_ref().is_some_and(|w| w.inner == now.inner) => {}
            _ => node.set_inner_html(now.inner),
        }
    }
}
