//! One pattern field's list of values and match expressions, compiled into conditions, and how
//! one event value is tested against a condition.
//!
//! The operators and their operands follow the EventBridge operator table ("Comparison operators
//! for use in event patterns") and event-ruler's README; the reasons for a rejected operand are
//! event-ruler's `JsonRuleCompiler` texts ("Unrecognized match type …", "Only one key allowed in
//! match expression", "Null prefix/suffix not allowed", …).

use crate::events::json::{Leaf, Node, Tree};
use crate::filter::cidr::Cidr;
use crate::filter::number::Decimal;
use crate::filter::operand::compile_numeric_bounded;
use crate::filter::values::NumRange;
use crate::filter::wildcard::Wildcard;
use serde_json::Value;

/// The operator names: an object in a `$or` list naming one of them makes `$or` a plain field.
pub(crate) const OPERATORS: [&str; 8] =
    ["prefix", "suffix", "equals-ignore-case", "wildcard", "anything-but", "numeric", "exists", "cidr"];

/// "Numeric matching … is limited to values between -5.0e9 and +5.0e9 inclusive, with 15 digits
/// of precision, or six digits to the right of the decimal point" (EventBridge docs, "Content
/// filtering", 2023 text). Numbers are compared after rounding to six decimals.
pub(crate) const NUMERIC_PLACES: i64 = 6;
const NUMERIC_MAGNITUDE: &str = "5000000000";

/// One condition of a field's list (the list is an OR).
#[derive(Clone, Debug)]
pub(crate) enum Cond {
    Exact(String),
    /// An exact number: matched by its text, and by its value where numeric matching can compare
    /// it (see [`exact_number`]).
    Number {
        text: String,
        value: Option<Decimal>,
    },
    True,
    False,
    Null,
    Prefix(String),
    /// `{"prefix": {"equals-ignore-case": …}}`, operand lower-cased.
    PrefixIgnoreCase(String),
    Suffix(String),
    SuffixIgnoreCase(String),
    EqualsIgnoreCase(String),
    Wildcard(Wildcard),
    Cidr(Cidr),
    Numeric(NumRange),
    Exists(bool),
    AnythingBut(AnythingBut),
}

/// What an `anything-but` excludes; it matches any value that is not excluded.
#[derive(Clone, Debug)]
pub(crate) enum AnythingBut {
    Strings(Vec<String>),
    Numbers(Vec<Decimal>),
    /// Lower-cased.
    IgnoreCase(Vec<String>),
    Prefixes(Vec<String>),
    Suffixes(Vec<String>),
    Wildcards(Vec<Wildcard>),
}

/// A field's conditions and the list as written (for reasons).
#[derive(Clone, Debug)]
pub(crate) struct Conds {
    pub(crate) list: Vec<Cond>,
    pub(crate) shown: Vec<String>,
}

/// The JSON value of a node, for the `numeric` grammar and for showing a condition.
pub(crate) fn to_value(tree: &Tree, id: usize) -> Value {
    match tree.node(id) {
        Some(Node::Str(s)) => Value::String(s.clone()),
        Some(Node::Num(n)) => serde_json::from_str(n).unwrap_or(Value::Null),
        Some(Node::Bool(b)) => Value::Bool(*b),
        Some(Node::Null) | None => Value::Null,
        Some(Node::Arr(items)) => Value::Array(items.iter().map(|&i| to_value(tree, i)).collect()),
        Some(Node::Obj(entries)) => {
            Value::Object(crate::vecmap::json_object(entries.iter().map(|(k, i)| (k.clone(), to_value(tree, *i)))))
        }
    }
}

