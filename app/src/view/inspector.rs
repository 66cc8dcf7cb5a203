//! The inspector: everything about the selected message, queue, subscription, worker or
//! event, and for an event the AWS rule it follows, where that rule is documented, and whether
//! the playground models it exactly.

use super::bidi::needs_isolation;
use super::editor::{CommandButton, NumberSetting, Setting};
use super::markup::Markup;
use super::queues::without_messages;
use super::{use_ctx, Selection};
use crate::format::duration;
use crate::html;
use engine::snapshot::{MessageView, QueueView, SubscriptionView};
use engine::sqs::MsgState;
use engine::world::{JobView, WorkerView};
use engine::{EventKind, SimTime};
use leptos::prelude::*;
use serde_json::Value;

thread_local! {
    /// The fidelity notes (`public/fidelity.json`): data, fetched once at start-up rather than
    /// compiled into the bundle. `None` until they arrive, or if they cannot be read (then an
    /// event is shown without its note).
    static FIDELITY: std::cell::OnceCell<RwSignal<Option<Value>>> = const { std::cell::OnceCell::new() };
}

/// Starts fetching the fidelity notes; called once by the page, under its lasting owner.
pub fn load_fidelity() {
    let notes = RwSignal::new(None);
    if FIDELITY.with(|cell| cell.set(notes)).is_ok() {
        leptos::task::spawn_local(async move {
            if let Some(text) = crate::fetch::text("fidelity.json").await {
                notes.set(serde_json::from_str::<Value>(&text).ok());
            }
        });
    }
}

fn fidelity_note(kind: &str) -> Option<Value> {
    let notes = FIDELITY.with(|cell| cell.get().copied())?;
    // `try_with`: should the page that fetched them ever be taken down, an event shows no note.
    notes.try_with(|n| n.as_ref()?.get(kind).cloned()).flatten()
}

/// Text from the story as markup: escaped, and inside a `<bdi>` when it holds right-to-left
/// letters or direction controls, so that it cannot reorder the page's own words.
fn iso(text: &str) -> Markup {
    if needs_isolation(text) {
        html!("<bdi>", text, "</bdi>")
    } else {
        html!(text)
    }
}

/// List items of plain texts.
fn items(texts: impl IntoIterator<Item = String>) -> Markup {
    texts.into_iter().map(|t| html!("<li>", iso(&t), "</li>")).collect()
}

/// The facts about what is inspected, as a definition list; rows that are `None` are left out.
fn facts(rows: &[Option<(&str, String)>]) -> Markup {
    let rows: Markup = rows
        .iter()
        .flatten()
        .map(|(k, v)| match crate::format::abbreviated(v) {
            // A long ARN or URL: shortened on the page, whole on hover and when copied.
            Some(short) => html!(
                "<dt>",
                *k,
                "</dt><dd><span class=\"abbr\" title=\"",
                v,
                "\" data-full=\"",
                v,
                "\">",
                short,
                "</span></dd>"
            ),
            None => html!("<dt>", *k, "</dt><dd>", iso(v), "</dd>"),
        })
        .collect();
    html!("<dl class=\"facts\">", rows, "</dl>")
}

fn heading(level: u8, text: &str) -> Markup {
    match level {
        3 => html!("<h3>", iso(text), "</h3>"),
        _ => html!("<h4>", iso(text), "</h4>"),
    }
}

/// Code (a body, attributes, an event).
fn code(text: &str) -> Markup {
    html!("<pre class=\"code\">", iso(text), "</pre>")
}

fn hint(text: &str) -> Markup {
    html!("<p class=\"hint\">", text, "</p>")
}

/// A list of plain texts under a heading, or nothing when it is empty.
fn list(title: &str, texts: Vec<String>) -> Markup {
    if texts.is_empty() {
        return Markup::new();
    }
    html!(heading(4, title), "<ul class=\"reasons\">", items(texts), "</ul>")
}

