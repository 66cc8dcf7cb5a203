//! Virtual time: milliseconds since the start of a run. The engine never reads a wall clock.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A point in virtual time, in milliseconds since the simulation started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SimTime(pub u64);

/// Virtual time 0 is this moment of the calendar, so that AWS timestamps
/// (`SentTimestamp`, the envelope's `Timestamp`) look like real ones: 2026-01-01T00:00:00Z.
pub const EPOCH_MS: u64 = 1_767_225_600_000;

pub const SECOND: u64 = 1_000;
pub const MINUTE: u64 = 60 * SECOND;
pub const HOUR: u64 = 60 * MINUTE;
pub const DAY: u64 = 24 * HOUR;

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);

    pub fn ms(self) -> u64 {
        self.0
    }

    pub fn plus_ms(self, ms: u64) -> SimTime {
        SimTime(self.0.saturating_add(ms))
    }

    pub fn plus_secs(self, secs: u64) -> SimTime {
        self.plus_ms(secs.saturating_mul(SECOND))
    }

    /// Milliseconds since the Unix epoch, as AWS reports timestamps.
    pub fn epoch_ms(self) -> u64 {
        EPOCH_MS.saturating_add(self.0)
    }

    /// ISO 8601 with milliseconds, as in the SNS envelope: `2026-01-01T00:00:01.500Z`.
    pub fn iso8601(self) -> String {
        let ms = self.epoch_ms();
        let days = (ms / DAY) as i64;
        let rem = ms % DAY;
        let (y, m, d) = civil_from_days(days);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
            rem / HOUR,
            rem % HOUR / MINUTE,
            rem % MINUTE / SECOND,
            rem % SECOND
        )
    }
}

/// Howard Hinnant's days-to-civil algorithm, integer arithmetic only: (year, month 1–12, day 1–31).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `00:01:05.250`, or `2d 03:00:00.000` past a day: the clock a learner reads.
impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.0;
        if t >= DAY {
            write!(f, "{}d ", t / DAY)?;
        }
        write!(f, "{:02}:{:02}:{:02}.{:03}", t % DAY / HOUR, t % HOUR / MINUTE, t % MINUTE / SECOND, t % SECOND)
    }
}

/// The furthest virtual time a scenario may take the clock to: 30 days. A queue keeps a message
/// 14 days at most, so a month covers every lifetime the engine models; a share link stops there
/// too. Idle time costs little, but not nothing (each idle long-polling worker polls every 20 s),
/// so a step may not ask for years of it.
pub const HORIZON: SimTime = SimTime(30 * DAY);

/// Where advancing by `ms` from `now` takes the clock, or, past [`HORIZON`], what is wrong and what
/// to change. The check a scenario's `advance` steps pass when the file is read; a page that lets
/// a learner move the clock can ask it too.
pub fn advance_within_horizon(now: SimTime, ms: u64) -> Result<SimTime, String> {
    match now.0.checked_add(ms) {
        Some(t) if t <= HORIZON.0 => Ok(SimTime(t)),
        end => Err(format!(
            "this advance would take the clock to {}, past the {} days of virtual time a scenario may cover (a queue keeps a message 14 days at most); advance at most {}",
            end.map_or_else(|| "beyond the end of time".to_string(), |t| SimTime(t).to_string()),
            HORIZON.0 / DAY,
            Remaining(HORIZON.0.saturating_sub(now.0)),
        )),
    }
}

/// A duration as a learner writes one: `29d 23h 59m 59.5s`, `20s`, `0ms`.
struct Remaining(u64);

/// `ms` as a learner reads a duration: `2m`, `1d 6h`, `1.5s`, `0ms`.
pub fn format_duration(ms: u64) -> String {
    Remaining(ms).to_string()
}

impl fmt::Display for Remaining {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0;
        let parts = [(ms / DAY, "d"), (ms % DAY / HOUR, "h"), (ms % HOUR / MINUTE, "m")];
        let mut written = false;
        for (n, unit) in parts.into_iter().filter(|(n, _)| *n > 0) {
            write!(f, "{}{n}{unit}", if written { " " } else { "" })?;
            written = true;
        }
        let (s, rest) = (ms % MINUTE / SECOND, ms % SECOND);
        let sep = if written { " " } else { "" };
        match (s, rest) {
            (0, 0) if written => Ok(()),
            (0, 0) => f.write_str("0ms"),
            (s, 0) => write!(f, "{sep}{s}s"),
            (0, rest) => write!(f, "{sep}{rest}ms"),
            (s, rest) => write!(f, "{sep}{s}.{}s", format!("{rest:03}").trim_end_matches('0')),
        }
    }
}

