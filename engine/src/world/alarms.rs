//! CloudWatch-style metric alarms in the AWS shapes: `PutMetricAlarm`, `DescribeAlarms`,
//! `DeleteAlarms`. Each alarm is evaluated at the end of each of its periods, whatever the
//! resolution of its metric (a period without a datapoint is missing data); a change of state is
//! logged as `AlarmStateChanged` and runs its actions: an SNS topic ARN gets the notification
//! published to it, which is how a dead-letter-queue alarm "pages the owner".
use super::commands::Command;
use super::metrics::{metric_target, Stat};
use super::spec::invalid;
use super::AlarmState;
use super::WorldEvent;
use crate::error::{ApiResult, Service};
use crate::event::{EventKind, Name};
use crate::ids::{ACCOUNT, REGION};
use crate::params::Params;
use crate::sim::Sim;
use crate::time::{SimTime, SECOND};
use serde_json::{json, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comparison {
    GreaterThanOrEqual,
    GreaterThan,
    LessThan,
    LessThanOrEqual,
}

impl Comparison {
    fn parse(text: &str) -> ApiResult<Comparison> {
        Ok(match text {
            "GreaterThanOrEqualToThreshold" => Comparison::GreaterThanOrEqual,
            "GreaterThanThreshold" => Comparison::GreaterThan,
            "LessThanThreshold" => Comparison::LessThan,
            "LessThanOrEqualToThreshold" => Comparison::LessThanOrEqual,
            other => return Err(invalid(format!(
                "ComparisonOperator \"{other}\" is not one of GreaterThanOrEqualToThreshold, GreaterThanThreshold, LessThanThreshold, LessThanOrEqualToThreshold"
            ))),
        })
    }

    fn as_str(self) -> &'static str {
        match self {
            Comparison::GreaterThanOrEqual => "GreaterThanOrEqualToThreshold",
            Comparison::GreaterThan => "GreaterThanThreshold",
            Comparison::LessThan => "LessThanThreshold",
            Comparison::LessThanOrEqual => "LessThanOrEqualToThreshold",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Comparison::GreaterThanOrEqual => "greater than or equal to",
            Comparison::GreaterThan => "greater than",
            Comparison::LessThan => "less than",
            Comparison::LessThanOrEqual => "less than or equal to",
        }
    }

    fn breaches(self, value: f64, threshold: f64) -> bool {
        match self {
            Comparison::GreaterThanOrEqual => value >= threshold,
            Comparison::GreaterThan => value > threshold,
            Comparison::LessThan => value < threshold,
            Comparison::LessThanOrEqual => value <= threshold,
        }
    }
}

/// `TreatMissingData`: what a period without a datapoint counts as (default `missing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TreatMissing {
    Missing,
    NotBreaching,
    Breaching,
    Ignore,
}

#[derive(Clone, Debug)]
pub(crate) struct Alarm {
    pub name: Name,
    pub description: String,
    pub namespace: String,
    pub metric: String,
    pub dimension: Option<(String, String)>,
    pub statistic: Stat,
    pub period_s: u64,
    pub evaluation_periods: u32,
    pub datapoints_to_alarm: u32,
    pub threshold: f64,
    pub comparison: Comparison,
    pub missing: TreatMissing,
    pub actions_enabled: bool,
    pub alarm_actions: Vec<String>,
    pub ok_actions: Vec<String>,
    pub insufficient_data_actions: Vec<String>,
    pub state: AlarmState,
    pub reason: String,
    pub updated_at: SimTime,
}

