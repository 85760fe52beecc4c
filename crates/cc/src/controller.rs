//! One connection's congestion control: per-subflow state plus the dispatch by algorithm.

use crate::algorithm::{Algorithm, SinglePath};
use crate::config::{AckCounting, CcConfig, MinSsthresh};
use crate::reno;
use crate::set::{SubflowSet, MAX_SUBFLOWS};
use crate::subflow::Subflow;
use crate::Nanos;

/// What an ACK tells the controller about one subflow.
#[derive(Clone, Copy, Debug, Default)]
pub struct AckInfo {
    /// Segments newly (cumulatively or by SACK) acknowledged.
    pub newly_acked: f64,
    /// Karn-valid RTT sample, if any.
    pub rtt_sample: Option<Nanos>,
    /// The sender was cwnd-limited; windows do not grow otherwise (RFC 7661 spirit, Linux
    /// `tcp_is_cwnd_limited`).
    pub cwnd_limited: bool,
}

/// One multipath connection's congestion control (a single-path flow has one subflow).
/// Windows are `f64` segments, always finite and >= 1.
#[derive(Clone, Debug)]
pub struct Controller {
    algo: Algorithm,
    cfg: CcConfig,
    subflows: Vec<Subflow>,
}

/// Replaces values a caller should not send (NaN, negative) by 0.
fn non_negative(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 {
        x
    } else {
        0.0
    }
}

impl Controller {
    /// Panics if `n_subflows` is 0 or above [`MAX_SUBFLOWS`] (callers validate their input;
    /// see also [`CcConfig::validate`]).
    pub fn new(algo: Algorithm, cfg: CcConfig, n_subflows: usize) -> Self {
        assert!(
            (1..=MAX_SUBFLOWS).contains(&n_subflows),
            "a connection has 1..={MAX_SUBFLOWS} subflows, got {n_subflows}"
        );
        let subflows = vec![Subflow::new(&cfg); n_subflows];
        Controller { algo, cfg, subflows }
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algo
    }

    pub fn config(&self) -> &CcConfig {
        &self.cfg
    }

    pub fn n_subflows(&self) -> usize {
        self.subflows.len()
    }

    /// Established subflows take part in coupling; a subflow is usable from the start.
    pub fn set_usable(&mut self, sf: usize, usable: bool) {
        self.subflows[sf].usable = usable;
    }

    /// The usable subflows: the default coupling set.
    pub fn usable(&self) -> SubflowSet {
        let mut s = SubflowSet::empty();
        for (i, f) in self.subflows.iter().enumerate() {
            if f.usable {
                s = s.with(i);
            }
        }
        s
    }

    pub fn on_sent(&mut self, sf: usize, now: Nanos, segments: f64) {
        let _ = (sf, now, segments);
    }

    pub fn on_ack(&mut self, sf: usize, now: Nanos, ack: AckInfo, coupling: SubflowSet) {
        let acked = non_negative(ack.newly_acked);
        let s = &mut self.subflows[sf];
        if let Some(rtt) = ack.rtt_sample {
            s.rtt.on_sample(rtt);
        }
        if acked > 0.0 {
            s.in_timeout_streak = false;
        }
        s.last_ack = Some(now);
        if s.in_recovery || acked == 0.0 || !ack.cwnd_limited {
            return;
        }
        let test = self.cfg.slow_start;
        let mut rest = acked;
        if reno::in_slow_start(s.cwnd, s.ssthresh, test) {
            rest = reno::slow_start(&mut s.cwnd, s.ssthresh, acked, test);
            // Linux 3.14 drops what is left of an ACK that ends slow start.
            if self.cfg.counting == AckCounting::PerAckEvent {
                rest = 0.0;
            }
        }
        if rest > 0.0 {
            let units = match self.cfg.counting {
                AckCounting::PerSegment => rest,
                AckCounting::PerAckEvent => 1.0,
            };
            self.increase(sf, now, units, coupling);
        }
    }

    /// End of an RTT round on `sf` (the ACK passed the round's marker).
    pub fn on_round_end(&mut self, sf: usize, now: Nanos, coupling: SubflowSet) {
        let _ = (sf, now, coupling);
    }

    /// Loss detected by fast retransmit: enters recovery with `cwnd = ssthresh`. Ignored while
    /// already in recovery (RFC 6582: one reduction per window).
    pub fn on_fast_retransmit(&mut self, sf: usize, now: Nanos, flight_size: f64, coupling: SubflowSet) {
        if self.subflows[sf].in_recovery {
            return;
        }
        let ssthresh = self.congestion_event(sf, now, flight_size, coupling);
        let s = &mut self.subflows[sf];
        s.ssthresh = ssthresh;
        s.cwnd = ssthresh;
        s.in_recovery = true;
    }

