//! Where the learner is: one [`Route`] per view of the one app, read from the page's address and
//! written back to it. Plain Rust with no signals (the view holds the route in a signal and
//! moves between views without loading anything). Every address the playground has had keeps
//! working: `lesson.html`, `compare.html` and `export.html` are copies of `index.html` that load
//! the same bundle, and their parameters are read here.
//!
//! | address | route |
//! |---|---|
//! | `./`, `index.html` | the sandbox (a `#share=` fragment opens a shared story) |
//! | `index.html?scenario=<id>` | the sandbox on a built-in scenario |
//! | `routes.html` | the sandbox on `eventbridge-orders` (the routes page's first scenario) |
//! | `lesson.html` | the lesson overview |
//! | `lesson.html?lesson=<id>[&step=<n>]`, `index.html?lesson=…` | a lesson, at step n (1-based) |
//! | `compare.html[?compare=<a>,<b>[,<c>]]`, `index.html?compare=…` | compare mode |
//! | `compare.html?interview=<id>[&step=<n>]`, `index.html?interview=…` | an interview walkthrough, at step n (1-based; one past the last: the review) |
//! | `export.html[#share=…]` | the story as CloudFormation, boto3 or AWS CLI |
//! | `index.html?drills` | the incident drills' list |
//! | `index.html?drill=<id>` | an incident drill |
//!
//! `?embed=1` is the embed's (its own, smaller bundle): `index.html` forwards it to `embed.html`
//! before anything loads.

/// The scenario the old routes page (`routes.html`) opened with.
pub const ROUTES_PAGE_SCENARIO: &str = "eventbridge-orders";

/// A view of the app and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// The sandbox; `scenario` names a built-in scenario to open (the default one when `None`).
    Sandbox { scenario: Option<String> },
    /// The lesson overview.
    Lessons,
    /// A lesson, at a step as written in the address (1-based; checked when the lesson opens).
    Lesson { id: String, step: Option<String> },
    /// Compare mode, with the designs as the `compare` parameter names them ("" for the default).
    Compare { designs: String },
    /// An interview walkthrough, at a step as written in the address (1-based; one past the
    /// last is the review; checked when the walkthrough opens).
    Interview { id: String, step: Option<String> },
    /// The export to AWS of the sandbox's story.
    Export,
    /// The incident drills' list.
    Drills,
    /// An incident drill.
    Drill { id: String },
}

/// Which view a route is drawn by: moving between two routes of one view (a lesson's steps)
/// keeps the view and its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Sandbox,
    Lessons,
    Compare,
    Interview,
    Export,
    Drills,
}

impl Route {
    /// The route of an address: its path (only the file name counts) and its query (with or
    /// without the leading `?`). Unknown parameters are left alone; an unknown file is the
    /// sandbox (a host that serves `index.html` for every path).
    pub fn parse(path: &str, query: &str) -> Route {
        let file = path.rsplit('/').next().unwrap_or_default();
        let params = parse_query(query);
        let get = |name: &str| params.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        if let Some(id) = get("interview") {
            return Route::Interview { id, step: get("step") };
        }
        if let Some(designs) = get("compare") {
            return Route::Compare { designs };
        }
        if let Some(id) = get("lesson") {
            return Route::Lesson { id, step: get("step") };
        }
        if let Some(id) = get("drill") {
            return Route::Drill { id };
        }
        if get("drills").is_some() {
            return Route::Drills;
        }
        match file {
            "lesson.html" => Route::Lessons,
            "compare.html" => Route::Compare { designs: String::new() },
            "export.html" => Route::Export,
            "routes.html" => Route::Sandbox { scenario: Some(ROUTES_PAGE_SCENARIO.into()) },
            _ => Route::Sandbox { scenario: get("scenario") },
        }
    }

    /// The address of the route, relative to the app's folder (what [`Route::parse`] reads back).
    pub fn href(&self) -> String {
        match self {
            Route::Sandbox { scenario: None } => "./".into(),
            Route::Sandbox { scenario: Some(id) } => format!("./?scenario={}", encode(id)),
            Route::Lessons => "lesson.html".into(),
            Route::Lesson { id, step: None } => format!("lesson.html?lesson={}", encode(id)),
            Route::Lesson { id, step: Some(n) } => format!("lesson.html?lesson={}&step={}", encode(id), encode(n)),
            Route::Compare { designs } if designs.is_empty() => "compare.html".into(),
            Route::Compare { designs } => format!("compare.html?compare={}", encode_list(designs)),
            Route::Interview { id, step: None } => format!("compare.html?interview={}", encode(id)),
            Route::Interview { id, step: Some(n) } => {
                format!("compare.html?interview={}&step={}", encode(id), encode(n))
            }
            Route::Export => "export.html".into(),
            Route::Drills => "./?drills".into(),
            Route::Drill { id } => format!("./?drill={}", encode(id)),
        }
    }

