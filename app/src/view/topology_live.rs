//! The diagram on the page (see [`super::Topology`]): its pieces in a keyed list, each drawn
//! piece as its markup, each live node an element of its own whose classes, accessible name
//! and contents follow its look. A piece that is in the next diagram too stays: a node whose
//! counts change keeps its element, and a keyboard focus on it, even when a node comes or goes
//! around it.

use super::parts::{Diagram, Key, Look, Piece};
use leptos::prelude::*;

/// The diagram's pieces, in drawing order (inside the diagram's `<svg>`).
#[component]
pub(super) fn Pieces(diagram: Memo<Diagram>) -> impl IntoView {
    // Equal from one diagram to the next while only counts and states change: then the list
    // is not even looked at, only the live nodes' looks.
    let keys = Memo::new(move |_| diagram.with(Diagram::keys));
    view! {
        <For each=move || keys.get() key=Key::clone let(key)>
            {match &key.piece {
                Piece::Drawn(m) => view! { <g inner_html=m.as_str().to_owned()></g> }.into_any(),
                Piece::Live(_) => view! { <LiveNode diagram=diagram key=key.clone() /> }.into_any(),
            }}
        </For>
    }
}

/// A live node: its frame is fixed while it stays (see [`Key`]); its look is the one the latest
/// diagram gives it.
#[component]
fn LiveNode(diagram: Memo<Diagram>, key: Key) -> impl IntoView {
    let Piece::Live(frame) = key.piece.clone() else { unreachable!("a live node is a live piece") };
    // Kept as it was for the moment between a diagram without it and its removal.
    let look = Memo::new(move |was: Option<&Look>| {
        diagram.with(|d| d.look(&key).cloned()).or_else(|| was.cloned()).unwrap_or_default()
    });
    let button = |v: &'static str| frame.focusable.then_some(v);
    view! {
        <g class=move || look.with(|l| l.class.clone())
            transform=frame.shift.map(|dx| format!("translate({dx} 0)"))
            tabindex=button("0") role=button("button")
            data-select=frame.select.as_ref().map(super::Selection::to_attr)
            data-testid=frame.testid
            aria-label=move || look.with(|l| l.label.clone())
            inner_html=move || look.with(|l| l.inner.as_str().to_owned())></g>
    }
}
