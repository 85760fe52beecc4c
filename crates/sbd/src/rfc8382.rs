//! The RFC 8382 detector (statistics §3.2, enhancements §4, grouping §3.3.1; algorithm digest
//! §6) fed with per-flow relative one-way delays. All flows share one grid of base intervals
//! of length T, anchored at the first sample or loss (as [S0]'s kernel anchors it at
//! connection start).

use crate::change::{ChangeDetector, Restart};
use crate::clock_skew::SkewEstimator;
use crate::correlation::{CorrelationSplit, MIN_COMMON};
use crate::pairs::PairRelation;
use crate::grouping::{FlowStats, Grouper};
use crate::observation::Observation;
use crate::params::SbdParams;

/// Per-flow accumulators touched by every sample: kept small and together.
#[derive(Clone, Copy, Debug)]
struct Hot {
    /// mean_delay of the last M closed intervals (NaN before any): the skew comparison base.
    mean_delay: f64,
    /// E_T of the previous interval (NaN if it was empty): the MAD base (§11 item 16).
    prev_mean: f64,
    /// Relative clock skew removed from every sample (0 without skew removal).
    clock_slope: f64,
    sum: f64,
    var_sum: f64,
    n: u32,
    var_n: u32,
    skew_base: i32,
    lost: u32,
    /// Packets received without an OWD sample (a receiver that thins its samples): they
    /// count in pkt_loss's denominator only.
    unsampled: u32,
    min_raw: i64,
}

impl Hot {
    const EMPTY: Hot = Hot {
        mean_delay: f64::NAN,
        prev_mean: f64::NAN,
        clock_slope: 0.0,
        sum: 0.0,
        var_sum: 0.0,
        n: 0,
        var_n: 0,
        skew_base: 0,
        lost: 0,
        unsampled: 0,
        min_raw: i64::MAX,
    };
}

/// Per-flow history, touched once per interval.
#[derive(Clone, Debug)]
struct Cold {
    w_skew: crate::weighted::WeightedWindow,
    w_n: crate::weighted::WeightedWindow,
    w_var: crate::weighted::WeightedWindow,
    w_var_n: crate::weighted::WeightedWindow,
    /// Ring of the last N interval means E_T (NaN = empty interval), newest at `ring_head`.
    means: Box<[f64]>,
    /// OWD samples behind each interval mean (the change test weighs by them).
    samples: Box<[u32]>,
    lost: Box<[u32]>,
    total: Box<[u32]>,
    crossed: Box<[bool]>,
    lost_sum: u64,
    total_sum: u64,
    crossings: u32,
    last_side: i8,
    was_bottlenecked: bool,
    skew: Option<SkewEstimator>,
}

/// Streaming RFC 8382 / MPTCP-SBD detector for a fixed number of flows.
#[derive(Clone, Debug)]
pub struct Rfc8382Detector {
    p: SbdParams,
    hot: Vec<Hot>,
    cold: Vec<Cold>,
    stats: Vec<FlowStats>,
    grouper: Grouper,
    corr: CorrelationSplit,
    /// The pair relation and its correlation threshold, when asked for (`enable_pairs`).
    pairs: Option<(PairRelation, f64)>,
    change: ChangeDetector,
    /// Flows whose memory the change test restarted at the last interval (scratch).
    fired: Vec<Restart>,
    obs: Observation,
    /// Grid origin and the end of the interval being filled (None before the first event).
    origin_ns: Option<u64>,
    interval_end_ns: u64,
    ring_head: usize,
    intervals_closed: u64,
    observations: u64,
    pending: bool,
    skipped: u64,
}

impl Rfc8382Detector {
    /// A detector for flows `0..n_flows`. Panics if `params` fail [`SbdParams::validate`].
    pub fn new(params: SbdParams, n_flows: usize) -> Self {
        if let Err(e) = params.validate() {
            panic!("invalid SBD parameters: {e}");
        }
        let (n, m, f) = (params.n, params.m, params.f);
        let cold = Cold {
            w_skew: crate::weighted::WeightedWindow::new(m, f),
            w_n: crate::weighted::WeightedWindow::new(m, f),
            w_var: crate::weighted::WeightedWindow::new(m, f),
            w_var_n: crate::weighted::WeightedWindow::new(m, f),
            means: vec![f64::NAN; n].into_boxed_slice(),
            samples: vec![0; n].into_boxed_slice(),
            lost: vec![0; n].into_boxed_slice(),
            total: vec![0; n].into_boxed_slice(),
            crossed: vec![false; n].into_boxed_slice(),
            lost_sum: 0,
            total_sum: 0,
            crossings: 0,
            last_side: 0,
            was_bottlenecked: false,
            skew: params.skew_removal.then(|| SkewEstimator::new(params.skew_window, params.skew_window.min(n))),
        };
        Rfc8382Detector {
            hot: vec![Hot::EMPTY; n_flows],
            cold: vec![cold; n_flows],
            stats: vec![FlowStats::default(); n_flows],
            grouper: Grouper::new(n_flows),
            corr: CorrelationSplit::new(n_flows),
            pairs: None,
            change: ChangeDetector::new(n_flows),
            fired: vec![Restart::None; n_flows],
            obs: Observation::new(n_flows),
            origin_ns: None,
            interval_end_ns: 0,
            ring_head: 0,
            intervals_closed: 0,
            observations: 0,
            pending: false,
            skipped: 0,
            p: params,
        }
    }

