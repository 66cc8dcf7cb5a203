//! A queue's messages as chips — visible, in flight with a countdown ring for its visibility
//! timer, or delayed — with the receive count against maxReceiveCount. Kept by message: a scrub
//! back in time (older messages come back at the front) inserts the few chips that came back,
//! and a chip whose message only changes state is the same element with new classes and text
//! (a focused chip keeps its focus, its ring its transition).

use super::markup::Markup;
use super::{use_ctx, Selection};
use crate::html;
use engine::ids::MsgId;
use engine::snapshot::{MessageView, QueueView};
use engine::sqs::MsgState;
use engine::SimTime;
use leptos::prelude::*;
use leptos::tachys::reactive_graph::OwnedView;
use leptos::tachys::view::{any_view::AnyView, Mountable, Render};
use std::collections::HashMap;
use std::sync::Arc;

/// One chip as the page shows it, but for its ring's dash, which follows the clock.
#[derive(Clone, Debug, PartialEq)]
struct Shown {
    m: MessageView,
    /// What else the chip depends on: the queue's maxReceiveCount and whether it is selected.
    max: Option<u32>,
    selected: bool,
    /// The kind of event it carries and the order it is about, read from its body.
    kind: Option<String>,
    order: Option<String>,
    class: String,
    label: String,
    title: String,
    /// Its receive count, against the maximum when there is one ("1/5").
    count: String,
}

/// The kind of event a message carries: its `event_type` attribute, else the body's
/// `event_type` (or the one inside an SNS envelope).
fn event_type_of(m: &MessageView) -> Option<String> {
    if let Some(v) = m.attributes.get("event_type").and_then(|a| a.string_value.clone()) {
        return Some(v);
    }
    let kind = |v: &serde_json::Value| v.get("event_type").and_then(|o| o.as_str()).map(str::to_string);
    let v = serde_json::from_str::<serde_json::Value>(&m.body).ok()?;
    kind(&v).or_else(|| {
        let inner = serde_json::from_str::<serde_json::Value>(v.get("Message")?.as_str()?).ok()?;
        kind(&inner)
    })
}

/// The order a message is about: the body's `order_id`, or the one inside an SNS envelope.
fn order_of(body: &str) -> Option<String> {
    let order = |v: &serde_json::Value| v.get("order_id").map(|o| o.to_string());
    let v = serde_json::from_str::<serde_json::Value>(body).ok()?;
    order(&v).or_else(|| {
        let inner = serde_json::from_str::<serde_json::Value>(v.get("Message")?.as_str()?).ok()?;
        order(&inner)
    })
}

/// A padlock: a FIFO message its group's in-flight message holds back.
const LOCK: &str =
    "<svg class=\"lock\" viewBox=\"0 0 12 14\" aria-hidden=\"true\"><path d=\"M3 6V4a3 3 0 0 1 6 0v2\"/>\
                    <rect x=\"1.5\" y=\"6\" width=\"9\" height=\"7\" rx=\"1.5\"/></svg>";

/// Chips a queue card shows before "Show all": a full queue would otherwise make the card (and
/// the page's every frame of paint) grow with it.
pub(crate) const FIRST_CHIPS: usize = 24;

/// The percentage of a timer left at `now`, to a tenth: the ring's dash length out of 100.
fn remaining(since: SimTime, until: SimTime, now: SimTime) -> String {
    let total = until.ms().saturating_sub(since.ms()).max(1);
    let permille = (until.ms().saturating_sub(now.ms()) * 1000 / total).min(1000);
    format!("{}.{}", permille / 10, permille % 10)
}

/// A timer's ring at `now`: its `stroke-dasharray`, out of a path length of 100.
fn dash(since: SimTime, until: SimTime, now: SimTime) -> String {
    format!("{} 100", remaining(since, until, now))
}