/// Copying from a shortened ARN or URL copies the whole of it.
fn copy_whole(e: web_sys::ClipboardEvent) {
    use wasm_bindgen::JsCast;
    let full = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
        .and_then(|n| if n.node_type() == 1 { n.dyn_into::<web_sys::Element>().ok() } else { n.parent_element() })
        .and_then(|el| el.closest("[data-full]").ok().flatten())
        .and_then(|el| el.get_attribute("data-full"));
    if let (Some(full), Some(data)) = (full, e.clipboard_data()) {
        if data.set_data("text/plain", &full).is_ok() {
            e.prevent_default();
        }
    }
}

#[component]
pub fn Inspector() -> impl IntoView {
    let ctx = use_ctx();
    // Built again only when the selection changes: what it shows follows the story inside.
    let detail = move || {
        match ctx.selected.get() {
        None => view! {
            <p class="hint">"Click or focus a message chip, a queue, a filter badge, a worker or an event to see everything about it."</p>
            <p class="hint">"Keys: Space plays or pauses, → steps to the next moment something happens, ← steps back to the previous one, anywhere but in a text field; Enter presses a button or selects a node."</p>
        }
        .into_any(),
        Some(Selection::Message { queue, copy }) => view! { <MessageDetail queue=queue copy=copy /> }.into_any(),
        Some(Selection::Queue(name)) => view! { <QueueDetail name=name /> }.into_any(),
        Some(Selection::Rule(id)) => view! { <RuleDetail id=id /> }.into_any(),
        Some(Selection::Worker(name)) => view! { <WorkerDetail name=name /> }.into_any(),
        Some(other) => {
            let text = move || {
                ctx.snapshot.with(|s| match &other {
                    Selection::Subscription(arn) => {
                        match s.topics.iter().flat_map(|t| t.subscriptions.iter()).find(|x| x.arn == *arn) {
                            Some(sub) => subscription(sub),
                            None => hint("That subscription no longer exists."),
                        }
                    }
                    Selection::Event(seq) => event(*seq),
                    Selection::Service(name) => order_service(s, name),
                    _ => Markup::new(),
                })
                .into_string()
            };
            view! { <div class="part" inner_html=text></div> }.into_any()
        }
    }
    };
    view! {
        // Not a live region: its countdown ticks; events are announced by the page's one live region.
        // On a phone it opens as a sheet over the bottom of the screen while something is
        // selected (see style.css); Close (or Escape) puts it away.
        <section class="inspector" data-testid="inspector" aria-label="Inspector" on:copy=copy_whole
            class:open=move || ctx.selected.with(Option::is_some)
            on:keydown=move |ev| if ev.key() == "Escape" { ctx.selected.set(None) }>
            <h2>"Inspector"</h2>
            <button class="quiet close" data-testid="inspector-close" aria-label="Close the inspector"
                hidden=move || ctx.selected.with(Option::is_none) on:click=move |_| ctx.selected.set(None)>"Close"</button>
            {detail}
        </section>
    }
}

/// A message: its facts, Delete while it is in flight (the work is done), its body.
#[component]
fn MessageDetail(queue: String, copy: u64) -> impl IntoView {
    let ctx = use_ctx();
    let q = queue.clone();
    let parts = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            let found = s
                .queues
                .iter()
                .find(|x| x.name == q)
                .and_then(|x| x.messages.iter().find(|m| m.copy == copy).map(|m| (x, m)));
            match found {
                Some((x, m)) => message(x, m, ctx.clock.get()),
                None => (
                    hint(&format!(
                        "That message is no longer in {q}: deleted, moved or expired. The event log says which."
                    )),
                    None,
                    Markup::new(),
                ),
            }
        })
    });
    let handle = Memo::new(move |_| parts.with(|p| p.1.clone()));
    let delete = move |_| {
        if let Some(h) = handle.get_untracked() {
            ctx.act(|p| p.delete(&queue, &h));
        }
    };
    view! {
        <div class="part" inner_html=move || parts.with(|p| p.0.to_string())></div>
        <Show when=move || handle.with(Option::is_some)>
            <button data-testid="inspector-delete" on:click=delete.clone()>"Delete (the work is done)"</button>
        </Show>
        <div class="part" inner_html=move || parts.with(|p| p.2.to_string())></div>
    }
}

