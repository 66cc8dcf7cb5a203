//! Embed mode (`?embed=1`): a compact view for an iframe 320–900 px wide in someone else's
//! page — the diagram and the controls that matter, no header, a link that opens the same
//! story in the full playground. Good manners: nothing starts before the frame first scrolls
//! into view (IntersectionObserver), nothing is written to storage, nothing takes focus, the
//! wheel is left to the page, and the content height goes to the parent as
//! `postMessage({type: "fanout:resize", height, title})` whenever it changes (ResizeObserver),
//! with the page's title, which `embed.js` gives to an iframe that has none.

use super::lesson::{self, Play};
use super::{clock, controls, queues, share, topology, transport, Ctx, Playground, Selection};
use crate::playground::SPEEDS;
use engine::scenario::Press;
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
    /// `start=0`: a share link's story from where its scenario was built, not its moment.
    pub from_start: bool,
    /// Index into `SPEEDS`.
    pub speed: Option<usize>,
    pub looped: bool,
    /// `None` for `auto`.
    pub height: Option<u32>,
    /// The panels to open under the diagram (`cards`), closed unless asked for.
    pub panels: Vec<String>,
    /// The author's title and caption for the frame: text, never markup.
    pub title: Option<String>,
    pub caption: Option<String>,
    /// What the address asked for that the embed did not understand, one line each (shown in
    /// the frame and named in the console; the embed goes on with the default).
    pub unknown: Vec<String>,
}

/// The embed parameters in the page's address (`embed=1` itself is what sends `index.html` here).
pub fn params() -> Params {
    let search = window().location().search().unwrap_or_default();
    parse_params(&crate::route::parse_query(&search))
}

/// The parameters an embed reads.
const KNOWN: &[&str] = &[
    "embed", "scenario", "lesson", "step", "theme", "controls", "autoplay", "start", "speed", "loop", "height",
    "panels", "title", "caption",
];

/// The panels an embed can open under its diagram (the event log is not one: its text of
/// every event's kind would make the embed's download much larger).
const PANELS: &[&str] = &["cards"];

/// The longest title and caption the frame shows (characters); the rest is cut, and said so.
pub const TITLE_MAX_CHARS: usize = 120;
pub const CAPTION_MAX_CHARS: usize = 300;

/// The index in `SPEEDS` of speed `given` (a label with or without its sign: `2`, `2x`, `2×`),
/// or, for a number from 0.25 to 64 that is not one of them, of the nearest one (by ratio) with
/// a line that says so; `None` with that line for anything else.
pub fn parse_speed(given: &str) -> (Option<usize>, Option<String>) {
    let s = given.trim_end_matches(['x', '×']);
    let labels: Vec<&str> = SPEEDS.iter().map(|(l, _)| l.trim_end_matches('×')).collect();
    if let Some(i) = labels.iter().position(|l| *l == s) {
        return (Some(i), None);
    }
    match hundredths(s) {
        Some(v) if (25..=6400).contains(&v) => {
            // SPEEDS counts quarters (25 hundredths); the nearest by ratio, in integers.
            let ratio = |i: usize| {
                let p = SPEEDS[i].1 * 25;
                (p.max(v), p.min(v))
            };
            let i = (1..SPEEDS.len()).fold(0, |best, i| {
                let ((a, b), (c, d)) = (ratio(i), ratio(best));
                if a * d < c * b {
                    i
                } else {
                    best
                }
            });
            if SPEEDS[i].1 * 25 == v {
                // Written another way (`2.0`, `08`): the preset itself.
                return (Some(i), None);
            }
            let said = format!("speed={given} is not one of the speeds {}; using {}", labels.join(", "), SPEEDS[i].0);
            (Some(i), Some(said))
        }
        _ => (
            None,
            Some(format!("speed={given} is not one of the speeds {}; using the story's speed", labels.join(", "))),
        ),
    }
}

/// A decimal number of at most two decimals (`3`, `0.3`, `12.75`) in hundredths.
fn hundredths(s: &str) -> Option<u64> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| !t.is_empty() && t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !(frac.is_empty() || (frac.len() <= 2 && digits(frac))) {
        return None;
    }
    let frac = if frac.len() == 1 { format!("{frac}0") } else { format!("{frac:0<2}") };
    Some(whole.parse::<u64>().ok()? * 100 + frac.parse::<u64>().ok()?)
}