/// A message's timer: when it started and when it runs out (in flight or delayed).
fn timer(m: &MessageView) -> Option<(SimTime, SimTime)> {
    match m.state {
        MsgState::InFlight { since, until } | MsgState::Delayed { since, until } => Some((since, until)),
        MsgState::Visible => None,
    }
}

impl Shown {
    /// What the chip's button holds, its ring as at `now`. The body's words are text.
    fn contents(&self, now: SimTime) -> Markup {
        let mut m = Markup::new();
        if self.m.blocked_by.is_some() {
            m.raw(LOCK);
        }
        m.raw("<svg class=\"ring\" viewBox=\"0 0 20 20\" aria-hidden=\"true\">");
        m.raw("<circle class=\"track\" cx=\"10\" cy=\"10\" r=\"7\"/>");
        if let Some((since, until)) = timer(&self.m) {
            let dash = dash(since, until, now);
            html!(into m; "<circle class=\"left\" cx=\"10\" cy=\"10\" r=\"7\" pathLength=\"100\" stroke-dasharray=\"", dash, "\"/>");
        }
        html!(into m; "</svg><span class=\"id\">", self.m.message_id.to_string(), "</span>");
        // A space between the words (the chip is a flex box: it draws none), so that a reader
        // does not run them into one ("msg-3OrderPlaced#4417").
        if let Some(k) = &self.kind {
            html!(into m; " <bdi class=\"etype\">", k, "</bdi>");
        }
        if let Some(o) = &self.order {
            html!(into m; " <bdi class=\"order\">#", o, "</bdi>");
        }
        html!(into m; " <span class=\"rc\" title=\"receive count\">", &self.count, "</span>");
        m
    }

    /// `read` is what its body says (its event's kind, its order), if already known.
    fn of(m: MessageView, read: Option<(Option<String>, Option<String>)>, max: Option<u32>, selected: bool) -> Shown {
        let (kind, order) = read.unwrap_or_else(|| (event_type_of(&m), order_of(&m.body)));
        let waiting = m.blocked_by.as_ref().map(|b| format!("waiting behind {}", b.message_id));
        let (class, state) = match m.state {
            MsgState::Visible if waiting.is_some() => ("chip visible blocked", waiting.as_deref().unwrap_or_default()),
            MsgState::Visible => ("chip visible", "visible"),
            MsgState::InFlight { .. } => ("chip inflight", "in flight"),
            MsgState::Delayed { .. } => ("chip delayed", "delayed"),
        };
        let count = max.map_or_else(|| m.receive_count.to_string(), |max| format!("{}/{max}", m.receive_count));
        Shown {
            class: format!(
                "{class}{}{}",
                if selected { " selected" } else { "" },
                if m.duplicate { " duplicate" } else { "" }
            ),
            // What the chip shows, in its order (WCAG 2.5.3: a learner who says what they see
            // reaches it), then its state in words.
            label: format!(
                "{}{}{} {count}: {state}, received {}{}",
                m.message_id,
                kind.as_ref().map(|k| format!(" {k}")).unwrap_or_default(),
                order.as_ref().map(|o| format!(" #{o}")).unwrap_or_default(),
                crate::format::count(m.receive_count, "time", "times"),
                if m.duplicate { ", a duplicate copy" } else { "" }
            ),
            title: match (&m.blocked_by, timer(&m)) {
                (Some(b), _) => format!("waiting: {} is in flight until {}", b.message_id, b.until),
                (None, Some((_, until))) => format!("until {until}"),
                (None, None) => String::new(),
            },
            count,
            max,
            selected,
            kind,
            order,
            m,
        }
    }
}

/// The chips listed, in order, and where each message's chip is in that list. A chip is
/// shared: one carried over unchanged is the same chip (compared by address, not by content).
#[derive(Clone, Debug, Default)]
struct Listed {
    chips: Vec<Arc<Shown>>,
    at: HashMap<u64, usize>,
}

