//! `VecMap` and `VecSet`: an ordered map and set kept as a sorted `Vec`, for the engine's small
//! maps (resources by name, message attributes, settings, filter operands). They iterate in
//! order like `BTreeMap`, so everything stays deterministic, but they are far smaller in the
//! browser bundle: every distinct `BTreeMap<K, V>` instantiates its own node machinery (insert,
//! split, merge, steal, clone — about 3–4 KB of wasm each), while a sorted `Vec` needs a binary
//! search and a `memmove`. Lookups are O(log n), inserts and removes O(n): right for tens to a
//! few thousand entries — FIFO message groups, deduplication ids of the last five minutes, side
//! effects by event id. The maps that grow with traffic and lose entries from the front or the
//! middle at every step (a queue's messages and its visible and in-flight sets, the timers)
//! stay B-trees (the sets and the timers' order all one `BTreeSet<(u64, u64)>`, so its code is
//! in the bundle once).
//!
//! The module also holds what keeps generic code from being copied per type in the bundle: the
//! one binary search behind every map and set, the one sort (`sort_by`, `sort`) the engine
//! uses, and `json_object`, which builds a JSON object without collecting into it.

use std::borrow::Borrow;
use std::fmt;

use serde::{Serialize, Serializer};

/// A JSON object from its entries, put in one by one (later ones win, as with `collect()`).
/// Collecting into a `serde_json::Map` builds its `BTreeMap` by sorting, and every iterator
/// type collected from instantiates a whole stable sort: about 3 KB of wasm each.
pub fn json_object(
    entries: impl IntoIterator<Item = (String, serde_json::Value)>,
) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    for (k, v) in entries {
        map.insert(k, v);
    }
    map
}

/// Sorts `items` by `cmp`, stably, as `slice::sort_by` does (equal items keep their order).
/// Every element type and comparator sorted with the standard library instantiates a whole sort
/// of its own (about 3–4 KB of wasm each); here only a list of indices is ever sorted, with the
/// comparator behind a `dyn`, so the bundle holds one sort, and each caller a few dozen bytes to
/// move its items into the order found. For the engine's short lists (export senders, latencies
/// of a compare run, a wildcard's prefix positions), not for hot paths.
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let order = sorted_order(items.len(), &|a, b| cmp(&items[a], &items[b]));
    permute(items, &order);
}

