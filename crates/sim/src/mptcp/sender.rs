//! The sending end of an MPTCP connection, apart from the subflow senders themselves: the
//! data-sequence mapping, the scheduler, and which subflows each subflow's congestion
//! control is coupled with.

use pathpool_cc::SubflowSet;
use pathpool_sbd::{TrendLineDetector, TrendParams};

use super::ack_shape::AckShape;
use super::coupling_audit::CouplingRecord;
use super::coupling_rule::s0_coupling;
use super::config::{MultipathCc, SbdFeedback, SbdPolicy, Scheduler};
use super::options::{MpGroup, GROUP_NOT_CONGESTED};
use super::receiver::GroupingRecord;
use super::verify::{ComparisonRecord, Recompute, Verifier};
use crate::ring::Ring;
use crate::time::{to_nanos, Time};

/// Per subflow: the data sequence number (DSN) of every subflow segment from `base` on
/// (RFC 8684's DSS mapping, one segment at a time). A retransmission on the subflow
/// carries the same DSN. On a ring (`crate::ring`): each segment is pushed, read and
/// dropped once, so a push is a store and a trim one subtraction.
pub(crate) struct DsnMap {
    base: u64,
    dsns: Ring<u64>,
}

impl Default for DsnMap {
    fn default() -> Self {
        DsnMap { base: 0, dsns: Ring::with_capacity(64) }
    }
}

impl DsnMap {
    #[inline]
    pub fn push(&mut self, dsn: u64) {
        self.dsns.push_back(dsn);
    }

    /// Maps the next `count` segments to DSNs `first..first + count`.
    #[inline(always)]
    pub fn push_run(&mut self, first: u64, count: u64) {
        for dsn in first..first + count {
            self.dsns.push_back(dsn);
        }
    }

    /// One past the last subflow segment mapped: the subflow may send new data below it.
    #[inline]
    pub fn end(&self) -> u64 {
        self.base + self.dsns.len() as u64
    }

    #[inline]
    pub fn get(&self, subflow_seq: u64) -> Option<u64> {
        subflow_seq.checked_sub(self.base).and_then(|i| self.dsns.get(i as usize).copied())
    }

    /// Forgets the mappings of segments the subflow has cumulatively acknowledged.
    #[inline]
    pub fn trim(&mut self, snd_una: u64) {
        let acked = snd_una.saturating_sub(self.base).min(self.dsns.len() as u64);
        self.dsns.drop_front(acked as usize);
        self.base += acked;
    }

    /// Segments mapped and not yet cumulatively acknowledged: what the subflow's send
    /// buffer holds (Linux's `sk_wmem_queued`, in segments).
    pub fn queued(&self) -> u64 {
        self.dsns.len() as u64
    }

    /// The lowest DSN this subflow still has to deliver.
    pub fn first_outstanding(&self) -> Option<u64> {
        self.dsns.front().copied()
    }
}

/// The sender's store of MP_GROUP decisions: per subflow, the last 8 (epoch, group) pairs
/// (algorithms.md §7.2) with their arrival order.
const RING: usize = 8;

#[derive(Clone, Copy, Default)]
struct GroupEntry {
    epoch: u8,
    group: u8,
    arrival: u64,
}

pub(crate) struct SbdSender {
    policy: SbdPolicy,
    rings: Vec<[GroupEntry; RING]>,
    arrivals: u64,
    /// `SbdFeedback::Switch`: coupled, and since when the last grouping decision arrived.
    switched_on: bool,
    last_positive: Time,
    /// The decision (epoch) last counted as a positive, so each counts once.
    counted_epoch: Option<u8>,
    /// `SbdPolicy::verify`: the sender's own detector, which can only add coupling.
    verifier: Option<Verifier>,
}

impl SbdSender {
    fn new(policy: SbdPolicy, n: usize) -> Self {
        let verifier = (policy.verify && policy.feedback == SbdFeedback::Decisions).then(|| Verifier::new(n, policy.sample_spacing, policy.verify_follow, policy.verify_start));
        SbdSender { policy, rings: vec![[GroupEntry::default(); RING]; n], arrivals: 0, switched_on: false, last_positive: 0, counted_epoch: None, verifier }
    }

