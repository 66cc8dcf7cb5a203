//! What the inspector shows, and how an item of the read-only views names it in its
//! `data-select` attribute: a node of the diagram, a chip, an event of the log. They are written
//! as markup or kept in long lists, so one click handler per view reads the attribute back
//! ([`under`]) rather than a handler per item.

/// What the inspector shows.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Selection {
    Queue(String),
    Message {
        queue: String,
        copy: u64,
    },
    Subscription(String),
    Worker(String),
    Event(u64),
    /// An EventBridge rule, as `bus/rule`.
    Rule(String),
    /// An order service (dual write or outbox) and its database.
    Service(String),
}

impl Selection {
    /// The value of a `data-select` attribute that names this (see [`Selection::parse_attr`]).
    pub fn to_attr(&self) -> String {
        match self {
            Selection::Queue(q) => format!("queue:{q}"),
            Selection::Message { queue, copy } => format!("msg:{copy}:{queue}"),
            Selection::Subscription(a) => format!("sub:{a}"),
            Selection::Worker(w) => format!("worker:{w}"),
            Selection::Event(e) => format!("event:{e}"),
            Selection::Rule(r) => format!("rule:{r}"),
            Selection::Service(s) => format!("service:{s}"),
        }
    }

    /// What a `data-select` value ("queue:billing", "sub:arn:…", "msg:17:sms") names.
    pub fn parse_attr(value: &str) -> Option<Selection> {
        let (kind, name) = value.split_once(':')?;
        let name = name.to_string();
        match kind {
            "queue" => Some(Selection::Queue(name)),
            "sub" => Some(Selection::Subscription(name)),
            "worker" => Some(Selection::Worker(name)),
            "event" => name.parse().ok().map(Selection::Event),
            "rule" => Some(Selection::Rule(name)),
            "service" => Some(Selection::Service(name)),
            "msg" => {
                let (copy, queue) = name.split_once(':')?;
                Some(Selection::Message { queue: queue.to_string(), copy: copy.parse().ok()? })
            }
            _ => None,
        }
    }
}

/// What the element an event happened on names (it, or its nearest ancestor with a
/// `data-select`): for the lists written as markup, where one handler serves every item.
pub fn under(target: Option<web_sys::EventTarget>) -> Option<Selection> {
    let el = wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(target?).ok()?;
    let node = el.closest("[data-select]").ok()??;
    Selection::parse_attr(&node.get_attribute("data-select")?)
}

#[cfg(test)]
mod tests {
    use super::Selection;

    #[test]
    fn a_selection_reads_back_from_its_attribute() {
        let all = [
            Selection::Queue("sms-dlq".into()),
            Selection::Queue("a:b".into()),
            Selection::Message { queue: "orders.fifo".into(), copy: 17 },
            Selection::Message { queue: "q:with:colons".into(), copy: 0 },
            Selection::Subscription("arn:aws:sns:us-east-1:000000000000:order-events:1".into()),
            Selection::Worker("packing-w1".into()),
            Selection::Event(42),
            Selection::Rule("shop/big-orders".into()),
            Selection::Service("shop-outbox".into()),
        ];
        for s in all {
            assert_eq!(Selection::parse_attr(&s.to_attr()), Some(s.clone()), "{}", s.to_attr());
        }
        for bad in ["", "queue", "msg:x:q", "msg:1", "event:one", "nope:x"] {
            assert_eq!(Selection::parse_attr(bad), None, "{bad}");
        }
    }
}