/// Sorts `items` in their natural order, stably (see [`sort_by`]).
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The indices `0..len` in the order `cmp` gives, ties in index order (a stable sort's order):
/// a bottom-up merge sort, a few hundred bytes of wasm where the standard library's sort of
/// even one type is about 3 KB.
fn sorted_order(len: usize, cmp: &dyn Fn(usize, usize) -> std::cmp::Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut merged = vec![0; len];
    let mut width = 1;
    while width < len {
        let mut start = 0;
        while start < len {
            let (mid, end) = ((start + width).min(len), (start + 2 * width).min(len));
            let (mut left, mut right) = (start, mid);
            for slot in &mut merged[start..end] {
                // The left run's item goes first unless the right one is strictly less: stable.
                let take_left =
                    left < mid && (right == end || cmp(order[right], order[left]) != std::cmp::Ordering::Less);
                if take_left {
                    *slot = order[left];
                    left += 1;
                } else {
                    *slot = order[right];
                    right += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Moves `items[order[k]]` to place `k`, for every `k`, following each cycle of the permutation.
fn permute<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; order.len()];
    for start in 0..order.len() {
        let mut k = start;
        while !placed[k] {
            placed[k] = true;
            let from = order[k];
            if from == start {
                break;
            }
            items.swap(k, from);
            k = from;
        }
    }
}

#[derive(Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { entries: Vec::new() }
    }
}

impl<K, V> VecMap<K, V> {
    pub const fn new() -> Self {
        VecMap { entries: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        self.entries.into_iter().map(|(k, _)| k)
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.entries.into_iter().map(|(_, v)| v)
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// Keeps the entries for which `keep` says true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

/// Up to this many entries, a native build looks a key up by comparing it for equality with each
/// entry in turn rather than by binary search: most maps here hold a handful of names (queues,
/// subscriptions, saved values), and an equality test settles most pairs on their lengths
/// alone, where an ordering comparison always compares bytes. The browser build keeps to the
/// binary search, one code path less in the bundle.
#[cfg(not(target_arch = "wasm32"))]
const LINEAR_LOOKUP_MAX: usize = 16;

/// `slice::binary_search_by` over the places `0..len`, `cmp_at(i)` comparing the item at `i`
/// with the one sought: one search in the bundle for every map and set, where the slice's own
/// is instantiated for each entry type. Keys are distinct, so the place found is the same.
fn search(len: usize, cmp_at: &dyn Fn(usize) -> std::cmp::Ordering) -> Result<usize, usize> {
    let (mut low, mut high) = (0, len);
    while low < high {
        let mid = low + (high - low) / 2;
        match cmp_at(mid) {
            std::cmp::Ordering::Less => low = mid + 1,
            std::cmp::Ordering::Greater => high = mid,
            std::cmp::Ordering::Equal => return Ok(mid),
        }
    }
    Err(low)
}

impl<K: Ord, V> VecMap<K, V> {
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        search(self.entries.len(), &|i| self.entries[i].0.borrow().cmp(key))
    }

    /// Where `key` is, if present (for lookups; `find` also says where a new key would go).
    fn position<Q: Ord + ?Sized>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
    {
        #[cfg(not(target_arch = "wasm32"))]
        if self.entries.len() <= LINEAR_LOOKUP_MAX {
            // Keys are distinct and `Ord` agrees with `Eq`: the same entry the search finds.
            return self.entries.iter().position(|(k, _)| k.borrow() == key);
        }
        self.find(key).ok()
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| &self.entries[i].1)
    }

    pub fn get_key_value<Q: Ord + ?Sized>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| (&self.entries[i].0, &self.entries[i].1))
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(key).is_some()
    }

    /// Inserts or replaces; returns the value that was there.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| self.entries.remove(i).1)
    }

    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        match self.find(&key) {
            Ok(index) => Entry { map: self, index, key: None },
            Err(index) => Entry { map: self, index, key: Some(key) },
        }
    }
}

/// A place in a [`VecMap`], found by [`VecMap::entry`]: occupied when `key` is `None`.
pub struct Entry<'a, K, V> {
    map: &'a mut VecMap<K, V>,
    index: usize,
    key: Option<K>,
}

impl<'a, K, V> Entry<'a, K, V> {
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        if let Some(key) = self.key {
            self.map.entries.insert(self.index, (key, make()));
        }
        &mut self.map.entries[self.index].1
    }

    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    /// Later entries win over earlier ones with the same key, as with `BTreeMap`.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = VecMap::new();
        map.extend(iter);
        map
    }
}

impl<K: Ord, V> Extend<(K, V)> for VecMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<'a, K, V> IntoIterator for &'a mut VecMap<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = std::iter::Map<std::slice::IterMut<'a, (K, V)>, fn(&'a mut (K, V)) -> (&'a K, &'a mut V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;
    /// Panics when the key is missing, as `BTreeMap` does: only for keys known to be there.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("invariant: VecMap index with a key that is present")
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// An ordered set kept as a sorted `Vec`: the set form of [`VecMap`], for small sets.
#[derive(Clone, PartialEq, Eq)]
pub struct VecSet<T> {
    items: Vec<T>,
}

impl<T> Default for VecSet<T> {
    fn default() -> Self {
        VecSet { items: Vec::new() }
    }
}

impl<T> VecSet<T> {
    pub const fn new() -> Self {
        VecSet { items: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Items in order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    pub fn pop_first(&mut self) -> Option<T> {
        if self.items.is_empty() {
            None
        } else {
            Some(self.items.remove(0))
        }
    }
}

impl<T: Ord> VecSet<T> {
    fn find<Q: Ord + ?Sized>(&self, item: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
    {
        search(self.items.len(), &|i| self.items[i].borrow().cmp(item))
    }

    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.find(item).is_ok()
    }

    /// Adds the item; false when it was already there (the set keeps the first one).
    pub fn insert(&mut self, item: T) -> bool {
        match self.find(&item) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, item);
                true
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        match self.find(item) {
            Ok(i) => {
                self.items.remove(i);
                true
            }
            Err(_) => false,
        }
    }
}

impl<T: Ord> FromIterator<T> for VecSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut set = VecSet::new();
        set.extend(iter);
        set
    }
}

