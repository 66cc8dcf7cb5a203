//! Inside each queue: its counts, its messages as chips (see `chips`), its workers, and the
//! queue's actions and settings; and the side effects per job.

use super::topology::{state_glyph, ConsumerState};
use super::{use_ctx, Selection};
use engine::snapshot::QueueView;
use engine::world::{DurationMs, WorkerStatus};
use leptos::prelude::*;

/// Side effects per job: what the learner sees of duplicates (two slips for one order).
#[component]
pub fn Effects() -> impl IntoView {
    let ctx = use_ctx();
    let jobs = Memo::new(move |_| ctx.snapshot.with(|s| s.world.jobs.clone()));
    view! {
        <Show when=move || jobs.with(|j| !j.is_empty())>
            <section class="effects" aria-label="Side effects" data-testid="side-effects">
                <h2>"Side effects"</h2>
                // Read-only text, redrawn whole when a count changes: written as markup.
                <ul inner_html=move || jobs.with(|jobs| jobs.iter().map(|j| {
                    let mut li = format!(
                        "<li{}><strong>{}: {} × {}</strong><span> for {}</span>",
                        if j.duplicates != 0 { " class=\"dup\"" } else { "" },
                        super::bidi::isolated(&j.job), super::bidi::isolated(&j.effect), j.side_effects,
                        crate::format::count(j.distinct_events, "event", "events")
                    );
                    if j.duplicates != 0 {
                        li += &format!("<span class=\"warn\"> · {}</span>", crate::format::count(j.duplicates, "duplicate", "duplicates"));
                    }
                    if j.skipped != 0 {
                        li += &format!("<span class=\"ok\"> · {} skipped as already done</span>", j.skipped);
                    }
                    li + "</li>"
                }).collect::<String>())></ul>
            </section>
        </Show>
    }
}

#[component]
pub fn Queues() -> impl IntoView {
    let ctx = use_ctx();
    let names = Memo::new(move |_| ctx.snapshot.with(|s| s.queues.iter().map(|q| q.name.clone()).collect::<Vec<_>>()));
    view! {
        <section class="queues" aria-label="Queues">
            <For each=move || names.get() key=|n| n.clone() let:name>
                <QueueCard name=name />
            </For>
        </section>
    }
}

#[component]
fn QueueCard(name: String) -> impl IntoView {
    let ctx = use_ctx();
    let n = name.clone();
    let q = Memo::new(move |_| ctx.snapshot.with(|s| s.queues.iter().find(|q| q.name == n).map(without_messages)));
    let id = format!("queue-{name}");
    let is_dlq = move || q.with(|q| q.as_ref().is_some_and(|q| !q.dead_letter_sources.is_empty()));
    let count = move |f: fn(&QueueView) -> usize| move || q.with(|q| q.as_ref().map_or(0, f));
    let receive = {
        let name = name.clone();
        move |_| {
            ctx.act(|p| p.receive(&name));
        }
    };
    let purge = {
        let name = name.clone();
        move |_| {
            ctx.act(|p| p.purge(&name));
        }
    };
    let redrive = move |_| {
        if let Some(dlq) = q.get_untracked() {
            ctx.act(|p| p.redrive(&dlq));
        }
    };
    let select = {
        let name = name.clone();
        move |_| ctx.selected.set(Some(Selection::Queue(name.clone())))
    };
    view! {
        <article class="queue-card" class:dlq=is_dlq data-testid=id.clone()>
            <header>
                <h2><button class="link" on:click=select>{name.clone()}</button></h2>
                <small>{move || if is_dlq() { "dead-letter queue" } else if q.with(|q| q.as_ref().is_some_and(|q| q.fifo)) { "FIFO queue" } else { "queue" }}</small>
            </header>
            <dl class="counts">
                <div class="count visible"><dt>"visible"</dt><dd data-testid=format!("{id}-visible")>{count(|q| q.visible)}</dd></div>
                <div class="count inflight"><dt>"in flight"</dt><dd data-testid=format!("{id}-inflight")>{count(|q| q.in_flight)}</dd></div>
                <div class="count delayed"><dt>"delayed"</dt><dd data-testid=format!("{id}-delayed")>{count(|q| q.delayed)}</dd></div>
            </dl>
            <super::chips::Chips q=q queue=name.clone() />
            <p class="meta">
                {move || q.with(|q| q.as_ref().map(|q| {
                    let mut parts = vec![format!("visibility {}", crate::format::duration(u64::from(q.visibility_timeout) * 1_000))];
                    if let (Some(n), Some(d)) = (q.max_receive_count, &q.dead_letter_queue) {
                        parts.push(format!("to {d} after {}", crate::format::count(n, "receive", "receives")));
                    }
                    if q.oldest_age_ms > 0 {
                        parts.push(format!("oldest message {} old", crate::format::duration(q.oldest_age_ms)));
                    }
                    parts.join(" · ")
                }))}
            </p>
            <Workers queue=name.clone() />
            <div class="actions">
                <button data-testid=format!("{id}-add-worker") on:click={
                    let name = name.clone();
                    move |_| { ctx.act(|p| p.add_worker(&name)); }
                } title="CreateWorker: a competing consumer that long-polls, works 2 s a message and deletes">"+ Worker"</button>
                <button data-testid=format!("{id}-receive") on:click=receive title="ReceiveMessage, up to 10, without deleting">"Receive"</button>
                <Show when=is_dlq>
                    <button data-testid=format!("queue-{name}-redrive") on:click=redrive title="StartMessageMoveTask back to the source queues">"Redrive"</button>
                </Show>
                <button class="quiet" data-testid=format!("{id}-purge") on:click=purge title="PurgeQueue">"Purge"</button>
            </div>
        </article>
    }
}