impl PartialEq for Listed {
    fn eq(&self, other: &Listed) -> bool {
        self.chips.len() == other.chips.len() && self.chips.iter().zip(&other.chips).all(|(a, b)| Arc::ptr_eq(a, b))
    }
}

impl Listed {
    /// The chips of `messages`; those whose message and settings are as in `was` are carried
    /// over as they are, and what a body says is read once.
    fn of(messages: &[MessageView], max: Option<u32>, selected: Option<u64>, was: Option<&Listed>) -> Listed {
        let chips: Vec<Arc<Shown>> = messages
            .iter()
            .map(|m| {
                let selected = selected == Some(m.copy);
                let old = was.and_then(|w| w.get(m.copy));
                match old {
                    Some(w) if w.m == *m && w.max == max && w.selected == selected => Arc::clone(w),
                    _ => {
                        let read = old.filter(|w| w.m.body == m.body).map(|w| (w.kind.clone(), w.order.clone()));
                        Arc::new(Shown::of(m.clone(), read, max, selected))
                    }
                }
            })
            .collect();
        let at = chips.iter().enumerate().map(|(i, c)| (c.m.copy, i)).collect();
        Listed { chips, at }
    }

    fn get(&self, copy: u64) -> Option<&Arc<Shown>> {
        self.at.get(&copy).map(|i| &self.chips[*i])
    }
}

/// What stays with a chip while it is on the page: its message, and what its body says. After
/// a fork, a copy's number can name another message: then it is another chip.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ident {
    copy: u64,
    id: MsgId,
    kind: Option<String>,
    order: Option<String>,
}

impl Ident {
    fn of(c: &Shown) -> Ident {
        Ident { copy: c.m.copy, id: c.m.message_id, kind: c.kind.clone(), order: c.order.clone() }
    }

    /// Whether `c` is this chip's message (in another state, maybe).
    fn is(&self, c: &Shown) -> bool {
        self.copy == c.m.copy && c.m.message_id == self.id && c.kind == self.kind && c.order == self.order
    }
}

