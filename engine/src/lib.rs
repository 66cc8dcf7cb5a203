//! # Fan-out Playground engine
//!
//! A deterministic discrete-event simulator of Amazon SNS topics fanning out to Amazon SQS
//! queues. Its command language is the AWS API: `Sim::apply("Publish", params)` takes the
//! parameters and returns the response shapes AWS documents, or an [`ApiError`] with the AWS
//! error code. Time is virtual (milliseconds) and moves only when asked; randomness comes from
//! one seeded generator. The same scenario and seed give the same event log, natively and in
//! WebAssembly.
//!
//! ## Module map
//! - [`actions`]: the one table of every action: name, service, parameter names, handler.
//! - [`sim`]: the `Sim` — state, clock, `apply` through that table, the step loop.
//! - [`sqs`]: queues, sends, receives, visibility, redrive to dead-letter queues, move tasks,
//!   access policies (who may send).
//! - [`sns`]: topics, subscriptions (SQS, Lambda, HTTP/S), publish, filtered fan-out, envelopes
//!   and raw delivery, delivery retries under the delivery policies, subscription dead-letter
//!   queues.
//! - [`filter`]: the SNS subscription filter policy language (compile once, explain a no-match).
//! - [`events`]: Amazon EventBridge — event buses, rules with event patterns or schedules,
//!   targets (queues, topics, buses) with input transformation, retries and dead-letter queues,
//!   archives and replays.
//! - [`event`]: the event log's vocabulary, in the past tense.
//! - [`snapshot`]: a serialisable picture of the whole state, for the UI.
//! - [`scenario`]: scenario files, expectations, saved values; [`history`]: time travel by
//!   checkpoint and replay.
//! - [`lesson`]: guided lessons as data — steps, predictions the engine answers, checkpoints it
//!   checks, and the player the page and `fanout test` drive.
//! - [`drill`]: incident drills as data — a broken world, what the learner may change, a goal
//!   watched over a window after the fix, and the judge the page and `fanout test` call.
//! - [`world`]: the playground's own actors — workers, Lambda (event source mappings and
//!   asynchronous invocation with its destinations), dependencies, HTTP/S endpoints, order
//!   services with a dual write or an outbox, metrics, alarms.
//! - [`compare`]: compare mode — several designs of one system fed one command log, measured
//!   alike for the difference table.
//! - [`interview`]: interview walkthroughs as data, each step's "try it" run in a compare design.
//! - [`export`]: take it to AWS — a CloudFormation template, a boto3 script and an AWS CLI script
//!   of the simulation's topology and messages.
//! - [`nesting`]: how deep the JSON read from a learner may nest (patterns, policies, bodies).
//! - [`time`], [`rng`], [`ids`], [`attributes`], [`error`]: the small pieces everything uses;
//!   `params` reads action parameters, `timers` is the timer table, `throttle` counts calls per
//!   virtual second for the FIFO quotas.

pub mod actions;
pub mod attributes;
pub mod compare;
pub mod drill;
pub mod error;
pub mod event;
pub mod events;
pub mod export;
pub mod filter;
pub mod history;
pub mod ids;
pub mod interview;
pub mod lesson;
pub mod nesting;
mod params;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod snapshot;
pub mod sns;
pub mod sqs;
mod throttle;
pub mod time;
mod timers;
pub mod vecmap;
pub mod world;

pub use error::ApiError;
pub use event::{Event, EventKind};
pub use scenario::Scenario;
pub use sim::Sim;
pub use snapshot::Snapshot;
pub use time::SimTime;

/// The event log as JSON lines, one event per line: the form compared across platforms.
pub fn event_log_jsonl(events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&serde_json::to_string(e).expect("invariant: events serialise"));
        out.push('\n');
    }
    out
}
