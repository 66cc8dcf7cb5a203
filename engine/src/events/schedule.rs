//! Scheduled rules: `rate(value unit)` and `cron(minutes hours day-of-month month day-of-week
//! year)`, as the user guide ("Creating an Amazon EventBridge rule that runs on a schedule")
//! defines them.
//!
//! * rate: "A rate expression starts when you create the scheduled event rule"; "If the value is
//!   equal to 1, then the unit must be singular. If the value is greater than 1, the unit must be
//!   plural"; units minute(s), hour(s), day(s).
//! * cron: six fields in UTC; `, - * /` everywhere, `?` `L` `W` in day-of-month, `?` `L` `#` in
//!   day-of-week (1–7 or SUN–SAT), months 1–12 or JAN–DEC, years 1970–2199; "You can't specify the
//!   Day-of-month and Day-of-week fields in the same cron expression … you must use a ? in the
//!   other"; with `#` only one expression in day-of-week. A range may wrap (`20-2` in hours, the
//!   guide's example).
//!
//! Simplified: a run happens at the start of its minute (AWS: "within that minute, but not on the
//! precise 0th second").

use super::clock::{civil_from_days, days_from_civil, days_in_month, epoch_ms, sim_time, weekday};
use super::validation;
use crate::error::ApiResult;
use crate::time::{SimTime, DAY, HOUR, MINUTE};

#[derive(Clone, Debug)]
pub(crate) struct Schedule {
    pub(crate) text: String,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    /// Every this many milliseconds from the anchor.
    Rate(u64),
    Cron(Box<Cron>),
}

#[derive(Clone, Debug)]
struct Cron {
    minutes: Vec<bool>,
    hours: Vec<bool>,
    months: Vec<bool>,
    years: Vec<bool>,
    days: Days,
}

/// Which days of a month: by day-of-month, or by day-of-week (the other field is `?`).
#[derive(Clone, Debug)]
enum Days {
    OfMonth { set: Vec<bool>, last: bool, weekday_near: Option<u32>, last_weekday: bool },
    OfWeek { set: Vec<bool>, last: Option<u32>, nth: Option<(u32, u32)> },
}

fn invalid(expression: &str, why: &str) -> crate::error::ApiError {
    validation(format!("Parameter ScheduleExpression is not valid: \"{expression}\": {why}."))
}

const MONTHS: [&str; 12] = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const WEEKDAYS: [&str; 7] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

impl Schedule {
    pub(crate) fn parse(text: &str) -> ApiResult<Schedule> {
        let kind = if let Some(inner) = text.strip_prefix("rate(").and_then(|t| t.strip_suffix(')')) {
            Kind::Rate(parse_rate(text, inner)?)
        } else if let Some(inner) = text.strip_prefix("cron(").and_then(|t| t.strip_suffix(')')) {
            Kind::Cron(Box::new(parse_cron(text, inner)?))
        } else {
            return Err(invalid(
                text,
                "use rate(value unit) or cron(minutes hours day-of-month month day-of-week year)",
            ));
        };
        Ok(Schedule { text: text.to_string(), kind })
    }

    /// The first run strictly after `now`; `None` when the schedule never runs again.
    pub(crate) fn next_after(&self, anchor: SimTime, now: SimTime) -> Option<SimTime> {
        match &self.kind {
            Kind::Rate(period) => {
                let elapsed = now.ms().saturating_sub(anchor.ms());
                Some(anchor.plus_ms((elapsed / period + 1).saturating_mul(*period)))
            }
            Kind::Cron(cron) => cron.next_after(now),
        }
    }
}

