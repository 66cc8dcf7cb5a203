//! The checks `fanout test` makes of a drill: the world's own expectations hold; left alone, the
//! broken world fails its goal; the recorded fix (and each `also_right` fix) makes it hold; each
//! stored wrong fix does not. Each play starts from nothing ([`Drill::judge_fix`]).

use super::{Drill, Verdict};
use crate::scenario::RunOptions;
use crate::sim::Sim;

/// One check of a drill and what differed (nothing, when it passed).
#[derive(Clone, Debug, PartialEq)]
pub struct DrillCheck {
    /// `world step 3 (GetQueueAttributes) expect`, `left alone`, `the recorded fix`,
    /// `also right: "…"`, `wrong fix 1 ("…")`.
    pub what: String,
    pub problems: Vec<String>,
    /// The verdict of a play, when the check is one.
    pub verdict: Option<Verdict>,
}

impl DrillCheck {
    /// Whether nothing differed.
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Every check of a drill.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrillReport {
    pub checks: Vec<DrillCheck>,
}

impl DrillReport {
    /// How many checks passed.
    pub fn passed(&self) -> usize {
        self.checks.iter().filter(|c| c.passed()).count()
    }

    /// How many checks failed.
    pub fn failed(&self) -> usize {
        self.checks.len() - self.passed()
    }

    fn add(&mut self, what: String, problems: Vec<String>, verdict: Option<Verdict>) {
        self.checks.push(DrillCheck { what, problems, verdict });
    }

    /// A play that must end as `should_pass` says.
    fn play(&mut self, what: String, result: Result<Verdict, String>, should_pass: bool, if_wrong: &str) {
        match result {
            Err(e) => self.add(what, vec![e], None),
            Ok(v) => {
                let problems = match (v.passed, should_pass) {
                    (true, false) => vec![if_wrong.to_string()],
                    (false, true) => v.not_yet().into_iter().map(|l| format!("not yet: {l}")).collect(),
                    _ => Vec::new(),
                };
                self.add(what, problems, Some(v));
            }
        }
    }
}

impl Drill {
    /// Plays the drill every way `fanout test` asks, each from nothing, and reports every check.
    pub fn verify(&self) -> DrillReport {
        let mut report = DrillReport::default();
        let run = self.world.run_on(Sim::new(self.world.seed), RunOptions { event_log: false, responses: false });
        for o in &run.outcomes {
            if let Some(diffs) = &o.check {
                report.add(format!("world step {} ({}) expect", o.step, o.label), diffs.clone(), None);
            }
        }
        if let Some(refused) = run.refusal() {
            report.add("the world".into(), vec![refused.to_string()], None);
            return report;
        }
        report.play(
            "left alone".into(),
            self.judge(&[], self.page.at),
            false,
            "left alone, every goal holds: the broken world shows no incident",
        );
        report.play("the recorded fix".into(), self.judge_fix(&self.debrief.fix), true, "");
        for fix in &self.debrief.also_right {
            report.play(format!("also right: \"{}\"", fix.label), self.judge_fix(fix), true, "");
        }
        for (i, fix) in self.wrong_fixes.iter().enumerate() {
            report.play(
                format!("wrong fix {} (\"{}\")", i + 1, fix.label),
                self.judge_fix(fix),
                false,
                "every goal holds, so the drill would accept this wrong fix",
            );
        }
        report
    }
}
