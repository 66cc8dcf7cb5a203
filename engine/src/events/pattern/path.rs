//! Where a pattern's keys lead in an event: objects, arrays and keys with dots.
//!
//! EventBridge joins keys with dots ("EventBridge uses dot (.) as the joining character", "Event
//! pattern syntax"), so the path `detail.state.status` is reached the same way whether the event
//! writes `{"detail": {"state": {"status": …}}}`, `{"detail": {"state.status": …}}` or
//! `{"detail.state": {"status": …}}`, and whether the pattern nests its keys or dots them. A
//! dotted key in the event may also span a nesting level of the pattern: AWS answers `true` for
//! the pattern `{"detail": {"state": {"status": ["running"]}}}` and the event
//! `{"detail": {"state.status": "running"}}`, recorded by LocalStack's validated test suite
//! (`localstack/localstack`, `tests/aws/services/events/event_pattern_templates/dot_joining_event.json5`).
//! So a pattern object is matched at a [`Place`]: an event node, or the rest of a dotted key that
//! began above it. Arrays are transparent (event-ruler: "the array structure is crushed out").

use crate::events::json::{Node, Tree};

/// A point in the event where a pattern object applies: the node `node`, seen through the key
/// parts `pending` that a dotted key above it still owes (`{"state.status": x}` seen from the
/// pattern's `state` is `x` with `status` pending). `pending` is empty for a plain node.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub(crate) node: usize,
    pub(crate) pending: Vec<String>,
}

impl Place {
    pub(crate) fn root(tree: &Tree) -> Place {
        Place { node: tree.root, pending: Vec::new() }
    }

    /// Whether a pattern object can look inside this place: an object, or a dotted key's rest.
    pub(crate) fn is_container(&self, tree: &Tree) -> bool {
        !self.pending.is_empty() || tree.is_object(self.node)
    }
}

/// Every place reached from `from` by the key path `segments`, in document order. A place whose
/// dotted key goes on past the path is returned with the rest pending (it holds an object there,
/// not a value).
pub(crate) fn walk(tree: &Tree, from: &Place, segments: &[String]) -> Vec<Place> {
    let mut out = Vec::new();
    // (place, how many segments it has consumed), depth-first; every step consumes a key part, so
    // the work is bounded by the event's size times the path's length.
    let mut work: Vec<(Place, usize)> = vec![(from.clone(), 0)];
    while let Some((place, done)) = work.pop() {
        let rest = &segments[done..];
        if !place.pending.is_empty() {
            let shared = place.pending.len().min(rest.len());
            if place.pending[..shared] != rest[..shared] {
                continue;
            }
            if shared == rest.len() {
                let pending = place.pending[shared..].to_vec();
                if pending.is_empty() {
                    out.extend(flattened(tree, place.node).into_iter().map(|node| Place { node, pending: Vec::new() }));
                } else {
                    out.push(Place { node: place.node, pending });
                }
                continue;
            }
            for node in flattened(tree, place.node).into_iter().rev() {
                work.push((Place { node, pending: Vec::new() }, done + shared));
            }
            continue;
        }
        if rest.is_empty() {
            out.push(place);
            continue;
        }
        let Some(Node::Obj(entries)) = tree.node(place.node) else { continue };
        let mut next = Vec::new();
        for (key, child) in entries {
            let parts: Vec<&str> = key.split('.').collect();
            let shared = parts.len().min(rest.len());
            if !parts[..shared].iter().zip(rest).all(|(have, want)| *have == want.as_str()) {
                continue;
            }
            let owed: Vec<String> = parts[shared..].iter().map(|p| p.to_string()).collect();
            if owed.is_empty() {
                next.extend(
                    flattened(tree, *child)
                        .into_iter()
                        .map(|node| (Place { node, pending: owed.clone() }, done + shared)),
                );
            } else {
                // The key goes on past the path: the place is finished, with the rest owed.
                next.push((Place { node: *child, pending: owed }, done + shared));
            }
        }
        work.extend(next.into_iter().rev());
    }
    out
}

/// `id`, or the elements of `id` (recursively) when it is an array.
fn flattened(tree: &Tree, id: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack = vec![id];
    while let Some(top) = stack.pop() {
        match tree.node(top) {
            Some(Node::Arr(items)) => stack.extend(items.iter().rev()),
            Some(_) => out.push(top),
            None => {}
        }
    }
    out
}
