//! Processing records one after another, the same way for a worker's batch, a Lambda invocation
//! and a coupled checkout request: work for the processing time; fail on poison or by chance; then
//! each job in turn (its dependency call with retries, then its side effect under the consumer's
//! idempotency). Every wait is one timer; nothing spins.

use super::spec::{Behavior, EventInfo, Idempotency};
use super::{WorldEvent, WorldTimer};
use crate::event::{EventKind, Name};
use crate::ids::MsgId;
use crate::sim::Sim;
use crate::sqs::Received;
use crate::time::SimTime;
use crate::timers::{Timer, TimerKey};
use std::sync::Arc;

/// Who a run belongs to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Owner {
    Worker(Name),
    /// An invocation of a Lambda function by an event source mapping: (mapping, invocation).
    Invocation(u64, u64),
    /// A checkout request of a coupled producer: (producer, request).
    Request(Name, u64),
    /// An attempt of an asynchronous invocation: the event's number.
    Async(u64),
}

impl Owner {
    pub fn cause(&self) -> &'static str {
        match self {
            Owner::Worker(_) => "Worker",
            Owner::Invocation(..) => "Lambda",
            Owner::Request(..) => "Producer",
            Owner::Async(_) => "LambdaAsync",
        }
    }
}

/// One message (or request) being processed.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub message_id: Option<MsgId>,
    pub receipt_handle: String,
    pub receive_count: u32,
    pub sent_at: SimTime,
    pub info: EventInfo,
}

#[derive(Clone, Debug)]
enum Phase {
    /// Start the next record, or finish.
    Start,
    /// The processing time is over.
    AfterWork,
    /// Run job `n` (or succeed the record when there are no more jobs).
    Job(usize),
    /// A dependency call answered.
    AfterCall { job: usize, attempt: u32, ok: bool, reason: String },
    /// The backoff before another attempt is over.
    AfterSleep { job: usize, attempt: u32 },
}

#[derive(Clone, Debug)]
struct Call {
    dependency: Name,
    server_done: SimTime,
}

#[derive(Clone, Debug)]
pub(crate) struct Run {
    /// The worker, function or producer named in events.
    pub actor: Name,
    /// The queue the records came from (empty for requests).
    pub queue: Name,
    pub behavior: Arc<Behavior>,
    pub records: Vec<Record>,
    /// The record in progress; those before it are done.
    pub next: usize,
    phase: Phase,
    pub timer: Option<TimerKey>,
    /// A Lambda timeout or a checkout request's timeout; the run ends there.
    pub deadline: Option<SimTime>,
    pub timeout_message: String,
    timed_out: bool,
    /// Stop at the first failed record (a handler that throws, a request path).
    pub stop_on_failure: bool,
    /// What a check-then-act consumer saw, per job, when the record started.
    seen: Vec<bool>,
    call: Option<Call>,
    /// Failed records by index, with why.
    pub failures: Vec<(usize, String)>,
    pub succeeded: Vec<usize>,
    /// Side effects performed in this run.
    pub effects: u32,
    pub aborted: Option<String>,
    pub failed_job: Option<Name>,
    pub started_at: SimTime,
}

impl Run {
    pub fn new(actor: Name, queue: Name, behavior: Arc<Behavior>, records: Vec<Record>, now: SimTime) -> Run {
        Run {
            actor,
            queue,
            behavior,
            records,
            next: 0,
            phase: Phase::Start,
            timer: None,
            deadline: None,
            timeout_message: "timed out".into(),
            timed_out: false,
            stop_on_failure: false,
            seen: Vec::new(),
            call: None,
            failures: Vec::new(),
            succeeded: Vec::new(),
            effects: 0,
            aborted: None,
            failed_job: None,
            started_at: now,
        }
    }

    /// The records not finished yet: what a worker still holds.
    pub fn held(&self) -> &[Record] {
        &self.records[self.next.min(self.records.len())..]
    }
}

enum Flow {
    Wait(SimTime),
    Finished,
    /// The worker crashes right after a side effect, at this point of its commit.
    Crash(&'static str),
}

impl Sim {
    fn run_slot(&mut self, owner: &Owner) -> Option<&mut Option<Run>> {
        match owner {
            Owner::Worker(w) => self.world.workers.get_mut(w).map(|w| &mut w.run),
            Owner::Invocation(m, i) => {
                self.world.mappings.get_mut(m).and_then(|m| m.invocations.get_mut(i)).map(|inv| &mut inv.run)
            }
            Owner::Request(p, r) => self.world.producers.get_mut(p).and_then(|p| p.requests.get_mut(r)),
            Owner::Async(id) => self.world.async_events.get_mut(id).map(|e| &mut e.run),
        }
    }

