//! The inspector: everything about the selected message, queue, subscription, worker or
//! event, and for an event the AWS rule it follows, where that rule is documented, and whether
//! the playground models it exactly.

use super::bidi::isolated;
use super::editor::{self, number_setting};
use super::{esc, use_ctx, Selection};
use crate::format::duration;
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

/// List items, as markup, of plain texts.
fn items(texts: impl IntoIterator<Item = String>) -> String {
    texts.into_iter().map(|t| format!("<li>{}</li>", isolated(&t))).collect()
}

/// The facts about what is inspected, as a definition list in markup; rows that are `None` are
/// left out.
fn facts(rows: &[Option<(&str, String)>]) -> String {
    let rows: String = rows
        .iter()
        .flatten()
        .map(|(k, v)| match crate::format::abbreviated(v) {
            // A long ARN or URL: shortened on the page, whole on hover and when copied.
            Some(short) => format!(
                "<dt>{}</dt><dd><span class=\"abbr\" title=\"{full}\" data-full=\"{full}\">{}</span></dd>",
                esc(k),
                esc(&short),
                full = esc(v)
            ),
            None => format!("<dt>{}</dt><dd>{}</dd>", esc(k), isolated(v)),
        })
        .collect();
    format!("<dl class=\"facts\">{rows}</dl>")
}

/// A heading in markup.
fn heading(level: u8, text: &str) -> String {
    format!("<h{level}>{}</h{level}>", isolated(text))
}

/// Code (a body, attributes, an event) in markup.
fn code(text: &str) -> String {
    format!("<pre class=\"code\">{}</pre>", isolated(text))
}

