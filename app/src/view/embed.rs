//! Embed mode (`?embed=1`): a compact view for an iframe 320–900 px wide in someone else's
//! page — the diagram and the controls that matter, no header, a link that opens the same
//! story in the full playground. Good manners: nothing starts before the frame first scrolls
//! into view (IntersectionObserver), nothing is written to storage, nothing takes focus, the
//! wheel is left to the page, and the content height goes to the parent as
//! `postMessage({type: "fanout:resize", height})` whenever it changes (ResizeObserver).

use super::lesson::{self, Play};
use super::{clock, controls, queues, share, topology, transport, Ctx, Playground, Selection};
use crate::playground::SPEEDS;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The embed's URL parameters.
#[derive(Clone, Debug, Default)]
pub struct Params {
    pub scenario: Option<String>,
    pub lesson: Option<String>,
    pub step: Option<u32>,
    /// `auto`, `light` or `dark`.
    pub theme: String,
    /// `full`, `min` or `none`.
    pub controls: String,
    pub autoplay: bool,
    /// Index into `SPEEDS`.
    pub speed: Option<usize>,
    pub looped: bool,
    /// `None` for `auto`.
    pub height: Option<u32>,
}

/// The embed parameters in the page's address (`embed=1` itself is what sends `index.html` here).
pub fn params() -> Params {
    let search = window().location().search().unwrap_or_default();
    let Ok(q) = web_sys::UrlSearchParams::new_with_str(&search) else { return Params::default() };
    let pick =
        |k: &str, allowed: &[&str]| q.get(k).filter(|v| allowed.contains(&v.as_str())).unwrap_or(allowed[0].into());
    let id = |k: &str| q.get(k).filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    let speed = q.get("speed").and_then(|s| {
        let s = s.trim_end_matches(['x', '×']).to_string();
        SPEEDS.iter().position(|(label, _)| label.trim_end_matches('×') == s)
    });
    Params {
        scenario: id("scenario"),
        lesson: id("lesson"),
        step: q.get("step").and_then(|s| s.parse().ok()),
        theme: pick("theme", &["auto", "light", "dark"]),
        controls: pick("controls", &["full", "min", "none"]),
        autoplay: q.get("autoplay").as_deref() == Some("1"),
        speed,
        looped: q.get("loop").as_deref() == Some("1"),
        height: q.get("height").and_then(|h| h.parse().ok()).filter(|h| (80..=4000).contains(h)),
    }
}

/// What an embed shows: a story, what is selected in it, and for a lesson its player.
#[derive(Clone)]
struct Story {
    pg: Playground,
    selected: Option<Selection>,
    play: Option<Play>,
}

/// The story the parameters ask for: a share fragment, a lesson (at its step) or a scenario;
/// on any failure the default scenario, with the message.
async fn load(p: &Params) -> Result<(Story, Option<String>), String> {
    let asked: Result<Story, String> = if let Some(payload) = share::payload_in_address() {
        share::decode(&payload)
            .await
            .map(|(pg, pick)| Story { pg, selected: pick.map(share::selection_of), play: None })
            .map_err(|e| e.to_string())
    } else if let Some(id) = &p.lesson {
        lesson::open_for_embed(id, p.step).await.map(|(pg, play)| Story { pg, selected: None, play: Some(play) })
    } else {
        crate::fetch::scenario(p.scenario.as_deref().unwrap_or("quilt-store")).await.map(|pg| Story {
            pg,
            selected: None,
            play: None,
        })
    };
    match asked {
        Ok(story) => Ok((story, None)),
        // What was asked for does not load: the default scenario, and why.
        Err(e) => Ok((Story { pg: crate::fetch::scenario("quilt-store").await?, selected: None, play: None }, Some(e))),
    }
}

/// Tells the parent page the embed's content height.
fn report_height(height: f64) {
    let w = window();
    let Ok(parent) = w.parent() else { return };
    let Some(parent) = parent else { return };
    if parent == w {
        return;
    }
    let msg = js_sys::Object::new();
    js_sys::Reflect::set(&msg, &"type".into(), &"fanout:resize".into()).ok();
    js_sys::Reflect::set(&msg, &"height".into(), &JsValue::from_f64(height.ceil())).ok();
    parent.post_message(&msg, "*").ok();
}

/// Calls `f` once, when `el` first comes into view.
fn on_first_sight(el: &web_sys::Element, f: impl FnOnce() + 'static) {
    let f = std::cell::Cell::new(Some(f));
    let cb = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
        move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
            let seen =
                entries.iter().any(|e| e.unchecked_into::<web_sys::IntersectionObserverEntry>().is_intersecting());
            if seen {
                observer.disconnect();
                if let Some(f) = f.take() {
                    f();
                }
            }
        },
    );
    if let Ok(observer) = web_sys::IntersectionObserver::new(cb.as_ref().unchecked_ref()) {
        observer.observe(el);
    }
    cb.forget();
}

/// Reports `el`'s height to the parent now and whenever it changes.
fn watch_height(el: &web_sys::Element) {
    let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if let Some(e) = entries.get(0).dyn_ref::<web_sys::ResizeObserverEntry>() {
            report_height(e.target().get_bounding_client_rect().height());
        }
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()) {
        observer.observe(el);
    }
    cb.forget();
}

