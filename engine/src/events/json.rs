//! JSON as EventBridge reads it, for patterns and events alike.
//!
//! EventBridge docs, "Event pattern syntax": "For numbers, EventBridge uses string representation.
//! For example, 300, 300.0, and 3.0e2 are not considered equal." So a number keeps the text it was
//! written with (serde_json, without its `arbitrary_precision` feature, would read all three as
//! one `f64`). The text is first checked for nesting ([`crate::nesting`]: at most 127 objects or
//! arrays inside one another, in one pass over the bytes) and by serde_json (syntax), then read
//! again here into an arena of nodes that keeps each number's text.
//!
//! Also from "Event pattern syntax": "If you include a key more than once the last reference will
//! be the one used" (a repeated key replaces the earlier one here), and "EventBridge uses dot (.)
//! as the joining character" (a key `a.b` names the same field as `a` → `b`; see [`Tree::resolve`]).

use serde::de::IgnoredAny;

/// One JSON value; containers hold node indices.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    Str(String),
    /// A number, exactly as written.
    Num(String),
    Bool(bool),
    Null,
    /// Keys in document order, each once (the last occurrence wins).
    Obj(Vec<(String, usize)>),
    Arr(Vec<usize>),
}

/// A parsed document; `nodes[root]` is the top value.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: usize,
}

/// A scalar value, borrowed from a tree.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Leaf<'a> {
    Str(&'a str),
    Num(&'a str),
    Bool(bool),
    Null,
}

struct Reader<'t> {
    text: &'t str,
    at: usize,
    nodes: Vec<Node>,
}

impl Tree {
    /// Parses JSON text; the error is serde_json's description of the first mistake.
    pub(crate) fn parse(text: &str) -> Result<Tree, String> {
        // Before serde_json: skipping a value (`IgnoredAny`) has no depth limit of its own.
        crate::nesting::check(text)?;
        serde_json::from_str::<IgnoredAny>(text).map_err(|e| e.to_string())?;
        let mut reader = Reader { text, at: 0, nodes: Vec::new() };
        let root = reader.value().ok_or_else(|| "unreadable JSON".to_string())?;
        Ok(Tree { nodes: reader.nodes, root })
    }

    pub(crate) fn node(&self, id: usize) -> Option<&Node> {
        self.nodes.get(id)
    }

    pub(crate) fn is_object(&self, id: usize) -> bool {
        matches!(self.nodes.get(id), Some(Node::Obj(_)))
    }

    /// The child of an object under exactly `key`.
    pub(crate) fn get(&self, object: usize, key: &str) -> Option<usize> {
        match self.nodes.get(object) {
            Some(Node::Obj(entries)) => entries.iter().find(|(k, _)| k == key).map(|(_, id)| *id),
            _ => None,
        }
    }

    pub(crate) fn leaf(&self, id: usize) -> Option<Leaf<'_>> {
        match self.nodes.get(id)? {
            Node::Str(s) => Some(Leaf::Str(s)),
            Node::Num(n) => Some(Leaf::Num(n)),
            Node::Bool(b) => Some(Leaf::Bool(*b)),
            Node::Null => Some(Leaf::Null),
            Node::Obj(_) | Node::Arr(_) => None,
        }
    }

    /// `id`, or the elements of `id` (recursively) when it is an array: arrays are transparent
    /// (event-ruler: "the array structure is crushed out").
    fn flatten_into(&self, id: usize, out: &mut Vec<usize>) {
        let mut stack = vec![id];
        while let Some(top) = stack.pop() {
            match self.nodes.get(top) {
                Some(Node::Arr(items)) => stack.extend(items.iter().rev()),
                Some(_) => out.push(top),
                None => {}
            }
        }
    }

    /// Every non-array node reached from `start` by the path `segments`. A key containing dots
    /// covers as many segments as it has parts, so `{"a.b": 1}` and `{"a": {"b": 1}}` both
    /// answer the path `a.b`.
    pub(crate) fn resolve(&self, start: usize, segments: &[String]) -> Vec<usize> {
        let mut out = Vec::new();
        let mut firsts = Vec::new();
        self.flatten_into(start, &mut firsts);
        // (node, how many segments are consumed), depth-first; bounded by the tree's size.
        let mut work: Vec<(usize, usize)> = firsts.into_iter().rev().map(|id| (id, 0)).collect();
        while let Some((id, done)) = work.pop() {
            if done == segments.len() {
                out.push(id);
                continue;
            }
            let Some(Node::Obj(entries)) = self.nodes.get(id) else { continue };
            let mut next = Vec::new();
            for (key, child) in entries {
                let parts = key.split('.').count();
                let matches = segments
                    .get(done..done + parts)
                    .is_some_and(|want| key.split('.').zip(want).all(|(have, want)| have == want));
                if matches {
                    let mut reached = Vec::new();
                    self.flatten_into(*child, &mut reached);
                    next.extend(reached.into_iter().map(|r| (r, done + parts)));
                }
            }
            work.extend(next.into_iter().rev());
        }
        out
    }

    /// The scalar leaves at a path from `start` (objects are not leaves).
    pub(crate) fn leaves(&self, start: usize, segments: &[String]) -> Vec<Leaf<'_>> {
        self.resolve(start, segments).into_iter().filter_map(|id| self.leaf(id)).collect()
    }
}

