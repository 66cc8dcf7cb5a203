//! A small YAML tree and its block-style writer: just what a CloudFormation template needs
//! (mappings, lists, strings, numbers, booleans, the short-form intrinsic functions, comments).
//! Every string goes through [`yaml_str`], so no user text can break the document.

use super::quote::{comment_text, yaml_str};

/// One YAML value.
#[derive(Clone, Debug, PartialEq)]
pub enum Yaml {
    Str(String),
    Int(u64),
    /// A number already written out (a threshold as serde_json prints it).
    Number(String),
    Bool(bool),
    /// `!Ref LogicalId`.
    Ref(String),
    /// `!GetAtt LogicalId.Attribute`.
    GetAtt(String, &'static str),
    /// `!Sub 'text'`; the text must not hold user input (it is read for `${…}`).
    Sub(String),
    /// A literal block (`|`) of the exporter's own text (the placeholder code), never user input.
    Block(&'static str),
    Map(Vec<Entry>),
    List(Vec<Yaml>),
}

/// One key of a mapping, with the comment lines written above it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub comments: Vec<String>,
    pub key: String,
    pub value: Yaml,
}

impl Yaml {
    pub fn str(s: impl Into<String>) -> Yaml {
        Yaml::Str(s.into())
    }
}

/// Builds a mapping entry by entry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapBuilder(pub Vec<Entry>);

impl MapBuilder {
    pub fn new() -> MapBuilder {
        MapBuilder(Vec::new())
    }

    pub fn put(mut self, key: &str, value: Yaml) -> MapBuilder {
        self.0.push(Entry { comments: Vec::new(), key: key.to_string(), value });
        self
    }

    pub fn put_opt(self, key: &str, value: Option<Yaml>) -> MapBuilder {
        match value {
            Some(v) => self.put(key, v),
            None => self,
        }
    }

    pub fn build(self) -> Yaml {
        Yaml::Map(self.0)
    }
}

/// Writes `comments` as `# …` lines at `indent`, each made safe for a comment.
pub fn write_comments(out: &mut String, indent: usize, comments: &[String]) {
    for c in comments {
        for line in c.split('\n') {
            out.push_str(&" ".repeat(indent));
            if line.is_empty() {
                out.push_str("#\n");
            } else {
                out.push_str("# ");
                out.push_str(&comment_text(line));
                out.push('\n');
            }
        }
    }
}

/// Writes the entries of a mapping at `indent`, one per line, nested values indented by two.
pub fn write_map(out: &mut String, indent: usize, entries: &[Entry]) {
    for e in entries {
        write_comments(out, indent, &e.comments);
        out.push_str(&" ".repeat(indent));
        out.push_str(&yaml_str(&e.key));
        out.push(':');
        write_value(out, indent, &e.value);
    }
}

/// Writes a value after its key (or after `-`): a scalar on the same line, a collection below.
fn write_value(out: &mut String, indent: usize, value: &Yaml) {
    let scalar = match value {
        Yaml::Map(entries) if entries.is_empty() => "{}".to_string(),
        Yaml::List(items) if items.is_empty() => "[]".to_string(),
        Yaml::Map(entries) => {
            out.push('\n');
            return write_map(out, indent + 2, entries);
        }
        Yaml::List(items) => {
            out.push('\n');
            return write_list(out, indent + 2, items);
        }
        Yaml::Block(text) => {
            out.push_str(" |\n");
            for line in text.lines() {
                if !line.is_empty() {
                    out.push_str(&" ".repeat(indent + 2));
                    out.push_str(line);
                }
                out.push('\n');
            }
            return;
        }
        Yaml::Str(s) => yaml_str(s),
        Yaml::Int(n) => n.to_string(),
        Yaml::Number(n) => n.clone(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Ref(id) => format!("!Ref {id}"),
        Yaml::GetAtt(id, attribute) => format!("!GetAtt {id}.{attribute}"),
        Yaml::Sub(text) => format!("!Sub {}", yaml_str(text)),
    };
    out.push(' ');
    out.push_str(&scalar);
    out.push('\n');
}

fn write_list(out: &mut String, indent: usize, items: &[Yaml]) {
    for item in items {
        match item {
            Yaml::Map(entries) if !entries.is_empty() => {
                // The first line of the item's mapping takes the dash: `- Key: value`.
                let mut nested = String::new();
                write_map(&mut nested, indent + 2, entries);
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                out.push_str(&nested[indent + 2..]);
            }
            other => {
                out.push_str(&" ".repeat(indent));
                out.push('-');
                write_value(out, indent, other);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_maps_and_lists_are_written_in_block_style() {
        let doc = MapBuilder::new()
            .put("Type", Yaml::str("AWS::SQS::Queue"))
            .put(
                "Properties",
                MapBuilder::new()
                    .put("VisibilityTimeout", Yaml::Int(60))
                    .put("Queues", Yaml::List(vec![Yaml::Ref("A".into()), Yaml::GetAtt("B".into(), "Arn")]))
                    .put(
                        "Dimensions",
                        Yaml::List(vec![MapBuilder::new()
                            .put("Name", Yaml::str("QueueName"))
                            .put("Value", Yaml::str("sms: #1"))
                            .build()]),
                    )
                    .put("Empty", Yaml::List(vec![]))
                    .build(),
            )
            .build();
        let Yaml::Map(mut entries) = doc else { panic!("a mapping") };
        entries[1].comments = vec!["two\nlines".into()];
        let mut out = String::new();
        write_map(&mut out, 0, &entries);
        assert_eq!(
            out,
            "Type: AWS::SQS::Queue\n# two\n# lines\nProperties:\n  VisibilityTimeout: 60\n  Queues:\n    - !Ref A\n    - !GetAtt B.Arn\n  Dimensions:\n    - Name: QueueName\n      Value: 'sms: #1'\n  Empty: []\n"
        );
    }
}