fn parse_rate(text: &str, inner: &str) -> ApiResult<u64> {
    let mut parts = inner.split(' ');
    let (Some(value), Some(unit), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(invalid(text, "a rate is rate(value unit), e.g. rate(5 minutes)"));
    };
    let value: u64 = value
        .parse()
        .ok()
        .filter(|v| *v > 0 && value.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| invalid(text, "the value must be a positive whole number"))?;
    let (unit_ms, plural) = match unit {
        "minute" => (MINUTE, false),
        "minutes" => (MINUTE, true),
        "hour" => (HOUR, false),
        "hours" => (HOUR, true),
        "day" => (DAY, false),
        "days" => (DAY, true),
        _ => return Err(invalid(text, "the unit is minute(s), hour(s) or day(s)")),
    };
    if plural != (value > 1) {
        return Err(invalid(
            text,
            "the unit is singular for a value of 1 and plural above (rate(1 hour), rate(5 hours))",
        ));
    }
    value.checked_mul(unit_ms).ok_or_else(|| invalid(text, "the rate is too long"))
}

/// A value of a field: a number, or a name (months, weekdays).
fn value(text: &str, min: u32, names: &[&str]) -> Option<u32> {
    if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(text)) {
        return Some(min + i as u32);
    }
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

/// `, - * /` over `min..=max`; a range may wrap around (`20-2`).
fn field(text: &str, min: u32, max: u32, names: &[&str]) -> Option<Vec<bool>> {
    let mut set = vec![false; (max + 1) as usize];
    for item in text.split(',') {
        let (range, step) = match item.split_once('/') {
            Some((r, s)) => (r, value(s, 0, &[]).filter(|s| *s > 0)?),
            None => (item, 1),
        };
        let (from, to) = match range {
            "*" => (min, max),
            _ => match range.split_once('-') {
                Some((a, b)) => (value(a, min, names)?, value(b, min, names)?),
                None => {
                    let v = value(range, min, names)?;
                    (v, if item.contains('/') { max } else { v })
                }
            },
        };
        if !(min..=max).contains(&from) || !(min..=max).contains(&to) {
            return None;
        }
        let span = if to >= from { to - from } else { max - from + 1 + to - min };
        let mut k = 0;
        while k <= span {
            let v = if from + k <= max { from + k } else { from + k - (max - min + 1) };
            set[v as usize] = true;
            k = k.saturating_add(step);
        }
    }
    Some(set)
}

fn parse_cron(text: &str, inner: &str) -> ApiResult<Cron> {
    let fields: Vec<&str> = inner.split_whitespace().collect();
    let [minutes, hours, dom, month, dow, year] = fields[..] else {
        return Err(invalid(
            text,
            "a cron expression has six fields: minutes hours day-of-month month day-of-week year",
        ));
    };
    let bad = |name: &str| invalid(text, &format!("the {name} field is not valid"));
    let days = match (dom, dow) {
        ("?", "?") => return Err(invalid(text, "use ? in exactly one of day-of-month and day-of-week")),
        (_, "?") => day_of_month(dom).ok_or_else(|| bad("day-of-month"))?,
        ("?", _) => day_of_week(dow).ok_or_else(|| bad("day-of-week"))?,
        _ => return Err(invalid(text, "you can't specify both day-of-month and day-of-week: use ? in one of them")),
    };
    Ok(Cron {
        minutes: field(minutes, 0, 59, &[]).ok_or_else(|| bad("minutes"))?,
        hours: field(hours, 0, 23, &[]).ok_or_else(|| bad("hours"))?,
        months: field(month, 1, 12, &MONTHS).ok_or_else(|| bad("month"))?,
        years: field(year, 1970, 2199, &[]).ok_or_else(|| bad("year"))?,
        days,
    })
}

fn day_of_month(text: &str) -> Option<Days> {
    match text {
        "L" => {
            return Some(Days::OfMonth { set: vec![false; 32], last: true, weekday_near: None, last_weekday: false })
        }
        "LW" => {
            return Some(Days::OfMonth { set: vec![false; 32], last: false, weekday_near: None, last_weekday: true })
        }
        _ => {}
    }
    if let Some(day) = text.strip_suffix('W') {
        let day = value(day, 1, &[]).filter(|d| (1..=31).contains(d))?;
        return Some(Days::OfMonth { set: vec![false; 32], last: false, weekday_near: Some(day), last_weekday: false });
    }
    Some(Days::OfMonth { set: field(text, 1, 31, &[])?, last: false, weekday_near: None, last_weekday: false })
}

