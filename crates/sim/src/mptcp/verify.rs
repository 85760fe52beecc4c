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
//! al.'s delay comparison test (ToN 2002 §IV, `pathpool_sbd::comparison`) on every pair
//! every 350 ms, on bins as long as the connection's RTT (`bin_width_ns`). It couples a pair
//! only with enough evidence: "shared" in at least
//! [`DELAY_MIN_SHARED`] of the last [`DELAY_MEMORY`] intervals and [`DELAY_SHARED_PER_APART`]
//! times as often as "apart". No evidence leaves the pair to the decisions. Sharing one
//! bottleneck is transitive (one bottleneck per path), so the pairs with evidence join their
//! subflows in groups, and a pair in one group stays coupled for [`HOLD_INTERVALS`] after the
//! last evidence. The same test read only beyond chance (`compare_beyond_chance`) is the
//! sender's evidence of two bottlenecks: a pair with "apart" beyond chance as often as the
//! coupling rule asks of "shared" is not coupled by the RFC 8382 part, whose statistics on a
//! short queue's or a starved subflow's samples are chance (docs/security.md, "Evidence of
//! two bottlenecks"), and such evidence gathered since a pair was last in one group ends its
//! hold (`released`). (A loss co-occurrence test beside it was measured and not kept: it
//! coupled disjoint subflows and no shared ones the delay test missed; docs/security.md, "The
//! loss test".)
//!
//! Until the check has judged a pair, a liar's "apart" on one bottleneck and an honest one on
//! two look the same to it; `VerifyStart` says whether the start hold ends at the sender's
//! second decision (the default) or only once the comparison test has judged the pair
//! (docs/security.md, "Until the check has judged").

use pathpool_sbd::comparison::{compare_beyond_chance, compare_over, ApartWhen, Bins, Verdict, BINS_PER_INTERVAL, BIN_NS, MIN_BINS, WINDOW_BINS};
use pathpool_sbd::{FilterParams, FilteredDetector, Rfc8382Detector, SbdParams, CORR_MIN};

use super::ack_delay::DelayedAckFilter;
use super::config::{VerifyFollow, VerifyStart};
use super::receiver::{GroupingRecord, SampleThinning};
use super::ack_shape::AckShape;
use crate::time::{to_nanos, Time};

/// The comparison test's bins: at least [`BIN_NS`] (25 ms), and as long as the connection's
/// first usable RTT sample rounded up to a multiple of that, at most one interval. A bulk
/// subflow's samples come in trains once per RTT, each train at its own phase of the RTT;
/// bins shorter than the RTT compare those phases, not the queue: at 10 Mb/s, 100 ms and a
/// 2-BDP drop-tail queue one shared queue read "apart" in 303 of 399 intervals with 25 ms bins
/// and "shared" in 353 of 399 with 100 ms ones, two disjoint ones "apart" in 367 of 367 with
/// a verdict (docs/security.md, "Bins as long as the RTT").
fn bin_width_ns(first_rtt_ns: u64) -> u64 {
    first_rtt_ns.div_ceil(BIN_NS).clamp(1, BINS_PER_INTERVAL) * BIN_NS
}

/// The delay test's memory in intervals of 350 ms (35 s): at 10 Mb/s and 10 ms with Linux
/// hosts one pair on one queue read "shared" in 79-85 of 340 intervals against 3-39 "apart",
/// and on two queues in 7-108 against 54-234 (docs/security.md, "What still fails").
pub(crate) const DELAY_MEMORY: usize = 100;
/// "Shared" verdicts a pair needs in the memory...
pub(crate) const DELAY_MIN_SHARED: u32 = 8;
/// ... and how many times its "apart" ones.
pub(crate) const DELAY_SHARED_PER_APART: u32 = 3;
/// A pair found in one group stays coupled for 100 intervals (35 s) after the last evidence
/// (unless evidence of two bottlenecks gathered since ends it: `Verifier::released`):
/// the test's evidence comes and goes with the queue's phases.
pub(crate) const HOLD_INTERVALS: u64 = 100;
/// With `VerifyStart::Evidence`, the windows after both slow starts by which a pair counts as
/// judged without evidence either way: the test's whole memory, so a pair is released only
/// where the coupling rule could have been met and was not. A shorter bound (16, enough for 8
/// "shared" where half the verdicts read so) left a liar more and cost honest receivers about
/// as much (docs/security.md, "Until the check has judged").
const JUDGED_WINDOWS: u32 = DELAY_MEMORY as u32;
/// The least share of intervals with a verdict in which the coupling rule can be met at all
/// (`DELAY_MIN_SHARED` of `DELAY_MEMORY`): below it the check has no evidence of its own either
/// way, only the RFC 8382 part's statistics (pathpool_experiment::check_blind).
pub const EVIDENCE_SHARE: f64 = DELAY_MIN_SHARED as f64 / DELAY_MEMORY as f64;

