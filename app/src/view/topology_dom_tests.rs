//! The diagram, the chips and the event log mounted on a real DOM (wasm-bindgen-test, headless
//! Chromium): an item that stays is the same element, a click names what it reads back from
//! `data-select`, and learner text stays text.

use crate::playground::{Playground, DEFAULT_SCENARIO};
use crate::view::{Ctx, Selection};
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `view` mounted in a new element of the page, with a context for the quilt store; returns
/// the element and the context.
fn mount<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> (web_sys::HtmlElement, Ctx) {
    let doc = web_sys::window().and_then(|w| w.document()).expect("a document");
    let el: web_sys::HtmlElement = doc.create_element("div").expect("a div").dyn_into().expect("an HTML element");
    doc.body().expect("a body").append_child(&el).expect("appended");
    let ctx = Rc::new(Cell::new(None));
    let set = Rc::clone(&ctx);
    let handle = leptos::mount::mount_to(el.clone(), move || {
        let pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
        let c = Ctx::new(pg, None);
        provide_context(c);
        set.set(Some(c));
        view()
    });
    handle.forget();
    (el, ctx.get().expect("mounted"))
}

/// Lets the effects the last change scheduled run (and those they scheduled).
async fn settle() {
    for _ in 0..3 {
        let timeout = js_sys::Promise::new(&mut |done, _| {
            web_sys::window().expect("a window").set_timeout_with_callback(&done).expect("a timeout");
        });
        wasm_bindgen_futures::JsFuture::from(timeout).await.expect("the timeout fires");
    }
}

/// The children of the element `selector` finds in `el`.
fn children(el: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let mut out = Vec::new();
    let mut next = find(el, selector).first_element_child();
    while let Some(child) = next {
        next = child.next_element_sibling();
        out.push(child);
    }
    out
}

fn find(el: &web_sys::Element, selector: &str) -> web_sys::Element {
    el.query_selector(selector).ok().flatten().unwrap_or_else(|| panic!("{selector} in {}", el.inner_html()))
}

/// A click on `el` that bubbles, as a pointer's does (an SVG element has no `click()`).
fn click(el: &web_sys::Element) {
    let window: wasm_bindgen::JsValue = web_sys::window().expect("a window").into();
    let class = js_sys::Reflect::get(&window, &"MouseEvent".into()).expect("MouseEvent");
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).expect("set");
    let args = js_sys::Array::of2(&"click".into(), &init);
    let event = js_sys::Reflect::construct(class.unchecked_ref::<js_sys::Function>(), &args).expect("a click");
    el.dispatch_event(event.unchecked_ref()).expect("dispatched");
}

#[wasm_bindgen_test]
async fn a_diagram_node_keeps_its_element_while_counts_change_and_when_a_worker_comes() {
    let (el, ctx) = mount(|| view! { <super::Topology /> });
    settle().await;
    let packing = find(&el, "[data-select=\"queue:packing\"]");
    assert_eq!(packing.get_attribute("aria-label").as_deref(), Some("Queue packing: 0 visible, 0 in flight"));
    ctx.act(|p| p.publish("OrderPlaced"));
    settle().await;
    assert!(packing.is_same_node(Some(&find(&el, "[data-select=\"queue:packing\"]"))), "the same element");
    assert_eq!(packing.get_attribute("aria-label").as_deref(), Some("Queue packing: 1 visible, 0 in flight"));
    assert!(packing.query_selector(".msg.visible").ok().flatten().is_some(), "its message drawn inside it");
    // A new node around it: the queue's node stays.
    ctx.act(|p| p.add_worker("packing"));
    settle().await;
    find(&el, "[data-testid=\"diagram-consumer-packing-w1\"]");
    assert!(packing.is_same_node(Some(&find(&el, "[data-select=\"queue:packing\"]"))), "still the same element");
    // A click reads what the node names back from its attribute.
    click(&find(&el, "[data-select=\"worker:packing-w1\"] rect"));
    assert_eq!(ctx.selected.get_untracked(), Some(Selection::Worker("packing-w1".into())));
    el.remove();
}