/// A hint in markup.
fn hint(text: &str) -> String {
    format!("<p class=\"hint\">{}</p>", esc(text))
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

/// What the inspector shows for a selection: read-only markup, the controls that act on it (a
/// message's Delete, a queue's settings), then more markup. Read-only text is written as markup:
/// far less code in the bundle than a typed view per element.
struct Parts {
    top: String,
    controls: String,
    bottom: String,
}

impl Parts {
    fn text(top: String) -> Self {
        Parts { top, controls: String::new(), bottom: String::new() }
    }
}

#[component]
pub fn Inspector() -> impl IntoView {
    let ctx = use_ctx();
    // With nothing selected the hint does not follow the clock: the snapshot is read only for
    // a selection.
    let body = move || {
        let Some(selection) = ctx.selected.get() else {
            return Parts::text(hint("Click or focus a message chip, a queue, a filter badge, a worker or an event to see everything about it.")
                + &hint("Keys: Space plays or pauses, → steps to the next moment something happens, ← steps back to the previous one, anywhere but in a text field; Enter presses a button or selects a node."));
        };
        ctx.snapshot.with(|s| match selection {
            Selection::Message { queue, copy } => {
                let found = s
                    .queues
                    .iter()
                    .find(|q| q.name == queue)
                    .and_then(|q| q.messages.iter().find(|m| m.copy == copy).map(|m| (q, m)));
                match found {
                    Some((q, m)) => message(q, m, ctx.clock.get()),
                    None => Parts::text(hint(&format!(
                        "That message is no longer in {queue}: deleted, moved or expired. The event log says which."
                    ))),
                }
            }
            Selection::Queue(name) => match s.queues.iter().find(|q| q.name == name) {
                Some(q) => self::queue(q, ctx.clock.get()),
                None => Parts::text(hint("That queue no longer exists.")),
            },
            Selection::Subscription(arn) => {
                match s.topics.iter().flat_map(|t| t.subscriptions.iter()).find(|x| x.arn == arn) {
                    Some(sub) => Parts::text(subscription(sub)),
                    None => Parts::text(hint("That subscription no longer exists.")),
                }
            }
            Selection::Worker(name) => match s.world.workers.iter().find(|w| w.name == name) {
                Some(w) => Parts::text(worker(w, s.world.jobs.iter().filter(|j| w.jobs.contains(&j.job)))),
                None => Parts::text(hint("That worker has been removed.")),
            },
            Selection::Event(seq) => Parts::text(event(seq)),
            Selection::Rule(id) => Parts::text(rule(s, &id)),
            Selection::Service(name) => Parts::text(order_service(s, &name)),
        })
    };
    // Drawn only when its text changes, keeping the focus and what is typed in a setting.
    let el = NodeRef::<leptos::html::Div>::new();
    let mut last = String::new();
    Effect::new(move |_| {
        let Parts { top, controls, bottom } = body();
        if let Some(el) = el.get() {
            super::draw(&el, &(top + &controls + &bottom), &mut last);
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let target = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let Some(button) = target.and_then(|t| t.closest("[data-act]").ok().flatten()) else { return };
        let attr = |name| button.get_attribute(name);
        match attr("data-act").as_deref() {
            Some("delete") => {
                if let (Some(queue), Some(handle)) = (attr("data-queue"), attr("data-handle")) {
                    ctx.act(|p| p.delete(&queue, &handle));
                }
            }
            Some("replay") => {
                if let (Some(archive), Some(bus)) = (attr("data-archive"), attr("data-bus")) {
                    ctx.act(|p| p.replay(&archive, &bus));
                }
            }
            _ => {}
        }
    };
    view! {
        // Not a live region: its countdown ticks; events are announced by the page's one live region.
        // On a phone it opens as a sheet over the bottom of the screen while something is
        // selected (see style.css); Close (or Escape) puts it away.
        <section class="inspector" data-testid="inspector" aria-label="Inspector" on:copy=copy_whole
            class:open=move || ctx.selected.with(Option::is_some)
            on:click=on_click on:change=move |ev| editor::changed(ctx, &ev)
            on:keydown=move |ev| if ev.key() == "Escape" { ctx.selected.set(None) }>
            <h2>"Inspector"</h2>
            <button class="quiet close" data-testid="inspector-close" aria-label="Close the inspector"
                hidden=move || ctx.selected.with(Option::is_none) on:click=move |_| ctx.selected.set(None)>"Close"</button>
            <div class="part" node_ref=el></div>
        </section>
    }
}

/// JSON laid out for reading. The attributes go through a `Value` too, so the page carries one
/// pretty printer, not one per type.
fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn message(q: &QueueView, m: &MessageView, now: SimTime) -> Parts {
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
    let top = heading(3, &format!("{} in {}", m.message_id, q.name))
        + &facts(&[
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
        ]);
    let controls = match (&m.state, &m.receipt_handle) {
        (MsgState::InFlight { .. }, Some(handle)) => format!(
            "<button data-testid=\"inspector-delete\" data-act=\"delete\" data-queue=\"{}\" data-handle=\"{}\">\
             Delete (the work is done)</button>",
            esc(&q.name),
            esc(handle)
        ),
        _ => String::new(),
    };
    let mut bottom = heading(4, "Body") + &code(&body);
    if !m.attributes.is_empty() {
        bottom += &(heading(4, "Message attributes")
            + &code(&pretty(&serde_json::to_value(&m.attributes).unwrap_or_default())));
    }
    Parts { top, controls, bottom }
}

fn queue(q: &QueueView, now: SimTime) -> Parts {
    let name = q.name.clone();
    let top = heading(3, &format!("Queue {}", q.name))
        + &facts(&[
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
                format!("{} / {} / {}", q.stats.sent, q.stats.received, q.stats.deleted),
            )),
            Some(("moved to DLQ / expired", format!("{} / {}", q.stats.moved_to_dead_letter_queue, q.stats.expired))),
            (!q.dead_letter_sources.is_empty()).then(|| ("dead-letter queue of", q.dead_letter_sources.join(", "))),
        ]);
    let max = match (q.max_receive_count, &q.dead_letter_queue) {
        (Some(n), Some(dlq)) => number_setting(
            "maxReceiveCount",
            &format!("queue-{name}-max-receive"),
            (1, 1_000),
            &n.to_string(),
            "max-receive",
            &format!("{name} {dlq}"),
        ),
        _ => String::new(),
    };
    let controls = format!(
        "<div class=\"settings\">{}{}{max}</div>",
        number_setting(
            "Visibility timeout (s)",
            &format!("queue-{name}-visibility"),
            (0, 43_200),
            &q.visibility_timeout.to_string(),
            "visibility",
            &name
        ),
        number_setting(
            "Retention (s)",
            &format!("queue-{name}-retention"),
            (60, 1_209_600),
            &q.retention_period.to_string(),
            "retention",
            &name
        ),
    );
    Parts { top, controls, bottom: String::new() }
}

fn subscription(sub: &SubscriptionView) -> String {
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
    let mut out = heading(3, &format!("Subscription of {queue}"))
        + &facts(&[
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
                format!("{} / {} / {}", sub.delivered, sub.filtered_out, sub.failed),
            )),
            (sub.retrying > 0).then(|| ("waiting to retry", crate::format::count(sub.retrying, "copy", "copies"))),
            sub.dead_letter_queue.clone().map(|d| ("dead-letter queue", format!("{d}: {} so far", sub.redriven))),
        ]);
    if !attempts.is_empty() {
        out += &(heading(4, "Latest delivery attempts") + "<ul class=\"reasons\">" + &items(attempts) + "</ul>");
    }
    if !reasons.is_empty() {
        out += &(heading(4, "Why recent messages were filtered out")
            + "<ul class=\"reasons\">"
            + &items(reasons)
            + "</ul>");
    }
    out
}