/// One interval of the delay comparison test over every pair of subflows: how many pairs it
/// gave a verdict ("shared" or "apart", by the sign), of how many. A check whose pairs mostly
/// get none (starved subflows, whose RTT samples seldom fill the bins) has no evidence of its
/// own to hold a receiver's grouping against (docs/security.md, "What still fails").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComparisonRecord {
    pub time: Time,
    pub with_verdict: u32,
    pub pairs: u32,
}

/// One pair's delay verdicts over the last [`DELAY_MEMORY`] intervals.
#[derive(Clone)]
struct VerdictMemory {
    ring: [Verdict; DELAY_MEMORY],
    next: usize,
    shared: u32,
    apart: u32,
}

impl VerdictMemory {
    fn new() -> Self {
        VerdictMemory { ring: [Verdict::NoEvidence; DELAY_MEMORY], next: 0, shared: 0, apart: 0 }
    }

    fn push(&mut self, v: Verdict) {
        let count = |m: &mut Self, v: Verdict, d: i32| match v {
            Verdict::Shared => m.shared = m.shared.wrapping_add_signed(d),
            Verdict::Apart => m.apart = m.apart.wrapping_add_signed(d),
            Verdict::NoEvidence => {}
        };
        let old = std::mem::replace(&mut self.ring[self.next], v);
        count(self, old, -1);
        count(self, v, 1);
        self.next = (self.next + 1) % DELAY_MEMORY;
    }

    fn evidence(&self) -> bool {
        self.shared >= DELAY_MIN_SHARED && self.shared >= DELAY_SHARED_PER_APART * self.apart
    }

    /// The mirror of [`Self::evidence`]: "apart" as often as "shared" must be for sharing.
    fn apart_evidence(&self) -> bool {
        self.apart >= DELAY_MIN_SHARED && self.apart >= DELAY_SHARED_PER_APART * self.shared
    }
}

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
    /// Each subflow's usable RTT samples in the comparison test's bins, by send time, and the
    /// bins' width (`bin_width_ns` of the connection's first usable sample; None before it).
    bins: Vec<Bins>,
    bin_ns: Option<u64>,
    /// Each subflow's first retransmission (ns since the start; None before it): the end of
    /// its slow start. The comparison test reads only windows after both subflows' (see
    /// `compare_pairs`).
    first_loss_ns: Vec<Option<u64>>,
    /// Per pair (x < y, `pair_index`), the delay test's recent verdicts by the sign (for
    /// coupling) and beyond chance (`compare_beyond_chance`, for the evidence of two
    /// bottlenecks).
    delay: Vec<VerdictMemory>,
    beyond_chance: Vec<VerdictMemory>,
    /// Per pair, whether the verdicts beyond chance are evidence of two bottlenecks now.
    apart: Vec<bool>,
    /// Intervals closed so far, and per pair the last one that found it in one group
    /// (None: never).
    interval: u64,
    linked_at: Vec<Option<u64>>,
    /// Per pair, the verdicts beyond chance since it was last in one group: (apart, shared).
    /// As many "apart" as coupling asks of "shared" end its hold (`released`).
    since_linked: Vec<(u32, u32)>,
    /// Scratch: a group label per subflow.
    labels: Vec<usize>,
    /// The sender's own observations and decisions, for the run's outputs
    /// (sender_observations.csv, sender_decisions.csv): what the check saw beside what the
    /// receiver claimed.
    pub observations: Vec<GroupingRecord>,
    pub decisions: Vec<GroupingRecord>,
    /// The comparison test's verdicts per interval (summary.json's `sender_comparison_share`).
    pub comparisons: Vec<ComparisonRecord>,
    /// When the coupling sets follow the check (`SbdPolicy::verify_follow`), and per pair the
    /// check's answer (`shared`) at the last interval (kept only when they follow intervals).
    follow: VerifyFollow,
    answers: Vec<bool>,
    /// Until when a pair stays coupled at the start (`VerifyStart`; `Evidence`: until `judged`).
    start: VerifyStart,
    /// Per pair, whether the comparison test has judged it: evidence of sharing, evidence of
    /// two bottlenecks, or a whole memory of windows after both slow starts without either;
    /// and how many such windows it has read.
    judged: Vec<bool>,
    settled_windows: Vec<u32>,
}

