//! A step's control, as markup: the prediction (choices or a number, then the engine's
//! verdict), the live checklist of a checkpoint (hint, "show me", the done message), a run's
//! facts, and the remember screen.

use super::panel::rich;
use super::play::{Phase, Play};
use crate::playground::Playground;
use crate::view::esc;
use engine::lesson::{AnswerMode, Checkpoint, DocLink, GoalStatus, Prediction, StepKind};
use serde_json::Value;

/// The control for the current step, in its phase.
/// The step's control; `embedded`: in an embed, whose lesson ends without the ways on (the
/// list of lessons, the sandbox): its own link opens the lesson page.
pub fn control(p: &Play, pg: &Playground, picked: Option<&str>, typed: &str, hint_due: bool, embedded: bool) -> String {
    match &p.session.step().kind {
        StepKind::Narration => String::new(),
        StepKind::Run { .. } if p.phase == Phase::Playing => WAIT.into(),
        StepKind::Run { .. } => facts(&p.facts),
        StepKind::Predict(pr) => predict(p, pr, picked, typed),
        StepKind::Checkpoint(c) => checkpoint(p, pg, c, hint_due),
        StepKind::Remember { lines, read } => remember(lines, read, embedded),
    }
}

const WAIT: &str = "<p class=\"lesson-wait\" role=\"status\">Watch the diagram: the lesson plays it now.</p>";

/// A value the engine read, as a learner reads it.
fn shown(value: &Result<Value, String>) -> String {
    match value {
        Ok(Value::String(s)) => s.clone(),
        Ok(Value::Null) => "nothing".into(),
        Ok(v) => v.to_string(),
        Err(e) => e.clone(),
    }
}

/// A list of checks, ticked or not: a run or prediction step's facts (`✓`/`✗`), a checkpoint's
/// goals (`✓`/`○`, with the state said for a screen reader).
fn checks(list: &[GoalStatus], class: &str, open: &str, said: bool) -> String {
    let items: String = list
        .iter()
        .filter(|f| !f.label.is_empty())
        .map(|f| {
            let (held, tick) = if f.holds { (" class=\"held\"", "✓") } else { ("", open) };
            let state = match (said, f.holds) {
                (false, _) => "",
                (true, true) => "<span class=\"sr-only\"> (done)</span>",
                (true, false) => "<span class=\"sr-only\"> (not yet)</span>",
            };
            format!(
                "<li{held}><span class=\"tick\" aria-hidden=\"true\">{tick}</span><span dir=\"auto\">{}</span>{state}</li>",
                rich(&f.label)
            )
        })
        .collect();
    if items.is_empty() {
        return items;
    }
    format!("<ul class=\"{class}\">{items}</ul>")
}

fn facts(list: &[GoalStatus]) -> String {
    checks(list, "lesson-facts", "✗", false)
}

fn predict(p: &Play, pr: &Prediction, picked: Option<&str>, typed: &str) -> String {
    let asking = p.phase == Phase::Asking;
    let off = if asking { "" } else { " disabled" };
    let given = p.given.as_deref();
    let input = if pr.answer == AnswerMode::Number {
        format!(
            "<label class=\"field\"><span>Your answer (a whole number)</span><input type=\"number\" inputmode=\"numeric\" \
             data-testid=\"predict-number\" value=\"{}\"{off}></label>",
            esc(given.unwrap_or(typed))
        )
    } else {
        let choices: String = pr
            .choices
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pressed = picked == Some(c.id.as_str()) || given == Some(c.id.as_str());
                format!(
                    "<button class=\"choice\" data-testid=\"predict-choice-{k}\" data-act=\"pick:{id}\" aria-pressed=\"{pressed}\"{off}>\
                     <span class=\"key\" aria-hidden=\"true\">{k}</span><span dir=\"auto\">{label}</span></button>",
                    k = i + 1,
                    id = esc(&c.id),
                    label = rich(&c.label),
                )
            })
            .collect();
        format!("<div class=\"choices\" role=\"group\" aria-label=\"Your prediction\">{choices}</div>")
    };
    let after = match p.phase {
        Phase::Asking => {
            "<button class=\"primary\" data-testid=\"predict-submit\" data-act=\"submit\">Commit and run it</button>"
                .into()
        }
        Phase::Playing => WAIT.into(),
        _ => verdict(p, pr),
    };
    format!(
        "<div class=\"predict\"><p class=\"question\" dir=\"auto\"><strong>{}</strong></p>{input}{after}</div>",
        rich(&pr.question)
    )
}

