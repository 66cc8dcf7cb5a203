//! The Embed dialog (issue 51): a documentation author's snippet of their own story, or of a
//! lesson's step. A live preview of the frame as a host page shows it, the embed's options, a
//! title and a caption the author writes (text, never markup), and the snippet with Copy.
//!
//! Its code is a module of its own (`embed_dialog` in `app/src/main.rs`), fetched after the
//! first screen with the views': the first load does not carry it. A modal `<dialog>`: the focus
//! moves into it, Escape closes it, and the button that opened it has the focus again
//! (`EmbedThis`, `embed_this.rs`). The snippet's logic is plain Rust, `crate::embed_snippet`.

use super::embed_this::EmbedOf;
use super::{files, share};
use crate::embed_snippet::{self as snip, Options, Source};
use crate::playground::SPEEDS;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Wall milliseconds the preview waits after the last change of the options before it loads the
/// frame again: typing a title does not reload it at every key.
const PREVIEW_WAIT_MS: u64 = 600;

#[component]
pub fn EmbedDialog(of: EmbedOf, closed: Callback<()>) -> impl IntoView {
    let dialog = NodeRef::<html::Dialog>::new();
    let title_el = NodeRef::<html::Input>::new();
    let frame = NodeRef::<html::Iframe>::new();
    let lesson = matches!(of, EmbedOf::Lesson { .. });
    let options = RwSignal::new(Options::default());
    let source = RwSignal::new(None::<Source>);
    let failed = RwSignal::new(None::<String>);
    // The moment the author is at, and whether the story has anything before it to watch.
    let moment = match &of {
        EmbedOf::Story(ctx) => {
            ctx.pg.with_untracked(|p| (p.now() > p.built_at()).then(|| crate::format::duration(p.now().0)))
        }
        EmbedOf::Lesson { .. } => None,
    };
    if moment.is_none() {
        options.update(|o| o.from_start = false);
    }
    // The story as it is now: paused, so the snippet holds the moment the author sees.
    let placeholder = match &of {
        EmbedOf::Story(ctx) => {
            let ctx = *ctx;
            ctx.pause();
            leptos::task::spawn_local(async move {
                match share::link_now(ctx, "").await {
                    Ok(link) => {
                        let payload = link.trim_start_matches('#').trim_start_matches(crate::share::PREFIX);
                        source.set(Some(Source::Share(payload.to_string())));
                    }
                    Err(e) => failed.set(Some(e)),
                }
            });
            "A title for your readers"
        }
        EmbedOf::Lesson { id, step, title } => {
            source.set(Some(Source::Lesson { id: id.clone(), step: *step, title: title.clone() }));
            "The lesson's own title"
        }
    };
    let site = share::sibling("");
    let snippet = {
        let site = site.clone();
        Memo::new(move |_| {
            source.with(|s| s.as_ref().map(|s| options.with(|o| snip::snippet(&site, s, o)))).unwrap_or_default()
        })
    };
    let note = Memo::new(move |_| {
        source.with(|s| s.as_ref().map(|s| snippet.with(|t| snip::length_note(t, s)))).unwrap_or_default()
    });
    let address = Memo::new(move |_| {
        source.with(|s| s.as_ref().map(|s| options.with(|o| snip::address(&site, s, o)))).unwrap_or_default()
    });
    let preview_src = RwSignal::new(String::new());
    // The preview loads the address a moment after its last change.
    let changes = StoredValue::new(0u32);
    Effect::new(move |_| {
        let wanted = address.get();
        changes.update_value(|n| *n += 1);
        let mine = changes.get_value();
        let first = preview_src.with_untracked(String::is_empty);
        let load = move || {
            if changes.try_get_value() == Some(mine) {
                preview_src.set(wanted);
            }
        };
        if first {
            load();
        } else {
            set_timeout(load, std::time::Duration::from_millis(PREVIEW_WAIT_MS));
        }
    });
    // The preview's height, as embed.js sets a host's frame: the content height the frame
    // reports. Until the author types a height, the snippet's frame starts at it.
    let measured = RwSignal::new(None::<u32>);
    let height_typed = RwSignal::new(false);
    let listener = window_event_listener(leptos::ev::message, move |e: web_sys::MessageEvent| {
        let Some(win) = frame.get_untracked().and_then(|f| f.content_window()) else { return };
        let from_preview =
            e.source().is_some_and(|s| s.unchecked_ref::<js_sys::Object>() == win.unchecked_ref::<js_sys::Object>());
        let data = e.data();
        let kind = js_sys::Reflect::get(&data, &"type".into()).ok().and_then(|t| t.as_string());
        let height = js_sys::Reflect::get(&data, &"height".into()).ok().and_then(|h| h.as_f64());
        if let (true, Some("fanout:resize"), Some(h)) = (from_preview, kind.as_deref(), height) {
            let h = (h.ceil() as u32).clamp(80, 4000);
            measured.set(Some(h));
            if !height_typed.get_untracked() && !options.with_untracked(|o| o.fixed_height) {
                options.update(|o| o.height = h);
            }
        }
    });
    on_cleanup(move || listener.remove());
    let frame_height = move || {
        let h = options.with(|o| o.fixed_height.then_some(o.height)).or(measured.get()).unwrap_or(360);
        format!("height: {h}px")
    };

    let status = RwSignal::new(String::new());
    let copy = move |_| {
        let text = snippet.get_untracked();
        if text.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            status.set(match files::copy(&text).await {
                Ok(()) => "Snippet copied.".to_string(),
                Err(e) => e,
            });
        });
    };
    let close = move |_| {
        if let Some(d) = dialog.get_untracked() {
            d.close();
        }
    };
    dialog.on_load(move |d| {
        _ = d.show_modal();
        if let Some(t) = title_el.get_untracked() {
            _ = t.focus();
        }
    });
    let set = move |f: fn(&mut Options, String)| {
        move |ev: leptos::ev::Event| options.update(|o| f(o, event_target_value(&ev)))
    };
    let checked = |ev: &leptos::ev::Event| event_target::<web_sys::HtmlInputElement>(ev).checked();
    let panel_box = move |(value, label): (&'static str, &'static str)| {
        let toggle = move |ev: leptos::ev::Event| {
            let on = checked(&ev);
            options.update(|o| {
                o.panels.retain(|p| p != value);
                if on {
                    o.panels.push(value.to_string());
                }
            });
        };
        view! { <label class="check"><input type="checkbox" data-testid=format!("embed-panel-{value}") on:change=toggle />{label}</label> }
    };
    let speed_options = SPEEDS
        .iter()
        .enumerate()
        .map(|(i, (label, _))| view! { <option value=i.to_string()>{*label}</option> })
        .collect_view();
    let choices = |list: &'static [(&'static str, &'static str)], current: &'static str| {
        list.iter()
            .map(move |(v, label)| view! { <option value=*v selected=*v == current>{*label}</option> })
            .collect_view()
    };
    let heading = if lesson { "Embed this lesson step" } else { "Embed this story" };

    view! {
        <dialog class="embed-dialog" data-testid="embed-dialog" node_ref=dialog aria-labelledby="embed-dialog-heading"
            on:close=move |_| closed.run(()) on:keydown=|e| e.stop_propagation()>
            <header class="embed-dialog-head">
                <h2 id="embed-dialog-heading">{heading}</h2>
                <button class="quiet" data-testid="embed-close" on:click=close>"Close"</button>
            </header>
            <p class="hint">{if lesson { "Put this lesson step in a documentation page" } else { "Put this story in a documentation page" }}
                ": choose how it shows, give it a title, and copy the snippet."</p>
            <div class="embed-dialog-body">
                <div class="embed-fields">
                    <label>"Title"
                        <input type="text" data-testid="embed-title" maxlength="120" node_ref=title_el placeholder=placeholder
                            on:input=set(|o, v| o.title = v) />
                    </label>
                    <label>"Caption"
                        <textarea data-testid="embed-caption" rows="2" maxlength="300" placeholder="One or two sentences: what to watch for"
                            on:input=set(|o, v| o.caption = v)></textarea>
                    </label>
                    <label>"Controls"
                        <select data-testid="embed-controls" on:change=set(|o, v| o.controls = v)>{choices(if lesson { snip::LESSON_CONTROLS } else { snip::CONTROLS }, "min")}</select>
                    </label>
                    <label>"Theme"
                        <select data-testid="embed-theme" on:change=set(|o, v| o.theme = v)>{choices(snip::THEMES, "auto")}</select>
                    </label>
                    <label>"Speed"
                        <select data-testid="embed-speed" on:change=set(|o, v| o.speed = v.parse().ok())>
                            <option value="" selected>{if lesson { "The lesson's own" } else { "The story's own" }}</option>
                            {speed_options}
                        </select>
                    </label>
                    {moment.map(|at| view! {
                        <label class="check"><input type="checkbox" data-testid="embed-from-start" checked
                            on:change=move |ev| { let on = checked(&ev); options.update(|o| o.from_start = on) } />
                            {format!("Readers watch it happen from the start (else it opens at {at}, where you are now)")}</label>
                    })}
                    {(!lesson).then(|| view! {
                        <label class="check"><input type="checkbox" data-testid="embed-autoplay"
                            on:change=move |ev| { let on = checked(&ev); options.update(|o| o.autoplay = on) } />
                            "Start playing once the reader scrolls to it"</label>
                    })}
                    <label>"Starting height (px)"
                        <input type="number" min="80" max="4000" step="10" data-testid="embed-height"
                            prop:value=move || options.with(|o| o.height.to_string())
                            on:input=move |ev| {
                                if let Ok(h) = event_target_value(&ev).parse::<u32>() {
                                    height_typed.set(true);
                                    options.update(|o| o.height = h.clamp(80, 4000));
                                }
                            } />
                    </label>
                    <label class="check"><input type="checkbox" data-testid="embed-fixed-height"
                        on:change=move |ev| { let on = checked(&ev); options.update(|o| o.fixed_height = on) } />
                        "Keep this height (the frame scrolls inside)"</label>
                    <fieldset class="embed-panels">
                        <legend>"Panels under the diagram"</legend>
                        {snip::PANELS.iter().copied().map(panel_box).collect_view()}
                    </fieldset>
                </div>
                <div class="embed-preview">
                    <p class="embed-preview-label" id="embed-preview-label">"Preview, as a page shows it"</p>
                    <div class="embed-preview-frame">
                        <iframe data-testid="embed-preview" node_ref=frame title="Preview of the embed"
                            aria-describedby="embed-preview-label" src=move || preview_src.get() style=frame_height></iframe>
                    </div>
                    // Under the preview: in view beside the options at 1280 px; on a phone,
                    // Copy stays at the dialog's bottom edge (style.css).
                    <label class="embed-snippet-label" for="embed-snippet">"Snippet: paste it into your page"</label>
                    <textarea id="embed-snippet" class="embed-snippet" data-testid="embed-snippet" readonly rows="5"
                        prop:value=move || failed.get().unwrap_or_else(|| snippet.get())></textarea>
                    <div class="embed-copy-row">
                        <button class="primary" data-testid="embed-copy" on:click=copy disabled=move || source.with(Option::is_none)>"Copy"</button>
                        <p class="hint" data-testid="embed-length" role="status">
                            {move || { let s = status.get(); if s.is_empty() { note.get() } else { format!("{s} {}", note.get()) } }}
                        </p>
                    </div>
                </div>
            </div>
        </dialog>
    }
}