/// What an RTT sample asks of the sender's coupling sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Recompute {
    /// Nothing changed.
    No,
    /// Compute them again (a decision, or with `VerifyFollow::Intervals` a changed answer).
    All,
    /// Add the pairs the check now couples (`VerifyFollow::Rises`).
    Grow,
}

impl Verifier {
    pub fn new(n: usize, spacing: Time, follow: VerifyFollow, start: VerifyStart) -> Self {
        let params = SbdParams { corr_split: true, corr_min: CORR_MIN, ..SbdParams::mptcp_sbd() };
        let pairs = n * n.saturating_sub(1) / 2;
        Verifier {
            sbd: FilteredDetector::new(Rfc8382Detector::new(params, n), FilterParams::default()),
            groups: None,
            previous: None,
            thinning: SampleThinning::new(n, spacing),
            delayed_acks: DelayedAckFilter::new(n),
            bins: vec![Bins::default(); n],
            bin_ns: None,
            first_loss_ns: vec![None; n],
            delay: vec![VerdictMemory::new(); pairs],
            beyond_chance: vec![VerdictMemory::new(); pairs],
            apart: vec![false; pairs],
            interval: 0,
            linked_at: vec![None; pairs],
            since_linked: vec![(0, 0); pairs],
            labels: vec![0; n],
            observations: Vec::new(),
            decisions: Vec::new(),
            comparisons: Vec::new(),
            follow,
            answers: vec![true; pairs],
            start,
            judged: vec![false; pairs],
            settled_windows: vec![0; pairs],
        }
    }

