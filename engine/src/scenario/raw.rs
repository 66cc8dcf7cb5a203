//! A scenario file as read, before any check. Each step's own keys go straight into fields, with
//! no JSON object built for the step, so a long file parses in one pass with a few allocations
//! per step; everything else (the top level's other keys, every step's values) stays JSON.
//! Nothing is refused here but bad JSON: the checks, and their messages, are in `mod.rs`.

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// The top level: its keys but `steps`, and the steps.
pub(super) enum RawScenario {
    NotAnObject,
    Object { top: Map<String, Value>, steps: Option<RawSteps> },
}

/// The value of `steps`.
pub(super) enum RawSteps {
    List(Vec<RawStep>),
    NotAList,
}

/// One element of `steps`: a step's keys. A key given twice keeps its last value, as in a JSON
/// object.
#[derive(Default)]
pub(super) struct RawStep {
    /// Whether the element is a JSON object at all (if not, every field is `None`).
    pub object: bool,
    pub advance: Option<Value>,
    pub action: Option<Value>,
    pub params: Option<Value>,
    pub expect: Option<Value>,
    pub expect_error: Option<Value>,
    pub save: Option<Value>,
    pub note: Option<Value>,
    /// The first unknown key in key order (as a JSON object would list it).
    pub unknown: Option<String>,
}

impl RawSteps {
    /// The steps held in a JSON value, read as the `Deserialize` impl below reads them from text:
    /// a list of steps, or not a list. Read directly rather than through `serde_json::from_value`,
    /// which would instantiate these visitors (and `Value`'s own deserializer) a second time for a
    /// `Value` source, in the browser bundle too.
    pub(super) fn from_value(value: Value) -> RawSteps {
        match value {
            Value::Array(items) => RawSteps::List(items.into_iter().map(RawStep::from_value).collect()),
            _ => RawSteps::NotAList,
        }
    }
}

impl RawStep {
    /// One step held in a JSON value, as `StepVisitor` reads it. A `Value`'s object has each key
    /// once and lists them in order, so the first unknown key is the least, as there.
    fn from_value(value: Value) -> RawStep {
        let Value::Object(map) = value else { return RawStep::default() };
        let mut f = RawStep { object: true, ..RawStep::default() };
        for (key, value) in map {
            match f.slot(&key) {
                Some(slot) => *slot = Some(value),
                None => f.unknown_key(&key),
            }
        }
        f
    }

    /// Where a known key's value goes; `None` for a key a step does not have.
    fn slot(&mut self, key: &str) -> Option<&mut Option<Value>> {
        Some(match key {
            "advance" => &mut self.advance,
            "action" => &mut self.action,
            "params" => &mut self.params,
            "expect" => &mut self.expect,
            "expect_error" => &mut self.expect_error,
            "save" => &mut self.save,
            "note" => &mut self.note,
            _ => return None,
        })
    }

    /// Notes an unknown key: the least one is kept, the first a JSON object would list.
    fn unknown_key(&mut self, key: &str) {
        if self.unknown.as_deref().is_none_or(|u| key < u) {
            self.unknown = Some(key.to_string());
        }
    }
}

/// Accepts any JSON value: `visit_map` for objects, `other` for everything else.
macro_rules! any_other {
    ($other:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($other)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($other)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($other)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($other)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($other)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($other)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok($other)
        }
    };
}

/// Reads and drops the rest of a list.
fn drain<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

struct ScenarioVisitor;

impl<'de> Visitor<'de> for ScenarioVisitor {
    type Value = RawScenario;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scenario")
    }

    any_other!(RawScenario::NotAnObject);

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<RawScenario, A::Error> {
        drain(seq)?;
        Ok(RawScenario::NotAnObject)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawScenario, A::Error> {
        let mut top = Map::new();
        let mut steps = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "steps" {
                steps = Some(map.next_value::<RawSteps>()?);
            } else {
                top.insert(key, map.next_value::<Value>()?);
            }
        }
        Ok(RawScenario::Object { top, steps })
    }
}

impl<'de> Deserialize<'de> for RawScenario {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScenarioVisitor)
    }
}

struct StepsVisitor;

impl<'de> Visitor<'de> for StepsVisitor {
    type Value = RawSteps;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of steps")
    }

    any_other!(RawSteps::NotAList);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawSteps, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(RawSteps::NotAList)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawSteps, A::Error> {
        let mut steps = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(step) = seq.next_element::<RawStep>()? {
            steps.push(step);
        }
        Ok(RawSteps::List(steps))
    }
}

impl<'de> Deserialize<'de> for RawSteps {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StepsVisitor)
    }
}

struct StepVisitor;

impl<'de> Visitor<'de> for StepVisitor {
    type Value = RawStep;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a step")
    }

    any_other!(RawStep::default());

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<RawStep, A::Error> {
        drain(seq)?;
        Ok(RawStep::default())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawStep, A::Error> {
        let mut f = RawStep { object: true, ..RawStep::default() };
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            match f.slot(&key) {
                Some(slot) => *slot = Some(map.next_value::<Value>()?),
                None => {
                    f.unknown_key(&key);
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(f)
    }
}

/// An object key, borrowed from the text unless it has escapes.
struct Key<'de>(Cow<'de, str>);

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(v.to_string())))
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for RawStep {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StepVisitor)
    }
}