/// The workers consuming from one queue, with their controls.
#[component]
fn Workers(queue: String) -> impl IntoView {
    let ctx = use_ctx();
    let workers = Memo::new(move |_| {
        ctx.snapshot.with(|s| s.world.workers.iter().filter(|w| w.queue == queue).cloned().collect::<Vec<_>>())
    });
    view! {
        <ul class="workers">
            <For each=move || workers.get() key=|w| (w.name.clone(), w.state, w.held.clone(), w.processing_time, w.succeeded, w.failed) let:w>
                <WorkerRow w=w />
            </For>
        </ul>
    }
}

#[component]
fn WorkerRow(w: engine::world::WorkerView) -> impl IntoView {
    let ctx = use_ctx();
    let id = format!("worker-{}", w.name);
    let name = w.name.clone();
    // The control that takes the pressed one's place gets the focus: Crash ↔ Restart,
    // Pause ↔ Resume; after × the next worker's ×, else the queue's "+ Worker".
    let (queue, me) = (w.queue.clone(), w.name.clone());
    let act = move |action: &'static str| {
        let (name, queue, me) = (name.clone(), queue.clone(), me.clone());
        move |_| {
            let next = match action {
                "CrashWorker" => vec![format!("worker-{me}-restart")],
                "RestartWorker" => vec![format!("worker-{me}-crash")],
                "PauseWorker" => vec![format!("worker-{me}-resume")],
                "ResumeWorker" => vec![format!("worker-{me}-pause")],
                _ => {
                    let after = next_worker(&ctx, &me);
                    after
                        .map(|n| format!("worker-{n}-remove"))
                        .into_iter()
                        .chain([format!("queue-{queue}-add-worker")])
                        .collect()
                }
            };
            if ctx.act(|p| p.worker(action, &name)).is_some() {
                refocus(next);
            }
        }
    };
    let who = w.name.clone();
    let select = move |_| ctx.selected.set(Some(Selection::Worker(who.clone())));
    let crashed = w.state == WorkerStatus::Crashed;
    let paused = w.state == WorkerStatus::Paused;
    let slow = w.processing_time == DurationMs::fixed(20_000);
    let slow_name = w.name.clone();
    let slow_id = format!("{id}-slow");
    let toggle_slow = move |_| {
        if ctx.act(|p| p.set_worker_slow(&slow_name, !slow)).is_some() {
            refocus(vec![slow_id.clone()]);
        }
    };
    let held = if w.held.is_empty() {
        String::new()
    } else {
        format!(" holding {}", w.held.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", "))
    };
    view! {
        <li class="worker" class:crashed=crashed class:paused=paused data-testid=id.clone()>
            <span class="state" title=w.state.as_str()>{state_glyph(ConsumerState::Worker(w.state))}</span>
            <button class="who link" on:click=select aria-label=format!("Inspect worker {}", w.name)>{w.name.clone()}</button>
            <span class="what">{format!("{}{held} · {} ok, {} failed", w.state.as_str().to_lowercase(), w.succeeded, w.failed)}</span>
            <span class="buttons">
                {if crashed {
                    view! { <button data-testid=format!("{id}-restart") on:click=act("RestartWorker")>"Restart"</button> }.into_any()
                } else {
                    view! { <button data-testid=format!("{id}-crash") class="danger" on:click=act("CrashWorker") title="The worker dies holding its messages">"Crash"</button> }.into_any()
                }}
                {if paused {
                    view! { <button data-testid=format!("{id}-resume") on:click=act("ResumeWorker")>"Resume"</button> }.into_any()
                } else {
                    view! { <button data-testid=format!("{id}-pause") on:click=act("PauseWorker") disabled=crashed>"Pause"</button> }.into_any()
                }}
                <button data-testid=format!("{id}-slow") aria-pressed=slow.to_string() on:click=toggle_slow disabled=crashed
                    title="Slow down: 20 s a message instead of 2 s">{if slow { "Speed up" } else { "Slow" }}</button>
                <button data-testid=format!("{id}-remove") class="quiet" on:click=act("DeleteWorker") aria-label=format!("Remove {}", w.name)>"×"</button>
            </span>
        </li>
    }
}