/// What the engine says after the run: right or not, the right choice and why, the learner's
/// choice and why it was tempting, the reveal and the facts.
fn verdict(p: &Play, pr: &Prediction) -> String {
    let Some(j) = p.judgement() else { return String::new() };
    let value = p.answer.as_ref().map(|a| shown(&a.value)).unwrap_or_default();
    let line = |label: &str, c: &engine::lesson::Choice| {
        format!(
            "<p><span class=\"label\">{label}</span><em dir=\"auto\">{}</em> — <span dir=\"auto\">{}</span></p>",
            rich(&c.label),
            rich(&c.why)
        )
    };
    let right = j.right.map(|r| line("Right answer: ", r)).unwrap_or_default();
    let mine = j
        .picked
        .filter(|c| !j.correct && j.right.is_none_or(|r| r.id != c.id))
        .map(|c| line("Your answer: ", c))
        .unwrap_or_default();
    let reveal = if pr.reveal.is_empty() { String::new() } else { format!("<p dir=\"auto\">{}</p>", rich(&pr.reveal)) };
    format!(
        "<div class=\"predict-result{class}\" data-testid=\"predict-result\" role=\"status\"><p><strong>{said}</strong> \
         The engine read {value}.</p>{right}{mine}{reveal}{facts}</div>",
        class = if j.correct { " right" } else { "" },
        said = if j.correct { "Right." } else { "Not quite." },
        value = esc(&value),
        facts = facts(&p.facts),
    )
}

fn checkpoint(p: &Play, pg: &Playground, c: &Checkpoint, hint_due: bool) -> String {
    let goals = checks(&p.session.goals(pg.sim()), "goals", "○", true);
    let rest = if p.reached {
        format!("<p class=\"lesson-done\" role=\"status\" dir=\"auto\">✓ {}</p>", rich(&c.done))
    } else if p.phase == Phase::Playing {
        WAIT.into()
    } else {
        let hint = if hint_due {
            format!("<p class=\"lesson-hint\" dir=\"auto\"><span class=\"label\">Hint: </span>{}</p>", rich(&c.hint))
        } else {
            String::new()
        };
        format!(
            "{hint}<button data-testid=\"checkpoint-show-me\" data-act=\"show-me\" \
             title=\"Perform a recorded solution on the diagram\">Show me</button>"
        )
    };
    format!("<div class=\"checkpoint\" data-testid=\"checkpoint\" data-done=\"{}\">{goals}{rest}</div>", p.reached)
}

fn remember(lines: &[String], read: &[DocLink], embedded: bool) -> String {
    let lines: String = lines.iter().map(|l| format!("<li dir=\"auto\">{}</li>", rich(l))).collect();
    let read: String = read
        .iter()
        .map(|d| {
            format!(
                "<li><a href=\"{}\" target=\"_blank\" rel=\"noopener noreferrer\" dir=\"auto\">{}</a></li>",
                esc(&d.url),
                rich(&d.title)
            )
        })
        .collect();
    let ways_on = if embedded {
        ""
    } else {
        "<div class=\"row\"><button class=\"primary\" data-testid=\"lesson-to-overview\" data-act=\"overview\">All lessons</button>\
         <button data-testid=\"lesson-to-sandbox\" data-act=\"sandbox\">Keep playing in the sandbox</button></div>"
    };
    format!(
        "<div class=\"remember\" data-testid=\"lesson-remember\"><h3>What to remember</h3><ul>{lines}</ul>\
         <h3>Read next</h3><ul class=\"read\">{read}</ul>{ways_on}</div>"
    )
}
