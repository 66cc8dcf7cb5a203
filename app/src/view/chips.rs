//! A queue's messages as chips — visible, in flight with a countdown ring for its visibility
//! timer, or delayed — with the receive count against maxReceiveCount. Hundreds of them: the
//! list is kept by hand rather than by a keyed `For`, so that a scrub back in time (older
//! messages come back at the front) inserts the few chips that changed instead of moving every
//! chip in the list, and a chip that only changes state is updated in place (a focused chip
//! keeps its focus).

use super::{esc, plan, use_ctx, Selection};
use engine::snapshot::{MessageView, QueueView};
use engine::sqs::MsgState;
use engine::SimTime;
use leptos::prelude::*;

/// One chip as the page shows it. `dash` is the timer ring's dash, which follows the clock.
#[derive(Clone, Debug, PartialEq)]
struct Shown {
    m: MessageView,
    /// What else the chip depends on: the queue's maxReceiveCount and whether it is selected.
    max: Option<u32>,
    selected: bool,
    order: Option<String>,
    class: String,
    label: String,
    title: String,
    inner: String,
    dash: Option<String>,
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
const LOCK: &str = "<svg class=\"lock\" viewBox=\"0 0 12 14\" aria-hidden=\"true\"><path d=\"M3 6V4a3 3 0 0 1 6 0v2\"/><rect x=\"1.5\" y=\"6\" width=\"9\" height=\"7\" rx=\"1.5\"/></svg>";

/// Chips a queue card shows before "Show all": a full queue would otherwise make the card (and
/// the page's every frame of paint) grow with it.
pub(crate) const FIRST_CHIPS: usize = 24;

/// The percentage of a timer left at `now`, to a tenth: the ring's dash length out of 100.
fn remaining(since: SimTime, until: SimTime, now: SimTime) -> String {
    let total = until.ms().saturating_sub(since.ms()).max(1);
    let permille = (until.ms().saturating_sub(now.ms()) * 1000 / total).min(1000);
    format!("{}.{}", permille / 10, permille % 10)
}

/// A message's timer: when it started and when it runs out (in flight or delayed).
fn timer(m: &MessageView) -> Option<(SimTime, SimTime)> {
    match m.state {
        MsgState::InFlight { since, until } | MsgState::Delayed { since, until } => Some((since, until)),
        MsgState::Visible => None,
    }
}

impl Shown {
    fn of(m: MessageView, order: Option<String>, max: Option<u32>, selected: bool, now: SimTime) -> Shown {
        let waiting = m.blocked_by.as_ref().map(|b| format!("waiting behind {}", b.message_id));
        let (class, state) = match m.state {
            MsgState::Visible if waiting.is_some() => ("chip visible blocked", waiting.as_deref().unwrap_or_default()),
            MsgState::Visible => ("chip visible", "visible"),
            MsgState::InFlight { .. } => ("chip inflight", "in flight"),
            MsgState::Delayed { .. } => ("chip delayed", "delayed"),
        };
        let timer = timer(&m);
        let count = max.map_or_else(|| m.receive_count.to_string(), |max| format!("{}/{max}", m.receive_count));
        Shown {
            class: format!(
                "{class}{}{}",
                if selected { " selected" } else { "" },
                if m.duplicate { " duplicate" } else { "" }
            ),
            label: format!(
                "{} {state}{}, received {}{}",
                m.message_id,
                order.as_ref().map(|o| format!(" for order {o}")).unwrap_or_default(),
                crate::format::count(m.receive_count, "time", "times"),
                if m.duplicate { ", a duplicate copy" } else { "" }
            ),
            title: match (&m.blocked_by, timer) {
                (Some(b), _) => format!("waiting: {} is in flight until {}", b.message_id, b.until),
                (None, Some((_, until))) => format!("until {until}"),
                (None, None) => String::new(),
            },
            inner: format!(
                "{}<svg class=\"ring\" viewBox=\"0 0 20 20\" aria-hidden=\"true\"><circle class=\"track\" cx=\"10\" cy=\"10\" r=\"7\"/>{}</svg>\
                 <span class=\"id\">{}</span>{}{}<span class=\"rc\" title=\"receive count\">{count}</span>",
                if m.blocked_by.is_some() { LOCK } else { "" },
                if timer.is_some() { "<circle class=\"left\" cx=\"10\" cy=\"10\" r=\"7\" pathLength=\"100\"/>" } else { "" },
                m.message_id,
                event_type_of(&m).map(|k| format!("<bdi class=\"etype\">{}</bdi>", esc(&k))).unwrap_or_default(),
                order.as_ref().map(|o| format!("<bdi class=\"order\">#{}</bdi>", esc(o))).unwrap_or_default(),
            ),
            dash: timer.map(|(since, until)| format!("{} 100", remaining(since, until, now))),
            max,
            selected,
            order,
            m,
        }
    }
}

/// Writes what differs between `old` and `new` into a chip's button.
fn update(button: &web_sys::Element, new: &Shown, old: Option<&Shown>) {
    for (name, value, was) in [
        ("class", &new.class, old.map(|o| &o.class)),
        ("aria-label", &new.label, old.map(|o| &o.label)),
        ("title", &new.title, old.map(|o| &o.title)),
    ] {
        if was != Some(value) {
            button.set_attribute(name, value).ok();
        }
    }
    let inner = old.is_none_or(|o| o.inner != new.inner);
    if inner {
        button.set_inner_html(&new.inner);
    }
    if let Some(dash) = new.dash.as_ref().filter(|d| inner || old.is_none_or(|o| o.dash.as_ref() != Some(d))) {
        if let Ok(Some(ring)) = button.query_selector(".left") {
            ring.set_attribute("stroke-dasharray", dash).ok();
        }
    }
}

/// Brings the list on the page from `old` (`None` where a chip was carried over unchanged)
/// to `new`, where `kept` says which old chip each new one is (see [`plan`](super::plan)): removes, inserts
/// and updates chips.
fn apply(ul: &web_sys::Element, old: &[Option<Shown>], new: &[Shown], kept: Option<Vec<Option<usize>>>) {
    let mut lis = Vec::new();
    let mut next = ul.first_element_child();
    while let Some(li) = next {
        next = li.next_element_sibling();
        lis.push(li);
    }
    let kept = match kept {
        Some(kept) if lis.len() == old.len() => kept,
        _ => {
            ul.set_inner_html("");
            lis.clear();
            vec![None; new.len()]
        }
    };
    for (i, li) in lis.iter().enumerate() {
        if !kept.contains(&Some(i)) {
            li.remove();
        }
    }
    // From the end, so that each new chip goes in before the one after it.
    let mut after: Option<web_sys::Element> = None;
    for (shown, keep) in new.iter().zip(&kept).rev() {
        let li = match keep {
            Some(i) => lis[*i].clone(),
            None => {
                let Ok(li) = document().create_element("li") else { continue };
                li.set_inner_html(&format!("<button data-copy=\"{}\"></button>", shown.m.copy));
                ul.insert_before(&li, after.as_ref().map(|a| a.as_ref())).ok();
                li
            }
        };
        let was = keep.map(|i| old[i].as_ref());
        if let (Some(button), false) = (li.first_element_child(), was.is_some_and(|w| w.is_none())) {
            update(&button, shown, was.flatten());
        }
        after = Some(li);
    }
}

#[component]
pub fn Chips(q: Memo<Option<QueueView>>, queue: String) -> impl IntoView {
    let ctx = use_ctx();
    let id = format!("chips-{queue}");
    // The rings follow the time to read (`Ctx::clock`, ten times a second while playing; their
    // CSS transition fills the steps), not every frame: the diagram's dots are the moving view.
    let now = ctx.clock;
    // The first chips, or with "Show all" every message the snapshot lists, in a scrolling list.
    let all = RwSignal::new(false);
    let messages = {
        let queue = queue.clone();
        Memo::new(move |_| {
            let shown = if all.get() { usize::MAX } else { FIRST_CHIPS };
            ctx.shown(|s| {
                let q = s.queues.iter().find(|q| q.name == queue);
                q.map(|q| q.messages.iter().take(shown).cloned().collect::<Vec<_>>()).unwrap_or_default()
            })
        })
    };
    let meta =
        Memo::new(move |_| q.with(|q| q.as_ref().map(|q| (q.max_receive_count, q.visible + q.in_flight + q.delayed))));
    // The chips, redrawn where their messages changed.
    let timers = StoredValue::new(Vec::<(u64, SimTime, SimTime)>::new());
    let timing = RwSignal::new(false);
    let (list, here) = (id.clone(), queue.clone());
    Effect::new(move |drawn: Option<Vec<Shown>>| {
        let drawn = drawn.unwrap_or_default();
        let Some(ul) = document().get_element_by_id(&list) else { return drawn };
        let max = meta.with(|m| m.and_then(|m| m.0));
        let selected = ctx.selected.with(|s| match s {
            Some(Selection::Message { queue, copy }) if *queue == here => Some(*copy),
            _ => None,
        });
        let copies: Vec<u64> = drawn.iter().map(|s| s.m.copy).collect();
        let mut old: Vec<Option<Shown>> = drawn.into_iter().map(Some).collect();
        let (new, kept) = messages.with(|ms| {
            let kept = plan(&copies, &ms.iter().map(|m| m.copy).collect::<Vec<_>>());
            let new: Vec<Shown> = ms
                .iter()
                .enumerate()
                .map(|(j, m)| {
                    let was = kept.as_ref().and_then(|k| k[j]);
                    let selected = selected == Some(m.copy);
                    // A chip whose message and settings are as they were is carried over as it is.
                    let same = |w: &Shown| w.m == *m && w.max == max && w.selected == selected;
                    if let Some(i) = was.filter(|i| old[*i].as_ref().is_some_and(same)) {
                        return old[i].take().expect("checked just above");
                    }
                    let old = was.and_then(|i| old[i].as_ref()).filter(|w| w.m.body == m.body);
                    let order = old.map_or_else(|| order_of(&m.body), |w| w.order.clone());
                    Shown::of(m.clone(), order, max, selected, now.get_untracked())
                })
                .collect();
            (new, kept)
        });
        apply(&ul, &old, &new, kept);
        timers
            .set_value(new.iter().filter_map(|s| timer(&s.m).map(|(since, until)| (s.m.copy, since, until))).collect());
        let timed = timers.with_value(|t| !t.is_empty());
        if timing.get_untracked() != timed {
            timing.set(timed);
        }
        new
    });
    // The rings count down with the clock; nothing else in a chip does. Without a ring, the
    // clock is not followed at all.
    let list = id.clone();
    Effect::new(move |_| {
        if !timing.get() {
            return;
        }
        let now = now.get();
        let Some(ul) = document().get_element_by_id(&list) else { return };
        timers.with_value(|timers| {
            for (copy, since, until) in timers {
                if let Ok(Some(ring)) = ul.query_selector(&format!("[data-copy=\"{copy}\"] .left")) {
                    ring.set_attribute("stroke-dasharray", &format!("{} 100", remaining(*since, *until, now))).ok();
                }
            }
        });
    });
    let label = format!("Messages in {queue}");
    let toggle_id = format!("queue-{queue}-show-all");
    let select = move |e: web_sys::MouseEvent| {
        let copy = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|el| el.closest("[data-copy]").ok().flatten())
            .and_then(|el| el.get_attribute("data-copy"))
            .and_then(|c| c.parse::<u64>().ok());
        if let Some(copy) = copy {
            ctx.selected.set(Some(Selection::Message { queue: queue.clone(), copy }));
        }
    };
    let held = move || meta.with(|m| m.map_or(0, |m| m.1));
    let more = move || held().saturating_sub(messages.with(Vec::len));
    let toggle = move || {
        if all.get() {
            "Show fewer".to_string()
        } else {
            format!("Show all {}", held())
        }
    };
    view! {
        <ul class="chips" class:all=move || all.get() id=id aria-label=label on:click=select></ul>
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{order_of, remaining, Shown};
    use crate::playground::{Playground, DEFAULT_SCENARIO};
    use engine::SimTime;

    #[test]
    fn a_chip_says_what_state_its_message_is_in() {
        let mut pg = Playground::from_scenario(DEFAULT_SCENARIO).expect("the default scenario loads");
        pg.publish("OrderPlaced").expect("publish");
        pg.receive("sms").expect("receive");
        let s = pg.snapshot();
        let m = s.queues.iter().find(|q| q.name == "sms").unwrap().messages[0].clone();
        let order = order_of(&m.body);
        assert_eq!(order.as_deref(), Some("4417"), "the order id from the event's body");
        let chip = Shown::of(m.clone(), order, Some(5), true, SimTime(30_000));
        assert_eq!(chip.class, "chip inflight selected");
        assert_eq!(chip.label, format!("{} in flight for order 4417, received 1 time", m.message_id));
        assert_eq!(chip.title, "until 00:01:00.000", "sms's visibility timeout is 60 s");
        assert_eq!(chip.dash.as_deref(), Some("50.0 100"), "half of the 60 s left at 30 s");
        assert!(chip.inner.contains("1/5") && chip.inner.contains("#4417") && chip.inner.contains("class=\"left\""));
        assert_eq!(remaining(SimTime(0), SimTime(60_000), SimTime(90_000)), "0.0");
    }

    #[test]
    fn the_order_id_is_found_inside_an_sns_envelope_too() {
        let envelope = serde_json::json!({"Type": "Notification", "Message": "{\"order_id\": 7}"}).to_string();
        assert_eq!(order_of(&envelope).as_deref(), Some("7"));
        assert_eq!(order_of("not json"), None);
    }
}
