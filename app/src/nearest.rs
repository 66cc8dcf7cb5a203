//! The ids nearest to one that is not known, for the notice that names it ("no scenario
//! "poison"; the closest: poison-dlq, …"): by edit distance, with an id that contains what was
//! typed (or is contained in it) counted nearest.

/// The Levenshtein distance between `a` and `b`, in characters.
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Up to `n` of `ids` nearest to `given`, nearest first (ties in the list's order).
pub fn closest<'a>(given: &str, ids: impl IntoIterator<Item = &'a str>, n: usize) -> Vec<&'a str> {
    let given = given.to_lowercase();
    let mut ranked: Vec<(usize, &str)> = ids
        .into_iter()
        .map(|id| {
            let part = !given.is_empty() && (id.contains(given.as_str()) || given.contains(id));
            (if part { 0 } else { distance(&given, id) }, id)
        })
        .collect();
    // The nearest, n times (the lists are short; no sort is compiled in for them).
    let mut out = Vec::new();
    while out.len() < n {
        let Some(i) = (0..ranked.len()).min_by_key(|&i| ranked[i].0) else { break };
        out.push(ranked.remove(i).1);
    }
    out
}

/// "; the closest: a, b, c" for an unknown id, or "" when there is nothing to offer.
pub fn closest_said<'a>(given: &str, ids: impl IntoIterator<Item = &'a str>) -> String {
    let near = closest(given, ids, 3);
    if near.is_empty() {
        String::new()
    } else {
        format!("; the closest: {}", near.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_id_is_answered_with_the_nearest_ones() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        let ids = crate::playground::BUILTIN.iter().map(|(id, _)| *id);
        assert_eq!(closest("poison", ids.clone(), 1), ["poison-dlq"]);
        assert_eq!(closest("quilt-stor", ids.clone(), 1), ["quilt-store"]);
        assert_eq!(closest("crash-visiblity", ids.clone(), 1), ["crash-visibility"]);
        assert_eq!(closest("Webhook", ids.clone(), 1), ["webhook-retries"]);
        let said = closest_said("fifo", ids);
        assert!(said.starts_with("; the closest: fifo-groups, "), "{said}");
        assert_eq!(said.matches(", ").count(), 2, "three ids: {said}");
        assert_eq!(closest_said("x", std::iter::empty()), "");
    }
}