/// Text the frame shows as it was given, cut to `max` characters (said in `unknown`).
fn text_param(k: &str, given: Option<String>, max: usize, unknown: &mut Vec<String>) -> Option<String> {
    let text: String = given?.chars().filter(|c| !c.is_control()).collect::<String>().trim().to_string();
    if text.is_empty() {
        return None;
    }
    if text.chars().count() > max {
        unknown.push(format!("{k} is longer than {max} characters; showing its first {max}"));
        return Some(text.chars().take(max).collect());
    }
    Some(text)
}

/// The embed parameters from the address's pairs. A value it does not understand is named in
/// `unknown` and the default is used instead.
pub fn parse_params(pairs: &[(String, String)]) -> Params {
    let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let mut unknown = Vec::new();
    let mut pick = |k: &str, allowed: &[&str]| match get(k) {
        Some(v) if allowed.contains(&v.as_str()) => v,
        Some(v) => {
            unknown.push(format!("{k}={v} is not one of {}; using {}", allowed.join(", "), allowed[0]));
            allowed[0].to_string()
        }
        None => allowed[0].to_string(),
    };
    let (theme, controls) = (pick("theme", &["auto", "light", "dark"]), pick("controls", &["full", "min", "none"]));
    let id = |k: &str| get(k).filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    let speed = get("speed").and_then(|given| {
        let (found, said) = parse_speed(&given);
        unknown.extend(said);
        found
    });
    let mut panels = Vec::new();
    for p in get("panels").unwrap_or_default().split(',').filter(|p| !p.is_empty()) {
        if PANELS.contains(&p) {
            panels.push(p.to_string());
        } else {
            unknown.push(format!("panels={p} is not one of {}", PANELS.join(", ")));
        }
    }
    let title = text_param("title", get("title"), TITLE_MAX_CHARS, &mut unknown);
    let caption = text_param("caption", get("caption"), CAPTION_MAX_CHARS, &mut unknown);
    let height = get("height").filter(|h| h != "auto").and_then(|given| match given.parse::<u32>() {
        Ok(h) if (80..=4000).contains(&h) => Some(h),
        _ => {
            unknown.push(format!("height={given} is not auto or a height from 80 to 4000 (px); using auto"));
            None
        }
    });
    let step = get("step").and_then(|given| match given.parse::<u32>() {
        Ok(n) if n >= 1 => Some(n),
        _ => {
            unknown.push(format!("step={given} is not a step number (1, 2, …); starting at step 1"));
            None
        }
    });
    let from_start = match get("start").as_deref() {
        None => false,
        Some("0") => true,
        Some(given) => {
            unknown.push(format!("start={given} is not 0; the story opens at the moment its link holds"));
            false
        }
    };
    for (k, v) in pairs.iter().filter(|(k, _)| !KNOWN.contains(&k.as_str())) {
        unknown.push(format!("{k}={v} is not a parameter the embed knows ({})", KNOWN.join(", ")));
    }
    for (k, v) in [("scenario", id("scenario")), ("lesson", id("lesson"))] {
        if let (Some(given), None) = (get(k), v) {
            unknown.push(format!("{k}={given} is not a {k} name (letters, digits and hyphens)"));
        }
    }
    Params {
        scenario: id("scenario"),
        lesson: id("lesson"),
        step,
        theme,
        controls,
        autoplay: get("autoplay").as_deref() == Some("1"),
        from_start,
        speed,
        looped: get("loop").as_deref() == Some("1"),
        height,
        panels,
        title,
        caption,
        unknown,
    }
}

/// What an embed shows: a story, what is selected in it, and for a lesson its player.
#[derive(Clone)]
struct Story {
    pg: Playground,
    selected: Option<Selection>,
    play: Option<Play>,
    /// The speed a share link played at.
    speed: Option<usize>,
    /// An author's own story (a share link): its title and caption are the author's, never its
    /// scenario's.
    shared: bool,
}

