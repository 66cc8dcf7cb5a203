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
    let jobs = Memo::new(move |_| ctx.shown(|s| s.world.jobs.clone()));
    let line = |j: engine::world::JobView| {
        let duplicates = (j.duplicates != 0).then(|| crate::format::count(j.duplicates, "duplicate", "duplicates"));
        let skipped: Vec<String> = skips(&j).collect();
        // Which events were done more than once, and how often: "evt-4418 × 3".
        let repeated = (!j.repeated.is_empty()).then(|| {
            // The engine lists one more than is shown: a last one says there are more.
            let shown = engine::world::REPEATED_LISTED - 1;
            let each: Vec<String> = j.repeated.iter().take(shown).map(|(id, n)| format!("{id} × {n}")).collect();
            let more = if j.repeated.len() > shown { ", …" } else { "" };
            format!(" ({}{more})", each.join(", "))
        });
        view! {
            <li class:dup=j.duplicates != 0>
                <strong><bdi>{j.job.clone()}</bdi>": "<bdi>{j.effect.clone()}</bdi>" × "{j.side_effects}</strong>
                <span>" for "{crate::format::count(j.distinct_events, "event", "events")}</span>
                {duplicates.map(|d| view! { <span class="warn">" · "{d}{repeated}</span> })}
                {skipped.into_iter().map(|s| view! { <span class="ok">" · "{s}</span> }).collect_view()}
            </li>
        }
    };
    view! {
        <section class="effects" aria-label="Side effects" data-testid="side-effects" hidden=move || jobs.with(Vec::is_empty)>
            <h2>"Side effects"</h2>
            <ul>{move || jobs.get().into_iter().map(line).collect_view()}</ul>
        </section>
    }
}

/// What a job's consumer left undone, and why: an event it had done already, or a version older
/// than the one it holds (latest-version-wins), which it never did.
pub fn skips(j: &engine::world::JobView) -> impl Iterator<Item = String> {
    let done = j.skipped - j.stale;
    [(done, "already done"), (j.stale, "stale")]
        .into_iter()
        .filter(|&(n, _)| n != 0)
        .map(|(n, why)| format!("{n} skipped as {why}"))
}

#[component]
pub fn Queues() -> impl IntoView {
    let ctx = use_ctx();
    // In a lesson step that draws one design (its `stage`), the cards are that design's queues.
    let names = Memo::new(move |_| {
        ctx.stage.with(|stage| {
            ctx.snapshot.with(|s| {
                let staged =
                    stage.as_ref().and_then(|st| super::topology::staged_parts(s, st)).map(|(_, _, keep)| keep);
                let shown = |q: &&QueueView| staged.as_ref().is_none_or(|k| k.contains(&q.name));
                s.queues.iter().filter(shown).map(|q| q.name.clone()).collect::<Vec<_>>()
            })
        })
    });
    view! {
        <section class="queues" aria-label="Queues">
            // Each card follows its own queue; a card comes and goes with its queue.
            <For each=move || names.get() key=|name| name.clone() let:name>
                <QueueCard name=name />
            </For>
        </section>
    }
}

/// How many workers a queue card lists before "Show all N workers".
const FEW_WORKERS: usize = 6;

