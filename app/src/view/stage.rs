//! The stage: a story's diagram, controls and detailed views, as the sandbox, a lesson and the
//! export show it. What lies under and beside the first screen is built after the first paint.

use super::nav::AppHeader;
use super::{clock, controls, inspector, log, metrics, queues, share, topology, transport, Ctx};
use leptos::prelude::*;

/// The stage's main column: Publish, the diagram, the queue cards, side effects, metrics and
/// the filter policies (the sandbox's and the lesson page's).
/// In a lesson (`lesson`), the lesson's text is the only instruction: the scenario's own
/// description (written for the sandbox) is left out of Publish.
#[component]
pub(crate) fn MainCol(#[prop(optional)] lesson: bool) -> impl IntoView {
    let col = NodeRef::<leptos::html::Div>::new();
    let lower = after_paint(
        move || col.try_get_untracked().flatten().map(Into::into),
        move || {
            view! { <Cards /> <controls::Subscriptions /> {(!lesson).then(|| view! { <super::call::AwsCall /> })} }
        },
    );
    view! {
        <div class="main-col" node_ref=col>
            <controls::Publish describe=!lesson />
            <section class="diagram" aria-label="Topology">
                <topology::Topology />
            </section>
            {lower}
        </div>
    }
}

/// What a loading page's `slot` holds once it is set, taken out of it rather than cloned: a
/// loaded story (its simulation and checkpoints) moves into the stage that shows it. Tracks
/// `slot`, so the view that calls it is built again when it is set.
pub(crate) fn take_loaded<T: Send + Sync + 'static>(slot: RwSignal<Option<T>>) -> Option<T> {
    slot.track();
    slot.try_update_untracked(Option::take).flatten()
}

/// Builds `view` at the end of `parent` once the first screen is painted and the browser has had
/// nothing more urgent to do since (an idle callback, within a second; where there is none, a
/// task after the paint), and returns `None` to put in its place. What lies under or beside the
/// first screen (the queue cards, the policies, the inspector and the log) is built this way:
/// it then holds back neither the diagram and Publish nor a first click on them. It lives as
/// long as the page: under the caller's owner (so with its context), never unmounted. `parent`
/// must not panic once the caller is gone (read node refs with `try_get_untracked`).
pub(crate) fn after_paint<V: IntoView + 'static>(
    parent: impl FnOnce() -> Option<web_sys::HtmlElement> + 'static,
    view: impl FnOnce() -> V + 'static,
) -> Option<V> {
    let owner = Owner::current()?;
    // The learner may have left the view before the browser was idle: then its parent is
    // disposed or out of the page, and nothing is built.
    when_idle(move || {
        if let Some(parent) = parent().filter(|p| p.is_connected()) {
            std::mem::forget(owner.with(|| leptos::mount::mount_to(parent, view)));
        }
    });
    None
}

/// Runs `f` once the frame being prepared is painted and the browser has had nothing more urgent
/// to do since (an idle callback, within a second; where there is none, a task after the paint).
pub(crate) fn when_idle(f: impl FnOnce() + 'static) {
    use wasm_bindgen::{closure::Closure, JsCast};
    request_animation_frame(move || {
        let w = window();
        let idle = js_sys::Reflect::get(&w, &"requestIdleCallback".into()).ok();
        match idle.and_then(|f| f.dyn_into::<js_sys::Function>().ok()) {
            Some(idle) => {
                let options = js_sys::Object::new();
                _ = js_sys::Reflect::set(&options, &"timeout".into(), &1000.into());
                _ = idle.call2(&w, &Closure::once_into_js(f), &options);
            }
            None => set_timeout(f, std::time::Duration::ZERO),
        }
    });
}

/// The queue cards, the side effects and the metrics: the detailed view under the diagram.
#[component]
fn Cards() -> impl IntoView {
    view! { <queues::Queues /> <queues::Effects /> <metrics::Metrics /> }
}

/// A story on the stage: the header (picker, clock, share bar), the time controls, the main
/// column and, beside it, the inspector and the event log. The story is `ctx`'s, made by the
/// app (`Kept`) so that it outlives the stage: leaving the view pauses it.
/// What every view that plays a story on its own stage sets up: `ctx` as the context, the
/// clock that plays it, the keyboard's time controls, the announcer of notable events; leaving
/// the view pauses the story.
pub(crate) fn use_story(ctx: Ctx) {
    provide_context(ctx);
    clock::use_clock(ctx);
    transport::use_keyboard(ctx);
    log::use_announcer(ctx);
    on_cleanup(move || ctx.pause());
}

#[component]
pub fn Stage(ctx: Ctx) -> impl IntoView {
    use_story(ctx);
    share::use_drop(ctx);
    let side = NodeRef::<leptos::html::Aside>::new();
    // The inspector's fidelity notes are fetched with it, after the first paint: only it shows them.
    // Once this first screen is up, the app fetches its other views' code (not in the embed).
    let preload = use_context::<super::app::PreloadViews>();
    let beside = after_paint(
        move || side.try_get_untracked().flatten(),
        move || {
            inspector::load_fidelity();
            if let Some(preload) = preload {
                preload.start();
            }
            view! { <inspector::Inspector /> <log::EventLog /> }
        },
    );

    view! {
        <div class="shell">
            <AppHeader>
                <transport::ScenarioPicker />
                <share::ShareBar />
            </AppHeader>
            <share::LoadErrorBanner />
            <super::welcome::Welcome />
            <transport::Transport clock=true />
            <main class="stage">
                <MainCol />
                <aside class="side-col" node_ref=side>{beside}</aside>
            </main>
            <p class="sr-only" role="status" aria-live="polite">{move || ctx.announce.get()}</p>
        </div>
    }
}