/// An EventBridge rule (`bus/rule`): its pattern or schedule, its state, what it matched, and
/// each target with what it receives, its retry policy and its dead-letter queue.
fn rule(s: &engine::Snapshot, id: &str) -> String {
    let (bus, name) = id.split_once('/').unwrap_or(("default", id));
    let found = s.eventbridge.buses.iter().filter(|b| b.name == bus).flat_map(|b| &b.rules).find(|r| r.name == name);
    let Some(r) = found else { return hint("That rule no longer exists.") };
    let mut out = heading(3, &format!("Rule {name} on {bus}"))
        + &facts(&[
            Some(("ARN", r.arn.clone())),
            Some(("state", r.state.to_string())),
            r.event_pattern.clone().map(|p| ("event pattern", p)),
            r.schedule_expression.clone().map(|e| ("schedule", e)),
            Some(("matched", crate::format::count(r.matched, "event", "events"))),
        ]);
    for t in &r.targets {
        let retry = format!(
            "up to {} over {}",
            crate::format::count(t.max_retry_attempts, "retry", "retries"),
            crate::format::duration(u64::from(t.max_event_age_seconds) * 1_000),
        );
        out += &(heading(4, &format!("Target {} → {} {}", t.id, t.kind, t.destination))
            + &facts(&[
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
                    t.dead_letter_arn
                        .clone()
                        .unwrap_or_else(|| "none: an event that cannot be delivered is dropped".into()),
                )),
                t.message_group_id.clone().map(|g| ("MessageGroupId", g)),
            ]));
    }
    // The bus's archives, each with the button that replays it: what a team does once the
    // consumer that missed the events is fixed.
    let bus_arn = s.eventbridge.buses.iter().find(|b| b.name == bus).map_or("", |b| b.arn.as_str());
    let archives: Vec<_> = s.eventbridge.archives.iter().filter(|a| a.bus == bus || a.bus == bus_arn).collect();
    for a in &archives {
        let (archive, n) = (esc(&a.name), crate::format::count(a.event_count as u64, "event", "events"));
        out += &format!(
            "<h4>Archive {archive}: {n}</h4><p><button data-act=\"replay\" data-archive=\"{archive}\" data-bus=\"{}\" \
             data-testid=\"replay-{archive}\">Replay them to {}</button></p>",
            esc(bus_arn),
            esc(bus),
        );
    }
    if !archives.is_empty() {
        out += &hint("StartReplay puts the archived events, up to now, on the bus again; each carries replay-name.");
    }
    out
}