/// A queue: its facts and its settings (visibility timeout, retention, maxReceiveCount).
#[component]
fn QueueDetail(name: String) -> impl IntoView {
    let ctx = use_ctx();
    let n = name.clone();
    let q = Memo::new(move |_| ctx.snapshot.with(|s| s.queues.iter().find(|q| q.name == n).map(without_messages)));
    // The clock outlives this view: a tick that lands as it goes finds the queue's memo gone.
    let text = move || {
        let now = ctx.clock.get();
        q.try_with(|q| match q {
            Some(q) => queue(q, now),
            None => hint("That queue no longer exists."),
        })
        .unwrap_or_default()
        .into_string()
    };
    let read =
        move |f: fn(&QueueView) -> String| Signal::derive(move || q.with(|q| q.as_ref().map(f).unwrap_or_default()));
    let dlq =
        Memo::new(move |_| q.with(|q| q.as_ref().and_then(|q| q.max_receive_count.and(q.dead_letter_queue.clone()))));
    let (n1, n2, n3) = (name.clone(), name.clone(), name.clone());
    // A queue with no dead-letter queue, and none itself, may be given one.
    // A queue with no dead-letter queue, and none itself, may be given one.
    let bare = Signal::derive(move || {
        q.with(|q| {
            q.as_ref().filter(|q| q.dead_letter_queue.is_none() && q.dead_letter_sources.is_empty()).map(|_| false)
        })
    });
    let n = name.clone();
    // The Lambda functions that consume this queue through a mapping: (UUID, function).
    let mappings = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            s.world.event_source_mappings.iter().filter(|m| m.queue == n).map(|m| m.uuid.clone()).collect::<Vec<_>>()
        })
    });
    let mapping = move |uuid: String| {
        let u = uuid.clone();
        let function = move || {
            ctx.snapshot.with(|s| {
                let m = s.world.event_source_mappings.iter().find(|m| m.uuid == u)?;
                Some((m.function.clone(), m.report_batch_item_failures))
            })
        };
        let name = untrack(&function).map(|m| m.0).unwrap_or_default();
        view! {
            <CommandButton target=uuid testid=format!("mapping-{name}-report-failures")
                state=Signal::derive(move || function().map(|m| m.1))
                labels=("Report the records that fail (ReportBatchItemFailures)", "Reports the records that fail (ReportBatchItemFailures)")
                title="UpdateEventSourceMapping FunctionResponseTypes: only the records the function names go back to the queue"
                act=|p, uuid| p.set_report_failures(uuid, true) />
        }
    };
    view! {
        <div class="part" inner_html=text></div>
        {move || mappings.get().into_iter().map(mapping).collect_view()}
        <CommandButton target=name.clone() testid=format!("queue-{name}-add-dlq") state=bare
            labels=("Add a dead-letter queue (after 5 receives)", "")
            title="CreateQueue with a 14-day retention, and a RedrivePolicy to it after 5 receives"
            act=|p, q| p.add_dead_letter_queue(q) />
        <Show when=move || q.with(Option::is_some)>
            <div class="settings">
                <NumberSetting label="Visibility timeout" testid=format!("queue-{n1}-visibility") range=(0, 43_200)
                    current=read(|q| q.visibility_timeout.to_string()) setting=Setting::Visibility { queue: n1.clone() } />
                <NumberSetting label="Retention" testid=format!("queue-{n2}-retention") range=(60, 1_209_600)
                    current=read(|q| q.retention_period.to_string()) setting=Setting::Retention { queue: n2.clone() } />
                {
                    let n3 = n3.clone();
                    move || dlq.get().map(|dlq| view! {
                        <NumberSetting label="maxReceiveCount" testid=format!("queue-{n3}-max-receive") range=(1, 1_000)
                            current=read(|q| q.max_receive_count.unwrap_or_default().to_string())
                            setting=Setting::MaxReceive { queue: n3.clone(), dlq } />
                    })
                }
            </div>
        </Show>
    }
}

