//! Inside each queue: its counts, its messages as chips (see `chips`), its workers, and the
//! queue's actions and settings; and the side effects per job.

use super::topology::{state_glyph, ConsumerState};
use super::{draw, esc, use_ctx, Selection};
use engine::snapshot::QueueView;
use engine::world::{DurationMs, WorkerStatus, WorkerView};
use leptos::prelude::*;

/// Side effects per job: what the learner sees of duplicates (two slips for one order).
#[component]
pub fn Effects() -> impl IntoView {
    let ctx = use_ctx();
    let jobs = Memo::new(move |_| ctx.shown(|s| s.world.jobs.clone()));
    view! {
        <section class="effects" aria-label="Side effects" data-testid="side-effects" hidden=move || jobs.with(Vec::is_empty)>
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
                    for skip in skips(j) {
                        li += &format!("<span class=\"ok\"> · {skip}</span>");
                    }
                    li + "</li>"
                }).collect::<String>())></ul>
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
    let names = Memo::new(move |_| ctx.snapshot.with(|s| s.queues.iter().map(|q| q.name.clone()).collect::<Vec<_>>()));
    view! {
        <section class="queues" aria-label="Queues">
            // Drawn anew when a queue comes or goes (rare); each card follows its own queue.
            {move || names.get().into_iter().map(|name| view! { <QueueCard name=name /> }).collect_view()}
        </section>
    }
}

/// What a queue card's buttons ask for, from their `data-act` (one click handler per card).
fn act(ctx: super::Ctx, queue: &str, what: &str) {
    // A worker's name comes last: it may hold any character but never starts the act.
    let (kind, rest) = what.split_once(':').unwrap_or((what, ""));
    let (action, me) = rest.split_once(':').unwrap_or(("", rest));
    match kind {
        "queue" => ctx.selected.set(Some(Selection::Queue(queue.to_string()))),
        "add-worker" => drop(ctx.act(|p| p.add_worker(queue))),
        "receive" => drop(ctx.act(|p| p.receive(queue))),
        "purge" => drop(ctx.act(|p| p.purge(queue))),
        "redrive" => {
            let dlq = ctx.snapshot.with_untracked(|s| s.queues.iter().find(|q| q.name == queue).map(without_messages));
            if let Some(dlq) = dlq {
                ctx.act(|p| p.redrive(&dlq));
            }
        }
        "who" => ctx.selected.set(Some(Selection::Worker(rest.to_string()))),
        "slow" => {
            let w = rest;
            let slow = ctx.snapshot.with_untracked(|s| {
                s.world.workers.iter().any(|x| x.name == w && x.processing_time == DurationMs::fixed(20_000))
            });
            if ctx.act(|p| p.set_worker_slow(w, !slow)).is_some() {
                refocus(vec![format!("worker-{w}-slow")]);
            }
        }
        "w" => {
            // The control that takes the pressed one's place gets the focus: Crash ↔ Restart,
            // Pause ↔ Resume; after × the next worker's ×, else the queue's "+ Worker".
            let next = match action {
                "CrashWorker" => vec![format!("worker-{me}-restart")],
                "RestartWorker" => vec![format!("worker-{me}-crash")],
                "PauseWorker" => vec![format!("worker-{me}-resume")],
                "ResumeWorker" => vec![format!("worker-{me}-pause")],
                _ => next_worker(&ctx, me)
                    .map(|n| format!("worker-{n}-remove"))
                    .into_iter()
                    .chain([format!("queue-{queue}-add-worker")])
                    .collect(),
            };
            if ctx.act(|p| p.worker(action, me)).is_some() {
                refocus(next);
            }
        }
        _ => {}
    }
}

