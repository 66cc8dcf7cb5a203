//! Fan-out Playground's browser app: a thin Leptos view over the engine's snapshots.
//! All message state lives in the engine; the view only reads snapshots and dispatches commands.

pub mod embed_snippet;
mod fetch;
pub mod format;
pub mod interview_attempts;
pub mod interview_state;
mod nearest;
pub mod playground;
pub mod route;
mod saved;
pub mod share;
pub mod story_file;
mod view;

pub use playground::Playground;
pub use view::{components, provide_nav, App, Ctx, EmbedApp, EmbedOf, NotLoaded, Stage, ViewFuture, Views};

/// Mounts the playground (`index.html` and its copies `lesson.html`, `compare.html`,
/// `export.html`, `routes.html`; the `app` binary): every view in one app.
pub fn mount(views: Views) {
    mount_page(move || leptos::view! { <App views /> });
}

/// Mounts embed mode (`embed.html`, the `embed` binary): the compact view for an iframe in a
/// documentation page, with the whole engine and none of the other views.
pub fn mount_embed() {
    mount_page(EmbedApp);
}

/// Mounts a page's root on the body. A panic's message goes to the console, then the wasm traps
/// (panic = "abort"), and the pages' script (`app/trap-panel.js`) shows the error panel, so the
/// learner is never left with a frozen screen.
fn mount_page<V: leptos::IntoView + 'static>(root: impl FnOnce() -> V + 'static) {
    console_error_panic_hook::set_once();
    if let Some(boot) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("boot")) {
        boot.remove();
    }
    leptos::mount::mount_to_body(root);
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod embed_hint_tests;
