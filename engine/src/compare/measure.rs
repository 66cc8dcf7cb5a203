//! What the difference table shows, read from one design's simulation: per order, which jobs
//! ran and how often; per design, checkout latency (p50, p95), checkout availability, half-done
//! orders, duplicate side effects, messages in dead-letter queues and the age of the oldest
//! message. Integer maths only, so every platform shows the same numbers.
//!
//! An order is *in progress* while its design still holds it: a message about it waits or is
//! being worked in a (non-dead-letter) queue, or checkout's calls for it have not ended. Only a
//! settled order counts as half done, so a design that is merely slower does not look worse
//! mid-run.

use super::{CHECKOUT, JOBS};
use crate::event::EventKind;
use crate::world::WorldEvent;
use crate::Sim;

/// One order in one design: how many times each of [`JOBS`] did its side effect for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRow {
    pub order_id: u64,
    pub event_id: String,
    pub jobs: [u32; 3],
    /// The design still holds it (see the module's doc).
    pub in_progress: bool,
}

impl OrderRow {
    /// The cell's text: each job that ran, with its count when more than once
    /// ("billing ×2, packing ×2, sms"); "none" when no job has run.
    pub fn text(&self) -> String {
        let parts: Vec<String> = JOBS
            .iter()
            .zip(self.jobs)
            .filter(|(_, n)| *n > 0)
            .map(|(job, n)| if n == 1 { job.to_string() } else { format!("{job} ×{n}") })
            .collect();
        let done = if parts.is_empty() { "none".to_string() } else { parts.join(", ") };
        if self.in_progress {
            format!("{done} (in progress)")
        } else {
            done
        }
    }

    /// Settled with some of the jobs done, not all.
    pub fn half_done(&self) -> bool {
        let done = self.jobs.iter().filter(|n| **n > 0).count();
        !self.in_progress && done > 0 && done < JOBS.len()
    }
}

/// One design's measures now.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Measures {
    /// Orders placed (checkouts started).
    pub checkouts: u64,
    /// Checkouts answered so far (a direct-calls checkout answers when its calls end).
    pub answered: u64,
    /// Of those, the ones that succeeded.
    pub succeeded: u64,
    /// Checkout latency, nearest-rank percentiles of the answered checkouts, in ms.
    pub latency_p50_ms: u64,
    pub latency_p95_ms: u64,
    /// Settled orders with some of the three jobs done, not all.
    pub half_done: u64,
    /// Orders the design still holds.
    pub in_progress: u64,
    /// Side effects done again for an order (a second charge, a second SMS).
    pub duplicates: u64,
    /// Messages waiting in dead-letter queues.
    pub dlq_messages: u64,
    /// The oldest message waiting in a (non-dead-letter) queue, in ms.
    pub oldest_age_ms: u64,
    pub orders: Vec<OrderRow>,
}

impl Measures {
    /// Availability in parts per million of the answered checkouts; `None` before the first.
    pub fn availability_ppm(&self) -> Option<u64> {
        (self.answered > 0).then(|| self.succeeded * 1_000_000 / self.answered)
    }

    /// "99.50%" (rounded down), or "—" before the first answer.
    pub fn availability_text(&self) -> String {
        match self.availability_ppm() {
            Some(ppm) => format!("{}.{:02}%", ppm / 10_000, ppm % 10_000 / 100),
            None => "—".into(),
        }
    }
}

/// The nearest-rank percentile (`per_mille` of 1000) of sorted values; 0 for none.
pub fn percentile(sorted: &[u64], per_mille: u64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (sorted.len() as u64 * per_mille).div_ceil(1000).max(1);
    sorted[(rank - 1) as usize]
}

/// Whether `body` (an event, or an SNS envelope around one) names `event_id` whole: "evt-44"
/// is not named by "evt-4401".
fn names(body: &str, event_id: &str) -> bool {
    body.match_indices(event_id).any(|(i, _)| matches!(body.as_bytes().get(i + event_id.len()), Some(b'"' | b'\\')))
}