/// A worker: its facts, its controls (Crash, Pause, Slow down, as on its queue's card, so the worker
/// opened from the diagram can be paused where it is looked at), and how it guards against doing
/// one event twice (its idempotency).
#[component]
fn WorkerDetail(name: String) -> impl IntoView {
    let ctx = use_ctx();
    let n = name.clone();
    let text = move || {
        ctx.snapshot
            .with(|s| match s.world.workers.iter().find(|w| w.name == n) {
                Some(w) => worker(w, s.world.jobs.iter().filter(|j| w.jobs.contains(&j.job))),
                None => hint("That worker has been removed."),
            })
            .into_string()
    };
    let n = name.clone();
    let atomic = Signal::derive(move || {
        ctx.snapshot.with(|s| s.world.workers.iter().find(|w| w.name == n).map(|w| w.idempotency == "Atomic"))
    });
    let n = name.clone();
    let exists = Memo::new(move |_| ctx.snapshot.with(|s| s.world.workers.iter().any(|w| w.name == n)));
    let who = StoredValue::new(name.clone());
    view! {
        <div class="part" inner_html=text></div>
        <Show when=move || exists.get()>
            <p class="buttons worker-controls">
                <super::queues::WorkerButtons name=who.get_value() id="inspector-worker".to_string() />
            </p>
        </Show>
        <CommandButton target=name.clone() testid=format!("worker-{name}-idempotent") state=atomic
            labels=("Make it idempotent: the event id and the effect in one transaction", "Idempotent: the event id and the effect in one transaction")
            title="UpdateWorker Idempotency Atomic: a copy whose id is recorded is skipped"
            act=|p, w| p.set_idempotency(w, "Atomic") />
    }
}

/// An EventBridge rule, with a Replay button for each archive of its bus.
#[component]
fn RuleDetail(id: String) -> impl IntoView {
    let ctx = use_ctx();
    let (bus, name) =
        id.split_once('/').map_or(("default".to_string(), id.clone()), |(b, n)| (b.to_string(), n.to_string()));
    let (b, n) = (bus.clone(), name.clone());
    let text = move || ctx.snapshot.with(|s| rule(s, &b, &n)).into_string();
    let b = bus.clone();
    // The bus's archives: (archive, its event count, the bus's ARN).
    let archives = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            let arn = s.eventbridge.buses.iter().find(|x| x.name == b).map_or(String::new(), |x| x.arn.clone());
            s.eventbridge
                .archives
                .iter()
                .filter(|a| a.bus == b || a.bus == arn)
                .map(|a| (a.name.clone(), a.event_count as u64, arn.clone()))
                .collect::<Vec<_>>()
        })
    });
    let archive = move |(name, count, arn): (String, u64, String)| {
        let (a, to) = (name.clone(), bus.clone());
        view! {
            <h4 dir="auto">"Archive "{name.clone()}": "{crate::format::count(count, "event", "events")}</h4>
            <p><button data-testid=format!("replay-{name}") on:click=move |_| { ctx.act(|p| p.replay(&a, &arn)); }>
                "Replay them to "{to}</button></p>
        }
    };
    view! {
        <div class="part" inner_html=text></div>
        {move || archives.get().into_iter().map(archive.clone()).collect_view()}
        <Show when=move || archives.with(|a| !a.is_empty())>
            <p class="hint">"StartReplay puts the archived events, up to now, on the bus again; each carries replay-name."</p>
        </Show>
    }
}

/// JSON laid out for reading. The attributes go through a `Value` too, so the page carries one
/// pretty printer, not one per type.
fn pretty(v: &Value) -> String {
    // `{:#}` is `to_string_pretty`, through the `Value` printer the page has anyway.
    format!("{v:#}")
}