#[component]
pub fn Chips(q: Memo<Option<QueueView>>, queue: String) -> impl IntoView {
    let ctx = use_ctx();
    let id = format!("chips-{queue}");
    // The first chips, or with "Show all" every message the snapshot lists, in a scrolling list.
    let all = RwSignal::new(false);
    let meta =
        Memo::new(move |_| q.with(|q| q.as_ref().map(|q| (q.max_receive_count, q.visible + q.in_flight + q.delayed))));
    let listed = {
        let queue = queue.clone();
        Memo::new(move |was: Option<&Listed>| {
            let shown = if all.get() { usize::MAX } else { FIRST_CHIPS };
            let max = meta.with(|m| m.and_then(|m| m.0));
            let selected = ctx.selected.with(|s| match s {
                Some(Selection::Message { queue: q, copy }) if *q == queue => Some(*copy),
                _ => None,
            });
            ctx.shown(|s| {
                let messages = s.queues.iter().find(|q| q.name == queue).map_or(&[][..], |q| &q.messages[..]);
                Listed::of(&messages[..shown.min(messages.len())], max, selected, was)
            })
        })
    };
    // The chips, kept by message (see `keep`); each owns what it holds, under this list.
    let list = NodeRef::<leptos::html::Ul>::new();
    let kept = StoredValue::new_local(Vec::<Kept>::new());
    let parent = Owner::current().expect("a list of chips has an owner");
    let chip = {
        let queue = queue.clone();
        move |shown: Arc<Shown>| {
            let owner = parent.with(Owner::new);
            let (shown, view) = owner.with(|| {
                let shown = RwSignal::new(shown);
                (shown, view! { <Chip shown=shown queue=queue.clone() now=ctx.clock /> }.into_any())
            });
            (shown, OwnedView::new_with_owner(view, owner))
        }
    };
    Effect::new(move |_| {
        let Some(ul) = list.get() else { return };
        listed.with(|new| kept.update_value(|kept| keep(&ul, kept, &new.chips, &chip)));
        // One Tab stop for the list, a frame later when its chips are drawn (`roving`).
        request_animation_frame(move || {
            if let Some(ul) = list.try_get_untracked().flatten() {
                super::roving::keep_one_stop(&ul, "chip");
            }
        });
    });
    // The list is one Tab stop: ↓ ↑ Home End move between its chips (a roving tabindex).
    let keys = move |ev: web_sys::KeyboardEvent| super::roving::on_key(list.get_untracked(), "chip", &ev);
    let focused = move |ev: web_sys::FocusEvent| super::roving::on_focus(list.get_untracked(), "chip", &ev);
    // The rings count down with the time to read (`Ctx::clock`, ten times a second while
    // playing), not every frame: the diagram's dots are the moving view. Without a ring, the
    // clock is not followed at all.
    let timing = Memo::new(move |_| listed.with(|l| l.chips.iter().any(|c| timer(&c.m).is_some())));
    Effect::new(move |_| {
        if timing.get() {
            let now = ctx.clock.get();
            kept.with_value(|kept| count_down(kept, now));
        }
    });
    // A chip names its message (`data-select`); a click on one reaches the list.
    let select = move |e: web_sys::MouseEvent| {
        if let Some(message @ Selection::Message { .. }) = super::selection::under(e.target()) {
            ctx.selected.set(Some(message));
        }
    };
    let label = format!("Messages in {queue}: the arrow keys move between them");
    let toggle_id = format!("queue-{queue}-show-all");
    let held = move || meta.with(|m| m.map_or(0, |m| m.1));
    let more = move || held().saturating_sub(listed.with(|l| l.chips.len()));
    let toggle = move || {
        if all.get() {
            "Show fewer".to_string()
        } else {
            format!("Show all {}", held())
        }
    };
    view! {
        <ul class="chips" class:all=move || all.get() id=id aria-label=label on:click=select on:keydown=keys
            on:focusin=focused node_ref=list></ul>
        <p class="more" hidden=move || held() <= FIRST_CHIPS>
            <span>{move || match (all.get(), more()) {
                (false, n) => format!("and {n} more"),
                (true, 0) => String::new(),
                (true, n) => format!("the first {} listed, {n} more", held() - n),
            }}</span>
            " "
            <button class="link" data-testid=toggle_id aria-pressed=move || all.get().to_string()
                on:click=move |_| all.update(|a| *a = !*a)>{toggle}</button>
        </p>
    }
}

/// A chip on the page: which message it shows, its look now (what its view follows), and its
/// view (with the owner of what it holds).
struct Kept {
    ident: Ident,
    shown: RwSignal<Arc<Shown>>,
    state: <OwnedView<AnyView> as Render>::State,
}

/// Makes a chip's view, and the signal it follows.
type MakeChip = dyn Fn(Arc<Shown>) -> (RwSignal<Arc<Shown>>, OwnedView<AnyView>);

