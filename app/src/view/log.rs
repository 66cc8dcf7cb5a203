//! The event log, filterable by resource, and the live region that announces what happens.

use super::bidi::isolated;
use super::markup::Markup;
use super::{use_ctx, Ctx, Selection};
use crate::html;
use leptos::prelude::*;

/// How many of the latest events the log lists at first, and how many more "Show older" adds.
const SHOWN: usize = 150;

#[component]
pub fn EventLog() -> impl IntoView {
    let ctx = use_ctx();
    let filter = RwSignal::new(String::new());
    let shown = RwSignal::new(SHOWN);
    let resources = Memo::new(move |_| {
        ctx.snapshot.with(|s| {
            let mut r: Vec<String> = s.topics.iter().map(|t| t.name.clone()).collect();
            r.extend(s.queues.iter().map(|q| q.name.clone()));
            r
        })
    });
    // The list changes only when events are added or the story moves back (or another story
    // is loaded): not on a bare tick. While time plays it follows the paced snapshot, a frame
    // after the queue cards (`Ctx::paced_late`): at 64× its entries fly past faster than they
    // can be read. Paused, stepping or scrubbing, it is drawn at once.
    let count = Memo::new(move |_| {
        ctx.paced_late.track();
        ctx.pg.with_untracked(|p| (p.id.clone(), p.events().len()))
    });
    // The events listed, newest first, and how many (of the filtered ones, with a filter) are
    // left out.
    let listed = Memo::new(move |_| {
        // Read, not only tracked: a memo that has never run follows nothing.
        count.with(|_| ());
        let (f, limit) = (filter.get(), shown.get());
        ctx.pg.with_untracked(|p| {
            let of = |e: &&engine::Event| f.is_empty() || e.kind.resources().iter().any(|r| *r == f);
            let mut events = p.events().iter().rev().filter(of);
            let items: Vec<Item> = events.by_ref().take(limit).map(Item::of).collect();
            (items, events.count())
        })
    });
    let left_out = move || listed.with(|l| l.1);
    let select = move |e: web_sys::MouseEvent| {
        if let Some(event @ Selection::Event(_)) = super::selection::under(e.target()) {
            ctx.selected.set(Some(event));
        }
    };
    // The list is one tab stop: its events are reached with the arrow keys (a roving
    // tabindex), so that a run of hundreds of events does not stand between the learner and
    // the rest of the page. The event last focused keeps the stop; the newest has it at first.
    let list = NodeRef::<leptos::html::Ol>::new();
    Effect::new(move |_| {
        listed.track();
        // A frame later, when the list is drawn (and the log may be gone: a view changed).
        request_animation_frame(move || {
            if let Some(ol) = list.try_get_untracked().flatten() {
                super::roving::keep_one_stop(&ol, "event");
            }
        });
    });
    let keys = move |ev: web_sys::KeyboardEvent| super::roving::on_key(list.get_untracked(), "event", &ev);
    let focused = move |ev: web_sys::FocusEvent| super::roving::on_focus(list.get_untracked(), "event", &ev);
    view! {
        <section class="log" aria-label="Event log">
            <header>
                <h2>"Event log"</h2>
                <select aria-label="Show events of" data-testid="log-filter" on:change=move |ev| filter.set(event_target_value(&ev))>
                    <option value="">"everything"</option>
                    {move || resources.get().into_iter().map(|r| view! { <option value=r.clone()>{r.clone()}</option> }).collect_view()}
                </select>
            </header>
            // Kept by event: when events come or go (playing on, scrubbing back) only their
            // items are inserted or removed.
            // An event's button names it (`data-select`); a click on one reaches the list.
            <ol data-testid="event-log" id="events" on:click=select on:keydown=keys on:focusin=focused node_ref=list
                aria-label="Events, newest first: the arrow keys move between them">
                <For each=move || listed.with(|l| l.0.clone()) key=Item::clone let(item)>
                    <li data-seq=item.seq inner_html=item.markup.into_string()></li>
                </For>
            </ol>
            <p class="more" data-testid="event-log-limit" hidden=move || left_out() == 0>
                {move || format!("Showing the latest {} events; {} older ones are not listed. ", shown.get(), left_out())}
                <button class="link" data-testid="event-log-older" on:click=move |_| shown.update(|n| *n += SHOWN)>"Show older"</button>
            </p>
        </section>
    }
}

/// One event in the list: its number and its item's markup (its time, its kind, and what
/// happened, the learner's text isolated). Keyed by both: after a fork, a number can name
/// another event.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    seq: u64,
    markup: Markup,
}

impl std::hash::Hash for Item {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.seq.hash(state);
        self.markup.as_str().hash(state);
    }
}

impl Item {
    fn of(e: &engine::Event) -> Item {
        let kind = e.kind.name();
        let markup = html! {
            "<button class=\"event\" tabindex=\"-1\" data-select=\"", Selection::Event(e.seq).to_attr(), "\"><time>", e.at.to_string(),
            "</time><span class=\"kind ", kind, "\">", kind, "</span><span class=\"text\">", isolated(&e.kind.summary()),
            "</span></button>"
        };
        Item { seq: e.seq, markup }
    }
}

/// The kinds of event the live region announces: what changes the story's course.
const NOTABLE: &[&str] = &[
    "Published",
    "MovedToDeadLetterQueue",
    "VisibilityExpired",
    "FilteredOut",
    "DeliveryFailed",
    "ExpiredByRetention",
    "Deduplicated",
    "WorkerCrashed",
    "OrderServiceCrashed",
    "OutboxRelayCrashed",
];

