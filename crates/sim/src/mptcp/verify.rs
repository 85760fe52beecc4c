//! The sender's check of a receiver's MPTCP-SBD decisions (docs/security.md).
//!
//! In MPTCP-SBD the receiver decides which subflows the sender couples, so a receiver that
//! lies ("nothing is shared") makes the sender run uncoupled on a shared bottleneck (S0 §VII
//! leaves this open; RFC 8382 §1 says SBD may only advise coupling). The sender sees the
//! same queues on its own ACK clock: the RTT of a subflow is its one-way delay plus a return
//! path, so RFC 8382's statistics on RTT samples find the same shared bottlenecks where the
//! return paths are not congested. The check runs that detector (S0's parameters with the
//! delay-correlation split, which keeps separate bottlenecks apart: docs/sbd.md) and lets
//! the receiver's decisions only loosen coupling where the sender's own agree: two subflows
//! are coupled when either side puts them in one congested group, or the sender finds one
//! of them not congested. A pair the sender found
//! shared stays coupled until two of its decisions in a row find it apart, so a receiver that
//! flaps between "shared" and "apart" cannot use the sender's occasional wrong decision.
//! Samples whose ACK the receiver may have delayed are left out (`super::ack_delay`).
//!
//! RFC 8382's statistics on RTT miss sharing where the subflows' samples are few and come in
//! bursts (docs/security.md, "What the sender can see"), so the check also runs Rubenstein et
//! al.'s delay comparison test (ToN 2002 §IV, `pathpool_sbd::comparison`) on every pair: a
//! pair whose cross-correlation beat the autocorrelations in more windows than it fell short
//! over one of the sender's decision periods is coupled as well, under the same memory.

use pathpool_sbd::comparison::{compare, Bins, Verdict, BINS_PER_INTERVAL, BIN_NS};
use pathpool_sbd::{FilterParams, FilteredDetector, Rfc8382Detector, SbdParams, CORR_MIN};

use super::ack_delay::DelayedAckFilter;
use super::receiver::{GroupingRecord, SampleThinning};
use super::sender::AckShape;
use crate::time::{to_nanos, Time};

pub(crate) struct Verifier {
    /// The detector and S0's decision filter (no change test here: no restarts).
    sbd: FilteredDetector<Rfc8382Detector>,
    /// The sender's own last two decisions, a group per subflow (0: not congested); None
    /// before the first.
    groups: Option<Vec<u32>>,
    previous: Option<Vec<u32>>,
    /// One sample per subflow per slot, as at the receiver.
    thinning: SampleThinning,
    /// Leaves out the samples that may include the receiver's delayed-ACK wait.
    delayed_acks: DelayedAckFilter,
    /// Each subflow's usable RTT samples in the comparison test's bins, by send time.
    bins: Vec<Bins>,
    /// Per pair (x < y, `pair_index`), the comparison test's verdicts since the last decision:
    /// (shared, apart).
    tally: Vec<(u32, u32)>,
    /// Per pair, whether the comparison test found it shared over the last two decision
    /// periods (the newest first).
    compared: Vec<[bool; 2]>,
    /// The sender's own observations and decisions, for the run's outputs
    /// (sender_observations.csv, sender_decisions.csv): what the check saw beside what the
    /// receiver claimed.
    pub observations: Vec<GroupingRecord>,
    pub decisions: Vec<GroupingRecord>,
}

impl Verifier {
    pub fn new(n: usize, spacing: Time) -> Self {
        let params = SbdParams { corr_split: true, corr_min: CORR_MIN, ..SbdParams::mptcp_sbd() };
        Verifier {
            sbd: FilteredDetector::new(Rfc8382Detector::new(params, n), FilterParams::default()),
            groups: None,
            previous: None,
            thinning: SampleThinning::new(n, spacing),
            delayed_acks: DelayedAckFilter::new(n),
            bins: vec![Bins::default(); n],
            tally: vec![(0, 0); n * n.saturating_sub(1) / 2],
            compared: vec![[false; 2]; n * n.saturating_sub(1) / 2],
            observations: Vec::new(),
            decisions: Vec::new(),
        }
    }