impl Alarm {
    fn json(&self) -> Value {
        let dims: Vec<Value> = self.dimension.iter().map(|(n, v)| json!({"Name": n, "Value": v})).collect();
        json!({
            "AlarmName": &*self.name,
            "AlarmArn": format!("arn:aws:cloudwatch:{REGION}:{ACCOUNT}:alarm:{}", self.name),
            "AlarmDescription": self.description,
            "ActionsEnabled": self.actions_enabled,
            "AlarmActions": self.alarm_actions,
            "OKActions": self.ok_actions,
            "InsufficientDataActions": self.insufficient_data_actions,
            "StateValue": self.state.as_str(),
            "StateReason": self.reason,
            "StateUpdatedTimestamp": self.updated_at.iso8601(),
            "MetricName": self.metric,
            "Namespace": self.namespace,
            "Statistic": self.statistic.as_str(),
            "Dimensions": dims,
            "Period": self.period_s,
            "EvaluationPeriods": self.evaluation_periods,
            "DatapointsToAlarm": self.datapoints_to_alarm,
            "Threshold": self.threshold,
            "ComparisonOperator": self.comparison.as_str(),
            "TreatMissingData": match self.missing {
                TreatMissing::Missing => "missing",
                TreatMissing::NotBreaching => "notBreaching",
                TreatMissing::Breaching => "breaching",
                TreatMissing::Ignore => "ignore",
            },
        })
    }
}

fn actions(p: &Params, name: &str) -> ApiResult<Vec<String>> {
    let list = p.str_list(name)?;
    if list.len() > 5 {
        return Err(invalid(format!("{name} takes at most 5 actions")));
    }
    for arn in &list {
        if !arn.starts_with("arn:aws:sns:") || crate::ids::topic_name_from(arn).is_none() {
            return Err(invalid(format!(
                "{name}: \"{arn}\" is not an SNS topic ARN; the playground's alarm actions publish to topics (arn:aws:sns:{REGION}:{ACCOUNT}:TOPIC)"
            )));
        }
    }
    Ok(list.into_iter().map(str::to_string).collect())
}

fn threshold(p: &Params) -> ApiResult<f64> {
    let value = p.raw("Threshold").ok_or_else(|| Service::Sim.missing("Threshold"))?;
    let parsed = match value {
        Value::Number(n) => n.as_f64(),
        // A number sent as text is read as a JSON number: the same reader as above, and it keeps
        // core's float parser (and its 17 KB power-of-five table) out of the browser bundle.
        Value::String(s) => serde_json::from_str::<f64>(s.trim()).ok(),
        _ => None,
    };
    parsed.filter(|t| t.is_finite()).ok_or_else(|| invalid("Threshold must be a number, such as 0 or 500"))
}

pub(crate) const PUT_KEYS: &[&str] = &[
    "AlarmName",
    "AlarmDescription",
    "ActionsEnabled",
    "OKActions",
    "AlarmActions",
    "InsufficientDataActions",
    "MetricName",
    "Namespace",
    "Statistic",
    "Dimensions",
    "Period",
    "Unit",
    "EvaluationPeriods",
    "DatapointsToAlarm",
    "Threshold",
    "ComparisonOperator",
    "TreatMissingData",
    "Tags",
];