/// The card's header and counts, as markup.
fn head(id: &str, q: &QueueView) -> String {
    let kind = if !q.dead_letter_sources.is_empty() {
        "dead-letter queue"
    } else if q.fifo {
        "FIFO queue"
    } else {
        "queue"
    };
    let count = |class: &str, label: &str, test: &str, n: usize| {
        format!("<div class=\"count {class}\"><dt>{label}</dt><dd data-testid=\"{id}-{test}\">{n}</dd></div>")
    };
    format!(
        "<header><h2><button class=\"link\" data-act=\"queue\" data-testid=\"{id}-name\">{}</button></h2><small>{kind}</small></header>\
         <dl class=\"counts\">{}{}{}</dl>",
        esc(&q.name),
        count("visible", "visible", "visible", q.visible),
        count("inflight", "in flight", "inflight", q.in_flight),
        count("delayed", "delayed", "delayed", q.delayed),
    )
}

/// The card below its chips: the settings line, the workers and the queue's actions, as markup.
fn rest(id: &str, q: &QueueView, workers: &[WorkerView]) -> String {
    let mut meta = vec![format!("visibility {}", crate::format::duration(u64::from(q.visibility_timeout) * 1_000))];
    if let (Some(n), Some(d)) = (q.max_receive_count, &q.dead_letter_queue) {
        meta.push(format!("to {} after {}", esc(d), crate::format::count(n, "receive", "receives")));
    }
    let redrive = if q.dead_letter_sources.is_empty() {
        String::new()
    } else {
        format!("<button data-testid=\"{id}-redrive\" data-act=\"redrive\" title=\"StartMessageMoveTask back to the source queues\">Redrive</button>")
    };
    format!(
        "<p class=\"meta\">{meta}<span class=\"age\"></span></p><ul class=\"workers\">{workers}</ul><div class=\"actions\">\
         <button data-testid=\"{id}-add-worker\" data-act=\"add-worker\" title=\"CreateWorker: a competing consumer that long-polls, works 2 s a message and deletes\">+ Worker</button>\
         <button data-testid=\"{id}-receive\" data-act=\"receive\" title=\"ReceiveMessage, up to 10, without deleting\">Receive</button>{redrive}\
         <button class=\"quiet\" data-testid=\"{id}-purge\" data-act=\"purge\" title=\"PurgeQueue\">Purge</button></div>",
        meta = meta.join(" · "),
        workers = workers.iter().map(worker_row).collect::<String>(),
    )
}

/// The oldest message's age at `now`, at the end of the settings line: it changes as the clock
/// runs, so it is written on its own, not with the line's markup.
fn age(q: &QueueView, now: engine::SimTime) -> String {
    let age = q.oldest_age_at(now);
    if age > 0 {
        format!(" · oldest message {} old", crate::format::duration(age))
    } else {
        String::new()
    }
}

/// One worker with its controls, as markup.
fn worker_row(w: &WorkerView) -> String {
    let (crashed, paused) = (w.state == WorkerStatus::Crashed, w.state == WorkerStatus::Paused);
    let slow = w.processing_time == DurationMs::fixed(20_000);
    let name = esc(&w.name);
    let id = format!("worker-{name}");
    let off = if crashed { " disabled" } else { "" };
    let held = if w.held.is_empty() {
        String::new()
    } else {
        format!(" holding {}", w.held.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", "))
    };
    let life = if crashed {
        format!("<button data-testid=\"{id}-restart\" data-act=\"w:RestartWorker:{name}\">Restart</button>")
    } else {
        format!("<button data-testid=\"{id}-crash\" class=\"danger\" data-act=\"w:CrashWorker:{name}\" title=\"The worker dies holding its messages\">Crash</button>")
    };
    let pause = if paused {
        format!("<button data-testid=\"{id}-resume\" data-act=\"w:ResumeWorker:{name}\">Resume</button>")
    } else {
        format!("<button data-testid=\"{id}-pause\" data-act=\"w:PauseWorker:{name}\"{off}>Pause</button>")
    };
    format!(
        "<li class=\"worker{}{}\" data-testid=\"{id}\"><span class=\"state\" title=\"{state}\">{glyph}</span>\
         <button class=\"who link\" data-act=\"who:{name}\" aria-label=\"Inspect worker {name}\">{name}</button>\
         <span class=\"what\">{what}</span><span class=\"buttons\">{life}{pause}\
         <button data-testid=\"{id}-slow\" data-act=\"slow:{name}\" aria-pressed=\"{slow}\" title=\"Slow down: 20 s a message instead of 2 s\"{off}>{speed}</button>\
         <button data-testid=\"{id}-remove\" class=\"quiet\" data-act=\"w:DeleteWorker:{name}\" aria-label=\"Remove {name}\">×</button></span></li>",
        if crashed { " crashed" } else { "" },
        if paused { " paused" } else { "" },
        state = w.state.as_str(),
        glyph = state_glyph(ConsumerState::Worker(w.state)),
        what = esc(&format!("{}{held} · {} ok, {} failed", w.state.as_str().to_lowercase(), w.succeeded, w.failed)),
        speed = if slow { "Speed up" } else { "Slow" },
    )
}

