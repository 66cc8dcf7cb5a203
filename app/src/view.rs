//! The page: header with the virtual clock, publish controls, the topology diagram and each
//! queue's counts, and the event log. Every number shown comes from an engine snapshot.

use crate::playground::{Playground, DEFAULT_SCENARIO, EVENT_TYPES};
use engine::snapshot::{QueueView, Snapshot, SubscriptionView};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let loaded = Playground::from_scenario(DEFAULT_SCENARIO);
    match loaded {
        Ok(pg) => view! { <Stage pg=pg /> }.into_any(),
        Err(e) => view! { <ErrorPanel message=format!("The default scenario could not be loaded: {e}") /> }.into_any(),
    }
}

#[component]
fn Stage(pg: Playground) -> impl IntoView {
    let name = pg.name.clone();
    let description = pg.description.clone();
    let pg = RwSignal::new(pg);
    let snapshot = Memo::new(move |_| pg.with(Playground::snapshot));
    let event_type = RwSignal::new(EVENT_TYPES[0].to_string());
    let error = RwSignal::new(None::<String>);

    let publish = move |_| {
        let kind = event_type.get_untracked();
        let result =
            pg.try_update(|p| p.publish(&kind)).expect("invariant: the playground signal lives as long as the page");
        error.set(result.err().map(|e| format!("{}: {}", e.code, e.message)));
    };

    view! {
        <div class="shell">
            <header class="bar">
                <div class="brand">
                    <span class="logo" aria-hidden="true">"◆"</span>
                    <h1>"Fan-out Playground"</h1>
                </div>
                <span class="scenario-name">{name}</span>
                <time class="clock" data-testid="clock" title="Virtual time since the scenario started">
                    {move || snapshot.get().now.to_string()}
                </time>
            </header>
            <main class="stage">
                <section class="controls" aria-label="Publish an event">
                    <p class="lede">{description}</p>
                    <div class="row">
                        <label class="field">
                            <span>"Event type"</span>
                            <select data-testid="event-type" on:change=move |ev| event_type.set(event_target_value(&ev))>
                                {EVENT_TYPES.iter().map(|t| view! { <option value=*t>{*t}</option> }).collect_view()}
                            </select>
                        </label>
                        <button class="primary" data-testid="publish" on:click=publish>"Publish to order-events"</button>
                    </div>
                    <p class="error" role="alert">{move || error.get()}</p>
                </section>
                <section class="diagram" aria-label="Topology">
                    <Topology snapshot=snapshot />
                </section>
                <section class="queues" aria-label="Queues">
                    {move || snapshot.get().queues.into_iter().map(|q| view! { <QueueCard q=q /> }).collect_view()}
                </section>
                <EventLog pg=pg />
            </main>
        </div>
    }
}

#[component]
fn QueueCard(q: QueueView) -> impl IntoView {
    let id = format!("queue-{}", q.name);
    let role = if q.dead_letter_sources.is_empty() { "queue" } else { "dead-letter queue" };
    view! {
        <article class="queue-card" class:dlq=!q.dead_letter_sources.is_empty() data-testid=id.clone()>
            <h2>{q.name.clone()} <small>{role}</small></h2>
            <dl class="counts">
                <div class="count visible"><dt>"visible"</dt><dd data-testid=format!("{id}-visible")>{q.visible}</dd></div>
                <div class="count inflight"><dt>"in flight"</dt><dd data-testid=format!("{id}-inflight")>{q.in_flight}</dd></div>
                <div class="count delayed"><dt>"delayed"</dt><dd data-testid=format!("{id}-delayed")>{q.delayed}</dd></div>
            </dl>
            <p class="meta">
                {format!("visibility {} s", q.visibility_timeout)}
                {q.max_receive_count.map(|n| format!(" · DLQ after {n} receives"))}
            </p>
        </article>
    }
}

/// Layout constants of the diagram, in SVG user units.
const ROW: f64 = 78.0;
const TOP: f64 = 40.0;

