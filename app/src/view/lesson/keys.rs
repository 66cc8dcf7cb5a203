//! The lesson's keyboard, while a lesson is open: Enter continues (submits a picked answer, ends
//! a run still playing, goes to the next step), Backspace goes back a step, letters pick a choice
//! (A the first).
//! Not while typing in a field; Enter is left to a focused button or diagram node, which act on
//! it themselves.

use super::Lessons;
use engine::lesson::{AnswerMode, StepKind};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What has the focus, as far as the keys care.
fn target(e: &web_sys::KeyboardEvent) -> (bool, bool) {
    let el = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let tag = el.as_ref().map(|el| el.tag_name()).unwrap_or_default();
    let typing = matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT");
    let acts_on_enter = matches!(tag.as_str(), "BUTTON" | "A")
        || el.is_some_and(|el| el.get_attribute("role").as_deref() == Some("button"));
    (typing, acts_on_enter)
}

pub fn use_lesson_keys(ls: Lessons) {
    let handle = window_event_listener(leptos::ev::keydown, move |e: web_sys::KeyboardEvent| {
        let (typing, acts_on_enter) = target(&e);
        if typing || e.ctrl_key() || e.meta_key() || e.alt_key() || !ls.play.with_untracked(Option::is_some) {
            return;
        }
        match e.key().as_str() {
            "Enter" if !acts_on_enter => {
                e.prevent_default();
                ls.primary();
            }
            "Backspace" => {
                e.prevent_default();
                ls.back();
            }
            key => {
                // Choices are keyed by letters (A, B, C…), never by digits: a choice's label
                // is often a number, and "2" must not pick the choice that reads "1".
                let Some(k) = choice_key(key) else { return };
                let choice = ls.play.with_untracked(|p| {
                    let p = p.as_ref()?;
                    match &p.session.step().kind {
                        StepKind::Predict(pr) if p.phase == super::Phase::Asking && pr.answer == AnswerMode::Choice => {
                            pr.choices.get(k).map(|c| c.id.clone())
                        }
                        _ => None,
                    }
                });
                if let Some(id) = choice {
                    e.prevent_default();
                    ls.pick(id);
                }
            }
        }
    });
    on_cleanup(move || handle.remove());
}

/// The letter that picks choice `i` (0-based): A, B, C…
pub fn choice_letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// The choice (0-based) a key picks: its letter, either case; `None` for any other key.
fn choice_key(key: &str) -> Option<usize> {
    let mut chars = key.chars();
    let c = chars.next()?.to_ascii_uppercase();
    (chars.next().is_none() && c.is_ascii_uppercase()).then(|| usize::from(c as u8 - b'A'))
}

#[cfg(test)]
mod tests {
    use super::{choice_key, choice_letter};

    #[test]
    fn a_choice_is_keyed_by_its_letter_never_by_a_digit() {
        assert_eq!((choice_letter(0), choice_letter(3)), ('A', 'D'));
        assert_eq!((choice_key("a"), choice_key("B"), choice_key("d")), (Some(0), Some(1), Some(3)));
        for other in ["1", "2", "Enter", "Tab", "é", "ab", ""] {
            assert_eq!(choice_key(other), None, "{other:?} picks no choice");
        }
    }
}
