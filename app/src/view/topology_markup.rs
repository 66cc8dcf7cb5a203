//! The diagram's markup (see [`super::Topology`]): the whole diagram as one string, the
//! nodes, badges and dead-letter queues it is made of, laid out by [`super::Layout`].

use super::*;

/// A text cut to `max` characters, with "…" when cut.
pub(super) fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max - 1).collect::<String>())
    }
}

/// A topic's name inside its 80-unit node: one line when it fits, else two, broken before its
/// last "." or "-" (`order-events` / `.fifo`), as `<tspan>`s under the node's title.
fn topic_lines(name: &str, y: i64) -> String {
    const FITS: usize = 13;
    let cut = (name.chars().count() > FITS).then(|| name.rfind(['.', '-'])).flatten().filter(|i| *i > 0);
    match cut {
        Some(i) => format!(
            "<tspan x=\"210\" y=\"{y}\">{}</tspan><tspan x=\"210\" y=\"{}\">{}</tspan>",
            esc(&name[..i]),
            y + 12,
            esc(&name[i..])
        ),
        None => esc(name),
    }
}

/// A queue's first messages inside its node, on the line at `y`: a dot each in its state's
/// colour, a ring for a timer with its seconds, the receive count; "+N" for the rest, at the
/// top right of the node. A dot selects its message.
fn dots_markup(queue: &str, dots: &[Dot], more: usize, y: i64) -> String {
    use std::fmt::Write;
    let mut m = String::new();
    for (i, d) in dots.iter().enumerate() {
        let x = 430 + i as i64 * 34;
        let ring = d.ring.map_or_else(String::new, |left| {
            format!(
                "<circle class=\"ring\" cx=\"{x}\" cy=\"{y}\" r=\"7\" pathLength=\"100\" stroke-dasharray=\"{left} 100\" \
                 transform=\"rotate(-90 {x} {y})\"/>"
            )
        });
        let _ = write!(
            m,
            "<g class=\"msg {}\" data-select=\"msg:{}:{}\" data-testid=\"diagram-msg-{}-{}\"><title>{}</title>\
             <circle cx=\"{x}\" cy=\"{y}\" r=\"4.5\"/>{ring}<text x=\"{}\" y=\"{}\">{}</text></g>",
            d.class,
            d.copy,
            esc(queue),
            esc(queue),
            d.copy,
            esc(&d.title),
            x + 9,
            y + 3,
            esc(&d.label)
        );
    }
    // On the name's line, at the node's right edge: the last dot's seconds ("29s") leave no
    // room for it on the dots' line.
    if more > 0 {
        let _ = write!(m, "<text class=\"more\" x=\"600\" y=\"{}\" text-anchor=\"end\">+{more}</text>", y - 29);
    }
    m
}

/// A box on the queues' column (a queue, or a service called directly): its name, a line of
/// counts under it, then `inner`. `attrs` are the node's own attributes; `(top, height)` its box.
#[allow(clippy::too_many_arguments)]
fn box_node(
    m: &mut String,
    class: &str,
    attrs: &str,
    live: usize,
    (top, height): (i64, i64),
    name: &str,
    stat: &str,
    inner: &str,
) {
    use std::fmt::Write;
    let _ = write!(
        m,
        "<g class=\"node {class}\" data-live=\"{live}\" {attrs}><rect x=\"410\" y=\"{top}\" width=\"200\" height=\"{height}\" rx=\"10\"/>\
         <text class=\"name\" x=\"424\" y=\"{}\">{name}</text><text class=\"stat\" x=\"424\" y=\"{}\">{stat}</text>{inner}</g>",
        top + 20,
        top + 36
    );
}

/// A dead-letter queue drawn under what feeds it (a queue, or a subscription): a dashed edge
/// down to it, the node with its count, and a caption saying what it catches.
struct DeadLetter<'a> {
    name: &'a str,
    count: usize,
    /// The node's centre line.
    centre: i64,
    width: i64,
    /// Where the dashed edge comes down.
    edge_x: i64,
    /// Where the dashed edge starts (the bottom of what feeds it).
    edge_from: i64,
    /// The top of its box.
    top: i64,
    /// How many characters of its name fit.
    fits: usize,
    /// More classes (a leading space each).
    class: &'static str,
    /// Whether the node carries `data-testid="diagram-sub-dlq-<name>"`.
    testid: bool,
}

