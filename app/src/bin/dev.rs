//! The playground for `make dev` (scripts/dev.sh): every view in one wasm, unsplit, so that Trunk
//! can build and rebuild it on its own, in a debug build that keeps panic messages. The release
//! bundle is `app/src/main.rs`, the same views split into modules by scripts/build.sh.

use app::route::View;
use app::{components, EmbedOf, NotLoaded, ViewFuture, Views};
use leptos::prelude::*;

fn main() {
    app::mount(Views { open, preload, embed_dialog });
}

fn open(view: View) -> ViewFuture<Result<AnyView, NotLoaded>> {
    Box::pin(async move {
        Ok(match view {
            View::Sandbox => ().into_any(),
            View::Lessons => components::lessons(),
            View::Compare => components::compare(),
            View::Interview => components::interview(),
            View::Export => components::export(),
            View::Drills => components::drills(),
        })
    })
}

fn embed_dialog(of: EmbedOf, closed: Callback<()>) -> ViewFuture<Result<AnyView, NotLoaded>> {
    Box::pin(async move { Ok(components::embed_dialog(of, closed)) })
}

/// Every view's code is in the one wasm already.
fn preload() -> ViewFuture<Result<(), NotLoaded>> {
    Box::pin(async { Ok(()) })
}
