//! A JSON message body (or a `String.Array` attribute), held for matching.
//!
//! SNS docs, "Amazon SNS message filtering": "Filter policies for the message body assume that the
//! message payload is a well-formed JSON object." The body is parsed once per evaluation into an
//! arena of nodes (indices, not boxes: no recursive drop, no deep recursion on lookup) in which a
//! dotted key `"a.b"` is filed under `a` → `b`, merged into an object `a` when there is one. So a
//! policy path `a.b` finds `{"a": {"b": 1}}`, `{"a.b": 1}` and `{"a": {"b": 1}, "a.c": 2}` alike
//! (recorded against AWS by LocalStack, not documented).
//!
//! Arrays are transparent: a path walks into every element (SNS docs, "Numeric value matching":
//! `{"price": [100, 50]}` is matched element by element), including arrays of arrays.

use super::number::Decimal;
use super::values::Leaf;
use crate::vecmap::VecMap;
use serde_json::Value;

#[derive(Debug)]
pub(crate) enum Node {
    Str(String),
    Num(Decimal),
    Bool(bool),
    Null,
    Obj(VecMap<String, Vec<usize>>),
    Arr(Vec<usize>),
}

/// A parsed document: `nodes[root]` is the top value.
#[derive(Debug)]
pub(crate) struct Doc {
    nodes: Vec<Node>,
    pub(crate) root: usize,
}

impl Doc {
    /// Parses JSON text. Nesting deeper than [`crate::nesting::MAX_NESTING`] is refused first, in
    /// one pass (serde_json would refuse it too), which bounds the recursion in [`Doc::add`].
    pub(crate) fn parse(text: &str) -> Result<Doc, String> {
        crate::nesting::check(text)?;
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut doc = Doc { nodes: Vec::new(), root: 0 };
        doc.root = doc.add(value);
        Ok(doc)
    }

    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn add(&mut self, value: Value) -> usize {
        match value {
            Value::String(s) => self.push(Node::Str(s)),
            Value::Number(n) => match Decimal::from_json(&n) {
                Some(d) => self.push(Node::Num(d)),
                None => self.push(Node::Str(n.to_string())),
            },
            Value::Bool(b) => self.push(Node::Bool(b)),
            Value::Null => self.push(Node::Null),
            Value::Array(items) => {
                let ids = items.into_iter().map(|item| self.add(item)).collect();
                self.push(Node::Arr(ids))
            }
            Value::Object(map) => {
                let id = self.push(Node::Obj(VecMap::new()));
                for (key, item) in map {
                    let child = self.add(item);
                    self.file_under(id, &key, child);
                }
                id
            }
        }
    }

    /// Files `child` under the dotted `key` of object `object`, creating or reusing objects.
    fn file_under(&mut self, object: usize, key: &str, child: usize) {
        let mut segments: Vec<&str> = key.split('.').collect();
        let last = segments.pop().unwrap_or_default();
        let mut current = object;
        for segment in segments {
            let existing = self.children(current, segment).iter().copied().find(|&id| self.is_object(id));
            current = match existing {
                Some(id) => id,
                None => {
                    let id = self.push(Node::Obj(VecMap::new()));
                    self.attach(current, segment, id);
                    id
                }
            };
        }
        self.attach(current, last, child);
    }

    fn attach(&mut self, object: usize, key: &str, child: usize) {
        if let Some(Node::Obj(map)) = self.nodes.get_mut(object) {
            map.entry(key.to_owned()).or_default().push(child);
        }
    }

    fn children(&self, object: usize, key: &str) -> &[usize] {
        match self.nodes.get(object) {
            Some(Node::Obj(map)) => map.get(key).map(Vec::as_slice).unwrap_or(&[]),
            _ => &[],
        }
    }

    pub(crate) fn is_object(&self, id: usize) -> bool {
        matches!(self.nodes.get(id), Some(Node::Obj(_)))
    }

    /// The root is an object with at least one property.
    pub(crate) fn is_nonempty_object(&self) -> bool {
        matches!(self.nodes.get(self.root), Some(Node::Obj(map)) if !map.is_empty())
    }

    /// Pushes `id`, or the elements of `id` (recursively) when it is an array, onto `out`.
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

    /// Every non-array node reached from `start` by following `segments` (arrays walked through).
    pub(crate) fn resolve(&self, start: usize, segments: &[String]) -> Vec<usize> {
        let mut current = Vec::new();
        self.flatten_into(start, &mut current);
        for segment in segments {
            let mut next = Vec::new();
            for &id in &current {
                for &child in self.children(id, segment) {
                    self.flatten_into(child, &mut next);
                }
            }
            current = next;
        }
        current
    }

    /// The scalar value of a node, or `None` for an object.
    pub(crate) fn leaf(&self, id: usize) -> Option<Leaf<'_>> {
        match self.nodes.get(id)? {
            Node::Str(s) => Some(Leaf::Str(s)),
            Node::Num(n) => Some(Leaf::Num(n)),
            Node::Bool(b) => Some(Leaf::Bool(*b)),
            Node::Null => Some(Leaf::Null),
            Node::Obj(_) | Node::Arr(_) => None,
        }
    }

    /// The scalar leaves at a path (objects at the path are not leaves: SNS docs, "Key matching":
    /// `exists` "works only on leaf nodes").
    pub(crate) fn leaves(&self, start: usize, segments: &[String]) -> Vec<Leaf<'_>> {
        self.resolve(start, segments).into_iter().filter_map(|id| self.leaf(id)).collect()
    }

    /// All scalar leaves of the whole document (a `String.Array` attribute's elements).
    pub(crate) fn all_leaves(&self) -> Vec<Leaf<'_>> {
        self.leaves(self.root, &[])
    }
}

#[cfg(test)]
mod tests {
    use super::Doc;

    fn path(p: &str) -> Vec<String> {
        p.split('.').map(str::to_owned).collect()
    }

    #[test]
    fn dotted_keys_and_arrays() {
        let doc = Doc::parse(r#"{"a": {"b": 1}, "a.c": 2, "x.y.z": [3, [4, {"w": 5}]]}"#).unwrap();
        assert_eq!(doc.leaves(doc.root, &path("a.b")).len(), 1);
        assert_eq!(doc.leaves(doc.root, &path("a.c")).len(), 1);
        assert_eq!(doc.leaves(doc.root, &path("x.y.z")).len(), 2);
        assert_eq!(doc.leaves(doc.root, &path("x.y.z.w")).len(), 1);
        assert!(doc.leaves(doc.root, &path("a")).is_empty(), "an object is not a leaf");
        assert_eq!(doc.resolve(doc.root, &path("a")).len(), 1, "a.c merged into the object a");
    }

    #[test]
    fn very_long_dotted_key_is_fine() {
        let key = vec!["k"; 50_000].join(".");
        let doc = Doc::parse(&format!("{{\"{key}\": 1}}")).unwrap();
        assert_eq!(doc.leaves(doc.root, &path(&key)).len(), 1);
    }
}
