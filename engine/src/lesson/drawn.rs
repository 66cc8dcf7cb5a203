//! What the stage draws, by name, and the check that a lesson's text names only what it draws.
//!
//! The app's diagram (`app/src/view/topology.rs`: `staged` cuts a step's `stage` out of the
//! story, `Layout::of` places what is left) draws a producer, the topics, the EventBridge buses
//! that have a rule or an event, a row for each subscription and rule target (a queue, or a
//! function, endpoint, topic or bus drawn in a queue's place), the queues nothing feeds (unless
//! they are a dead-letter queue: those are drawn under their queue), each row's dead-letter
//! queues, consumers (workers, functions polling it) and alarms, the order services in the
//! producer's place, and the services the producer calls when there is no queue at all.
//! [`drawn`] lists those names the same way; keep the two in step.
//!
//! [`names_not_drawn`] is what `fanout test` runs: every resource a step's text names in code
//! style (`` `packing-dlq` ``), or in plain words when the name holds a hyphen or a dot
//! (`loyalty-db`), must be drawn while that text is on screen, or be listed in the step's
//! `appears` (it appears during the step's run: the text says so).

use super::{LessonStep, StepKind};
use crate::scenario::Step;
use crate::snapshot::Snapshot;
use crate::world::ProducerView;

/// The name at the end of an ARN (`arn:aws:sqs:…:orders-dlq` → `orders-dlq`).
fn arn_name(arn: &str) -> &str {
    arn.rsplit([':', '/']).next().unwrap_or(arn)
}

/// The producer a step's run will create as `name` (its `CreateProducer`): drawn before the run
/// has made it, as the app's `Stage::of` plans it.
pub fn planned_producer(name: &str, run: &[Step]) -> Option<ProducerView> {
    use crate::ids::{queue_name_from, topic_name_from};
    run.iter().find_map(|step| {
        let Step::Action { action, params, .. } = step else { return None };
        if action != "CreateProducer" || params["ProducerName"] != name {
            return None;
        }
        let text = |key: &str| params[key].as_str();
        let (design, sends_to) = match text("Design")? {
            "FanOut" => ("FanOut", text("TopicArn").and_then(topic_name_from)),
            "SingleQueue" => ("SingleQueue", text("QueueUrl").and_then(queue_name_from)),
            _ => ("Chain", None),
        };
        let mut calls: Vec<String> = Vec::new();
        for d in params["Jobs"].as_array().into_iter().flatten().filter_map(|j| j["Dependency"].as_str()) {
            if !calls.iter().any(|c| c == d) {
                calls.push(d.to_string());
            }
        }
        Some(ProducerView {
            name: name.to_string(),
            design,
            sends_to: sends_to.map(str::to_string),
            calls: if design == "Chain" { calls } else { Vec::new() },
            produced: 0,
            count: 0,
            requests_in_flight: 0,
            succeeded: 0,
            failed: 0,
            half_done: 0,
        })
    })
}

/// The part of `s` producer `stage`'s design uses (the app's `staged`), or `None` when there is
/// no such producer, existing or `planned` (then the whole world is drawn).
pub fn staged(s: &Snapshot, stage: &str, planned: Option<&ProducerView>) -> Option<Snapshot> {
    let p = s.world.producers.iter().find(|p| p.name == stage).or(planned)?.clone();
    let (topic, queues): (Option<String>, Vec<String>) = match (p.design, p.sends_to.as_deref()) {
        ("SingleQueue", Some(q)) => (None, vec![q.to_string()]),
        ("FanOut", Some(t)) => {
            let subs = s.topics.iter().filter(|x| x.name == t).flat_map(|x| &x.subscriptions);
            (
                Some(t.to_string()),
                subs.flat_map(|x| x.queue.iter().chain(x.dead_letter_queue.iter())).cloned().collect(),
            )
        }
        _ => (None, Vec::new()),
    };
    let dlqs = s.queues.iter().filter(|q| queues.contains(&q.name)).filter_map(|q| q.dead_letter_queue.clone());
    let keep: Vec<String> = queues.iter().cloned().chain(dlqs).collect();
    let mut out = s.clone();
    out.world.order_services.clear();
    out.eventbridge = Default::default();
    out.topics.retain(|x| topic.as_deref() == Some(x.name.as_str()));
    if p.design == "Chain" {
        out.world.dependencies =
            p.calls.iter().filter_map(|c| s.world.dependencies.iter().find(|d| d.name == *c).cloned()).collect();
    }
    out.world.producers = vec![p];
    out.queues.retain(|q| keep.contains(&q.name));
    let kept = |queue: &str| out.queues.iter().any(|q| q.name == queue);
    out.world.workers = out.world.workers.iter().filter(|w| kept(&w.queue)).cloned().collect();
    out.world.event_source_mappings =
        out.world.event_source_mappings.iter().filter(|m| kept(&m.queue)).cloned().collect();
    Some(out)
}

