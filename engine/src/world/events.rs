//! The simulated actors' events, in the past tense, beside the AWS ones in the log. Each
//! serialises with its own `"event"` tag.

use crate::event::Name;
use crate::ids::MsgId;
use crate::time::SimTime;
use serde::Serialize;
use std::sync::Arc;

/// One failed record in a Lambda partial batch response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchItemFailure {
    #[serde(rename = "itemIdentifier")]
    pub item_identifier: String,
}

/// What a function returns to an SQS event source mapping: `{"batchItemFailures": [...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchResponse {
    #[serde(rename = "batchItemFailures")]
    pub batch_item_failures: Vec<BatchItemFailure>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event")]
pub enum WorldEvent {
    WorkerCreated {
        worker: Name,
        queue: Name,
    },
    WorkerUpdated {
        worker: Name,
        settings: Vec<String>,
    },
    WorkerPaused {
        worker: Name,
    },
    WorkerResumed {
        worker: Name,
    },
    /// The worker will crash right after its next side effect, before it commits.
    WorkerCrashArmed {
        worker: Name,
        point: &'static str,
    },
    /// The worker died holding `held` (received, not deleted): they return when their visibility timeout runs out.
    WorkerCrashed {
        worker: Name,
        queue: Name,
        point: &'static str,
        held: Vec<MsgId>,
    },
    WorkerRestarted {
        worker: Name,
    },
    WorkerStopped {
        worker: Name,
        reason: String,
    },
    WorkerDeleted {
        worker: Name,
        held: Vec<MsgId>,
    },
    /// A heartbeat: ChangeMessageVisibility on every message the worker still holds.
    HeartbeatSent {
        worker: Name,
        queue: Name,
        messages: usize,
        visible_again_at: SimTime,
    },
    ProcessingFailed {
        actor: Name,
        queue: Name,
        message_id: Option<MsgId>,
        event_id: Arc<str>,
        reason: String,
    },
    /// A job's visible side effect happened; `times` above 1 is a duplicate a learner can see.
    SideEffectPerformed {
        job: Name,
        effect: Name,
        event_id: Arc<str>,
        times: u32,
        actor: Name,
    },
    SideEffectSkipped {
        job: Name,
        event_id: Arc<str>,
        actor: Name,
        reason: String,
    },
    /// An older version of an entity's event was applied after a newer one had been.
    StaleVersionApplied {
        job: Name,
        event_id: Arc<str>,
        actor: Name,
        version: u64,
        newer: u64,
    },
    DependencyCreated {
        dependency: Name,
    },
    DependencyUpdated {
        dependency: Name,
        settings: Vec<String>,
    },
    DependencyCallFailed {
        dependency: Name,
        caller: Name,
        event_id: Arc<str>,
        attempt: u32,
        reason: String,
        retry_in_ms: Option<u64>,
    },
    FunctionCreated {
        function: Name,
    },
    FunctionUpdated {
        function: Name,
        settings: Vec<String>,
    },
    FunctionDeleted {
        function: Name,
    },
    EventSourceMappingCreated {
        uuid: String,
        function: Name,
        queue: Name,
    },
    EventSourceMappingUpdated {
        uuid: String,
        settings: Vec<String>,
    },
    EventSourceMappingDeleted {
        uuid: String,
    },
    EventSourceMappingDisabled {
        uuid: String,
        reason: String,
    },
    FunctionInvoked {
        function: Name,
        uuid: String,
        invocation: u64,
        message_ids: Vec<MsgId>,
    },
    /// The function returned normally; with ReportBatchItemFailures its failures come back alone.
    FunctionReturned {
        function: Name,
        uuid: String,
        invocation: u64,
        response: BatchResponse,
        deleted: usize,
    },
    /// The invocation failed as a whole: every record of the batch returns to the queue.
    FunctionFailed {
        function: Name,
        uuid: String,
        invocation: u64,
        error: String,
        records_returned: usize,
    },
    ProducerCreated {
        producer: Name,
        design: &'static str,
    },
    ProducerFinished {
        producer: Name,
        produced: u64,
    },
    ProducerStopped {
        producer: Name,
        reason: String,
    },
    /// A checkout request of the coupled design: every service called in turn on the request path.
    RequestCompleted {
        producer: Name,
        event_id: Arc<str>,
        outcome: &'static str,
        failed_at: Option<Name>,
        latency_ms: u64,
    },
    MetricsConfigured {
        resolution_ms: u64,
    },
    AlarmPut {
        alarm: Name,
    },
    AlarmDeleted {
        alarm: Name,
    },
    AlarmStateChanged {
        alarm: Name,
        from: &'static str,
        to: &'static str,
        reason: String,
        actions: Vec<String>,
    },
    HttpEndpointCreated {
        endpoint: Name,
        url: String,
    },
    HttpEndpointUpdated {
        endpoint: Name,
        settings: Vec<String>,
    },
    HttpEndpointDeleted {
        endpoint: Name,
    },
    /// A mailbox, phone or device (`CreateRecipient`) is reached at `endpoint` by `protocol`.
    RecipientCreated {
        recipient: Name,
        protocol: String,
        endpoint: String,
    },
    RecipientUpdated {
        recipient: Name,
        settings: Vec<String>,
    },
    RecipientDeleted {
        recipient: Name,
    },
    /// An event joined the function's asynchronous queue (`Invoke` Event, SNS, EventBridge).
    AsyncInvocationQueued {
        function: Name,
        request_id: String,
        /// Who invoked: `Invoke`, a topic or rule ARN, or the function whose destination it is.
        source: Name,
    },
    AsyncInvocationStarted {
        function: Name,
        request_id: String,
        event_id: Arc<str>,
        attempt: u32,
    },
    AsyncInvocationSucceeded {
        function: Name,
        request_id: String,
        event_id: Arc<str>,
        attempt: u32,
    },
    /// A function error; Lambda retries at `retry_at`, or (`None`) the retries are exhausted.
    AsyncInvocationFailed {
        function: Name,
        request_id: String,
        event_id: Arc<str>,
        attempt: u32,
        error: String,
        retry_at: Option<SimTime>,
    },
    /// The invocation record went to `OnSuccess` or `OnFailure`, or the event to the function's
    /// dead-letter queue (`to`).
    AsyncRecordSent {
        function: Name,
        request_id: String,
        to: &'static str,
        destination: Name,
    },
    /// An asynchronous event was lost: why.
    AsyncEventDropped {
        function: Name,
        request_id: String,
        reason: String,
    },
    OrderServiceCreated {
        service: Name,
        design: String,
    },
    /// One transaction wrote the order (and, in the outbox design, its outbox row).
    OrderSaved {
        service: Name,
        order_id: u64,
        transaction: u64,
        outbox_row: Option<u64>,
    },
    OrderServiceCrashArmed {
        service: Name,
        point: &'static str,
    },
    /// The service died at `point`; `lost_event` is an event that will never be published.
    OrderServiceCrashed {
        service: Name,
        point: &'static str,
        lost_event: Option<String>,
    },
    OrderServiceRestarted {
        service: Name,
    },
    OutboxRelayCreated {
        relay: Name,
        service: Name,
    },
    /// The relay published an outbox row and marked it sent; `times` above 1 is a duplicate.
    OutboxRowSent {
        relay: Name,
        service: Name,
        row: u64,
        event_id: String,
        times: u32,
    },
    /// The relay died after publishing `row`, before marking it sent.
    OutboxRelayCrashed {
        relay: Name,
        row: u64,
        event_id: String,
    },
    OutboxRelayRestarted {
        relay: Name,
    },
    /// SNS's deliveries to the resource fail with a server-side error in `[from, until)`.
    ServiceOutageScheduled {
        resource: Name,
        from: SimTime,
        until: SimTime,
    },
}

