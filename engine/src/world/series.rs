//! One metric's datapoints in virtual time, oldest first, kept as runs: periods in a row with the
//! same datapoint are one entry, so a metric that does not change while the world idles (an empty
//! queue's gauges, a counter at 0) costs one entry for the whole stretch rather than one per
//! period. Runs sit in shared chunks so that a checkpoint's clone is cheap. Older datapoints fall
//! off past `MAX_POINTS` per series exactly as when each was stored on its own.

use super::metrics::{Datapoint, Kind};
use crate::time::SimTime;
use std::sync::Arc;

const CHUNK: usize = 256;
/// Older datapoints fall off past this many per series (two weeks at the default resolution).
const MAX_POINTS: u64 = 20_480;

/// A datapoint and the end of its period.
pub(crate) type Point = (SimTime, Datapoint);

/// `count` periods with one datapoint, the first ending at `end`, each `step` ms after the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    end: SimTime,
    step: u64,
    count: u64,
    d: Datapoint,
}

impl Run {
    fn point(&self, i: u64) -> Point {
        (SimTime(self.end.0 + self.step * i), self.d)
    }

    /// Whether `p` continues the run: the same datapoint, one step after its last period (any
    /// later period when the run has one point so far).
    fn extends(&self, p: &Point) -> bool {
        let last = self.end.0 + self.step * (self.count - 1);
        p.1 == self.d && p.0 .0 > last && (self.count == 1 || p.0 .0 - last == self.step)
    }
}

/// How many of the first `stored` datapoints are kept: the datapoints were kept in chunks of
/// `CHUNK`, and the oldest chunk fell off whenever more than `MAX_POINTS` were in full chunks.
fn kept(stored: u64) -> u64 {
    let (full, rest) = (stored / CHUNK as u64, stored % CHUNK as u64);
    full.min(MAX_POINTS / CHUNK as u64) * CHUNK as u64 + rest
}

#[derive(Clone, Debug)]
pub(crate) struct Series {
    pub kind: Kind,
    chunks: Vec<Arc<Vec<Run>>>,
    tail: Vec<Run>,
    /// Datapoints stored so far, and how many of them fell off the front: the first `front` runs
    /// (of the first chunk; with no chunk, fallen-off runs are removed from `tail`) and the
    /// first `skip` datapoints of the run after them.
    stored: u64,
    dropped: u64,
    front: usize,
    skip: u64,
    /// The current period's value, until the period closes (`Metrics::flush`).
    pub(crate) pending: Option<Datapoint>,
}

impl Series {
    pub(crate) fn new(kind: Kind) -> Series {
        Series { kind, chunks: Vec::new(), tail: Vec::new(), stored: 0, dropped: 0, front: 0, skip: 0, pending: None }
    }

    pub(crate) fn push(&mut self, p: Point) {
        match self.tail.last_mut() {
            Some(run) if run.extends(&p) => {
                if run.count == 1 {
                    run.step = p.0 .0 - run.end.0;
                }
                run.count += 1;
            }
            _ => {
                if self.tail.len() == CHUNK {
                    self.chunks.push(Arc::new(std::mem::take(&mut self.tail)));
                }
                self.tail.push(Run { end: p.0, step: 0, count: 1, d: p.1 });
            }
        }
        self.stored += 1;
        let falls_off = self.stored - kept(self.stored) - self.dropped;
        self.drop_front(falls_off);
    }

    /// Lets the oldest `n` datapoints fall off.
    fn drop_front(&mut self, mut n: u64) {
        self.dropped += n;
        while n > 0 {
            let first = match self.chunks.first() {
                Some(chunk) => chunk[self.front],
                None => self.tail[0],
            };
            let left = first.count - self.skip;
            if n < left {
                self.skip += n;
                return;
            }
            n -= left;
            self.skip = 0;
            match self.chunks.first() {
                Some(chunk) if self.front + 1 < chunk.len() => self.front += 1,
                Some(_) => {
                    self.chunks.remove(0);
                    self.front = 0;
                }
                None => {
                    self.tail.remove(0);
                }
            }
        }
    }

    /// The runs still (partly) kept, oldest first.
    fn runs(&self) -> impl DoubleEndedIterator<Item = &Run> + Clone {
        let (first, rest): (&[Run], &[Arc<Vec<Run>>]) = match self.chunks.split_first() {
            Some((first, rest)) => (&first[self.front..], rest),
            None => (&[], &[]),
        };
        first.iter().chain(rest.iter().flat_map(|c| c.iter())).chain(self.tail.iter())
    }