impl<T: Ord> Extend<T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.insert(item);
        }
    }
}

impl<'a, T> IntoIterator for &'a VecSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T> IntoIterator for VecSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<T: fmt::Debug> fmt::Debug for VecSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T: Serialize> Serialize for VecSet<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::VecMap;
    use std::collections::BTreeMap;

    /// The map must behave exactly as the BTreeMap it replaces, order included.
    #[test]
    fn agrees_with_btreemap_on_a_mixed_sequence() {
        let mut ours = VecMap::new();
        let mut theirs = BTreeMap::new();
        let mut x: u32 = 7;
        for step in 0..2_000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let key = (x >> 16) % 97;
            match step % 5 {
                0 | 1 => assert_eq!(ours.insert(key, step), theirs.insert(key, step)),
                2 => assert_eq!(ours.remove(&key), theirs.remove(&key)),
                3 => *ours.entry(key).or_insert(0) += 1,
                _ => assert_eq!(ours.get(&key), theirs.get(&key)),
            }
            if step % 5 == 3 {
                *theirs.entry(key).or_insert(0) += 1;
            }
            assert_eq!(ours.len(), theirs.len());
        }
        assert!(ours.iter().eq(theirs.iter()));
        ours.retain(|k, _| k % 2 == 0);
        theirs.retain(|k, _| k % 2 == 0);
        assert!(ours.iter().eq(theirs.iter()));
        assert_eq!(ours.first_key_value(), theirs.first_key_value());
    }

    #[test]
    fn the_set_agrees_with_btreeset() {
        let mut ours = super::VecSet::new();
        let mut theirs = std::collections::BTreeSet::new();
        let mut x: u32 = 11;
        for step in 0..2_000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let item = (x >> 16) % 61;
            match step % 4 {
                0 | 1 => assert_eq!(ours.insert(item), theirs.insert(item)),
                2 => assert_eq!(ours.remove(&item), theirs.remove(&item)),
                _ => assert_eq!(ours.pop_first(), theirs.pop_first()),
            }
            assert_eq!(ours.contains(&item), theirs.contains(&item));
            assert_eq!(ours.first(), theirs.first());
        }
        assert!(ours.iter().eq(theirs.iter()));
    }

    /// The one sort must order exactly as the standard library's stable sort, ties included.
    #[test]
    fn sorts_as_the_standard_stable_sort() {
        let mut x: u32 = 5;
        for len in 0..200usize {
            let items: Vec<(u32, usize)> = (0..len)
                .map(|i| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ((x >> 16) % (len as u32 / 3 + 1), i)
                })
                .collect();
            let (mut ours, mut theirs) = (items.clone(), items.clone());
            super::sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            theirs.sort_by_key(|a| a.0);
            assert_eq!(ours, theirs, "by key, stable, {len} items");
            let (mut ours, mut theirs) = (items.clone(), items);
            super::sort(&mut ours);
            theirs.sort();
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn serialises_as_a_json_object_in_key_order() {
        let map: VecMap<String, u32> = [("b".to_string(), 2), ("a".to_string(), 1)].into_iter().collect();
        assert_eq!(serde_json::to_string(&map).unwrap(), r#"{"a":1,"b":2}"#);
    }
}
