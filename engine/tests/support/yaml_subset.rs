//! A reader for the YAML the CloudFormation export writes (block mappings and lists, plain,
//! single- and double-quoted scalars, `!Ref`/`!GetAtt`/`!Sub`, `|` blocks, comments), written from
//! the YAML 1.1 rules, independently of the exporter, so tests can read templates back. It
//! rejects anything outside that subset, and any character YAML does not allow raw.
#![allow(dead_code)]

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Str(String),
    /// `!Ref X` is ("Ref", "X"), `!GetAtt X.Arn` ("GetAtt", "X.Arn"), `!Sub 'a'` ("Sub", "a").
    Tag(String, String),
    Map(Vec<(String, Node)>),
    List(Vec<Node>),
}

impl Node {
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A path of keys: `node.at(&["Properties", "QueueName"])`.
    pub fn at(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |n, k| n.get(k))
    }

    pub fn str(&self) -> Option<&str> {
        match self {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn entries(&self) -> &[(String, Node)] {
        match self {
            Node::Map(e) => e,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Node] {
        match self {
            Node::List(i) => i,
            _ => &[],
        }
    }
}

struct Line<'a> {
    indent: usize,
    text: &'a str,
}

/// Parses a whole document; `Err` names the line that is not in the subset.
pub fn parse(doc: &str) -> Result<Node, String> {
    if let Some(c) = doc.chars().find(|c| !(*c == '\n' || printable(*c))) {
        return Err(format!("the document holds a raw character YAML does not allow here: U+{:04X}", c as u32));
    }
    let lines: Vec<Line> = doc
        .lines()
        .map(|l| Line { indent: l.len() - l.trim_start_matches(' ').len(), text: l.trim_start_matches(' ') })
        .collect();
    let mut i = 0;
    let node = block(&lines, &mut i, 0)?;
    skip_comments(&lines, &mut i);
    if i < lines.len() {
        return Err(format!("line {}: unexpected {:?}", i + 1, lines[i].text));
    }
    Ok(node)
}

fn printable(c: char) -> bool {
    matches!(c as u32, 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x1_0000..=0x10_FFFF)
}

fn skip_comments(lines: &[Line], i: &mut usize) {
    while *i < lines.len() && (lines[*i].text.is_empty() || lines[*i].text.starts_with('#')) {
        *i += 1;
    }
}

fn block(lines: &[Line], i: &mut usize, indent: usize) -> Result<Node, String> {
    skip_comments(lines, i);
    let Some(first) = lines.get(*i) else { return Err("a value is missing at the end".into()) };
    if first.indent != indent {
        return Err(format!("line {}: indented {} where {indent} was expected", *i + 1, first.indent));
    }
    if first.text.starts_with("- ") || first.text == "-" {
        list(lines, i, indent)
    } else {
        map(lines, i, indent)
    }
}

fn map(lines: &[Line], i: &mut usize, indent: usize) -> Result<Node, String> {
    let mut entries: Vec<(String, Node)> = Vec::new();
    loop {
        skip_comments(lines, i);
        let Some(line) = lines.get(*i).filter(|l| l.indent == indent && !l.text.starts_with('-')) else { break };
        let (key, rest) = split_key(line.text).ok_or_else(|| format!("line {}: not `key: value`", *i + 1))?;
        if entries.iter().any(|(k, _)| *k == key) {
            return Err(format!("line {}: duplicate key {key:?}", *i + 1));
        }
        *i += 1;
        let value = value_after(lines, i, indent, rest)?;
        entries.push((key, value));
    }
    Ok(Node::Map(entries))
}

fn list(lines: &[Line], i: &mut usize, indent: usize) -> Result<Node, String> {
    let mut items = Vec::new();
    while let Some(line) = lines.get(*i).filter(|l| l.indent == indent && l.text.starts_with('-')) {
        let rest = line.text[1..].trim_start_matches(' ');
        if split_key(rest).is_some() && !rest.starts_with(['\'', '"', '!']) {
            // `- Key: value` opens a mapping whose keys sit two columns in.
            let mut inner: Vec<Line> = vec![Line { indent: indent + 2, text: rest }];
            let mut j = *i + 1;
            while j < lines.len() && (lines[j].indent > indent || lines[j].text.starts_with('#')) {
                inner.push(Line { indent: lines[j].indent, text: lines[j].text });
                j += 1;
            }
            let mut k = 0;
            items.push(map(&inner, &mut k, indent + 2)?);
            if k != inner.len() {
                return Err(format!("line {}: an item's mapping is malformed", *i + 1));
            }
            *i = j;
        } else {
            *i += 1;
            items.push(value_after(lines, i, indent, rest)?);
        }
        skip_comments(lines, i);
    }
    Ok(Node::List(items))
}

/// The key of `key: value` or `key:`, and what follows it.
fn split_key(text: &str) -> Option<(String, &str)> {
    let (key, rest) = if let Some(stripped) = text.strip_prefix('\'') {
        let end = single_end(stripped)?;
        (unquote_single(&stripped[..end]), &stripped[end + 1..])
    } else {
        let at = text.find(": ").or_else(|| text.ends_with(':').then(|| text.len() - 1))?;
        (text[..at].to_string(), &text[at..])
    };
    let rest = rest.strip_prefix(':')?;
    (rest.is_empty() || rest.starts_with(' ')).then(|| (key, rest.trim_start_matches(' ')))
}

fn value_after(lines: &[Line], i: &mut usize, indent: usize, rest: &str) -> Result<Node, String> {
    if rest.is_empty() {
        return block(lines, i, indent + 2);
    }
    if rest == "|" {
        let mut text = String::new();
        while *i < lines.len() && (lines[*i].indent > indent || lines[*i].text.is_empty()) {
            let l = &lines[*i];
            if !l.text.is_empty() {
                text.push_str(&" ".repeat(l.indent - (indent + 2)));
                text.push_str(l.text);
            }
            text.push('\n');
            *i += 1;
        }
        return Ok(Node::Str(text));
    }
    scalar(rest).map_err(|e| format!("line {}: {e}", *i))
}

fn single_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        if b[k] == b'\'' {
            if b.get(k + 1) == Some(&b'\'') {
                k += 2;
                continue;
            }
            return Some(k);
        }
        k += 1;
    }
    None
}

