//! A queue's access policy (the `Policy` attribute), read and evaluated the way IAM evaluates a
//! resource-based policy for the one question the playground asks: may an AWS service (SNS,
//! EventBridge) call `sqs:SendMessage` on this queue on behalf of a topic or a rule?
//!
//! IAM user guide, "Policy evaluation logic": an explicit `Deny` in any matching statement wins;
//! otherwise an `Allow` in a matching statement allows; otherwise the request is implicitly
//! denied. A statement matches when its principal, action, resource and every condition match.
//! "Condition operators": several keys under one operator, and several operators, must all
//! match (AND); several values for one key match if any does (OR); a negated operator
//! (`StringNotEquals`, `ArnNotLike`, …) matches when none does; "If the key that you specify in a
//! policy condition is not present in the request context, the values do not match", except for
//! the negated operators, which then match. `ArnEquals` and `ArnLike` (and the `String…Like`
//! operators) accept the wildcards `*` and `?`.
//!
//! The request context has the service principal (`sns.amazonaws.com`,
//! `events.amazonaws.com`), the action `sqs:SendMessage`, the queue's ARN, and the keys
//! `aws:SourceArn` (the topic or rule) and `aws:SourceAccount`.
//!
//! Not modelled: identity-based (IAM) policies, other accounts, policy variables (`${aws:…}`),
//! the `…IfExists` suffix and the `ForAnyValue:`/`ForAllValues:` qualifiers, numeric, date, IP
//! address and Boolean operators (a policy using them is accepted, and such a condition is
//! evaluated as one on a key the request does not have), and `NotPrincipal`'s special cases. A
//! statement without `Resource` applies to the queue (SQS fills in the queue's ARN).

use serde_json::{Map, Value};

/// The condition operators the playground evaluates (a `Not` one is the negation of its base).
const STRING_OPERATORS: &[&str] = &[
    "StringEquals",
    "StringNotEquals",
    "StringEqualsIgnoreCase",
    "StringNotEqualsIgnoreCase",
    "StringLike",
    "StringNotLike",
    "ArnEquals",
    "ArnNotEquals",
    "ArnLike",
    "ArnNotLike",
];

/// Operators IAM knows whose keys the playground's requests never carry: accepted, never matching.
const OTHER_OPERATORS: &[&str] = &[
    "NumericEquals",
    "NumericNotEquals",
    "NumericLessThan",
    "NumericLessThanEquals",
    "NumericGreaterThan",
    "NumericGreaterThanEquals",
    "DateEquals",
    "DateNotEquals",
    "DateLessThan",
    "DateLessThanEquals",
    "DateGreaterThan",
    "DateGreaterThanEquals",
    "Bool",
    "BinaryEquals",
    "IpAddress",
    "NotIpAddress",
    "Null",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    Allow,
    Deny,
}

/// A list of patterns, or their complement (`NotAction`, `NotResource`, `NotPrincipal`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Patterns {
    negated: bool,
    values: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Condition {
    operator: String,
    key: String,
    values: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Statement {
    effect: Effect,
    /// Principals as `Service:sns.amazonaws.com`, `AWS:arn:…` or `*`.
    principals: Patterns,
    actions: Patterns,
    resources: Option<Patterns>,
    conditions: Vec<Condition>,
}

/// A checked access policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuePolicy {
    statements: Vec<Statement>,
}

/// What a service asks: may `service` call `action` on `resource`, for `source_arn`?
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    pub service: &'a str,
    pub action: &'a str,
    pub resource: &'a str,
    pub source_arn: &'a str,
    pub source_account: &'a str,
}

/// The outcome of an evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Allowed,
    /// A statement denies it explicitly (its index, from 0).
    ExplicitDeny(usize),
    /// No statement allows it.
    ImplicitDeny,
}