impl DeadLetter<'_> {
    /// Writes the node. Label, title and caption are text.
    fn write(&self, m: &mut String, live: usize, label: &str, title: &str, caption: &str) {
        use std::fmt::Write;
        let (d, c, x, top) = (esc(self.name), self.centre, self.edge_x, self.top);
        let testid = if self.testid { format!(" data-testid=\"diagram-sub-dlq-{d}\"") } else { String::new() };
        let _ = write!(
            m,
            "<g class=\"edge dlq\"><path d=\"M {x} {} L {x} {}\"/></g>\
             <g class=\"node dlq{}\" tabindex=\"0\" role=\"button\" data-live=\"{live}\" data-select=\"queue:{d}\"{testid} aria-label=\"{}\">\
             <title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"32\" rx=\"8\"/>\
             <text class=\"name small\" x=\"{c}\" y=\"{}\" text-anchor=\"middle\">{} · {}</text></g>\
             <text class=\"caption\" x=\"{c}\" y=\"{}\" text-anchor=\"middle\">{caption}</text>",
            self.edge_from,
            top,
            self.class,
            esc(label),
            esc(title),
            c - self.width / 2,
            top,
            self.width,
            top + 20,
            esc(&cut(self.name, self.fits)),
            self.count,
            top + 44
        );
    }
}

