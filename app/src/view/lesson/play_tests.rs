//! The page's lesson player against the real lesson files: the engine judges, Back and resume
//! rebuild the same story, a run's end is exactly the performed state.

use super::{Phase, Play};
use crate::playground::SCENARIOS;
use engine::lesson::{Lesson, StepKind};

fn lesson(id: &str) -> Lesson {
    let path = format!("{}/../public/lessons/{id}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Lesson::parse(&text, SCENARIOS).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// The lesson's starting scenario's file, as the page has it (see `fetch::lesson`): a built-in
/// scenario's file, or the lesson's inline scenario written out.
fn source(lesson: &Lesson) -> String {
    match &lesson.scenario_id {
        Some(id) => SCENARIOS.iter().find(|(b, _)| b == id).map(|(_, t)| t.to_string()).expect("a built-in scenario"),
        None => {
            let path = format!("{}/../public/lessons/{}.json", env!("CARGO_MANIFEST_DIR"), lesson.id);
            let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            file["scenario"].to_string()
        }
    }
}

fn open(lesson: Lesson, step: usize) -> Result<(crate::playground::Playground, Play), String> {
    let text = source(&lesson);
    Play::open(lesson, text, step)
}

#[test]
fn a_wrong_prediction_is_judged_wrong_and_names_the_right_choice() {
    let (mut pg, mut play) = open(lesson("poison-messages"), 1).unwrap();
    assert_eq!(play.phase, Phase::Asking);
    assert!(!play.can_continue(), "a prediction must be answered first");
    let start = pg.now();
    play.commit(&mut pg, "four");
    assert_eq!((play.phase, pg.now()), (Phase::Playing, start), "the run plays from where it began");
    assert!(play.judgement().is_none(), "no verdict before the run has played");
    let end = play.until.expect("the run has an end");
    assert!(end > start);
    play.finish(&mut pg);
    assert_eq!(pg.now(), end);
    let verdict = play.judgement().expect("a verdict");
    assert!(!verdict.correct);
    assert_eq!(verdict.right.map(|c| c.id.as_str()), Some("five"), "the engine's count decides");
    assert_eq!(verdict.picked.map(|c| c.id.as_str()), Some("four"));
    assert!(play.can_continue());
}

#[test]
fn a_played_run_ends_exactly_where_the_performed_one_did() {
    let lesson = lesson("poison-messages");
    let (mut pg, mut play) = open(lesson.clone(), 1).unwrap();
    play.commit(&mut pg, "five");
    // Play it forward in small steps, as the page's clock does, past the end.
    let end = play.until.unwrap();
    while pg.now() < end {
        pg.play_for(700);
    }
    play.finish(&mut pg);
    let played = pg.snapshot();
    assert!(play.next(&mut pg));
    // The same step reached by resume (the lesson's own path, performed at once).
    let (resumed, _) = open(lesson, 2).unwrap();
    assert_eq!(resumed.snapshot(), pg.snapshot());
    assert_eq!(played.now, pg.snapshot().now);
}

#[test]
fn a_checkpoint_waits_for_its_goals_and_show_me_reaches_them() {
    let (mut pg, mut play) = open(lesson("visibility-timeout"), 2).unwrap();
    assert!(matches!(play.session.step().kind, StepKind::Checkpoint(_)));
    assert!(!play.check(&pg) && !play.can_continue());
    // By hand, as the page's Crash button does.
    pg.worker("CrashWorker", "packing-w1").unwrap();
    assert!(play.check(&pg), "the crash reaches the goals");
    assert!(play.can_continue());
    let (mut pg2, mut shown) = open(lesson("visibility-timeout"), 2).unwrap();
    shown.show_me(&mut pg2);
    shown.finish(&mut pg2);
    assert!(shown.reached);
}

#[test]
fn a_lesson_played_to_its_end_by_show_me_and_right_answers_reaches_remember() {
    for id in ["poison-messages", "three-designs", "ordering"] {
        let (mut pg, mut play) = open(lesson(id), 0).unwrap();
        let mut guard = 0;
        while !play.session.at_end() {
            guard += 1;
            assert!(guard < 50, "{id}: stuck at step {}", play.position().0);
            if let StepKind::Predict(p) = &play.session.step().kind {
                let first = p.choices[0].id.clone();
                play.commit(&mut pg, &first);
            }
            play.show_me(&mut pg);
            play.finish(&mut pg);
            assert!(play.errors.is_empty(), "{id}: {:?}", play.errors);
            assert!(play.next(&mut pg), "{id}: cannot leave step {}", play.position().0);
        }
        assert!(matches!(play.session.step().kind, StepKind::Remember { .. }), "{id}");
    }
}

#[test]
fn reset_in_a_lesson_goes_back_to_the_start_of_the_step() {
    let (mut pg, _) = open(lesson("visibility-timeout"), 2).unwrap();
    let start = pg.snapshot();
    pg.worker("CrashWorker", "packing-w1").unwrap();
    pg.play_for(5_000);
    pg.reset();
    assert_eq!(pg.snapshot(), start);
}

#[test]
fn a_run_slows_down_for_its_pace_window_and_speeds_up_after_it() {
    // Three designs, design 3: the SMS slowdown (18 s to 1 min into the run) plays at 4×.
    let (mut pg, mut play) = open(lesson("three-designs"), 3).unwrap();
    play.commit(&mut pg, "none");
    assert_eq!(play.phase, Phase::Playing);
    play.base_speed = 7;
    let from = play.from.ms();
    let at = |s: u64| engine::SimTime(from + s * 1_000);
    let (start, inside, later, after) = (at(0), at(18), at(30), at(60));
    assert_eq!(play.pace_switch(start), None, "it starts at its own speed");
    assert_eq!(play.pace_switch(inside), Some(super::speed_index(4)), "the window slows it to 4×");
    assert_eq!(play.pace_switch(later), None, "within the window nothing changes (a speed the learner picks stays)");
    assert_eq!(play.pace_switch(after), Some(7), "after the window, its own speed again");
    play.finish(&mut pg);
    assert_eq!(play.pace_switch(at(20)), None, "a finished run is not paced");
}

#[test]
fn a_run_plays_at_its_steps_speed_when_it_fits_and_a_long_one_fast_never_skipped() {
    use super::{run_speed, speed_index};
    // Three designs, design 3: 340 s, 42 s of it in its pace window, at 16×: 18.6 s.
    assert_eq!(run_speed(340_000, 42_000, 16), speed_index(16));
    // Lambda batches: 30 min at 64× is 28 s: played, not skipped.
    assert_eq!(run_speed(1_800_000, 0, 64), speed_index(64));
    // Longer than even 64× fits: the fastest speed, still played.
    assert_eq!(run_speed(7_200_000, 0, 8), speed_index(64));
    // Too long for the step's speed: the slowest that fits 30 s.
    assert_eq!(run_speed(300_000, 0, 8), speed_index(16));
}

#[test]
fn a_run_that_has_aws_refuse_something_shows_the_refusal_in_awss_words() {
    // visibility-timeout 9 says the 43,200 s change "is refused": the learner sees it refused.
    let (_, play) = open(lesson("visibility-timeout"), 8).unwrap();
    assert_eq!(
        play.refused,
        ["ChangeMessageVisibility: Value 43200 for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the limit [43200 seconds]"]
    );
    // A run that refuses nothing shows nothing.
    let (_, play) = open(lesson("visibility-timeout"), 0).unwrap();
    assert!(play.refused.is_empty());
}
