//! The page: a thin view over engine snapshots. Components read slices of the snapshot from
//! one context and send commands through it; they hold no message state of their own.

mod chips;
mod clock;
mod controls;
mod inspector;
mod log;
mod metrics;
mod queues;
mod topology;
mod transport;

use crate::playground::Playground;
use engine::{ApiError, Snapshot};
use leptos::prelude::*;

/// What the inspector shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    Queue(String),
    Message { queue: String, copy: u64 },
    Subscription(String),
    Worker(String),
    Event(u64),
}

/// The app's one context: the story, its latest snapshot, and the view's own settings.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub pg: RwSignal<Playground>,
    pub snapshot: Memo<Snapshot>,
    pub playing: RwSignal<bool>,
    /// Index into `SPEEDS`.
    pub speed: RwSignal<usize>,
    pub selected: RwSignal<Option<Selection>>,
    pub error: RwSignal<Option<String>>,
    pub announce: RwSignal<String>,
}

impl Ctx {
    /// Stops playback; telling the signal only if it plays, so nothing that draws the play
    /// button runs again for a step or a scrub.
    pub fn pause(&self) {
        if self.playing.get_untracked() {
            self.playing.set(false);
        }
    }

    /// Runs a command on the story; shows its error, if any, and changes nothing then.
    pub fn act<T>(&self, f: impl FnOnce(&mut Playground) -> Result<T, ApiError>) -> Option<T> {
        match self.pg.try_update(f)? {
            Ok(v) => {
                self.error.set(None);
                Some(v)
            }
            Err(e) => {
                self.error.set(Some(format!("{}: {}", e.code, e.message)));
                None
            }
        }
    }
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

#[component]
pub fn App() -> impl IntoView {
    match Playground::builtin("quilt-store") {
        Ok(pg) => view! { <Stage pg=pg /> }.into_any(),
        Err(e) => view! { <ErrorPanel message=format!("The default scenario could not be loaded: {e}") /> }.into_any(),
    }
}

#[component]
fn Stage(pg: Playground) -> impl IntoView {
    let pg = RwSignal::new(pg);
    let ctx = Ctx {
        pg,
        snapshot: Memo::new(move |_| pg.with(Playground::snapshot)),
        playing: RwSignal::new(false),
        speed: RwSignal::new(2),
        selected: RwSignal::new(None),
        error: RwSignal::new(None),
        announce: RwSignal::new(String::new()),
    };
    provide_context(ctx);
    clock::use_clock(ctx);
    transport::use_keyboard(ctx);
    log::use_announcer(ctx);

    view! {
        <div class="shell">
            <header class="bar">
                <div class="brand">
                    <svg class="logo" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" /><circle cx="9" cy="16" r="4" /><path d="M13 16h4M17 16l6-7M17 16h6M17 16l6 7" /></svg>
                    <h1>"Fan-out Playground"</h1>
                </div>
                <transport::ScenarioPicker />
                <time class="clock" data-testid="clock" title="Virtual time since the scenario started">
                    {move || ctx.snapshot.with(|s| s.now.to_string())}
                </time>
            </header>
            <transport::Transport />
            <main class="stage">
                <div class="main-col">
                    <controls::Publish />
                    <section class="diagram" aria-label="Topology">
                        <topology::Topology />
                    </section>
                    <queues::Queues />
                    <queues::Effects />
                    <metrics::Metrics />
                    <controls::Subscriptions />
                </div>
                <aside class="side-col">
                    <inspector::Inspector />
                    <log::EventLog />
                </aside>
            </main>
            <p class="sr-only" role="status" aria-live="polite">{move || ctx.announce.get()}</p>
        </div>
    }
}

#[component]
fn ErrorPanel(message: String) -> impl IntoView {
    view! {
        <div class="error-panel" role="alert">
            <h1>"Something went wrong"</h1>
            <p>{message}</p>
            <button on:click=|_| { let _ = window().location().reload(); }>"Reload the playground"</button>
        </div>
    }
}

/// After a panic the wasm instance is gone; this hook puts a plain DOM panel on the page so
/// the learner is never left with a blank or frozen screen.
pub fn install_panic_panel() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        previous(info);
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        let Some(body) = doc.body() else { return };
        if let Ok(panel) = doc.create_element("div") {
            panel.set_class_name("error-panel crashed");
            panel.set_attribute("role", "alert").ok();
            panel.set_inner_html(
                "<h1>Something went wrong</h1><p>The simulation stopped because of a bug. Reloading starts the \
                 scenario again.</p><button onclick=\"location.reload()\">Reload the playground</button>",
            );
            body.append_child(&panel).ok();
        }
    }));
}

/// Text made safe inside HTML or SVG markup, in an element or a quoted attribute: for the parts
/// of the page written as markup strings (the diagram, the event log, the charts).
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