/// The diagram's markup, written as one string: much less code in the bundle than a typed
/// view per node. The nodes whose look follows the counts and states (queues, DLQs, consumers)
/// carry `data-live="i"`, numbered in order, so that [`Topology`] can update them in place when
/// only the counts change. Clicks and keys reach the nodes through `data-select`.
pub(super) fn diagram_markup(layout: &Layout) -> String {
    use std::fmt::Write;
    let topic_y = layout.topic_y();
    let mut m = String::new();
    let mut live = 0..;
    let narrow = layout.narrow;
    if layout.services.is_empty() {
        let _ = write!(
            m,
            "<g class=\"node producer\"><rect x=\"10\" y=\"{}\" width=\"120\" height=\"48\" rx=\"24\"/>\
             <text class=\"name\" x=\"70\" y=\"{}\" text-anchor=\"middle\">{}</text></g>",
            topic_y - 24,
            topic_y + 5,
            esc(&layout.producer),
        );
    }
    services_markup(&mut m, layout, &mut live);
    // In the narrow diagram the topics and each row's badges and queue are drawn where the
    // wide one draws them, moved left.
    let shift =
        |dx: i64| if narrow { (format!("<g transform=\"translate({dx} 0)\">"), "</g>") } else { (String::new(), "") };
    if !layout.topics.is_empty() && layout.services.is_empty() {
        // The producer publishes to the first topic; the others are fed by what publishes to
        // them (an alarm's action, say).
        let path = if narrow {
            format!("M {N_TRUNK} 48 L {N_TRUNK} {N_TOP}")
        } else {
            format!("M 130 {topic_y} L 170 {topic_y}")
        };
        let _ = write!(m, "<g class=\"edge\"><path d=\"{path}\"/></g>");
    }
    for (i, (topic, y)) in layout.topics.iter().enumerate() {
        let (open, close) = shift(N_TOPIC_SHIFT);
        let (class, kind, testid) =
            if layout.is_bus(i) { ("topic bus", "event bus", "bus") } else { ("topic", "SNS topic", "topic") };
        let _ = write!(
            m,
            "{open}<g class=\"node {class}\" data-testid=\"diagram-{testid}-{t}\"><title>{kind} {t}</title>\
             <rect x=\"170\" y=\"{}\" width=\"80\" height=\"60\" rx=\"12\"/>\
             <text class=\"kind\" x=\"210\" y=\"{}\" text-anchor=\"middle\">{kind}</text>\
             <text class=\"name small\" x=\"210\" y=\"{}\" text-anchor=\"middle\">{}</text></g>{close}",
            y - 30,
            y - 10,
            y + 6,
            topic_lines(topic, y + 6),
            t = esc(topic),
        );
        // A bus's archives and replays, under it (in the narrow diagram beside it): live, their
        // counts change.
        for (k, (_, note)) in layout.notes.iter().filter(|(b, _)| *b == i).enumerate() {
            let (x, top, anchor) = if narrow { (260, y - 4, "start") } else { (210, y + 42, "middle") };
            let _ = write!(
                m,
                "{open}<text class=\"caption note\" data-live=\"{}\" x=\"{x}\" y=\"{}\" text-anchor=\"{anchor}\">{}</text>{close}",
                live.next().unwrap_or_default(),
                top + k as i64 * 11,
                esc(note)
            );
        }
    }
    // Direct calls: each service the producer waits on, in turn, with its latency now.
    for (i, Call { name, latency, calls, errors, down }) in layout.calls.iter().enumerate() {
        let (y, n) = (layout.call_y(i), esc(name));
        let (class, state) = if *down { (" down", ", down") } else { ("", "") };
        let _ = write!(m, "<g class=\"edge\"><path d=\"{}\"/></g>", layout.producer_path(y));
        let (open, close) = shift(N_SHIFT);
        m.push_str(&open);
        let attrs = format!(
            "data-testid=\"diagram-call-{n}\" aria-label=\"Service {n}: answers in {latency}{state}; {calls} calls, {errors} failed\""
        );
        let stat = format!("{latency}{state} · {calls} calls · {errors} failed");
        box_node(
            &mut m,
            &format!("queue call{class}"),
            &attrs,
            live.next().unwrap_or_default(),
            (y - 24, 48),
            &n,
            &stat,
            "",
        );
        m.push_str(close);
    }
    let mut over = String::new();
    for row in &layout.rows {
        let Row {
            sub,
            rule,
            endpoint,
            queue,
            visible,
            inflight,
            dlq,
            sub_dlq,
            consumers,
            dots,
            more,
            y,
            drop,
            topic: _,
        } = row;
        let (y, q) = (*y, esc(queue));
        if let Some(path) = layout.feed_path(row, false) {
            let _ = write!(m, "<g class=\"edge\"><path d=\"{path}\"/></g>");
        }
        let (open, close) = shift(N_SHIFT);
        m.push_str(&open);
        if let Some(sub) = sub {
            let _ = write!(m, "<g class=\"badges\" data-select=\"sub:{}\">", esc(&sub.arn));
            if let Some(p) = &sub.filter_policy {
                let p = esc(p);
                let _ = write!(
                    m,
                    "<g class=\"badge filter\" tabindex=\"0\" role=\"button\" aria-label=\"Filter policy for {q}: {p}\">\
                     <title>Filter policy: {p}</title><rect x=\"296\" y=\"{}\" width=\"56\" height=\"20\" rx=\"10\"/>\
                     <path class=\"funnel\" d=\"M 303 {} h 11 l -4 5 v 4 l -3 1 v -5 z\"/>\
                     <text x=\"330\" y=\"{}\">filter</text></g>",
                    y - 11,
                    y - 5,
                    y + 4
                );
            }
            let (title, label) = if sub.raw {
                ("Raw message delivery: the body arrives exactly as published", "raw")
            } else {
                ("SNS envelope: the event arrives inside a JSON notification", "env")
            };
            let _ = write!(
                m,
                "<g class=\"badge raw\"><title>{title}</title><rect x=\"356\" y=\"{}\" width=\"40\" height=\"20\" rx=\"10\"/>\
                 <text x=\"376\" y=\"{}\">{label}</text></g></g>",
                y - 11,
                y + 4
            );
        }
        if let Some(rule) = rule {
            rule_badge(&mut m, live.next().unwrap_or_default(), rule, &q, y);
        }
        // What is not a queue is drawn as what it is (only on the routes page); a queue with
        // its messages inside.
        let drawn = endpoint
            .as_ref()
            .map(|e| endpoint_box(&mut m, live.next().unwrap_or_default(), e, sub.as_ref(), rule.as_ref(), y));
        match drawn {
            Some(()) => {}
            None => box_node(
                &mut m,
                "queue",
                &format!(
                    "tabindex=\"0\" role=\"button\" data-select=\"queue:{q}\" aria-label=\"Queue {q}: {visible} visible, {inflight} in flight\""
                ),
                live.next().unwrap_or_default(),
                (y - 30, 60),
                &q,
                &format!("{visible} visible · {inflight} in flight"),
                &dots_markup(queue, dots, *more, y + 19),
            ),
        }
        if let Some(sub) = sub.as_ref().filter(|s| s.filter_policy.is_some()) {
            let why = if narrow { (296, 20) } else { (258, 34) };
            filter_stats(&mut m, live.next().unwrap_or_default(), &q, sub.filtered_out, drop.as_deref(), y, why);
        }
        m.push_str(close);
        // Beside the queue, or in the narrow diagram under it, one under the other.
        let shown = consumers.len().min(MAX_CONSUMERS);
        let first_y = if narrow { y + 46 } else { y - (shown.max(1) as i64 - 1) * 12 };
        let (cx, cw) = if narrow { (200, 140) } else { (650, 170) };
        for (i, c) in consumers.iter().take(MAX_CONSUMERS).enumerate() {
            let cy = first_y + i as i64 * 24;
            let edge = if narrow {
                format!("M 188 {} L 188 {cy} L 200 {cy}", y + 30)
            } else {
                format!("M 610 {y} C 630 {y}, 630 {cy}, 650 {cy}")
            };
            let label = esc(&c.label);
            let select = c.worker.as_deref().map(|w| format!(" data-select=\"worker:{}\"", esc(w))).unwrap_or_default();
            // A function's node: "Lambda function ship" to a screen reader; its test id keeps
            // the "λ " it has always had.
            let (who, testid) = match &c.worker {
                Some(w) => ("", esc(w)),
                None => ("Lambda function ", format!("λ {label}")),
            };
            let _ = write!(
                m,
                "<g class=\"edge consume\"><path d=\"{edge}\"/></g>\
                 <g class=\"node consumer {}\" tabindex=\"0\" role=\"button\" data-live=\"{}\"{select} data-testid=\"diagram-consumer-{testid}\" aria-label=\"{who}{label} on {q}: {}\">\
                 <title>{who}{label}: {}</title><rect x=\"{cx}\" y=\"{}\" width=\"{cw}\" height=\"20\" rx=\"10\"/>\
                 <text class=\"glyph\" x=\"{}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\">{label}</text></g>",
                c.state.name().to_ascii_lowercase(),
                live.next().unwrap_or_default(),
                c.state.name(),
                c.state.name(),
                cy - 10,
                cx + 12,
                cy + 4,
                state_glyph(c.state),
                cx + 26,
                cy + 4,
            );
        }
        if consumers.len() > MAX_CONSUMERS {
            let _ = write!(
                m,
                "<text class=\"more\" x=\"{}\" y=\"{}\">+{} more</text>",
                cx + 26,
                first_y + shown as i64 * 24 + 2,
                consumers.len() - MAX_CONSUMERS
            );
        }
        if let Some((d, n)) = dlq {
            let label = format!("Dead-letter queue {d}: {n} messages, what {queue}'s consumers never deleted");
            let title = format!(
                "{queue}'s dead-letter queue: the messages its consumers received too often without deleting them"
            );
            let (centre, width, edge_x) = row.dlq_place(narrow);
            let node = DeadLetter {
                name: d,
                count: *n,
                centre,
                width,
                edge_x,
                edge_from: y + 30,
                top: row.dlq_top(narrow),
                fits: 18,
                class: "",
                testid: false,
            };
            node.write(&mut m, live.next().unwrap_or_default(), &label, &title, "processing failures");
        }
        // Under the subscription's badge, right of the topic's edges; drawn after every row.
        if let Some((d, n)) = sub_dlq {
            let of_rule = rule.as_ref().map(|r| r.name.as_str());
            let (label, title) = if let Some(r) = of_rule {
                (
                    format!(
                        "Target dead-letter queue {d}: {n} messages, the events rule {r} could not deliver to {queue}"
                    ),
                    format!("The target's dead-letter queue: the events EventBridge could not deliver to {queue}"),
                )
            } else {
                (
                    format!(
                        "Subscription dead-letter queue {d}: {n} messages, the copies SNS could not deliver to {queue}"
                    ),
                    format!("The subscription's dead-letter queue: the copies SNS could not deliver to {queue}"),
                )
            };
            let ((centre, width, fits), edge_x) =
                if narrow { ((110, 110, 13), 376 + N_SHIFT) } else { ((432, 136, 18), 376) };
            let node = DeadLetter {
                name: d,
                count: *n,
                centre,
                width,
                edge_x,
                edge_from: y + 9,
                top: row.dlq_top(narrow),
                fits,
                class: " sub-dlq",
                testid: true,
            };
            node.write(&mut over, live.next().unwrap_or_default(), &label, &title, "delivery failures");
        }
    }
    m + &over
}