/// A message's facts (top), the receipt handle Delete would use while it is in flight, and its
/// body and attributes (bottom).
fn message(q: &QueueView, m: &MessageView, now: SimTime) -> (Markup, Option<String>, Markup) {
    let (state, timer) = match m.state {
        MsgState::Visible => match &m.blocked_by {
            Some(b) => (
                format!(
                    "waiting: {} of group {} is in flight until {}",
                    b.message_id,
                    m.group.as_deref().unwrap_or_default(),
                    b.until
                ),
                None,
            ),
            None => ("visible".to_string(), None),
        },
        MsgState::InFlight { until, .. } => (format!("in flight until {until}"), Some(until)),
        MsgState::Delayed { until, .. } => (format!("delayed until {until}"), Some(until)),
    };
    let handles: Vec<String> = (1..=m.receive_count)
        .map(|g| format!("rh-{}-{g}{}", m.copy, if g == m.receive_count { " (latest)" } else { " (stale)" }))
        .collect();
    let body = serde_json::from_str::<Value>(&m.body).ok().map(|v| pretty(&v)).unwrap_or_else(|| m.body.clone());
    let expires_in = m.expires_at.ms().saturating_sub(now.ms());
    let top = html!(
        heading(3, &format!("{} in {}", m.message_id, q.name)),
        facts(&[
            Some(("state", state)),
            timer.map(|t| ("timer", format!("{} left", duration(t.ms().saturating_sub(now.ms()))))),
            Some((
                "receive count",
                match q.max_receive_count {
                    Some(n) => format!("{} of {n} before the DLQ", m.receive_count),
                    None => m.receive_count.to_string(),
                },
            )),
            Some(("sent", m.sent_at.to_string())),
            Some(("first received", m.first_receive_at.map(|t| t.to_string()).unwrap_or_else(|| "not yet".into()))),
            Some(("retention", format!("deleted at {} (in {})", m.expires_at, duration(expires_in)))),
            Some(("receipt handles", if handles.is_empty() { "none yet".into() } else { handles.join(", ") })),
            m.sns_message_id.map(|id| ("published as", id.to_string())),
            m.group.clone().map(|g| ("message group", g)),
            m.sequence.map(|n| ("sequence number", n.to_string())),
            m.dead_letter_source.clone().map(|d| ("dead-letter source", d)),
            m.duplicate.then(|| ("copy", "a duplicate delivery of the same message id".into())),
        ])
    );
    let handle = match (&m.state, &m.receipt_handle) {
        (MsgState::InFlight { .. }, Some(handle)) => Some(handle.to_string()),
        _ => None,
    };
    let mut bottom = html!(heading(4, "Body"), code(&body));
    if !m.attributes.is_empty() {
        html!(into bottom; heading(4, "Message attributes"), code(&pretty(&serde_json::to_value(&m.attributes).unwrap_or_default())));
    }
    (top, handle, bottom)
}

fn queue(q: &QueueView, now: SimTime) -> Markup {
    html!(
        heading(3, &format!("Queue {}", q.name)),
        facts(&[
            Some(("URL", q.url.clone())),
            Some(("messages", format!("{} visible, {} in flight, {} delayed", q.visible, q.in_flight, q.delayed))),
            Some((
                "oldest message",
                if q.visible + q.in_flight + q.delayed == 0 {
                    "none".into()
                } else {
                    format!("{} old", duration(q.oldest_age_at(now)))
                },
            )),
            Some((
                "sent / received / deleted",
                format!("{} / {} / {}", q.stats.sent, q.stats.received, q.stats.deleted)
            )),
            Some(("moved to DLQ / expired", format!("{} / {}", q.stats.moved_to_dead_letter_queue, q.stats.expired))),
            (!q.dead_letter_sources.is_empty()).then(|| ("dead-letter queue of", q.dead_letter_sources.join(", "))),
        ])
    )
}