/// Measures `sim`, a design built from a compare scenario (its producer is `checkout`).
pub fn measure(sim: &Sim) -> Measures {
    let mut m = Measures::default();
    let Some(pr) = sim.world.producers.get(CHECKOUT) else { return m };
    // A checkout that makes calls (the chain, or a payment before the publish) answers when
    // they end; one that only publishes or sends answers at once.
    let chain = pr.design.name() == "Chain" || pr.calls.is_some();
    m.checkouts = pr.stats.produced;
    let mut latencies: Vec<u64> = if chain {
        m.answered = pr.stats.succeeded + pr.stats.failed;
        m.succeeded = pr.stats.succeeded;
        sim.events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::World(WorldEvent::RequestCompleted { producer, latency_ms, .. })
                    if &**producer == CHECKOUT =>
                {
                    Some(*latency_ms)
                }
                _ => None,
            })
            .collect()
    } else {
        // The publish or send is the whole checkout: accepted at once, in the same instant (the
        // playground gives it no time, having no documented figure for it).
        m.answered = pr.stats.accepted + pr.stats.rejected;
        m.succeeded = pr.stats.accepted;
        vec![0; pr.stats.accepted as usize]
    };
    crate::vecmap::sort(&mut latencies);
    m.latency_p50_ms = percentile(&latencies, 500);
    m.latency_p95_ms = percentile(&latencies, 950);
    let ledgers: Vec<_> = JOBS.iter().map(|j| sim.world.ledger.get(*j)).collect();
    let snapshot = sim.snapshot_limited(0);
    // What the design still holds: the bodies in its (non-dead-letter) queues, and the
    // checkouts whose calls have ended.
    let dead_letter = |name: &str| snapshot.queues.iter().any(|q| q.name == name && !q.dead_letter_sources.is_empty());
    let held: Vec<&str> = sim
        .queues
        .values()
        .filter(|q| !dead_letter(&q.name))
        .flat_map(|q| q.messages.values().map(|m| &*m.body))
        .collect();
    let answered: Vec<&str> = if chain {
        sim.events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::World(WorldEvent::RequestCompleted { producer, event_id, .. })
                    if &**producer == CHECKOUT =>
                {
                    Some(&**event_id)
                }
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    m.duplicates = ledgers.iter().flatten().map(|l| l.duplicates).sum();
    m.orders = (0..pr.stats.produced)
        .map(|i| {
            let order_id = pr.first_order + i;
            let event_id = format!("evt-{order_id}");
            let mut jobs = [0; 3];
            for (n, l) in jobs.iter_mut().zip(&ledgers) {
                *n = l.map_or(0, |l| l.counts.get(&event_id));
            }
            let in_progress =
                (chain && !answered.contains(&event_id.as_str())) || held.iter().any(|b| names(b, &event_id));
            OrderRow { order_id, event_id, jobs, in_progress }
        })
        .collect();
    m.half_done = m.orders.iter().filter(|o| o.half_done()).count() as u64;
    m.in_progress = m.orders.iter().filter(|o| o.in_progress).count() as u64;
    for q in &snapshot.queues {
        if q.dead_letter_sources.is_empty() {
            m.oldest_age_ms = m.oldest_age_ms.max(q.oldest_age_ms);
        } else {
            m.dlq_messages += (q.visible + q.in_flight + q.delayed) as u64;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!((percentile(&v, 500), percentile(&v, 950)), (50, 95));
        assert_eq!(percentile(&[700], 950), 700);
        assert_eq!(percentile(&[], 500), 0);
    }

    #[test]
    fn a_cell_names_each_job_and_counts_repeats() {
        let row = |jobs| OrderRow { order_id: 1, event_id: "evt-1".into(), jobs, in_progress: false };
        assert_eq!(row([2, 2, 1]).text(), "billing ×2, packing ×2, sms");
        assert_eq!(row([0, 1, 0]).text(), "packing");
        assert_eq!(row([0, 0, 0]).text(), "none");
        assert!(row([1, 1, 0]).half_done() && !row([1, 1, 1]).half_done() && !row([0, 0, 0]).half_done());
        let going = OrderRow { in_progress: true, ..row([1, 1, 0]) };
        assert!(!going.half_done(), "an order still held is not half done yet");
        assert_eq!(going.text(), "billing, packing (in progress)");
    }

    #[test]
    fn a_body_names_an_event_id_whole() {
        assert!(names(r#"{"event_id":"evt-4401","order_id":4401}"#, "evt-4401"));
        assert!(names(r#"{"Message":"{\"event_id\":\"evt-4401\"}"}"#, "evt-4401"), "inside an envelope");
        assert!(!names(r#"{"event_id":"evt-44010"}"#, "evt-4401"));
    }
}