/// Every name the diagram of `s` shows as a node (not as a caption inside one): the producer
/// (or the order services and their relays in its place), topics, drawn buses with their rules,
/// archives and replays, each row's queue or endpoint, dead-letter queues, consumers and alarms,
/// and the services called directly when there is no row.
pub fn drawn(s: &Snapshot) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |n: &str| {
        if !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    };
    let drawn_buses: Vec<_> = s.eventbridge.buses.iter().filter(|b| !b.rules.is_empty() || b.received > 0).collect();
    let target_dlqs: Vec<&str> = s
        .eventbridge
        .buses
        .iter()
        .flat_map(|b| &b.rules)
        .flat_map(|r| &r.targets)
        .filter_map(|t| t.dead_letter_arn.as_deref())
        .map(arn_name)
        .collect();
    let is_dlq = |name: &str| {
        s.queues.iter().any(|q| q.dead_letter_queue.as_deref() == Some(name))
            || s.topics.iter().flat_map(|t| &t.subscriptions).any(|x| x.dead_letter_queue.as_deref() == Some(name))
            || target_dlqs.contains(&name)
    };
    // Rows: (name, the subscription's or target's own dead-letter queue).
    let mut rows: Vec<(String, Option<String>)> = Vec::new();
    for t in &s.topics {
        add(&t.name);
        for sub in &t.subscriptions {
            rows.push((sub.queue.clone().unwrap_or_else(|| sub.endpoint.clone()), sub.dead_letter_queue.clone()));
        }
    }
    for bus in &drawn_buses {
        add(&bus.name);
        for rule in &bus.rules {
            add(&rule.name);
            for t in &rule.targets {
                rows.push((t.destination.clone(), t.dead_letter_arn.as_deref().map(|a| arn_name(a).to_string())));
            }
        }
        for a in s.eventbridge.archives.iter().filter(|a| a.bus == bus.name || a.bus == bus.arn) {
            add(&a.name);
        }
        for r in s.eventbridge.replays.iter().filter(|r| r.bus == bus.name || r.bus == bus.arn) {
            add(&r.name);
        }
    }
    let fed: Vec<String> = rows.iter().map(|(n, _)| n.clone()).collect();
    for q in s.queues.iter().filter(|q| !fed.contains(&q.name) && !is_dlq(&q.name)) {
        rows.push((q.name.clone(), None));
    }
    for (name, own_dlq) in &rows {
        // A row that is not a queue shows the endpoint's or function's name (an ARN's last part).
        let queue = s.queues.iter().find(|q| q.name == *name);
        match queue {
            Some(_) => add(name),
            None => match s.world.http_endpoints.iter().find(|e| e.url == *name || e.name == *name) {
                Some(e) => add(&e.name),
                None => add(arn_name(name)),
            },
        }
        let dlq = queue.and_then(|q| q.dead_letter_queue.clone());
        for d in dlq.iter().chain(own_dlq.iter()) {
            add(d);
        }
        for w in s.world.workers.iter().filter(|w| w.queue == *name) {
            add(&w.name);
        }
        // The service the row's workers call (the first any of them calls), under them.
        let workers = s.world.workers.iter().filter(|w| w.queue == *name);
        if let Some(d) = workers.filter_map(|w| w.calls.first()).next() {
            if s.world.dependencies.iter().any(|x| x.name == *d) {
                add(d);
            }
        }
        for m in s.world.event_source_mappings.iter().filter(|m| m.queue == *name) {
            add(&m.function);
        }
        let watched = |d: &str| d == name || dlq.as_deref() == Some(d) || own_dlq.as_deref() == Some(d);
        for a in s.world.alarms.iter().filter(|a| a.dimension_value.as_deref().is_some_and(watched)) {
            add(&a.name);
        }
    }
    if s.world.order_services.is_empty() {
        // The first topic drawn: the one the first producer sends to, else the first made.
        let sends_to = s.world.producers.first().and_then(|p| p.sends_to.as_deref());
        let first = sends_to.and_then(|w| s.topics.iter().find(|t| t.name == w || t.arn == w));
        let first_topic = first.or(s.topics.first()).map(|t| t.name.clone());
        let producer = match first_topic {
            Some(t) => s.world.producers.iter().find(|p| p.sends_to.as_deref() == Some(t.as_str())),
            None => s.world.producers.first(),
        };
        add(producer.map_or("checkout", |p| p.name.as_str()));
    } else {
        for o in &s.world.order_services {
            add(&o.name);
            for r in &o.relays {
                add(&r.name);
            }
        }
    }
    if rows.is_empty() {
        for d in &s.world.dependencies {
            add(&d.name);
        }
    }
    out
}