fn day_of_week(text: &str) -> Option<Days> {
    if let Some((day, n)) = text.split_once('#') {
        let (day, n) = (value(day, 1, &WEEKDAYS)?, value(n, 1, &[])?);
        return ((1..=7).contains(&day) && (1..=5).contains(&n)).then(|| Days::OfWeek {
            set: vec![false; 8],
            last: None,
            nth: Some((day, n)),
        });
    }
    if text == "L" {
        return Some(Days::OfWeek { set: vec![false; 8], last: Some(7), nth: None });
    }
    if let Some(day) = text.strip_suffix('L') {
        let day = value(day, 1, &WEEKDAYS).filter(|d| (1..=7).contains(d))?;
        return Some(Days::OfWeek { set: vec![false; 8], last: Some(day), nth: None });
    }
    Some(Days::OfWeek { set: field(text, 1, 7, &WEEKDAYS)?, last: None, nth: None })
}

/// The weekday (Mon–Fri) nearest to `day` within its month, as `3W` means.
fn nearest_weekday(y: i64, m: u32, day: u32) -> u32 {
    let len = days_in_month(y, m);
    let day = day.min(len);
    match weekday(days_from_civil(y, m, day)) {
        7 if day == 1 => 3,
        7 => day - 1,
        1 if day == len => day - 2,
        1 => day + 1,
        _ => day,
    }
}

impl Days {
    fn contains(&self, y: i64, m: u32, d: u32) -> bool {
        let len = days_in_month(y, m);
        match self {
            Days::OfMonth { set, last, weekday_near, last_weekday } => {
                set[d as usize]
                    || (*last && d == len)
                    || weekday_near.is_some_and(|n| nearest_weekday(y, m, n) == d)
                    || (*last_weekday && nearest_weekday(y, m, len) == d)
            }
            Days::OfWeek { set, last, nth } => {
                let wd = weekday(days_from_civil(y, m, d));
                set[wd as usize]
                    || last.is_some_and(|l| l == wd && d + 7 > len)
                    || nth.is_some_and(|(day, n)| day == wd && (d - 1) / 7 + 1 == n)
            }
        }
    }
}