/// A queue card: its header and counts, its chips, its settings line, workers and actions.
#[component]
fn QueueCard(name: String) -> impl IntoView {
    let ctx = use_ctx();
    let n = name.clone();
    let q = Memo::new(move |_| ctx.shown(|s| s.queues.iter().find(|q| q.name == n).map(without_messages)));
    let n = name.clone();
    let workers = Memo::new(move |_| {
        ctx.shown(|s| s.world.workers.iter().filter(|w| w.queue == n).map(|w| w.name.clone()).collect::<Vec<_>>())
    });
    // Past a few workers the card lists the first ones and offers the rest (a lesson with 40
    // workers a queue made a page 8,700 px long).
    let all_workers = RwSignal::new(false);
    let shown_workers = move || {
        let mut w = workers.get();
        if !all_workers.get() {
            w.truncate(FEW_WORKERS);
        }
        w
    };
    let id = format!("queue-{name}");
    let read = move |f: fn(&QueueView) -> usize| move || q.with(|q| q.as_ref().map_or(0, f));
    let is_dlq = move || q.with(|q| q.as_ref().is_some_and(|q| !q.dead_letter_sources.is_empty()));
    let kind = move || {
        q.with(|q| match q {
            Some(q) if !q.dead_letter_sources.is_empty() => "dead-letter queue",
            Some(q) if q.fifo => "FIFO queue",
            _ => "queue",
        })
    };
    let meta = move || {
        q.with(|q| {
            let Some(q) = q else { return String::new() };
            let mut meta =
                vec![format!("visibility {}", crate::format::duration(u64::from(q.visibility_timeout) * 1_000))];
            if let (Some(n), Some(d)) = (q.max_receive_count, &q.dead_letter_queue) {
                meta.push(format!("to {d} after {}", crate::format::count(n, "receive", "receives")));
            }
            meta.join(" · ")
        })
    };
    // The oldest message's age follows the time to read (`Ctx::clock`), the rest the story. The
    // clock outlives the card: a tick that lands as the card goes (another scenario picked)
    // finds its queue gone and writes nothing.
    let age = move || {
        let now = ctx.clock.get();
        q.try_with(|q| q.as_ref().map(|q| age(q, now))).flatten().unwrap_or_default()
    };
    let add_worker = NodeRef::<leptos::html::Button>::new();
    let (queue, select) = (StoredValue::new(name.clone()), name.clone());
    let on = move |f: fn(&mut crate::Playground, &str) -> Result<serde_json::Value, engine::ApiError>| {
        move |_| {
            queue.with_value(|q| ctx.act(|p| f(p, q)));
        }
    };
    let redrive = move |_| {
        if let Some(dlq) = q.get_untracked() {
            ctx.act(|p| p.redrive(&dlq));
        }
    };
    let count = move |class: &'static str, label: &'static str, test: &'static str, f: fn(&QueueView) -> usize| {
        view! {
            <div class=format!("count {class}")><dt>{label}</dt><dd data-testid=format!("{}-{test}", id_of(queue))>{read(f)}</dd></div>
        }
    };
    view! {
        <article class="queue-card" class:dlq=is_dlq data-testid=id.clone()>
            <header>
                <h2><button class="link" data-testid=format!("{id}-name") dir="auto"
                    on:click=move |_| ctx.selected.set(Some(Selection::Queue(select.clone())))>{name.clone()}</button></h2>
                <small>{kind}</small>
            </header>
            <dl class="counts">
                {count("visible", "visible", "visible", |q| q.visible)}
                {count("inflight", "in flight", "inflight", |q| q.in_flight)}
                {count("delayed", "delayed", "delayed", |q| q.delayed)}
            </dl>
            <super::chips::Chips q=q queue=name.clone() />
            <p class="meta">{meta}<span class="age">{age}</span></p>
            <ul class="workers">
                <For each=move || shown_workers() key=|w| w.clone() let:worker>
                    <WorkerRow name=worker add_worker=add_worker />
                </For>
            </ul>
            <Show when=move || workers.with(|w| w.len() > FEW_WORKERS)>
                <button class="link more-workers" data-testid=format!("{}-all-workers", id_of(queue))
                    aria-expanded=move || all_workers.get().to_string()
                    on:click=move |_| all_workers.update(|a| *a = !*a)>
                    {move || if all_workers.get() {
                        "Show fewer workers".to_string()
                    } else {
                        format!("Show all {} workers", workers.with(Vec::len))
                    }}
                </button>
            </Show>
            <div class="actions">
                <button data-testid=format!("{id}-add-worker") node_ref=add_worker on:click=on(|p, q| p.add_worker(q))
                    title="CreateWorker: a competing consumer that long-polls, works 2 s a message and deletes">"+ Worker"</button>
                <button data-testid=format!("{id}-receive") on:click=on(|p, q| p.receive(q))
                    title="ReceiveMessage, up to 10, without deleting">"Receive"</button>
                <Show when=is_dlq>
                    <button data-testid=format!("{}-redrive", id_of(queue)) on:click=redrive
                        title="StartMessageMoveTask back to the source queues">"Redrive"</button>
                </Show>
                <button class="quiet" data-testid=format!("{id}-purge") on:click=on(|p, q| p.purge(q)) title="PurgeQueue">"Purge"</button>
            </div>
        </article>
    }
}

/// A card's test id stem, `queue-<name>`.
fn id_of(queue: StoredValue<String>) -> String {
    queue.with_value(|q| format!("queue-{q}"))
}

/// The oldest message's age at `now`, at the end of the settings line.
fn age(q: &QueueView, now: engine::SimTime) -> String {
    let age = q.oldest_age_at(now);
    if age > 0 {
        format!(" · oldest message {} old", crate::format::duration(age))
    } else {
        String::new()
    }
}

/// A worker's controls, each test id `{id}-crash`/`-restart`, `-pause`/`-resume` and `-slow`.
/// A control whose action turns it into its opposite (Crash and Restart, Pause and Resume, Slow
/// down and Speed up) is one button that changes its label, so the keyboard stays on it. Used by the
/// worker's row on its queue's card and by the inspector.
#[component]
pub(crate) fn WorkerButtons(name: String, id: String) -> impl IntoView {
    let ctx = use_ctx();
    let n = name.clone();
    let w = Memo::new(move |_| {
        ctx.shown(|s| s.world.workers.iter().find(|w| w.name == n).map(|w| (w.state, w.processing_time)))
    });
    let state = move || w.with(|w| w.map_or(WorkerStatus::Stopped, |w| w.0));
    let crashed = move || state() == WorkerStatus::Crashed;
    let paused = move || state() == WorkerStatus::Paused;
    let slow = move || w.with(|w| w.is_some_and(|w| w.1 == DurationMs::fixed(20_000)));
    let me = StoredValue::new(name);
    let run = move |action: &'static str| me.with_value(|n| ctx.act(|p| p.worker(action, n)).is_some());
    let life = move |_| {
        run(if crashed() { "RestartWorker" } else { "CrashWorker" });
    };
    let pause = move |_| {
        run(if paused() { "ResumeWorker" } else { "PauseWorker" });
    };
    let speed = move |_| {
        let to = !slow();
        me.with_value(|n| ctx.act(|p| p.set_worker_slow(n, to)));
    };
    let (i1, i2) = (id.clone(), id.clone());
    view! {
        <button class:danger=move || !crashed() on:click=life
            data-testid=move || format!("{i1}-{}", if crashed() { "restart" } else { "crash" })
            title=move || if crashed() { "" } else { "The worker dies holding its messages" }>
            {move || if crashed() { "Restart" } else { "Crash" }}
        </button>
        <button on:click=pause disabled=move || crashed() && !paused()
            data-testid=move || format!("{i2}-{}", if paused() { "resume" } else { "pause" })>
            {move || if paused() { "Resume" } else { "Pause" }}
        </button>
        <button data-testid=format!("{id}-slow") on:click=speed disabled=crashed
            title=move || if slow() { "Back to 2 s a message" } else { "20 s a message instead of 2 s" }>
            {move || if slow() { "Speed up" } else { "Slow down" }}
        </button>
    }
}

