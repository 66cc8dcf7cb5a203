//! Fan-out Playground's browser app: a thin Leptos view over the engine's snapshots.
//! All message state lives in the engine; the view only reads snapshots and dispatches commands.

mod fetch;
pub mod format;
pub mod playground;
mod view;

pub use playground::Playground;
pub use view::App;

/// Mounts the app on the page's body, with a panic hook that shows a recoverable error panel.
pub fn mount() {
    console_error_panic_hook::set_once();
    view::install_panic_panel();
    if let Some(boot) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("boot")) {
        boot.remove();
    }
    leptos::mount::mount_to_body(App);
}
