//! Inside each queue: every message as a chip — visible, in flight with a countdown ring for its
//! visibility timer, or delayed — with its receive count against maxReceiveCount; the counts;
//! and the queue's actions and settings.

use super::{esc, use_ctx, Selection};
use engine::snapshot::{MessageView, QueueView};
use engine::sqs::MsgState;
use engine::SimTime;
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
                        "<li{}><strong>{}: {} {}</strong><span> for {} events</span>",
                        if j.duplicates != 0 { " class=\"dup\"" } else { "" },
                        esc(&j.job), j.side_effects, esc(&j.effect), j.distinct_events
                    );
                    if j.duplicates != 0 {
                        li += &format!("<span class=\"warn\"> · {} duplicate</span>", j.duplicates);
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
            <Chips q=q queue=name.clone() />
            <p class="meta">
                {move || q.with(|q| q.as_ref().map(|q| {
                    let mut parts = vec![format!("visibility {} s", q.visibility_timeout)];
                    if let (Some(n), Some(d)) = (q.max_receive_count, &q.dead_letter_queue) {
                        parts.push(format!("to {d} after {n} receives"));
                    }
                    if q.oldest_age_ms > 0 {
                        parts.push(format!("oldest {}", SimTime(q.oldest_age_ms)));
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
            <For each=move || workers.get() key=|w| (w.name.clone(), w.state, w.held.clone(), w.processing_time.clone(), w.succeeded, w.failed) let:w>
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
    let act = move |action: &'static str| {
        let name = name.clone();
        move |_| {
            ctx.act(|p| p.worker(action, &name));
        }
    };
    let who = w.name.clone();
    let select = move |_| ctx.selected.set(Some(Selection::Worker(who.clone())));
    let crashed = w.state == "Crashed";
    let paused = w.state == "Paused";
    let slow = w.processing_time == "20000ms";
    let slow_name = w.name.clone();
    let toggle_slow = move |_| {
        ctx.act(|p| p.set_worker_slow(&slow_name, !slow));
    };
    let held = if w.held.is_empty() {
        String::new()
    } else {
        format!(" holding {}", w.held.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", "))
    };
    view! {
        <li class="worker" class:crashed=crashed class:paused=paused data-testid=id.clone()>
            <span class="state" title=w.state>{super::topology::state_glyph(w.state)}</span>
            <button class="who link" on:click=select aria-label=format!("Inspect worker {}", w.name)>{w.name.clone()}</button>
            <span class="what">{format!("{}{held} · {} ok, {} failed", w.state.to_lowercase(), w.succeeded, w.failed)}</span>
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
        stats: q.stats.clone(),
        messages: Vec::new(),
    }
}

#[component]
fn Chips(q: Memo<Option<QueueView>>, queue: String) -> impl IntoView {
    let ctx = use_ctx();
    let now = Memo::new(move |_| ctx.snapshot.with(|s| s.now));
    // Only what a chip shows: a chip is rebuilt when its message changes, not on every tick.
    let messages = Memo::new(move |_| {
        ctx.snapshot.with(|s| s.queues.iter().find(|q| q.name == queue).map(|q| q.messages.clone()).unwrap_or_default())
    });
    let meta = Memo::new(move |_| {
        q.with(|q| q.as_ref().map(|q| (q.name.clone(), q.max_receive_count, q.visible + q.in_flight + q.delayed)))
    });
    let name = move || meta.with(|m| m.as_ref().map(|m| m.0.clone()).unwrap_or_default());
    let more = move || {
        let shown = messages.with(Vec::len);
        meta.with(|m| m.as_ref().map_or(0, |m| m.2)).saturating_sub(shown)
    };
    let has_more = move || more() != 0;
    view! {
        <ul class="chips" aria-label=move || format!("Messages in {}", name())>
            <For each=move || messages.get() key=|m| (m.copy, m.receive_count, m.state, m.body.clone()) let:m>
                <Chip m=m queue=name() max=meta.with_untracked(|m| m.as_ref().and_then(|m| m.1)) now=now />
            </For>
        </ul>
        <Show when=has_more>
            <p class="more">{move || format!("and {} more", more())}</p>
        </Show>
    }
}

/// The percentage of a timer left at `now`, to a tenth: the ring's dash length out of 100.
fn remaining(since: SimTime, until: SimTime, now: SimTime) -> String {
    let total = until.ms().saturating_sub(since.ms()).max(1);
    let permille = (until.ms().saturating_sub(now.ms()) * 1000 / total).min(1000);
    format!("{}.{}", permille / 10, permille % 10)
}

#[component]
fn Chip(m: MessageView, queue: String, max: Option<u32>, now: Memo<SimTime>) -> impl IntoView {
    let ctx = use_ctx();
    let (class, label) = match m.state {
        MsgState::Visible => ("chip visible", "visible"),
        MsgState::InFlight { .. } => ("chip inflight", "in flight"),
        MsgState::Delayed { .. } => ("chip delayed", "delayed"),
    };
    let timer = match m.state {
        MsgState::InFlight { since, until } | MsgState::Delayed { since, until } => Some((since, until)),
        MsgState::Visible => None,
    };
    let order = serde_json::from_str::<serde_json::Value>(&m.body).ok().and_then(|v| {
        v.get("order_id").map(|o| o.to_string()).or_else(|| {
            v.get("Message")
                .and_then(|m| m.as_str())
                .and_then(|m| serde_json::from_str::<serde_json::Value>(m).ok())
                .and_then(|v| v.get("order_id").map(|o| o.to_string()))
        })
    });
    let count = match max {
        Some(max) => format!("{}/{max}", m.receive_count),
        None => m.receive_count.to_string(),
    };
    let aria = format!(
        "{} {label}{}, received {} times{}",
        m.message_id,
        order.as_ref().map(|o| format!(" for order {o}")).unwrap_or_default(),
        m.receive_count,
        if m.duplicate { ", a duplicate copy" } else { "" }
    );
    let copy = m.copy;
    let selected = {
        let queue = queue.clone();
        move || ctx.selected.get() == Some(Selection::Message { queue: queue.clone(), copy })
    };
    let select = move |_| ctx.selected.set(Some(Selection::Message { queue: queue.clone(), copy }));
    view! {
        <li>
            <button class=class class:selected=selected class:duplicate=m.duplicate aria-label=aria on:click=select
                title=move || timer.map(|(_, until)| format!("until {}", until)).unwrap_or_default()>
                <svg class="ring" viewBox="0 0 20 20" aria-hidden="true">
                    <circle class="track" cx="10" cy="10" r="7" />
                    {timer.map(|(since, until)| view! {
                        <circle class="left" cx="10" cy="10" r="7" pathLength="100"
                            stroke-dasharray=move || format!("{} 100", remaining(since, until, now.get())) />
                    })}
                </svg>
                <span class="id">{m.message_id.to_string()}</span>
                {order.map(|o| view! { <span class="order">{format!("#{o}")}</span> })}
                <span class="rc" title="receive count">{count}</span>
            </button>
        </li>
    }
}