/// Every name of a resource `s` holds, drawn or not.
pub fn resources(s: &Snapshot) -> Vec<String> {
    let w = &s.world;
    let eb = &s.eventbridge;
    let names = s.topics.iter().map(|t| &t.name).chain(s.queues.iter().map(|q| &q.name));
    let names = names.chain(w.workers.iter().map(|x| &x.name)).chain(w.functions.iter().map(|x| &x.name));
    let names = names.chain(w.dependencies.iter().map(|x| &x.name)).chain(w.producers.iter().map(|x| &x.name));
    let names = names.chain(w.alarms.iter().map(|x| &x.name)).chain(w.http_endpoints.iter().map(|x| &x.name));
    let names = names.chain(w.order_services.iter().map(|x| &x.name));
    let names = names.chain(w.order_services.iter().flat_map(|o| o.relays.iter().map(|r| &r.name)));
    let names = names.chain(eb.buses.iter().map(|b| &b.name));
    let names = names.chain(eb.buses.iter().flat_map(|b| b.rules.iter().map(|r| &r.name)));
    let names = names.chain(eb.archives.iter().map(|a| &a.name)).chain(eb.replays.iter().map(|r| &r.name));
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    out
}

/// The diagram while a step is shown: its stage cut from `s`, or all of `s`.
pub fn drawn_at(s: &Snapshot, step: &LessonStep) -> Vec<String> {
    let Some(stage) = &step.stage else { return drawn(s) };
    let run = match &step.kind {
        StepKind::Run { run, .. } => run.as_slice(),
        StepKind::Predict(p) => p.run.as_slice(),
        _ => &[],
    };
    let planned = planned_producer(stage, run);
    match staged(s, stage, planned.as_ref()) {
        Some(own) => drawn(&own),
        None => drawn(s),
    }
}

/// When a piece of a step's text is on screen: from the step's start (`Before`), only after
/// its run or solution (`After`), or both while the run plays (`During`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    Before,
    During,
    After,
}