impl QueuePolicy {
    /// Reads a policy document; the error says what is malformed.
    pub fn parse(text: &str) -> Result<QueuePolicy, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("the policy is not valid JSON ({e})"))?;
        let Value::Object(doc) = doc else { return Err("the policy must be a JSON object".into()) };
        if let Some(k) = doc.keys().find(|k| !matches!(k.as_str(), "Version" | "Id" | "Statement")) {
            return Err(format!("unknown policy element \"{k}\" (a policy has Version, Id and Statement)"));
        }
        match doc.get("Version") {
            None => {}
            Some(Value::String(v)) if v == "2012-10-17" || v == "2008-10-17" => {}
            Some(v) => return Err(format!("Version {v} is not 2012-10-17 or 2008-10-17")),
        }
        let statements = match doc.get("Statement") {
            Some(Value::Array(list)) if !list.is_empty() => list.iter().collect::<Vec<_>>(),
            Some(s @ Value::Object(_)) => vec![s],
            _ => return Err("the policy needs a Statement: an object or a non-empty list of objects".into()),
        };
        let mut parsed = Vec::with_capacity(statements.len());
        for (i, s) in statements.into_iter().enumerate() {
            parsed.push(statement(s).map_err(|e| format!("Statement {i}: {e}"))?);
        }
        Ok(QueuePolicy { statements: parsed })
    }

    /// IAM's evaluation: an explicit deny wins, then an allow, else the implicit deny.
    pub fn evaluate(&self, request: &Request) -> Decision {
        let matching = |effect: Effect| self.statements.iter().position(|s| s.effect == effect && s.matches(request));
        if let Some(i) = matching(Effect::Deny) {
            return Decision::ExplicitDeny(i);
        }
        if matching(Effect::Allow).is_some() {
            return Decision::Allowed;
        }
        Decision::ImplicitDeny
    }
}

fn strings(value: &Value, what: &str) -> Result<Vec<String>, String> {
    match value {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| format!("{what} must list strings")))
            .collect(),
        _ => Err(format!("{what} must be a string or a non-empty list of strings")),
    }
}

/// `Action` or `NotAction` (exactly one), and likewise for `Resource`/`NotResource`.
fn either(s: &Map<String, Value>, name: &str, required: bool) -> Result<Option<Patterns>, String> {
    let not = format!("Not{name}");
    match (s.get(name), s.get(&not)) {
        (Some(_), Some(_)) => Err(format!("a statement has {name} or {not}, not both")),
        (Some(v), None) => Ok(Some(Patterns { negated: false, values: strings(v, name)? })),
        (None, Some(v)) => Ok(Some(Patterns { negated: true, values: strings(v, &not)? })),
        (None, None) if required => Err(format!("a statement needs {name} (or {not})")),
        (None, None) => Ok(None),
    }
}

fn principals(value: &Value) -> Result<Vec<String>, String> {
    match value {
        Value::String(s) if s == "*" => Ok(vec!["*".into()]),
        Value::Object(map) if !map.is_empty() => {
            let mut out = Vec::new();
            for (kind, ids) in map {
                if !matches!(kind.as_str(), "AWS" | "Service" | "Federated" | "CanonicalUser") {
                    return Err(format!("unknown principal type \"{kind}\" (AWS, Service, Federated, CanonicalUser)"));
                }
                for id in strings(ids, "Principal")? {
                    out.push(if kind == "AWS" && id == "*" { "*".to_string() } else { format!("{kind}:{id}") });
                }
            }
            Ok(out)
        }
        _ => Err("Principal must be \"*\" or an object such as {\"Service\": \"sns.amazonaws.com\"}".into()),
    }
}

