//! The SBD daemon's decisions without the kernel: RTT samples of (token, subflow id) in, each
//! connection's subflow groups out. Per connection and RFC 8382 interval (T = 350 ms): the
//! bottleneck test of pathpool-sbd's RFC 8382 detector with S0's parameters (§3.3.1 step 1),
//! groups by Rubenstein et al.'s delay comparison test (`crate::comparison`) on every pair
//! instead of RFC 8382's statistics splits on the bottlenecked ones (a subflow step 1 calls not
//! bottlenecked is group 0 when the test finds it no partner), then S0's decision filter
//! (§III-B), sliding over the last 10 intervals, through pathpool-sbd's shared
//! `FilteredDetector`. An interval whose pairs lack evidence is abstained, not guessed
//! (docs/kernel.md, "The SBD daemon").

use crate::comparison::{compare_over, ApartWhen, Bins, Verdict, BINS_PER_INTERVAL, BIN_NS, WINDOW_BINS};
use pathpool_sbd::{canonicalize, Detector, FilterParams, FilteredDetector, Observation, Rfc8382Detector, SbdParams, NOT_BOTTLENECKED};
use std::collections::BTreeMap;

/// Linux MPTCP's subflow limit: the detector's flow slots per connection.
pub const SLOTS: usize = 8;

/// One decision for one connection: (subflow id, group) in order of first sample, and the
/// previous decision's groups (None before the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupDecision {
    pub token: u32,
    pub groups: Vec<(u32, u32)>,
    pub previous: Option<Vec<(u32, u32)>>,
}

impl GroupDecision {
    pub fn changed(&self) -> bool {
        self.previous.as_ref() != Some(&self.groups)
    }
}

/// What a connection's intervals gave: a decision, or a decision window's worth of intervals
/// (S0's 10) in a row without evidence, for which no groups are written ("not yet").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Decision(GroupDecision),
    NotYet { token: u32, intervals: u64 },
}

/// S0's decision filter (§III-B: together in 5 or more of 10 intervals), taken after every
/// interval over the last 10 instead of once per 10 (a recorded deviation, docs/kernel.md "The
/// SBD daemon": a window straddling a moved bottleneck then does not hold the reaction back to
/// the next window's end).
fn filter_params() -> FilterParams {
    FilterParams { sliding: true, ..FilterParams::default() }
}

struct Conn {
    ids: Vec<u32>,
    /// The comparison test's groups through S0's decision filter.
    sbd: FilteredDetector<Compared>,
    groups: Option<Vec<(u32, u32)>>,
    last_ns: u64,
}

/// The daemon's detector: per RFC 8382 interval, the bottleneck test of pathpool-sbd's
/// detector, then the comparison test on every pair of subflows; an interval without evidence
/// makes no observation (an abstention).
struct Compared {
    token: u32,
    det: Rfc8382Detector,
    /// Slots holding a subflow (the connection's subflows so far).
    slots: usize,
    /// Each slot's RTT in bins since `origin_ns` (the first sample), for the comparison test.
    bins: Vec<Bins>,
    origin_ns: u64,
    /// The comparison test's window in bins (`ConnGroups::with_comparison_window`).
    window_bins: usize,
    apart_when: ApartWhen,
    /// Intervals in a row without evidence (a pair of bottlenecked subflows not judged).
    abstained: u64,
    /// Abstention counts at each decision window's worth in a row, not yet reported.
    not_yet: Vec<u64>,
    tested: Observation,
    scratch: Vec<u32>,
    /// Each closed interval's record, when asked for (`ConnGroups::record_intervals`).
    records: Option<Vec<IntervalRecord>>,
}

/// The detectors of every connection seen.
pub struct ConnGroups {
    params: SbdParams,
    conns: BTreeMap<u32, Conn>,
    /// Each closed interval's inputs to the grouping, when asked for (`record_intervals`).
    intervals: Option<Vec<IntervalRecord>>,
    window_bins: usize,
    apart_when: ApartWhen,
}

/// What one closed interval gave the grouping: step 1's verdict per subflow (in order of
/// first sample) and the comparison test's on each pair; for examining recorded samples.
#[derive(Clone, Debug)]
pub struct IntervalRecord {
    pub token: u32,
    pub time_ns: u64,
    /// N intervals have closed (step 1's statistics span N).
    pub warm: bool,
    pub bottlenecked: Vec<bool>,
    /// Step 1's skew_est per subflow.
    pub skew: Vec<f64>,
    pub pairs: Vec<(usize, usize, Verdict)>,
    /// The groups handed to the decision filter (canonical, per subflow), None for an
    /// abstention.
    pub observation: Option<Vec<u32>>,
}

