//! Every node of the diagram a keyboard reaches has an accessible name that contains the text it
//! shows (WCAG 2.5.3, Label in Name), as axe-core 4.14's `label-content-name-mismatch` reads it:
//! the text on screen (a `<title>` is a tooltip, not shown), with every character that is not a
//! letter or a digit a space and whatever is in parentheses dropped, must be a run of the name's
//! words. Checked over every built-in world, wide and narrow, before and after messages flow.

use super::parts::diagram_markup;
use super::Layout;
use crate::playground::Playground;

/// Each element with `role="button"` in `markup`: its `aria-label` and the text it shows (text
/// inside a `<title>` left out, as the browser does not draw it).
fn buttons(markup: &str) -> Vec<(String, String)> {
    // One entry per open element: its name, and the index in `out` if it is a button.
    let mut open: Vec<(String, Option<usize>)> = Vec::new();
    let mut out: Vec<(String, String)> = Vec::new();
    let mut rest = markup;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            text_into(&open, &mut out, rest);
            break;
        };
        text_into(&open, &mut out, &rest[..lt]);
        let gt = lt + rest[lt..].find('>').expect("every tag is closed");
        let tag = &rest[lt + 1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let (top, _) = open.pop().expect("a closing tag closes an open element");
            assert_eq!(top, name.trim(), "tags nest in {markup}");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap_or_default().to_string();
            let button = tag.contains("role=\"button\"").then(|| {
                let label = attr(tag, "aria-label").unwrap_or_default();
                out.push((unescape(&label), String::new()));
                out.len() - 1
            });
            open.push((name, button));
        }
    }
    out
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(tag[start..start + tag[start..].find('"')?].to_string())
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

fn text_into(open: &[(String, Option<usize>)], out: &mut [(String, String)], text: &str) {
    if text.is_empty() || open.iter().any(|(name, _)| name == "title") {
        return;
    }
    for i in open.iter().filter_map(|(_, b)| *b) {
        out[i].1.push_str(&unescape(text));
    }
}

/// The words axe compares: parentheticals dropped, every character but letters and digits a
/// space, lower case.
fn words(text: &str) -> Vec<String> {
    let mut s = text.to_string();
    while let Some(open) = s.find('(') {
        let Some(close) = s[open..].find(')') else { break };
        s.replace_range(open..open + close + 1, " ");
    }
    s.chars()
        .map(|c| if c.is_alphanumeric() { c.to_lowercase().next().unwrap_or(c) } else { ' ' })
        .collect::<String>()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Whether the shown text's words are a run of the name's words.
fn label_in_name(shown: &str, name: &str) -> bool {
    let (shown, name) = (words(shown), words(name));
    shown.is_empty() || name.windows(shown.len()).any(|w| w == shown.as_slice())
}

/// The names that do not contain their text, in `pg`'s diagram now, wide and narrow.
fn mismatches(pg: &Playground) -> Vec<String> {
    let layout = Layout::of_now(&pg.snapshot());
    let mut bad = Vec::new();
    for (narrow, layout) in [(false, layout.clone()), (true, layout.narrow())] {
        for (name, shown) in buttons(&diagram_markup(&layout)) {
            if !label_in_name(&shown, &name) {
                bad.push(format!("narrow {narrow}: {name:?} does not contain {shown:?}"));
            }
        }
    }
    bad
}

#[test]
fn the_words_are_compared_as_axe_compares_them() {
    assert!(label_in_name("billing 1 visible · 2 in flight", "Queue billing: 1 visible, 2 in flight"));
    assert!(!label_in_name("billing1 visible", "Queue billing: 1 visible"), "text run together is one word");
    assert!(!label_in_name("…ing-w1", "billing-w1 on billing"), "a cut word is not the word");
    assert!(label_in_name("w1 · msg-3 ×1", "billing-w1 (holding) msg-3 ×1 on billing"), "parentheses are skipped");
    let found =
        buttons(r#"<g role="button" aria-label="a &amp; b"><title>tip</title><text>a</text> <text>&amp; b</text></g>"#);
    assert_eq!(found, [("a & b".to_string(), "a & b".to_string())]);
}

/// Every world the page can draw: the built-in scenarios, the compare designs, each lesson's
/// start and each drill's.
fn worlds() -> Vec<(String, Playground)> {
    let public = concat!(env!("CARGO_MANIFEST_DIR"), "/../public");
    let mut out = Vec::new();
    for folder in ["scenarios", "designs", "lessons", "drills"] {
        let mut files: Vec<_> =
            std::fs::read_dir(format!("{public}/{folder}")).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files.into_iter().filter(|p| !p.ends_with("index.json")) {
            let text = std::fs::read_to_string(&path).unwrap();
            let pg = match folder {
                "drills" => engine::drill::Drill::parse(&text, &[])
                    .ok()
                    .and_then(|d| Playground::from_drill(&d, String::new()).ok()),
                "lessons" => {
                    let lesson: serde_json::Value = serde_json::from_str(&text).unwrap();
                    let scenario = match &lesson["scenario"] {
                        serde_json::Value::String(id) => {
                            std::fs::read_to_string(format!("{public}/scenarios/{id}.json")).unwrap()
                        }
                        inline => inline.to_string(),
                    };
                    Playground::from_scenario(&scenario).ok()
                }
                _ => Playground::from_scenario(&text).ok(),
            };
            out.extend(pg.map(|pg| (path.display().to_string(), pg)));
        }
    }
    out
}

#[test]
fn every_node_a_keyboard_reaches_is_named_with_the_text_it_shows() {
    let worlds = worlds();
    assert!(worlds.len() > 40, "{} worlds", worlds.len());
    let mut bad = Vec::new();
    for (name, mut pg) in worlds {
        bad.extend(mismatches(&pg).into_iter().map(|m| format!("{name} at its start: {m}")));
        // Messages in every queue, a worker on each idle one holding one, then timers running.
        let presets: Vec<String> = pg.presets().iter().take(3).map(|p| p.name.clone()).collect();
        for _ in 0..4 {
            for p in &presets {
                _ = pg.publish(p);
            }
        }
        while let Some(q) = Playground::idle_queue(&pg.snapshot()) {
            if pg.add_worker(&q).is_err() {
                break;
            }
        }
        for ms in [1_500, 20_000, 300_000] {
            pg.play_for(ms);
            bad.extend(mismatches(&pg).into_iter().map(|m| format!("{name} after {ms} ms more: {m}")));
        }
    }
    bad.dedup();
    assert!(bad.is_empty(), "{} names without their text:\n{}", bad.len(), bad.join("\n"));
}