/// Parses a duration such as `250ms`, `1.5s`, `2m`, `1h` or `4d` into milliseconds.
/// The result must be a whole number of milliseconds; no floating point is involved.
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let unit_ms: u64 = match unit.trim() {
        "ms" => 1,
        "s" => SECOND,
        "m" => MINUTE,
        "h" => HOUR,
        "d" => DAY,
        "" => return Err(format!("duration \"{text}\" has no unit (use ms, s, m, h or d)")),
        other => return Err(format!("duration \"{text}\" has an unknown unit \"{other}\" (use ms, s, m, h or d)")),
    };
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && frac.is_empty() || frac.contains('.') || frac.len() > 9 || whole.len() > 12 {
        return Err(format!("duration \"{text}\" is not a number followed by a unit"));
    }
    let whole: u64 =
        if whole.is_empty() { 0 } else { whole.parse().map_err(|_| format!("duration \"{text}\" is not a number"))? };
    let mut scale: u64 = 1;
    let mut frac_value: u64 = 0;
    for c in frac.chars() {
        scale *= 10;
        frac_value = frac_value * 10 + u64::from(c as u8 - b'0');
    }
    let frac_ms = frac_value.checked_mul(unit_ms).ok_or_else(|| format!("duration \"{text}\" is too long"))?;
    if frac_ms % scale != 0 {
        return Err(format!("duration \"{text}\" is not a whole number of milliseconds"));
    }
    whole
        .checked_mul(unit_ms)
        .and_then(|w| w.checked_add(frac_ms / scale))
        .ok_or_else(|| format!("duration \"{text}\" is too long"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_exactly() {
        assert_eq!(parse_duration("1.5s"), Ok(1500));
        assert_eq!(parse_duration("250ms"), Ok(250));
        assert_eq!(parse_duration("2m"), Ok(120_000));
        assert_eq!(parse_duration("1.5m"), Ok(90_000));
        assert_eq!(parse_duration("4d"), Ok(4 * DAY));
        assert_eq!(parse_duration(".5s"), Ok(500));
        assert!(parse_duration("0.0001s").unwrap_err().contains("whole number of milliseconds"));
        assert!(parse_duration("5").unwrap_err().contains("no unit"));
        assert!(parse_duration("5 weeks").unwrap_err().contains("unknown unit"));
        assert!(parse_duration("s").is_err());
        assert!(parse_duration("1.2.3s").is_err());
        assert!(parse_duration("99999999999999999999d").is_err());
    }

    #[test]
    fn an_advance_may_reach_the_horizon_and_no_further() {
        assert_eq!(advance_within_horizon(SimTime::ZERO, 30 * DAY), Ok(HORIZON));
        assert_eq!(advance_within_horizon(SimTime(DAY), 29 * DAY), Ok(HORIZON));
        let e = advance_within_horizon(SimTime(DAY + 1_500), 29 * DAY).unwrap_err();
        assert!(e.contains("to 30d 00:00:01.500, past the 30 days"), "{e}");
        assert!(e.ends_with("advance at most 28d 23h 59m 58.5s"), "{e}");
        let e = advance_within_horizon(HORIZON, 1).unwrap_err();
        assert!(e.ends_with("advance at most 0ms"), "{e}");
        assert!(advance_within_horizon(SimTime(5), u64::MAX).unwrap_err().contains("beyond the end of time"));
        assert_eq!(Remaining(20 * SECOND).to_string(), "20s");
        assert_eq!(Remaining(HOUR + 250).to_string(), "1h 250ms");
    }

    #[test]
    fn clock_and_calendar_render() {
        assert_eq!(SimTime(65_250).to_string(), "00:01:05.250");
        assert_eq!(SimTime(2 * DAY + 3 * HOUR).to_string(), "2d 03:00:00.000");
        assert_eq!(SimTime(0).iso8601(), "2026-01-01T00:00:00.000Z");
        assert_eq!(SimTime(59 * DAY + 1_500).iso8601(), "2026-03-01T00:00:01.500Z");
    }
}
