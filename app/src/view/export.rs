//! "Take it to AWS": the export view (`export.html`) and its Export panel. The sandbox's story
//! (the learner's edits included) as a CloudFormation template, a boto3 script or AWS CLI
//! calls, written by the engine's `export` module exactly as `fanout export` writes them, with
//! copy and download.

use super::app::use_kept;
use super::nav::{use_nav, AppHeader, Link};
use super::{files, share, use_ctx, Ctx};
use crate::playground::Playground;
use crate::route::{Route, View};
use leptos::prelude::*;

/// The formats: (value, label, file name, media type).
const FORMATS: &[(&str, &str, &str, &str)] = &[
    ("cloudformation", "CloudFormation (YAML)", "fanout-stack.yaml", "application/yaml"),
    ("boto3", "Python (boto3)", "fanout-make.py", "text/x-python"),
    ("awscli", "AWS CLI (bash)", "fanout-make.sh", "text/x-shellscript"),
];

/// The export of the story as it is now: the current simulation, and for the scripts the
/// commands applied up to now (the scenario's and the learner's), as the CLI takes them.
fn export_text(pg: &Playground, format: &str) -> String {
    let history = pg.history();
    let commands = &history.commands()[..history.applied()];
    match format {
        "boto3" => engine::export::boto3(history.sim(), commands),
        "awscli" => engine::export::awscli(history.sim(), commands),
        _ => engine::export::cloudformation(history.sim()),
    }
}

/// The export view: the sandbox's story (loaded first when the address is opened cold: its
/// share fragment, or the default scenario) with the Export panel open. The address names the
/// story as a share fragment, so that a reload or a copied address exports the same story.
#[component]
pub fn ExportView() -> impl IntoView {
    let (kept, nav) = (use_kept(), use_nav());
    kept.load_sandbox(None);
    move || match kept.sandbox.get() {
        Some(ctx) => {
            leptos::task::spawn_local(async move {
                if let Ok(link) = share::link_now(ctx, "").await {
                    nav.replace_within(View::Export, Route::Export, &link);
                }
            });
            view! { <ExportStage ctx=ctx /> }.into_any()
        }
        None => view! {
            <share::LoadErrorBanner />
            <div class="boot" role="status">"Reading the story…"</div>
        }
        .into_any(),
    }
}

#[component]
fn ExportStage(ctx: Ctx) -> impl IntoView {
    provide_context(ctx);
    view! {
        <div class="shell export-page">
            <AppHeader>
                <span class="scenario-name" dir="auto">{move || ctx.pg.with(|p| p.name.clone())}</span>
                <Link to=Route::Sandbox { scenario: None } testid="export-back" class="button">"Back to the playground"</Link>
            </AppHeader>
            <share::LoadErrorBanner />
            <main class="export-main">
                <ExportPanel open_at_start=true />
            </main>
        </div>
    }
}

/// The panel: a format, the text, copy and download. Closed at first unless `open_at_start`;
/// the text is written only while it is open.
#[component]
pub fn ExportPanel(#[prop(optional)] open_at_start: bool) -> impl IntoView {
    let ctx = use_ctx();
    let open = RwSignal::new(open_at_start);
    let format = RwSignal::new(0usize);
    let status = RwSignal::new(String::new());
    // Only the commands change what is exported (time passing does not change a resource), so
    // the text is written again when a command is applied or undone, not on every frame.
    let key =
        Memo::new(move |_| ctx.pg.with(|p| (p.history().applied(), p.history().commands().len(), p.name.clone())));
    let text = Memo::new(move |_| {
        if !open.get() {
            return String::new();
        }
        let _ = key.get();
        let f = FORMATS[format.get()].0;
        ctx.pg.with_untracked(|p| export_text(p, f))
    });
    let copy = move |_| {
        let t = text.get_untracked();
        leptos::task::spawn_local(async move {
            status.set(match files::copy(&t).await {
                Ok(()) => "Copied.".into(),
                Err(e) => e,
            });
        });
    };
    let download = move |_| {
        let (_, _, name, mime) = FORMATS[format.get_untracked()];
        status.set(match files::download(name, mime, &text.get_untracked()) {
            Ok(()) => format!("Downloaded {name}."),
            Err(e) => e,
        });
    };
    view! {
        <details class="export" data-testid="export-panel" prop:open=open_at_start on:toggle=move |ev| {
            let el: web_sys::HtmlDetailsElement = wasm_bindgen::JsCast::unchecked_into(event_target::<web_sys::Element>(&ev));
            // A toggle event queued as the view goes away finds its signal gone: nothing to do.
            open.try_set(el.open());
        }>
            <summary><h2>"Take it to AWS"</h2><span class="hint">"CloudFormation, boto3 or AWS CLI"</span></summary>
            <p class="lede">"The topology as it is now, your edits included; the scripts also send this story's messages again and print each queue's count. Workers, faults and other simulator-only parts are left out, with a comment saying so."</p>
            <div class="row">
                <label class="field">
                    <span>"Format"</span>
                    <select data-testid="export-format" on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() { format.set(i.min(FORMATS.len() - 1)); status.set(String::new()); }
                    } prop:value=move || format.get().to_string()>
                        {FORMATS.iter().enumerate().map(|(i, f)| view! { <option value=i.to_string()>{f.1}</option> }).collect_view()}
                    </select>
                </label>
                <button data-testid="export-copy" on:click=copy>"Copy"</button>
                <button data-testid="export-download" on:click=download>"Download"</button>
                <span class="export-status" role="status">{move || status.get()}</span>
            </div>
            <pre class="export-text" data-testid="export-text" tabindex="0" aria-label="Exported text">{move || text.get()}</pre>
        </details>
    }
}