fn statement(value: &Value) -> Result<Statement, String> {
    let Value::Object(s) = value else { return Err("a statement must be an object".into()) };
    const KEYS: &[&str] =
        &["Sid", "Effect", "Principal", "NotPrincipal", "Action", "NotAction", "Resource", "NotResource", "Condition"];
    if let Some(k) = s.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("unknown statement element \"{k}\""));
    }
    let effect = match s.get("Effect").and_then(Value::as_str) {
        Some("Allow") => Effect::Allow,
        Some("Deny") => Effect::Deny,
        _ => return Err("Effect must be Allow or Deny".into()),
    };
    let principals = match (s.get("Principal"), s.get("NotPrincipal")) {
        (Some(p), None) => Patterns { negated: false, values: principals(p)? },
        (None, Some(p)) => Patterns { negated: true, values: principals(p)? },
        (Some(_), Some(_)) => return Err("a statement has Principal or NotPrincipal, not both".into()),
        (None, None) => return Err("a queue policy statement needs a Principal".into()),
    };
    let actions = either(s, "Action", true)?.expect("invariant: required");
    for a in &actions.values {
        let lower = a.to_ascii_lowercase();
        if lower != "*" && !lower.starts_with("sqs:") {
            return Err(format!("action \"{a}\" is not an SQS action (sqs:…)"));
        }
    }
    let resources = either(s, "Resource", false)?;
    let conditions = match s.get("Condition") {
        None => Vec::new(),
        Some(c) => conditions(c)?,
    };
    Ok(Statement { effect, principals, actions, resources, conditions })
}

fn conditions(value: &Value) -> Result<Vec<Condition>, String> {
    let Value::Object(ops) = value else { return Err("Condition must be an object of operators".into()) };
    let mut out = Vec::new();
    for (operator, keys) in ops {
        if !STRING_OPERATORS.contains(&operator.as_str()) && !OTHER_OPERATORS.contains(&operator.as_str()) {
            return Err(format!("unknown condition operator \"{operator}\""));
        }
        let Value::Object(keys) = keys else {
            return Err(format!("{operator} must be an object of condition keys"));
        };
        for (key, values) in keys {
            let values = match values {
                Value::Bool(b) => vec![b.to_string()],
                Value::Number(n) => vec![n.to_string()],
                v => strings(v, key)?,
            };
            out.push(Condition { operator: operator.clone(), key: key.clone(), values });
        }
    }
    Ok(out)
}

impl Patterns {
    fn matches(&self, candidates: &[&str], case_insensitive: bool) -> bool {
        let hit = self.values.iter().any(|p| {
            candidates.iter().any(|c| {
                if case_insensitive {
                    glob(&p.to_ascii_lowercase(), &c.to_ascii_lowercase())
                } else {
                    glob(p, c)
                }
            })
        });
        hit != self.negated
    }
}

impl Statement {
    fn matches(&self, r: &Request) -> bool {
        let service = format!("Service:{}", r.service);
        let principal_ok = self.principals.values.iter().any(|p| p == "*" || *p == service) != self.principals.negated;
        principal_ok
            && self.actions.matches(&[r.action], true)
            && self.resources.as_ref().is_none_or(|res| res.matches(&[r.resource], false))
            && self.conditions.iter().all(|c| c.matches(r))
    }
}

impl Condition {
    fn matches(&self, r: &Request) -> bool {
        let negated = self.operator.contains("Not");
        let present = match self.key.to_ascii_lowercase().as_str() {
            "aws:sourcearn" => Some(r.source_arn),
            "aws:sourceaccount" | "aws:sourceowner" => Some(r.source_account),
            _ => None,
        };
        let Some(actual) = present.filter(|_| STRING_OPERATORS.contains(&self.operator.as_str())) else {
            return negated;
        };
        let base = self.operator.replace("Not", "");
        let hit = self.values.iter().any(|want| match base.as_str() {
            "StringEquals" => want == actual,
            "StringEqualsIgnoreCase" => want.eq_ignore_ascii_case(actual),
            // ArnEquals, ArnLike and StringLike accept * and ?.
            _ => glob(want, actual),
        });
        hit != negated
    }
}

