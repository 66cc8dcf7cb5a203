//! Durations written as durations ("16.4 s", "3 min 20 s"), never as times of day, with integer
//! arithmetic only (the browser build formats no float).

use engine::world::DurationMs;

/// `ms` as a learner reads a duration: "400 ms", "2 s", "16.4 s", "3 min 20 s", "2 h 5 min".
pub fn duration(ms: u64) -> String {
    const MINUTE: u64 = 60_000;
    const HOUR: u64 = 60 * MINUTE;
    if ms < 1_000 {
        return format!("{ms} ms");
    }
    if ms < MINUTE {
        let (s, tenths) = (ms / 1_000, ms % 1_000 / 100);
        return if tenths == 0 { format!("{s} s") } else { format!("{s}.{tenths} s") };
    }
    let (big, small, big_unit, small_unit) = if ms < HOUR {
        (ms / MINUTE, ms % MINUTE / 1_000, "min", "s")
    } else {
        (ms / HOUR, ms % HOUR / MINUTE, "h", "min")
    };
    if small == 0 {
        format!("{big} {big_unit}")
    } else {
        format!("{big} {big_unit} {small} {small_unit}")
    }
}

/// A fixed duration, or a seeded range: "2 s", "200 ms to 2 s".
pub fn span(d: DurationMs) -> String {
    if d.min_ms == d.max_ms {
        duration(d.min_ms)
    } else {
        format!("{} to {}", duration(d.min_ms), duration(d.max_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_durations() {
        let cases = [
            (0, "0 ms"),
            (400, "400 ms"),
            (2_000, "2 s"),
            (16_400, "16.4 s"),
            (16_499, "16.4 s"),
            (60_000, "1 min"),
            (200_000, "3 min 20 s"),
            (3_600_000, "1 h"),
            (7_500_000, "2 h 5 min"),
        ];
        for (ms, text) in cases {
            assert_eq!(duration(ms), text, "{ms} ms");
        }
    }

    #[test]
    fn a_range_names_both_ends() {
        assert_eq!(span(DurationMs::fixed(2_000)), "2 s");
        assert_eq!(span(DurationMs { min_ms: 200, max_ms: 2_000 }), "200 ms to 2 s");
    }
}