/// Brings the chips in `ul` (`kept`, in order) to `new` (in ascending order of their copies):
/// removes the chips whose messages went, inserts a chip (made by `chip`) for each that came,
/// and leaves the others where they are (see [`plan`](super::plan)), telling those whose look
/// changed. Chips only come and go, they never move.
///
/// Not Leptos's `For`: its keyed diff (tachys 0.2.19) moves in the DOM most of the items that
/// follow an insertion, though none changed places (it compares an item's shift with the
/// insertions and removals met so far, not with those before its new place), and moving a
/// listed chip (`content-visibility: auto`, laid out) costs Chromium some 50–70 µs. With every
/// message listed, a move of the timeline through a busy story moved some 190 chips in each of
/// three 300-chip lists, and `make perf`'s busy scrub p95 went from 25–45 ms to 120–160 ms. Nor
/// a memo per chip over the whole list: each change of the list then asked all of them.
fn keep(ul: &web_sys::Element, kept: &mut Vec<Kept>, new: &[Arc<Shown>], chip: &MakeChip) {
    let old_copies: Vec<u64> = kept.iter().map(|k| k.ident.copy).collect();
    let new_copies: Vec<u64> = new.iter().map(|c| c.m.copy).collect();
    let plan = super::plan(&old_copies, &new_copies).unwrap_or_else(|| vec![None; new.len()]);
    let mut old: Vec<Option<Kept>> = std::mem::take(kept).into_iter().map(Some).collect();
    // Those that stay (after a fork a copy's number can name another message: not that one).
    let stays: Vec<Option<Kept>> =
        new.iter().zip(&plan).map(|(c, at)| at.and_then(|i| old[i].take_if(|k| k.ident.is(c)))).collect();
    for mut gone in old.into_iter().flatten() {
        gone.state.unmount();
    }
    // From the end, so that each new chip goes in before the one after it.
    for (c, stay) in new.iter().zip(stays).rev() {
        let item = match stay {
            Some(k) => {
                if !k.shown.with_untracked(|s| Arc::ptr_eq(s, c)) {
                    k.shown.set(Arc::clone(c));
                }
                k
            }
            None => {
                let (shown, view) = chip(Arc::clone(c));
                let mut state = view.build();
                match kept.last() {
                    Some(after) => {
                        after.state.insert_before_this(&mut state);
                    }
                    None => state.mount(ul, None),
                }
                Kept { ident: Ident::of(c), shown, state }
            }
        };
        kept.push(item);
    }
    kept.reverse();
}

/// Writes the dash of each kept chip's ring as at `now`: only the dash, so that the ring stays
/// the same element and its CSS transition fills the steps.
fn count_down(kept: &[Kept], now: SimTime) {
    for k in kept {
        let Some((since, until)) = k.shown.with_untracked(|c| timer(&c.m)) else { continue };
        let dash = dash(since, until, now);
        let ring = k.state.elements().first().and_then(|li| li.query_selector(".left").ok().flatten());
        if let Some(ring) = ring.filter(|r| r.get_attribute("stroke-dasharray").as_deref() != Some(dash.as_str())) {
            ring.set_attribute("stroke-dasharray", &dash).ok();
        }
    }
}

