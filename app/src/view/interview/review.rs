//! The review, and the report of a practice run: every step's question, the candidate's answer
//! beside the model answer, the self-check with its score, and the time spent; the question's
//! score in all. Printable, and copied as Markdown.

use super::check::{scores, SelfCheck};
use super::items;
use crate::interview_state::{mmss, percent, Saved};
use engine::interview::Interview;
use leptos::prelude::*;

/// "3 / 4 points", or nothing for a step without a rubric.
fn points(score: (usize, usize)) -> String {
    if score.1 == 0 {
        String::new()
    } else {
        format!("{} / {} points", score.0, score.1)
    }
}

/// The question's score line: "Score: 62% (15 / 24 points)".
pub fn score_line(i: &Interview, saved: &Saved) -> String {
    let all = scores(i, saved);
    let (got, of) = all.iter().fold((0, 0), |(g, o), (a, b)| (g + a, o + b));
    match percent(&all) {
        Some(p) => format!("Score: {p}% ({got} / {of} points)"),
        None => "Score: no rubric".into(),
    }
}

/// The review as Markdown: the score and the time in all, then each step with its time, the
/// question, the follow-ups with their answers, the candidate's answer, the self-check's ticks
/// and score, and the model answer.
pub fn markdown(i: &Interview, saved: &Saved) -> String {
    let all = scores(i, saved);
    let mut out = format!("# {}\n\n{}\n\nTime in all: {}\n\n", i.title, score_line(i, saved), mmss(saved.total_ms()));
    for (n, s) in i.steps.iter().enumerate() {
        let spent = saved.times.get(n).copied().unwrap_or(0);
        out.push_str(&format!("## {}. {}\n\nTime: {} of {} min\n\n", i.number(n), s.title, mmss(spent), s.minutes));
        out.push_str(&format!("**Question.** {}\n\n**Follow-ups.**\n\n", s.question));
        for f in &s.follow_ups {
            match &f.answer {
                Some(a) => out.push_str(&format!("- {} — {a}\n", f.question)),
                None => out.push_str(&format!("- {}\n", f.question)),
            }
        }
        out.push('\n');
        out.push_str(&super::ask::markdown(s, saved.asked.get(n).map_or(&[][..], Vec::as_slice)));
        out.push_str("**My answer.**\n\n");
        let a = saved.answers.get(n).map_or("", |a| a.trim());
        out.push_str(if a.is_empty() { "(no answer)" } else { a });
        if let Some(r) = &s.rubric {
            out.push_str(&format!("\n\n**Self-check** ({}).\n\n", points(all[n])));
            let mark = |k: usize| if saved.ticked(n, k) { "x" } else { " " };
            for (k, p) in r.points.iter().enumerate() {
                out.push_str(&format!("- [{}] {p}\n", mark(k)));
            }
            for (k, f) in r.red_flags.iter().enumerate() {
                out.push_str(&format!("- [{}] Red flag: {f}\n", mark(r.points.len() + k)));
            }
        }
        out.push_str("\n\n**Model answer.**\n\n");
        for p in &s.model_answer {
            out.push_str(&format!("- {p}\n"));
        }
        out.push('\n');
    }
    out
}