/// The order services in the producer's place (wide: stacked, each with its line to the
/// first topic; narrow: side by side on top, the second's line joining the first's), each
/// with its database in a caption under it. A service opens its database in the inspector.
fn services_markup(m: &mut String, layout: &Layout, live: &mut std::ops::RangeFrom<usize>) {
    use std::fmt::Write;
    let topic_y = layout.topic_y();
    for (i, service) in layout.services.iter().enumerate() {
        let (x, y) = if layout.narrow { (10 + i as i64 * 130, 24) } else { (10, layout.service_y(i)) };
        let (cx, name) = (x + 60, esc(&service.name));
        if let Some(_first) = layout.topics.first() {
            let path = match (layout.narrow, i) {
                (true, 0) => format!("M {N_TRUNK} 48 L {N_TRUNK} {}", N_TOP + layout.lift),
                // From inside the box's left end, down past its captions, to the trunk.
                (true, _) => {
                    format!("M {} 24 L {} {} L {N_TRUNK} {}", x + 8, x + 8, 48 + layout.lift + 4, 48 + layout.lift + 4)
                }
                (false, _) => format!("M 130 {y} C 150 {y}, 150 {topic_y}, 170 {topic_y}"),
            };
            let _ = write!(m, "<g class=\"edge\"><path d=\"{path}\"/></g>");
        }
        let class = if service.crashed { "node producer service crashed" } else { "node producer service" };
        let (line, design) = (esc(&service.line), service.design);
        let _ = write!(
            m,
            "<g class=\"{class}\" tabindex=\"0\" role=\"button\" data-live=\"{}\" data-select=\"service:{name}\" \
             data-testid=\"diagram-service-{name}\" aria-label=\"Order service {name} ({design}): {line}\"><title>{name} ({design}): {line}</title>\
             <rect x=\"{x}\" y=\"{}\" width=\"120\" height=\"40\" rx=\"20\"/>\
             <text class=\"name small\" x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>\
             <text class=\"caption\" x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text></g>",
            live.next().unwrap_or_default(),
            y - 20,
            y + 4,
            esc(&cut(&service.name, 16)),
            y + 32,
            esc(&cut(&service.line, 30)),
        );
        // The relay that publishes its outbox, under its database: live, dashed while down.
        if let Some((line, crashed)) = &service.relay {
            let line = esc(line);
            let _ = write!(
                m,
                "<g class=\"relay{}\" data-live=\"{}\" data-testid=\"diagram-relay-{name}\" aria-label=\"{line}\"><text class=\"caption\" \
                 x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">relay{}</text></g>",
                if *crashed { " crashed" } else { "" },
                live.next().unwrap_or_default(),
                y + 44,
                line.split_once(':').map_or("", |(_, state)| state),
            );
        }
    }
}

