//! The one app: every view of the playground in one bundle, one of them drawn at a time (the
//! route's), and the stories that outlive a view. Moving from the sandbox to a lesson, to
//! compare mode and back fetches nothing: the sandbox's story and the lesson being played are
//! kept here, and a view is built again from them when it is shown.

use super::lesson::{self, Lessons};
use super::nav::{provide_nav, use_nav};
use super::stage::Stage;
use super::{share, Ctx, ErrorPanel, Selection};
use crate::playground::{Playground, BUILTIN};
use crate::route::{Route, View};
use leptos::prelude::*;

/// What the app keeps while the learner moves between views: the sandbox's story and the
/// lessons' state, each made once (when its view is first shown) under the app's owner, so
/// that it outlives the view that shows it.
#[derive(Clone, Copy)]
pub struct Kept {
    owner: StoredValue<Owner, LocalStorage>,
    /// The sandbox's story, once loaded.
    pub sandbox: RwSignal<Option<Ctx>>,
    /// Whether the sandbox's first story is being loaded.
    loading: RwSignal<bool>,
    /// The lessons (the one being played, the list, the progress), once the lessons are shown.
    pub lessons: RwSignal<Option<Lessons>>,
    /// The drills (the one being played, the list, the progress), once the drills are shown.
    pub drills: RwSignal<Option<super::drill::Drills>>,
}

pub fn use_kept() -> Kept {
    expect_context::<Kept>()
}

impl Kept {
    fn provide() -> Kept {
        let kept = Kept {
            owner: StoredValue::new_local(Owner::current().expect("the app is built under an owner")),
            sandbox: RwSignal::new(None),
            loading: RwSignal::new(false),
            lessons: RwSignal::new(None),
            drills: RwSignal::new(None),
        };
        provide_context(kept);
        kept
    }

    /// Runs `f` under the app's owner: what it makes lives as long as the app.
    pub fn under_app<T>(&self, f: impl FnOnce() -> T) -> T {
        self.owner.with_value(|o| o.with(f))
    }

    /// Puts `pg` in the sandbox (replacing its story, or as its first), with `selected` in the
    /// inspector.
    pub fn set_sandbox(&self, pg: Playground, selected: Option<Selection>) {
        match self.sandbox.get_untracked() {
            Some(ctx) => {
                ctx.pause();
                ctx.error.set(None);
                ctx.speed.set(pg.speed_index());
                ctx.pg.set(pg);
                ctx.selected.set(selected);
            }
            None => {
                let ctx = self.under_app(|| Ctx::new(pg, selected));
                self.sandbox.set(Some(ctx));
            }
        }
    }

    /// Loads the sandbox's first story unless it has one: the share link in the address, else
    /// the scenario the route names, else the default one. A bad link says why (`load-error`)
    /// and opens the default scenario.
    pub fn load_sandbox(&self, scenario: Option<String>) {
        if self.sandbox.with_untracked(Option::is_some) || self.loading.get_untracked() {
            return;
        }
        self.loading.set(true);
        let (kept, error) = (*self, share::load_error());
        leptos::task::spawn_local(async move {
            let default = BUILTIN[0].0;
            let opened = match share::payload_in_address() {
                Some(payload) => match share::decode(&payload).await {
                    Ok(opened) => Ok((opened.pg, opened.selected, opened.speed)),
                    Err(e) => {
                        error.set(Some(e.to_string()));
                        crate::fetch::scenario(default).await.map(|pg| (pg, None, None))
                    }
                },
                None => {
                    let id = scenario.unwrap_or_else(|| default.to_string());
                    match crate::fetch::scenario(&id).await {
                        Ok(pg) => Ok((pg, None, None)),
                        Err(e) => {
                            error.set(Some(format!("The address asks for {e}; here is the default scenario.")));
                            crate::fetch::scenario(default).await.map(|pg| (pg, None, None))
                        }
                    }
                }
            };
            kept.loading.set(false);
            match opened {
                Ok((pg, selected, speed)) => {
                    kept.set_sandbox(pg, selected);
                    if let (Some(i), Some(ctx)) = (speed, kept.sandbox.get_untracked()) {
                        ctx.speed.set(i);
                    }
                }
                Err(e) => error.set(Some(format!("The default scenario could not be loaded: {e}"))),
            }
        });
    }
}