    /// The datapoints, oldest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.runs().enumerate().flat_map(move |(i, r)| {
            let first = if i == 0 { self.skip } else { 0 };
            (first..r.count).map(move |k| r.point(k))
        })
    }

    /// The datapoints, newest first.
    pub(crate) fn iter_rev(&self) -> impl Iterator<Item = Point> + '_ {
        let live = self.runs().count();
        self.runs().rev().enumerate().flat_map(move |(i, r)| {
            let first = if i + 1 == live { self.skip } else { 0 };
            (first..r.count).rev().map(move |k| r.point(k))
        })
    }

    /// The datapoints whose period ends in `(after, until]`, merged; `None` when there are none.
    pub fn window(&self, after: SimTime, until: SimTime) -> Option<Datapoint> {
        let mut out: Option<Datapoint> = None;
        for (end, d) in self.iter_rev().take_while(|(end, _)| *end > after) {
            if end <= until {
                out.get_or_insert_with(Datapoint::default).merge(&d);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Pcg32;

    /// The series as it was kept before runs: each datapoint on its own, in chunks of 256, the
    /// oldest chunk falling off past 20,480 datapoints in full chunks.
    #[derive(Default)]
    struct OneByOne {
        chunks: Vec<Vec<Point>>,
        tail: Vec<Point>,
    }

    impl OneByOne {
        fn push(&mut self, p: Point) {
            self.tail.push(p);
            if self.tail.len() == CHUNK {
                self.chunks.push(std::mem::take(&mut self.tail));
                if self.chunks.len() * CHUNK > MAX_POINTS as usize {
                    self.chunks.remove(0);
                }
            }
        }

        fn points(&self) -> Vec<Point> {
            self.chunks.iter().flatten().chain(&self.tail).copied().collect()
        }
    }

    #[test]
    fn runs_keep_exactly_the_datapoints_kept_one_by_one() {
        // Idle stretches (one value for hundreds of periods), busy ones (a new value each
        // period), gaps (a sampled metric with no observation) and more than MAX_POINTS in all.
        for seed in 1..=6 {
            let mut rng = Pcg32::new(seed);
            let (mut runs, mut reference) = (Series::new(Kind::Gauge), OneByOne::default());
            let mut end = 0u64;
            let mut value = 0u64;
            for _ in 0..60_000 {
                // Even seeds: busy, with gaps; odd seeds: idle stretches, one period after another.
                end += 60_000 * (1 + u64::from(seed % 2 == 0 && rng.below(10) == 0));
                if rng.below(if seed % 2 == 0 { 3 } else { 300 }) == 0 {
                    value = u64::from(rng.below(4));
                }
                let p = (SimTime(end), Datapoint::one(value));
                runs.push(p);
                reference.push(p);
            }
            let kept = reference.points();
            assert_eq!(runs.iter().collect::<Vec<_>>(), kept, "seed {seed}");
            assert_eq!(runs.iter_rev().collect::<Vec<_>>(), kept.iter().rev().copied().collect::<Vec<_>>());
            for _ in 0..50 {
                let after = SimTime(u64::from(rng.below(u32::MAX)) % (end + 1));
                let until = SimTime(after.0 + u64::from(rng.below(1_000_000_000)));
                let mut want: Option<Datapoint> = None;
                for (_, d) in kept.iter().filter(|(e, _)| *e > after && *e <= until) {
                    want.get_or_insert_with(Datapoint::default).merge(d);
                }
                assert_eq!(runs.window(after, until), want, "seed {seed}: ({after}, {until}]");
            }
            if seed % 2 == 1 {
                assert!(runs.runs().count() < 1_000, "seed {seed}: {} runs", runs.runs().count());
            }
        }
    }

    #[test]
    fn an_unchanging_metric_keeps_one_run_for_a_month() {
        let mut s = Series::new(Kind::Counter);
        for i in 1..=43_200u64 {
            s.push((SimTime(i * 60_000), Datapoint::one(0)));
        }
        assert_eq!(s.runs().count(), 1);
        assert_eq!(s.iter().count() as u64, kept(43_200));
        assert_eq!(s.iter().next().map(|p| p.0), Some(SimTime((43_200 - kept(43_200) + 1) * 60_000)));
    }
}