/// A step's texts, each with where it is (`text`, `question`, `reveal`…) and when it is shown.
pub fn texts(step: &LessonStep) -> Vec<(String, &str, Shown)> {
    let mut out: Vec<(String, &str, Shown)> = Vec::new();
    match &step.kind {
        StepKind::Narration => out.push(("text".into(), &step.text, Shown::Before)),
        StepKind::Run { facts, .. } => {
            out.push(("text".into(), &step.text, Shown::During));
            for (i, c) in facts.iter().enumerate().filter(|(_, c)| !c.label.is_empty()) {
                out.push((format!("facts[{i}].label"), &c.label, Shown::After));
            }
        }
        StepKind::Predict(p) => {
            out.push(("text".into(), &step.text, Shown::Before));
            out.push(("question".into(), &p.question, Shown::Before));
            for (i, c) in p.choices.iter().enumerate() {
                out.push((format!("choices[{i}].label"), &c.label, Shown::Before));
                out.push((format!("choices[{i}].why"), &c.why, Shown::After));
            }
            out.push(("reveal".into(), &p.reveal, Shown::After));
            for (i, c) in p.facts.iter().enumerate().filter(|(_, c)| !c.label.is_empty()) {
                out.push((format!("facts[{i}].label"), &c.label, Shown::After));
            }
        }
        StepKind::Checkpoint(c) => {
            // The learner makes what a checkpoint asks for: its text may name it before it is drawn.
            out.push(("text".into(), &step.text, Shown::During));
            out.push(("hint".into(), &c.hint, Shown::During));
            for (i, g) in c.goals.iter().enumerate() {
                out.push((format!("goals[{i}].label"), &g.label, Shown::During));
            }
            out.push(("done".into(), &c.done, Shown::After));
        }
        StepKind::Remember { lines, .. } => {
            for (i, l) in lines.iter().enumerate() {
                out.push((format!("lines[{i}]"), l, Shown::Before));
            }
        }
    }
    out
}

/// The resource names `text` mentions: its code spans that are one of `known`, and its plain
/// words that are one of `known` holding a hyphen or a dot (a word such as `packing` or `sms` is
/// also plain English; `loyalty-db` is not).
pub fn named(text: &str, known: &[String]) -> Vec<String> {
    use super::markup::{spans, Span};
    let mut out: Vec<String> = Vec::new();
    let mut push = |n: &str| {
        if !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    };
    for span in spans(text) {
        match span {
            Span::Code(c) => {
                if known.contains(&c) {
                    push(&c);
                }
            }
            Span::Text(t) | Span::Emphasis(t) => {
                let word_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_';
                for word in t.split(|c: char| !word_char(c)) {
                    let word = word.trim_matches(|c: char| c == '.' || c == '-');
                    if word.contains(['-', '.']) && known.iter().any(|k| k == word) {
                        push(word);
                    }
                }
            }
        }
    }
    out
}

/// A name a step's text gives that its stage does not draw while the text is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotDrawn {
    /// 1-based.
    pub step: usize,
    /// Where in the step: `text`, `question`, `choices[1].why`…
    pub field: String,
    pub name: String,
    /// Drawn later in the step (after its run): listing it in `appears` would do.
    pub later: bool,
}

impl NotDrawn {
    /// What is wrong, without the step: `text names "sns-body", which …`.
    pub fn describe(&self) -> String {
        let when = if self.later {
            "which the diagram draws only once the step's run has made it: say so in the text, and list it in the step's \"appears\""
        } else {
            "which the diagram does not draw at this step: draw it, or do not name it"
        };
        format!("{} names \"{}\", {when}", self.field, self.name)
    }
}

impl std::fmt::Display for NotDrawn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {}: {}", self.step, self.describe())
    }
}

/// Checks one step: `before` and `after` are the story as the step begins and once its run (or
/// its checkpoint's solution) is done; `known` every resource name the lesson's story holds.
pub fn check_step(n: usize, step: &LessonStep, before: &Snapshot, after: &Snapshot, known: &[String]) -> Vec<NotDrawn> {
    let at_start = drawn_at(before, step);
    let at_end = drawn_at(after, step);
    let mut out = Vec::new();
    for (field, text, shown) in texts(step) {
        for name in named(text, known) {
            let (start, end) = (at_start.contains(&name), at_end.contains(&name));
            let ok = match shown {
                Shown::Before => start || (end && step.appears.contains(&name)),
                Shown::During => start || end,
                Shown::After => end,
            };
            if !ok {
                out.push(NotDrawn { step: n, field: field.clone(), name, later: !start && end });
            }
        }
    }
    out
}

/// The names a step's `appears` lists that the diagram does not draw once the step has run
/// (`after`): a stale list.
pub fn appears_unused(step: &LessonStep, after: &Snapshot) -> Vec<String> {
    let at_end = drawn_at(after, step);
    step.appears.iter().filter(|n| !at_end.contains(n)).cloned().collect()
}