impl Default for ConnGroups {
    fn default() -> Self {
        // S0's parameters: only its bottleneck test (step 1) is used; the grouping is the
        // comparison test's.
        // "Apart" only beyond chance: docs/kernel.md, "The SBD daemon", "Chance is not evidence".
        ConnGroups {
            params: SbdParams::mptcp_sbd(),
            conns: BTreeMap::new(),
            intervals: None,
            window_bins: WINDOW_BINS,
            apart_when: ApartWhen::SignificantlyBelow,
        }
    }
}

impl ConnGroups {
    /// The daemon's grouping with the comparison test over the last `intervals` RFC 8382
    /// intervals instead of 8 (for comparing windows on recorded samples); 1 to 8.
    pub fn with_comparison_window(intervals: usize) -> Result<Self, String> {
        let bins = intervals * BINS_PER_INTERVAL as usize;
        if intervals == 0 || bins > WINDOW_BINS {
            return Err(format!("comparison window: expected 1 to {} intervals, got {intervals}", WINDOW_BINS / BINS_PER_INTERVAL as usize));
        }
        Ok(ConnGroups { window_bins: bins, ..ConnGroups::default() })
    }

    /// The daemon's grouping with the comparison test reading "apart" as `apart_when` says
    /// (for comparing the rules on recorded samples).
    pub fn with_apart_when(self, apart_when: ApartWhen) -> Self {
        ConnGroups { apart_when, ..self }
    }

    /// One RTT sample (`ts_ns` on any monotonic clock); returns what it completed.
    /// A ninth subflow of a connection is ignored.
    pub fn on_sample(&mut self, token: u32, subflow: u32, ts_ns: u64, rtt_us: u32, out: &mut Vec<Outcome>) {
        let (params, window_bins, apart_when) = (&self.params, self.window_bins, self.apart_when);
        let recording = self.intervals.is_some();
        let c = self.conns.entry(token).or_insert_with(|| Conn {
            ids: Vec::new(),
            sbd: FilteredDetector::new(Compared::new(token, params, ts_ns, recording, (window_bins, apart_when)), filter_params()),
            groups: None,
            last_ns: 0,
        });
        let slot = match c.ids.iter().position(|&x| x == subflow) {
            Some(s) => s,
            None if c.ids.len() < SLOTS => {
                c.ids.push(subflow);
                c.ids.len() - 1
            }
            None => return,
        };
        // Samples of different CPUs may arrive slightly out of order: time never goes back.
        let now = ts_ns.max(c.last_ns);
        c.last_ns = now;
        c.sbd.detector_mut().slots = c.ids.len();
        while let Some(step) = c.sbd.poll(now) {
            // The abstentions came before the interval that was tested.
            c.report_not_yet(token, out);
            if step.decided {
                let groups: Vec<(u32, u32)> = c.ids.iter().copied().zip(c.sbd.decision().groups.iter().copied()).collect();
                out.push(Outcome::Decision(GroupDecision { token, groups: groups.clone(), previous: c.groups.replace(groups) }));
            }
        }
        c.report_not_yet(token, out);
        if let (Some(log), Some(records)) = (self.intervals.as_mut(), c.sbd.detector_mut().records.as_mut()) {
            log.append(records);
        }
        c.sbd.on_delay(slot, now, i64::from(rtt_us) * 1000);
    }

    /// Forgets the connections for which `ended(token, last sample time)` holds; returns them.
    pub fn forget(&mut self, mut ended: impl FnMut(u32, u64) -> bool) -> Vec<u32> {
        let gone: Vec<u32> = self.conns.iter().filter(|(t, c)| ended(**t, c.last_ns)).map(|(t, _)| *t).collect();
        for t in &gone {
            self.conns.remove(t);
        }
        gone
    }

    /// Keeps every closed interval's [`IntervalRecord`] of connections seen from now on (off
    /// in the daemon).
    pub fn record_intervals(&mut self) {
        self.intervals.get_or_insert_with(Vec::new);
    }

    /// The intervals recorded so far, emptied.
    pub fn take_intervals(&mut self) -> Vec<IntervalRecord> {
        self.intervals.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub fn len(&self) -> usize {
        self.conns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }
}

impl Conn {
    fn report_not_yet(&mut self, token: u32, out: &mut Vec<Outcome>) {
        out.extend(self.sbd.detector_mut().not_yet.drain(..).map(|intervals| Outcome::NotYet { token, intervals }));
    }
}

impl Compared {
    fn new(token: u32, params: &SbdParams, origin_ns: u64, recording: bool, (window_bins, apart_when): (usize, ApartWhen)) -> Self {
        Compared {
            token,
            det: Rfc8382Detector::new(params.clone(), SLOTS),
            slots: 0,
            bins: vec![Bins::default(); SLOTS],
            origin_ns,
            window_bins,
            apart_when,
            abstained: 0,
            not_yet: Vec::new(),
            tested: Observation::new(SLOTS),
            scratch: vec![0; SLOTS + 1],
            records: recording.then(Vec::new),
        }
    }

