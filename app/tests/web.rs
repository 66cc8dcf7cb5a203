//! Component tests in headless Chromium (wasm-bindgen-test): the engine inside WebAssembly, and
//! the app's wiring from a click to the engine to the DOM.
#![cfg(target_arch = "wasm32")]

use app::{provide_nav, Ctx, Playground, Stage};
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
    let handle = leptos::mount::mount_to(host.clone(), || {
        provide_nav();
        let ctx = Ctx::new(Playground::builtin("quilt-store").unwrap(), None);
        view! { <Stage ctx=ctx /> }
    });
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
fn the_browser_runs_the_whole_engine() {
    // Every view has every route: an order service with its outbox, an HTTP/S endpoint, an
    // e-mail recipient, an EventBridge bus, and CloudWatch's alarms, in the page's own build.
    let mut pg = Playground::builtin("quilt-store").unwrap();
    for (action, params) in [
        (
            "CreateOrderService",
            serde_json::json!({"ServiceName": "orders", "TopicArn": "arn:aws:sns:us-east-1:000000000000:order-events", "Design": "Outbox"}),
        ),
        ("CreateEventBus", serde_json::json!({"Name": "shop"})),
        (
            "PutMetricAlarm",
            serde_json::json!({"AlarmName": "sms-dlq-visible", "Namespace": "AWS/SQS", "MetricName": "ApproximateNumberOfMessagesVisible", "Dimensions": [{"Name": "QueueName", "Value": "sms-dlq"}], "Statistic": "Maximum", "Period": 60, "EvaluationPeriods": 1, "Threshold": 0, "ComparisonOperator": "GreaterThanThreshold"}),
        ),
    ] {
        pg.apply(action, &params).unwrap_or_else(|e| panic!("{action}: {}: {}", e.code, e.message));
    }
    let topic = "arn:aws:sns:us-east-1:000000000000:order-events";
    let params = serde_json::json!({"TopicArn": topic, "Protocol": "email", "Endpoint": "ops@example.com"});
    pg.apply("Subscribe", &params).expect("an e-mail subscription");
    for file in [
        include_str!("../../public/scenarios/eventbridge-orders.json"),
        include_str!("../../public/scenarios/outbox.json"),
        include_str!("../../public/scenarios/webhook-retries.json"),
        include_str!("../../public/scenarios/lambda-destinations.json"),
    ] {
        Playground::from_scenario(file).expect("a route scenario loads in the page's build");
    }
}