/// A row's box for what is not a queue (see [`Endpoint`]).
fn endpoint_box(
    m: &mut String,
    live: usize,
    e: &Endpoint,
    sub: Option<&SubscriptionView>,
    rule: Option<&RuleBadge>,
    y: i64,
) {
    let (label, kind) = (esc(&e.label), e.kind);
    let (stat, more_line) = (esc(&e.stat), esc(&e.more));
    // It opens what delivers to it: its subscription, or its rule.
    let select = match (sub, rule) {
        (Some(x), _) => format!(" tabindex=\"0\" role=\"button\" data-select=\"sub:{}\"", esc(&x.arn)),
        (None, Some(r)) => {
            format!(" tabindex=\"0\" role=\"button\" data-select=\"rule:{}/{}\"", esc(&r.bus), esc(&r.name))
        }
        _ => String::new(),
    };
    let attrs = format!(
        "data-testid=\"diagram-endpoint-{label}\"{select} aria-label=\"{kind} {label}: {stat}{}{more_line}\"",
        if e.more.is_empty() { "" } else { "; " }
    );
    let class = if e.down { "queue endpoint call down" } else { "queue endpoint call" };
    // The second line is cut to the box; whole in the title and the accessible name.
    let inner = format!(
        "<title>{label}: {stat}{}{more_line}</title><text class=\"kind\" x=\"596\" y=\"{}\" text-anchor=\"end\">{kind}</text>\
         <text class=\"stat more-line\" x=\"424\" y=\"{}\">{}</text>",
        if e.more.is_empty() { "" } else { "; " },
        y - 10,
        y + 22,
        esc(&cut(&e.more, 31))
    );
    box_node(m, class, &attrs, live, (y - 30, 60), &cut(&label, 18), &stat, &inner);
}