/// The views other than the sandbox, as the binary that mounts the app provides them: the `app`
/// binary puts each one's code in a module of its own (`#[lazy]`, see `app/src/main.rs`).
#[derive(Clone, Copy)]
pub struct Views {
    /// The view's component, once its code is in; `Err` when its code cannot be fetched.
    pub open: fn(View) -> ViewFuture<Result<AnyView, NotLoaded>>,
    /// Fetches every view's code; `Err` when one cannot be fetched (a later call fetches what
    /// is still missing).
    pub preload: fn() -> ViewFuture<Result<(), NotLoaded>>,
    /// The Embed dialog for what it embeds, calling `closed` once it has closed; `Err` when its
    /// code cannot be fetched.
    pub embed_dialog: fn(super::EmbedOf, Callback<()>) -> ViewFuture<Result<AnyView, NotLoaded>>,
}

/// A view's code could not be fetched (the network, or a deploy that replaced the files).
#[derive(Clone, Copy, Debug)]
pub struct NotLoaded;

pub type ViewFuture<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T>>>;

/// The components of the views other than the sandbox, one function each, so that each can be
/// put in a module of its own.
pub mod components {
    use super::lesson;
    use leptos::prelude::*;

    pub fn lessons() -> AnyView {
        view! { <lesson::LessonView /> }.into_any()
    }
    pub fn compare() -> AnyView {
        view! { <super::super::compare::CompareView /> }.into_any()
    }
    pub fn interview() -> AnyView {
        view! { <super::super::interview::InterviewView /> }.into_any()
    }
    pub fn export() -> AnyView {
        view! { <super::super::export::ExportView /> }.into_any()
    }
    pub fn drills() -> AnyView {
        view! { <super::super::drill::DrillView /> }.into_any()
    }
    pub fn embed_dialog(of: super::super::EmbedOf, closed: Callback<()>) -> AnyView {
        view! { <super::super::embed_dialog::EmbedDialog of closed /> }.into_any()
    }
}

/// Fetches the code of every view but the sandbox, once: when a stage's first screen is painted
/// and the browser is idle (`Stage` calls [`PreloadViews::start`]), or 3 s after the app starts
/// on a view without a stage. Earlier, it would compete with the first screen: the sandbox's
/// first paint is its loading shell, before its scenario file is in.
#[derive(Clone, Copy)]
pub(crate) struct PreloadViews {
    views: Views,
    started: StoredValue<bool>,
}

/// Seconds between the background preload's attempts: it backs off, and gives up after the last
/// (a view opened later still asks for its code, and offers to try again).
const PRELOAD_RETRY_S: [u32; 7] = [2, 4, 8, 16, 30, 60, 120];

impl PreloadViews {
    /// The views' code, as the binary provides it.
    pub(crate) fn views(self) -> Views {
        self.views
    }

    pub(crate) fn start(self) {
        if self.started.try_get_value() != Some(false) {
            return;
        }
        self.started.set_value(true);
        leptos::task::spawn_local(async move {
            let mut waits = PRELOAD_RETRY_S.iter();
            let state = loop {
                if (self.views.preload)().await.is_ok() {
                    break "loaded";
                }
                // A deploy replaced the files: retrying cannot help, the view says to reload.
                match waits.next() {
                    Some(&s) if !stale_page().await => sleep_ms(s * 1000).await,
                    _ => break "failed",
                }
            };
            if let Some(html) = document().document_element() {
                _ = html.set_attribute("data-views", state);
            }
        });
    }
}

/// Whether the site now serves another build than this page's: its current page no longer names
/// this page's script (the files are named by their content, scripts/build.sh).
async fn stale_page() -> bool {
    let Ok(Some(link)) = document().query_selector("link[rel=modulepreload]") else {
        return false;
    };
    let Some(script) = link.get_attribute("href") else {
        return false;
    };
    let path = window().location().pathname().unwrap_or_default();
    match crate::fetch::fresh_text(&path).await {
        Some(page) => !page.contains(&script),
        None => false,
    }
}