    /// An RTT sample of subflow `sf` at `since_start`, on an ACK of shape `acked`; whether
    /// the coupling sets may change (a new decision, or an interval that changed the check's
    /// answer where they follow intervals).
    pub fn on_rtt(&mut self, sf: usize, since_start: Time, rtt: Time, acked: AckShape) -> Recompute {
        let decided = self.poll(since_start);
        let now_ns = to_nanos(since_start);
        // A sample that may hold the receiver's delayed-ACK wait counts as a packet without
        // one, as a thinned sample does.
        let usable = self.delayed_acks.usable(sf, acked.segments, acked.in_order);
        if usable {
            // Binned by the segment's send time, as the kernel daemon's test (every sample:
            // the bins average them).
            let width = *self.bin_ns.get_or_insert_with(|| bin_width_ns(to_nanos(rtt)));
            self.bins[sf].add(now_ns.saturating_sub(to_nanos(rtt)) / width, (to_nanos(rtt) / 1000) as f64);
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
        self.first_loss_ns[sf].get_or_insert(to_nanos(since_start));
        self.sbd.on_loss(sf, to_nanos(since_start));
    }

    fn poll(&mut self, since_start: Time) -> Recompute {
        let mut decided = Recompute::No;
        while let Some(step) = self.sbd.poll(to_nanos(since_start)) {
            self.observations.push(GroupingRecord { time: since_start, groups: self.sbd.observation().groups.clone() });
            let with_verdict = self.compare_pairs(to_nanos(since_start));
            let pairs = self.delay.len() as u32;
            self.comparisons.push(ComparisonRecord { time: since_start, with_verdict, pairs });
            if step.decided {
                let d = self.sbd.decision();
                self.previous = self.groups.replace(d.groups.clone());
                self.decisions.push(GroupingRecord { time: since_start, groups: d.groups.clone() });
                decided = Recompute::All;
            }
            decided = decided.max_with(self.answers_changed());
        }
        decided
    }

    /// After an interval (and any decision with it): what the check's answers ask of the
    /// coupling sets where they follow intervals (`VerifyFollow`), the answers kept.
    fn answers_changed(&mut self) -> Recompute {
        if self.follow == VerifyFollow::Decisions {
            return Recompute::No;
        }
        let n = self.bins.len();
        let (mut changed, mut rose) = (false, false);
        for x in 0..n {
            for y in x + 1..n {
                let p = pair_index(n, x, y);
                let now = self.shared(x, y);
                changed |= now != self.answers[p];
                rose |= now && !self.answers[p];
                self.answers[p] = now;
            }
        }
        match self.follow {
            VerifyFollow::Intervals if changed => Recompute::All,
            VerifyFollow::Rises if rose => Recompute::Grow,
            _ => Recompute::No,
        }
    }

    /// The comparison test on every pair, once per interval; the pairs with evidence join
    /// their subflows in groups. The window ends one interval ago (slack for samples still in
    /// flight, as the kernel daemon). Returns how many pairs got a verdict by the sign.
    fn compare_pairs(&mut self, now_ns: u64) -> u32 {
        let mut with_verdict = 0;
        let width = self.bin_ns.unwrap_or(BIN_NS);
        let end = (now_ns / width).saturating_sub((BIN_NS * BINS_PER_INTERVAL).div_ceil(width));
        // The window's duration is the 25 ms bins' (2.8 s) whatever the width, with at least
        // twice the bins a verdict needs: wider bins decide as soon.
        let window = ((WINDOW_BINS as u64 * BIN_NS) / width).max(2 * MIN_BINS as u64) as usize;
        let n = self.bins.len();
        for (i, l) in self.labels.iter_mut().enumerate() {
            *l = i;
        }
        // A connection's subflows start their slow starts together, so every queue they cross
        // fills at once whether it is one or several: a window that reaches back into either
        // subflow's slow start (before its first retransmission) is no evidence either way.
        // On five disjoint 100 Mb/s, 100 ms RED queues such windows coupled pairs from 5.7 s
        // on, held until 55 s (docs/security.md, "The connection's own slow start").
        let window_start_ns = end.saturating_sub(window as u64) * width;
        let settled = |sf: usize| self.first_loss_ns[sf].is_some_and(|at| at <= window_start_ns);
        for x in 0..n {
            for y in x + 1..n {
                let p = pair_index(n, x, y);
                let (verdict, beyond) = if settled(x) && settled(y) {
                    self.settled_windows[p] += 1;
                    let (a, b) = (&self.bins[x], &self.bins[y]);
                    (compare_over(a, b, end, window, ApartWhen::Below), compare_beyond_chance(a, b, end, window))
                } else {
                    (Verdict::NoEvidence, Verdict::NoEvidence)
                };
                with_verdict += u32::from(verdict != Verdict::NoEvidence);
                self.delay[p].push(verdict);
                self.beyond_chance[p].push(beyond);
                match beyond {
                    Verdict::Apart => self.since_linked[p].0 += 1,
                    Verdict::Shared => self.since_linked[p].1 += 1,
                    Verdict::NoEvidence => {}
                }
                self.apart[p] = self.beyond_chance[p].apart_evidence();
                self.judged[p] |= self.apart[p] || self.settled_windows[p] >= JUDGED_WINDOWS;
                if self.delay[p].evidence() {
                    let (a, b) = (self.labels[x], self.labels[y]);
                    let (keep, gone) = (a.min(b), a.max(b));
                    self.labels.iter_mut().filter(|l| **l == gone).for_each(|l| *l = keep);
                }
            }
        }
        for x in 0..n {
            for y in x + 1..n {
                if self.labels[x] == self.labels[y] {
                    self.judged[pair_index(n, x, y)] = true;
                    self.linked_at[pair_index(n, x, y)] = Some(self.interval);
                    self.since_linked[pair_index(n, x, y)] = (0, 0);
                }
            }
        }
        self.interval += 1;
        with_verdict
    }

    /// Must subflows `x` and `y` stay coupled? Only two subflows the sender found congested
    /// in different groups by both of its last two decisions, or for which the comparison
    /// test's verdicts beyond chance are evidence of two bottlenecks, and without recent
    /// evidence of sharing (held for [`HOLD_INTERVALS`] unless evidence of two bottlenecks
    /// since ends it), may run apart. The RFC 8382 part's coupling yields to that
    /// evidence: its "not congested" and its groups on RTT come from statistics that a short
    /// or starved subflow's samples make chance (docs/security.md, "Evidence of two
    /// bottlenecks"), while "apart" beyond chance is what two queues give and one does not.
    /// One it found not congested is coupled with every other, as S0's sender couples a
    /// subflow the receiver reports not congested (group 99; [S0] §III-B, K-SBD's coupling
    /// set, algorithms.md §7.5): it may join a group at any time. Without this a receiver could split whatever the sender's detector does not see
    /// congested (a short or RED queue, whose skew reads positive), where an honest
    /// receiver's "not congested" couples. A decision not yet made (the first two, 3.5 s
    /// each) counts as one that couples, as S0's sender couples every subflow before the
    /// receiver's first decision: the receiver's first decision comes as early as the
    /// sender's own, and a liar uncoupled until the sender had looked kept that start's
    /// window for the whole run where the RTT is long (docs/security.md, "Until the sender
    /// has looked").
    pub fn shared(&self, x: usize, y: usize) -> bool {
        let shared_in = |d: &Option<Vec<u32>>| d.as_ref().is_none_or(|g| g[x] == 0 || g[y] == 0 || g[x] == g[y]);
        if x == y {
            return true;
        }
        let p = pair_index(self.bins.len(), x.min(y), x.max(y));
        let linked = self.linked_at[p].is_some_and(|at| self.interval - at <= HOLD_INTERVALS) && !self.released(p);
        let unjudged = self.start == VerifyStart::Evidence && !self.judged[p];
        unjudged || linked || (!self.apart[p] && (shared_in(&self.groups) || shared_in(&self.previous)))
    }
}

impl Verifier {
    /// Whether pair `p`'s hold has ended early: since it was last in one group, the test read
    /// it "apart" beyond chance as often as the coupling rule asks of "shared" (8, and three
    /// times its "shared" beyond chance). The hold bridges the intervals in which the sign
    /// reads one queue "apart" by chance; "apart" beyond chance is what two queues give and
    /// one does not, so it is the evidence of two bottlenecks the hold should not bridge.
    fn released(&self, p: usize) -> bool {
        let (apart, shared) = self.since_linked[p];
        apart >= DELAY_MIN_SHARED && apart >= DELAY_SHARED_PER_APART * shared
    }
}

impl Recompute {
    /// The larger of two requests (computing the sets again covers growing them).
    fn max_with(self, other: Recompute) -> Recompute {
        match (self, other) {
            (Recompute::All, _) | (_, Recompute::All) => Recompute::All,
            (Recompute::Grow, _) | (_, Recompute::Grow) => Recompute::Grow,
            _ => Recompute::No,
        }
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

    #[test]
    fn bins_are_as_long_as_the_first_rtt_from_25_ms_to_one_interval() {
        let ms = 1_000_000;
        assert_eq!(bin_width_ns(11 * ms), 25 * ms);
        assert_eq!(bin_width_ns(25 * ms), 25 * ms);
        assert_eq!(bin_width_ns(31 * ms), 50 * ms);
        assert_eq!(bin_width_ns(101 * ms), 125 * ms);
        assert_eq!(bin_width_ns(2000 * ms), 350 * ms);
    }

    /// Two subflows' RTTs every 2 ms for 30 s: a 1 s queue sawtooth (subflow 1's `lag` later)
    /// plus each subflow's own noise; whether the comparison test coupled the pair. Subflow
    /// `k` ends its slow start (its first retransmission) at `slow_start_end[k]`.
    fn compared_after(lag: Time, slow_start_end: [Option<Time>; 2]) -> bool {
        let mut v = Verifier::new(2, 5 * MS, VerifyFollow::Decisions, VerifyStart::Decisions);
        let queue = |t: Time| 40 * MS + t % (1000 * MS) / 100;
        let mut seed = 1u64;
        let mut noise = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % (2 * MS)
        };
        let ack = AckShape { segments: 1, in_order: false };
        for k in 1..15_000 {
            let t = k * 2 * MS;
            for (sf, end) in slow_start_end.iter().enumerate() {
                if *end == Some(t) {
                    v.on_loss(sf, t);
                }
            }
            v.on_rtt(0, t, queue(t) + noise(), ack);
            v.on_rtt(1, t, queue(t + lag) + noise(), ack);
        }
        v.linked_at[0].is_some()
    }