    /// Stores an MP_GROUP arriving at `now`; true when the coupling sets may change.
    fn on_group(&mut self, g: MpGroup, now: Time) -> bool {
        let news = self.store(g);
        let SbdFeedback::Switch { hold } = self.policy.feedback else { return news };
        let before = self.switched_on;
        let epoch = self.usable_epoch();
        if news && epoch != self.counted_epoch && self.any_grouped() {
            self.switched_on = true;
            self.last_positive = now;
            self.counted_epoch = epoch;
        } else if self.switched_on && now.saturating_sub(self.last_positive) > hold {
            self.switched_on = false;
        }
        before != self.switched_on
    }

    /// Two subflows in one congested group in the newest usable decision.
    fn any_grouped(&self) -> bool {
        let Some(e) = self.usable_epoch() else { return false };
        let groups: Vec<u8> = (0..self.rings.len()).filter_map(|i| self.group_of(i, e)).filter(|&g| g != GROUP_NOT_CONGESTED).collect();
        groups.iter().enumerate().any(|(i, g)| groups[..i].contains(g))
    }

    fn store(&mut self, g: MpGroup) -> bool {
        let Some(ring) = self.rings.get_mut(g.flow_id as usize) else { return false };
        if g.epoch == 0 || ring.iter().any(|e| e.arrival > 0 && e.epoch == g.epoch && e.group == g.group) {
            return false;
        }
        self.arrivals += 1;
        let slot = ring.iter().position(|e| e.arrival > 0 && e.epoch == g.epoch).unwrap_or_else(|| {
            (0..RING).min_by_key(|&i| ring[i].arrival).unwrap_or(0)
        });
        ring[slot] = GroupEntry { epoch: g.epoch, group: g.group, arrival: self.arrivals };
        true
    }

    fn group_of(&self, sf: usize, epoch: u8) -> Option<u8> {
        self.rings[sf].iter().find(|e| e.arrival > 0 && e.epoch == epoch).map(|e| e.group)
    }

    /// The newest epoch every subflow with decision data has an entry for (K-SBD).
    fn usable_epoch(&self) -> Option<u8> {
        let with_data: Vec<usize> = (0..self.rings.len()).filter(|&i| self.rings[i].iter().any(|e| e.arrival > 0)).collect();
        let first = *with_data.first()?;
        let mut candidates: Vec<GroupEntry> = self.rings[first].iter().copied().filter(|e| e.arrival > 0).collect();
        candidates.sort_by_key(|e| std::cmp::Reverse(e.arrival));
        candidates.into_iter().map(|e| e.epoch).find(|&ep| with_data.iter().all(|&i| self.group_of(i, ep).is_some()))
    }

    /// S(x) of algorithms.md §7.5 for every subflow.
    fn coupling_sets(&self, out: &mut [SubflowSet], groups: &mut Vec<SubflowSet>) {
        let n = out.len();
        let all = SubflowSet::all(n);
        match self.policy.feedback {
            SbdFeedback::Decisions => {}
            SbdFeedback::FixedOlia => return out.fill(all),
            SbdFeedback::FixedReno => {
                return out.iter_mut().enumerate().for_each(|(x, set)| *set = SubflowSet::single(x));
            }
            SbdFeedback::Switch { .. } if self.switched_on => return out.fill(all),
            SbdFeedback::Switch { .. } => {
                return out.iter_mut().enumerate().for_each(|(x, set)| *set = SubflowSet::single(x));
            }
        }
        let Some(e) = self.usable_epoch() else {
            out.fill(all); // before the first decision: OLIA over all (S0)
            return;
        };
        if self.policy.pairwise {
            let rows: Vec<Option<u8>> = (0..n).map(|i| self.group_of(i, e)).collect();
            return super::pairwise::groups_from_rows(&rows, self.policy.couple_non_congested, out, groups);
        }
        s0_coupling(|i| self.group_of(i, e).filter(|&g| g != GROUP_NOT_CONGESTED), self.policy.couple_non_congested, out);
        self.grow_sets(out);
    }