fn unquote_single(s: &str) -> String {
    s.replace("''", "'")
}

/// One scalar on its line.
pub fn scalar(text: &str) -> Result<Node, String> {
    if let Some(rest) = text.strip_prefix('!') {
        let (tag, arg) = rest.split_once(' ').ok_or("a tag without a value")?;
        let arg = match scalar(arg)? {
            Node::Str(s) => s,
            other => return Err(format!("a tag on {other:?}")),
        };
        return Ok(Node::Tag(tag.to_string(), arg));
    }
    match text {
        "{}" => return Ok(Node::Map(Vec::new())),
        "[]" => return Ok(Node::List(Vec::new())),
        _ => {}
    }
    if let Some(s) = text.strip_prefix('\'') {
        let end = single_end(s).ok_or("an unclosed single quote")?;
        if end + 1 != s.len() {
            return Err(format!("text after a quoted scalar: {:?}", &s[end + 1..]));
        }
        return Ok(Node::Str(unquote_single(&s[..end])));
    }
    if let Some(s) = text.strip_prefix('"') {
        return double(s).map(Node::Str);
    }
    if text.contains(": ") || text.contains(" #") || text.starts_with(['&', '*', '%', '@', '`', '|', '>', '{', '[']) {
        return Err(format!("{text:?} cannot stand plain"));
    }
    Ok(Node::Str(text.to_string()))
}

fn double(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                return if chars.next().is_none() { Ok(out) } else { Err("text after a double-quoted scalar".into()) }
            }
            '\\' => {
                let e = chars.next().ok_or("a backslash at the end")?;
                let hex = |n: usize, chars: &mut std::str::Chars| -> Result<char, String> {
                    let digits: String = chars.take(n).collect();
                    u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32).ok_or(format!("bad escape {digits}"))
                };
                out.push(match e {
                    '\\' => '\\',
                    '"' => '"',
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    '0' => '\0',
                    'x' => hex(2, &mut chars)?,
                    'u' => hex(4, &mut chars)?,
                    'U' => hex(8, &mut chars)?,
                    other => return Err(format!("unknown escape \\{other}")),
                });
            }
            c => out.push(c),
        }
    }
    Err("an unclosed double quote".into())
}
