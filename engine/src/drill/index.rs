//! `public/drills/index.json`: the drills in the order the page lists them, each with what the
//! list shows before the drill file is fetched.
//!
//! ```json
//! {"drills": [{"id": "charged-twice", "title": "Charged twice", "summary": "…", "minutes": 10}]}
//! ```

use crate::lesson::LessonListing;

/// The drill list, in order. An entry is a lesson listing's shape: id, title, summary, minutes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrillIndex {
    pub drills: Vec<LessonListing>,
}

impl DrillIndex {
    /// Parses and checks the index: every entry complete, every id once.
    pub fn parse(text: &str) -> Result<DrillIndex, String> {
        crate::lesson::index::listings(text, "drills").map(|drills| DrillIndex { drills })
    }
}