    /// An RTT sample of subflow `sf` at `since_start`, on an ACK of shape `acked`; true when
    /// a new decision was made.
    pub fn on_rtt(&mut self, sf: usize, since_start: Time, rtt: Time, acked: AckShape) -> bool {
        let decided = self.poll(since_start);
        let now_ns = to_nanos(since_start);
        // A sample that may hold the receiver's delayed-ACK wait counts as a packet without
        // one, as a thinned sample does.
        let usable = self.delayed_acks.usable(sf, acked.segments, acked.in_order);
        if usable {
            // Binned by the segment's send time, as the kernel daemon's test (every sample:
            // the bins average them).
            self.bins[sf].add(now_ns.saturating_sub(to_nanos(rtt)) / BIN_NS, (to_nanos(rtt) / 1000) as f64);
        }
        if usable && self.thinning.take(sf, since_start) {
            self.sbd.on_delay(sf, now_ns, to_nanos(rtt) as i64);
        } else {
            self.sbd.on_unsampled(sf, now_ns);
        }
        decided
    }

    /// A segment of subflow `sf` was retransmitted (a loss, as RFC 8382's pkt_loss counts).
    pub fn on_loss(&mut self, sf: usize, since_start: Time) {
        self.sbd.on_loss(sf, to_nanos(since_start));
    }

    fn poll(&mut self, since_start: Time) -> bool {
        let mut decided = false;
        while let Some(step) = self.sbd.poll(to_nanos(since_start)) {
            self.observations.push(GroupingRecord { time: since_start, groups: self.sbd.observation().groups.clone() });
            self.compare_pairs(to_nanos(since_start));
            if step.decided {
                self.close_comparisons();
                let d = self.sbd.decision();
                self.previous = self.groups.replace(d.groups.clone());
                self.decisions.push(GroupingRecord { time: since_start, groups: d.groups.clone() });
                decided = true;
            }
        }
        decided
    }

    /// The comparison test on every pair over the window ending one interval ago (slack for
    /// samples still in flight, as the kernel daemon).
    fn compare_pairs(&mut self, now_ns: u64) {
        let end = (now_ns / BIN_NS).saturating_sub(BINS_PER_INTERVAL);
        let n = self.bins.len();
        for x in 0..n {
            for y in x + 1..n {
                let t = &mut self.tally[pair_index(n, x, y)];
                match compare(&self.bins[x], &self.bins[y], end) {
                    Verdict::Shared => t.0 += 1,
                    Verdict::Apart => t.1 += 1,
                    Verdict::NoEvidence => {}
                }
            }
        }
    }

    fn close_comparisons(&mut self) {
        for (t, c) in self.tally.iter_mut().zip(&mut self.compared) {
            *c = [t.0 > t.1, c[0]];
            *t = (0, 0);
        }
    }

    /// Must subflows `x` and `y` stay coupled by one of the sender's last two decisions? Only
    /// two subflows the sender found congested in different groups may run apart. One it found
    /// not congested is coupled with every other, as S0's sender couples a subflow the
    /// receiver reports not congested (group 99; [S0] §III-B, K-SBD's coupling set,
    /// algorithms.md §7.5): it may join a group at any time. Without this a receiver could
    /// split whatever the sender's detector does not see congested (a short or RED queue,
    /// whose skew reads positive), where an honest receiver's "not congested" couples.
    pub fn shared(&self, x: usize, y: usize) -> bool {
        let shared_in = |d: &Option<Vec<u32>>| d.as_ref().is_some_and(|g| g[x] == 0 || g[y] == 0 || g[x] == g[y]);
        let compared = x != y && self.compared[pair_index(self.bins.len(), x.min(y), x.max(y))].contains(&true);
        shared_in(&self.groups) || shared_in(&self.previous) || compared
    }
}

/// The index of pair (x, y), x < y, among the n(n-1)/2 pairs of n subflows.
fn pair_index(n: usize, x: usize, y: usize) -> usize {
    x * (2 * n - x - 1) / 2 + (y - x - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = crate::time::PS_PER_MS;

    /// Two subflows' RTTs every 2 ms for 30 s: a 1 s queue sawtooth (subflow 1's `lag` later)
    /// plus each subflow's own noise; whether the comparison test coupled the pair.
    fn compared_after(lag: Time) -> bool {
        let mut v = Verifier::new(2, 5 * MS);
        let queue = |t: Time| 40 * MS + t % (1000 * MS) / 100;
        let mut seed = 1u64;
        let mut noise = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % (2 * MS)
        };
        let ack = AckShape { segments: 1, in_order: false };
        for k in 1..15_000 {
            let t = k * 2 * MS;
            v.on_rtt(0, t, queue(t) + noise(), ack);
            v.on_rtt(1, t, queue(t + lag) + noise(), ack);
        }
        v.compared[0].contains(&true)
    }

    #[test]
    fn the_comparison_test_couples_one_queue_and_not_two_alike_ones() {
        assert!(compared_after(0), "one queue under both subflows");
        assert!(!compared_after(75 * MS), "the same sawtooth 75 ms apart: two queues");
    }
}