    #[test]
    fn a_pair_couples_on_evidence_and_forgets_it() {
        let mut m = VerdictMemory::new();
        // A majority of a decision period's verdicts is not evidence.
        (0..7).for_each(|_| m.push(Verdict::Shared));
        (0..3).for_each(|_| m.push(Verdict::Apart));
        assert!(!m.evidence(), "7 shared of 10");
        m.push(Verdict::Shared);
        assert!(!m.evidence(), "8 shared against 3 apart");
        m.push(Verdict::Shared);
        assert!(m.evidence(), "9 shared against 3 apart");
        (0..DELAY_MEMORY - 2).for_each(|_| m.push(Verdict::NoEvidence));
        assert!(!m.evidence(), "the oldest verdicts leave the memory");
    }

    #[test]
    fn sharing_is_transitive_and_held() {
        let mut v = Verifier::new(3, 5 * MS, VerifyFollow::Decisions, VerifyStart::Decisions);
        // Pairs (0, 1) and (1, 2) with evidence, (0, 2) none: all three in one group.
        for _ in 0..DELAY_MIN_SHARED {
            v.delay[pair_index(3, 0, 1)].push(Verdict::Shared);
            v.delay[pair_index(3, 1, 2)].push(Verdict::Shared);
        }
        v.compare_pairs(0);
        assert!(v.shared(0, 2) && v.shared(2, 0), "one bottleneck per path: 0 and 2 share too");
        // Contrary verdicts end the evidence; the pair stays coupled for the hold after the
        // last interval that had it, then runs apart.
        for _ in 0..DELAY_MEMORY {
            v.delay[pair_index(3, 0, 1)].push(Verdict::Apart);
            v.delay[pair_index(3, 1, 2)].push(Verdict::Apart);
        }
        // The sender's own two decisions put the three in groups of their own.
        v.groups = Some(vec![1, 2, 3]);
        v.previous = v.groups.clone();
        while v.interval < HOLD_INTERVALS {
            v.compare_pairs(0);
        }
        assert!(v.shared(0, 2), "within the hold");
        v.compare_pairs(0);
        assert!(!v.shared(0, 2), "after the hold");
    }