pub(crate) fn compile_list(tree: &Tree, items: &[usize]) -> Result<Conds, String> {
    if items.is_empty() {
        return Err("Empty arrays are not allowed".into());
    }
    let mut conds = Conds { list: Vec::new(), shown: Vec::new() };
    for &item in items {
        let cond = match tree.node(item) {
            Some(Node::Str(s)) => Cond::Exact(s.clone()),
            Some(Node::Num(n)) => Cond::Number { text: n.clone(), value: exact_number(n) },
            Some(Node::Bool(true)) => Cond::True,
            Some(Node::Bool(false)) => Cond::False,
            Some(Node::Null) | None => Cond::Null,
            Some(Node::Arr(_)) => return Err("Match value must be String, number, true, false, or null".into()),
            Some(Node::Obj(entries)) => expression(tree, entries)?,
        };
        conds.list.push(cond);
        conds.shown.push(to_value(tree, item).to_string());
    }
    Ok(conds)
}

fn single<'t>(entries: &'t [(String, usize)], not_found: &str) -> Result<(&'t str, usize), String> {
    match entries {
        [] => Err(not_found.into()),
        [(op, id)] => Ok((op, *id)),
        _ => Err("Only one key allowed in match expression".into()),
    }
}

fn string_operand(tree: &Tree, id: usize, op: &str) -> Result<String, String> {
    match tree.node(id) {
        Some(Node::Str(s)) => Ok(s.clone()),
        _ => Err(format!("{op} match pattern must be a string")),
    }
}

fn expression(tree: &Tree, entries: &[(String, usize)]) -> Result<Cond, String> {
    let (op, operand) = single(entries, "Match expression name not found")?;
    Ok(match op {
        "prefix" | "suffix" => affix(tree, op, operand)?,
        "equals-ignore-case" => Cond::EqualsIgnoreCase(string_operand(tree, operand, op)?.to_lowercase()),
        "wildcard" => Cond::Wildcard(Wildcard::parse_unbounded(&string_operand(tree, operand, op)?)?),
        "cidr" => Cond::Cidr(Cidr::parse(&string_operand(tree, operand, op)?)?),
        "exists" => match tree.node(operand) {
            Some(Node::Bool(b)) => Cond::Exists(*b),
            _ => return Err("exists match pattern must be either true or false.".into()),
        },
        "numeric" => match to_value(tree, operand) {
            Value::Array(items) => Cond::Numeric(compile_numeric_bounded(&items, &bounded_number)?),
            _ => return Err("Value of numeric must be an array.".into()),
        },
        "anything-but" => Cond::AnythingBut(anything_but(tree, operand)?),
        other => return Err(format!("Unrecognized match type {other}")),
    })
}

/// `prefix` / `suffix`: a string, or `{"equals-ignore-case": string}`.
fn affix(tree: &Tree, op: &str, operand: usize) -> Result<Cond, String> {
    let ignore_case = match tree.node(operand) {
        Some(Node::Obj(inner)) => {
            let capital = if op == "prefix" { "Prefix" } else { "Suffix" };
            let (inner_op, value) = single(inner, &format!("{capital} expression name not found"))?;
            if inner_op != "equals-ignore-case" {
                return Err(format!("Unsupported {op} pattern: {inner_op}"));
            }
            Some(string_operand(tree, value, "equals-ignore-case")?.to_lowercase())
        }
        _ => None,
    };
    Ok(match (op, ignore_case) {
        ("prefix", Some(text)) => Cond::PrefixIgnoreCase(text),
        ("suffix", Some(text)) => Cond::SuffixIgnoreCase(text),
        ("prefix", None) => Cond::Prefix(string_operand(tree, operand, op)?),
        _ => Cond::Suffix(string_operand(tree, operand, op)?),
    })
}