fn ids(list: &[MsgId]) -> String {
    let shown: Vec<String> = list.iter().take(10).map(MsgId::to_string).collect();
    let more = if list.len() > 10 { format!(" and {} more", list.len() - 10) } else { String::new() };
    if shown.is_empty() {
        "nothing".to_string()
    } else {
        format!("{}{more}", shown.join(", "))
    }
}

fn nth(n: u32) -> String {
    match n {
        1 => "first time".into(),
        2 => "2nd time: a duplicate".into(),
        3 => "3rd time: a duplicate".into(),
        n => format!("{n}th time: a duplicate"),
    }
}

impl WorldEvent {
    pub fn name(&self) -> &'static str {
        use WorldEvent::*;
        match self {
            WorkerCreated { .. } => "WorkerCreated",
            WorkerUpdated { .. } => "WorkerUpdated",
            WorkerPaused { .. } => "WorkerPaused",
            WorkerResumed { .. } => "WorkerResumed",
            WorkerCrashArmed { .. } => "WorkerCrashArmed",
            WorkerCrashed { .. } => "WorkerCrashed",
            WorkerRestarted { .. } => "WorkerRestarted",
            WorkerStopped { .. } => "WorkerStopped",
            WorkerDeleted { .. } => "WorkerDeleted",
            HeartbeatSent { .. } => "HeartbeatSent",
            ProcessingFailed { .. } => "ProcessingFailed",
            SideEffectPerformed { .. } => "SideEffectPerformed",
            SideEffectSkipped { .. } => "SideEffectSkipped",
            StaleVersionApplied { .. } => "StaleVersionApplied",
            DependencyCreated { .. } => "DependencyCreated",
            DependencyUpdated { .. } => "DependencyUpdated",
            DependencyCallFailed { .. } => "DependencyCallFailed",
            FunctionCreated { .. } => "FunctionCreated",
            FunctionUpdated { .. } => "FunctionUpdated",
            FunctionDeleted { .. } => "FunctionDeleted",
            EventSourceMappingCreated { .. } => "EventSourceMappingCreated",
            EventSourceMappingUpdated { .. } => "EventSourceMappingUpdated",
            EventSourceMappingDeleted { .. } => "EventSourceMappingDeleted",
            EventSourceMappingDisabled { .. } => "EventSourceMappingDisabled",
            FunctionInvoked { .. } => "FunctionInvoked",
            FunctionReturned { .. } => "FunctionReturned",
            FunctionFailed { .. } => "FunctionFailed",
            ProducerCreated { .. } => "ProducerCreated",
            ProducerFinished { .. } => "ProducerFinished",
            ProducerStopped { .. } => "ProducerStopped",
            RequestCompleted { .. } => "RequestCompleted",
            MetricsConfigured { .. } => "MetricsConfigured",
            AlarmPut { .. } => "AlarmPut",
            AlarmDeleted { .. } => "AlarmDeleted",
            AlarmStateChanged { .. } => "AlarmStateChanged",
            HttpEndpointCreated { .. } => "HttpEndpointCreated",
            HttpEndpointUpdated { .. } => "HttpEndpointUpdated",
            HttpEndpointDeleted { .. } => "HttpEndpointDeleted",
            RecipientCreated { .. } => "RecipientCreated",
            RecipientUpdated { .. } => "RecipientUpdated",
            RecipientDeleted { .. } => "RecipientDeleted",
            ServiceOutageScheduled { .. } => "ServiceOutageScheduled",
            AsyncInvocationQueued { .. } => "AsyncInvocationQueued",
            AsyncInvocationStarted { .. } => "AsyncInvocationStarted",
            AsyncInvocationSucceeded { .. } => "AsyncInvocationSucceeded",
            AsyncInvocationFailed { .. } => "AsyncInvocationFailed",
            AsyncRecordSent { .. } => "AsyncRecordSent",
            AsyncEventDropped { .. } => "AsyncEventDropped",
            OrderServiceCreated { .. } => "OrderServiceCreated",
            OrderSaved { .. } => "OrderSaved",
            OrderServiceCrashArmed { .. } => "OrderServiceCrashArmed",
            OrderServiceCrashed { .. } => "OrderServiceCrashed",
            OrderServiceRestarted { .. } => "OrderServiceRestarted",
            OutboxRelayCreated { .. } => "OutboxRelayCreated",
            OutboxRowSent { .. } => "OutboxRowSent",
            OutboxRelayCrashed { .. } => "OutboxRelayCrashed",
            OutboxRelayRestarted { .. } => "OutboxRelayRestarted",
        }
    }

    pub fn summary(&self) -> String {
        use WorldEvent::*;
        match self {
            WorkerCreated { worker, queue } => format!("worker {worker} polls {queue}"),
            WorkerUpdated { worker, settings } => format!("worker {worker}: changed {}", settings.join(", ")),
            WorkerPaused { worker } => format!("worker {worker} paused"),
            WorkerResumed { worker } => format!("worker {worker} resumed"),
            WorkerCrashArmed { worker, point } => format!("worker {worker} will crash {point}"),
            WorkerCrashed { worker, queue, point, held } => {
                format!("worker {worker} crashed {point} holding {} from {queue}", ids(held))
            }
            WorkerRestarted { worker } => format!("worker {worker} restarted"),
            WorkerStopped { worker, reason } => format!("worker {worker} stopped: {reason}"),
            WorkerDeleted { worker, held } => format!("worker {worker} deleted, abandoning {}", ids(held)),
            HeartbeatSent { worker, messages, visible_again_at, .. } => {
                let noun = if *messages == 1 { "message" } else { "messages" };
                format!("worker {worker} extended {messages} {noun} until {visible_again_at}")
            }
            ProcessingFailed { actor, message_id, event_id, reason, .. } => {
                let m = message_id.map(|m| format!("{m} ")).unwrap_or_default();
                format!("{actor} failed {m}({event_id}): {reason}")
            }
            SideEffectPerformed { job, effect, event_id, times, actor } => {
                format!("{job}: {effect} for {event_id} by {actor} ({})", nth(*times))
            }
            SideEffectSkipped { job, event_id, reason, .. } => format!("{job}: {event_id} skipped ({reason})"),
            StaleVersionApplied { job, event_id, version, newer, .. } => {
                format!("{job}: {event_id} applied version {version} after version {newer}")
            }
            DependencyCreated { dependency } => format!("dependency {dependency} created"),
            DependencyUpdated { dependency, settings } => {
                format!("dependency {dependency}: set {}", settings.join(", "))
            }
            DependencyCallFailed { dependency, caller, event_id, attempt, reason, retry_in_ms } => match retry_in_ms {
                Some(ms) => {
                    format!("{caller} → {dependency} for {event_id}, attempt {attempt}: {reason}; retry in {ms}ms")
                }
                None => format!("{caller} → {dependency} for {event_id}, attempt {attempt}: {reason}; giving up"),
            },
            FunctionCreated { function } => format!("function {function} created"),
            FunctionUpdated { function, settings } => format!("function {function}: set {}", settings.join(", ")),
            FunctionDeleted { function } => format!("function {function} deleted"),
            EventSourceMappingCreated { uuid, function, queue } => format!("{uuid}: {queue} → {function}"),
            EventSourceMappingUpdated { uuid, settings } => format!("{uuid}: set {}", settings.join(", ")),
            EventSourceMappingDeleted { uuid } => format!("{uuid} deleted"),
            EventSourceMappingDisabled { uuid, reason } => format!("{uuid} disabled: {reason}"),
            FunctionInvoked { function, invocation, message_ids, .. } => {
                format!("{function} invocation {invocation} with {}", ids(message_ids))
            }
            FunctionReturned { function, invocation, response, deleted, .. } => format!(
                "{function} invocation {invocation} returned {} batch item failures; {deleted} deleted",
                response.batch_item_failures.len()
            ),
            FunctionFailed { function, invocation, error, records_returned, .. } => {
                format!("{function} invocation {invocation} failed ({error}); all {records_returned} records return")
            }
            ProducerCreated { producer, design } => format!("producer {producer} ({design}) started"),
            ProducerFinished { producer, produced } => format!("producer {producer} finished after {produced} events"),
            ProducerStopped { producer, reason } => format!("producer {producer} stopped: {reason}"),
            RequestCompleted { producer, event_id, outcome, failed_at, latency_ms } => match failed_at {
                Some(job) => format!("{producer}: request for {event_id} {outcome} at {job} after {latency_ms}ms"),
                None => format!("{producer}: request for {event_id} {outcome} in {latency_ms}ms"),
            },
            MetricsConfigured { resolution_ms } => format!("metrics every {}", SimTime(*resolution_ms)),
            AlarmPut { alarm } => format!("alarm {alarm} set"),
            AlarmDeleted { alarm } => format!("alarm {alarm} deleted"),
            AlarmStateChanged { alarm, from, to, actions, .. } => {
                let paged =
                    if actions.is_empty() { String::new() } else { format!("; notified {}", actions.join(", ")) };
                format!("alarm {alarm}: {from} → {to}{paged}")
            }
            HttpEndpointCreated { endpoint, url } => format!("HTTP endpoint {endpoint} serves {url}"),
            HttpEndpointUpdated { endpoint, settings } => {
                format!("HTTP endpoint {endpoint}: set {}", settings.join(", "))
            }
            HttpEndpointDeleted { endpoint } => format!("HTTP endpoint {endpoint} deleted"),
            RecipientCreated { recipient, protocol, endpoint } => {
                format!("recipient {recipient} gets {protocol} at {endpoint}")
            }
            RecipientUpdated { recipient, settings } => format!("recipient {recipient}: set {}", settings.join(", ")),
            RecipientDeleted { recipient } => format!("recipient {recipient} deleted"),
            ServiceOutageScheduled { resource, from, until } => {
                format!("{resource} answers SNS and EventBridge with server-side errors from {from} to {until}")
            }
            AsyncInvocationQueued { function, request_id, source } => {
                format!("{request_id} queued for {function} by {source}")
            }
            AsyncInvocationStarted { function, request_id, event_id, attempt } => {
                format!("{function} runs {request_id} ({event_id}), attempt {attempt}")
            }
            AsyncInvocationSucceeded { function, request_id, event_id, attempt } => {
                format!("{function} completed {request_id} ({event_id}) at attempt {attempt}")
            }
            AsyncInvocationFailed { function, request_id, event_id, attempt, error, retry_at } => match retry_at {
                Some(at) => format!(
                    "{function} failed {request_id} ({event_id}), attempt {attempt}: {error}; Lambda retries at {at}"
                ),
                None => {
                    format!("{function} failed {request_id} ({event_id}), attempt {attempt}: {error}; no retries left")
                }
            },
            AsyncRecordSent { function, request_id, to, destination } => {
                format!("{function}: {request_id} sent to {to} {destination}")
            }
            AsyncEventDropped { function, request_id, reason } => format!("{function}: {request_id} dropped: {reason}"),
            OrderServiceCreated { service, design } => format!("order service {service} ({design}) created"),
            OrderSaved { service, order_id, transaction, outbox_row } => match outbox_row {
                Some(row) => {
                    format!("{service}: transaction {transaction} wrote order {order_id} and outbox row {row}")
                }
                None => format!("{service}: transaction {transaction} wrote order {order_id}"),
            },
            OrderServiceCrashArmed { service, point } => format!("{service} will crash {point}"),
            OrderServiceCrashed { service, point, lost_event } => match lost_event {
                Some(e) => format!("{service} crashed {point}: {e} will never be published"),
                None => format!("{service} crashed {point}"),
            },
            OrderServiceRestarted { service } => format!("{service} restarted"),
            OutboxRelayCreated { relay, service } => format!("outbox relay {relay} reads {service}'s outbox"),
            OutboxRowSent { relay, row, event_id, times, .. } => {
                let dup = if *times > 1 { format!(" (published {times} times: a duplicate)") } else { String::new() };
                format!("{relay} published outbox row {row} ({event_id}) and marked it sent{dup}")
            }
            OutboxRelayCrashed { relay, row, event_id } => {
                format!("{relay} crashed after publishing row {row} ({event_id}), before marking it sent")
            }
            OutboxRelayRestarted { relay } => format!("{relay} restarted"),
        }
    }

    pub fn resources(&self) -> Vec<&str> {
        use WorldEvent::*;
        match self {
            WorkerCreated { worker, queue }
            | WorkerCrashed { worker, queue, .. }
            | HeartbeatSent { worker, queue, .. } => {
                vec![worker, queue]
            }
            WorkerUpdated { worker, .. }
            | WorkerPaused { worker }
            | WorkerResumed { worker }
            | WorkerCrashArmed { worker, .. }
            | WorkerRestarted { worker }
            | WorkerStopped { worker, .. }
            | WorkerDeleted { worker, .. } => vec![worker],
            ProcessingFailed { actor, queue, .. } => vec![actor, queue],
            SideEffectPerformed { job, actor, .. }
            | SideEffectSkipped { job, actor, .. }
            | StaleVersionApplied { job, actor, .. } => vec![job, actor],
            DependencyCreated { dependency } | DependencyUpdated { dependency, .. } => vec![dependency],
            DependencyCallFailed { dependency, caller, .. } => vec![dependency, caller],
            FunctionCreated { function } | FunctionUpdated { function, .. } | FunctionDeleted { function } => {
                vec![function]
            }
            EventSourceMappingCreated { uuid, function, queue } => vec![uuid, function, queue],
            EventSourceMappingUpdated { uuid, .. }
            | EventSourceMappingDeleted { uuid }
            | EventSourceMappingDisabled { uuid, .. } => vec![uuid],
            FunctionInvoked { function, uuid, .. }
            | FunctionReturned { function, uuid, .. }
            | FunctionFailed { function, uuid, .. } => vec![function, uuid],
            ProducerCreated { producer, .. }
            | ProducerFinished { producer, .. }
            | ProducerStopped { producer, .. }
            | RequestCompleted { producer, .. } => vec![producer],
            MetricsConfigured { .. } => vec![],
            AlarmPut { alarm } | AlarmDeleted { alarm } | AlarmStateChanged { alarm, .. } => vec![alarm],
            HttpEndpointCreated { endpoint, .. }
            | HttpEndpointUpdated { endpoint, .. }
            | HttpEndpointDeleted { endpoint } => vec![endpoint],
            RecipientCreated { recipient, .. }
            | RecipientUpdated { recipient, .. }
            | RecipientDeleted { recipient } => {
                vec![recipient]
            }
            ServiceOutageScheduled { resource, .. } => vec![resource],
            AsyncInvocationQueued { function, .. }
            | AsyncInvocationStarted { function, .. }
            | AsyncInvocationSucceeded { function, .. }
            | AsyncInvocationFailed { function, .. }
            | AsyncEventDropped { function, .. } => vec![function],
            AsyncRecordSent { function, destination, .. } => vec![function, destination],
            OrderServiceCreated { service, .. }
            | OrderSaved { service, .. }
            | OrderServiceCrashArmed { service, .. }
            | OrderServiceCrashed { service, .. }
            | OrderServiceRestarted { service } => vec![service],
            OutboxRelayCreated { relay, service } | OutboxRowSent { relay, service, .. } => vec![relay, service],
            OutboxRelayCrashed { relay, .. } | OutboxRelayRestarted { relay } => vec![relay],
        }
    }
}