/// One message's chip: a button whose classes, accessible name and title follow its look, and
/// whose contents are markup (a padlock, its timer's ring, its id, its event's kind, its order,
/// its receive count), drawn anew only when its look changes (see [`count_down`] for the ring).
/// A click (or Enter) inspects the message.
#[component]
fn Chip(shown: RwSignal<Arc<Shown>>, queue: String, now: ReadSignal<SimTime>) -> impl IntoView {
    let copy = shown.with_untracked(|s| s.m.copy);
    let text = move |f: fn(&Shown) -> &String| shown.with(|c| f(c).clone());
    let contents = move || shown.with(|c| c.contents(now.get_untracked()).into_string());
    let select = Selection::Message { queue, copy }.to_attr();
    view! {
        <li>
            <button class=move || text(|c| &c.class) aria-label=move || text(|c| &c.label) tabindex="-1"
                title=move || text(|c| &c.title) data-select=select inner_html=contents></button>
        </li>
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{order_of, remaining, Listed, Shown};
    use crate::playground::{Playground, DEFAULT_SCENARIO};
    use engine::SimTime;
    use std::sync::Arc;

    #[test]
    fn a_chip_says_what_state_its_message_is_in() {
        let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
        pg.publish("OrderPlaced").expect("publish");
        pg.receive("sms").expect("receive");
        let s = pg.snapshot();
        let m = s.queues.iter().find(|q| q.name == "sms").unwrap().messages[0].clone();
        assert_eq!(order_of(&m.body).as_deref(), Some("4417"), "the order id from the event's body");
        let chip = Shown::of(m.clone(), None, Some(5), true);
        assert_eq!(chip.class, "chip inflight selected");
        assert_eq!(chip.label, format!("{} OrderPlaced #4417 1/5: in flight, received 1 time", m.message_id));
        assert_eq!(chip.title, "until 00:01:00.000", "sms's visibility timeout is 60 s");
        assert_eq!((chip.count.as_str(), chip.kind.as_deref()), ("1/5", Some("OrderPlaced")));
        let contents = chip.contents(SimTime(30_000)).into_string();
        assert!(contents
            .contains(r#"<circle class="left" cx="10" cy="10" r="7" pathLength="100" stroke-dasharray="50.0 100"/>"#));
        assert!(
            contents.contains("<bdi class=\"order\">#4417</bdi>") && contents.contains(">1/5</span>"),
            "{contents}"
        );
        assert_eq!(remaining(SimTime(0), SimTime(60_000), SimTime(30_000)), "50.0", "half of the 60 s left at 30 s");
        assert_eq!(remaining(SimTime(0), SimTime(60_000), SimTime(90_000)), "0.0");
    }

    #[test]
    fn a_chip_whose_message_is_as_it_was_is_carried_over_and_a_changed_one_drawn_anew() {
        let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
        pg.publish("OrderPlaced").expect("publish");
        pg.publish("OrderPlaced").expect("publish");
        let messages =
            |pg: &Playground| pg.snapshot().queues.iter().find(|q| q.name == "sms").unwrap().messages.clone();
        let before = Listed::of(&messages(&pg), Some(5), None, None);
        assert_eq!(before.chips.len(), 2);
        pg.apply("ReceiveMessage", &serde_json::json!({"QueueUrl": "sms", "MaxNumberOfMessages": 1})).expect("receive");
        let after = Listed::of(&messages(&pg), Some(5), None, Some(&before));
        let copies = |l: &Listed| l.chips.iter().map(|c| c.m.copy).collect::<Vec<_>>();
        assert_eq!(copies(&after), copies(&before), "the same messages, in the same order");
        let carried: Vec<bool> =
            after.chips.iter().map(|c| before.get(c.m.copy).is_some_and(|b| Arc::ptr_eq(b, c))).collect();
        assert_eq!(carried, [false, true], "the received one is drawn anew, the other carried over");
        assert_ne!(after, before);
        let selected = Listed::of(&messages(&pg), Some(5), Some(after.chips[1].m.copy), Some(&after));
        assert!(selected.chips[1].class.ends_with(" selected") && Arc::ptr_eq(&selected.chips[0], &after.chips[0]));
        assert_eq!(Listed::of(&messages(&pg), Some(5), None, Some(&after)), after, "nothing changed: the same list");
    }

    #[test]
    fn what_a_message_says_enters_its_chip_as_text() {
        let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
        let attributes = r#"{"event_type": {"DataType": "String", "StringValue": "<img src=x onerror=alert(1)>"}}"#;
        pg.publish_custom(r#"{"order_id": "<b>1</b>"}"#, attributes, "").expect("publish");
        let s = pg.snapshot();
        let billing = s.queues.iter().find(|q| q.name == "billing").expect("billing takes every event");
        let contents = Shown::of(billing.messages[0].clone(), None, None, false).contents(SimTime(0)).into_string();
        assert!(!contents.contains("<img") && !contents.contains("<b>"), "{contents}");
        assert!(contents.contains("&lt;img src=x onerror=alert(1)&gt;"), "{contents}");
    }

    #[test]
    fn the_order_id_is_found_inside_an_sns_envelope_too() {
        let envelope = serde_json::json!({"Type": "Notification", "Message": "{\"order_id\": 7}"}).to_string();
        assert_eq!(order_of(&envelope).as_deref(), Some("7"));
        assert_eq!(order_of("not json"), None);
    }
}