/// Whether `text` matches `pattern`, where `*` is any run of characters and `?` any one.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUEUE: &str = "arn:aws:sqs:us-east-1:000000000000:orders";
    const TOPIC: &str = "arn:aws:sns:us-east-1:000000000000:order-events";

    fn request(source: &str) -> Request<'_> {
        Request {
            service: "sns.amazonaws.com",
            action: "sqs:SendMessage",
            resource: QUEUE,
            source_arn: source,
            source_account: "000000000000",
        }
    }

    fn allow_topic(condition: &str) -> String {
        format!(
            r#"{{"Version":"2012-10-17","Statement":[{{"Effect":"Allow","Principal":{{"Service":"sns.amazonaws.com"}},
            "Action":"SQS:SendMessage","Resource":"{QUEUE}","Condition":{{"{condition}":{{"aws:SourceArn":"{TOPIC}"}}}}}}]}}"#
        )
    }

    #[test]
    fn the_documented_sns_statement_allows_its_topic_and_only_it() {
        let p = QueuePolicy::parse(&allow_topic("ArnEquals")).unwrap();
        assert_eq!(p.evaluate(&request(TOPIC)), Decision::Allowed);
        assert_eq!(p.evaluate(&request("arn:aws:sns:us-east-1:000000000000:other")), Decision::ImplicitDeny);
        let events = Request { service: "events.amazonaws.com", ..request(TOPIC) };
        assert_eq!(p.evaluate(&events), Decision::ImplicitDeny, "the principal is SNS only");
    }

    #[test]
    fn an_explicit_deny_wins_over_an_allow() {
        let text = r#"{"Statement":[{"Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"},
            {"Effect":"Deny","Principal":{"AWS":"*"},"Action":"sqs:Send*","Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:sns:*"}}}]}"#;
        let p = QueuePolicy::parse(text).unwrap();
        assert_eq!(p.evaluate(&request(TOPIC)), Decision::ExplicitDeny(1));
        let rule = "arn:aws:events:us-east-1:000000000000:rule/r";
        let events = Request { service: "events.amazonaws.com", ..request(rule) };
        assert_eq!(p.evaluate(&events), Decision::Allowed);
    }

    #[test]
    fn a_negated_operator_matches_a_missing_key_and_a_positive_one_does_not() {
        let text = r#"{"Statement":{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage",
            "Condition":{"StringNotEquals":{"aws:PrincipalOrgID":"o-123"}}}}"#;
        assert_eq!(QueuePolicy::parse(text).unwrap().evaluate(&request(TOPIC)), Decision::Allowed);
        let text = text.replace("StringNotEquals", "StringEquals");
        assert_eq!(QueuePolicy::parse(&text).unwrap().evaluate(&request(TOPIC)), Decision::ImplicitDeny);
    }

    #[test]
    fn malformed_policies_say_what_is_wrong() {
        for (text, why) in [
            ("not json", "not valid JSON"),
            ("{}", "needs a Statement"),
            (r#"{"Statement":[{"Effect":"Permit","Principal":"*","Action":"sqs:*"}]}"#, "Effect"),
            (r#"{"Statement":[{"Effect":"Allow","Action":"sqs:*"}]}"#, "Principal"),
            (r#"{"Statement":[{"Effect":"Allow","Principal":"*"}]}"#, "Action"),
            (r#"{"Statement":[{"Effect":"Allow","Principal":"*","Action":"sns:Publish"}]}"#, "not an SQS action"),
            (
                r#"{"Statement":[{"Effect":"Allow","Principal":"*","Action":"sqs:*","Condition":{"ArnSame":{}}}]}"#,
                "operator",
            ),
            (r#"{"Version":"2020-01-01","Statement":[]}"#, "Version"),
        ] {
            let e = QueuePolicy::parse(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn glob_matches_stars_and_question_marks() {
        assert!(glob("arn:aws:sns:*:000000000000:order-?vents", TOPIC));
        assert!(glob("*", ""));
        assert!(!glob("arn:aws:sns:*:111111111111:*", TOPIC));
        assert!(glob("a*b*c", "axxbyyc") && !glob("a*b*c", "axxbyy"));
    }
}
