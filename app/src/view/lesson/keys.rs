//! The lesson's keyboard, while a lesson is open: Enter continues (submits a picked answer, ends
//! a run still playing, goes to the next step), Backspace goes back a step, digits pick a choice.
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
            digit => {
                let Ok(k) = digit.parse::<usize>() else { return };
                let choice = ls.play.with_untracked(|p| {
                    let p = p.as_ref()?;
                    match &p.session.step().kind {
                        StepKind::Predict(pr) if p.phase == super::Phase::Asking && pr.answer == AnswerMode::Choice => {
                            k.checked_sub(1).and_then(|i| pr.choices.get(i)).map(|c| c.id.clone())
                        }
                        _ => None,
                    }
                });
                if let Some(id) = choice {
                    e.prevent_default();
                    ls.picked.set(Some(id));
                }
            }
        }
    });
    on_cleanup(move || handle.remove());
}