/// The story the parameters ask for: a share fragment, a lesson (at its step) or a scenario;
/// on any failure the default scenario, with the message.
async fn load(p: &Params) -> Result<(Story, Option<String>), String> {
    let asked: Result<Story, String> = if let Some(payload) = share::payload_in_address() {
        share::decode(&payload)
            .await
            .map(|o| Story { pg: o.pg, selected: o.selected, play: None, speed: o.speed, shared: true })
            .map_err(|e| e.to_string())
    } else if let Some(id) = &p.lesson {
        lesson::open_for_embed(id, p.step).await.map(|(pg, play)| Story {
            pg,
            selected: None,
            play: Some(play),
            speed: None,
            shared: false,
        })
    } else {
        crate::fetch::scenario(p.scenario.as_deref().unwrap_or("quilt-store")).await.map(|pg| Story {
            pg,
            selected: None,
            play: None,
            speed: None,
            shared: false,
        })
    };
    match asked {
        Ok(story) => Ok((story, None)),
        // What was asked for does not load: the default scenario, and why.
        Err(e) => Ok((
            Story {
                pg: crate::fetch::scenario("quilt-store").await?,
                selected: None,
                play: None,
                speed: None,
                shared: false,
            },
            Some(e),
        )),
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
    js_sys::Reflect::set(&msg, &"title".into(), &document().title().into()).ok();
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
    let root = NodeRef::<leptos::html::Main>::new();
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
    // A fixed height scrolls inside the frame when the content is taller (a lesson step's
    // panel at 200 px): nothing the learner needs is cut off.
    let style = params.height.map(|h| format!("height: {h}px; overflow-y: auto; scrollbar-gutter: stable"));
    // What the address asked for that the embed did not understand: said in the frame, and
    // named in the console for the page's author.
    for line in &params.unknown {
        leptos::logging::warn!("Fan-out Playground embed: {line}");
    }
    let unknown = params.unknown.join(" · ");
    view! {
        <main class="embed" data-testid="embed-root" node_ref=root style=style>
            {(!unknown.is_empty()).then(|| view! { <p class="embed-notice" data-testid="embed-notice" role="status" dir="auto">{unknown}</p> })}
            <Show when=move || error.with(Option::is_some)>
                <p class="load-error" data-testid="load-error" role="alert" dir="auto">{move || error.get().unwrap_or_default()}</p>
            </Show>
            {move || match super::stage::take_loaded(story) {
                None => view! { <div class="embed-wait" role="status">"Fan-out Playground demo"</div> }.into_any(),
                Some(story) => view! { <EmbedStage story=story params=params.clone() /> }.into_any(),
            }}
        </main>
    }
}

/// What the frame's bar and the line under it say: the author's title and caption; else, for a
/// scenario, its name and its one-line hint; for an author's story without a title, a plain
/// one (never its scenario's name and description, which describe another story).
/// The line under a lesson's title when the author gives no caption.
pub const LESSON_LINE: &str = "The step under the diagram says what to do: answer its question, or act, and it plays.";

/// A lesson without the author's title shows its own (the Embed dialog's snippet titles its
/// iframe the same, `embed_snippet::frame_title`).
fn heading(pg: &Playground, shared: bool, lesson: Option<&str>, p: &Params) -> (String, Option<String>) {
    let own = match lesson {
        Some(title) => title.to_string(),
        None if shared => crate::embed_snippet::STORY_TITLE.into(),
        None => pg.name.clone(),
    };
    let title = p.title.clone().unwrap_or(own);
    // A lesson's step is driven from its panel under the diagram (a question to answer, a
    // checkpoint to reach), not by Play: the line says so unless the author wrote their own.
    let hint = match lesson {
        Some(_) => Some(LESSON_LINE.to_string()),
        None => (!shared && p.controls != "none").then(|| pg.embed_hint().map(|h| h.say.clone())).flatten(),
    };
    (title, p.caption.clone().or(hint))
}

#[component]
fn EmbedStage(story: Story, params: Params) -> impl IntoView {
    let Story { mut pg, selected, play, speed, shared } = story;
    // `start=0`: an author's story plays from where its scenario was built, its own commands
    // happening as the clock passes (else it opens where the author copied it).
    if params.from_start && shared {
        pg.seek(pg.built_at());
    }
    let ctx = Ctx::new(pg.clone(), selected);
    // The embed's own speed (`speed=`), else a share link's, else the scenario's.
    ctx.speed.set(params.speed.or(speed).unwrap_or_else(|| pg.speed_index()));
    provide_context(ctx);
    clock::use_clock(ctx);
    transport::use_keyboard(ctx);
    if params.autoplay && play.is_none() {
        ctx.playing.set(true);
    }
    let (title, line) = heading(&pg, shared, play.as_ref().map(Play::title), &params);
    // The one control besides Play a scenario's hint names (an author's story and a lesson have
    // none: their own commands and the lesson's panel drive them).
    let press = (!shared && play.is_none()).then(|| pg.embed_hint().and_then(|h| h.press)).flatten();
    // The page's title says what the frame shows: `embed.js` gives it to the iframe that has
    // none (a frame's title is how a screen reader names it).
    if params.title.is_some() {
        document().set_title(&title);
    } else {
        document().set_title(&format!("{title}: a Fan-out Playground demo"));
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
    let controls = params.controls.clone();
    let panel = |name: &str| params.panels.iter().any(|p| p == name);
    view! {
        <div class="embed-bar">
            <strong dir="auto" data-testid="embed-frame-title">{title}</strong>
            <time class="clock" data-testid="clock" title="Virtual time">{move || ctx.clock.get().to_string()}</time>
            <a class="embed-open" data-testid="embed-open-full" href=full target="_blank" rel="noopener" on:click=open_full>
                "Open in the full playground ↗"
            </a>
        </div>
        {line.map(|l| view! { <p class="embed-caption" data-testid="embed-frame-caption" dir="auto">{l}</p> })}
        // The time controls over the diagram, Publish under it (the diagram stays near the top
        // of a narrow frame).
        {match controls.as_str() {
            "full" => view! { <transport::Transport /> }.into_any(),
            // A lesson's own panel says what to do (and offers Publish where a step needs it).
            "min" => view! { <MinControls press with_publish=lesson.is_none() /> }.into_any(),
            _ => ().into_any(),
        }}
        <section class="diagram embed-diagram" aria-label="Topology">
            <topology::Topology />
        </section>
        {(controls == "full").then(|| view! { <controls::Publish /> })}
        {lesson.is_some().then(|| view! { <lesson::LessonPanel /> })}
        {panel("cards").then(|| view! { <queues::Queues /> })}
    }
}

/// Play or pause, step, publish the scenario's first event, and — when the scenario's hint
/// names it — add a worker to the first queue that has no consumer (what a poison message or a
/// crash needs to play out).
#[component]
fn MinControls(press: Option<Press>, with_publish: bool) -> impl IntoView {
    let ctx = super::use_ctx();
    let idle = Memo::new(move |_| ctx.snapshot.with(Playground::idle_queue));
    let add_worker = move |_| {
        ctx.act(|p| p.press(Press::AddWorker));
    };
    let publish = move |_| {
        ctx.act(|p| p.press(Press::Publish));
    };
    let has_presets = with_publish && ctx.pg.with_untracked(|p| !p.presets().is_empty());
    view! {
        <div class="embed-min">
            <button data-testid="play-pause" aria-pressed=move || ctx.playing.get().to_string()
                on:click=move |_| ctx.playing.update(|p| *p = !*p)>
                {move || if ctx.playing.get() { "Pause" } else { "Play" }}
            </button>
            <button data-testid="step" on:click=move |_| { ctx.pause(); ctx.pg.update(|p| { p.step(); }); }>"Step"</button>
            {has_presets.then(|| view! {
                <button class:primary=press == Some(Press::Publish) data-testid="publish" on:click=publish>"Publish"</button>
            })}
            {(press == Some(Press::AddWorker)).then(|| view! {
                <button class="primary" data-testid="embed-add-worker" disabled=move || idle.with(Option::is_none) on:click=add_worker
                    title=move || idle.get().map(|q| format!("CreateWorker on {q}")).unwrap_or_else(|| "Every queue has a worker".into())>
                    {move || idle.get().map(|q| format!("+ Worker on {q}")).unwrap_or_else(|| "+ Worker".into())}
                </button>
            })}
        </div>
        <p class="error" role="alert" data-testid="error">{move || ctx.error.get()}</p>
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

#[cfg(test)]
mod tests {
    use super::{parse_params, parse_speed};
    use crate::playground::SPEEDS;
    use crate::route::parse_query;

    #[test]
    fn every_speed_the_docs_promise_is_played_and_another_plays_at_the_nearest_preset() {
        let docs = include_str!("../../../docs/embedding.md");
        let row = docs.lines().find(|l| l.starts_with("| `speed` |")).expect("embedding.md has a speed row");
        let promised: Vec<&str> = row.split('`').skip(3).step_by(2).filter(|s| s.parse::<f64>().is_ok()).collect();
        assert_eq!(promised.len(), SPEEDS.len(), "the docs list every preset: {row}");
        for (given, (label, _)) in promised.iter().zip(SPEEDS) {
            for form in [given.to_string(), format!("{given}x"), format!("{given}×")] {
                let (i, said) = parse_speed(&form);
                assert_eq!((i.map(|i| SPEEDS[i].0), said), (Some(*label), None), "{form}");
            }
        }
        for (given, nearest) in [("3", "4×"), ("0.3", "0.25×"), ("48x", "64×"), ("5", "4×"), ("12", "16×")] {
            let (i, said) = parse_speed(given);
            assert_eq!(i.map(|i| SPEEDS[i].0), Some(nearest), "{given}");
            assert!(said.is_some_and(|s| s.contains(&format!("using {nearest}"))), "{given}");
        }
        for (given, preset) in [("2.0", "2×"), ("08", "8×"), ("0.50x", "0.5×")] {
            assert_eq!(parse_speed(given), (SPEEDS.iter().position(|s| s.0 == preset), None), "{given}");
        }
        for bad in ["100", "0.1", "fast", "", "1.2.3", "0.333", "-2", "1e1"] {
            let (i, said) = parse_speed(bad);
            assert_eq!(i, None, "{bad}");
            assert!(said.is_some_and(|s| s.contains("using the story's speed")), "{bad}");
        }
    }

    #[test]
    fn a_title_and_caption_are_text_as_given_and_panels_open_only_when_asked_for() {
        let p = parse_params(&parse_query(
            "?embed=1&title=Orders%20%3Cb%3Ebold%3C%2Fb%3E&caption=Press+Play%3B%0Ait%27s+%262%C3%97&panels=cards",
        ));
        assert_eq!(p.title.as_deref(), Some("Orders <b>bold</b>"));
        assert_eq!(p.caption.as_deref(), Some("Press Play;it's &2×"), "control characters dropped");
        assert_eq!(p.panels, ["cards"]);
        assert!(p.unknown.is_empty(), "{:?}", p.unknown);
        let p = parse_params(&parse_query(&format!("?title={}&panels=log&caption=%20", "t".repeat(130))));
        assert_eq!(p.title.map(|t| t.len()), Some(120));
        assert_eq!(p.caption, None);
        assert!(p.panels.is_empty());
        let said = p.unknown.join("\n");
        assert!(
            said.contains("title is longer than 120 characters") && said.contains("panels=log is not one of cards"),
            "{said}"
        );
        assert!(parse_params(&parse_query("?embed=1")).panels.is_empty(), "no panel unless asked for");
    }

    #[test]
    fn start_0_plays_a_story_from_its_start_and_another_value_is_named() {
        assert!(parse_params(&parse_query("?embed=1&start=0")).from_start);
        assert!(!parse_params(&parse_query("?embed=1")).from_start, "the link's moment unless asked");
        let p = parse_params(&parse_query("?embed=1&start=5"));
        assert!(!p.from_start);
        assert_eq!(p.unknown, ["start=5 is not 0; the story opens at the moment its link holds"]);
    }

    #[test]
    fn an_embed_names_what_it_did_not_understand_and_goes_on_with_the_default() {
        let p = parse_params(&parse_query("?embed=1&scenario=poison-dlq&controls=min&speed=8x&height=420&theme=dark"));
        assert_eq!((p.controls.as_str(), p.speed, p.height, p.theme.as_str()), ("min", Some(5), Some(420), "dark"));
        assert!(p.unknown.is_empty(), "{:?}", p.unknown);
        let p =
            parse_params(&parse_query("?controls=tiny&speed=100x&theme=blue&height=20&step=0&lesson=<b>&colour=red"));
        assert_eq!(
            (p.controls.as_str(), p.speed, p.height, p.theme.as_str(), p.step),
            ("full", None, None, "auto", None)
        );
        let said = p.unknown.join("\n");
        for name in [
            "controls=tiny",
            "speed=100x",
            "theme=blue",
            "height=20",
            "step=0",
            "lesson=<b>",
            "colour=red is not a parameter",
        ] {
            assert!(said.contains(name), "{name} is named: {said}");
        }
    }
}
