//! The playground (`index.html` and its copies): every view, one app. The code of each view but
//! the sandbox is a module of its own, split from the first download by scripts/build.sh at
//! these `#[lazy]` functions (the embed, a binary without them, stays whole).

use app::route::View;
use app::{components, ViewFuture, Views};
use leptos::prelude::*;

fn main() {
    app::mount(Views { open, preload });
}

fn open(view: View) -> ViewFuture<AnyView> {
    Box::pin(async move {
        match view {
            // The app draws the sandbox itself.
            View::Sandbox => ().into_any(),
            View::Lessons => lessons().await,
            View::Compare => compare().await,
            View::Interview => interview().await,
            View::Export => export().await,
            View::Drills => drills().await,
        }
    })
}

/// Fetches the views' code, the most used first.
fn preload() -> ViewFuture<()> {
    Box::pin(async {
        __preload_lessons().await;
        __preload_compare().await;
        __preload_interview().await;
        __preload_drills().await;
        __preload_export().await;
    })
}

#[lazy]
fn lessons() -> AnyView {
    components::lessons()
}

#[lazy]
fn compare() -> AnyView {
    components::compare()
}

#[lazy]
fn interview() -> AnyView {
    components::interview()
}

#[lazy]
fn export() -> AnyView {
    components::export()
}

#[lazy]
fn drills() -> AnyView {
    components::drills()
}