impl Sim {
    /// `PutMetricAlarm`: creates an alarm (state `INSUFFICIENT_DATA`) or replaces one's settings.
    pub(crate) fn put_metric_alarm(&mut self, p: &Params) -> ApiResult<Value> {
        let name = p.str("AlarmName")?;
        if name.is_empty() || name.len() > 255 {
            return Err(invalid("AlarmName must be 1 to 255 characters"));
        }
        let (namespace, metric, dimension) = metric_target(p)?;
        let statistic = Stat::parse(p.str("Statistic")?)?;
        let period_s = p.opt_int("Period", 1, 604_800)?.ok_or_else(|| Service::Sim.missing("Period"))? as u64;
        // CloudWatch takes 10, 20 or 30 for any metric: "If you specify a period of 10, 20, or 30
        // for a metric that does not have sub-minute resolution, the alarm still attempts to
        // gather data at the period rate that you specify", and often finds none (PutMetricAlarm).
        if !(matches!(period_s, 10 | 20 | 30) || period_s.is_multiple_of(60)) {
            return Err(invalid(format!("Period {period_s} must be 10, 20, 30 or a multiple of 60")));
        }
        let evaluation_periods = p
            .opt_int("EvaluationPeriods", 1, 100_000)?
            .ok_or_else(|| Service::Sim.missing("EvaluationPeriods"))? as u32;
        let limit = if period_s < 3_600 { 86_400 } else { 604_800 };
        if period_s * u64::from(evaluation_periods) > limit {
            return Err(invalid(format!(
                "Period multiplied by EvaluationPeriods must be at most {limit} seconds for this period"
            )));
        }
        let datapoints_to_alarm =
            p.opt_int("DatapointsToAlarm", 1, i64::from(evaluation_periods))?.map_or(evaluation_periods, |n| n as u32);
        let missing = match p.opt_str("TreatMissingData")?.unwrap_or("missing") {
            "missing" => TreatMissing::Missing,
            "notBreaching" => TreatMissing::NotBreaching,
            "breaching" => TreatMissing::Breaching,
            "ignore" => TreatMissing::Ignore,
            other => {
                return Err(invalid(format!(
                    "TreatMissingData \"{other}\" is not one of missing, notBreaching, breaching, ignore"
                )))
            }
        };
        let existing = self.world.alarms.get(name);
        let alarm = Alarm {
            name: name.into(),
            description: p.opt_str("AlarmDescription")?.unwrap_or("").to_string(),
            namespace,
            metric,
            dimension,
            statistic,
            period_s,
            evaluation_periods,
            datapoints_to_alarm,
            threshold: threshold(p)?,
            comparison: Comparison::parse(p.str("ComparisonOperator")?)?,
            missing,
            actions_enabled: p.opt_bool("ActionsEnabled")?.unwrap_or(true),
            alarm_actions: actions(p, "AlarmActions")?,
            ok_actions: actions(p, "OKActions")?,
            insufficient_data_actions: actions(p, "InsufficientDataActions")?,
            state: existing.map_or(AlarmState::InsufficientData, |a| a.state),
            reason: existing.map_or("Unchecked: Initial alarm creation".to_string(), |a| a.reason.clone()),
            updated_at: existing.map_or(self.now, |a| a.updated_at),
        };
        let key = alarm.name.clone();
        self.world.alarms.insert(key.clone(), alarm);
        self.ensure_ticking();
        self.emit(EventKind::World(WorldEvent::AlarmPut { alarm: key }));
        Ok(json!({}))
    }

    pub(crate) fn describe_alarms(&mut self, p: &Params) -> ApiResult<Value> {
        let wanted = p.str_list("AlarmNames")?;
        let prefix = p.opt_str("AlarmNamePrefix")?.unwrap_or("");
        let state = p.opt_str("StateValue")?;
        if let Some(s) = state.filter(|s| !["OK", "ALARM", "INSUFFICIENT_DATA"].contains(s)) {
            return Err(invalid(format!("StateValue \"{s}\" is not one of OK, ALARM, INSUFFICIENT_DATA")));
        }
        let max = p.opt_int("MaxRecords", 1, 100)?.unwrap_or(100) as usize;
        let alarms: Vec<Value> = self
            .world
            .alarms
            .values()
            .filter(|a| wanted.is_empty() || wanted.contains(&&*a.name))
            .filter(|a| a.name.starts_with(prefix))
            .filter(|a| state.is_none_or(|s| a.state.as_str() == s))
            .take(max)
            .map(Alarm::json)
            .collect();
        Ok(json!({ "MetricAlarms": alarms, "CompositeAlarms": [] }))
    }

    pub(crate) fn delete_alarms(&mut self, p: &Params) -> ApiResult<Value> {
        let names = p.str_list("AlarmNames")?;
        if names.is_empty() || names.len() > 100 {
            return Err(invalid("AlarmNames must list 1 to 100 alarm names"));
        }
        if let Some(missing) = names.iter().find(|n| !self.world.alarms.contains_key(**n)) {
            return Err(crate::error::ApiError::new("ResourceNotFound", format!("Alarm not found: {missing}")));
        }
        for n in names {
            if let Some(a) = self.world.alarms.remove(n) {
                self.emit(EventKind::World(WorldEvent::AlarmDeleted { alarm: a.name }));
            }
        }
        Ok(json!({}))
    }