/// A rule's badge on its target's row, where a subscription's badges would be: the rule's name
/// (its pattern in the title), selecting the rule; under it, a live count of the events it
/// matched and what the target receives when not the whole event.
fn rule_badge(m: &mut String, live: usize, rule: &RuleBadge, q: &str, y: i64) {
    use std::fmt::Write;
    let (name, bus, pattern) = (esc(&rule.name), esc(&rule.bus), esc(&rule.pattern));
    let state = if rule.enabled { "" } else { " disabled" };
    let matched = crate::format::count(rule.matched, "matched", "matched");
    // What the target receives when not the whole event, in a word (the inspector says more).
    // On a line of its own, flush with the badge's end: beside the count it would run under
    // the target's node, and at the badge's start the line from the bus can cross it.
    let input = match rule.input {
        "Input" => "constant",
        "InputPath" => "a path",
        "InputTransformer" => "transformed",
        _ => "",
    };
    let input = if input.is_empty() {
        String::new()
    } else {
        format!("<text class=\"count\" x=\"396\" y=\"{}\" text-anchor=\"end\">{input}</text>", y + 40)
    };
    let _ = write!(
        m,
        "<g class=\"badges\" data-select=\"rule:{bus}/{name}\"><g class=\"badge rule{state}\" tabindex=\"0\" role=\"button\" \
         data-testid=\"diagram-rule-{name}\" aria-label=\"Rule {name} on {bus}, to {q}{}: {pattern}\">\
         <title>Rule {name}{}: {pattern}</title><rect x=\"296\" y=\"{}\" width=\"100\" height=\"20\" rx=\"10\"/>\
         <text x=\"346\" y=\"{}\">{}</text></g></g>\
         <g class=\"filter-stats rule-stats\" data-live=\"{live}\" data-testid=\"rule-{name}-matched\" aria-label=\"Rule {name}: {matched}\">\
         <text class=\"count\" x=\"296\" y=\"{}\">{matched}</text>{}</g>",
        if rule.enabled { "" } else { " (disabled)" },
        if rule.enabled { "" } else { " (disabled)" },
        y - 11,
        y + 4,
        esc(&cut(&rule.name, 14)),
        y + 21,
        input,
    );
}

/// Under a filter badge: how many messages it has dropped, and why it dropped the latest one
/// until the next delivery (whole in its title and accessible name). A live node.
fn filter_stats(
    m: &mut String,
    live: usize,
    q: &str,
    dropped: u64,
    drop: Option<&str>,
    y: i64,
    (why_x, fits): (i64, usize),
) {
    use std::fmt::Write;
    let count = crate::format::count(dropped, "filtered out", "filtered out");
    let (title, reason) = match drop {
        Some(r) => (
            format!("<title>Latest drop: {}</title>", esc(r)),
            format!("<text class=\"why\" x=\"{why_x}\" y=\"{}\">{}</text>", y + 33, esc(&cut(r, fits))),
        ),
        None => (String::new(), String::new()),
    };
    let _ = write!(
        m,
        "<g class=\"filter-stats{}\" data-live=\"{live}\" data-testid=\"filter-{q}-dropped\" aria-label=\"{q}'s filter: {count}{}\">{title}\
         <text class=\"count\" x=\"296\" y=\"{}\">{count}</text>{reason}</g>",
        if drop.is_some() { " dropping" } else { "" },
        drop.map(|r| format!("; latest: {}", esc(r))).unwrap_or_default(),
        y + 21,
    );
}