#[wasm_bindgen_test]
async fn a_policy_the_learner_typed_is_text_on_the_diagram() {
    let (el, ctx) = mount(|| view! { <super::Topology /> });
    let sms = ctx.pg.with_untracked(|p| {
        let s = p.snapshot();
        s.topics[0].subscriptions.iter().find(|x| x.queue.as_deref() == Some("sms")).expect("sms").arn.clone()
    });
    ctx.act(|p| p.set_filter_policy(&sms, r#"{"note": ["<img src=x>"]}"#)).expect("a valid policy");
    settle().await;
    assert!(el.query_selector("#diagram img").ok().flatten().is_none(), "no element from the learner's text");
    let badge = find(&el, ".badge.filter title");
    assert!(badge.text_content().unwrap_or_default().contains("<img src=x>"), "the policy, as text");
    el.remove();
}

#[wasm_bindgen_test]
async fn a_chip_keeps_its_element_when_its_message_changes_and_the_others_stay_when_one_goes() {
    let (el, ctx) = mount(|| {
        let ctx = crate::view::use_ctx();
        let q = Memo::new(move |_| ctx.snapshot.with(|s| s.queues.iter().find(|q| q.name == "packing").cloned()));
        view! { <crate::view::chips::Chips q=q queue="packing".to_string() /> }
    });
    for _ in 0..3 {
        ctx.act(|p| p.publish("OrderPlaced"));
    }
    settle().await;
    let chips = || children(&el, "ul.chips").iter().filter_map(|li| li.first_element_child()).collect::<Vec<_>>();
    let before = chips();
    assert_eq!(before.len(), 3);
    ctx.act(|p| p.receive("packing"));
    settle().await;
    let received = chips();
    assert!(received.iter().zip(&before).all(|(a, b)| a.is_same_node(Some(b))), "every chip the same element");
    assert!(received[0].class_list().contains("inflight"), "{}", received[0].class_name());
    assert!(received[0].query_selector(".left").ok().flatten().is_some(), "a ring for its timer");
    // The first one goes (deleted): the two others stay where they were.
    let handle = ctx.snapshot.with_untracked(|s| {
        let q = s.queues.iter().find(|q| q.name == "packing").expect("packing");
        q.messages[0].receipt_handle.clone().expect("received")
    });
    ctx.act(|p| p.delete("packing", &handle));
    settle().await;
    let after = chips();
    assert_eq!(after.len(), 2);
    assert!(after[0].is_same_node(Some(&before[1])) && after[1].is_same_node(Some(&before[2])));
    click(&after[1]);
    let copy = ctx.snapshot.with_untracked(|s| s.queues.iter().find(|q| q.name == "packing").unwrap().messages[1].copy);
    assert_eq!(ctx.selected.get_untracked(), Some(Selection::Message { queue: "packing".into(), copy }));
    el.remove();
}

#[wasm_bindgen_test]
async fn the_event_log_keeps_its_items_and_a_click_selects_an_event() {
    let (el, ctx) = mount(|| view! { <crate::view::log::EventLog /> });
    ctx.act(|p| p.publish("OrderPlaced"));
    settle().await;
    let items = || children(&el, "#events");
    let seq =
        |li: &web_sys::Element| li.get_attribute("data-seq").and_then(|s| s.parse::<u64>().ok()).expect("a number");
    let first = items();
    assert!(!first.is_empty());
    ctx.act(|p| p.publish("OrderPlaced"));
    settle().await;
    let second = items();
    assert!(second.len() > first.len());
    let seqs: Vec<u64> = second.iter().map(seq).collect();
    assert!(seqs.windows(2).all(|w| w[0] > w[1]), "newest first: {seqs:?}");
    let oldest = first.last().expect("an item");
    assert!(second.last().is_some_and(|l| l.is_same_node(Some(oldest))), "an item that stays is the same element");
    click(&find(&second[0], "button"));
    assert_eq!(ctx.selected.get_untracked(), Some(Selection::Event(seqs[0])));
    el.remove();
}