/// A queue card: its header and counts, its chips, its settings line, workers and actions. The
/// parts around the chips are markup, redrawn when their text changes; one click handler
/// reads the buttons' `data-act`.
#[component]
fn QueueCard(name: String) -> impl IntoView {
    let ctx = use_ctx();
    let n = name.clone();
    let q = Memo::new(move |_| ctx.shown(|s| s.queues.iter().find(|q| q.name == n).map(without_messages)));
    let n = name.clone();
    let workers =
        Memo::new(move |_| ctx.shown(|s| s.world.workers.iter().filter(|w| w.queue == n).cloned().collect::<Vec<_>>()));
    let id = format!("queue-{}", esc(&name));
    let (head_el, rest_el) = (NodeRef::<leptos::html::Div>::new(), NodeRef::<leptos::html::Div>::new());
    let (i, j) = (id.clone(), id.clone());
    let head_html = move || q.with(|q| q.as_ref().map(|q| head(&i, q)).unwrap_or_default());
    let rest_html = move || q.with(|q| workers.with(|w| q.as_ref().map(|q| rest(&j, q, w)).unwrap_or_default()));
    // Drawn with the card at once, then again only where its text changes.
    let (first_head, first_rest) = (untrack(head_html.clone()), untrack(rest_html.clone()));
    let (mut head_last, mut rest_last) = (first_head.clone(), first_rest.clone());
    Effect::new(move |_| {
        let html = head_html();
        if let Some(el) = head_el.get() {
            draw(&el, &html, &mut head_last);
        }
    });
    // The oldest message's age follows the clock: written into its span as the clock moves
    // (`Ctx::clock`), the rest of the card only where its text changed.
    let write_age = move |el: &web_sys::HtmlDivElement| {
        let age = q.with(|q| q.as_ref().map(|q| age(q, ctx.clock.get())).unwrap_or_default());
        if let Ok(Some(span)) = el.query_selector(".age") {
            if span.text_content().as_deref() != Some(age.as_str()) {
                span.set_text_content(Some(&age));
            }
        }
    };
    Effect::new(move |_| {
        let html = rest_html();
        let Some(el) = rest_el.get() else { return };
        draw(&el, &html, &mut rest_last);
        write_age(&el);
    });
    let is_dlq = move || q.with(|q| q.as_ref().is_some_and(|q| !q.dead_letter_sources.is_empty()));
    let on_click = {
        let name = name.clone();
        move |ev: leptos::ev::MouseEvent| {
            let target = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
            let button = target.and_then(|t| t.closest("[data-act]").ok().flatten());
            if let Some(what) =
                button.filter(|b| !b.has_attribute("disabled")).and_then(|b| b.get_attribute("data-act"))
            {
                act(ctx, &name, &what);
            }
        }
    };
    view! {
        <article class="queue-card" class:dlq=is_dlq data-testid=id on:click=on_click>
            <div class="part" node_ref=head_el inner_html=first_head></div>
            <super::chips::Chips q=q queue=name />
            <div class="part" node_ref=rest_el inner_html=first_rest></div>
        </article>
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