    /// The policy the connection was built with.
    pub fn policy(&self) -> &SbdPolicy {
        &self.policy
    }

    /// The sender's own observations and decisions (`SbdPolicy::verify`; empty without it).
    pub fn own_records(&self) -> (&[GroupingRecord], &[GroupingRecord]) {
        self.verifier.as_ref().map_or((&[], &[]), |v| (&v.observations, &v.decisions))
    }

    /// The check's delay comparison test per interval (empty without `sbd_verify`).
    pub fn own_comparisons(&self) -> &[ComparisonRecord] {
        self.verifier.as_ref().map_or(&[], |v| &v.comparisons)
    }

    /// An RTT sample for the verifier: what it asks of the coupling sets.
    fn on_rtt(&mut self, sf: usize, since_start: Time, rtt: Time, acked: AckShape) -> Recompute {
        self.verifier.as_mut().map_or(Recompute::No, |v| v.on_rtt(sf, since_start, rtt, acked))
    }

    /// Every set gains the subflows the check couples with it; none loses one. The check's
    /// part of `coupling_sets`, and alone under `VerifyFollow::Rises` (a set loses subflows
    /// only at a decision or report).
    fn grow_sets(&self, out: &mut [SubflowSet]) {
        let Some(v) = &self.verifier else { return };
        let n = out.len();
        for (x, set) in out.iter_mut().enumerate() {
            *set = (0..n).filter(|&y| v.shared(x, y)).fold(*set, |s, y| s.with(y));
        }
    }
}

/// TR-LIA's switch (S2 §5.2): trend lines on the subflows' RTT samples every 5 s.
pub(crate) struct TrSwitch {
    detector: TrendLineDetector,
    hold_ns: u64,
    coupled: bool,
    last_positive_ns: u64,
    pub observations: Vec<super::receiver::GroupingRecord>,
}

impl TrSwitch {
    fn new(n: usize, hold: Time) -> Self {
        TrSwitch {
            detector: TrendLineDetector::new(TrendParams::default(), n),
            hold_ns: to_nanos(hold),
            coupled: false,
            last_positive_ns: 0,
            observations: Vec::new(),
        }
    }

    /// Feeds an RTT sample; true when the coupling changed.
    fn on_rtt(&mut self, sf: usize, since_start: Time, rtt: Time) -> bool {
        let now_ns = to_nanos(since_start);
        let before = self.coupled;
        while let Some(obs) = self.detector.poll(now_ns) {
            let groups = &obs.groups;
            let shared = groups.iter().enumerate().any(|(i, &g)| g != 0 && groups[..i].contains(&g));
            self.observations.push(super::receiver::GroupingRecord { time: since_start, groups: groups.clone() });
            if shared {
                self.coupled = true;
                self.last_positive_ns = now_ns;
            }
        }
        if self.coupled && now_ns.saturating_sub(self.last_positive_ns) > self.hold_ns {
            self.coupled = false;
        }
        self.detector.on_rtt_sample(sf, now_ns, to_nanos(rtt));
        before != self.coupled
    }
}

pub(crate) enum Coupler {
    All,
    Sbd(SbdSender),
    Tr(TrSwitch),
}

pub(crate) struct DataSender {
    pub maps: Vec<DsnMap>,
    pub dsn_next: u64,
    pub receive_buffer: Option<u64>,
    scheduler: Scheduler,
    rr_next: usize,
    pub coupler: Coupler,
    /// The coupling set each subflow passes to the controller.
    pub coupling: Vec<SubflowSet>,
    /// MPTCP-SBD: the coupling sets from the start and at each change (coupling_audit.rs).
    pub coupling_log: Vec<CouplingRecord>,
    /// `SbdPolicy::pairwise`: the bottleneck groups the controller couples per group
    /// (`Controller::set_groups`), and whether they changed since the controller last got them.
    pub groups: Vec<SubflowSet>,
    pub groups_changed: bool,
    /// Linux's scheduler (`pick_linux`): the subflow of the current burst and the
    /// segments the burst has left (`msk->snd_burst`).
    burst: Option<(usize, u64)>,
}

