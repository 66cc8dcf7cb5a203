//! Compare mode (`?compare=fanout,workqueue`): two or three designs of one checkout side by
//! side, each its own engine, diagram and inspector (its own [`Ctx`]), on one virtual clock.
//! Every learner command goes to every design at the same virtual moment, as one entry of the
//! engine's compare log ([`engine::compare::Command`]); the difference table reads each
//! engine's state ([`engine::compare::measure`]).

mod table;

use super::clock::use_raf_fn;
use super::nav::{use_nav, AppHeader};
use super::{inspector::Inspector, topology::Topology, Ctx};
use crate::playground::{Playground, SPEEDS};
use crate::route::Route;
use engine::compare::{Command, DESIGNS};
use leptos::prelude::*;

/// How long a fault button's degradation lasts, in virtual ms.
const FAULT_MS: u64 = 60_000;

/// The designs a `compare` parameter names: 2 or 3 known, distinct names; an empty value
/// gives the default (fan-out vs work queue).
pub fn parse_designs(value: &str) -> Result<Vec<&'static str>, String> {
    if value.trim().is_empty() {
        return Ok(vec!["fanout", "workqueue"]);
    }
    let mut out: Vec<&'static str> = Vec::new();
    for part in value.split(',').map(str::trim) {
        let Some((name, _)) = DESIGNS.iter().find(|(n, _)| *n == part) else {
            let known: Vec<&str> = DESIGNS.iter().map(|(n, _)| *n).collect();
            return Err(format!("compare: \"{part}\" is not a design; use {}", known.join(", ")));
        };
        if !out.contains(name) {
            out.push(name);
        }
    }
    match out.len() {
        2 | 3 => Ok(out),
        n => Err(format!("compare: pick 2 or 3 designs, not {n}")),
    }
}

fn label(name: &str) -> &'static str {
    DESIGNS.iter().find(|(n, _)| *n == name).map_or("", |(_, l)| l)
}

/// One design's context: its own story, snapshot and selection; playback is shared.
fn design_ctx(name: &str, text: &str, playing: RwSignal<bool>, speed: RwSignal<usize>) -> Result<Ctx, String> {
    let pg = RwSignal::new(Playground::from_scenario(text).map_err(|e| format!("{name}: {e}"))?);
    let (snapshot, now, clock, (paced, paced_late)) = super::story_views(pg, playing);
    Ok(Ctx {
        pg,
        snapshot,
        now,
        clock,
        paced,
        paced_late,
        playing,
        speed,
        selected: RwSignal::new(None),
        error: RwSignal::new(None),
        announce: RwSignal::new(String::new()),
        stage: RwSignal::new(None),
    })
}