    /// Evaluates every alarm whose period ends now, in name order.
    pub(crate) fn evaluate_alarms(&mut self) {
        let now = self.now;
        let names: Vec<Name> = self.world.alarms.keys().cloned().collect();
        for name in names {
            let Some(alarm) = self.world.alarms.get(&name) else { continue };
            let period = alarm.period_s * SECOND;
            if !now.0.is_multiple_of(period) {
                continue;
            }
            let series = alarm
                .dimension
                .as_ref()
                .and_then(|(dn, dv)| self.world.metrics.find(&alarm.namespace, &alarm.metric, dn, dv));
            let (mut breaching, mut counted, mut values) = (0u32, 0u32, Vec::new());
            for i in 0..u64::from(alarm.evaluation_periods) {
                let until = SimTime(now.0.saturating_sub(i * period));
                let after = SimTime(until.0.saturating_sub(period));
                match series.and_then(|s| s.window(after, until)).map(|d| alarm.statistic.value(&d)) {
                    Some(v) => {
                        counted += 1;
                        values.push(number(v));
                        breaching += u32::from(alarm.comparison.breaches(v, alarm.threshold));
                    }
                    None if alarm.missing == TreatMissing::Breaching => {
                        (counted, breaching) = (counted + 1, breaching + 1)
                    }
                    None if alarm.missing == TreatMissing::NotBreaching => counted += 1,
                    None => {}
                }
            }
            let next = if breaching >= alarm.datapoints_to_alarm {
                AlarmState::Alarm
            } else if counted > 0 {
                AlarmState::Ok
            } else if alarm.missing == TreatMissing::Ignore {
                alarm.state
            } else {
                AlarmState::InsufficientData
            };
            if next == alarm.state {
                continue;
            }
            let reason = if counted == 0 {
                "Insufficient Data: no datapoints were received for the evaluation periods.".to_string()
            } else {
                format!(
                    "Threshold Crossed: {breaching} out of the last {} datapoints [{}] {} {} the threshold ({}).",
                    alarm.evaluation_periods,
                    values.join(", "),
                    if breaching == 1 { "was" } else { "were" },
                    if next == AlarmState::Alarm { alarm.comparison.words() } else { "not" },
                    number(alarm.threshold)
                )
            };
            self.change_alarm_state(&name, next, reason);
        }
    }

    fn change_alarm_state(&mut self, name: &Name, next: AlarmState, reason: String) {
        let now = self.now;
        let Some(alarm) = self.world.alarms.get_mut(name) else { return };
        let from = alarm.state;
        alarm.state = next;
        alarm.reason = reason.clone();
        alarm.updated_at = now;
        let targets = match next {
            _ if !alarm.actions_enabled => Vec::new(),
            AlarmState::Alarm => alarm.alarm_actions.clone(),
            AlarmState::Ok => alarm.ok_actions.clone(),
            AlarmState::InsufficientData => alarm.insufficient_data_actions.clone(),
        };
        let message = json!({
            "AlarmName": &**name,
            "AlarmDescription": alarm.description,
            "NewStateValue": next.as_str(),
            "OldStateValue": from.as_str(),
            "NewStateReason": reason,
            "StateChangeTime": now.iso8601(),
            "Region": REGION,
            "Trigger": {
                "MetricName": alarm.metric,
                "Namespace": alarm.namespace,
                "Statistic": alarm.statistic.as_str(),
                "Period": alarm.period_s,
                "EvaluationPeriods": alarm.evaluation_periods,
                "ComparisonOperator": alarm.comparison.as_str(),
                "Threshold": alarm.threshold,
            },
        })
        .to_string();
        self.emit(EventKind::World(WorldEvent::AlarmStateChanged {
            alarm: name.clone(),
            from: from.as_str(),
            to: next.as_str(),
            reason,
            actions: targets.clone(),
        }));
        let commands = targets
            .into_iter()
            .map(|topic| Command::Publish { topic, message: message.clone(), attributes: Default::default() })
            .collect();
        // A topic deleted since the alarm was made: the notification is lost, as on AWS.
        let _ = self.perform("CloudWatchAlarm", commands);
    }
}

/// A datapoint or threshold as CloudWatch writes it in a state reason: `3.0`, `0.0`, `2.5` (the
/// shortest text that reads back to the same value, always with a decimal point). Values here
/// are finite: thresholds are checked and statistics are sums and counts.
fn number(v: f64) -> String {
    serde_json::Number::from_f64(v).map_or_else(|| "not a number".to_string(), |n| n.to_string())
}
