//! Compiling one policy key's list of values and match expressions into a [`Matcher`].
//!
//! Operators and their operands, as the SNS docs list them ("Amazon SNS subscription filter
//! policies" → supported operators; "String value matching"; "Numeric value matching"; "Key
//! matching"; "IP address matching"): exact strings, numbers, `true`/`false`/`null`, `prefix`,
//! `suffix`, `equals-ignore-case`, `wildcard`, `anything-but` (a value, a list, or `prefix` /
//! `suffix` / `wildcard`), `numeric`, `exists`, `cidr`.
//!
//! The error texts are the ones AWS returns for the same mistakes (observed: SNS answers with the
//! messages of event-ruler's `JsonRuleCompiler`, e.g. "Unrecognized match type wrong-operator"),
//! each followed by a hint where the AWS text alone does not say what to do.
//!
//! SNS/EventBridge differences, following the SNS docs: `anything-but` with `equals-ignore-case`
//! is EventBridge-only (not in the SNS docs), so it is rejected; `anything-but` with `suffix` and
//! with `wildcard` are in the SNS docs ("String value matching") and are accepted, although SNS
//! itself rejected `anything-but`/`suffix` in May 2024 (LocalStack's AWS-recorded test
//! snapshots) — the docs have since been extended, and the docs are followed here.

use super::cidr::Cidr;
use super::number::{Decimal, MAX_POLICY_FRACTION_DIGITS, MAX_POLICY_MAGNITUDE};
use super::values::{AnythingBut, Matcher, NumRange};
use super::wildcard::Wildcard;
use crate::vecmap::VecSet;
use serde_json::{Map, Value};

/// The operator names. SNS docs, "AND/OR logic": `$or` is only an OR when none of the objects in
/// its array has a field name that is a reserved keyword (a nested `$or` is not such a name: the
/// docs' own example nests one).
pub(crate) const OPERATORS: [&str; 8] =
    ["prefix", "suffix", "equals-ignore-case", "wildcard", "anything-but", "numeric", "exists", "cidr"];

/// Compiles the list of one key. The error is the broken rule, without the key (the caller adds it).
pub(crate) fn compile_list(list: &[Value]) -> Result<Matcher, String> {
    if list.is_empty() {
        return Err("Empty arrays are not allowed (give at least one value to match)".into());
    }
    let mut m = Matcher { pattern_count: list.len(), ..Matcher::default() };
    for item in list {
        match item {
            Value::String(s) => {
                m.strings.insert(s.clone());
            }
            // A bare number is an exact numeric match. Its magnitude is not limited: event-ruler
            // (and so SNS) also matches a bare number by its text when it is out of the numeric
            // range, e.g. a 12-digit AWS account ID, and exact decimal equality covers both. Like
            // every policy number it is compared at five decimals (`number.rs`).
            Value::Number(n) => {
                let d = Decimal::from_json(n).ok_or_else(|| format!("Unreadable number {n}"))?;
                m.numbers.insert(d.at_accuracy().into_owned());
            }
            Value::Bool(true) => m.match_true = true,
            Value::Bool(false) => m.match_false = true,
            Value::Null => m.match_null = true,
            Value::Array(_) => return Err("Match value must be String, number, true, false, or null".into()),
            Value::Object(expr) => compile_expression(expr, &mut m)?,
        }
        m.conditions.push(item.to_string());
    }
    Ok(m)
}

fn string_operand<'v>(op: &str, value: &'v Value) -> Result<&'v str, String> {
    value.as_str().ok_or_else(|| format!("{op} match pattern must be a string (got {value})"))
}