fn subscription(sub: &SubscriptionView) -> Markup {
    let ctx = use_ctx();
    let queue = sub.queue.clone().unwrap_or_else(|| sub.endpoint.clone());
    // One look back through the log (it changes only with the snapshot, which the inspector
    // follows), stopping once both lists are full: why its latest messages were filtered out,
    // and its latest delivery attempts, when each was made and how it ended (a retried
    // endpoint's delivery policy, made visible).
    let (mut reasons, mut attempts) = (Vec::new(), Vec::new());
    ctx.pg.with_untracked(|p| {
        for e in p.events().iter().rev() {
            if reasons.len() >= 5 && attempts.len() >= 12 {
                break;
            }
            match &e.kind {
                EventKind::FilteredOut { subscription, sns_message_id, reason, .. }
                    if **subscription == *sub.arn && reasons.len() < 5 =>
                {
                    reasons.push(format!("{sns_message_id}: {reason}"));
                }
                EventKind::DeliveryAttemptFailed { subscription, .. }
                | EventKind::DeliveredToEndpoint { subscription, .. }
                | EventKind::DeliveryFailed { subscription, .. }
                    if **subscription == *sub.arn && attempts.len() < 12 =>
                {
                    attempts.push(format!("{}  {}", e.at, e.kind.summary()));
                }
                _ => {}
            }
        }
    });
    html!(
        heading(3, &format!("Subscription of {queue}")),
        facts(&[
            Some(("ARN", sub.arn.to_string())),
            Some((
                "delivery",
                if sub.raw {
                    "raw: the body exactly as published".into()
                } else {
                    "SNS envelope: the event inside a JSON notification".to_string()
                },
            )),
            Some(("filter policy", sub.filter_policy.clone().unwrap_or_else(|| "none: every message".into()))),
            Some(("scope", sub.filter_scope.to_string())),
            Some((
                "delivered / filtered out / failed",
                format!("{} / {} / {}", sub.delivered, sub.filtered_out, sub.failed)
            )),
            (sub.retrying > 0).then(|| ("waiting to retry", crate::format::count(sub.retrying, "copy", "copies"))),
            sub.dead_letter_queue.clone().map(|d| ("dead-letter queue", format!("{d}: {} so far", sub.redriven))),
        ]),
        list("Latest delivery attempts", attempts),
        list("Why recent messages were filtered out", reasons)
    )
}

/// An EventBridge rule: its pattern or schedule, its state, what it matched, and each target
/// with what it receives, its retry policy and its dead-letter queue.
fn rule(s: &engine::Snapshot, bus: &str, name: &str) -> Markup {
    let found = s.eventbridge.buses.iter().filter(|b| b.name == bus).flat_map(|b| &b.rules).find(|r| r.name == name);
    let Some(r) = found else { return hint("That rule no longer exists.") };
    let mut out = html!(
        heading(3, &format!("Rule {name} on {bus}")),
        facts(&[
            Some(("ARN", r.arn.clone())),
            Some(("state", r.state.to_string())),
            r.event_pattern.clone().map(|p| ("event pattern", p)),
            r.schedule_expression.clone().map(|e| ("schedule", e)),
            Some(("matched", crate::format::count(r.matched, "event", "events"))),
        ])
    );
    for t in &r.targets {
        let retry = format!(
            "up to {} over {}",
            crate::format::count(t.max_retry_attempts, "retry", "retries"),
            crate::format::duration(u64::from(t.max_event_age_seconds) * 1_000),
        );
        html!(into out;
            heading(4, &format!("Target {} → {} {}", t.id, t.kind, t.destination)),
            facts(&[
                Some((
                    "receives",
                    match t.input {
                        "event" => "the whole event".to_string(),
                        other => format!("{other}: what the target's input says"),
                    },
                )),
                Some(("retry policy", retry)),
                Some((
                    "dead-letter queue",
                    t.dead_letter_arn.clone().unwrap_or_else(|| "none: an event that cannot be delivered is dropped".into()),
                )),
                t.message_group_id.clone().map(|g| ("MessageGroupId", g)),
            ])
        );
    }
    out
}

/// An order service and its own database: the orders and outbox tables, row by row, and the
/// orders whose event has not gone out.
fn order_service(s: &engine::Snapshot, name: &str) -> Markup {
    use engine::world::OrderDesign;
    let Some(o) = s.world.order_services.iter().find(|o| o.name == name) else {
        return hint("That order service no longer exists.");
    };
    let design = match o.design {
        OrderDesign::DualWrite => "dual write: saves the order, then publishes",
        OrderDesign::Outbox => "transactional outbox: the order and its event in one transaction; a relay publishes",
    };
    let missing: Vec<String> = o.orders_without_event.iter().map(u64::to_string).collect();
    let orders = o
        .db
        .orders
        .iter()
        .map(|r| {
            format!("order {} · {} · saved at {} · transaction {}", r.order_id, r.event_id, r.saved_at, r.transaction)
        })
        .collect();
    let outbox = match o.design {
        OrderDesign::Outbox => {
            o.db.outbox
                .iter()
                .map(|r| {
                    let sent = r.sent_at.map_or_else(|| "pending".to_string(), |t| format!("sent at {t}"));
                    format!("row {} · {} · {sent} · published {}×", r.row, r.event_id, r.published)
                })
                .collect()
        }
        OrderDesign::DualWrite => Vec::new(),
    };
    html!(
        heading(3, &format!("Order service {name}")),
        facts(&[
            Some(("design", design.to_string())),
            Some(("publishes to", o.topic.clone())),
            Some(("state", if o.crashed { "crashed, restarting".to_string() } else { "up".to_string() })),
            o.crash_armed.map(|c| ("crash armed", c.to_string())),
            Some(("transactions", o.db.transactions.to_string())),
            Some(("orders without an event", if missing.is_empty() { "none".to_string() } else { missing.join(", ") })),
        ]),
        list("orders table", orders),
        list("outbox table", outbox)
    )
}