impl Cron {
    /// The first whole minute strictly after `now` that the expression names.
    fn next_after(&self, now: SimTime) -> Option<SimTime> {
        let minute_ms = MINUTE as i64;
        // 2200-01-01T00:00:00Z: past the last year a cron expression can name.
        const YEAR_2200_MS: i64 = 7_258_118_400_000;
        let now_ms = epoch_ms(now);
        if now_ms >= YEAR_2200_MS {
            return None;
        }
        let start = (now_ms.div_euclid(minute_ms) + 1) * minute_ms;
        let first_day = start.div_euclid(DAY as i64);
        let mut first_minute = (start.rem_euclid(DAY as i64) / minute_ms) as u32;
        // At most 230 years of days to look through (years 1970–2199).
        for day in first_day..first_day + 84_000 {
            let (y, m, d) = civil_from_days(day);
            if y > 2199 {
                return None;
            }
            let year_ok = (1970..=2199).contains(&y) && self.years[y as usize];
            if year_ok && self.months[m as usize] && self.days.contains(y, m, d) {
                for minute_of_day in first_minute..24 * 60 {
                    let (h, mi) = (minute_of_day / 60, minute_of_day % 60);
                    if self.hours[h as usize] && self.minutes[mi as usize] {
                        let at = day * DAY as i64 + i64::from(minute_of_day) * minute_ms;
                        return Some(sim_time(at));
                    }
                }
            }
            first_minute = 0;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::clock::{parse_rfc3339, rfc3339_seconds};

    fn next(expr: &str, after: &str) -> String {
        let s = Schedule::parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
        let now = sim_time(parse_rfc3339(after).unwrap());
        rfc3339_seconds(epoch_ms(s.next_after(now, now).expect("runs again")))
    }

    #[test]
    fn documented_rate_expressions() {
        for ok in ["rate(1 minute)", "rate(5 minutes)", "rate(1 hour)", "rate(1 day)"] {
            assert!(Schedule::parse(ok).is_ok(), "{ok}");
        }
        // "rate(1 hours) and rate(5 hour) aren't valid".
        for bad in ["rate(1 hours)", "rate(5 hour)", "rate(0 minutes)", "rate(5 weeks)", "rate(5)", "every 5 minutes"] {
            assert_eq!(Schedule::parse(bad).unwrap_err().code, "ValidationException", "{bad}");
        }
        let s = Schedule::parse("rate(5 minutes)").unwrap();
        assert_eq!(s.next_after(SimTime(1_000), SimTime(1_000)), Some(SimTime(301_000)), "counts from creation");
        assert_eq!(s.next_after(SimTime(1_000), SimTime(301_000)), Some(SimTime(601_000)));
    }

    #[test]
    fn documented_cron_examples() {
        // The user guide's table and examples; 2026-01-01 is a Thursday.
        assert_eq!(next("cron(0 10 * * ? *)", "2026-01-01T10:00:00Z"), "2026-01-02T10:00:00Z");
        assert_eq!(next("cron(15 12 * * ? *)", "2026-01-01T00:00:00Z"), "2026-01-01T12:15:00Z");
        assert_eq!(next("cron(0 18 ? * MON-FRI *)", "2026-01-02T19:00:00Z"), "2026-01-05T18:00:00Z");
        assert_eq!(next("cron(0 8 1 * ? *)", "2026-01-01T09:00:00Z"), "2026-02-01T08:00:00Z");
        assert_eq!(next("cron(0/15 * * * ? *)", "2026-01-01T00:07:00Z"), "2026-01-01T00:15:00Z");
        assert_eq!(next("cron(0/30 20-2 ? * MON-FRI *)", "2026-01-01T02:30:00Z"), "2026-01-01T20:00:00Z");
        assert_eq!(next("cron(5,35 14 * * ? *)", "2026-01-01T14:05:00Z"), "2026-01-01T14:35:00Z");
        // The guide's "last Friday of each month during the years 2019 to 2022", moved to years the
        // simulation's clock can reach (it starts in 2026): 2026-01-30.
        assert_eq!(next("cron(15 10 ? * 6L 2026-2029)", "2026-01-01T00:00:00Z"), "2026-01-30T10:15:00Z");
        assert!(Schedule::parse("cron(15 10 ? * 6L 2019-2022)").is_ok());
        // "3#2 would be the second Tuesday of the month": 2026-01-13.
        assert_eq!(next("cron(0 0 ? * 3#2 *)", "2026-01-01T00:00:00Z"), "2026-01-13T00:00:00Z");
        // 3W: the weekday nearest the 3rd (2026-01-03 is a Saturday, so Friday the 2nd).
        assert_eq!(next("cron(0 0 3W * ? *)", "2026-01-01T00:00:00Z"), "2026-01-02T00:00:00Z");
        assert_eq!(next("cron(0 0 L * ? *)", "2026-02-01T00:00:00Z"), "2026-02-28T00:00:00Z");
    }

    #[test]
    fn invalid_cron_expressions() {
        for bad in [
            "cron(0 10 * * * *)",
            "cron(0 10 ? * ? *)",
            "cron(0 10 * *)",
            "cron(60 10 * * ? *)",
            "cron(0 24 * * ? *)",
            "cron(0 0 ? * 8 *)",
            "cron(0 0 ? * 3#1,6#3 *)",
            "cron(0 0 * * ? 1969)",
            "cron(0/0 * * * ? *)",
        ] {
            assert!(Schedule::parse(bad).is_err(), "{bad}");
        }
        let past = Schedule::parse("cron(0 0 1 1 ? 2020)").unwrap();
        assert_eq!(past.next_after(SimTime::ZERO, SimTime::ZERO), None, "a year gone by never runs");
    }
}