/// Gives `command` to every design now (the same entry of the one log).
fn apply_all(designs: &[(&'static str, Ctx)], command: &Command) {
    for (_, ctx) in designs {
        ctx.act(|p| {
            let (action, params) = command.action(p.sim());
            p.apply(action, &params)
        });
    }
}

/// Compare mode, for the designs the address names: built again when they change.
#[component]
pub fn CompareView() -> impl IntoView {
    let nav = use_nav();
    let designs = Memo::new(move |_| {
        nav.route.with(|r| match r {
            Route::Compare { designs } => designs.clone(),
            _ => String::new(),
        })
    });
    move || view! { <DesignsLoader value=designs.get() /> }
}

/// The designs the address names, fetched (data files, as the scenarios are), then compared.
#[component]
fn DesignsLoader(value: String) -> impl IntoView {
    let names = match parse_designs(&value) {
        Ok(n) => n,
        Err(e) => return view! { <super::ErrorPanel message=e /> }.into_any(),
    };
    let ready = RwSignal::new(None::<Result<Vec<(&'static str, String)>, String>>);
    leptos::task::spawn_local(async move {
        let mut texts = Vec::with_capacity(names.len());
        for name in names {
            match crate::fetch::design(name).await {
                Ok(text) => texts.push((name, text)),
                Err(e) => {
                    ready.try_set(Some(Err(e)));
                    return;
                }
            }
        }
        ready.try_set(Some(Ok(texts)));
    });
    (move || match super::stage::take_loaded(ready) {
        None => view! { <div class="boot" role="status">"Loading the designs…"</div> }.into_any(),
        Some(Ok(texts)) => view! { <ComparePage texts=texts /> }.into_any(),
        Some(Err(e)) => view! { <super::ErrorPanel message=e /> }.into_any(),
    })
    .into_any()
}

/// Compare mode for the designs `texts` holds: (name, file).
#[component]
pub fn ComparePage(texts: Vec<(&'static str, String)>) -> impl IntoView {
    let playing = RwSignal::new(false);
    let speed = RwSignal::new(4);
    let built = texts
        .iter()
        .map(|(n, text)| design_ctx(n, text, playing, speed).map(|c| (*n, c)))
        .collect::<Result<Vec<_>, _>>();
    let designs = match built {
        Ok(d) => d,
        Err(e) => return view! { <super::ErrorPanel message=e /> }.into_any(),
    };
    use_shared_clock(designs.clone(), playing, speed);
    let lead = designs[0].1;
    let now = move || lead.clock.get().to_string();
    let errors = designs.clone();
    let chosen: Vec<&'static str> = designs.iter().map(|(n, _)| *n).collect();
    let panels = designs.iter().map(|(name, ctx)| view! { <DesignPanel name=name ctx=*ctx /> }).collect_view();
    view! {
        <div class="shell compare" data-testid="compare">
            <AppHeader>
                <Picker chosen=chosen />
                <time class="clock" data-testid="clock" title="One virtual clock for every design">{now}</time>
            </AppHeader>
            <main class="compare-main">
            <Controls designs=designs.clone() playing=playing speed=speed />
            {move || errors.iter().find_map(|(n, c)| c.error.get().map(|e| format!("{}: {e}", label(n))))
                .map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <p class="lede">"The same order in each design, after the payment checkout waits for: billing writes the invoice, packing prints the slip, SMS texts the customer. The SMS provider answers in 0.5 s; its client gives up after 10 s. A publish or a send is given no time, for want of a documented figure. Every button acts on every design at the same virtual moment."</p>
            <div class="compare-designs" style=format!("--designs: {}", designs.len())>{panels}</div>
            <table::Difference designs=designs.clone() />
            </main>
        </div>
    }
    .into_any()
}

/// The controls, each acting on every design at once: publish, play-pause, step, speed and
/// the faults.
#[component]
fn Controls(designs: Vec<(&'static str, Ctx)>, playing: RwSignal<bool>, speed: RwSignal<usize>) -> impl IntoView {
    let designs = StoredValue::new(designs);
    let send = move |command: Command| designs.with_value(|d| apply_all(d, &command));
    let step = move |_| designs.with_value(|d| step_all(d, playing));
    let speeds = SPEEDS
        .iter()
        .enumerate()
        .map(|(i, (l, _))| view! { <option value=i.to_string() prop:selected=move || speed.get() == i>{*l}</option> })
        .collect_view();
    view! {
        <section class="transport compare-controls" aria-label="Every design at once">
            <button class="primary" data-testid="publish" on:click=move |_| send(Command::Order { poison: false })>"Place an order"</button>
            <button class="icon play" data-testid="play-pause" aria-label=move || if playing.get() { "Pause" } else { "Play" }
                on:click=move |_| playing.update(|p| *p = !*p)>{move || if playing.get() { "❚❚" } else { "▶" }}</button>
            <button data-testid="step" on:click=step>"Step"</button>
            <label class="speed"><span class="sr-only">"Speed"</span>
                <select data-testid="speed" on:change=move |ev| speed.set(event_target_value(&ev).parse().unwrap_or(4))>{speeds}</select></label>
            <span class="faults">
                <button data-testid="fault-sms-slow" title="The SMS provider answers in 25 s for 60 s"
                    on:click=move |_| send(Command::sms_slow(FAULT_MS))>"SMS slow: 25 s"</button>
                <button data-testid="fault-sms-down" title="The SMS provider fails every call for 60 s"
                    on:click=move |_| send(Command::sms_down(FAULT_MS))>"SMS down"</button>
                <button data-testid="fault-poison" title="An order whose phone number is one digit short"
                    on:click=move |_| send(Command::Order { poison: true })>"Poison order"</button>
            </span>
        </section>
    }
}

/// Every design to the earliest moment one of them has something due.
fn step_all(designs: &[(&'static str, Ctx)], playing: RwSignal<bool>) {
    playing.set(false);
    let next = designs.iter().filter_map(|(_, c)| c.pg.with_untracked(|p| p.sim().next_event_at())).min();
    if let Some(t) = next {
        for (_, c) in designs {
            c.pg.update(|p| p.play_for(t.0.saturating_sub(p.now().0)));
        }
    }
}

/// Plays every design together: real time × the shared speed, the same ms to each.
fn use_shared_clock(designs: Vec<(&'static str, Ctx)>, playing: RwSignal<bool>, speed: RwSignal<usize>) {
    let carry = StoredValue::new(0u64);
    let raf = use_raf_fn(move |elapsed_us| {
        let quarters = SPEEDS.get(speed.get_untracked()).map_or(4, |s| s.1);
        let (ms, rest) = super::clock::virtual_ms(elapsed_us, quarters, carry.get_value());
        carry.set_value(rest);
        if ms > 0 {
            for (_, c) in &designs {
                c.pg.try_update(|p| p.play_for(ms));
            }
        }
    });
    let (pause, resume, active) = (raf.pause, raf.resume, raf.is_active);
    Effect::new(move |_| match (playing.get(), active.get_untracked()) {
        (true, false) => resume(),
        (false, true) => pause(),
        _ => {}
    });
}

/// One design: its name, its diagram and its inspector, under its own context.
#[component]
fn DesignPanel(name: &'static str, ctx: Ctx) -> impl IntoView {
    provide_context(ctx);
    let description = ctx.pg.with_untracked(|p| p.description.clone());
    view! {
        <section class="compare-design" data-testid=format!("compare-design-{name}") aria-label=label(name)>
            <h2>{label(name)}</h2>
            <p class="lede">{description}</p>
            <div class="diagram"><Topology /></div>
            <details class="compare-inspector" prop:open=move || ctx.selected.with(Option::is_some)>
                <summary>"Inspector"</summary>
                <Inspector />
            </details>
        </section>
    }
}

/// Two or three designs to compare: a change opens the page for the new choice.
#[component]
fn Picker(chosen: Vec<&'static str>) -> impl IntoView {
    let picked = RwSignal::new(chosen);
    let nav = use_nav();
    let go = move |_| nav.go(Route::Compare { designs: picked.get_untracked().join(",") });
    view! {
        <fieldset class="compare-picker" data-testid="compare-picker">
            <legend class="sr-only">"Designs to compare"</legend>
            {DESIGNS.iter().map(|(name, text)| {
                let name: &'static str = name;
                let on = move || picked.with(|p| p.contains(&name));
                view! {
                    <label class="toggle"><input type="checkbox" data-testid=format!("compare-pick-{name}") prop:checked=on
                        on:change=move |ev| picked.update(|p| if event_target_checked(&ev) { if !p.contains(&name) { p.push(name) } } else { p.retain(|n| *n != name) }) />
                    <span>{*text}</span></label>
                }
            }).collect_view()}
            <button data-testid="compare-apply" on:click=go prop:disabled=move || !(2..=3).contains(&picked.with(Vec::len))>"Compare"</button>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::parse_designs;

    #[test]
    fn the_compare_parameter_names_two_or_three_designs() {
        assert_eq!(parse_designs("").unwrap(), ["fanout", "workqueue"]);
        assert_eq!(parse_designs("directcalls, fanout").unwrap(), ["directcalls", "fanout"]);
        assert!(parse_designs("fanout").unwrap_err().contains("2 or 3"));
        assert!(parse_designs("fanout,nope").unwrap_err().contains("\"nope\""));
        assert!(parse_designs("fanout,workqueue,oneworker,directcalls").is_err());
    }
}
