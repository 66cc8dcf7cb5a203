//! Calendar arithmetic for EventBridge: the envelope's `time` (RFC 3339, whole seconds, UTC),
//! timestamps given to the API (RFC 3339 text or epoch seconds), and the calendar fields a
//! `cron(...)` schedule reads. Integer arithmetic only; times are milliseconds since the Unix
//! epoch as `i64` (an event's `Time` may lie before the simulation's start).

use crate::time::{SimTime, DAY, EPOCH_MS, HOUR, MINUTE, SECOND};

const DAY_MS: i64 = DAY as i64;

/// Milliseconds since the Unix epoch of a virtual instant.
pub(crate) fn epoch_ms(t: SimTime) -> i64 {
    i64::try_from(t.epoch_ms()).unwrap_or(i64::MAX)
}

/// The virtual instant of an epoch time, clamped to the simulation's span.
pub(crate) fn sim_time(epoch_ms: i64) -> SimTime {
    SimTime(u64::try_from(epoch_ms.saturating_sub(EPOCH_MS as i64)).unwrap_or(0))
}

pub(crate) use crate::time::civil_from_days;

/// Howard Hinnant's days-from-civil: days since 1970-01-01.
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Days in a month of a year (Gregorian).
pub(crate) fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// Day of the week of a day number, 1 = Sunday … 7 = Saturday (the cron numbering).
pub(crate) fn weekday(days: i64) -> u32 {
    // 1970-01-01 was a Thursday (5 in this numbering).
    ((days + 4).rem_euclid(7) + 1) as u32
}

/// `2026-01-01T00:00:05Z`: the envelope's `time`, whole seconds as EventBridge writes it.
pub(crate) fn rfc3339_seconds(epoch_ms: i64) -> String {
    let days = epoch_ms.div_euclid(DAY_MS);
    let rem = epoch_ms.rem_euclid(DAY_MS) as u64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / HOUR, rem % HOUR / MINUTE, rem % MINUTE / SECOND)
}

fn digits(text: &str, at: usize, len: usize) -> Option<i64> {
    let part = text.get(at..at + len)?;
    part.bytes().all(|b| b.is_ascii_digit()).then(|| part.parse().ok()).flatten()
}

/// Parses RFC 3339 (`2026-01-01T10:00:00Z`, `…T10:00:00.250+02:00`) into epoch milliseconds.
pub(crate) fn parse_rfc3339(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (digits(text, 0, 4)?, digits(text, 5, 2)?, digits(text, 8, 2)?);
    let (h, mi, s) = (digits(text, 11, 2)?, digits(text, 14, 2)?, digits(text, 17, 2)?);
    if !(1..=12).contains(&mo) || d < 1 || d > i64::from(days_in_month(y, mo as u32)) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let mut rest = &text[19..];
    let mut ms = 0;
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        let padded = format!("{:0<3}", &frac[..n.min(3)]);
        ms = padded.parse::<i64>().ok()?;
        rest = &frac[n..];
    }
    let offset_min = match rest {
        "Z" | "z" => 0,
        _ if rest.len() == 6 && matches!(rest.as_bytes()[0], b'+' | b'-') && rest.as_bytes()[3] == b':' => {
            let sign = if rest.starts_with('-') { -1 } else { 1 };
            sign * (digits(rest, 1, 2)? * 60 + digits(rest, 4, 2)?)
        }
        _ => return None,
    };
    let days = days_from_civil(y, mo as u32, d as u32);
    let local = days * DAY_MS + h * HOUR as i64 + mi * MINUTE as i64 + s.min(59) * SECOND as i64 + ms;
    Some(local - offset_min * MINUTE as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_round_trips() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(days_from_civil(2026, 2, 28)), (2026, 2, 28));
        assert_eq!(weekday(0), 5, "1970-01-01 was a Thursday");
        assert_eq!(weekday(days_from_civil(2026, 1, 1)), 5, "2026-01-01 is a Thursday");
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(2100, 2), 28);
    }

    #[test]
    fn rfc3339_reads_and_writes() {
        assert_eq!(rfc3339_seconds(EPOCH_MS as i64 + 5_250), "2026-01-01T00:00:05Z");
        assert_eq!(parse_rfc3339("2026-01-01T00:00:05Z"), Some(EPOCH_MS as i64 + 5_000));
        assert_eq!(parse_rfc3339("2026-01-01T02:00:05.5+02:00"), Some(EPOCH_MS as i64 + 5_500));
        assert_eq!(parse_rfc3339("2017-12-22T18:43:48Z").map(rfc3339_seconds).as_deref(), Some("2017-12-22T18:43:48Z"));
        for bad in ["", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01", "2026-01-01T00:00:00", "x"] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