/// How long a subflow's queue takes to drain, as Linux's scheduler ranks subflows
/// (`DataSender::pick_linux`): `queued` segments over the rate `cwnd` / `srtt` (unknown:
/// equal for all).
#[inline(always)]
pub fn linux_linger(queued: u64, srtt: Option<u64>, cwnd: f64) -> f64 {
    // Through i64 (segments and ns, far below 2^63): one conversion instruction each.
    queued as i64 as f64 * srtt.unwrap_or(1) as i64 as f64 / cwnd.max(1.0)
}

/// `MPTCP_SEND_BURST_SIZE` (65428 B, net/mptcp/protocol.h) in segments of 1448 B (a 1500 B
/// packet's payload with timestamps): what Linux gives the picked subflow before it picks
/// again.
pub const LINUX_SEND_BURST: u64 = 45;

impl DataSender {
    pub fn new(n: usize, cc: MultipathCc, scheduler: Scheduler, receive_buffer: Option<u64>) -> Self {
        let (coupler, initial) = match cc {
            MultipathCc::Coupled(_) => (Coupler::All, SubflowSet::all(n)),
            MultipathCc::MptcpSbd(p) if matches!(p.feedback, SbdFeedback::FixedReno | SbdFeedback::Switch { .. }) => {
                (Coupler::Sbd(SbdSender::new(p, n)), SubflowSet::empty())
            }
            MultipathCc::MptcpSbd(p) => (Coupler::Sbd(SbdSender::new(p, n)), SubflowSet::all(n)),
            // Uncoupled at the start (algorithms.md §11 item 22).
            MultipathCc::TrLia { hold } => (Coupler::Tr(TrSwitch::new(n, hold)), SubflowSet::empty()),
        };
        let coupling: Vec<SubflowSet> = (0..n).map(|i| if initial.is_empty() { SubflowSet::single(i) } else { initial }).collect();
        let pairwise = matches!(cc, MultipathCc::MptcpSbd(p) if p.pairwise);
        // A pairwise connection couples per group (`groups`), not by these sets.
        let coupling_log = if matches!(coupler, Coupler::Sbd(_)) && !pairwise { vec![CouplingRecord { time: 0, sets: coupling.clone() }] } else { Vec::new() };
        DataSender {
            maps: (0..n).map(|_| DsnMap::default()).collect(),
            dsn_next: 0,
            receive_buffer,
            scheduler,
            rr_next: 0,
            coupler,
            coupling,
            coupling_log,
            groups: if pairwise { vec![SubflowSet::all(n)] } else { Vec::new() },
            groups_changed: pairwise,
            burst: None,
        }
    }

    /// The data-level cumulative ACK as the sender can infer it from its subflows' cumulative
    /// ACKs: every DSN below it was acknowledged on its subflow, so the receiver has delivered
    /// it in order.
    pub fn data_ack(&self) -> u64 {
        self.maps.iter().filter_map(|m| m.first_outstanding()).min().unwrap_or(self.dsn_next)
    }

    /// May another segment of data go out (connection-level receive window)?
    pub fn window_open(&self) -> bool {
        self.receive_buffer.is_none_or(|b| self.dsn_next < self.data_ack() + b)
    }

    /// The subflow for the next segment among those with `room`; `srtt` per subflow.
    pub fn pick(&mut self, room: &[u64], srtt: &[Option<u64>]) -> Option<usize> {
        let n = room.len();
        match self.scheduler {
            Scheduler::LowestRtt => (0..n).filter(|&i| room[i] > 0).min_by_key(|&i| (srtt[i].unwrap_or(0), i)),
            Scheduler::RoundRobin => {
                let k = (0..n).map(|d| (self.rr_next + d) % n).find(|&i| room[i] > 0)?;
                self.rr_next = (k + 1) % n;
                Some(k)
            }
        }
    }