    pub fn params(&self) -> &SbdParams {
        &self.p
    }

    pub fn n_flows(&self) -> usize {
        self.hot.len()
    }

    /// One relative one-way delay sample (any constant offset; |owd| below about 10^15 ns).
    /// `now_ns` must not decrease; a sample earlier than the current interval counts in it.
    #[inline]
    pub fn on_owd_sample(&mut self, flow: usize, now_ns: u64, owd_ns: i64) {
        self.enter(now_ns);
        let origin = self.origin_ns.unwrap_or(now_ns);
        let h = &mut self.hot[flow];
        let x = owd_ns as f64 - h.clock_slope * now_ns.saturating_sub(origin) as f64;
        h.n += 1;
        h.sum += x;
        // NaN mean (no history yet) compares false both ways: no skew vote.
        h.skew_base += (x < h.mean_delay) as i32 - (x > h.mean_delay) as i32;
        let dev = (x - h.prev_mean).abs();
        if !dev.is_nan() {
            h.var_sum += dev;
            h.var_n += 1;
        }
        h.min_raw = h.min_raw.min(owd_ns);
    }

    /// One lost packet of `flow`, counted in the interval containing `now_ns`.
    pub fn on_loss(&mut self, flow: usize, now_ns: u64) {
        self.enter(now_ns);
        self.hot[flow].lost += 1;
    }

    /// One packet of `flow` received at `now_ns` whose delay is not sampled (the receiver
    /// keeps fewer OWD samples than packets): it counts as received for pkt_loss only, so
    /// thinning the samples does not inflate the loss ratio.
    pub fn on_unsampled_packet(&mut self, flow: usize, now_ns: u64) {
        self.enter(now_ns);
        self.hot[flow].unsampled += 1;
    }

    /// Closes the next interval ending at or before `now_ns` and returns its observation, or
    /// `None` when no interval is due (or warm-up is not over). Call it in a loop
    /// (`while let Some(o) = det.poll(now) {..}`) before feeding samples of time `now`.
    pub fn poll(&mut self, now_ns: u64) -> Option<&Observation> {
        if self.pending {
            self.pending = false;
            return Some(&self.obs);
        }
        self.origin_ns?;
        while now_ns >= self.interval_end_ns {
            if self.close_interval() {
                return Some(&self.obs);
            }
        }
        None
    }

    /// The statistics of every flow after the last closed interval.
    pub fn flow_stats(&self) -> &[FlowStats] {
        &self.stats
    }

    /// The last observation made (before any: all zeros at time 0).
    pub fn last_observation(&self) -> &Observation {
        &self.obs
    }

    pub fn intervals_closed(&self) -> u64 {
        self.intervals_closed
    }

    /// Observations made so far, including any skipped ones.
    pub fn observations_made(&self) -> u64 {
        self.observations
    }

    /// Observations overwritten because samples crossed several interval ends between polls.
    pub fn observations_skipped(&self) -> u64 {
        self.skipped
    }

    /// Also computes, with every observation, which pairs of flows share a bottleneck
    /// (`crate::pairs`; pairs whose delays correlate at least `min_corr`). Off by default: it
    /// costs O(pairs x N) per interval.
    pub fn enable_pairs(&mut self, min_corr: f64) {
        self.pairs = Some((PairRelation::new(self.hot.len()), min_corr));
    }

    /// The pair relation of the last observation (None unless `enable_pairs` was called).
    pub fn pair_relation(&self) -> Option<&PairRelation> {
        self.pairs.as_ref().map(|(r, _)| r)
    }

    /// Memory restarts by the change detector so far (one per flow restarted; 0 without
    /// `change_detect`). A caller that sees it grow restarts its decision filter too
    /// ([`crate::DecisionFilter::restart`]).
    pub fn memory_restarts(&self) -> u64 {
        self.change.restarts()
    }

    /// The clock skew currently removed from `flow`'s samples (ns per ns).
    pub fn clock_skew(&self, flow: usize) -> f64 {
        self.hot[flow].clock_slope
    }

