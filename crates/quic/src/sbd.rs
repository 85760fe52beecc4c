//! Shared bottleneck detection on a QUIC sender: every path's RTT samples (taken from the
//! congestion controller's ACK callbacks) and losses feed RFC 8382's statistics
//! (pathpool-sbd, MPTCP-SBD's parameters [S0] Table I, with the delay-correlation split) and
//! MPTCP-SBD's decision filter; each decision sets the paths' coupling sets while the
//! connection runs (algorithms.md §7.5). The sender sees RTT rather than one-way delay:
//! the reverse direction's queueing adds to the signal, which is why the correlation split
//! (paths whose delays do not move together are apart) is on.

use pathpool_cc::SubflowSet;
use pathpool_sbd::{DecisionFilter, FilterParams, Rfc8382Detector, SbdParams, CORR_MIN};

/// Sample thinning per path, at MPTCP-SBD's spacing (`sysctl_mptcp_sbd_sample_spacing`, the
/// simulator's default): one sample per 5 ms slot. MPTCP-SBD takes a slot's first sample;
/// here it is the slot's smallest, because on a host the noise in an RTT sample only adds
/// (ACK delay, a process not scheduled): after a stall the ACKs arrive in a burst, and its
/// first sample is the most delayed one (docs/quic.md, "SBD for QUIC", measured the
/// difference). The other samples count as packets without a sample (pkt_loss's denominator).
const SPACING_NS: u64 = 5_000_000;

/// One decision of the detector: when, and a group per path slot (0 = not bottlenecked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbdDecision {
    /// Nanoseconds since the connection's first controller was built.
    pub time_ns: u64,
    pub groups: Vec<u32>,
}

#[derive(Debug)]
pub(crate) struct SbdCoupler {
    detector: Rfc8382Detector,
    filter: DecisionFilter,
    /// Per path: the 5 ms slot being filled and its smallest RTT sample so far.
    slot_min: Vec<Option<(u64, u64)>>,
    decisions: Vec<SbdDecision>,
    /// Observations made (one per base interval once the statistics are warm).
    pub observations: u64,
}

/// Most decisions kept for [`crate::CoupledFactory::decisions`] (one per 3.5 s: a day's worth
/// fits; older ones are dropped so a long connection does not grow without bound).
const MAX_DECISIONS: usize = 25_000;

impl SbdCoupler {
    pub fn new(n: usize) -> Self {
        let params = SbdParams { corr_split: true, corr_min: CORR_MIN, ..SbdParams::mptcp_sbd() };
        SbdCoupler {
            detector: Rfc8382Detector::new(params, n),
            filter: DecisionFilter::new(FilterParams::default(), n),
            slot_min: vec![None; n],
            decisions: Vec::new(),
            observations: 0,
        }
    }

    /// Closes the intervals ending by `now`; returns the new coupling sets when a decision
    /// was made.
    fn poll(&mut self, now: u64, usable: SubflowSet) -> Option<Vec<SubflowSet>> {
        let mut fresh = None;
        while let Some(obs) = self.detector.poll(now) {
            self.observations += 1;
            if let Some(d) = self.filter.push(obs) {
                fresh = Some(d.groups.clone());
            }
        }
        let groups = fresh?;
        let sets = coupling_sets(&groups, usable);
        if self.decisions.len() == MAX_DECISIONS {
            self.decisions.remove(0);
        }
        self.decisions.push(SbdDecision { time_ns: now, groups });
        Some(sets)
    }

    /// An RTT sample of path slot `slot` at `now`; returns new coupling sets on a decision.
    pub fn on_rtt(&mut self, slot: usize, now: u64, rtt_ns: u64, usable: SubflowSet) -> Option<Vec<SubflowSet>> {
        let sets = self.poll(now, usable);
        let slot_no = now / SPACING_NS;
        let rtt = rtt_ns.min(i64::MAX as u64);
        match self.slot_min[slot] {
            Some((s, least)) if s == slot_no => {
                self.slot_min[slot] = Some((s, least.min(rtt)));
                self.detector.on_unsampled_packet(slot, now);
            }
            previous => {
                // A new slot: the previous slot's smallest sample is the path's sample.
                if let Some((_, least)) = previous {
                    self.detector.on_owd_sample(slot, now, least as i64);
                }
                self.slot_min[slot] = Some((slot_no, rtt));
            }
        }
        sets
    }

    pub fn on_loss(&mut self, slot: usize, now: u64, usable: SubflowSet) -> Option<Vec<SubflowSet>> {
        let sets = self.poll(now, usable);
        self.detector.on_loss(slot, now);
        sets
    }

    pub fn decisions(&self) -> &[SbdDecision] {
        &self.decisions
    }
}

/// The coupling set of every path from one decision, as MPTCP-SBD couples ([S0] §III-B,
/// algorithms.md §7.5, the simulator's default policy): a bottlenecked path is coupled with
/// the paths of its group and with the paths not traversing any bottleneck; a path not
/// traversing a bottleneck is coupled with every usable path.
pub fn coupling_sets(groups: &[u32], usable: SubflowSet) -> Vec<SubflowSet> {
    let n = groups.len();
    (0..n)
        .map(|x| {
            let gx = groups[x];
            let mut set = SubflowSet::single(x);
            for y in usable.iter().filter(|&y| y < n) {
                if gx == 0 || groups[y] == 0 || groups[y] == gx {
                    set = set.with(y);
                }
            }
            set
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_map_to_coupling_sets_as_mptcp_sbd_couples() {
        let all = SubflowSet::all(4);
        let sets = coupling_sets(&[1, 2, 1, 0], all);
        assert_eq!(sets[0], SubflowSet::single(0).with(2).with(3));
        assert_eq!(sets[1], SubflowSet::single(1).with(3));
        assert_eq!(sets[3], all);
        // Separate bottlenecks: each path alone (Reno).
        assert_eq!(coupling_sets(&[1, 2], SubflowSet::all(2)), vec![SubflowSet::single(0), SubflowSet::single(1)]);
        // Unusable slots are never coupled in.
        assert_eq!(coupling_sets(&[1, 1, 1], SubflowSet::all(2))[0], SubflowSet::all(2));
    }
}
