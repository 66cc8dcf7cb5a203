//! The playground (`index.html` and its copies): every view, one app. The code of each view but
//! the sandbox is a module of its own, split from the first download by scripts/build.sh at
//! these `wasm_split` functions (the embed, a binary without them, stays whole).
//!
//! Each is what Leptos's `#[lazy]` writes, plus `fallible`: a module that cannot be fetched is an
//! `Err` the view shows ("could not be loaded — Try again"), not a panic that stops the app
//! (Leptos 0.8.23's `#[lazy]` has no `fallible`; wasm_split_helpers 0.2.3 has).

use app::route::View;
use app::{components, EmbedOf, NotLoaded, ViewFuture, Views};
use leptos::prelude::*;
use leptos::wasm_split::{wasm_split, SplitLoaderError};

fn main() {
    app::mount(Views { open, preload, embed_dialog: open_embed_dialog });
}

fn open(view: View) -> ViewFuture<Result<AnyView, NotLoaded>> {
    Box::pin(async move {
        let view = match view {
            // The app draws the sandbox itself.
            View::Sandbox => return Ok(().into_any()),
            View::Lessons => lessons().await,
            View::Compare => compare().await,
            View::Interview => interview().await,
            View::Export => export().await,
            View::Drills => drills().await,
        };
        view.map_err(|_| NotLoaded)
    })
}

/// Fetches the views' code, the most used first; stops at the first that cannot be fetched (a
/// later call fetches only what is still missing).
fn preload() -> ViewFuture<Result<(), NotLoaded>> {
    Box::pin(async {
        async {
            __preload_lessons().await?;
            __preload_compare().await?;
            __preload_interview().await?;
            __preload_drills().await?;
            __preload_export().await?;
            __preload_embed_dialog().await
        }
        .await
        .map_err(|_: SplitLoaderError| NotLoaded)
    })
}

/// The Embed dialog (issue 51), a module of its own like a view's.
fn open_embed_dialog(of: EmbedOf, closed: Callback<()>) -> ViewFuture<Result<AnyView, NotLoaded>> {
    Box::pin(async move { embed_dialog(of, closed).await.map_err(|_| NotLoaded) })
}

#[wasm_split(embed_dialog, wasm_split_path = ::leptos::wasm_split, preload(__preload_embed_dialog), fallible)]
fn embed_dialog(of: EmbedOf, closed: Callback<()>) -> Result<AnyView, SplitLoaderError> {
    Ok(components::embed_dialog(of, closed))
}

#[wasm_split(lessons, wasm_split_path = ::leptos::wasm_split, preload(__preload_lessons), fallible)]
fn lessons() -> Result<AnyView, SplitLoaderError> {
    Ok(components::lessons())
}

#[wasm_split(compare, wasm_split_path = ::leptos::wasm_split, preload(__preload_compare), fallible)]
fn compare() -> Result<AnyView, SplitLoaderError> {
    Ok(components::compare())
}

#[wasm_split(interview, wasm_split_path = ::leptos::wasm_split, preload(__preload_interview), fallible)]
fn interview() -> Result<AnyView, SplitLoaderError> {
    Ok(components::interview())
}

#[wasm_split(export, wasm_split_path = ::leptos::wasm_split, preload(__preload_export), fallible)]
fn export() -> Result<AnyView, SplitLoaderError> {
    Ok(components::export())
}

#[wasm_split(drills, wasm_split_path = ::leptos::wasm_split, preload(__preload_drills), fallible)]
fn drills() -> Result<AnyView, SplitLoaderError> {
    Ok(components::drills())
}
