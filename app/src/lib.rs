//! Fan-out Playground's browser app: a thin Leptos view over the engine's snapshots.
//! All message state lives in the engine; the view only reads snapshots and dispatches commands.

mod fetch;
pub mod format;
pub mod playground;
pub mod share;
pub mod story_file;
mod view;

pub use playground::Playground;
pub use view::{App, CompareApp, EmbedApp, ExportApp, LessonApp, Stage};

/// Mounts the sandbox (`index.html`, the `app` binary) on the page's body.
pub fn mount() {
    mount_page(App);
}

/// Mounts compare mode and the interview walkthrough (`compare.html`, the `compare` binary):
/// a page of its own, so the sandbox's bundle carries none of their code, nor they the
/// sandbox's editor and panels.
pub fn mount_compare() {
    mount_page(CompareApp);
}

/// Mounts embed mode (`embed.html`, the `embed` binary): the compact view for an iframe in a
/// documentation page, without the sandbox's panels, so it loads sooner.
pub fn mount_embed() {
    mount_page(EmbedApp);
}

/// Mounts the lesson page (`lesson.html`, the `lesson` binary): the lesson overview and the
/// lessons, with the engine's lesson player, which the other pages do not carry.
pub fn mount_lessons() {
    mount_page(LessonApp);
}

/// Mounts the routes page (`routes.html`, the `routes` binary, built with the `routes`
/// feature): the sandbox's stage with EventBridge, HTTP/S endpoints, Lambda destinations and
/// the outbox, and their scenarios in the picker.
pub fn mount_routes() {
    mount_page(App);
}

/// Mounts the export page (`export.html`, the `export` binary): the one page that carries the
/// engine's CloudFormation, boto3 and AWS CLI writers.
pub fn mount_export() {
    mount_page(ExportApp);
}

/// Mounts a page's root on the body, with a panic hook that shows a recoverable error panel.
fn mount_page<V: leptos::IntoView + 'static>(root: fn() -> V) {
    console_error_panic_hook::set_once();
    view::install_panic_panel();
    if let Some(boot) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("boot")) {
        boot.remove();
    }
    leptos::mount::mount_to_body(root);
}