/// The review: every step's answer beside the model answer, its self-check and time; the score,
/// kept with the answers (see [`Saved::best_so_far`]).
#[component]
pub fn Review(iv: StoredValue<Interview>, saved: RwSignal<Saved>, store: Callback<()>) -> impl IntoView {
    let md = move || iv.with_value(|i| saved.with(|s| markdown(i, s)));
    let score = move || iv.with_value(|i| saved.with(|s| score_line(i, s)));
    // This run's score, kept with the answers: the list shows the best so far.
    Effect::new(move |_| {
        let now = iv.with_value(|i| saved.with(|s| percent(&scores(i, s))));
        if saved.with_untracked(|s| s.score != now) {
            saved.update(|s| s.score = now);
            store.run(());
        }
    });
    let total = iv.with_value(|i| i.steps.len());
    let rows = (0..total)
        .map(|n| {
            let (number, title, minutes, question, model) = iv.with_value(|i| {
                let s = &i.steps[n];
                (i.number(n), s.title.clone(), s.minutes, s.question.clone(), s.model_answer.clone())
            });
            let answer = move || {
                let a = saved.with(|s| s.answers.get(n).map(|a| a.trim().to_string()).unwrap_or_default());
                if a.is_empty() { "(no answer)".to_string() } else { a }
            };
            let spent = move || saved.with(|s| format!("{} of {minutes} min", mmss(s.times.get(n).copied().unwrap_or(0))));
            let follow_ups = iv.with_value(|i| super::check::follow_ups(&i.steps[n], false));
            let asked = saved.with_untracked(|v| v.asked.get(n).is_some_and(|a| !a.is_empty())).then(|| {
                let st = StoredValue::new(iv.with_value(|i| i.steps[n].clone()));
                view! { <div data-testid="interview-review-asked"><super::ask::AskedLog st=st s=n saved=saved /></div> }
            });
            view! {
                <article class="review-item" data-testid=format!("interview-review-step-{number}")>
                    <h3>{format!("{number}. {title} ")}<span class="hint" data-testid="interview-review-time">{spent}</span></h3>
                    <p class="hint" dir="auto">{question}</p>
                    <ul class="follow-ups hint">{follow_ups}</ul>
                    {asked}
                    <div class="review-cols">
                        <div><h4>"Your answer"</h4><p class="review-answer" dir="auto">{answer}</p></div>
                        <div><h4>"Model answer"</h4><ul>{items(&model)}</ul></div>
                    </div>
                    <SelfCheck iv=iv s=n saved=saved store=store />
                </article>
            }
        })
        .collect_view();
    let copied = RwSignal::new(String::new());
    // Copies the Markdown itself, whether or not its box is open.
    let copy = move |_| {
        let text = md();
        leptos::task::spawn_local(async move {
            let said = match super::super::files::copy(&text).await {
                Ok(()) => "Copied the review as Markdown.".to_string(),
                Err(e) => e,
            };
            copied.try_set(said);
        });
    };
    let all = move || saved.with(|s| format!("Time in all: {}", mmss(s.total_ms())));
    view! {
        <section class="interview-review" data-testid="interview-review">
            <h2>"Review"</h2>
            <p class="interview-score"><strong data-testid="interview-score">{score}</strong>" · "<span>{all}</span></p>
            <div class="row no-print">
                <button data-testid="interview-print" on:click=|_| { let _ = window().print(); }>"Print"</button>
                <button data-testid="interview-copy" on:click=copy>"Copy as Markdown"</button>
                <span class="hint" role="status" data-testid="interview-copied">{move || copied.get()}</span>
            </div>
            <div>{rows}</div>
            <details class="no-print"><summary>"Markdown"</summary>
                <textarea readonly rows="8" data-testid="interview-markdown" prop:value=md></textarea></details>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKOUT: &str = include_str!("../../../../public/interview/checkout.json");

    #[test]
    fn the_markdown_holds_follow_ups_ticks_score_and_times() {
        let i = Interview::parse(CHECKOUT).unwrap();
        let mut s = Saved::new(i.steps.len());
        s.answers[0] = "Call them in turn.".into();
        s.times[0] = 400_000;
        s.tick(0, 0, true);
        s.tick(0, 1, true);
        let md = markdown(&i, &s);
        assert!(md.contains("Time in all: 6:40"), "{md}");
        assert!(
            md.contains("## 0. Requirements and load") && md.contains("## 1. The coupled version"),
            "steps by their numbers"
        );
        assert!(md.contains("Time: 6:40 of 5 min"));
        let f = &i.steps[0].follow_ups[0];
        assert!(
            md.contains(&format!("- {} — {}", f.question, f.answer.as_deref().unwrap())),
            "follow-ups with answers"
        );
        assert!(md.contains("Call them in turn.") && md.contains("(no answer)"));
        assert!(!md.contains("Asked the interviewer"), "nothing asked, no list");
        s.ask(0, crate::interview_state::Asked { follow_up: Some(0), text: String::new(), at: 192_000 });
        s.ask(0, crate::interview_state::Asked { follow_up: None, text: "Which colour?".into(), at: 200_000 });
        let md = markdown(&i, &s);
        let asked =
            format!("**Asked the interviewer.**\n\n- at 3:12: {} — {}\n", f.question, f.answer.as_deref().unwrap());
        assert!(md.contains(&asked), "{md}");
        assert!(md.contains(&format!("- at 3:20: Which colour? — {}", engine::interview::UP_TO_YOU)));
        assert!(md.contains(&format!("- [x] {}", i.steps[0].rubric.as_ref().unwrap().points[0])));
        assert!(md.contains("**Self-check** (2 / 4 points)"));
        let of: usize = i.steps.iter().map(|s| s.rubric.as_ref().unwrap().points.len()).sum();
        assert!(md.contains(&format!("Score: {}% (2 / {of} points)", 200 / of)), "{}", md.lines().nth(2).unwrap());
    }
}