#[component]
fn Topology(snapshot: Memo<Snapshot>) -> impl IntoView {
    move || {
        let s = snapshot.get();
        let subs: Vec<SubscriptionView> = s.topics.iter().flat_map(|t| t.subscriptions.clone()).collect();
        let rows = subs.len().max(1) as f64;
        let height = TOP * 2.0 + (rows - 1.0) * ROW;
        let topic_y = height / 2.0;
        let topic = s.topics.first().map(|t| t.name.clone()).unwrap_or_else(|| "no topic".into());
        let edges = subs.iter().enumerate().map(|(i, sub)| {
            let y = TOP + i as f64 * ROW;
            let queue = s.queues.iter().find(|q| Some(&q.name) == sub.queue.as_ref());
            let name = sub.queue.clone().unwrap_or_else(|| sub.endpoint.clone());
            let visible = queue.map_or(0, |q| q.visible);
            let inflight = queue.map_or(0, |q| q.in_flight);
            let dlq = queue.and_then(|q| q.dead_letter_queue.clone());
            let dlq_count = dlq.as_ref().and_then(|d| s.queues.iter().find(|q| &q.name == d)).map_or(0, |q| q.visible + q.in_flight);
            view! {
                <g class="edge">
                    <path d=format!("M 250 {topic_y} C 330 {topic_y}, 330 {y}, 410 {y}") />
                    {sub.filter_policy.clone().map(|p| view! {
                        <g class="badge filter"><title>{format!("Filter policy: {p}")}</title>
                            <rect x="300" y=y - 11.0 width="52" height="20" rx="10" />
                            <text x="326" y=y + 4.0>"filter"</text></g>
                    })}
                    {sub.raw.then(|| view! {
                        <g class="badge raw"><title>"Raw message delivery: the body arrives exactly as published"</title>
                            <rect x="356" y=y - 11.0 width="40" height="20" rx="10" />
                            <text x="376" y=y + 4.0>"raw"</text></g>
                    })}
                </g>
                <g class="node queue">
                    <rect x="410" y=y - 24.0 width="190" height="48" rx="10" />
                    <text class="name" x="424" y=y - 4.0>{name}</text>
                    <text class="stat" x="424" y=y + 14.0>{format!("{visible} visible · {inflight} in flight")}</text>
                </g>
                {dlq.map(|d| view! {
                    <g class="edge dlq"><path d=format!("M 600 {y} L 660 {y}") /></g>
                    <g class="node dlq">
                        <rect x="660" y=y - 18.0 width="150" height="36" rx="8" />
                        <text class="name" x="672" y=y + 5.0>{format!("{d} · {dlq_count}")}</text>
                    </g>
                })}
            }
        }).collect_view();
        view! {
            <svg class="topology" viewBox=format!("0 0 830 {height}") role="img"
                 aria-label="The producer publishes to the topic, which fans out to one queue per consumer">
                <g class="edge"><path d=format!("M 130 {topic_y} L 170 {topic_y}") /></g>
                <g class="node producer">
                    <rect x="10" y=topic_y - 24.0 width="120" height="48" rx="24" />
                    <text class="name" x="70" y=topic_y + 5.0 text-anchor="middle">"checkout"</text>
                </g>
                <g class="node topic">
                    <rect x="170" y=topic_y - 28.0 width="80" height="56" rx="12" />
                    <text class="kind" x="210" y=topic_y - 6.0 text-anchor="middle">"SNS topic"</text>
                    <text class="name small" x="210" y=topic_y + 12.0 text-anchor="middle">{topic}</text>
                </g>
                {edges}
            </svg>
        }
    }
}

#[component]
fn EventLog(pg: RwSignal<Playground>) -> impl IntoView {
    let lines = move || {
        pg.with(|p| {
            let events = p.history.sim().events();
            events
                .iter()
                .rev()
                .take(60)
                .map(|e| (e.seq, e.at.to_string(), e.kind.name(), e.kind.summary()))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="log" aria-label="Event log">
            <h2>"Event log"</h2>
            <ol data-testid="event-log" aria-live="polite">
                {move || lines().into_iter().map(|(seq, at, kind, text)| view! {
                    <li data-seq=seq><time>{at}</time><span class=format!("kind {kind}")>{kind}</span>
                    <span class="text">{text}</span></li>
                }).collect_view()}
            </ol>
        </section>
    }
}

#[component]
fn ErrorPanel(message: String) -> impl IntoView {
    view! {
        <div class="error-panel" role="alert">
            <h1>"Something went wrong"</h1>
            <p>{message}</p>
            <button on:click=|_| { let _ = window().location().reload(); }>"Reload the playground"</button>
        </div>
    }
}

/// After a panic the wasm instance is gone; this hook puts a plain DOM panel on the page so
/// the learner is never left with a blank or frozen screen.
pub fn install_panic_panel() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        previous(info);
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        let Some(body) = doc.body() else { return };
        if let Ok(panel) = doc.create_element("div") {
            panel.set_class_name("error-panel crashed");
            panel.set_attribute("role", "alert").ok();
            panel.set_inner_html(
                "<h1>Something went wrong</h1><p>The simulation stopped because of a bug. Your work in this tab is lost; \
                 reloading starts the scenario again.</p><button onclick=\"location.reload()\">Reload the playground</button>",
            );
            body.append_child(&panel).ok();
        }
    }));
}