/// The value an exact number of a pattern is compared by, or `None` when only its text can match.
///
/// The documentation ("Event pattern syntax") says "For numbers, EventBridge uses string
/// representation. For example, 300, 300.0, and 3.0e2 are not considered equal." The service
/// answers otherwise: `{"number": [300]}` matches `"number": 300.0` (`Result: true`, recorded by
/// LocalStack's validated test suite: `localstack/localstack`,
/// `tests/aws/services/events/event_pattern_templates/number_comparison_float.json5`, last
/// validated October 2025). event-ruler, which EventBridge runs, compiles a number in a pattern
/// into both an exact match of its text and a numeric equality (`JsonRuleCompiler`: "we'll insert
/// matchers for both the literal expression and the ComparableNumber form. But the number might
/// not be representable as a ComparableNumber, for example an AWS account number, so make that
/// condition survivable"). Followed here with numeric matching's documented range and precision
/// ("between -5.0e9 and +5.0e9 inclusive … six digits to the right of the decimal point"): a
/// number in that range is compared by its value at six decimals, so `300`, `300.0`, `3e2` and
/// `300.000000` are one number; one outside it (an account id such as `123456789012`) by its
/// text alone.
fn exact_number(text: &str) -> Option<Decimal> {
    let d = Decimal::parse(text)?;
    let limit = Decimal::parse(NUMERIC_MAGNITUDE).expect("invariant: the limit is a number");
    let negative_limit = Decimal::parse(&format!("-{NUMERIC_MAGNITUDE}")).expect("invariant: a number");
    (d <= limit && d >= negative_limit).then(|| d.at_places(NUMERIC_PLACES).into_owned())
}

/// A number of a `numeric` or `anything-but` expression, in range and at six decimals.
fn bounded_number(value: &Value, what: &str) -> Result<Decimal, String> {
    let not_numeric = || format!("Value of {what} must be numeric");
    let Value::Number(n) = value else { return Err(not_numeric()) };
    let d = Decimal::from_json(n).ok_or_else(not_numeric)?;
    let limit = Decimal::parse(NUMERIC_MAGNITUDE).expect("invariant: the limit is a number");
    let negative_limit = Decimal::parse(&format!("-{NUMERIC_MAGNITUDE}")).expect("invariant: a number");
    if d > limit || d < negative_limit {
        return Err(format!("Value {d} is out of range: numeric values are limited to -5.0e9 to +5.0e9"));
    }
    Ok(d.at_places(NUMERIC_PLACES).into_owned())
}

fn anything_but(tree: &Tree, operand: usize) -> Result<AnythingBut, String> {
    const MIXED: &str = "Inside anything but list, either all values are number or string, mixed type is not supported";
    match tree.node(operand) {
        Some(Node::Str(s)) => Ok(AnythingBut::Strings(vec![s.clone()])),
        Some(Node::Num(_)) => Ok(AnythingBut::Numbers(vec![bounded_number(&to_value(tree, operand), "anything-but")?])),
        Some(Node::Arr(items)) => {
            let (mut strings, mut numbers) = (Vec::new(), Vec::new());
            for &item in items {
                match tree.node(item) {
                    Some(Node::Str(s)) => strings.push(s.clone()),
                    Some(Node::Num(_)) => numbers.push(bounded_number(&to_value(tree, item), "anything-but")?),
                    _ => return Err("Inside anything but list, start|null|boolean is not supported.".into()),
                }
            }
            match (strings.is_empty(), numbers.is_empty()) {
                (false, true) => Ok(AnythingBut::Strings(strings)),
                (true, false) => Ok(AnythingBut::Numbers(numbers)),
                _ => Err(MIXED.into()),
            }
        }
        Some(Node::Obj(inner)) => {
            let (op, value) = single(inner, "Anything-But expression name not found")?;
            if !matches!(op, "equals-ignore-case" | "prefix" | "suffix" | "wildcard") {
                return Err(format!("Unsupported anything-but pattern: {op}"));
            }
            let texts = anything_but_texts(tree, op, value)?;
            Ok(match op {
                "equals-ignore-case" => AnythingBut::IgnoreCase(texts.iter().map(|t| t.to_lowercase()).collect()),
                "prefix" => AnythingBut::Prefixes(texts),
                "suffix" => AnythingBut::Suffixes(texts),
                _ => AnythingBut::Wildcards(
                    texts.iter().map(|t| Wildcard::parse_unbounded(t)).collect::<Result<_, _>>()?,
                ),
            })
        }
        _ => Err("Value of anything-but must be an array or single string/number value.".into()),
    }
}