    /// One closed RFC 8382 interval: its bottleneck test and the comparison test on every
    /// pair of subflows; false for an abstention.
    fn on_interval(&mut self, obs: &Observation) -> bool {
        // The test's window ends one interval before this one's end: segments sent in it have
        // been acknowledged by now (RTT < T = 350 ms; a longer RTT thins its newest bins).
        let end = (obs.time_ns.saturating_sub(self.origin_ns) / BIN_NS).saturating_sub(BINS_PER_INTERVAL);
        let n = self.slots;
        let bottlenecked: Vec<bool> = (0..n).map(|i| obs.groups[i] != NOT_BOTTLENECKED).collect();
        // RFC 8382's skew_est is a statistic of N intervals (§3.2): before N have closed it is
        // mostly the slow start's rising RTT, which reads as "not bottlenecked" (S0's code
        // starts at once; the RFC advises a warm-up, §3.3.1). Until then a subflow called not
        // bottlenecked makes the interval an abstention, not a decision.
        let warm = self.det.intervals_closed() >= self.det.params().n as u64;
        let mut evidence = warm || bottlenecked.iter().all(|&b| b);
        // Every pair is compared, not only pairs step 1 calls bottlenecked (a deviation from
        // RFC 8382 §3.3.1, docs/kernel.md "The SBD daemon"): on RTT, step 1 called a shared
        // queue with drops not bottlenecked in 30 % of its subflow-intervals and two saturated
        // links of their own in 94 %, where the comparison test was right in 100 % and 88 %.
        // A subflow step 1 calls not bottlenecked keeps group 0 unless the test finds a
        // partner: pp_mptcp_sbd runs group 0 uncoupled (S0 §III-B.5), a found partner couples.
        let mut labels: Vec<u32> = (0..SLOTS).map(|i| i as u32 + 1).collect();
        let mut pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let verdict = compare_over(&self.bins[a], &self.bins[b], end, self.window_bins, self.apart_when);
                pairs.push((a, b, verdict));
                match verdict {
                    Verdict::Shared => {
                        let (from, to) = (labels[b], labels[a]);
                        labels.iter_mut().filter(|l| **l == from).for_each(|l| *l = to);
                    }
                    Verdict::Apart => {}
                    // Without evidence on a pair step 1 calls bottlenecked the interval is
                    // abstained; a subflow not bottlenecked simply finds no partner in it.
                    Verdict::NoEvidence => evidence &= !(bottlenecked[a] && bottlenecked[b]),
                }
            }
        }
        for i in 0..SLOTS {
            let alone = !(0..n).any(|j| j != i && labels[j] == labels[i]);
            if i >= n || (alone && !bottlenecked[i]) {
                labels[i] = NOT_BOTTLENECKED;
            }
        }
        canonicalize(&mut labels, &mut self.scratch);
        if let Some(records) = self.records.as_mut() {
            let skew = self.det.flow_stats()[..n].iter().map(|f| f.skew_est).collect();
            let observation = evidence.then(|| labels[..n].to_vec());
            records.push(IntervalRecord { token: self.token, time_ns: obs.time_ns, warm, bottlenecked, skew, pairs, observation });
        }
        if !evidence {
            self.abstained += 1;
            if self.abstained % FilterParams::default().window as u64 == 0 {
                self.not_yet.push(self.abstained);
            }
            return false;
        }
        self.abstained = 0;
        self.tested = Observation { time_ns: obs.time_ns, groups: labels };
        true
    }
}

impl Detector for Compared {
    fn n_flows(&self) -> usize {
        SLOTS
    }
    fn on_delay(&mut self, slot: usize, now_ns: u64, rtt_ns: i64) {
        self.det.on_owd_sample(slot, now_ns, rtt_ns);
        // Binned by the segment's send time (ACK time - RTT): the queue was crossed soon after
        // it, while the ACK time adds each subflow's own delay after the bottleneck and back.
        let sent = now_ns.saturating_sub(rtt_ns as u64).max(self.origin_ns);
        self.bins[slot].add((sent - self.origin_ns) / BIN_NS, (rtt_ns / 1000) as f64);
    }
    fn on_loss(&mut self, slot: usize, now_ns: u64) {
        self.det.on_loss(slot, now_ns);
    }
    fn on_unsampled(&mut self, slot: usize, now_ns: u64) {
        self.det.on_unsampled_packet(slot, now_ns);
    }
    /// The next tested interval due by `now_ns`; the abstained ones before it are counted.
    fn poll(&mut self, now_ns: u64) -> Option<&Observation> {
        while let Some(obs) = self.det.poll(now_ns) {
            let obs = obs.clone();
            if self.on_interval(&obs) {
                return Some(&self.tested);
            }
        }
        None
    }
    fn last_observation(&self) -> &Observation {
        &self.tested
    }
    fn memory_restarts(&self) -> u64 {
        self.det.memory_restarts()
    }
    fn evaluations(&self) -> u64 {
        self.det.intervals_closed()
    }
}