fn worker<'a>(w: &WorkerView, jobs: impl Iterator<Item = &'a JobView>) -> Markup {
    let held = if w.held.is_empty() {
        "nothing".to_string()
    } else {
        w.held.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", ")
    };
    let state = if w.crash_armed {
        format!("{}, set to crash at its next side effect", w.state.as_str())
    } else {
        w.state.as_str().to_string()
    };
    let done: Vec<String> = jobs
        .map(|j| {
            format!(
                "{}: {} × {} for {} ({})",
                j.job,
                j.effect,
                j.side_effects,
                crate::format::count(j.distinct_events, "event", "events"),
                std::iter::once(crate::format::count(j.duplicates, "duplicate", "duplicates"))
                    .chain(super::queues::skips(j))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    html!(
        heading(3, &format!("Worker {}", w.name)),
        facts(&[
            Some(("consumes", w.queue.clone())),
            Some(("state", state)),
            Some(("holding", held)),
            Some(("time per message", crate::format::span(w.processing_time))),
            Some(("idempotency", w.idempotency.to_string())),
            Some(("received / succeeded / failed", format!("{} / {} / {}", w.received, w.succeeded, w.failed))),
            Some(("crashes", w.crashes.to_string())),
            Some((
                "poison rule",
                match &w.fails_on {
                    Some(r) => format!("fails every message where {r}"),
                    None => "none".to_string(),
                }
            )),
        ]),
        list("Side effects of its jobs, by all their workers", done),
        "<div class=\"fidelity simplified\"><p><strong>Playground actor. </strong>A worker stands for your \
        consumer code: it long-polls ReceiveMessage, works on the message, then calls DeleteMessage. If it crashes, \
        what it holds stays in flight, hidden from every other consumer, until the visibility timeout runs out; then \
        the message is received again.</p></div>"
    )
}

fn event(seq: u64) -> Markup {
    let ctx = use_ctx();
    ctx.pg.with_untracked(|p| match p.events().get(seq as usize) {
        Some(e) => event_markup(e),
        None => hint("That event is not in this story any more."),
    })
}

fn event_markup(e: &engine::Event) -> Markup {
    // The event's facts rather than its JSON: the JSON writer of every kind of event would cost
    // the bundle about 4 KB gzip (`fanout run` prints the whole event).
    let resources = e.kind.resources().join(", ");
    let kind = e.kind.name();
    let note = fidelity_note(kind).map(|n| {
        let exact = n["exact"].as_bool().unwrap_or(false);
        let text = |key: &str| n[key].as_str().unwrap_or_default().to_string();
        let note = n["note"].as_str().map(|t| html!("<p class=\"note\">", t, "</p>"));
        html!(
            if exact {
                html!("<div class=\"fidelity\"><p><strong>As on AWS. </strong>")
            } else {
                html!("<div class=\"fidelity simplified\"><p><strong>Simplified. </strong>")
            },
            text("rule"),
            "</p>",
            note,
            "<a href=\"",
            text("doc"),
            "\" target=\"_blank\" rel=\"noopener\">AWS documentation</a></div>"
        )
    });
    html!(
        heading(3, &format!("{} at {}", kind, e.at)),
        "<p>",
        iso(&e.kind.summary()),
        "</p>",
        facts(&[
            Some(("event", format!("#{} in the log", e.seq))),
            Some(("caused by", e.cause.to_string())),
            (!resources.is_empty()).then_some(("concerns", resources)),
        ]),
        note
    )
}