    #[inline]
    fn enter(&mut self, now_ns: u64) {
        if now_ns >= self.interval_end_ns {
            self.catch_up(now_ns);
        }
    }

    #[cold]
    fn catch_up(&mut self, now_ns: u64) {
        if self.origin_ns.is_none() {
            self.origin_ns = Some(now_ns);
            self.interval_end_ns = now_ns + self.p.t_ns;
            return;
        }
        while now_ns >= self.interval_end_ns {
            if self.close_interval() {
                if self.pending {
                    self.skipped += 1;
                }
                self.pending = true;
            }
        }
    }

    /// Ends the current interval for every flow; returns true if an observation was made.
    fn close_interval(&mut self) -> bool {
        let p = &self.p;
        let n = p.n;
        let origin = self.origin_ns.unwrap_or(0);
        let mid = (self.interval_end_ns - p.t_ns / 2).saturating_sub(origin) as f64;
        self.ring_head = (self.ring_head + 1) % n;
        let head = self.ring_head;
        for (flow, (h, c)) in self.hot.iter_mut().zip(self.cold.iter_mut()).enumerate() {
            let e_t = if h.n > 0 { h.sum / h.n as f64 } else { f64::NAN };

            // skew_est over M, F-weighted (RFC 8382 §3.2.2, §4.1).
            c.w_skew.push(h.skew_base as i64);
            c.w_n.push(h.n as i64);
            let wn = c.w_n.weighted_sum();
            let skew_est = if wn > 0 { c.w_skew.weighted_sum() as f64 / wn as f64 } else { 0.0 };

            // pkt_loss over N: lost / (received + lost).
            let total = h.n + h.unsampled + h.lost;
            c.lost_sum = c.lost_sum + h.lost as u64 - c.lost[head] as u64;
            c.total_sum = c.total_sum + total as u64 - c.total[head] as u64;
            c.lost[head] = h.lost;
            c.total[head] = total;
            let pkt_loss = if c.total_sum > 0 { c.lost_sum as f64 / c.total_sum as f64 } else { 0.0 };

            // Step 1 of §3.3.1 with c_h hysteresis; it gates noise removal (§4.2). A flow without
            // samples in the last M intervals has no skew evidence (skew_est = 0 would pass
            // c_s = +0.1 of the RFC preset).
            let skewed = wn > 0 && (skew_est < p.c_s || (skew_est < p.c_h && c.was_bottlenecked));
            let bottlenecked = skewed || pkt_loss > p.p_l;
            c.was_bottlenecked = bottlenecked;

            // var_est (MAD) over M, F-weighted; §4.2 drops intervals of non-bottlenecked flows
            // from numerator and count alike.
            let keep_var = !p.noise_removal || bottlenecked;
            c.w_var.push(if keep_var { h.var_sum.round() as i64 } else { 0 });
            c.w_var_n.push(if keep_var { h.var_n as i64 } else { 0 });
            let wvn = c.w_var_n.weighted_sum();
            let var_est = if wvn > 0 { c.w_var.weighted_sum() as f64 / wvn as f64 } else { 0.0 };

            // Significant mean crossing (§3.2.4): E_T leaves the band mean_delay ± p_v·var_est on
            // the other side from the last excursion. Counted over N; §4.2 counts only while
            // bottlenecked.
            let band = p.p_v * var_est;
            let side: i8 = if e_t > h.mean_delay + band {
                1
            } else if e_t < h.mean_delay - band {
                -1
            } else {
                0
            };
            let crossed = side != 0 && c.last_side != 0 && side != c.last_side && (!p.noise_removal || bottlenecked);
            if side != 0 {
                c.last_side = side;
            }
            c.crossings = c.crossings + crossed as u32 - c.crossed[head] as u32;
            c.crossed[head] = crossed;
            let freq_est = c.crossings as f64 / n as f64;

            c.means[head] = e_t;
            c.samples[head] = h.n;
            if let Some(est) = c.skew.as_mut() {
                if h.n > 0 {
                    est.push(mid, h.min_raw as f64);
                }
                if let Some(slope) = est.slope() {
                    // Re-express the stored means with the new estimate.
                    let delta = slope - h.clock_slope;
                    for k in 0..n {
                        let age = (head + n - k) % n;
                        c.means[age] -= delta * (mid - k as f64 * p.t_ns as f64);
                    }
                    h.clock_slope = slope;
                }
            }
            h.prev_mean = c.means[head];
            h.mean_delay = mean_of_last(&c.means, head, p.m);

            self.stats[flow] = FlowStats { skew_est, var_est, freq_est, pkt_loss, bottlenecked };
            *h = Hot { mean_delay: h.mean_delay, prev_mean: h.prev_mean, clock_slope: h.clock_slope, ..Hot::EMPTY };
        }
        if self.p.change_detect {
            self.detect_change();
        }
        self.intervals_closed += 1;
        self.obs.time_ns = self.interval_end_ns;
        self.interval_end_ns += self.p.t_ns;
        if self.intervals_closed < self.p.min_intervals as u64 {
            return false;
        }
        self.grouper.group(&self.stats, &self.p, &mut self.obs.groups);
        if self.p.corr_split {
            let cold = &self.cold;
            let oldest = (self.ring_head + 1) % self.p.n;
            // After a restart a pair holds only the change window: judge it from there on.
            let min_common = if self.p.change_detect { MIN_COMMON.min(self.p.change_window) } else { MIN_COMMON };
            // Each pair is judged on the intervals since either flow's last restart.
            let (change, on) = (&self.change, self.p.change_detect);
            let held = |i| if on { change.held(i) } else { usize::MAX };
            let parted = |a, b| on && change.parted(a, b);
            self.corr.apply_with(&mut self.obs.groups, self.p.corr_min, min_common, oldest, |i| &cold[i].means, held, parted);
        }
        if let Some((rel, min_corr)) = &mut self.pairs {
            let cold = &self.cold;
            let oldest = (self.ring_head + 1) % self.p.n;
            let min_common = if self.p.change_detect { MIN_COMMON.min(self.p.change_window) } else { MIN_COMMON };
            let (change, on) = (&self.change, self.p.change_detect);
            rel.observe(&self.obs.groups, *min_corr, min_common, oldest, |i| &cold[i].means, |i| if on { change.held(i) } else { usize::MAX });
        }
        self.observations += 1;
        true
    }
}

