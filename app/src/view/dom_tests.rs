//! `keep_list`, `morph` and `draw` on a real DOM (wasm-bindgen-test, headless Chromium): what stays is
//! the same element, what changed is written, and the markup ends as asked.

use super::{draw, keep_list, morph};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn element(html: &str) -> web_sys::Element {
    let doc = web_sys::window().and_then(|w| w.document()).expect("a document");
    let el = doc.create_element("div").expect("a div");
    el.set_inner_html(html);
    doc.body().expect("a body").append_child(&el).expect("appended");
    el
}

fn items(keys: &[u64]) -> Vec<(u64, String)> {
    keys.iter().map(|k| (*k, format!("<li data-k=\"{k}\">item {k}</li>"))).collect()
}

#[wasm_bindgen_test]
fn a_kept_list_keeps_its_items_and_inserts_each_run_of_new_ones_in_order() {
    let old = items(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let list = element(&old.iter().map(|(_, m)| m.as_str()).collect::<String>());
    let kept_before = list.query_selector("[data-k=\"4\"]").unwrap().unwrap();
    // 1–3 and 7–8 go (two runs), 4 stays, 5 changes, 6 stays, 9–11 come at the end and 0 first.
    let mut new = items(&[0, 4, 5, 6, 9, 10, 11]);
    new[2].1 = "<li data-k=\"5\">item 5, changed</li>".into();
    keep_list(&list, &old, &new);
    assert_eq!(list.inner_html(), new.iter().map(|(_, m)| m.as_str()).collect::<String>());
    let kept_after = list.query_selector("[data-k=\"4\"]").unwrap().unwrap();
    assert!(kept_before.is_same_node(Some(&kept_after)), "an item that stays is the same element");
    list.remove();
}

#[wasm_bindgen_test]
fn morph_writes_only_what_differs_and_keeps_the_elements() {
    let el = element("<p class=\"a\">one <b>two</b></p><ul><li>x</li><li>y</li></ul><span>gone</span>");
    let (p, ul) = (el.first_element_child().unwrap(), el.query_selector("ul").unwrap().unwrap());
    let fresh = element("<p class=\"b\">one <b>two</b></p><ul><li>x</li></ul><em>new</em>");
    morph(&el, &fresh);
    assert_eq!(el.inner_html(), fresh.inner_html());
    let now = |sel: &str| el.query_selector(sel).unwrap().unwrap();
    assert!(ul.is_same_node(Some(&now("ul"))), "a list whose items changed stays, its items change");
    assert!(!p.is_same_node(Some(&now("p"))), "an element whose attributes changed is replaced");
    el.remove();
    fresh.remove();
}

#[wasm_bindgen_test]
fn draw_keeps_the_focus_on_a_control_that_is_drawn_again() {
    use wasm_bindgen::JsCast;
    let mut last = String::new();
    let el = element("");
    draw(&el, "<p>3 ok</p><button data-testid=\"crash\">Crash</button>", &mut last);
    let button = el.query_selector("button").unwrap().unwrap().dyn_into::<web_sys::HtmlElement>().unwrap();
    button.focus().unwrap();
    draw(&el, "<p>4 ok</p><button data-testid=\"crash\">Crash</button>", &mut last);
    let again = el.query_selector("button").unwrap().unwrap();
    assert!(button.is_same_node(Some(&again)), "the button is kept, not drawn anew");
    assert_eq!(el.inner_html(), "<p>4 ok</p><button data-testid=\"crash\">Crash</button>");
    let doc = web_sys::window().and_then(|w| w.document()).unwrap();
    let active = doc.active_element().and_then(|a| a.get_attribute("data-testid"));
    assert_eq!(active.as_deref(), Some("crash"));
    el.remove();
}

#[wasm_bindgen_test]
fn draw_leaves_what_is_being_typed_where_it_is() {
    use wasm_bindgen::JsCast;
    let mut last = String::new();
    let el = element("");
    let field = "<input data-testid=\"visibility\" value=\"30\">";
    draw(&el, &format!("<p>3 visible</p>{field}"), &mut last);
    let input = el.query_selector("input").unwrap().unwrap().dyn_into::<web_sys::HtmlInputElement>().unwrap();
    input.focus().unwrap();
    input.set_value("45");
    draw(&el, &format!("<p>4 visible</p>{field}"), &mut last);
    let again = el.query_selector("input").unwrap().unwrap().dyn_into::<web_sys::HtmlInputElement>().unwrap();
    assert!(input.is_same_node(Some(&again)), "the field is the same element");
    assert_eq!(again.value(), "45", "what was typed stays");
    assert_eq!(el.query_selector("p").unwrap().unwrap().text_content().as_deref(), Some("4 visible"));
    el.remove();
}