    pub fn on_recovery_exit(&mut self, sf: usize, now: Nanos) {
        let _ = now;
        self.subflows[sf].in_recovery = false;
    }

    /// Retransmission timeout: `cwnd = 1` (RFC 5681 loss window); ssthresh per algorithm,
    /// kept on a repeated timeout of the same data.
    pub fn on_timeout(&mut self, sf: usize, now: Nanos, flight_size: f64) {
        if !self.subflows[sf].in_timeout_streak {
            let all = self.usable();
            let ssthresh = self.congestion_event(sf, now, flight_size, all);
            self.subflows[sf].ssthresh = ssthresh;
        }
        let s = &mut self.subflows[sf];
        s.cwnd = 1.0;
        s.in_recovery = false;
        s.in_timeout_streak = true;
    }

    /// ECN-Echo: the loss reduction without recovery, at most once per RTT (RFC 3168 §6.1.2).
    pub fn on_ecn(&mut self, sf: usize, now: Nanos, flight_size: f64, coupling: SubflowSet) {
        let s = &self.subflows[sf];
        if s.in_recovery || now < s.ecn_quiet_until {
            return;
        }
        let ssthresh = self.congestion_event(sf, now, flight_size, coupling);
        let s = &mut self.subflows[sf];
        s.ssthresh = ssthresh;
        s.cwnd = ssthresh;
        s.ecn_quiet_until = now.saturating_add(s.rtt.srtt().unwrap_or(0));
    }

    pub fn cwnd(&self, sf: usize) -> f64 {
        self.subflows[sf].cwnd
    }

    pub fn ssthresh(&self, sf: usize) -> f64 {
        self.subflows[sf].ssthresh
    }

    pub fn srtt(&self, sf: usize) -> Option<Nanos> {
        self.subflows[sf].rtt.srtt()
    }

    pub fn in_recovery(&self, sf: usize) -> bool {
        self.subflows[sf].in_recovery
    }

    pub fn in_slow_start(&self, sf: usize) -> bool {
        let s = &self.subflows[sf];
        reno::in_slow_start(s.cwnd, s.ssthresh, self.cfg.slow_start)
    }

    /// Current LIA alpha / LINKED INCREASES a (1.0 for other algorithms), for probes.
    pub fn lia_alpha(&self) -> f64 {
        1.0
    }

    /// OLIA's alpha_r over `coupling` into `out[r]` (0 for subflows outside the set).
    pub fn olia_alphas(&self, coupling: SubflowSet, out: &mut [f64]) {
        let _ = coupling;
        out.iter_mut().for_each(|a| *a = 0.0);
    }

    // ---- internals ----

    /// The subflows `sf`'s coupled formulas run over: the usable members of `coupling` that
    /// have an RTT estimate, always including `sf` itself (algorithms.md §0.2, §7.5).
    pub(crate) fn coupling_set(&self, sf: usize, coupling: SubflowSet) -> SubflowSet {
        let me = SubflowSet::single(sf);
        if self.subflows[sf].srtt().is_none() {
            return me;
        }
        let mut set = me;
        for i in coupling.intersect(SubflowSet::all(self.subflows.len())).iter() {
            let f = &self.subflows[i];
            if f.usable && f.srtt().is_some() {
                set = set.with(i);
            }
        }
        set
    }

    fn min_ssthresh(&self, coupled_over: usize) -> f64 {
        match self.cfg.min_ssthresh {
            MinSsthresh::Fixed(m) => m,
            MinSsthresh::Auto if self.algo.is_coupled() && coupled_over >= 2 => 1.0,
            MinSsthresh::Auto => 2.0,
        }
    }

    /// Congestion-avoidance increase by `units` (acked segments or ACK events).
    fn increase(&mut self, sf: usize, now: Nanos, units: f64, coupling: SubflowSet) {
        let _ = (now, coupling);
        match self.algo {
            Algorithm::Reno | Algorithm::Uncoupled(SinglePath::Reno) => {
                reno::increase(&mut self.subflows[sf].cwnd, units)
            }
            _ => reno::increase(&mut self.subflows[sf].cwnd, units),
        }
    }

    /// Bookkeeping common to every congestion signal; returns the new ssthresh.
    fn congestion_event(&mut self, sf: usize, now: Nanos, flight_size: f64, coupling: SubflowSet) -> f64 {
        let _ = now;
        let set = self.coupling_set(sf, coupling);
        let min = self.min_ssthresh(set.len());
        let flight = non_negative(flight_size);
        reno::ssthresh_after_loss(flight, min)
    }
}
