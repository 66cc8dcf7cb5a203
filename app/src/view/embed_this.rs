//! "Embed" (issue 51): the button beside Copy link in the sandbox, and beside a lesson step's
//! "Open in the sandbox", that opens the Embed dialog. The dialog's code is a module of its own
//! (`Views::embed_dialog`, split at `app/src/main.rs`), fetched with the views' after the first
//! screen; until it is in, the button says it is loading, and if it cannot be fetched, says so
//! and offers to try again. When the dialog closes, the button has the focus again.

use super::app::{NotLoaded, PreloadViews};
use super::Ctx;
use leptos::html;
use leptos::prelude::*;

/// What the dialog embeds: the story on the stage, as a share link carries it, or a lesson at
/// its step.
#[derive(Clone)]
pub enum EmbedOf {
    Story(Ctx),
    /// A lesson's id, its step (1-based) and its title.
    Lesson {
        id: String,
        step: usize,
        title: String,
    },
}

/// Where the dialog is: closed, its code on its way, in the page, or its code not fetched.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Closed,
    Opening,
    Open,
    NotLoaded,
}

/// The Embed button and, once pressed, its dialog. `of` says what to embed at the moment it is
/// pressed (`None`: nothing to embed yet). The dialog is made under an owner of its own, a child
/// of the button's, and dropped with it when it closes.
#[component]
pub fn EmbedThis(#[prop(into)] of: Callback<(), Option<EmbedOf>>) -> impl IntoView {
    let views = use_context::<PreloadViews>().map(PreloadViews::views);
    let button = NodeRef::<html::Button>::new();
    let state = RwSignal::new(State::Closed);
    // The dialog once its code is in, until the page takes it (`take_loaded`).
    let slot = RwSignal::new(None::<send_wrapper::SendWrapper<AnyView>>);
    let owner = StoredValue::new(Owner::current());
    let dialog_owner = StoredValue::new(None::<Owner>);
    // Called from the dialog's own close event: the dialog leaves the page once that event is
    // over and Embed has the focus again; its owner goes after that, once nothing the dialog
    // drew can read what the owner holds.
    let closed = Callback::new(move |()| {
        queue_microtask(move || {
            state.set(State::Closed);
            slot.set(None);
            if let Some(b) = button.get_untracked() {
                _ = b.focus();
            }
            if let Some(o) = dialog_owner.try_update_value(Option::take).flatten() {
                set_timeout(move || o.cleanup(), std::time::Duration::ZERO);
            }
        });
    });
    let open = move || {
        let (Some(views), Some(owner), Some(of)) = (views, owner.get_value(), of.run(())) else { return };
        if matches!(state.get_untracked(), State::Opening | State::Open) {
            return;
        }
        state.set(State::Opening);
        let child = owner.child();
        dialog_owner.set_value(Some(child.clone()));
        // Built under `child`: its effects and listeners go when the dialog closes.
        child.with(|| {
            leptos::task::spawn_local_scoped(async move {
                match (views.embed_dialog)(of, closed).await {
                    Ok(view) => {
                        slot.set(Some(send_wrapper::SendWrapper::new(view)));
                        state.set(State::Open);
                    }
                    Err(NotLoaded) => state.set(State::NotLoaded),
                }
            })
        });
    };
    let note = move || match state.get() {
        State::Opening => Some(view! { <span class="share-status" role="status">"Opening Embed…"</span> }.into_any()),
        State::NotLoaded => Some(
            view! {
                <span class="share-status" role="alert" data-testid="embed-not-loaded">
                    "The Embed dialog could not be loaded: the network did not deliver its code. "
                    <button on:click=move |_| { state.set(State::Closed); open(); }>"Try again"</button>
                </span>
            }
            .into_any(),
        ),
        _ => None,
    };
    view! {
        <button data-testid="embed-this" node_ref=button aria-haspopup="dialog"
            title="A snippet that puts this story, live, in a documentation page"
            on:click=move |_| open()>"Embed"</button>
        {note}
        {move || super::stage::take_loaded(slot).map(send_wrapper::SendWrapper::take)}
    }
}