fn compile_expression(expr: &Map<String, Value>, m: &mut Matcher) -> Result<(), String> {
    let mut entries = expr.iter();
    let (op, operand) = match (entries.next(), entries.next()) {
        (Some(entry), None) => entry,
        (None, _) => return Err("Match expression name not found (an empty object {} is not a condition)".into()),
        (Some(_), Some(_)) => {
            return Err(format!(
                "Only one key allowed in match expression (got {}; put each operator in its own object)",
                expr.keys().map(|k| format!("{k:?}")).collect::<Vec<_>>().join(", ")
            ))
        }
    };
    match op.as_str() {
        "prefix" => m.prefixes.insert(string_operand(op, operand)?.to_owned()),
        "suffix" => m.suffixes.insert(string_operand(op, operand)?.to_owned()),
        "equals-ignore-case" => {
            m.ignore_case.insert(string_operand(op, operand)?.to_lowercase());
        }
        "wildcard" => {
            let pattern = Wildcard::parse(string_operand(op, operand)?)?;
            m.wildcard_points += wildcard_points(&pattern);
            m.has_wildcard = true;
            m.wildcards.push(pattern);
        }
        "cidr" => m.cidrs.push(Cidr::parse(string_operand(op, operand)?)?),
        "exists" => match operand {
            Value::Bool(true) => m.exists_true = true,
            Value::Bool(false) => m.exists_false = true,
            other => return Err(format!("exists match pattern must be either true or false. (got {other})")),
        },
        "numeric" => match operand {
            Value::Array(items) => m.ranges.push(compile_numeric(items)?),
            other => return Err(format!("Value of numeric must be an array. (got {other})")),
        },
        "anything-but" => {
            let compiled = compile_anything_but(operand)?;
            // SNS docs, "Wildcard pattern usage guidelines": "Anything-but: 1 point".
            m.wildcard_points += 1;
            if matches!(compiled, AnythingBut::Wildcard(_)) {
                m.has_wildcard = true;
            }
            m.anything_but.push(compiled);
        }
        other => {
            return Err(format!(
                "Unrecognized match type {other} (SNS supports prefix, suffix, equals-ignore-case, wildcard, \
                 anything-but, numeric, exists, cidr)"
            ))
        }
    }
    Ok(())
}

/// SNS docs, "Wildcard pattern usage guidelines": "Single wildcard: 1 point; Multiple wildcards:
/// 3 points each". Read as: a pattern with one star costs 1, a pattern with k ≥ 2 stars costs 3k.
fn wildcard_points(pattern: &Wildcard) -> u64 {
    match pattern.stars() {
        0 | 1 => 1,
        k => 3 * k as u64,
    }
}

/// A number inside `numeric` or `anything-but`, within the documented range, as matching sees it.
///
/// SNS docs, "Filter policy constraints": "the value can range from -10^9 to 10^9 (-1 billion to
/// 1 billion), with five digits of accuracy after the decimal point". The range is checked on the
/// number as written; more decimals than five are accepted and rounded away (`number.rs`): the docs
/// speak of accuracy, not of a limit on what may be written. Not confirmed against AWS.
fn bounded_number(value: &Value, what: &str) -> Result<Decimal, String> {
    let Value::Number(n) = value else {
        return Err(format!("Value of {what} must be numeric (got {value})"));
    };
    let d = Decimal::from_json(n).ok_or_else(|| format!("Value of {what} must be numeric (got {value})"))?;
    if !d.within_policy_range() {
        return Err(format!(
            "numeric value {d} is out of range: SNS numbers must be between -{MAX_POLICY_MAGNITUDE} and \
             {MAX_POLICY_MAGNITUDE}"
        ));
    }
    Ok(d.at_accuracy().into_owned())
}

/// `[op, n]` or `[">"|">=", low, "<"|"<=", high]`, with AWS's error texts for each mistake.
fn compile_numeric(items: &[Value]) -> Result<NumRange, String> {
    compile_numeric_bounded(items, &bounded_number)
}