    #[test]
    fn a_pair_stays_coupled_until_the_senders_own_two_decisions_find_it_apart() {
        let mut v = Verifier::new(2, 5 * MS, VerifyFollow::Decisions, VerifyStart::Decisions);
        assert!(v.shared(0, 1), "before the sender's first decision");
        v.groups = Some(vec![1, 2]);
        assert!(v.shared(0, 1), "one decision apart, none before it");
        v.previous = v.groups.clone();
        assert!(!v.shared(0, 1), "two decisions apart");
        v.groups = None;
        v.previous = None;
        (0..DELAY_MIN_SHARED).for_each(|_| v.beyond_chance[0].push(Verdict::Apart));
        v.compare_pairs(0);
        assert!(!v.shared(0, 1), "evidence of two bottlenecks needs no decision");
    }

    #[test]
    fn with_evidence_a_pair_stays_coupled_until_the_comparison_test_has_judged_it() {
        let apart_decisions = |v: &mut Verifier| {
            v.groups = Some(vec![1, 2]);
            v.previous = v.groups.clone();
        };
        // Two decisions apart, no window after both slow starts yet: not judged.
        let mut v = Verifier::new(2, 5 * MS, VerifyFollow::Decisions, VerifyStart::Evidence);
        apart_decisions(&mut v);
        v.compare_pairs(0);
        assert!(v.shared(0, 1), "no window read: the receiver's \"apart\" is unchecked");
        // Windows after both slow starts, none with evidence either way: judged after
        // JUDGED_WINDOWS of them, then the decisions rule.
        v.first_loss_ns = vec![Some(0), Some(0)];
        for _ in 1..JUDGED_WINDOWS {
            v.compare_pairs(60_000_000_000);
        }
        assert!(v.shared(0, 1), "one window short of judged");
        v.compare_pairs(60_000_000_000);
        assert!(!v.shared(0, 1), "judged without evidence: the decisions rule");
        // Evidence of two bottlenecks judges at once.
        let mut v = Verifier::new(2, 5 * MS, VerifyFollow::Decisions, VerifyStart::Evidence);
        apart_decisions(&mut v);
        (0..DELAY_MIN_SHARED).for_each(|_| v.beyond_chance[0].push(Verdict::Apart));
        v.compare_pairs(0);
        assert!(!v.shared(0, 1), "evidence of two bottlenecks");
        // The default keeps no such hold.
        let mut v = Verifier::new(2, 5 * MS, VerifyFollow::Decisions, VerifyStart::Decisions);
        apart_decisions(&mut v);
        assert!(!v.shared(0, 1), "decisions: two decisions apart suffice");
    }

