//! `keep_list` on a real DOM (wasm-bindgen-test, headless Chromium): what stays is
//! the same element, what changed is written, and the markup ends as asked.

use super::keep_list;
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
