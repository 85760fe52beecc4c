//! The receiving end of an MPTCP connection: data-level reassembly and, for MPTCP-SBD,
//! the shared bottleneck detector whose decisions go back on ACKs (S0 §III; algorithms.md
//! §7.1-§7.4).

use pathpool_sbd::{FilterParams, FilteredDetector, Observation, PairFilter, Rfc8382Detector, SbdParams, PAIR_CORR_MIN};

use super::config::{ReceiverReport, SbdPolicy};
use super::options::{next_epoch, relative_owd_us, MpGroup, SbdOption, GROUP_NOT_CONGESTED};
use crate::tcp::SeqSet;
use crate::time::{to_nanos, Time};

/// One SBD result kept for the outputs: time and a group per subflow (0 = not congested).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupingRecord {
    pub time: Time,
    pub groups: Vec<u32>,
}

pub(crate) struct SbdReceiver {
    /// The detector and S0's decision filter, restarted with its memory.
    sbd: FilteredDetector<Rfc8382Detector>,
    /// `SbdPolicy::pairwise`: the pair relation filtered in step with the decisions.
    pairs: Option<PairFilter>,
    epoch: u8,
    /// The current decision as MP_GROUP group values per subflow.
    groups: Vec<u8>,
    /// Round robin over subflows for the next MP_GROUP option.
    next_report: usize,
    thinning: SampleThinning,
    report: ReceiverReport,
    pub observations: Vec<GroupingRecord>,
    pub decisions: Vec<GroupingRecord>,
    /// `SbdPolicy::pairwise`: the decided pair relations, one row bit set per subflow
    /// (`pathpool_sbd::PairRelation::rows`), at the decisions' times.
    pub pair_decisions: Vec<GroupingRecord>,
}

impl SbdReceiver {
    pub fn new(n: usize, policy: &SbdPolicy) -> Self {
        let base = if policy.rfc8382 { SbdParams::rfc8382() } else { SbdParams::mptcp_sbd() };
        let mut params = match policy.corr_min {
            Some(corr_min) => SbdParams { corr_split: true, corr_min, ..base },
            None => base,
        };
        params.change_detect = policy.change_detect;
        let mut detector = Rfc8382Detector::new(params, n);
        if policy.pairwise {
            detector.enable_pairs(PAIR_CORR_MIN);
        }
        SbdReceiver {
            sbd: FilteredDetector::new(detector, FilterParams::default()),
            pairs: policy.pairwise.then(|| PairFilter::new(n)),
            epoch: 0,
            groups: vec![GROUP_NOT_CONGESTED; n],
            next_report: 0,
            thinning: SampleThinning::new(n, policy.sample_spacing),
            report: policy.report,
            observations: Vec::new(),
            decisions: Vec::new(),
            pair_decisions: Vec::new(),
        }
    }

    fn record(obs: &Observation, now: Time, log: &mut Vec<GroupingRecord>) {
        log.push(GroupingRecord { time: now, groups: obs.groups.clone() });
    }

    /// An MP_TIMESTAMP arrived on subflow `sf` at receiver time `since_start` (from the
    /// connection's start; the sender's clock has another origin, which the relative OWD
    /// absorbs).
    pub fn on_timestamp(&mut self, sf: usize, since_start: Time, time_us: u32, loss: bool) {
        let now_ns = to_nanos(since_start);
        while let Some(step) = self.sbd.poll(now_ns) {
            Self::record(self.sbd.observation(), since_start, &mut self.observations);
            if let Some(p) = &mut self.pairs {
                if step.restarted {
                    // The observations in the pair filter's window describe the old
                    // bottleneck, as the decision filter's do.
                    p.restart();
                }
                if let Some(rel) = self.sbd.detector().pair_relation() {
                    p.push(rel);
                }
            }
            if step.decided {
                let d = self.sbd.decision();
                Self::record(d, since_start, &mut self.decisions);
                self.epoch = next_epoch(self.epoch);
                for (g, &d) in self.groups.iter_mut().zip(&d.groups) {
                    *g = if d == 0 { GROUP_NOT_CONGESTED } else { d.min(98) as u8 };
                }
                if let Some(p) = &mut self.pairs {
                    let rel = p.decide();
                    super::pairwise::rows_to_bytes(rel, &mut self.groups);
                    self.pair_decisions.push(GroupingRecord { time: since_start, groups: rel.rows.iter().map(|&r| r as u32).collect() });
                }
                report(self.report, self.sbd.decisions_made(), &mut self.groups);
            }
        }
        if loss {
            self.sbd.on_loss(sf, now_ns);
        }
        if !self.take_sample(sf, since_start) {
            self.sbd.on_unsampled(sf, now_ns);
            return;
        }
        let owd_us = relative_owd_us(since_start / 1_000_000, time_us);
        self.sbd.on_delay(sf, now_ns, owd_us as i64 * 1000);
    }

    fn take_sample(&mut self, sf: usize, since_start: Time) -> bool {
        self.thinning.take(sf, since_start)
    }

    /// The MP_GROUP option for the next ACK: one subflow's group per option, round robin
    /// (algorithms.md §7.2). None before the first decision.
    pub fn next_group_option(&mut self) -> Option<SbdOption> {
        if self.epoch == 0 {
            return None;
        }
        let sf = self.next_report;
        self.next_report = (sf + 1) % self.groups.len();
        Some(SbdOption::Group(MpGroup { epoch: self.epoch, group: self.groups[sf], flow_id: sf as u16 }))
    }
}