    /// Maps the next `count` segments of data to subflow `k`, the only subflow with window
    /// room, while the receive window is unlimited: what `count` calls of `pick` would choose
    /// (each finds `k`, the only candidate) and map, without searching each time.
    #[inline(always)]
    pub fn grant(&mut self, k: usize, count: u64) {
        debug_assert!(self.receive_buffer.is_none());
        if count == 0 {
            return;
        }
        let first = self.dsn_next;
        self.maps[k].push_run(first, count);
        self.dsn_next = first + count;
        if self.scheduler == Scheduler::RoundRobin {
            self.rr_next = (k + 1) % self.maps.len();
        }
    }

    /// Linux's scheduler where subflows have Linux's send buffers (`mptcp_subflow_get_send`
    /// and `__subflow_push_pending`, net/mptcp/protocol.c): the subflow whose queue would
    /// drain soonest, its queued segments over its rate (cwnd / SRTT; Linux divides
    /// `sk_wmem_queued` by the pacing rate, the same up to a factor it applies to every
    /// subflow in the same phase), is picked if its buffer has room (if not, nothing is
    /// sent until an ACK drains it), and then takes a burst of up to `LINUX_SEND_BURST`
    /// segments (no more than the connection's receive window has left) as long as its
    /// buffer has room, before the scheduler picks again. Picking by RTT among subflows
    /// with buffer room instead, one segment at a time, hands every segment the receive
    /// window lets out to the lowest-RTT subflow's ever growing buffer and starves the
    /// others (docs/fidelity-notes.md, "The MPTCP scheduler and Linux's send buffers"). `srtt`
    /// unknown counts as equal for all.
    /// `linger`: each subflow's `linux_linger`, which the caller keeps as its queue grows
    /// (computed once per subflow and pick, not once per comparison).
    #[inline]
    pub fn pick_linux(&mut self, room: &[u64], cwnd: &[f64], linger: &[f64]) -> Option<usize> {
        if let Some((k, left)) = self.burst {
            if left > 0 && room[k] > 0 && cwnd[k] > 0.0 {
                self.burst = Some((k, left - 1));
                return Some(k);
            }
        }
        self.burst = None;
        let best = (0..room.len()).filter(|&i| cwnd[i] > 0.0).min_by(|&a, &b| linger[a].total_cmp(&linger[b]).then(a.cmp(&b)))?;
        if room[best] == 0 {
            return None;
        }
        let window_left = self.receive_buffer.map_or(u64::MAX, |b| (self.data_ack() + b).saturating_sub(self.dsn_next));
        self.burst = Some((best, LINUX_SEND_BURST.min(window_left).saturating_sub(1)));
        Some(best)
    }

    /// Keeps the coupling sets computed at `since_start` where they changed.
    fn log_coupling(&mut self, since_start: Time) {
        if self.coupling_log.last().is_some_and(|r| r.sets != self.coupling) {
            self.coupling_log.push(CouplingRecord { time: since_start, sets: self.coupling.clone() });
        }
    }

    /// A decision arrived on an ACK at `since_start`; true when the coupling sets were
    /// computed again.
    pub fn on_group(&mut self, g: MpGroup, since_start: Time) -> bool {
        if let Coupler::Sbd(s) = &mut self.coupler {
            if s.on_group(g, since_start) {
                s.coupling_sets(&mut self.coupling, &mut self.groups);
                // Only a pairwise connection has groups; others never call set_groups.
                self.groups_changed |= !self.groups.is_empty();
                self.log_coupling(since_start);
                return true;
            }
        }
        false
    }

