//! Moving between the app's views without loading anything: the route in a signal ([`Nav`]),
//! written to the address with the History API, read back when the learner goes back or
//! forward; links that move in place ([`Link`]); and the header every view shares.

use crate::route::{Route, View};
use leptos::prelude::*;

/// The app's route, and the way to change it.
#[derive(Clone, Copy)]
pub struct Nav {
    pub route: RwSignal<Route>,
}

/// Reads the route from the address, follows Back and Forward, and provides [`Nav`].
pub fn provide_nav() -> Nav {
    let nav = Nav { route: RwSignal::new(route_in_address()) };
    let handle = window_event_listener(leptos::ev::popstate, move |_| nav.route.set(route_in_address()));
    on_cleanup(move || handle.remove());
    provide_context(nav);
    nav
}

pub fn use_nav() -> Nav {
    expect_context::<Nav>()
}

/// The route the page's address names.
fn route_in_address() -> Route {
    let l = window().location();
    Route::parse(&l.pathname().unwrap_or_default(), &l.search().unwrap_or_default())
}

impl Nav {
    /// Moves to `route`: a new entry in the browser's history (Back returns).
    pub fn go(&self, route: Route) {
        if let Ok(h) = window().history() {
            let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&route.href()));
        }
        self.route.set(route);
    }

    /// Names `route` in the address in place of the current entry (a lesson's next step), with
    /// `fragment` after it (`#share=…`, or nothing); tells the views only if it changed.
    pub fn replace(&self, route: Route, fragment: &str) {
        if let Ok(h) = window().history() {
            let _ = h.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("{}{fragment}", route.href())),
            );
        }
        if self.route.with_untracked(|r| *r != route) {
            self.route.set(route);
        }
    }

    /// As [`replace`](Self::replace), but only while the learner is still on `view`: an answer
    /// that arrives late (a fetched lesson, drill, scenario or share link) names its place in the
    /// address only if the learner has not moved to another view meanwhile, never taking them back.
    pub fn replace_within(&self, view: View, route: Route, fragment: &str) {
        if self.route.with_untracked(Route::view) == view {
            self.replace(route, fragment);
        }
    }

    /// The view shown now.
    pub fn view(&self) -> View {
        self.route.with(Route::view)
    }
}

/// A link to another view: a real address (it opens in a new tab as one), followed in place on a
/// plain click.
#[component]
pub fn Link(
    to: Route,
    #[prop(optional)] testid: &'static str,
    #[prop(optional)] class: &'static str,
    children: Children,
) -> impl IntoView {
    let nav = use_nav();
    let href = to.href();
    let follow = move |ev: leptos::ev::MouseEvent| {
        if ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key()) {
            ev.prevent_default();
            nav.go(to.clone());
        }
    };
    view! { <a href=href class=class data-testid=testid on:click=follow>{children()}</a> }
}

/// The logo and the product's name, as static markup.
const BRAND: &str = "<svg class=\"logo\" viewBox=\"0 0 32 32\" aria-hidden=\"true\"><rect width=\"32\" height=\"32\" rx=\"8\"/>\
    <circle cx=\"9\" cy=\"16\" r=\"4\"/><path d=\"M13 16h4M17 16l6-7M17 16h6M17 16l6 7\"/></svg><h1>Fan-out Playground</h1>";

/// Focuses what the skip link leads to: the element marked `data-skip-to` (a lesson's step),
/// else the view's `<main>`, brought into view.
fn skip_to_main(ev: leptos::ev::MouseEvent) {
    ev.prevent_default();
    let doc = document();
    let target = ["[data-skip-to]", "main"].iter().find_map(|s| doc.query_selector(s).ok().flatten());
    let Some(el) = target.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok()) else { return };
    if !el.has_attribute("tabindex") {
        el.set_tab_index(-1);
    }
    _ = el.focus();
    el.scroll_into_view();
}

/// The header of every view: the brand, the links to the other views (the current one marked),
/// then what the view adds (its picker, clock, share bar).
#[component]
pub fn AppHeader(#[prop(optional)] class: &'static str, #[prop(optional)] children: Option<Children>) -> impl IntoView {
    let nav = use_nav();
    let current = move |v: View| if nav.view() == v { "page" } else { "false" };
    let link = |v: View, to: Route, testid: &'static str, short: &'static str, long: &'static str| {
        view! {
            <a href=to.href() data-testid=testid aria-current=move || current(v) on:click=move |ev: leptos::ev::MouseEvent| {
                if ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key()) {
                    ev.prevent_default();
                    nav.go(to.clone());
                }
            }>{short}<span class="long">{long}</span></a>
        }
    };
    // The first stop of the Tab key: past the header and the time controls, to the view's main
    // content (on a lesson, its step).
    let on_lesson = move || nav.route.with(|r| matches!(r, Route::Lesson { .. }));
    view! {
        <a class="skip-link" href="#main" data-testid="skip-link" on:click=skip_to_main>
            {move || if on_lesson() { "Skip to the step" } else { "Skip to the main content" }}
        </a>
        <header class=format!("bar {class}")>
            <div class="brand" inner_html=BRAND></div>
            <nav class="pages" aria-label="Views">
                {link(View::Sandbox, Route::Sandbox { scenario: None }, "nav-playground", "Sandbox", "")}
                {link(View::Lessons, Route::Lessons, "nav-lessons", "Lessons", "")}
                {link(View::Compare, Route::Compare { designs: "fanout,workqueue".into() }, "nav-compare", "Compare", " designs")}
                {link(View::Interview, Route::Interview { id: "checkout".into(), step: None }, "nav-interview", "Interview", " practice")}
                {link(View::Drills, Route::Drills, "nav-drills", "Drills", "")}
            </nav>
            {children.map(|c| c())}
        </header>
    }
}
