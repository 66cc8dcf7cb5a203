//! "Take it to AWS": the simulation's topology written out for a real account.
//!
//! - [`cloudformation`]: a YAML template (topics, queues, queue policies, subscriptions, alarms,
//!   Lambda event source mappings with a placeholder function, its event invoke config and
//!   dead-letter target, EventBridge buses, rules and targets with what lets them deliver), from
//!   any `Sim`.
//! - [`boto3`]: a Python script that makes the same resources with boto3 against AWS or any
//!   endpoint (`--endpoint-url`), sends the story's messages again, and prints each queue's
//!   `ApproximateNumberOfMessages`; [`awscli`]: the same as a bash script of AWS CLI calls.
//! - [`queue_counts`]: the engine's own counts, in the scripts' output format, to compare with.
//!
//! All of them print, as comments, what only the simulator has (workers, dependencies,
//! producers, simulated behavior, simulation settings) and so is left out. The scripts take the
//! story's commands (`History::commands`, or [`story`] of a scenario) because a `Sim` keeps the
//! messages it stores, not the calls that sent them. Output is a pure function of its input.
//!
//! Files: `model` reads the engine's state (`routes` its Lambda destinations and EventBridge
//! part), `left_out` the simulator-only parts, `messages` the message calls of a story,
//! `logical_ids` the template's ids, `cloudformation_routes` the template's routes; `yaml`,
//! `shell_json` and `quote` the writing. The scripts also say, one line each, what the template
//! has and they do not make (event invoke configs, function and event bus targets).

mod awscli;
mod boto3;
mod cloudformation;
mod cloudformation_routes;
mod left_out;
mod logical_ids;
mod messages;
mod model;
mod quote;
mod routes;
mod shell_json;
mod yaml;

use crate::history::{Command, History};
use crate::scenario::ScenarioError;
use crate::sim::Sim;
use crate::Scenario;

/// The CloudFormation template (YAML) of the simulation's resources as they are now.
pub fn cloudformation(sim: &Sim) -> String {
    cloudformation::template(sim)
}

/// A Python (boto3) script: the resources as they are now, then the story's messages, then one
/// line per queue, `<queue name> <ApproximateNumberOfMessages>`, in name order.
pub fn boto3(sim: &Sim, commands: &[Command]) -> String {
    boto3::script(sim, commands)
}

/// The same as [`boto3`] as a bash script of AWS CLI calls (`aws` v1 or v2).
pub fn awscli(sim: &Sim, commands: &[Command]) -> String {
    awscli::script(sim, commands)
}

/// The engine's `ApproximateNumberOfMessages` of each queue now, one `<queue name> <count>` line
/// per queue in name order: the format the scripts print, to compare their run with.
pub fn queue_counts(sim: &Sim) -> String {
    let mut out = String::new();
    for q in sim.snapshot_limited(0).queues {
        out.push_str(&format!("{} {}\n", q.name, q.visible));
    }
    out
}

/// A scenario played as a story: the final simulation and every successful command with the
/// virtual time it ran at and its `${name}` placeholders filled in, as the app keeps them.
/// A step that failed (an expected error) is not in it. Fails where the page refuses the file
/// ([`Run::refusal`](crate::scenario::Run::refusal)): on a `save` path that does not resolve, or
/// an action that fails without `expect_error`.
pub fn story(scenario: &Scenario) -> Result<History, ScenarioError> {
    // The one scenario pipeline, as `fanout test` and the page run it, refusing what they refuse.
    let run = scenario.run();
    match run.refusal() {
        Some(refused) => Err(refused),
        None => Ok(run.story),
    }
}
