//! Share links, in plain Rust (the page only adds the browser's deflate around it): a link's
//! fragment holds the story's **inputs**, never its state — a format version, the scenario (a
//! built-in id, or the whole file when it is not a built-in one), the seed, the learner's
//! commands with the virtual time of each, the current time and the selection. Opening the link
//! replays the commands on the scenario: the engine is deterministic, so the clock, the counts
//! and the event log come out the same.
//!
//! The link is `#share=` + base64url(deflate(frame)), where the frame is the CRC-32 of the JSON
//! text (4 bytes, big-endian) followed by that text. Every way a link can be bad is one
//! [`BadLink`] with one message; decoding never panics, and the work it does is capped
//! ([`MAX_LINK_CHARS`], [`MAX_DECODED_BYTES`], [`MAX_COMMANDS`], [`MAX_TIME_MS`],
//! [`MAX_REPLAY_EVENTS`]).

use crate::playground::{Playground, SPEEDS};
use engine::SimTime;
use serde_json::{json, Value};

/// The format this page writes and the newest it reads.
pub const VERSION: u64 = 1;
/// The fragment's prefix.
pub const PREFIX: &str = "share=";
/// The longest fragment read (characters): far above any story a learner builds by hand.
pub const MAX_LINK_CHARS: usize = 400_000;
/// The most bytes a link may inflate to.
pub const MAX_DECODED_BYTES: usize = 2 << 20;
/// The most learner commands a link may hold.
pub const MAX_COMMANDS: usize = 5_000;
/// The latest virtual time a link may reach: the engine's horizon, 30 days (a queue keeps
/// messages 14 days at most).
pub const MAX_TIME_MS: u64 = engine::time::HORIZON.0;
/// The most events replaying a link may log.
pub const MAX_REPLAY_EVENTS: usize = 500_000;
/// Above this many characters the page offers a file instead of a link.
pub const LINK_OFFER_CHARS: usize = 8_000;

/// What the inspector showed, in the link.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
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
    /// An order service.
    Service(String),
}

/// Where the story starts: a built-in scenario by id, or a whole scenario file.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    Builtin(String),
    File(Value),
}

/// A story's inputs, as a link carries them.
#[derive(Clone, Debug, PartialEq)]
pub struct Share {
    pub start: Start,
    pub seed: u64,
    /// The learner's commands: (virtual time in ms, action, parameters), in time order.
    pub commands: Vec<(u64, String, Value)>,
    /// The current virtual time (ms).
    pub now: u64,
    pub pick: Option<Pick>,
    /// The playback speed the learner had set, as an index into `playground::SPEEDS` (written
    /// as its label, such as "4×"; a link without it plays at the scenario's speed).
    pub speed: Option<usize>,
}

/// Why a link was refused: one class each, one message each.
#[derive(Clone, Debug, PartialEq)]
pub enum BadLink {
    NotBase64,
    /// Cut short or changed: the deflate stream or the checksum does not hold.
    Damaged,
    WrongShape(String),
    Newer(u64),
    /// The link's scenario could not be loaded (an unknown id or a bad file).
    Scenario(String),
    /// The engine refused the n-th (1-based) command.
    Refused {
        n: usize,
        action: String,
        at: u64,
        error: String,
    },
    TooLarge(String),
}

impl std::fmt::Display for BadLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let open = "This share link could not be opened";
        match self {
            BadLink::NotBase64 => write!(f, "{open}: it has characters a share link never has (it is not base64url). Was it copied whole?"),
            BadLink::Damaged => write!(f, "{open}: it was cut short or changed on the way (its check does not match). Copy it again."),
            BadLink::WrongShape(what) => write!(f, "{open}: it does not hold a playground story ({what})."),
            BadLink::Newer(v) => write!(f, "{open}: it was made by a newer playground (format {v}; this page reads format {VERSION}). Reload the page."),
            BadLink::Scenario(what) => write!(f, "{open}: its scenario does not load: {what}"),
            BadLink::Refused { n, action, at, error } => {
                write!(f, "{open}: its command {n} ({action} at {}) is refused by the engine: {error}", SimTime(*at))
            }
            BadLink::TooLarge(what) => write!(f, "{open}: it is too large ({what})."),
        }
    }
}

fn shape(what: impl Into<String>) -> BadLink {
    BadLink::WrongShape(what.into())
}

impl Share {
    /// The inputs of a playground's story as it is now, with the inspector's selection.
    pub fn of(pg: &Playground, pick: Option<Pick>) -> Share {
        let start = if pg.is_builtin() {
            Start::Builtin(pg.id.clone())
        } else {
            Start::File(serde_json::from_str(pg.source()).unwrap_or(Value::Null))
        };
        let history = pg.history();
        let commands =
            history.commands()[pg.base()..].iter().map(|c| (c.at.ms(), c.action.clone(), c.params.clone())).collect();
        Share { start, seed: history.seed(), commands, now: pg.now().ms(), pick, speed: None }
    }