/// The `numeric` grammar SNS and EventBridge share; `bounded` reads one number of the expression
/// with the dialect's range and accuracy (SNS: ±10^9 at five decimals; EventBridge: ±5×10^9 at
/// six).
pub(crate) fn compile_numeric_bounded(
    items: &[Value],
    bounded: &dyn Fn(&Value, &str) -> Result<Decimal, String>,
) -> Result<NumRange, String> {
    let bounded_number = bounded;
    let Some(first) = items.first() else {
        return Err("Invalid member in numeric match: ] (numeric needs an operator and a number)".into());
    };
    let Some(op) = first.as_str() else {
        return Err(format!("Invalid member in numeric match: {first} (the first element must be an operator)"));
    };
    let shown = if op == "=" { "equals" } else { op };
    if !matches!(op, "=" | "<" | "<=" | ">" | ">=") {
        return Err(format!("Unrecognized numeric range operator: {op} (use =, <, <=, > or >=)"));
    }
    let value = bounded_number(items.get(1).unwrap_or(&Value::Null), shown)?;
    let single = |range: NumRange| {
        if items.len() > 2 {
            Err(format!("Too many elements in numeric expression (only \">\"/\">=\" may start a range; got {op})"))
        } else {
            Ok(range)
        }
    };
    match op {
        "=" => single(NumRange { lower: Some((value.clone(), true)), upper: Some((value, true)) }),
        "<" | "<=" => single(NumRange { lower: None, upper: Some((value, op == "<=")) }),
        _ => {
            let lower = Some((value.clone(), op == ">="));
            let Some(second) = items.get(2) else {
                return Ok(NumRange { lower, upper: None });
            };
            let Some(op2) = second.as_str() else {
                return Err(format!("Bad value in numeric range: {second} (expected \"<\" or \"<=\")"));
            };
            if !matches!(op2, "<" | "<=") {
                return Err(format!(
                    "Bad numeric range operator: {op2} (a range is [\">\"|\">=\", low, \"<\"|\"<=\", high])"
                ));
            }
            let top = bounded_number(items.get(3).unwrap_or(&Value::Null), op2)?;
            if items.len() > 4 {
                return Err("Too many terms in numeric range expression".into());
            }
            if top <= value {
                let (low, high) = (items.get(1).unwrap_or(&Value::Null), items.get(3).unwrap_or(&Value::Null));
                let note = if top == value && low != high {
                    format!(", which are equal at {MAX_POLICY_FRACTION_DIGITS} digits of accuracy")
                } else {
                    String::new()
                };
                return Err(format!(
                    "Bottom must be less than top (numeric range must have a lower bound below the upper bound; got {low} and {high}{note})"
                ));
            }
            Ok(NumRange { lower, upper: Some((top, op2 == "<=")) })
        }
    }
}

fn compile_anything_but(operand: &Value) -> Result<AnythingBut, String> {
    const MIXED: &str = "Inside anything but list, either all values are number or string, mixed type is not supported";
    match operand {
        Value::String(s) => Ok(AnythingBut::Strings(VecSet::from_iter([s.clone()]))),
        Value::Number(_) => Ok(AnythingBut::Numbers(VecSet::from_iter([bounded_number(operand, "anything-but")?]))),
        Value::Array(items) => {
            let mut strings = VecSet::new();
            let mut numbers = VecSet::new();
            for item in items {
                match item {
                    Value::String(s) => {
                        strings.insert(s.clone());
                    }
                    Value::Number(_) => {
                        numbers.insert(bounded_number(item, "anything-but")?);
                    }
                    other => {
                        return Err(format!(
                            "Inside anything but list, start|null|boolean is not supported. (got {other})"
                        ))
                    }
                }
            }
            match (strings.is_empty(), numbers.is_empty()) {
                (false, true) => Ok(AnythingBut::Strings(strings)),
                (true, false) => Ok(AnythingBut::Numbers(numbers)),
                (true, true) => Err(format!("{MIXED} (the list is empty)")),
                (false, false) => Err(MIXED.into()),
            }
        }
        Value::Object(inner) => {
            let mut entries = inner.iter();
            let (op, value) = match (entries.next(), entries.next()) {
                (Some(entry), None) => entry,
                (None, _) => return Err("Anything-But expression name not found".into()),
                (Some(_), Some(_)) => {
                    return Err("Only one key allowed in match expression (inside anything-but)".into())
                }
            };
            if !matches!(op.as_str(), "prefix" | "suffix" | "wildcard") {
                return Err(format!(
                    "Unsupported anything-but pattern: {op} (SNS supports anything-but with prefix, suffix or wildcard)"
                ));
            }
            let text = string_operand(op, value)?;
            if text.is_empty() && op != "wildcard" {
                return Err("Null prefix/suffix not allowed (anything-but needs a non-empty prefix or suffix)".into());
            }
            Ok(match op.as_str() {
                "prefix" => AnythingBut::Prefix(text.to_owned()),
                "suffix" => AnythingBut::Suffix(text.to_owned()),
                _ => AnythingBut::Wildcard(Wildcard::parse(text)?),
            })
        }
        other => Err(format!("Value of anything-but must be an array or single string/number value. (got {other})")),
    }
}