impl Rfc8382Detector {
    /// The change test (`crate::change`) after every flow's interval closed: flows whose
    /// bottleneck changed keep only the recent window of their history, and their statistics
    /// are recomputed from it.
    fn detect_change(&mut self) {
        let (head, n, keep) = (self.ring_head, self.p.n, self.p.change_window);
        let cold = &self.cold;
        let hot = &self.hot;
        self.change.test(&self.p.change(), head, &self.obs.groups, |i| &cold[i].means, |i| &cold[i].samples, |i| hot[i].mean_delay, &mut self.fired);
        for flow in 0..self.hot.len() {
            let (h, c) = (&mut self.hot[flow], &mut self.cold[flow]);
            if self.fired[flow] == Restart::Full {
                c.keep_newest(keep, head);
                h.mean_delay = mean_of_last(&c.means, head, self.p.m);
                let s = &mut self.stats[flow];
                let wn = c.w_n.weighted_sum();
                s.skew_est = if wn > 0 { c.w_skew.weighted_sum() as f64 / wn as f64 } else { 0.0 };
                let wvn = c.w_var_n.weighted_sum();
                s.var_est = if wvn > 0 { c.w_var.weighted_sum() as f64 / wvn as f64 } else { 0.0 };
                s.pkt_loss = if c.total_sum > 0 { c.lost_sum as f64 / c.total_sum as f64 } else { 0.0 };
            }
            // freq_est stays over N as in RFC 8382: normalised by the intervals held, a
            // restarted flow's few crossings split it from its partners by p_f (measured,
            // docs/sbd.md).
            self.stats[flow].freq_est = c.crossings as f64 / n as f64;
        }
    }
}

impl Cold {
    /// Forgets everything older than the `keep` newest intervals (a memory restart).
    fn keep_newest(&mut self, keep: usize, head: usize) {
        for w in [&mut self.w_skew, &mut self.w_n, &mut self.w_var, &mut self.w_var_n] {
            w.keep_newest(keep);
        }
        let n = self.means.len();
        for age in keep..n {
            let i = (head + n - age) % n;
            self.means[i] = f64::NAN;
            self.samples[i] = 0;
            self.lost[i] = 0;
            self.total[i] = 0;
            self.crossed[i] = false;
        }
        self.lost_sum = self.lost.iter().map(|&v| v as u64).sum();
        self.total_sum = self.total.iter().map(|&v| v as u64).sum();
        self.crossings = self.crossed.iter().filter(|&&c| c).count() as u32;
    }
}

/// Mean of the non-empty values among the `m` newest entries of the ring (E_M of §3.2.1).
fn mean_of_last(ring: &[f64], head: usize, m: usize) -> f64 {
    let n = ring.len();
    let (mut sum, mut count) = (0.0, 0u32);
    for k in 0..m {
        let v = ring[(head + n - k) % n];
        if !v.is_nan() {
            sum += v;
            count += 1;
        }
    }
    if count > 0 {
        sum / count as f64
    } else {
        f64::NAN
    }
}