    /// Hands `run` to its owner and starts it.
    pub(crate) fn start_run(&mut self, owner: &Owner, run: Run) {
        if let Some(slot) = self.run_slot(owner) {
            *slot = Some(run);
            self.drive(owner);
        }
    }

    /// Moves a run on from now until it must wait, finishes, or crashes its worker.
    pub(crate) fn drive(&mut self, owner: &Owner) {
        self.with_cause(owner.cause(), |sim| sim.drive_as_owner(owner));
    }

    fn drive_as_owner(&mut self, owner: &Owner) {
        let Some(mut run) = self.run_slot(owner).and_then(Option::take) else { return };
        run.timer = None;
        let flow = if run.timed_out {
            self.abandon_call(&mut run);
            run.aborted = Some(run.timeout_message.clone());
            Flow::Finished
        } else {
            self.advance(owner, &mut run)
        };
        let put_back = |sim: &mut Sim, run: Run| {
            if let Some(slot) = sim.run_slot(owner) {
                *slot = Some(run);
            }
        };
        match flow {
            Flow::Wait(at) => {
                let at = match run.deadline {
                    Some(d) if at > d => {
                        run.timed_out = true;
                        d
                    }
                    _ => at,
                };
                run.timer = Some(self.timers.schedule(at, Timer::World(WorldTimer::Run(owner.clone()))));
                put_back(self, run);
            }
            Flow::Finished => {
                put_back(self, run);
                self.finish_run(owner);
            }
            Flow::Crash(point) => {
                put_back(self, run);
                if let Owner::Worker(w) = owner {
                    self.crash_worker_now(w, point);
                }
            }
        }
    }

    fn finish_run(&mut self, owner: &Owner) {
        match owner {
            Owner::Worker(w) => self.worker_run_finished(w),
            Owner::Invocation(m, i) => self.invocation_finished(*m, *i),
            Owner::Request(p, r) => self.request_finished(p, *r),
            Owner::Async(id) => self.async_finished(*id),
        }
    }

    /// Stops a run where it is: cancels its timer and hands back any dependency slot when the
    /// dependency is done with the abandoned call.
    pub(crate) fn abandon_run(&mut self, run: &mut Run) {
        if let Some(t) = run.timer.take() {
            self.timers.cancel(t);
        }
        self.abandon_call(run);
    }

    fn abandon_call(&mut self, run: &mut Run) {
        if let Some(call) = run.call.take() {
            self.release_slot(&call.dependency, call.server_done);
        }
    }

    fn advance(&mut self, owner: &Owner, run: &mut Run) -> Flow {
        let b = run.behavior.clone();
        loop {
            match std::mem::replace(&mut run.phase, Phase::Start) {
                Phase::Start => {
                    if run.next >= run.records.len() || run.aborted.is_some() {
                        return Flow::Finished;
                    }
                    let id = run.records[run.next].info.event_id.clone();
                    let ledger = &self.world.ledger;
                    run.seen = b
                        .jobs
                        .iter()
                        .map(|j| {
                            b.idempotency == Idempotency::CheckThenAct
                                && ledger.get(&j.job).is_some_and(|l| l.has_recorded(&run.actor, b.store, &id))
                        })
                        .collect();
                    let work = b.processing.draw(&mut self.rng);
                    run.phase = Phase::AfterWork;
                    if work > 0 {
                        return Flow::Wait(self.now.plus_ms(work));
                    }
                }
                Phase::AfterWork => {
                    let info = &run.records[run.next].info;
                    if info.poison {
                        let what = b.poison.as_ref().map(|p| p.describe()).unwrap_or_default();
                        self.record_failed(owner, run, format!("poison message: {what}"));
                    } else if self.rng.chance_ppm(b.failure_ppm) {
                        self.record_failed(owner, run, "the handler threw (FailureProbability)".into());
                    } else {
                        run.phase = Phase::Job(0);
                    }
                }
                Phase::Job(j) if j >= b.jobs.len() => self.record_succeeded(owner, run),
                Phase::Job(j) => {
                    if b.jobs[j].dependency.is_some() {
                        if let Some(flow) = self.start_call(run, j, 0) {
                            return flow;
                        }
                    } else if let Some(point) = self.effect(owner, run, j) {
                        return Flow::Crash(point);
                    } else {
                        run.phase = Phase::Job(j + 1);
                    }
                }
                Phase::AfterCall { job, attempt, ok, reason } => {
                    self.abandon_call(run);
                    if ok {
                        if let Some(point) = self.effect(owner, run, job) {
                            return Flow::Crash(point);
                        }
                        run.phase = Phase::Job(job + 1);
                        continue;
                    }
                    let spec = &b.jobs[job];
                    let dep = spec.dependency.clone().unwrap_or_default();
                    let sleep =
                        (attempt + 1 < spec.retry.max_attempts).then(|| spec.retry.backoff_ms(attempt, &mut self.rng));
                    self.emit(EventKind::World(WorldEvent::DependencyCallFailed {
                        dependency: dep.clone(),
                        caller: run.actor.clone(),
                        event_id: run.records[run.next].info.event_id.clone(),
                        attempt: attempt + 1,
                        reason: reason.clone(),
                        retry_in_ms: sleep,
                    }));
                    match sleep {
                        Some(ms) => {
                            run.phase = Phase::AfterSleep { job, attempt: attempt + 1 };
                            if ms > 0 {
                                return Flow::Wait(self.now.plus_ms(ms));
                            }
                        }
                        None => {
                            run.failed_job = Some(spec.job.clone());
                            let n = attempt + 1;
                            let tries = if n == 1 { "1 attempt".to_string() } else { format!("{n} attempts") };
                            self.record_failed(owner, run, format!("{dep} failed after {tries}: {reason}"));
                        }
                    }
                }
                Phase::AfterSleep { job, attempt } => {
                    if let Some(flow) = self.start_call(run, job, attempt) {
                        return flow;
                    }
                }
            }
        }
    }