    /// The link's JSON text: `{"v", "scenario", "seed", "now", "log": [[ms, action, params]…], "pick", "speed"}`.
    pub fn to_json(&self) -> String {
        let scenario = match &self.start {
            Start::Builtin(id) => json!(id),
            Start::File(v) => v.clone(),
        };
        let log: Vec<Value> = self.commands.iter().map(|(at, a, p)| json!([at, a, p])).collect();
        let mut v = json!({"v": VERSION, "scenario": scenario, "seed": self.seed, "now": self.now, "log": log});
        if let Some(p) = &self.pick {
            v["pick"] = match p {
                Pick::Queue(q) => json!(["queue", q]),
                Pick::Message { queue, copy } => json!(["message", queue, copy]),
                Pick::Subscription(s) => json!(["subscription", s]),
                Pick::Worker(w) => json!(["worker", w]),
                Pick::Event(e) => json!(["event", e]),
                Pick::Rule(r) => json!(["rule", r]),
                Pick::Service(s) => json!(["service", s]),
            };
        }
        if let Some(label) = self.speed.and_then(|i| SPEEDS.get(i)).map(|s| s.0) {
            v["speed"] = json!(label);
        }
        v.to_string()
    }

    /// Reads a link's JSON text, checking its shape and version (not yet its commands).
    pub fn parse(text: &str) -> Result<Share, BadLink> {
        let v: Value = serde_json::from_str(text).map_err(|e| shape(format!("not JSON: {e}")))?;
        let obj = v.as_object().ok_or_else(|| shape("not a JSON object"))?;
        if let Some(k) =
            obj.keys().find(|k| !["v", "scenario", "seed", "now", "log", "pick", "speed"].contains(&k.as_str()))
        {
            return Err(shape(format!("unknown key \"{k}\"")));
        }
        let version = v["v"].as_u64().ok_or_else(|| shape("no format version"))?;
        if version > VERSION {
            return Err(BadLink::Newer(version));
        }
        if version == 0 {
            return Err(shape("format version 0"));
        }
        let start = match &v["scenario"] {
            Value::String(id) => Start::Builtin(id.clone()),
            o @ Value::Object(_) => Start::File(o.clone()),
            _ => return Err(shape("\"scenario\" must be a scenario id or a scenario")),
        };
        let seed = v["seed"].as_u64().ok_or_else(|| shape("\"seed\" must be a whole number"))?;
        let now = v["now"].as_u64().ok_or_else(|| shape("\"now\" must be a whole number of milliseconds"))?;
        let log = v["log"].as_array().ok_or_else(|| shape("\"log\" must be a list of commands"))?;
        if log.len() > MAX_COMMANDS {
            return Err(BadLink::TooLarge(format!("{} commands; at most {MAX_COMMANDS}", log.len())));
        }
        let commands = log.iter().enumerate().map(|(i, c)| command(i, c)).collect::<Result<Vec<_>, _>>()?;
        let pick = match v.get("pick") {
            None | Some(Value::Null) => None,
            Some(p) => Some(parse_pick(p).ok_or_else(|| shape("\"pick\" is not a selection"))?),
        };
        let speed = match v.get("speed") {
            None | Some(Value::Null) => None,
            Some(Value::String(label)) => Some(SPEEDS.iter().position(|s| s.0 == label).ok_or_else(|| {
                let known: Vec<&str> = SPEEDS.iter().map(|s| s.0).collect();
                shape(format!("\"speed\" \"{label}\" is not one of {}", known.join(", ")))
            })?),
            Some(_) => return Err(shape("\"speed\" must be a speed such as \"4×\"")),
        };
        Ok(Share { start, seed, commands, now, pick, speed })
    }

    /// Rebuilds the story: the scenario, then each command at its own time, then the clock set
    /// to `now`. Refuses a link whose seed differs from its scenario's, whose commands are out
    /// of time order or refused, or whose replay would take too much work.
    pub fn replay(&self) -> Result<Playground, BadLink> {
        let start = match &self.start {
            Start::Builtin(id) => Playground::builtin(id).map_err(BadLink::Scenario)?,
            Start::File(v) => Playground::from_scenario(&v.to_string()).map_err(BadLink::Scenario)?,
        };
        self.replay_from(start)
    }

    /// The story `pg` as the sandbox holds it: its inputs replayed on a fresh copy of its
    /// scenario, exactly as its share link would open it (a lesson's story leaves its step's
    /// bookmarks behind; undo and reset then work as in the sandbox).
    pub fn fresh(pg: &Playground) -> Result<Playground, BadLink> {
        let start = if pg.is_builtin() {
            Playground::builtin_from(&pg.id, pg.source())
        } else {
            Playground::from_scenario(pg.source())
        }
        .map_err(BadLink::Scenario)?;
        Share::of(pg, None).replay_from(start)
    }