    pub fn view(&self) -> View {
        match self {
            Route::Sandbox { .. } => View::Sandbox,
            Route::Lessons | Route::Lesson { .. } => View::Lessons,
            Route::Compare { .. } => View::Compare,
            Route::Interview { .. } => View::Interview,
            Route::Export => View::Export,
            Route::Drills | Route::Drill { .. } => View::Drills,
        }
    }
}

/// A query's pairs, percent-decoded (`+` is a space), in order.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decodes a query component; a malformed escape is kept as it is written.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes a query component: letters, digits and `-_.~` stay.
pub(crate) fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A comma-separated list, its commas kept readable.
fn encode_list(text: &str) -> String {
    text.split(',').map(encode).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(address: &str) -> Route {
        let (path, query) = address.split_once('?').unwrap_or((address, ""));
        Route::parse(path, query)
    }

    #[test]
    fn every_old_address_opens_its_view() {
        let sandbox = Route::Sandbox { scenario: None };
        assert_eq!(route("/"), sandbox);
        assert_eq!(route("/index.html"), sandbox);
        assert_eq!(route("/docs/playground/"), sandbox);
        assert_eq!(route("/routes.html"), Route::Sandbox { scenario: Some("eventbridge-orders".into()) });
        assert_eq!(route("/lesson.html"), Route::Lessons);
        let lesson = |step: Option<&str>| Route::Lesson { id: "ordering".into(), step: step.map(Into::into) };
        assert_eq!(route("/lesson.html?lesson=ordering&step=3"), lesson(Some("3")));
        assert_eq!(route("/index.html?lesson=ordering"), lesson(None));
        assert_eq!(
            route("/compare.html?compare=fanout,workqueue"),
            Route::Compare { designs: "fanout,workqueue".into() }
        );
        assert_eq!(route("/?compare=fanout,directcalls"), Route::Compare { designs: "fanout,directcalls".into() });
        assert_eq!(route("/compare.html"), Route::Compare { designs: String::new() });
        let interview = |step: Option<&str>| Route::Interview { id: "checkout".into(), step: step.map(Into::into) };
        assert_eq!(route("/compare.html?interview=checkout"), interview(None));
        assert_eq!(route("/?interview=checkout"), interview(None));
        assert_eq!(route("/compare.html?interview=checkout&step=7"), interview(Some("7")));
        assert_eq!(route("/export.html"), Route::Export);
        assert_eq!(route("/index.html?scenario=outbox"), Route::Sandbox { scenario: Some("outbox".into()) });
        assert_eq!(route("/?drills"), Route::Drills);
        assert_eq!(route("/index.html?drills="), Route::Drills);
        assert_eq!(route("/?drill=charged-twice"), Route::Drill { id: "charged-twice".into() });
        assert_eq!(route("/lesson.html?drill=poison-order"), Route::Drill { id: "poison-order".into() });
    }

    #[test]
    fn a_route_reads_back_from_its_own_address() {
        let routes = [
            Route::Sandbox { scenario: None },
            Route::Sandbox { scenario: Some("poison-dlq".into()) },
            Route::Lessons,
            Route::Lesson { id: "visibility-timeout".into(), step: None },
            Route::Lesson { id: "a b&c=d".into(), step: Some("2".into()) },
            Route::Compare { designs: String::new() },
            Route::Compare { designs: "fanout,workqueue,directcalls".into() },
            Route::Interview { id: "checkout".into(), step: None },
            Route::Interview { id: "payment-first".into(), step: Some("3".into()) },
            Route::Export,
            Route::Drills,
            Route::Drill { id: "charged-twice".into() },
            Route::Drill { id: "a b&c=d".into() },
        ];
        for r in routes {
            let href = r.href();
            let (path, query) = href.split_once('?').unwrap_or((&href, ""));
            assert_eq!(Route::parse(path, query), r, "{href}");
        }
    }

    #[test]
    fn a_query_decodes_escapes_and_keeps_broken_ones() {
        assert_eq!(
            parse_query("?a=x%20y&b=1+2&c=%zz&d"),
            [
                ("a".into(), "x y".into()),
                ("b".into(), "1 2".into()),
                ("c".into(), "%zz".into()),
                ("d".into(), String::new())
            ]
        );
        assert_eq!(parse_query("lesson=%E2%9C%93%"), [("lesson".into(), "✓%".into())]);
    }
}