/// The string, or list of strings, of `anything-but` with `equals-ignore-case`, `prefix`,
/// `suffix` or `wildcard`.
fn anything_but_texts(tree: &Tree, op: &str, value: usize) -> Result<Vec<String>, String> {
    let ids: Vec<usize> = match tree.node(value) {
        Some(Node::Arr(items)) if !items.is_empty() => items.clone(),
        Some(Node::Arr(_)) => return Err("Empty arrays are not allowed".into()),
        _ => vec![value],
    };
    let mut texts = Vec::new();
    for id in ids {
        let Some(Node::Str(s)) = tree.node(id) else {
            return Err(match op {
                "equals-ignore-case" => {
                    "Inside anything-but/equals-ignore-case list, number|start|null|boolean is not supported.".into()
                }
                "wildcard" => "wildcard match pattern must be a string".into(),
                _ => "prefix/suffix match pattern must be a string".into(),
            });
        };
        if s.is_empty() && matches!(op, "prefix" | "suffix") {
            return Err("Null prefix/suffix not allowed".into());
        }
        texts.push(s.clone());
    }
    Ok(texts)
}

impl Cond {
    /// Whether one event value satisfies this condition (`exists` is decided by the caller).
    pub(crate) fn matches(&self, leaf: &Leaf<'_>) -> bool {
        match (self, leaf) {
            (Cond::Exact(want), Leaf::Str(s)) => want == s,
            (Cond::Number { text, value }, Leaf::Num(n)) => {
                text == n
                    || value
                        .as_ref()
                        .is_some_and(|v| Decimal::parse(n).is_some_and(|d| d.at_places(NUMERIC_PLACES).as_ref() == v))
            }
            (Cond::True, Leaf::Bool(true)) | (Cond::False, Leaf::Bool(false)) | (Cond::Null, Leaf::Null) => true,
            (Cond::Prefix(p), Leaf::Str(s)) => s.starts_with(p.as_str()),
            (Cond::Suffix(p), Leaf::Str(s)) => s.ends_with(p.as_str()),
            (Cond::PrefixIgnoreCase(p), Leaf::Str(s)) => s.to_lowercase().starts_with(p.as_str()),
            (Cond::SuffixIgnoreCase(p), Leaf::Str(s)) => s.to_lowercase().ends_with(p.as_str()),
            (Cond::EqualsIgnoreCase(p), Leaf::Str(s)) => s.to_lowercase() == *p,
            (Cond::Wildcard(w), Leaf::Str(s)) => w.matches(s),
            (Cond::Cidr(c), Leaf::Str(s)) => c.contains(s),
            (Cond::Numeric(range), Leaf::Num(n)) => {
                Decimal::parse(n).is_some_and(|d| range.contains(&d.at_places(NUMERIC_PLACES)))
            }
            (Cond::AnythingBut(a), leaf) => a.allows(leaf),
            _ => false,
        }
    }
}

impl AnythingBut {
    /// A value of another type than the excluded ones is, by definition, not excluded.
    fn allows(&self, leaf: &Leaf<'_>) -> bool {
        match (self, leaf) {
            (AnythingBut::Strings(set), Leaf::Str(s)) => !set.iter().any(|x| x == s),
            (AnythingBut::Numbers(set), Leaf::Num(n)) => match Decimal::parse(n) {
                Some(d) => !set.contains(&d.at_places(NUMERIC_PLACES)),
                None => true,
            },
            (AnythingBut::IgnoreCase(set), Leaf::Str(s)) => !set.contains(&s.to_lowercase()),
            (AnythingBut::Prefixes(set), Leaf::Str(s)) => !set.iter().any(|p| s.starts_with(p.as_str())),
            (AnythingBut::Suffixes(set), Leaf::Str(s)) => !set.iter().any(|p| s.ends_with(p.as_str())),
            (AnythingBut::Wildcards(set), Leaf::Str(s)) => !set.iter().any(|w| w.matches(s)),
            _ => true,
        }
    }
}
