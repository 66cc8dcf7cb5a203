//! Component tests in headless Chromium (wasm-bindgen-test): the engine inside WebAssembly, and
//! the app's wiring from a click to the engine to the DOM.
#![cfg(target_arch = "wasm32")]

use app::{Playground, Stage};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const DETERMINISM: &str = include_str!("../../engine/tests/golden/determinism.json");
const GOLDEN: &str = include_str!("../../engine/tests/golden/determinism.events.jsonl");

#[wasm_bindgen_test]
fn the_wasm_event_log_is_byte_identical_to_the_native_one() {
    // Same scenario and seed, same log: this run in the browser against the golden file the
    // native test suite checks (engine/tests/golden.rs).
    let run = engine::Scenario::parse(DETERMINISM).expect("scenario parses").run();
    let log = engine::event_log_jsonl(run.events());
    assert_eq!(log.lines().count(), GOLDEN.lines().count());
    assert!(log == GOLDEN, "the wasm event log differs from the native golden log");
}

#[wasm_bindgen_test]
fn the_default_scenario_loads_in_the_browser() {
    let pg = Playground::from_scenario(app::playground::DEFAULT_SCENARIO).expect("default scenario");
    assert_eq!(pg.snapshot().queues.len(), 4);
}

fn document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("a document")
}

fn text(id: &str) -> String {
    document()
        .query_selector(&format!("[data-testid=\"{id}\"]"))
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_else(|| panic!("no element with data-testid {id}"))
        .trim()
        .to_string()
}

/// Waits (up to 2 s, in steps of 20 ms) until an element with `data-testid` `id` is on the page.
async fn appears(id: &str) {
    for _ in 0..100 {
        if document().query_selector(&format!("[data-testid=\"{id}\"]")).ok().flatten().is_some() {
            return;
        }
        let wait = js_sys::Promise::new(&mut |done, _| {
            let window = web_sys::window().expect("a window");
            window.set_timeout_with_callback_and_timeout_and_arguments_0(&done, 20).expect("a timer");
        });
        wasm_bindgen_futures::JsFuture::from(wait).await.expect("the timer fires");
    }
    panic!("no element with data-testid {id} after 2 s");
}

#[wasm_bindgen_test]
async fn clicking_publish_fans_out_to_the_three_queues() {
    let host = document().create_element("div").unwrap().unchecked_into::<web_sys::HtmlElement>();
    document().body().unwrap().append_child(&host).unwrap();
    // The page's Stage on the quilt store (App itself fetches the scenario file first).
    let handle =
        leptos::mount::mount_to(host.clone(), || view! { <Stage pg=Playground::builtin("quilt-store").unwrap() /> });
    // The queue cards and the log are built once the first screen is painted (`after_paint`).
    appears("event-log").await;
    appears("queue-billing-visible").await;
    assert_eq!(text("queue-billing-visible"), "0");
    let button = document().query_selector("[data-testid=\"publish\"]").unwrap().unwrap();
    button.unchecked_ref::<web_sys::HtmlElement>().click();
    leptos::task::tick().await;
    for q in ["billing", "packing", "sms"] {
        assert_eq!(text(&format!("queue-{q}-visible")), "1", "{q}");
    }
    assert!(text("event-log").contains("Published"));
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
fn the_page_leaves_out_the_routes_it_does_not_draw_and_says_so() {
    // The browser build has no `extra-routes` (engine/Cargo.toml): an imported file or a link
    // that uses one is refused with a message naming what is missing, and changes nothing.
    let mut pg = Playground::builtin("quilt-store").unwrap();
    let before = pg.events().len();
    let e = pg.apply("CreateOrderService", &serde_json::json!({"ServiceName": "orders"})).unwrap_err();
    assert_eq!(e.code, "InvalidAction");
    assert!(
        e.message.contains("CreateOrderService is not on this page") && e.message.contains("routes page (routes.html)"),
        "{}",
        e.message
    );
    assert_eq!(pg.events().len(), before);
    assert!(engine::actions::find("CreateHttpEndpoint").is_none() && engine::actions::find("Invoke").is_none());
}

#[wasm_bindgen_test]
fn an_sms_subscription_points_to_the_routes_page_and_changes_nothing() {
    // Without `extra-routes` the page has no e-mail, SMS or push recipients: Subscribe says where
    // they are. (Natively, `cargo test --workspace` unifies the engine's default features, which
    // have them; this build is the page's own.)
    let mut pg = Playground::builtin("quilt-store").unwrap();
    let topic = "arn:aws:sns:us-east-1:000000000000:order-events";
    let before = pg.apply("ListSubscriptions", &serde_json::json!({})).unwrap();
    let params = serde_json::json!({"TopicArn": topic, "Protocol": "sms", "Endpoint": "+15555550100"});
    let e = pg.apply("Subscribe", &params).unwrap_err();
    assert!(e.message.contains("routes page (routes.html)"), "{}", e.message);
    assert_eq!(pg.apply("ListSubscriptions", &serde_json::json!({})).unwrap(), before);
}
