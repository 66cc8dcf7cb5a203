//! Share links, import and export on the page: "Copy link" in the header (the story's inputs,
//! deflated by the browser's `CompressionStream` around `crate::share`), opening such a link,
//! "Export" of the story as a scenario file and "Import" of one (a file input, or a file
//! dropped on the page). A bad link or file shows one message in `load-error`.

use super::{files, use_ctx, Ctx, Selection};
use crate::playground::Playground;
use crate::share::{self, BadLink, Pick, Share};
use crate::story_file;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = CompressionStream)]
    type Compression;
    #[wasm_bindgen(constructor, js_class = "CompressionStream", catch)]
    fn new(format: &str) -> Result<Compression, JsValue>;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = DecompressionStream)]
    type Decompression;
    #[wasm_bindgen(constructor, js_class = "DecompressionStream", catch)]
    fn new(format: &str) -> Result<Decompression, JsValue>;
}

/// The message for a bad link or file, shown above the stage (`load-error`).
#[derive(Clone, Copy)]
pub struct LoadError(pub RwSignal<Option<String>>);

/// Provides the load-error message to the page, empty.
pub fn provide_load_error(message: Option<String>) {
    provide_context(LoadError(RwSignal::new(message)));
}

pub fn load_error() -> RwSignal<Option<String>> {
    use_context::<LoadError>().map_or_else(|| RwSignal::new(None), |l| l.0)
}

/// `bytes` through a compression or decompression stream; `None` when the stream fails (a
/// damaged deflate stream), `Some(Err)` past `cap` bytes.
async fn pipe(bytes: &[u8], transform: &JsValue, cap: usize) -> Option<Result<Vec<u8>, ()>> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).ok()?;
    let out = blob.stream().pipe_through(transform.unchecked_ref());
    let reader: web_sys::ReadableStreamDefaultReader = out.get_reader().unchecked_into();
    let mut buf = Vec::new();
    loop {
        let r = wasm_bindgen_futures::JsFuture::from(reader.read()).await.ok()?;
        if js_sys::Reflect::get(&r, &"done".into()).ok()?.as_bool() == Some(true) {
            return Some(Ok(buf));
        }
        let chunk: js_sys::Uint8Array = js_sys::Reflect::get(&r, &"value".into()).ok()?.unchecked_into();
        let start = buf.len();
        if start + chunk.length() as usize > cap {
            return Some(Err(()));
        }
        buf.resize(start + chunk.length() as usize, 0);
        chunk.copy_to(&mut buf[start..]);
    }
}

/// The link's payload for a story: base64url of the deflated frame.
pub async fn encode(share: &Share) -> Result<String, String> {
    let fail = || "This browser cannot compress the link (CompressionStream).".to_string();
    let deflate: JsValue = Compression::new("deflate").map_err(|_| fail())?.into();
    match pipe(&share::frame(&share.to_json()), &deflate, usize::MAX).await {
        Some(Ok(bytes)) => Ok(share::to_base64url(&bytes)),
        _ => Err(fail()),
    }
}

/// What a link opens: the replayed story, what the inspector showed, the speed it played at.
pub struct Opened {
    pub pg: Playground,
    pub selected: Option<Selection>,
    pub speed: Option<usize>,
}

/// Opens a link's payload: inflated (capped), checked, parsed and replayed.
pub async fn decode(payload: &str) -> Result<Opened, BadLink> {
    let compressed = share::payload(payload)?;
    let inflate: JsValue = Decompression::new("deflate").map_err(|_| BadLink::Damaged)?.into();
    let bytes = match pipe(&compressed, &inflate, share::MAX_DECODED_BYTES).await {
        Some(Ok(b)) => b,
        Some(Err(())) => {
            return Err(BadLink::TooLarge(format!("more than {} bytes once inflated", share::MAX_DECODED_BYTES)))
        }
        None => return Err(BadLink::Damaged),
    };
    let s = Share::parse(share::unframe(&bytes)?)?;
    let start = match &s.start {
        share::Start::Builtin(id) => crate::fetch::scenario(id).await,
        share::Start::File(v) => Playground::from_scenario(&v.to_string()),
    }
    .map_err(BadLink::Scenario)?;
    Ok(Opened { pg: s.replay_from(start)?, selected: s.pick.clone().map(selection_of), speed: s.speed })
}

/// The share payload in the page's address, if any.
pub fn payload_in_address() -> Option<String> {
    let hash = window().location().hash().ok()?;
    share::in_hash(&hash).map(str::to_string)
}

/// What a link carries of the selection.
pub fn pick_of(s: &Selection) -> Option<Pick> {
    Some(match s {
        Selection::Queue(q) => Pick::Queue(q.clone()),
        Selection::Message { queue, copy } => Pick::Message { queue: queue.clone(), copy: *copy },
        Selection::Subscription(a) => Pick::Subscription(a.clone()),
        Selection::Worker(w) => Pick::Worker(w.clone()),
        Selection::Event(e) => Pick::Event(*e),
        Selection::Rule(r) => Pick::Rule(r.clone()),
        Selection::Service(s) => Pick::Service(s.clone()),
    })
}

pub fn selection_of(p: Pick) -> Selection {
    match p {
        Pick::Queue(q) => Selection::Queue(q),
        Pick::Message { queue, copy } => Selection::Message { queue, copy },
        Pick::Subscription(a) => Selection::Subscription(a),
        Pick::Worker(w) => Selection::Worker(w),
        Pick::Event(e) => Selection::Event(e),
        Pick::Rule(r) => Selection::Rule(r),
        Pick::Service(s) => Selection::Service(s),
    }
}