impl Reader<'_> {
    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    fn skip_ws(&mut self) {
        while self.bytes().get(self.at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The text was validated by serde_json, so every `None` here is unreachable in practice.
    fn value(&mut self) -> Option<usize> {
        self.skip_ws();
        match *self.bytes().get(self.at)? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                let s = self.string()?;
                Some(self.push(Node::Str(s)))
            }
            b't' => self.keyword("true", Node::Bool(true)),
            b'f' => self.keyword("false", Node::Bool(false)),
            b'n' => self.keyword("null", Node::Null),
            _ => {
                let start = self.at;
                while self
                    .bytes()
                    .get(self.at)
                    .is_some_and(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                {
                    self.at += 1;
                }
                let text = self.text.get(start..self.at)?.to_string();
                Some(self.push(Node::Num(text)))
            }
        }
    }

    fn keyword(&mut self, word: &str, node: Node) -> Option<usize> {
        self.at += word.len();
        Some(self.push(node))
    }

    fn string(&mut self) -> Option<String> {
        let start = self.at;
        self.at += 1;
        loop {
            match *self.bytes().get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => break,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        serde_json::from_str::<String>(self.text.get(start..self.at)?).ok()
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.bytes().get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    fn object(&mut self) -> Option<usize> {
        self.at += 1;
        let mut entries: Vec<(String, usize)> = Vec::new();
        self.skip_ws();
        if self.bytes().get(self.at) == Some(&b'}') {
            self.at += 1;
            return Some(self.push(Node::Obj(entries)));
        }
        loop {
            self.skip_ws();
            let key = self.string()?;
            self.expect(b':')?;
            let child = self.value()?;
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = child,
                None => entries.push((key, child)),
            }
            self.skip_ws();
            match *self.bytes().get(self.at)? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(self.push(Node::Obj(entries)));
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self) -> Option<usize> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes().get(self.at) == Some(&b']') {
            self.at += 1;
            return Some(self.push(Node::Arr(items)));
        }
        loop {
            items.push(self.value()?);
            self.skip_ws();
            match *self.bytes().get(self.at)? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(self.push(Node::Arr(items)));
                }
                _ => return None,
            }
        }
    }
}

/// JSON text without the whitespace between tokens, everything else (key order, number texts)
/// kept as written. The text must be valid JSON.
pub(crate) fn minify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> Vec<String> {
        p.split('.').map(str::to_owned).collect()
    }

    #[test]
    fn numbers_keep_their_text_and_last_key_wins() {
        let t = Tree::parse(r#"{"a": 300.0, "b": 3.0e2, "a": 300}"#).unwrap();
        let texts: Vec<String> = ["a", "b"]
            .iter()
            .map(|k| match t.leaves(t.root, &path(k))[..] {
                [Leaf::Num(n)] => n.to_string(),
                _ => panic!("one number at {k}"),
            })
            .collect();
        assert_eq!(texts, ["300", "3.0e2"]);
    }

    #[test]
    fn dotted_keys_arrays_and_escapes() {
        let t =
            Tree::parse(r#"{"a": {"b": 1}, "a.c": [2, [3]], "s": "x\"\u00e9", "o": [{"k": 1}, {"k": 2}]}"#).unwrap();
        assert_eq!(t.leaves(t.root, &path("a.b")).len(), 1);
        assert_eq!(t.leaves(t.root, &path("a.c")).len(), 2);
        assert_eq!(t.leaves(t.root, &path("o.k")).len(), 2);
        assert!(matches!(t.leaves(t.root, &path("s"))[..], [Leaf::Str("x\"é")]));
        assert!(Tree::parse("{").is_err());
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert!(Tree::parse(&deep).unwrap_err().contains("more than 127 deep"), "nesting is bounded");
    }

    #[test]
    fn minify_keeps_strings() {
        assert_eq!(minify("{ \"a b\" : [ 1 , \"x \\\" y\" ] }"), "{\"a b\":[1,\"x \\\" y\"]}");
    }
}