/// The shortest time (real ms) between two announcements: a screen reader reads one before
/// the next replaces it.
const ANNOUNCE_EVERY_MS: f64 = 1_000.0;

/// What the live region says of `events` (those since the last announcement): nothing when none
/// is notable, each one's summary when there are up to three, else a count of each kind ("12
/// messages published; 3 visibility timeouts ran out").
pub fn announcement(events: &[engine::Event]) -> Option<String> {
    let notable: Vec<&engine::Event> = events.iter().filter(|e| NOTABLE.contains(&e.kind.name())).collect();
    match notable.len() {
        0 => None,
        1..=3 => Some(notable.iter().map(|e| said(e, events)).collect::<Vec<_>>().join("; ")),
        _ => {
            let mut counts: Vec<(&str, usize)> = Vec::new();
            for e in &notable {
                match counts.iter_mut().find(|(k, _)| *k == e.kind.name()) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((e.kind.name(), 1)),
                }
            }
            let copies = events.iter().filter(|e| matches!(e.kind, engine::EventKind::DeliveredToQueue { .. })).count();
            let mut said: Vec<String> = counts.into_iter().map(|(k, n)| counted(k, n)).collect();
            if copies > 0 && said.first().is_some_and(|s| s.ends_with("published")) {
                said[0] = format!("{}, {}", said[0], counted("DeliveredToQueue", copies));
            }
            Some(said.join("; "))
        }
    }
}

/// One notable event in words: a publish with the copies SNS delivered for it among `events`
/// ("sns-1 published to order-events: copied to 3 queues"), else the event's summary.
fn said(e: &engine::Event, events: &[engine::Event]) -> String {
    if let engine::EventKind::Published { topic, sns_message_id, .. } = &e.kind {
        let copies = events
            .iter()
            .filter(|d| matches!(&d.kind, engine::EventKind::DeliveredToQueue { sns_message_id: s, .. } if s == sns_message_id))
            .count();
        if copies > 0 {
            let queues = if copies == 1 { "queue" } else { "queues" };
            return format!("{sns_message_id} published to {topic}: copied to {copies} {queues}");
        }
    }
    e.kind.summary()
}

/// `n` events of kind `kind`, in words.
fn counted(kind: &str, n: usize) -> String {
    let (one, many) = match kind {
        "Published" => ("message published", "messages published"),
        "MovedToDeadLetterQueue" => ("message moved to a dead-letter queue", "messages moved to dead-letter queues"),
        "VisibilityExpired" => ("visibility timeout ran out", "visibility timeouts ran out"),
        "FilteredOut" => ("copy filtered out", "copies filtered out"),
        "DeliveryFailed" => ("delivery failed", "deliveries failed"),
        "ExpiredByRetention" => ("message expired", "messages expired"),
        "Deduplicated" => ("duplicate dropped", "duplicates dropped"),
        "WorkerCrashed" => ("worker crashed", "workers crashed"),
        "OrderServiceCrashed" => ("order service crashed", "order services crashed"),
        "DeliveredToQueue" => ("copy delivered to a queue", "copies delivered to queues"),
        _ => ("relay crashed", "relays crashed"),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Announces the story's notable events in the ARIA live region (polite), at most once a
/// second: what happened since the last announcement, summed up when it is a burst.
pub fn use_announcer(ctx: Ctx) {
    // The first event not yet announced; when the last announcement was made (real ms); whether
    // one is already due.
    let from = StoredValue::new(None::<usize>);
    let last = StoredValue::new(f64::NEG_INFINITY);
    let due = StoredValue::new(false);
    let now = || window().performance().map_or(0.0, |p| p.now());
    // Run by a timer too: the stage may be gone by then (another view), and then says nothing.
    let say = move || {
        let Some(Some(start)) = from.try_get_value() else { return };
        due.try_set_value(false);
        let message = ctx.pg.try_with_untracked(|p| {
            let events = p.events();
            let start = start.min(events.len());
            from.try_set_value(Some(events.len()));
            announcement(&events[start..])
        });
        if let Some(Some(m)) = message {
            last.try_set_value(now());
            ctx.announce.try_set(m);
        }
    };
    Effect::new(move |_| {
        let count = ctx.snapshot.with(|s| s.events);
        match from.get_value() {
            // A story's events before the page showed it are not news.
            None => return from.set_value(Some(count)),
            // Back in time: only what comes from here on.
            Some(f) if count < f => return from.set_value(Some(count)),
            Some(f) if count == f => return,
            Some(_) => {}
        }
        if due.get_value() {
            return;
        }
        let wait = last.get_value() + ANNOUNCE_EVERY_MS - now();
        if wait <= 0.0 {
            say();
        } else {
            due.set_value(true);
            set_timeout(say, std::time::Duration::from_millis(wait.ceil() as u64));
        }
    });
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::announcement;
    use crate::playground::{Playground, DEFAULT_SCENARIO};

    #[test]
    fn a_few_events_are_announced_each_and_a_burst_by_counts() {
        let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
        let start = pg.events().len();
        pg.publish("OrderPlaced").expect("publish");
        let one = announcement(&pg.events()[start..]).expect("a publish is news");
        assert!(one.ends_with("published to order-events: copied to 3 queues"), "{one}");
        for _ in 0..11 {
            pg.publish("OrderPlaced").expect("publish");
        }
        assert_eq!(
            announcement(&pg.events()[start..]).as_deref(),
            Some("12 messages published, 36 copies delivered to queues")
        );
        let quiet = pg.events().len();
        pg.add_worker("billing").expect("worker");
        assert_eq!(announcement(&pg.events()[quiet..]), None, "a worker's creation is not announced");
    }
}