/// A link to the story as it is now: this page's address with the share fragment.
pub async fn link_now(ctx: Ctx, base: &str) -> Result<String, String> {
    let mut share = ctx.pg.with_untracked(|pg| Share::of(pg, ctx.selected.get_untracked().as_ref().and_then(pick_of)));
    share.speed = Some(ctx.speed.get_untracked());
    Ok(format!("{base}#{}{}", share::PREFIX, encode(&share).await?))
}

/// This page's address without its query and fragment.
pub fn page_base() -> String {
    let l = window().location();
    format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())
}

/// The address of another page beside this one (`""` for the sandbox, `index.html`): this
/// page's address without its query, fragment and file name, then `file`.
pub fn sibling(file: &str) -> String {
    let base = page_base();
    let dir = base.rfind('/').map_or(base.as_str(), |i| &base[..=i]);
    format!("{dir}{file}")
}

/// Replaces the story with one loaded from a file, or shows what is wrong and changes nothing.
fn load_file(ctx: Ctx, file: web_sys::File) {
    let error = load_error();
    leptos::task::spawn_local(async move {
        match files::read(&file).await.and_then(|(name, text)| story_file::import(&name, &text)) {
            Ok(pg) => {
                ctx.pause();
                ctx.selected.set(None);
                ctx.error.set(None);
                error.set(None);
                ctx.pg.set(pg);
            }
            Err(e) => error.set(Some(e)),
        }
    });
}

/// A scenario file dropped anywhere on the page is imported (other drags are left alone).
pub fn use_drop(ctx: Ctx) {
    let files_in = |e: &web_sys::DragEvent| {
        e.data_transfer().is_some_and(|d| d.types().iter().any(|t| t.as_string().as_deref() == Some("Files")))
    };
    let over = window_event_listener(leptos::ev::dragover, move |e| {
        if files_in(&e) {
            e.prevent_default();
        }
    });
    let drop = window_event_listener(leptos::ev::drop, move |e| {
        if files_in(&e) {
            e.prevent_default();
            if let Some(f) = e.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                load_file(ctx, f);
            }
        }
    });
    on_cleanup(move || {
        over.remove();
        drop.remove();
    });
}

/// "Copy link", "Export" and "Import", for the header.
#[component]
pub fn ShareBar() -> impl IntoView {
    let ctx = use_ctx();
    let status = RwSignal::new(String::new());
    let link = RwSignal::new(String::new());
    let copy = move |_| {
        leptos::task::spawn_local(async move {
            match link_now(ctx, &page_base()).await {
                Ok(url) if url.len() > share::LINK_OFFER_CHARS => {
                    link.set(String::new());
                    status.set(format!("This story's link would be {} characters, too long to pass around: use Export to send it as a file.", url.len()));
                }
                Ok(url) => {
                    let n = url.len();
                    let copied = files::copy(&url).await.is_ok();
                    link.set(url);
                    status.set(if copied {
                        format!("Link copied ({n} characters).")
                    } else {
                        format!("Link ready ({n} characters): copy it from the box.")
                    });
                }
                Err(e) => status.set(e),
            }
        });
    };
    let export = move |_| {
        let file = ctx.pg.with_untracked(|pg| story_file::story_file(pg).map(|t| (story_file::file_name(pg), t)));
        match file.and_then(|(name, text)| files::download(&name, "application/json", &text).map(|()| name)) {
            Ok(name) => status.set(format!("Downloaded {name}: open it with Import, fanout run or fanout test.")),
            Err(e) => status.set(e),
        }
    };
    let import = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(f) = input.files().and_then(|f| f.get(0)) {
            load_file(ctx, f);
        }
        input.set_value("");
    };
    // The export view, with this story.
    let nav = super::nav::use_nav();
    let to_aws = move |_| nav.go(crate::route::Route::Export);
    view! {
        <div class="share">
            <button data-testid="share-copy" on:click=copy title="A link that replays this story exactly">"Copy link"</button>
            <super::embed_this::EmbedThis of=move |()| Some(super::EmbedOf::Story(ctx)) />
            <button data-testid="scenario-export" on:click=export title="Download this story as a scenario file">"Export"</button>
            <label class="button import" title="Load a scenario file (or drop one on the page)">
                "Import"<input type="file" class="sr-only" accept=".json,application/json" data-testid="scenario-import" on:change=import />
            </label>
            <button data-testid="export-open" on:click=to_aws title="This topology, your edits included, as CloudFormation, a boto3 script or AWS CLI calls">"To AWS"</button>
            <p class="share-status" data-testid="share-status" role="status">{move || status.get()}</p>
            <input class="share-link" data-testid="share-link" readonly aria-label="The share link"
                hidden=move || link.with(String::is_empty) prop:value=move || link.get() />
        </div>
    }
}

/// The message for a bad link or file, with a way to dismiss it.
#[component]
pub fn LoadErrorBanner() -> impl IntoView {
    let error = load_error();
    view! {
        <Show when=move || error.with(Option::is_some)>
            <div class="load-error" role="alert">
                <p data-testid="load-error" dir="auto">{move || error.get().unwrap_or_default()}</p>
                <button aria-label="Dismiss" on:click=move |_| error.set(None)>"Dismiss"</button>
            </div>
        </Show>
    }
}