/// Sample thinning as the public code does it (`sysctl_mptcp_sbd_sample_spacing`): the
/// first sample of each slot counts (slots counted from the connection start; 0 takes every
/// sample). Without it a subflow's statistics weigh each period by how much that subflow sent
/// then, and coupled subflows of one bottleneck, whose shares shift, describe different
/// periods of the same queue (docs/mptcp.md).
pub(crate) struct SampleThinning {
    spacing: Time,
    /// Per subflow, the first slot that may still give a sample.
    next_slot: Vec<u64>,
}

impl SampleThinning {
    pub fn new(n: usize, spacing: Time) -> Self {
        SampleThinning { spacing, next_slot: vec![0; n] }
    }

    /// Does subflow `sf`'s sample at `since_start` count?
    pub fn take(&mut self, sf: usize, since_start: Time) -> bool {
        if self.spacing == 0 {
            return true;
        }
        let slot = since_start / self.spacing;
        if slot < self.next_slot[sf] {
            return false;
        }
        self.next_slot[sf] = slot + 1;
        true
    }
}

/// Replaces decision number `k`'s groups by what a lying receiver reports (the decisions
/// kept for the outputs stay the detector's own).
fn report(kind: ReceiverReport, k: u64, groups: &mut [u8]) {
    let n = groups.len() as u64;
    for (i, g) in groups.iter_mut().enumerate() {
        *g = match kind {
            ReceiverReport::Honest => return,
            ReceiverReport::Separate => i as u8 + 1,
            ReceiverReport::Random => 1 + (splitmix64(k << 8 | i as u64) % n) as u8,
            ReceiverReport::Flapping if k % 2 == 0 => i as u8 + 1,
            ReceiverReport::Flapping => 1,
        };
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): the random liar's groups, a fixed function of the
/// decision and subflow so that runs stay deterministic.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Data-level reassembly (RFC 8684 §3.3): segments are delivered to the application in
/// data sequence order, whichever subflow brought them.
pub(crate) struct DataReceiver {
    rcv_nxt: u64,
    out_of_order: SeqSet,
    pub delivered_segments: u64,
    pub delivered_bytes: u64,
    /// Most data segments held out of order at once (receive-buffer occupancy).
    pub max_out_of_order: u64,
}

impl DataReceiver {
    pub fn new() -> Self {
        DataReceiver { rcv_nxt: 0, out_of_order: SeqSet::new(256), delivered_segments: 0, delivered_bytes: 0, max_out_of_order: 0 }
    }

    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    pub fn nothing_out_of_order(&self) -> bool {
        self.out_of_order.is_empty()
    }

    #[inline]
    pub fn on_segment(&mut self, dsn: u64, bytes: u32) {
        if dsn == self.rcv_nxt {
            // With nothing held out of order (most segments), no search.
            let next = if self.out_of_order.is_empty() { dsn + 1 } else { self.out_of_order.next_absent(dsn + 1) };
            self.out_of_order.advance(next);
            let n = next - self.rcv_nxt;
            self.rcv_nxt = next;
            self.delivered_segments += n;
            self.delivered_bytes += n * bytes as u64;
        } else if dsn > self.rcv_nxt {
            self.out_of_order.insert(dsn);
            self.max_out_of_order = self.max_out_of_order.max(self.out_of_order.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{micros, millis};

    #[test]
    fn thinning_keeps_the_first_sample_of_each_slot_per_subflow() {
        let mut r = SbdReceiver::new(2, &SbdPolicy { sample_spacing: millis(5), ..SbdPolicy::default() });
        let taken: Vec<bool> = [0, 1, 4_999, 5_000, 5_001, 12_000, 14_999, 15_000].iter().map(|&us| r.take_sample(0, micros(us))).collect();
        assert_eq!(taken, [true, false, false, true, false, true, false, true]);
        // Subflow 1 has its own slots.
        assert!(r.take_sample(1, micros(15_001)));
        let mut every = SbdReceiver::new(1, &SbdPolicy { sample_spacing: 0, ..SbdPolicy::default() });
        assert!((0..10).all(|us| every.take_sample(0, micros(us))));
    }

    #[test]
    fn liars_report_what_their_kind_says_whatever_was_detected() {
        let honest = [1u8, 1, 1, GROUP_NOT_CONGESTED];
        let told = |kind, k| {
            let mut g = honest;
            report(kind, k, &mut g);
            g
        };
        assert_eq!(told(ReceiverReport::Honest, 3), honest);
        assert_eq!(told(ReceiverReport::Separate, 3), [1, 2, 3, 4]);
        assert_eq!(told(ReceiverReport::Flapping, 0), [1, 2, 3, 4]);
        assert_eq!(told(ReceiverReport::Flapping, 1), [1, 1, 1, 1]);
        let random: Vec<[u8; 4]> = (0..50).map(|k| told(ReceiverReport::Random, k)).collect();
        assert!(random.iter().flatten().all(|&g| (1..=4).contains(&g)));
        assert!(random.iter().any(|g| g[0] == g[1]) && random.iter().any(|g| g[0] != g[1]), "random groups both join and split");
        assert_eq!(random, (0..50).map(|k| told(ReceiverReport::Random, k)).collect::<Vec<_>>(), "deterministic");
    }
}
