//! Every action `Sim::apply` understands, in one table: its name, its service, the parameter
//! names it accepts and its handler. `apply`, the "unknown action" message, the CLI and the tests
//! all read this table, so adding an action means adding one entry here.
//!
//! A handler receives its parameters already checked against the entry's names (an unknown
//! name is refused with the service's error before the handler runs).

use crate::error::{ApiResult, Service};
use crate::params::Params;
use crate::sim::Sim;
use crate::world::PUT_KEYS;
use crate::world::{BEHAVIOR_KEYS, DEPENDENCY_KEYS, FUNCTION_KEYS, MAPPING_SETTINGS, POLL_KEYS, PRODUCER_KEYS};
use serde_json::Value;

pub(crate) type Handler = fn(&mut Sim, &Params<'_>) -> ApiResult<Value>;

/// One action of the command language.
pub struct Action {
    /// The action name, exactly as AWS spells it (or the playground's own, in the same style).
    pub name: &'static str,
    /// Which service answers it, and so how its parameter errors are spelled.
    pub service: Service,
    /// The parameter names it accepts.
    pub params: &'static [&'static str],
    pub(crate) handler: Handler,
}

impl std::fmt::Debug for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Action").field("name", &self.name).field("service", &self.service).finish()
    }
}

/// The number of names in `parts` together (for [`names!`]).
pub(crate) const fn total_len(parts: &[&[&'static str]]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// `parts` one after the other, as one array (for [`names!`]).
pub(crate) const fn concat<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut k = 0;
    let mut i = 0;
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// A static list of parameter names made of shorter lists, so that actions sharing names
/// (SendMessage and a batch entry, CreateWorker and UpdateWorker) share one list.
macro_rules! names {
    ($($part:expr),+ $(,)?) => {{
        const PARTS: &[&[&str]] = &[$($part),+];
        const OUT: [&str; $crate::actions::total_len(PARTS)] = $crate::actions::concat(PARTS);
        &OUT
    }};
}
pub(crate) use names;

const fn action(name: &'static str, service: Service, params: &'static [&'static str], handler: Handler) -> Action {
    Action { name, service, params, handler }
}

use Service::Events;
use Service::{Lambda, Sim as Own, Sns, Sqs};

/// The SNS and SQS API, then the playground's own actions (workers, dependencies, Lambda,
/// producers, CloudWatch, simulation settings), then Amazon EventBridge.
pub const ACTIONS: &[Action] = &[
    // Amazon SNS
    action("CreateTopic", Sns, &["Name", "Attributes", "Tags", "DataProtectionPolicy"], Sim::create_topic),
    action("DeleteTopic", Sns, &["TopicArn"], Sim::delete_topic),
    action("ListTopics", Sns, &["NextToken"], Sim::list_topics),
    action("GetTopicAttributes", Sns, &["TopicArn"], Sim::get_topic_attributes),
    action(
        "Subscribe",
        Sns,
        &["TopicArn", "Protocol", "Endpoint", "Attributes", "ReturnSubscriptionArn"],
        Sim::subscribe,
    ),
    action("Unsubscribe", Sns, &["SubscriptionArn"], Sim::unsubscribe),
    action("ListSubscriptions", Sns, &["NextToken"], Sim::list_subscriptions),
    action("ListSubscriptionsByTopic", Sns, &["TopicArn", "NextToken"], Sim::list_subscriptions_by_topic),
    action("GetSubscriptionAttributes", Sns, &["SubscriptionArn"], Sim::get_subscription_attributes),
    action(
        "SetSubscriptionAttributes",
        Sns,
        &["SubscriptionArn", "AttributeName", "AttributeValue"],
        Sim::set_subscription_attributes,
    ),
    action("Publish", Sns, crate::sns::PUBLISH_PARAMS, Sim::publish),
    action("PublishBatch", Sns, &["TopicArn", "PublishBatchRequestEntries"], Sim::publish_batch),
    // Amazon SQS
    action("CreateQueue", Sqs, &["QueueName", "Attributes", "tags"], Sim::create_queue),
    action("DeleteQueue", Sqs, &["QueueUrl"], Sim::delete_queue),
    action("GetQueueUrl", Sqs, &["QueueName", "QueueOwnerAWSAccountId"], Sim::get_queue_url),
    action("ListQueues", Sqs, &["QueueNamePrefix", "MaxResults", "NextToken"], Sim::list_queues),
    action("GetQueueAttributes", Sqs, &["QueueUrl", "AttributeNames"], Sim::get_queue_attributes),
    action("SetQueueAttributes", Sqs, &["QueueUrl", "Attributes"], Sim::set_queue_attributes),
    action(
        "ListDeadLetterSourceQueues",
        Sqs,
        &["QueueUrl", "MaxResults", "NextToken"],
        Sim::list_dead_letter_source_queues,
    ),
    action("SendMessage", Sqs, crate::sqs::SEND_PARAMS, Sim::send_message),
    action("SendMessageBatch", Sqs, &["QueueUrl", "Entries"], Sim::send_message_batch),
    action(
        "ReceiveMessage",
        Sqs,
        &[
            "QueueUrl",
            "AttributeNames",
            "MessageSystemAttributeNames",
            "MessageAttributeNames",
            "MaxNumberOfMessages",
            "VisibilityTimeout",
            "WaitTimeSeconds",
            "ReceiveRequestAttemptId",
        ],
        Sim::receive_message,
    ),
    action("DeleteMessage", Sqs, crate::sqs::DELETE_PARAMS, Sim::delete_message),
    action("DeleteMessageBatch", Sqs, &["QueueUrl", "Entries"], Sim::delete_message_batch),
    action("ChangeMessageVisibility", Sqs, crate::sqs::VISIBILITY_PARAMS, Sim::change_message_visibility),
    action("ChangeMessageVisibilityBatch", Sqs, &["QueueUrl", "Entries"], Sim::change_message_visibility_batch),
    action("PurgeQueue", Sqs, &["QueueUrl"], Sim::purge_queue),
    action(
        "StartMessageMoveTask",
        Sqs,
        &["SourceArn", "DestinationArn", "MaxNumberOfMessagesPerSecond"],
        Sim::start_message_move_task,
    ),
    action("ListMessageMoveTasks", Sqs, &["SourceArn", "MaxResults"], Sim::list_message_move_tasks),
    action("CancelMessageMoveTask", Sqs, &["TaskHandle"], Sim::cancel_message_move_task),
    // The playground's own: the simulated world's settings
    action(
        "ConfigureSimulation",
        Own,
        &["DuplicateDeliveryProbability", "ReorderProbability", "SnsDeliveryLatency", "RequireQueuePolicies"],
        Sim::configure_simulation,
    ),
    // Workers: competing consumers
    action("CreateWorker", Own, names!(&["WorkerName", "QueueUrl"], POLL_KEYS, BEHAVIOR_KEYS), Sim::create_worker),
    action("UpdateWorker", Own, names!(&["WorkerName"], POLL_KEYS, BEHAVIOR_KEYS), Sim::update_worker),
    action("PauseWorker", Own, &["WorkerName"], Sim::pause_worker),
    action("ResumeWorker", Own, &["WorkerName"], Sim::resume_worker),
    action("CrashWorker", Own, &["WorkerName", "When"], Sim::crash_worker),
    action("RestartWorker", Own, &["WorkerName"], Sim::restart_worker),
    action("DeleteWorker", Own, &["WorkerName"], Sim::delete_worker),
    action("DescribeWorker", Own, &["WorkerName"], Sim::describe_worker),
    action("DescribeJob", Own, &["Job", "EventIds"], Sim::describe_job),
    // Downstream dependencies
    action("CreateDependency", Own, DEPENDENCY_KEYS, Sim::create_dependency),
    action("UpdateDependency", Own, DEPENDENCY_KEYS, Sim::update_dependency),
    action("DescribeDependency", Own, &["DependencyName"], Sim::describe_dependency),
    // AWS Lambda
    action("CreateFunction", Lambda, FUNCTION_KEYS, Sim::create_function),
    action("UpdateFunctionConfiguration", Lambda, FUNCTION_KEYS, Sim::update_function_configuration),
    action("DeleteFunction", Lambda, &["FunctionName", "Qualifier"], Sim::delete_function),
    action(
        "CreateEventSourceMapping",
        Lambda,
        names!(&["EventSourceArn"], MAPPING_SETTINGS),
        Sim::create_event_source_mapping,
    ),
    action("UpdateEventSourceMapping", Lambda, names!(&["UUID"], MAPPING_SETTINGS), Sim::update_event_source_mapping),
    action("DeleteEventSourceMapping", Lambda, &["UUID"], Sim::delete_event_source_mapping),
    action("GetEventSourceMapping", Lambda, &["UUID"], Sim::get_event_source_mapping),
    // Producers and the coupled designs
    action("CreateProducer", Own, PRODUCER_KEYS, Sim::create_producer),
    action("StopProducer", Own, &["ProducerName"], Sim::stop_producer),
    action("Produce", Own, &["ProducerName", "Poison"], Sim::produce_one),
    action("DescribeProducer", Own, &["ProducerName"], Sim::describe_producer),
    // Amazon CloudWatch
    action("ConfigureMetrics", Own, &["Resolution"], Sim::configure_metrics),
    // Service outages, for failing deliveries
    action("SimulateServiceOutage", Own, &["ResourceArn", "Duration", "StartAfter"], Sim::simulate_service_outage),
];

/// Reading CloudWatch metrics and alarms on them. The metrics themselves are counted by the
/// world as it runs.
pub const CLOUDWATCH_ACTIONS: &[Action] = &[
    action(
        "GetMetricStatistics",
        Own,
        &["Namespace", "MetricName", "Dimensions", "StartTime", "EndTime", "Period", "Statistics", "Unit"],
        Sim::get_metric_statistics,
    ),
    action("PutMetricAlarm", Own, PUT_KEYS, Sim::put_metric_alarm),
    action(
        "DescribeAlarms",
        Own,
        &["AlarmNames", "AlarmNamePrefix", "StateValue", "MaxRecords", "NextToken", "AlarmTypes"],
        Sim::describe_alarms,
    ),
    action("DeleteAlarms", Own, &["AlarmNames"], Sim::delete_alarms),
];

/// The other routes: simulated HTTP/S endpoints for SNS, e-mail, SMS and push recipients,
/// Lambda's asynchronous invocation with its retries and destinations, and the order service
/// with its outbox.
pub const ROUTE_ACTIONS: &[Action] = &[
    // Where SNS delivers: simulated HTTP/S endpoints
    action("CreateHttpEndpoint", Own, crate::world::HTTP_ENDPOINT_KEYS, Sim::create_http_endpoint),
    action("UpdateHttpEndpoint", Own, crate::world::HTTP_ENDPOINT_KEYS, Sim::update_http_endpoint),
    action("DescribeHttpEndpoint", Own, &["EndpointName"], Sim::describe_http_endpoint),
    action("DeleteHttpEndpoint", Own, &["EndpointName"], Sim::delete_http_endpoint),
    action("CreateRecipient", Own, crate::world::RECIPIENT_KEYS, Sim::create_recipient),
    action("UpdateRecipient", Own, crate::world::RECIPIENT_UPDATE_KEYS, Sim::update_recipient),
    action("DescribeRecipient", Own, &["RecipientName"], Sim::describe_recipient),
    action("DeleteRecipient", Own, &["RecipientName"], Sim::delete_recipient),
    // AWS Lambda: asynchronous invocation, its retries and destinations
    action("Invoke", Lambda, crate::world::INVOKE_KEYS, Sim::invoke_function),
    action(
        "PutFunctionEventInvokeConfig",
        Lambda,
        crate::world::INVOKE_CONFIG_KEYS,
        Sim::put_function_event_invoke_config,
    ),
    action(
        "UpdateFunctionEventInvokeConfig",
        Lambda,
        crate::world::INVOKE_CONFIG_KEYS,
        Sim::update_function_event_invoke_config,
    ),
    action(
        "GetFunctionEventInvokeConfig",
        Lambda,
        &["FunctionName", "Qualifier"],
        Sim::get_function_event_invoke_config,
    ),
    action(
        "DeleteFunctionEventInvokeConfig",
        Lambda,
        &["FunctionName", "Qualifier"],
        Sim::delete_function_event_invoke_config,
    ),
    // Dual write and the transactional outbox: an order service with its own database
    action("CreateOrderService", Own, crate::world::ORDER_SERVICE_KEYS, Sim::create_order_service),
    action("PlaceOrder", Own, &["ServiceName", "OrderId", "Crash"], Sim::place_order),
    action("CrashOrderService", Own, &["ServiceName", "When"], Sim::crash_order_service),
    action("DescribeOrderService", Own, &["ServiceName"], Sim::describe_order_service),
    action("CreateOutboxRelay", Own, crate::world::RELAY_KEYS, Sim::create_outbox_relay),
];

/// Amazon EventBridge's actions: buses, rules, targets, archives and replays.
pub const EVENTBRIDGE_ACTIONS: &[Action] = &[
    action(
        "CreateEventBus",
        Events,
        &["Name", "EventSourceName", "Description", "KmsKeyIdentifier", "DeadLetterConfig", "Tags"],
        Sim::create_event_bus,
    ),
    action("DeleteEventBus", Events, &["Name"], Sim::delete_event_bus),
    action("DescribeEventBus", Events, &["Name"], Sim::describe_event_bus),
    action("ListEventBuses", Events, &["NamePrefix", "NextToken", "Limit"], Sim::list_event_buses),
    action(
        "PutRule",
        Events,
        &["Name", "ScheduleExpression", "EventPattern", "State", "Description", "RoleArn", "Tags", "EventBusName"],
        Sim::put_rule,
    ),
    action("DescribeRule", Events, &["Name", "EventBusName"], Sim::describe_rule),
    action("EnableRule", Events, &["Name", "EventBusName"], Sim::enable_rule),
    action("DisableRule", Events, &["Name", "EventBusName"], Sim::disable_rule),
    action("DeleteRule", Events, &["Name", "EventBusName", "Force"], Sim::delete_rule),
    action("ListRules", Events, &["NamePrefix", "EventBusName", "NextToken", "Limit"], Sim::list_rules),
    action("PutTargets", Events, &["Rule", "EventBusName", "Targets"], Sim::put_targets),
    action("RemoveTargets", Events, &["Rule", "EventBusName", "Ids", "Force"], Sim::remove_targets),
    action("ListTargetsByRule", Events, &["Rule", "EventBusName", "NextToken", "Limit"], Sim::list_targets_by_rule),
    action("PutEvents", Events, &["Entries", "EndpointId"], Sim::put_events),
    action("TestEventPattern", Events, &["EventPattern", "Event"], Sim::test_event_pattern),
    action(
        "CreateArchive",
        Events,
        &["ArchiveName", "EventSourceArn", "Description", "EventPattern", "RetentionDays", "KmsKeyIdentifier"],
        Sim::create_archive,
    ),
    action("DescribeArchive", Events, &["ArchiveName"], Sim::describe_archive),
    action("DeleteArchive", Events, &["ArchiveName"], Sim::delete_archive),
    action(
        "StartReplay",
        Events,
        &["ReplayName", "Description", "EventSourceArn", "EventStartTime", "EventEndTime", "Destination"],
        Sim::start_replay,
    ),
    action("DescribeReplay", Events, &["ReplayName"], Sim::describe_replay),
    action("CancelReplay", Events, &["ReplayName"], Sim::cancel_replay),
];

/// Every action, in table order.
pub fn all() -> impl Iterator<Item = &'static Action> {
    ACTIONS.iter().chain(CLOUDWATCH_ACTIONS).chain(ROUTE_ACTIONS).chain(EVENTBRIDGE_ACTIONS)
}

/// The action of that exact name.
pub fn find(name: &str) -> Option<&'static Action> {
    all().find(|a| a.name == name)
}

/// Whether `name` is one of AWS's own API actions (SNS, SQS, Lambda, CloudWatch's alarms and
/// metrics, EventBridge), not one of the playground's for what it simulates (workers, their
/// downstream services, producers, order services, outages, the simulation's settings).
pub fn is_aws(name: &str) -> bool {
    let aws_service = ACTIONS.iter().chain(ROUTE_ACTIONS).any(|a| a.name == name && a.service != Service::Sim);
    aws_service || CLOUDWATCH_ACTIONS.iter().chain(EVENTBRIDGE_ACTIONS).any(|a| a.name == name)
}

/// Every action name, in table order.
pub fn action_names() -> impl Iterator<Item = &'static str> {
    all().map(|a| a.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aws_actions_are_told_from_the_playgrounds_own() {
        // The AWS call panel lists them apart: a learner must not take UpdateWorker for an AWS
        // API call.
        for aws in ["Publish", "SetQueueAttributes", "PutFunctionEventInvokeConfig", "PutMetricAlarm", "PutTargets"] {
            assert!(is_aws(aws), "{aws}");
        }
        for own in ["CreateWorker", "UpdateWorker", "UpdateDependency", "CreateProducer", "ConfigureMetrics", "nothing"]
        {
            assert!(!is_aws(own), "{own}");
        }
    }

    #[test]
    fn names_are_unique_and_every_entry_names_its_parameters_once() {
        let table: Vec<&Action> = all().collect();
        for (i, a) in table.iter().enumerate() {
            assert!(table[..i].iter().all(|b| b.name != a.name), "{} is listed twice", a.name);
            for (j, p) in a.params.iter().enumerate() {
                assert!(!p.is_empty() && !a.params[..j].contains(p), "{}: parameter {p} empty or twice", a.name);
            }
        }
    }

    #[test]
    fn composed_lists_keep_their_parts_in_order() {
        const LIST: &[&str] = names!(&["a"], &["b", "c"], &[]);
        assert_eq!(LIST, ["a", "b", "c"]);
    }
}