    #[test]
    fn the_hold_ends_on_evidence_of_two_bottlenecks_since_the_link() {
        let mut v = Verifier::new(2, 5 * MS, VerifyFollow::Decisions, VerifyStart::Decisions);
        (0..DELAY_MIN_SHARED).for_each(|_| v.delay[0].push(Verdict::Shared));
        v.compare_pairs(0);
        (0..DELAY_MEMORY).for_each(|_| v.delay[0].push(Verdict::Apart)); // the evidence is gone
        v.groups = Some(vec![1, 2]);
        v.previous = v.groups.clone();
        v.compare_pairs(0);
        assert!(v.shared(0, 1), "held");
        v.since_linked[0] = (DELAY_MIN_SHARED - 1, 0);
        assert!(v.shared(0, 1), "too few \"apart\" beyond chance since the link");
        v.since_linked[0] = (DELAY_MIN_SHARED, 3);
        assert!(v.shared(0, 1), "not three times the \"shared\" ones");
        v.since_linked[0] = (DELAY_SHARED_PER_APART * 3, 3);
        assert!(!v.shared(0, 1), "evidence of two bottlenecks since the link ends the hold");
        (0..DELAY_MEMORY).for_each(|_| v.delay[0].push(Verdict::Shared));
        v.compare_pairs(0);
        assert!(v.shared(0, 1), "new evidence of sharing links the pair again");
    }

    #[test]
    fn evidence_of_two_bottlenecks_overrides_the_senders_own_coupling_but_not_sharing() {
        let mut v = Verifier::new(2, 5 * MS, VerifyFollow::Decisions, VerifyStart::Decisions);
        v.groups = Some(vec![0, 1]); // subflow 0 not congested: coupled with every other
        assert!(v.shared(0, 1));
        (0..DELAY_MIN_SHARED).for_each(|_| v.beyond_chance[0].push(Verdict::Apart));
        v.compare_pairs(0); // no bins: a verdict of no evidence, the apart ones stay
        assert!(!v.shared(0, 1), "two bottlenecks beyond chance: the receiver may split them");
        (0..DELAY_MIN_SHARED).for_each(|_| v.delay[0].push(Verdict::Shared));
        v.compare_pairs(0);
        assert!(v.shared(0, 1), "evidence of sharing by the sign still couples");
    }

    #[test]
    fn the_sets_follow_a_changed_answer_at_its_interval_only_where_asked() {
        use Recompute::{All, Grow, No};
        for (follow, split, linked) in [(VerifyFollow::Decisions, No, No), (VerifyFollow::Intervals, All, All), (VerifyFollow::Rises, No, Grow)] {
            let mut v = Verifier::new(2, 5 * MS, follow, VerifyStart::Decisions);
            assert_eq!(v.answers_changed(), No, "{follow:?}: coupled before the sender has looked, as at the start");
            // The sender's own two decisions find the pair apart: the check lets it go.
            v.groups = Some(vec![1, 2]);
            v.previous = v.groups.clone();
            assert_eq!(v.answers_changed(), split, "{follow:?}: the check's answer turned to apart");
            assert_eq!(v.answers_changed(), No, "{follow:?}: the same answer again");
            // Evidence of sharing links the pair at an interval.
            (0..DELAY_MIN_SHARED).for_each(|_| v.delay[0].push(Verdict::Shared));
            v.compare_pairs(0);
            assert_eq!(v.answers_changed(), linked, "{follow:?}: the check's answer turned to shared");
        }
    }

    #[test]
    fn the_comparison_test_couples_one_queue_and_not_two_alike_ones() {
        let settled = [Some(2 * MS), Some(2 * MS)];
        assert!(compared_after(0, settled), "one queue under both subflows");
        assert!(!compared_after(75 * MS, settled), "the same sawtooth 75 ms apart: two queues");
    }

    #[test]
    fn the_comparison_test_reads_no_window_from_before_both_slow_starts_ended() {
        assert!(!compared_after(0, [Some(2 * MS), None]), "one subflow still in its slow start");
        // Subflow 1 leaves it at 20 s: windows from then on (2.8 s) still find the one queue.
        assert!(compared_after(0, [Some(2 * MS), Some(20_000 * MS)]), "both out of it");
        assert!(!compared_after(0, [Some(2 * MS), Some(28_000 * MS)]), "no whole window after it");
    }
}