    /// Whether the coupling sets follow the subflows' RTT samples (TR-LIA's detector,
    /// MPTCP-SBD's verifier): if not, `on_rtt` has nothing to do, and an ACK skips it.
    #[inline]
    pub fn follows_rtt(&self) -> bool {
        match &self.coupler {
            Coupler::All => false,
            Coupler::Sbd(s) => s.verifier.is_some(),
            Coupler::Tr(_) => true,
        }
    }

    /// An RTT sample of subflow `sf` (TR-LIA's detector input, and MPTCP-SBD's verifier's),
    /// taken on an ACK of shape `acked`; true when the coupling sets were computed again.
    pub fn on_rtt(&mut self, sf: usize, since_start: Time, rtt: Time, acked: AckShape) -> bool {
        if let Coupler::Sbd(s) = &mut self.coupler {
            match s.on_rtt(sf, since_start, rtt, acked) {
                Recompute::No => {}
                Recompute::All => {
                    s.coupling_sets(&mut self.coupling, &mut self.groups);
                    // Only a pairwise connection has groups; others never call set_groups.
                    self.groups_changed |= !self.groups.is_empty();
                    self.log_coupling(since_start);
                    return true;
                }
                Recompute::Grow => {
                    s.grow_sets(&mut self.coupling);
                    self.log_coupling(since_start);
                    return true;
                }
            }
        }
        if let Coupler::Tr(t) = &mut self.coupler {
            if t.on_rtt(sf, since_start, rtt) {
                let n = self.coupling.len();
                let coupled = t.coupled;
                for (i, c) in self.coupling.iter_mut().enumerate() {
                    *c = if coupled { SubflowSet::all(n) } else { SubflowSet::single(i) };
                }
                return true;
            }
        }
        false
    }

    /// Subflow `sf` retransmitted a segment (the verifier's loss input).
    pub fn on_loss(&mut self, sf: usize, since_start: Time) {
        if let Coupler::Sbd(SbdSender { verifier: Some(v), .. }) = &mut self.coupler {
            v.on_loss(sf, since_start);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::secs;

    fn decision(data: &mut DataSender, epoch: u8, groups: [u8; 2], at_s: u64) {
        for (k, group) in groups.into_iter().enumerate() {
            data.on_group(MpGroup { epoch, group, flow_id: k as u16 }, secs(at_s));
        }
    }

    fn coupled(data: &DataSender) -> bool {
        data.coupling.iter().all(|c| *c == SubflowSet::all(2))
    }

    /// S2 §5.2's harness: uncoupled at first, coupled by a grouping decision, uncoupled again
    /// once `hold` passes without another (checked as later decisions arrive).
    #[test]
    fn switch_couples_on_a_grouping_decision_and_holds_it() {
        let policy = SbdPolicy { feedback: SbdFeedback::Switch { hold: secs(100) }, ..SbdPolicy::default() };
        let mut data = DataSender::new(2, MultipathCc::MptcpSbd(policy), Scheduler::LowestRtt, None);
        assert!(!coupled(&data) && data.coupling[0] == SubflowSet::single(0), "uncoupled before any decision");
        decision(&mut data, 1, [1, 2], 10);
        assert!(!coupled(&data), "separate groups do not couple");
        decision(&mut data, 2, [GROUP_NOT_CONGESTED, GROUP_NOT_CONGESTED], 14);
        assert!(!coupled(&data), "non-congested subflows are not a shared bottleneck");
        decision(&mut data, 3, [1, 1], 20);
        assert!(coupled(&data), "one group couples both");
        decision(&mut data, 4, [1, 2], 60);
        assert!(coupled(&data), "a separating decision does not end the hold");
        decision(&mut data, 5, [1, 2], 119);
        assert!(coupled(&data), "99 s after the positive");
        // Re-sent copies of an old grouping decision do not restart the hold.
        decision(&mut data, 3, [1, 1], 120);
        assert!(coupled(&data));
        decision(&mut data, 6, [1, 2], 121);
        assert!(!coupled(&data), "101 s after the positive the hold is over");
        decision(&mut data, 7, [2, 2], 130);
        assert!(coupled(&data), "a new positive couples again");
    }
}
