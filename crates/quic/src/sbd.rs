//! Shared bottleneck detection on a QUIC sender: every path's RTT samples (taken from the
//! congestion controller's ACK callbacks) and losses feed RFC 8382's statistics
//! (pathpool-sbd, MPTCP-SBD's parameters [S0] Table I, grouped by the delay-correlation split
//! alone: [`detector_params`]) and MPTCP-SBD's decision filter; each decision sets the paths'
//! coupling sets while the connection runs (algorithms.md §7.5). The sender sees RTT rather
//! than one-way delay: the reverse direction's queueing and the paths' own sample rates
//! shape RFC 8382's statistics, whose split tests therefore split paths behind one queue
//! (docs/quic.md measured it); paths whose delays do not move together are apart.

use pathpool_cc::SubflowSet;
use pathpool_sbd::{FilterParams, FilteredDetector, Rfc8382Detector, SbdParams, CORR_MIN};

/// Sample thinning per path, at MPTCP-SBD's spacing (`sysctl_mptcp_sbd_sample_spacing`, the
/// simulator's default): one sample per 5 ms slot. MPTCP-SBD takes a slot's first sample;
/// here it is the slot's smallest, because on a host the noise in an RTT sample only adds
/// (ACK delay, a process not scheduled): after a stall the ACKs arrive in a burst, and its
/// first sample is the most delayed one (docs/quic.md, "SBD for QUIC", measured the
/// difference). The other samples count as packets without a sample (pkt_loss's denominator).
const SPACING_NS: u64 = 5_000_000;

/// The detector QUIC runs: MPTCP-SBD's ([S0] Table I: T, N, M, the bottleneck test with c_s,
/// c_h and p_l, RFC 8382 §3.3.1 step 1) with the delay-correlation split as the only split:
/// the split tests of RFC 8382 §3.3.1 steps 2-5 (freq_est, var_est, skew_est, pkt_loss) are
/// given thresholds no pair of flows can reach. Chosen by replaying recorded runs
/// (docs/quic.md, "Choosing the detector"): on RTT samples of two paths of unequal rates
/// behind one queue those tests split a third of the decisions, while on disjoint paths the
/// correlation split alone separates every decision but the first.
pub fn detector_params() -> SbdParams {
    SbdParams {
        corr_split: true,
        corr_min: CORR_MIN,
        // freq_est is in [0, 1] and p_f absolute; var_est >= 0 and p_mad relative to the larger;
        // skew_est is in [-1, 1] and p_s absolute; p_d is relative to the larger loss.
        p_f: NEVER_CUTS,
        p_mad: NEVER_CUTS,
        p_s: NEVER_CUTS + 1.0,
        p_d: NEVER_CUTS,
        ..SbdParams::mptcp_sbd()
    }
}

/// A threshold above any difference its split test can see (see [`detector_params`]).
const NEVER_CUTS: f64 = 2.0;

/// One decision of the detector: when, and a group per path slot (0 = not bottlenecked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SbdDecision {
    /// Nanoseconds since the connection's first controller was built.
    pub time_ns: u64,
    pub groups: Vec<u32>,
}

/// One input the detector was handed, as recorded for offline replay
/// ([`crate::CoupledFactory::record_sbd_inputs`]); times in ns since the connection's first
/// controller was built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SbdInput {
    /// The smallest RTT sample of a 5 ms slot, fed when the path's next slot began.
    Sample { slot: usize, time_ns: u64, rtt_ns: u64 },
    /// An RTT sample thinned out (it counts in pkt_loss's denominator only).
    Unsampled { slot: usize, time_ns: u64 },
    Loss { slot: usize, time_ns: u64 },
}

#[derive(Debug)]
pub(crate) struct SbdCoupler {
    /// The detector and S0's decision filter, restarted with its memory.
    sbd: FilteredDetector<Rfc8382Detector>,
    /// Per path: the 5 ms slot being filled and its smallest RTT sample so far.
    slot_min: Vec<Option<(u64, u64)>>,
    decisions: Vec<SbdDecision>,
    /// Observations made (one per base interval once the statistics are warm).
    pub observations: u64,
    /// The detector's inputs, when recording (at most `record_cap`, the first ones).
    inputs: Vec<SbdInput>,
    record_cap: usize,
}

/// Most decisions kept for [`crate::CoupledFactory::decisions`] (one per 3.5 s: a day's worth
/// fits; older ones are dropped so a long connection does not grow without bound).
const MAX_DECISIONS: usize = 25_000;

impl SbdCoupler {
    pub fn new(n: usize) -> Self {
        let params = detector_params();
        SbdCoupler {
            sbd: FilteredDetector::new(Rfc8382Detector::new(params, n), FilterParams::default()),
            slot_min: vec![None; n],
            decisions: Vec::new(),
            observations: 0,
            inputs: Vec::new(),
            record_cap: 0,
        }
    }

    /// Keeps the first `cap` inputs from now on (0: none).
    pub fn record_inputs(&mut self, cap: usize) {
        self.record_cap = cap;
    }

    pub fn inputs(&self) -> &[SbdInput] {
        &self.inputs
    }

    fn record(&mut self, input: SbdInput) {
        if self.inputs.len() < self.record_cap {
            self.inputs.push(input);
        }
    }

    /// Closes the intervals ending by `now`; returns the new coupling sets when a decision
    /// was made.
    fn poll(&mut self, now: u64, usable: SubflowSet) -> Option<Vec<SubflowSet>> {
        let mut fresh = None;
        while let Some(step) = self.sbd.poll(now) {
            self.observations += 1;
            if step.decided {
                fresh = Some(self.sbd.decision().groups.clone());
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
                self.sbd.on_unsampled(slot, now);
                self.record(SbdInput::Unsampled { slot, time_ns: now });
            }
            previous => {
                // A new slot: the previous slot's smallest sample is the path's sample.
                if let Some((_, least)) = previous {
                    self.sbd.on_delay(slot, now, least as i64);
                    self.record(SbdInput::Sample { slot, time_ns: now, rtt_ns: least });
                }
                self.slot_min[slot] = Some((slot_no, rtt));
            }
        }
        sets
    }

    pub fn on_loss(&mut self, slot: usize, now: u64, usable: SubflowSet) -> Option<Vec<SubflowSet>> {
        let sets = self.poll(now, usable);
        self.sbd.on_loss(slot, now);
        self.record(SbdInput::Loss { slot, time_ns: now });
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
    fn the_detector_is_mptcp_sbd_with_the_correlation_split_alone() {
        let p = detector_params();
        assert!(p.validate().is_ok());
        assert!(p.corr_split && !p.change_detect);
        let s0 = SbdParams::mptcp_sbd();
        assert_eq!((p.t_ns, p.n, p.m, p.c_s, p.c_h, p.p_l), (s0.t_ns, s0.n, s0.m, s0.c_s, s0.c_h, s0.p_l));
        // No difference of freq_est (in [0, 1]), var_est (relative), skew_est (in [-1, 1]) or
        // pkt_loss (relative) reaches its threshold.
        assert!(p.p_f > 1.0 && p.p_mad > 1.0 && p.p_s > 2.0 && p.p_d > 1.0);
    }

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