    /// [`Share::replay`] from the link's scenario already loaded (`pg`; the page fetches a
    /// built-in one).
    pub fn replay_from(&self, mut pg: Playground) -> Result<Playground, BadLink> {
        if pg.history().seed() != self.seed {
            return Err(shape(format!("seed {} is not its scenario's seed {}", self.seed, pg.history().seed())));
        }
        let last = self.commands.last().map_or(0, |c| c.0);
        if self.now.max(last) > MAX_TIME_MS {
            return Err(BadLink::TooLarge(format!(
                "it reaches {}; at most {}",
                SimTime(self.now.max(last)),
                SimTime(MAX_TIME_MS)
            )));
        }
        for (i, (at, action, params)) in self.commands.iter().enumerate() {
            if *at < pg.now().ms() {
                return Err(shape(format!("command {} comes before the one ahead of it", i + 1)));
            }
            advance(&mut pg, *at)?;
            pg.apply(action, params).map_err(|e| BadLink::Refused {
                n: i + 1,
                action: action.clone(),
                at: *at,
                error: format!("{}: {}", e.code, e.message),
            })?;
        }
        if self.now >= pg.now().ms() {
            advance(&mut pg, self.now)?;
        } else {
            pg.seek(SimTime(self.now));
        }
        Ok(pg)
    }
}

/// Plays on to `t` ten minutes at a time, stopping when the event log outgrows the cap.
fn advance(pg: &mut Playground, t: u64) -> Result<(), BadLink> {
    while pg.now().ms() < t {
        let to = t.min(pg.now().ms().saturating_add(600_000));
        pg.seek(SimTime(to));
        if pg.events().len() > MAX_REPLAY_EVENTS {
            return Err(BadLink::TooLarge(format!("replaying it logs more than {MAX_REPLAY_EVENTS} events")));
        }
    }
    Ok(())
}

fn command(i: usize, c: &Value) -> Result<(u64, String, Value), BadLink> {
    let bad = || shape(format!("command {} is not [time in ms, action, parameters]", i + 1));
    match c.as_array().map(Vec::as_slice) {
        Some([at, Value::String(action), params @ Value::Object(_)]) => {
            Ok((at.as_u64().ok_or_else(bad)?, action.clone(), params.clone()))
        }
        _ => Err(bad()),
    }
}

fn parse_pick(p: &Value) -> Option<Pick> {
    let a = p.as_array()?;
    let s = |i: usize| a.get(i)?.as_str().map(str::to_string);
    let n = |i: usize| a.get(i)?.as_u64();
    Some(match (a.first()?.as_str()?, a.len()) {
        ("queue", 2) => Pick::Queue(s(1)?),
        ("message", 3) => Pick::Message { queue: s(1)?, copy: n(2)? },
        ("subscription", 2) => Pick::Subscription(s(1)?),
        ("worker", 2) => Pick::Worker(s(1)?),
        ("event", 2) => Pick::Event(n(1)?),
        ("rule", 2) => Pick::Rule(s(1)?),
        ("service", 2) => Pick::Service(s(1)?),
        _ => return None,
    })
}

/// The JSON text framed for deflate: its CRC-32 (big-endian), then the text.
pub fn frame(json: &str) -> Vec<u8> {
    let mut out = crc32(json.as_bytes()).to_be_bytes().to_vec();
    out.extend_from_slice(json.as_bytes());
    out
}

/// The JSON text of an inflated frame, checked against its CRC-32.
pub fn unframe(bytes: &[u8]) -> Result<&str, BadLink> {
    if bytes.len() > MAX_DECODED_BYTES {
        return Err(BadLink::TooLarge(format!("more than {MAX_DECODED_BYTES} bytes once inflated")));
    }
    let (sum, text) = bytes.split_at_checked(4).ok_or(BadLink::Damaged)?;
    if sum != crc32(text).to_be_bytes() {
        return Err(BadLink::Damaged);
    }
    std::str::from_utf8(text).map_err(|_| BadLink::Damaged)
}

/// The link's payload (after `#share=`), checked for size and alphabet, as bytes to inflate.
pub fn payload(fragment: &str) -> Result<Vec<u8>, BadLink> {
    if fragment.len() > MAX_LINK_CHARS {
        return Err(BadLink::TooLarge(format!("{} characters; at most {MAX_LINK_CHARS}", fragment.len())));
    }
    let alphabet = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    match from_base64url(fragment) {
        Some(bytes) => Ok(bytes),
        // Every character is one a link has, but not a whole number of them: cut short.
        None if fragment.chars().all(alphabet) => Err(BadLink::Damaged),
        None => Err(BadLink::NotBase64),
    }
}

/// The share payload in a location hash (`#share=…`), if it has one.
pub fn in_hash(hash: &str) -> Option<&str> {
    hash.strip_prefix('#').unwrap_or(hash).strip_prefix(PREFIX)
}

/// CRC-32 (IEEE 802.3, as zlib and PNG use it), bit by bit: links are small.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for b in bytes {
        crc ^= u32::from(*b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url without padding (RFC 4648, section 5).
pub fn to_base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(B64[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
}

/// Reads base64url without padding; `None` for any other character or an impossible length.
pub fn from_base64url(text: &str) -> Option<Vec<u8>> {
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let d = B64.iter().position(|b| b == c)? as u32;
            n |= d << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "share_tests.rs"]
mod tests;
