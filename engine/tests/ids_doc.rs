//! The ids an author can put in an address (issue 51): docs/embedding.md lists every scenario,
//! lesson and drill id with one line each, between `<!-- ids -->` and `<!-- /ids -->`. The list
//! is made from the files in public/ by this test, which fails when it differs from the doc (a
//! file added, renamed or retitled and the doc not regenerated). Regenerate it with
//! `FANOUT_BLESS=1 cargo test -p fanout-engine --test ids_doc`.

use engine::drill::DrillIndex;
use engine::lesson::{Lesson, LessonIndex};
use engine::scenario::Scenario;
use std::path::Path;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
const DOC: &str = "docs/embedding.md";
const OPEN: &str = "<!-- ids -->";
const CLOSE: &str = "<!-- /ids -->";

/// The ids of the `.json` files in `public/<dir>` but `index.json`, sorted, with their text.
fn files(dir: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(Path::new(ROOT).join("public").join(dir))
        .unwrap_or_else(|e| panic!("public/{dir}: {e}"))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("index.json"))
        .map(|p| {
            let id = p.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 name").to_string();
            (id, std::fs::read_to_string(&p).expect("a readable file"))
        })
        .collect();
    out.sort();
    out
}

/// A table cell: one line, no `|`.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The list, as the doc holds it between the markers.
fn generated() -> String {
    let scenarios = files("scenarios");
    let builtins: Vec<(&str, &str)> = scenarios.iter().map(|(i, t)| (i.as_str(), t.as_str())).collect();
    let mut out = String::from("\n\n### Scenarios (`scenario=`)\n\n| id | what it shows |\n|---|---|\n");
    for (id, text) in &scenarios {
        let s = Scenario::parse(text).unwrap_or_else(|e| panic!("public/scenarios/{id}.json: {e}"));
        out += &format!("| `{id}` | {} |\n", cell(&s.name));
    }

    let read = |p: &str| std::fs::read_to_string(Path::new(ROOT).join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let index = LessonIndex::parse(&read("public/lessons/index.json")).expect("the lesson index parses");
    let lessons = files("lessons");
    for (id, _) in &lessons {
        assert!(index.lessons.iter().any(|l| &l.id == id), "public/lessons/{id}.json is not in lessons/index.json");
    }
    out += "\n### Lessons (`lesson=`, and `step=` from 1 to its steps)\n\n| id | steps | what it teaches |\n|---|---|---|\n";
    for listing in &index.lessons {
        let (_, text) = lessons.iter().find(|(id, _)| *id == listing.id).expect("every listed lesson has its file");
        let lesson = Lesson::parse(text, &builtins).unwrap_or_else(|e| panic!("{}: {e}", listing.id));
        out += &format!("| `{}` | {} | {} |\n", listing.id, lesson.steps.len(), cell(&listing.title));
    }

    let drills = DrillIndex::parse(&read("public/drills/index.json")).expect("the drill index parses");
    for (id, _) in files("drills") {
        assert!(drills.drills.iter().any(|d| d.id == id), "public/drills/{id}.json is not in drills/index.json");
    }
    out += "\n### Drills (for links: `index.html?drill=<id>`; not embedded)\n\n| id | the incident |\n|---|---|\n";
    for d in &drills.drills {
        out += &format!("| `{}` | {}: {} |\n", d.id, cell(&d.title), cell(&d.summary));
    }
    out + "\n"
}

#[test]
fn the_docs_list_every_scenario_lesson_and_drill_id_as_the_files_have_them() {
    let path = Path::new(ROOT).join(DOC);
    let doc = std::fs::read_to_string(&path).expect("docs/embedding.md");
    let start = doc.find(OPEN).map(|i| i + OPEN.len()).expect("docs/embedding.md has <!-- ids -->");
    let end = doc.find(CLOSE).expect("docs/embedding.md has <!-- /ids -->");
    let want = generated();
    if std::env::var_os("FANOUT_BLESS").is_some() {
        std::fs::write(&path, format!("{}{want}{}", &doc[..start], &doc[end..])).expect("docs/embedding.md written");
        return;
    }
    assert!(
        doc[start..end] == want,
        "docs/embedding.md's id list is not the files' (a scenario, lesson or drill was added, renamed or retitled): \
         regenerate it with FANOUT_BLESS=1 cargo test -p fanout-engine --test ids_doc\n--- the files say:\n{want}"
    );
}