/// One worker with its controls; after ×, the focus goes to the next worker's × (or the
/// queue's "+ Worker").
#[component]
fn WorkerRow(name: String, add_worker: NodeRef<leptos::html::Button>) -> impl IntoView {
    let ctx = use_ctx();
    let n = name.clone();
    let w = Memo::new(move |_| ctx.shown(|s| s.world.workers.iter().find(|w| w.name == n).cloned()));
    let state = move || w.with(|w| w.as_ref().map_or(WorkerStatus::Stopped, |w| w.state));
    let crashed = move || state() == WorkerStatus::Crashed;
    let paused = move || state() == WorkerStatus::Paused;
    let what = move || {
        w.with(|w| {
            let Some(w) = w else { return String::new() };
            let held = if w.held.is_empty() {
                String::new()
            } else {
                format!(" holding {}", w.held.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", "))
            };
            // A crash shows in the counts too: a worker restarted at once looks waiting again.
            let crashes = if w.crashes == 0 {
                String::new()
            } else {
                format!(", {}", crate::format::count(w.crashes, "crash", "crashes"))
            };
            format!("{}{held} · {} ok, {} failed{crashes}", w.state.as_str().to_lowercase(), w.succeeded, w.failed)
        })
    };
    // A poison rule (a playground actor's own setting) is said on its row, so that a learner
    // sees it go when the rule is removed.
    let rule = move || w.with(|w| w.as_ref().and_then(|w| w.fails_on.clone()));
    let me = StoredValue::new(name.clone());
    let row = NodeRef::<leptos::html::Li>::new();
    let remove = move |_| {
        // The × of the worker after this one (or before it), else the queue's "+ Worker".
        let next = row.get_untracked().and_then(|li| {
            let sibling = li.next_element_sibling().or_else(|| li.previous_element_sibling())?;
            sibling.query_selector("button.remove").ok().flatten()
        });
        if me.with_value(|n| ctx.act(|p| p.worker("DeleteWorker", n)).is_some()) {
            request_animation_frame(move || {
                let target = next.and_then(|b| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(b).ok());
                match target.filter(|t| t.is_connected()) {
                    Some(t) => drop(t.focus()),
                    None => {
                        if let Some(b) = add_worker.get_untracked() {
                            let _ = b.focus();
                        }
                    }
                }
            });
        }
    };
    let id = format!("worker-{name}");
    let who = name.clone();
    view! {
        <li class="worker" class:crashed=crashed class:paused=paused data-testid=id.clone() node_ref=row>
            <span class="state" title=move || state().as_str()>{move || state_glyph(ConsumerState::Worker(state()))}</span>
            <button class="who link" dir="auto" aria-label=format!("Inspect worker {name}")
                on:click=move |_| ctx.selected.set(Some(Selection::Worker(who.clone())))>{name.clone()}</button>
            <span class="what" dir="auto">{what}</span>
            {move || rule().map(|r| view! {
                <span class="rule" dir="auto" data-testid=format!("worker-{}-rule", me.get_value())>
                    "Poison rule: fails every message where " {r}
                </span>
            })}
            <span class="buttons">
                <WorkerButtons name=name.clone() id=id.clone() />
                <button class="quiet remove" data-testid=format!("{id}-remove") on:click=remove
                    aria-label=format!("Remove {name}")>"×"</button>
            </span>
        </li>
    }
}

/// A queue's view without its messages: what its card shows around the chips (the chips read
/// the messages themselves), so a tick of the clock copies each message once, not twice.
pub(crate) fn without_messages(q: &QueueView) -> QueueView {
    QueueView {
        name: q.name.clone(),
        url: q.url.clone(),
        arn: q.arn.clone(),
        fifo: q.fifo,
        visible: q.visible,
        in_flight: q.in_flight,
        delayed: q.delayed,
        oldest_age_ms: q.oldest_age_ms,
        oldest_sent_at: q.oldest_sent_at,
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
