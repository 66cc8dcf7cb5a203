//! Every scenario file shipped with the playground (`public/scenarios/`) and every lesson file of
//! the test suite (`engine/tests/scenarios/`) runs to its end with all its expectations met, the
//! same whether it runs as `fanout test` runs it or as the page loads it.
use engine::scenario::{PublishTarget, Run, RunOptions, Scenario};
use engine::{event_log_jsonl, Sim};
use std::path::{Path, PathBuf};

fn scenario_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenario files in {}", dir.display());
    files
}

fn load(path: &Path) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Scenario::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every way a run fell short, one line per failing step, naming the file and the step.
fn failures(path: &Path, run: &Run) -> Vec<String> {
    let mut out = Vec::new();
    for o in &run.outcomes {
        if let Some(diffs) = o.check.as_ref().filter(|d| !d.is_empty()) {
            out.push(format!("{}: step {} ({}): {}", path.display(), o.step, o.label, diffs.join("; ")));
        }
    }
    match (&run.stopped, run.refusal()) {
        (Some(stop), _) => out.push(format!("{}: stopped at {stop}", path.display())),
        (None, Some(refused)) => out.push(format!("{}: the page refuses it: {refused}", path.display())),
        (None, None) => {}
    }
    out
}

fn check_all(dir: &str) -> usize {
    let mut problems = Vec::new();
    let mut expectations = 0;
    for path in scenario_files(dir) {
        match load(&path) {
            Ok(scenario) => {
                let run = scenario.run();
                expectations += run.passed();
                problems.extend(failures(&path, &run));
            }
            Err(e) => problems.push(e),
        }
    }
    assert!(problems.is_empty(), "{} scenario problem(s):\n{}", problems.len(), problems.join("\n"));
    expectations
}

#[test]
fn shipped_scenarios_run_with_every_expectation_met() {
    // The scenarios the app offers parse, run to the end and meet each of their expectations.
    check_all("../public/scenarios");
}

#[test]
fn lesson_scenarios_run_with_every_expectation_met() {
    // The classic cases in engine/tests/scenarios prove their claims through `expect`/`expect_error`.
    let expectations = check_all("tests/scenarios");
    assert!(expectations >= 10, "only {expectations} expectations checked in tests/scenarios");
}

#[test]
fn each_lesson_scenario_explains_itself_and_checks_something() {
    // A lesson file without a description or without a single expectation teaches nothing provable.
    for path in scenario_files("tests/scenarios") {
        let scenario = load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(scenario.description.len() > 80, "{}: the description should say what it teaches", path.display());
        let run = scenario.run();
        let checked = run.outcomes.iter().filter(|o| o.check.is_some()).count();
        assert!(checked > 0, "{}: no step has an expect or expect_error", path.display());
    }
}

#[test]
fn scenario_runs_are_reproducible() {
    // The same file and seed give the same event log, byte for byte.
    for path in scenario_files("tests/scenarios").into_iter().chain(scenario_files("../public/scenarios")) {
        let scenario = load(&path).unwrap_or_else(|e| panic!("{e}"));
        let first = event_log_jsonl(scenario.run().events());
        let second = event_log_jsonl(scenario.run().events());
        assert!(first == second, "{}: two runs gave different event logs", path.display());
    }
}

fn every_file() -> Vec<PathBuf> {
    scenario_files("tests/scenarios").into_iter().chain(scenario_files("../public/scenarios")).collect()
}

#[test]
fn a_scenario_runs_the_same_on_a_bare_sim_and_on_a_history() {
    // `fanout test` runs the steps on a Sim, the page on a History: same outcomes, same log.
    for path in every_file() {
        let scenario = load(&path).unwrap_or_else(|e| panic!("{e}"));
        let on_history = scenario.run();
        let on_sim = scenario.run_on(Sim::new(scenario.seed), RunOptions::default());
        assert_eq!(on_history.outcomes, on_sim.outcomes, "{}", path.display());
        assert_eq!(on_history.stopped, on_sim.stopped, "{}", path.display());
        let (a, b) = (event_log_jsonl(on_history.events()), event_log_jsonl(on_sim.events()));
        assert!(a == b, "{}: the event logs differ", path.display());
    }
}

#[test]
fn the_event_log_and_the_kept_responses_change_no_verdict() {
    // `fanout test` keeps neither; every step's verdict, error and the final state are the same.
    for path in every_file() {
        let scenario = load(&path).unwrap_or_else(|e| panic!("{e}"));
        let full = scenario.run();
        let lean = scenario.run_on(Sim::new(scenario.seed), RunOptions { event_log: false, responses: false });
        assert!(lean.events().is_empty());
        assert_eq!(full.outcomes.len(), lean.outcomes.len(), "{}", path.display());
        for (f, l) in full.outcomes.iter().zip(&lean.outcomes) {
            assert_eq!(
                (&f.check, f.unexpected_error()),
                (&l.check, l.unexpected_error()),
                "{} step {}",
                path.display(),
                f.step
            );
            assert_eq!(f.result.as_ref().map(Result::is_ok), l.result.as_ref().map(Result::is_ok));
        }
        assert_eq!(full.stopped, lean.stopped);
        let (mut a, b) = (full.sim().snapshot(), lean.sim().snapshot());
        a.events = b.events;
        assert_eq!(a, b, "{}: the final state differs", path.display());
    }
}

/// The routes page's scenario files, as `app::playground::ROUTE_SCENARIOS` lists them.
const ROUTE_SCENARIOS: &[&str] = &[
    "eventbridge-orders",
    "eventbridge-replay",
    "webhook-retries",
    "sms-retries",
    "lambda-destinations",
    "lambda-out-of-order",
    "retry-amplification",
    "outbox",
];

#[test]
fn each_shipped_scenario_describes_what_its_page_offers_and_loads_without_an_unexpected_error() {
    // The page refuses a file whose action fails without `expect_error`; each shipped file has
    // publish presets for a topic (or bus) it creates, and worker rules but on the routes page.
    for path in scenario_files("../public/scenarios") {
        let scenario = load(&path).unwrap_or_else(|e| panic!("{e}"));
        let run = scenario.run();
        let bad: Vec<_> = run.outcomes.iter().filter(|o| o.unexpected_error().is_some()).map(|o| o.step).collect();
        assert!(bad.is_empty(), "{}: steps {bad:?} fail unexpectedly", path.display());
        let publish = scenario.publish.as_ref().unwrap_or_else(|| panic!("{}: no publish section", path.display()));
        let snapshot = run.sim().snapshot();
        match &publish.target {
            PublishTarget::Topic(topic) => {
                assert!(snapshot.topics.iter().any(|t| t.name == *topic), "{}: no topic {topic}", path.display());
            }
            PublishTarget::Bus(bus) => {
                assert!(snapshot.eventbridge.buses.iter().any(|b| b.name == *bus), "{}: no bus {bus}", path.display());
            }
            PublishTarget::Service(service) => {
                let services = &snapshot.world.order_services;
                assert!(services.iter().any(|s| s.name == *service), "{}: no order service {service}", path.display());
            }
        }
        // The routes page's scenarios (app/src/playground.rs, ROUTE_SCENARIOS) have no queue
        // cards, so no "+ Worker" to describe.
        let on_routes_page = ROUTE_SCENARIOS.iter().any(|id| path.ends_with(format!("{id}.json")));
        assert!(on_routes_page || !scenario.workers.default.is_empty(), "{}: no default worker", path.display());
    }
}
