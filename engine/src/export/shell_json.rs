//! JSON with holes for shell variables, written as one bash word: quoted JSON text with
//! `"$VARIABLE"`s between, so an ARN or URL known only at run time lands inside a JSON string.
//! The variables hold ARNs and URLs, which need no JSON escaping.

use super::quote::sh_str;
use serde_json::Value;

/// JSON with holes for shell variables.
#[derive(Clone, Debug)]
pub enum J {
    Lit(Value),
    /// A JSON string whose text is the variable's value.
    Var(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
    /// The value written as JSON text, inside a JSON string (a policy attribute).
    Text(Box<J>),
}

enum Seg {
    Text(String),
    Var(String),
}

fn segments(j: &J, out: &mut Vec<Seg>) {
    match j {
        J::Lit(v) => out.push(Seg::Text(v.to_string())),
        J::Var(name) => {
            out.push(Seg::Text("\"".into()));
            out.push(Seg::Var(name.clone()));
            out.push(Seg::Text("\"".into()));
        }
        J::Arr(items) => {
            out.push(Seg::Text("[".into()));
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(Seg::Text(",".into()));
                }
                segments(item, out);
            }
            out.push(Seg::Text("]".into()));
        }
        J::Obj(entries) => {
            out.push(Seg::Text("{".into()));
            for (i, (k, v)) in entries.iter().enumerate() {
                out.push(Seg::Text(format!("{}{}:", if i > 0 { "," } else { "" }, Value::from(k.as_str()))));
                segments(v, out);
            }
            out.push(Seg::Text("}".into()));
        }
        J::Text(inner) => {
            let mut parts = Vec::new();
            segments(inner, &mut parts);
            out.push(Seg::Text("\"".into()));
            for p in parts {
                out.push(match p {
                    // The JSON string's content: the text escaped, without its quotes.
                    Seg::Text(t) => {
                        let quoted = Value::from(t).to_string();
                        Seg::Text(quoted[1..quoted.len() - 1].to_string())
                    }
                    var => var,
                });
            }
            out.push(Seg::Text("\"".into()));
        }
    }
}

/// One shell word holding the JSON text. `None` only if a piece held a raw NUL, which no shell
/// word can; JSON text never does (it writes control characters as escapes).
pub fn shell_json(j: &J) -> Option<String> {
    let mut segs = Vec::new();
    segments(j, &mut segs);
    // Adjacent texts as one quoted piece: `'{"QueueUrl":"'"$Q1"'"}'`.
    let mut merged: Vec<Seg> = Vec::new();
    for s in segs {
        match (merged.last_mut(), s) {
            (Some(Seg::Text(prev)), Seg::Text(t)) => prev.push_str(&t),
            (_, s) => merged.push(s),
        }
    }
    let mut word = String::new();
    for s in merged {
        match s {
            Seg::Text(t) => word.push_str(&sh_str(&t)?),
            Seg::Var(v) => word.push_str(&format!("\"${v}\"")),
        }
    }
    Some(word)
}

pub fn lit(s: &str) -> J {
    J::Lit(Value::from(s))
}

pub fn obj(entries: Vec<(&str, J)>) -> J {
    J::Obj(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_sit_between_quoted_json_even_inside_a_nested_json_string() {
        let policy = obj(vec![("deadLetterTargetArn", J::Var("Q2_ARN".into()))]);
        let request =
            obj(vec![("QueueUrl", J::Var("Q1".into())), ("Note", lit("it's")), ("Policy", J::Text(Box::new(policy)))]);
        assert_eq!(
            shell_json(&request).as_deref(),
            Some(r#"'{"QueueUrl":"'"$Q1"'","Note":"it'\''s","Policy":"{\"deadLetterTargetArn\":\"'"$Q2_ARN"'\"}"}'"#)
        );
        // JSON writes every control character as an escape, so even a NUL fits in the word.
        assert_eq!(shell_json(&lit("nul\0")).as_deref(), Some(r#"'"nul\u0000"'"#));
    }
}
