//! The controls a checkpoint asks for, beside it (`engine::lesson::Reach`): "+ Worker",
//! Receive, Redrive or Purge on a queue, a queue's setting, a worker's buttons, Replay of an
//! EventBridge archive, a dependency taken down and brought back. The same commands
//! as the queue cards' and the inspector's, within reach of the step that asks for them.

use crate::view::editor::{NumberSetting, Setting};
use crate::view::queues::without_messages;
use crate::view::use_ctx;
use engine::lesson::Reach;
use engine::snapshot::QueueView;
use engine::world::WorkerStatus;
use leptos::prelude::*;

#[component]
pub fn ReachControls(controls: Vec<Reach>) -> impl IntoView {
    (!controls.is_empty()).then(|| {
        let items = controls.into_iter().map(|c| view! { <Control reach=c /> }).collect_view();
        view! { <div class="within-reach" role="group" aria-label="What this step asks for">{items}</div> }
    })
}

/// A playground command on one queue.
type QueueAction = fn(&mut crate::Playground, &str) -> Result<serde_json::Value, engine::ApiError>;

#[component]
fn Control(reach: Reach) -> impl IntoView {
    let ctx = use_ctx();
    let queue_of = |name: String| {
        Memo::new(move |_| ctx.snapshot.with(|s| s.queues.iter().find(|q| q.name == name).map(without_messages)))
    };
    let read = |q: Memo<Option<QueueView>>, f: fn(&QueueView) -> String| {
        Signal::derive(move || q.with(|q| q.as_ref().map(f).unwrap_or_default()))
    };
    // "+ Worker", Receive and Purge: one command on a queue.
    let on_queue = move |action: QueueAction, q: String| {
        move |_| {
            ctx.act(|p| action(p, &q));
        }
    };
    match reach {
        Reach::AddWorker(q) => {
            let (id, click) = (format!("reach-add-worker-{q}"), on_queue(|p, q| p.add_worker(q), q.clone()));
            view! { <button data-testid=id on:click=click>"+ Worker on "{q}</button> }.into_any()
        }
        Reach::Receive(q) => {
            let (id, click) = (format!("reach-receive-{q}"), on_queue(|p, q| p.receive(q), q.clone()));
            view! { <button data-testid=id on:click=click>"Receive from "{q}</button> }.into_any()
        }
        Reach::Purge(q) => {
            let (id, click) = (format!("reach-purge-{q}"), on_queue(|p, q| p.purge(q), q.clone()));
            view! { <button data-testid=id on:click=click>"Purge "{q}</button> }.into_any()
        }
        Reach::Redrive(q) => {
            let dlq = queue_of(q.clone());
            let redrive = move |_| {
                if let Some(d) = dlq.get_untracked() {
                    ctx.act(|p| p.redrive(&d));
                }
            };
            let id = format!("reach-redrive-{q}");
            view! { <button data-testid=id on:click=redrive>"Redrive "{q}</button> }.into_any()
        }
        Reach::Visibility(q) => {
            let current = read(queue_of(q.clone()), |q| q.visibility_timeout.to_string());
            view! {
                <NumberSetting label="Visibility timeout" testid=format!("reach-visibility-{q}") range=(0, 43_200)
                    current=current setting=Setting::Visibility { queue: q.clone() } />
            }
            .into_any()
        }
        Reach::Retention(q) => {
            let current = read(queue_of(q.clone()), |q| q.retention_period.to_string());
            view! {
                <NumberSetting label="Retention" testid=format!("reach-retention-{q}") range=(60, 1_209_600)
                    current=current setting=Setting::Retention { queue: q.clone() } />
            }
            .into_any()
        }
        Reach::MaxReceive(q) => {
            let queue = queue_of(q.clone());
            let dlq = queue.get_untracked().and_then(|x| x.dead_letter_queue);
            let current = read(queue, |q| q.max_receive_count.unwrap_or_default().to_string());
            dlq.map(|dlq| {
                view! {
                    <NumberSetting label="maxReceiveCount" testid=format!("reach-max-receive-{q}") range=(1, 1_000)
                        current=current setting=Setting::MaxReceive { queue: q.clone(), dlq } />
                }
            })
            .into_any()
        }
        Reach::Replay(a) => {
            // The archive's bus, by the ARN or name it was made for.
            let name = a.clone();
            let bus = Memo::new(move |_| {
                ctx.snapshot.with(|s| {
                    let archive = s.eventbridge.archives.iter().find(|x| x.name == name)?;
                    let bus = s.eventbridge.buses.iter().find(|b| b.name == archive.bus || b.arn == archive.bus)?;
                    Some((bus.name.clone(), bus.arn.clone()))
                })
            });
            let archive = StoredValue::new(a.clone());
            let replay = move |_| {
                if let Some((_, arn)) = bus.get_untracked() {
                    archive.with_value(|n| ctx.act(|p| p.replay(n, &arn)));
                }
            };
            view! {
                <button data-testid=format!("reach-replay-{a}") disabled=move || bus.with(Option::is_none) on:click=replay>
                    "Replay "{a.clone()}" to "{move || bus.get().map(|b| b.0).unwrap_or_default()}
                </button>
            }
            .into_any()
        }
        Reach::Publish(event) => {
            let name = StoredValue::new(event.clone());
            let publish = move |_| {
                name.with_value(|n| ctx.act(|p| p.publish(n)));
            };
            view! { <button data-testid=format!("reach-publish-{event}") on:click=publish>"Publish "{event.clone()}</button> }
                .into_any()
        }
        Reach::Idempotent(w) => {
            let name = StoredValue::new(w.clone());
            let make = move |_| {
                name.with_value(|n| ctx.act(|p| p.set_idempotency(n, "Atomic")));
            };
            view! {
                <button data-testid=format!("reach-idempotent-{w}") on:click=make>
                    "Make "{w.clone()}" idempotent: the event id and the slip in one transaction"
                </button>
            }
            .into_any()
        }
        Reach::Dependency(d) => {
            let name = d.clone();
            let down = Memo::new(move |_| {
                ctx.snapshot.with(|s| s.world.dependencies.iter().find(|x| x.name == name).map(|x| x.down))
            });
            let target = StoredValue::new(d.clone());
            let toggle = move |_| {
                let take_down = down.get_untracked() == Some(false);
                target.with_value(|n| {
                    ctx.act(|p| {
                        p.apply("UpdateDependency", &serde_json::json!({"DependencyName": n, "Down": take_down}))
                    })
                });
            };
            view! {
                <button class:danger=move || down.get() == Some(false) data-testid=format!("reach-dependency-{d}")
                    disabled=move || down.get().is_none() on:click=toggle>
                    {move || if down.get() == Some(true) { "Bring " } else { "Take down " }}{d.clone()}
                    {move || if down.get() == Some(true) { " back up" } else { "" }}
                </button>
            }
            .into_any()
        }
        Reach::Worker(w) => {
            let name = w.clone();
            let state = Memo::new(move |_| {
                ctx.snapshot.with(|s| s.world.workers.iter().find(|x| x.name == name).map(|x| x.state))
            });
            let crashed = move || state.get() == Some(WorkerStatus::Crashed);
            let paused = move || state.get() == Some(WorkerStatus::Paused);
            let (life, pause) = (StoredValue::new(w.clone()), StoredValue::new(w.clone()));
            view! {
                <span class="reach-worker">
                    <span class="label">{w.clone()}</span>
                    <button class:danger=move || !crashed() data-testid=format!("reach-worker-{w}-life")
                        disabled=move || state.get().is_none()
                        on:click=move |_| { life.with_value(|n| ctx.act(|p| p.worker(if crashed() { "RestartWorker" } else { "CrashWorker" }, n))); }>
                        {move || if crashed() { "Restart" } else { "Crash" }}
                    </button>
                    <button data-testid=format!("reach-worker-{w}-pause") disabled=move || state.get().is_none() || crashed()
                        on:click=move |_| { pause.with_value(|n| ctx.act(|p| p.worker(if paused() { "ResumeWorker" } else { "PauseWorker" }, n))); }>
                        {move || if paused() { "Resume" } else { "Pause" }}
                    </button>
                </span>
            }
            .into_any()
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::playground::Playground;

    /// A checkpoint's `publish:<event>` names one of its scenario's events to publish: else its
    /// button would answer "This scenario has no event …" in the middle of a lesson.
    #[test]
    fn every_publish_control_names_an_event_its_lessons_scenario_offers() {
        let public = concat!(env!("CARGO_MANIFEST_DIR"), "/../public");
        let mut files: Vec<_> =
            std::fs::read_dir(format!("{public}/lessons")).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        let mut named = 0;
        for path in files.iter().filter(|p| !p.ends_with("index.json")) {
            let lesson: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            let scenario = match &lesson["scenario"] {
                serde_json::Value::String(id) => {
                    std::fs::read_to_string(format!("{public}/scenarios/{id}.json")).unwrap()
                }
                inline => inline.to_string(),
            };
            let pg = Playground::from_scenario(&scenario).unwrap();
            let offered: Vec<&str> = pg.presets().iter().map(|p| p.name.as_str()).collect();
            let controls = lesson["steps"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|s| s["controls"].as_array().cloned().unwrap_or_default());
            for c in controls.filter_map(|c| c.as_str().and_then(|c| c.strip_prefix("publish:")).map(str::to_string)) {
                named += 1;
                assert!(offered.contains(&c.as_str()), "{}: publish:{c} is not one of {offered:?}", path.display());
            }
        }
        assert!(named >= 9, "{named} publish controls");
    }
}