#[component]
pub fn Embed(params: Params) -> impl IntoView {
    if params.theme != "auto" {
        document().document_element().map(|el| el.set_attribute("data-theme", &params.theme).ok());
    }
    let root = NodeRef::<leptos::html::Div>::new();
    let story = RwSignal::new(None::<Story>);
    let error = RwSignal::new(None::<String>);
    let p = params.clone();
    root.on_load(move |el| {
        watch_height(&el);
        on_first_sight(&el, move || {
            leptos::task::spawn_local(async move {
                match load(&p).await {
                    Ok((loaded, err)) => {
                        error.set(err);
                        story.set(Some(loaded));
                    }
                    Err(e) => error.set(Some(e)),
                }
            });
        });
    });
    let style = params.height.map(|h| format!("height: {h}px; overflow: hidden"));
    view! {
        <div class="embed" data-testid="embed-root" node_ref=root style=style>
            <Show when=move || error.with(Option::is_some)>
                <p class="load-error" data-testid="load-error" role="alert" dir="auto">{move || error.get().unwrap_or_default()}</p>
            </Show>
            {move || match super::stage::take_loaded(story) {
                None => view! { <div class="embed-wait" role="status">"Fan-out Playground demo"</div> }.into_any(),
                Some(story) => view! { <EmbedStage story=story params=params.clone() /> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn EmbedStage(story: Story, params: Params) -> impl IntoView {
    let Story { pg, selected, play } = story;
    let ctx = Ctx::new(pg.clone(), selected);
    // The embed's own speed (`speed=`), 1× unless it names one, not the scenario's.
    ctx.speed.set(params.speed.unwrap_or(crate::playground::DEFAULT_SPEED));
    provide_context(ctx);
    clock::use_clock(ctx);
    transport::use_keyboard(ctx);
    if params.autoplay && play.is_none() {
        ctx.playing.set(true);
    }
    // A lesson plays its own steps: no autoplay or loop of the scenario under it.
    let lesson = play.map(|play| lesson::use_embedded(ctx, pg, play));
    if params.looped && lesson.is_none() {
        use_loop(ctx);
    }
    // A lesson opens on the lesson page at its step; a story as a share link in the sandbox.
    let full = move || lesson.and_then(lesson::full_page_link).unwrap_or_else(|| share::sibling(""));
    let open_full = move |ev: leptos::ev::MouseEvent| {
        if lesson.is_some() {
            return;
        }
        ev.prevent_default();
        leptos::task::spawn_local(async move {
            if let Ok(url) = share::link_now(ctx, &share::sibling("")).await {
                window().open_with_url_and_target(&url, "_blank").ok();
            }
        });
    };
    let title = move || ctx.pg.with(|p| p.name.clone());
    let controls = params.controls.clone();
    view! {
        <div class="embed-bar">
            <strong dir="auto">{title}</strong>
            <time class="clock" data-testid="clock" title="Virtual time">{move || ctx.clock.get().to_string()}</time>
            <a class="embed-open" data-testid="embed-open-full" href=full target="_blank" rel="noopener" on:click=open_full>
                "Open in the full playground ↗"
            </a>
        </div>
        // The time controls over the diagram, Publish under it (the diagram stays near the top
        // of a narrow frame).
        {match controls.as_str() {
            "full" => view! { <transport::Transport /> }.into_any(),
            "min" => view! { <MinControls /> }.into_any(),
            _ => ().into_any(),
        }}
        <section class="diagram embed-diagram" aria-label="Topology">
            <topology::Topology />
        </section>
        {(controls == "full").then(|| view! { <controls::Publish /> })}
        {lesson.is_some().then(|| view! { <lesson::LessonPanel /> })}
        {(controls == "full").then(|| view! { <queues::Queues /> })}
    }
}

/// Play or pause, step, and publish the scenario's first event.
#[component]
fn MinControls() -> impl IntoView {
    let ctx = super::use_ctx();
    let publish = move |_| {
        let first = ctx.pg.with_untracked(|p| p.presets().first().map(|p| p.name.clone()));
        if let Some(name) = first {
            ctx.act(|p| p.publish(&name));
        }
    };
    view! {
        <div class="embed-min">
            <button data-testid="play-pause" aria-pressed=move || ctx.playing.get().to_string()
                on:click=move |_| ctx.playing.update(|p| *p = !*p)>
                {move || if ctx.playing.get() { "Pause" } else { "Play" }}
            </button>
            <button data-testid="step" on:click=move |_| { ctx.pause(); ctx.pg.update(|p| { p.step(); }); }>"Step"</button>
            <button class="primary" data-testid="publish" on:click=publish>"Publish"</button>
        </div>
    }
}

/// `loop=1`: when the story has gone quiet (no event for 30 virtual seconds: what was going to
/// happen has happened; idle workers' empty polls log nothing), the scenario starts again,
/// still playing.
fn use_loop(ctx: Ctx) {
    Effect::new(move |_| {
        if !ctx.playing.get() {
            return;
        }
        let quiet = ctx.pg.with(|p| {
            let h = p.history();
            let last = p.events().last().map_or(0, |e| e.at.ms());
            h.applied() == h.commands().len() && p.now().ms() >= last + 30_000
        });
        if quiet {
            ctx.pg.update(Playground::reset);
        }
    });
}