async fn sleep_ms(ms: u32) {
    let promise = js_sys::Promise::new(&mut |done, _| {
        _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&done, ms as i32);
    });
    _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The app: the route's view under the shared header.
///
/// The sandbox is drawn at once. Another view is drawn when `views` has its code in; the code of
/// every view is fetched after the first screen ([`PreloadViews`]), so that moving to a view
/// fetches nothing; an address that opens another view asks for its code at once. When every
/// view's code is in, `<html>` has `data-views="loaded"`.
#[component]
pub fn App(views: Views) -> impl IntoView {
    let nav = provide_nav();
    share::provide_load_error(None);
    Kept::provide();
    let preload = PreloadViews { views, started: StoredValue::new(false) };
    provide_context(preload);
    set_timeout(move || preload.start(), std::time::Duration::from_secs(3));
    let view = Memo::new(move |_| nav.route.with(Route::view));
    move || match view.get() {
        View::Sandbox => view! { <SandboxView /> }.into_any(),
        other => view! { <LazyView views other /> }.into_any(),
    }
}

/// A view whose code may still be on its way: drawn once it is in (at once, if it is). If its
/// code cannot be fetched, the view says so and offers to try again (or, when the site has a
/// newer build than the page, to reload); the rest of the app goes on.
#[component]
fn LazyView(views: Views, other: View) -> impl IntoView {
    let (loading, name) = match other {
        View::Lessons => ("Loading the lessons…", "The lessons"),
        View::Compare => ("Loading compare mode…", "Compare mode"),
        View::Interview => ("Loading the interview…", "The interview"),
        View::Export => ("Loading the export…", "The export"),
        _ => ("Loading the drills…", "The drills"),
    };
    let attempt = RwSignal::new(0u32);
    let open = move || {
        attempt.track();
        Suspend::new(send_wrapper::SendWrapper::new(async move {
            match (views.open)(other).await {
                Ok(view) => view,
                Err(NotLoaded) => not_loaded(name, stale_page().await, attempt).into_any(),
            }
        }))
    };
    view! {
        <Suspense fallback=move || view! { <p class="boot" role="status">{loading}</p> }>
            {open}
        </Suspense>
    }
}

/// What a view whose code could not be fetched shows in its place.
fn not_loaded(name: &'static str, stale: bool, attempt: RwSignal<u32>) -> impl IntoView {
    let (text, button) = if stale {
        (
            format!("{name} could not be loaded: a newer version of the playground has been published since this page was opened. Reload the page to use it."),
            view! { <button data-testid="view-reload" on:click=|_| { let _ = window().location().reload(); }>"Reload the page"</button> }.into_any(),
        )
    } else {
        (
            format!("{name} could not be loaded: the network did not deliver its code. The sandbox and the views already open still work."),
            view! { <button data-testid="view-retry" on:click=move |_| attempt.update(|n| *n += 1)>"Try again"</button> }.into_any(),
        )
    };
    // The header stays: its links lead to the sandbox and to the views already in.
    view! {
        <super::nav::AppHeader />
        <div class="not-loaded" role="alert" data-testid="view-not-loaded">
            <p>{text}</p>
            {button}
        </div>
    }
}

/// The sandbox: the kept story on the stage, loaded first if need be.
#[component]
fn SandboxView() -> impl IntoView {
    let (kept, nav) = (use_kept(), use_nav());
    let scenario = nav.route.with_untracked(|r| match r {
        Route::Sandbox { scenario } => scenario.clone(),
        _ => None,
    });
    kept.load_sandbox(scenario);
    let error = share::load_error();
    move || match kept.sandbox.get() {
        Some(ctx) => view! { <Stage ctx=ctx /> }.into_any(),
        None if !kept.loading.get() && error.with(Option::is_some) => {
            view! { <ErrorPanel message=error.get().unwrap_or_default() /> }.into_any()
        }
        None => view! { <div class="boot" role="status">"Loading the playground…"</div> }.into_any(),
    }
}