/// The worker after `name` on its queue (or before it, for the last one).
fn next_worker(ctx: &super::Ctx, name: &str) -> Option<String> {
    ctx.snapshot.with_untracked(|s| {
        let me = s.world.workers.iter().find(|w| w.name == name)?;
        let same: Vec<&str> = s.world.workers.iter().filter(|w| w.queue == me.queue).map(|w| w.name.as_str()).collect();
        let i = same.iter().position(|n| *n == name)?;
        same.get(i + 1).or_else(|| i.checked_sub(1).and_then(|j| same.get(j))).map(|n| n.to_string())
    })
}

/// Once the page has redrawn, moves the keyboard focus to the first of `testids` on the page,
/// if the focus was lost with the pressed control (a button replaced by another).
fn refocus(testids: Vec<String>) {
    set_timeout(
        move || {
            let doc = document();
            let lost = doc.active_element().is_none_or(|el| el.tag_name() == "BODY");
            if !lost {
                return;
            }
            let found =
                testids.iter().find_map(|t| doc.query_selector(&format!("[data-testid=\"{t}\"]")).ok().flatten());
            if let Some(el) = found.and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok()) {
                el.focus().ok();
            }
        },
        std::time::Duration::ZERO,
    );
}

/// A queue's view without its messages: what its card shows around the chips (the chips read
/// the messages themselves), so a tick of the clock copies each message once, not twice.
fn without_messages(q: &QueueView) -> QueueView {
    QueueView {
        name: q.name.clone(),
        url: q.url.clone(),
        arn: q.arn.clone(),
        fifo: q.fifo,
        visible: q.visible,
        in_flight: q.in_flight,
        delayed: q.delayed,
        oldest_age_ms: q.oldest_age_ms,
        visibility_timeout: q.visibility_timeout,
        retention_period: q.retention_period,
        delay_seconds: q.delay_seconds,
        dead_letter_queue: q.dead_letter_queue.clone(),
        max_receive_count: q.max_receive_count,
        dead_letter_sources: q.dead_letter_sources.clone(),
        subscription_dead_letter_sources: q.subscription_dead_letter_sources.clone(),
        stats: q.stats.clone(),
        messages: Vec::new(),
    }
}
