//! A roving tabindex: a long list (the event log, a queue's message chips) is one stop of the
//! Tab key, its items reached with the arrow keys. Its items are the elements of one class
//! inside it, each with `tabindex="-1"` but the one that is the stop.

use leptos::prelude::document;
use web_sys::{Element, HtmlElement};

/// The list's items of class `class`, in order.
fn items(list: &Element, class: &str) -> Vec<HtmlElement> {
    let found = list.get_elements_by_class_name(class);
    (0..found.length())
        .filter_map(|i| found.item(i))
        .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(n).ok())
        .collect()
}

/// Makes `el` the list's one tab stop.
pub fn make_stop(list: &Element, class: &str, el: &HtmlElement) {
    if let Ok(Some(old)) = list.query_selector(&format!(".{class}[tabindex=\"0\"]")) {
        _ = old.set_attribute("tabindex", "-1");
    }
    el.set_tab_index(0);
}

/// After the list changed: while the focus is elsewhere its first item is the tab stop (Tab
/// comes to the newest event, the first message); while the focus is inside, the focused item
/// keeps it, and if the item that had it left the list (a scrub back, a filter), the first
/// takes it.
pub fn keep_one_stop(list: &Element, class: &str) {
    let inside = document().active_element().is_some_and(|a| list.contains(Some(a.as_ref())));
    let has_stop = list.query_selector(&format!(".{class}[tabindex=\"0\"]")).ok().flatten().is_some();
    if !inside || !has_stop {
        if let Some(first) = items(list, class).first() {
            make_stop(list, class, first);
        }
    }
}

/// Moves the focus within the list for `key` (↓ ↑ to the next and previous item, Home and End
/// to the first and last); whether the key was one of those. ← and → stay the story's step
/// keys.
pub fn rove(list: &Element, class: &str, key: &str) -> bool {
    let all = items(list, class);
    let Some(last) = all.len().checked_sub(1) else { return false };
    let active = document().active_element();
    let at = all.iter().position(|e| active.as_ref().is_some_and(|a| a == e.as_ref() as &Element));
    let to = match (key, at) {
        ("ArrowDown", Some(i)) => (i + 1).min(last),
        ("ArrowUp", Some(i)) => i.saturating_sub(1),
        ("Home", Some(_)) => 0,
        ("End", Some(_)) => last,
        _ => return false,
    };
    make_stop(list, class, &all[to]);
    _ = all[to].focus();
    true
}

/// A key pressed inside the list: the arrow keys, Home and End move the focus ([`rove`]) and
/// go no further (the page's own keys do not see them).
pub fn on_key(list: Option<impl AsRef<Element>>, class: &str, ev: &web_sys::KeyboardEvent) {
    if let Some(list) = list {
        if rove(list.as_ref(), class, &ev.key()) {
            ev.prevent_default();
            ev.stop_propagation();
        }
    }
}

/// The focus came to an element inside the list: an item of `class` is the tab stop now.
pub fn on_focus(list: Option<impl AsRef<Element>>, class: &str, ev: &web_sys::FocusEvent) {
    let target = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(t).ok());
    if let (Some(list), Some(el)) = (list, target) {
        if el.class_list().contains(class) {
            make_stop(list.as_ref(), class, &el);
        }
    }
}