    /// Calls job `job`'s dependency; `None` when the answer is already in (continue at once).
    fn start_call(&mut self, run: &mut Run, job: usize, attempt: u32) -> Option<Flow> {
        let spec = &run.behavior.jobs[job];
        let dependency = spec.dependency.clone().unwrap_or_default();
        let plan = self.plan_call(&dependency, spec.retry.timeout_ms);
        run.call = plan.holds_slot_until.map(|server_done| Call { dependency, server_done });
        run.phase = Phase::AfterCall { job, attempt, ok: plan.ok, reason: plan.reason };
        (plan.finish_at > self.now).then_some(Flow::Wait(plan.finish_at))
    }

    /// Job `j`'s side effect for the current record; the crash point when the worker must crash now.
    fn effect(&mut self, owner: &Owner, run: &mut Run, j: usize) -> Option<&'static str> {
        let b = run.behavior.clone();
        let armed = matches!(owner, Owner::Worker(w) if self.world.workers.get(w).is_some_and(|w| w.crash_armed));
        let rec = &run.records[run.next];
        let seen = run.seen.get(j).copied().unwrap_or(false);
        let done =
            self.commit_effect(&run.actor, &b.jobs[j], &rec.info, rec.sent_at, (b.idempotency, b.store), seen, armed);
        if done.performed {
            run.effects += 1;
        }
        (done.performed && armed).then_some(match b.idempotency {
            Idempotency::CheckThenAct => super::worker::AFTER_EFFECT_BEFORE_RECORD,
            Idempotency::None => super::worker::AFTER_EFFECT_BEFORE_DELETE,
            Idempotency::Atomic | Idempotency::LatestVersionWins => super::worker::AFTER_COMMIT_BEFORE_DELETE,
        })
    }

    fn record_failed(&mut self, owner: &Owner, run: &mut Run, reason: String) {
        let i = run.next;
        run.next += 1;
        run.phase = Phase::Start;
        if !matches!(owner, Owner::Request(..)) {
            let rec = &run.records[i];
            self.emit(EventKind::World(WorldEvent::ProcessingFailed {
                actor: run.actor.clone(),
                queue: run.queue.clone(),
                message_id: rec.message_id,
                event_id: rec.info.event_id.clone(),
                reason: reason.clone(),
            }));
        }
        if let Owner::Worker(w) = owner {
            if let Some(w) = self.world.workers.get_mut(w) {
                w.stats.failed += 1;
            }
        }
        if run.stop_on_failure {
            run.aborted = Some(reason.clone());
        }
        run.failures.push((i, reason));
    }

    fn record_succeeded(&mut self, owner: &Owner, run: &mut Run) {
        let i = run.next;
        run.next += 1;
        run.phase = Phase::Start;
        run.succeeded.push(i);
        if let Owner::Worker(w) = owner {
            let handle = run.records[i].receipt_handle.clone();
            self.worker_delete(w, &run.queue, &handle);
        }
    }
}

/// The records of a receive, as the consumer's code sees them.
pub(crate) fn records_from(received: &[Received], b: &Behavior) -> Vec<Record> {
    received
        .iter()
        .map(|m| Record {
            message_id: Some(m.message_id),
            receipt_handle: m.receipt_handle.clone(),
            receive_count: m.receive_count,
            sent_at: m.sent_at,
            info: b.inspect(&m.body, &m.message_id.to_string()),
        })
        .collect()
}