/// An order service and its own database: the orders and outbox tables, row by row, and the
/// orders whose event has not gone out.
fn order_service(s: &engine::Snapshot, name: &str) -> String {
    use engine::world::OrderDesign;
    let Some(o) = s.world.order_services.iter().find(|o| o.name == name) else {
        return hint("That order service no longer exists.");
    };
    let design = match o.design {
        OrderDesign::DualWrite => "dual write: saves the order, then publishes",
        OrderDesign::Outbox => "transactional outbox: the order and its event in one transaction; a relay publishes",
    };
    let missing: Vec<String> = o.orders_without_event.iter().map(u64::to_string).collect();
    let mut out = heading(3, &format!("Order service {name}"))
        + &facts(&[
            Some(("design", design.to_string())),
            Some(("publishes to", o.topic.clone())),
            Some(("state", if o.crashed { "crashed, restarting".to_string() } else { "up".to_string() })),
            o.crash_armed.map(|c| ("crash armed", c.to_string())),
            Some(("transactions", o.db.transactions.to_string())),
            Some(("orders without an event", if missing.is_empty() { "none".to_string() } else { missing.join(", ") })),
        ]);
    let orders = o.db.orders.iter().map(|r| {
        format!("order {} · {} · saved at {} · transaction {}", r.order_id, r.event_id, r.saved_at, r.transaction)
    });
    out += &(heading(4, "orders table") + "<ul class=\"reasons\">" + &items(orders) + "</ul>");
    if o.design == OrderDesign::Outbox {
        let rows = o.db.outbox.iter().map(|r| {
            let sent = r.sent_at.map_or_else(|| "pending".to_string(), |t| format!("sent at {t}"));
            format!("row {} · {} · {sent} · published {}×", r.row, r.event_id, r.published)
        });
        out += &(heading(4, "outbox table") + "<ul class=\"reasons\">" + &items(rows) + "</ul>");
    }
    out
}

fn worker<'a>(w: &WorkerView, jobs: impl Iterator<Item = &'a JobView>) -> String {
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
    let mut out = heading(3, &format!("Worker {}", w.name))
        + &facts(&[
            Some(("consumes", w.queue.clone())),
            Some(("state", state)),
            Some(("holding", held)),
            Some(("time per message", crate::format::span(w.processing_time))),
            Some(("idempotency", w.idempotency.to_string())),
            Some(("received / succeeded / failed", format!("{} / {} / {}", w.received, w.succeeded, w.failed))),
            Some(("crashes", w.crashes.to_string())),
        ]);
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
    if !done.is_empty() {
        out += &(heading(4, "Side effects done") + "<ul class=\"reasons\">" + &items(done) + "</ul>");
    }
    out + "<div class=\"fidelity simplified\"><p><strong>Playground actor. </strong>A worker stands for your \
        consumer code: it long-polls ReceiveMessage, works on the message, then calls DeleteMessage. If it crashes, \
        what it holds stays in flight, hidden from every other consumer, until the visibility timeout runs out; then \
        the message is received again.</p></div>"
}

fn event(seq: u64) -> String {
    let ctx = use_ctx();
    ctx.pg.with_untracked(|p| match p.events().get(seq as usize) {
        Some(e) => event_markup(e),
        None => hint("That event is not in this story any more."),
    })
}

fn event_markup(e: &engine::Event) -> String {
    // The event's facts rather than its JSON: the JSON writer of every kind of event would cost
    // the bundle about 4 KB gzip (`fanout run` prints the whole event).
    let resources = e.kind.resources().join(", ");
    let kind = e.kind.name();
    let note = fidelity_note(kind).map(|n| {
        let exact = n["exact"].as_bool().unwrap_or(false);
        let text = |key: &str| esc(n[key].as_str().unwrap_or_default());
        format!(
            "<div class=\"fidelity{}\"><p><strong>{}</strong>{}</p>{}<a href=\"{}\" target=\"_blank\" rel=\"noopener\">AWS documentation</a></div>",
            if exact { "" } else { " simplified" },
            if exact { "As on AWS. " } else { "Simplified. " },
            text("rule"),
            n["note"].as_str().map(|t| format!("<p class=\"note\">{}</p>", esc(t))).unwrap_or_default(),
            text("doc"),
        )
    });
    heading(3, &format!("{} at {}", kind, e.at))
        + &format!("<p>{}</p>", isolated(&e.kind.summary()))
        + &facts(&[
            Some(("event", format!("#{} in the log", e.seq))),
            Some(("caused by", e.cause.to_string())),
            (!resources.is_empty()).then_some(("concerns", resources)),
        ])
        + &note.unwrap_or_default()
}
