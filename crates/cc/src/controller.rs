//! One connection's congestion control: per-subflow state plus the dispatch by algorithm.

use crate::algorithm::{Algorithm, SinglePath};
use crate::config::{AckCounting, CcConfig, MinSsthresh};
use crate::lia::AlphaCache;
use crate::set::{SubflowSet, MAX_SUBFLOWS};
use crate::subflow::Subflow;
use crate::{balia, lia, olia, reno, s1_variants, wvegas, Nanos};

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
    /// LIA alpha / LINKED INCREASES a with its recompute cadence.
    alpha: AlphaCache,
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
    /// Panics on what [`Controller::try_new`] rejects; callers that handle user input use that.
    pub fn new(algo: Algorithm, cfg: CcConfig, n_subflows: usize) -> Self {
        match Controller::try_new(algo, cfg, n_subflows) {
            Ok(c) => c,
            Err(e) => panic!("invalid congestion-control setup: {e}"),
        }
    }

    /// Checks `cfg` ([`CcConfig::validate`]) and that `n_subflows` is in 1..=64; the error
    /// names the field and what was expected.
    pub fn try_new(algo: Algorithm, cfg: CcConfig, n_subflows: usize) -> Result<Self, String> {
        if !(1..=MAX_SUBFLOWS).contains(&n_subflows) {
            return Err(format!(
                "subflows: expected 1..={MAX_SUBFLOWS}, got {n_subflows}"
            ));
        }
        cfg.validate()?;
        let subflows = vec![Subflow::new(&cfg); n_subflows];
        Ok(Controller {
            algo,
            cfg,
            subflows,
            alpha: AlphaCache::default(),
        })
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
        self.alpha.invalidate();
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

    /// Data sent on `sf`. No algorithm here needs it (rounds arrive through `on_round_end`,
    /// application-limited periods through `AckInfo::cwnd_limited`); kept so that senders
    /// report every event and controllers may use it without an API change.
    pub fn on_sent(&mut self, sf: usize, now: Nanos, segments: f64) {
        let _ = (sf, now, segments);
    }

    pub fn on_ack(&mut self, sf: usize, now: Nanos, ack: AckInfo, coupling: SubflowSet) {
        let acked = non_negative(ack.newly_acked);
        let floor_before = self.subflows[sf].cwnd.floor();
        let s = &mut self.subflows[sf];
        if let Some(rtt) = ack.rtt_sample {
            s.rtt.on_sample(rtt);
            s.wvegas.on_rtt_sample(rtt as f64);
        }
        if acked > 0.0 {
            s.in_timeout_streak = false;
            s.olia.on_acked(acked);
        }
        let since_last_ack = s.last_ack.map_or(0, |t| now.saturating_sub(t));
        s.last_ack = Some(now);
        if !ack.cwnd_limited {
            s.cubic.exclude_idle(since_last_ack);
        }
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
        self.note_window_change(sf, floor_before);
    }

    /// End of an RTT round on `sf` (the ACK passed the round's marker).
    /// Only wVegas acts on rounds; call it after `on_ack` for the ACK that ends the round.
    pub fn on_round_end(&mut self, sf: usize, now: Nanos, coupling: SubflowSet) {
        if self.algo != Algorithm::WVegas || self.subflows[sf].in_recovery {
            return; // Linux runs wVegas only in TCP_CA_Open
        }
        let floor_before = self.subflows[sf].cwnd.floor();
        let set = self.coupling_set(sf, coupling);
        let in_ss = self.in_slow_start(sf);
        if wvegas::round_end(&mut self.subflows, sf, set, &self.cfg.wvegas, in_ss) {
            self.increase_reno(sf, 1.0);
        }
        let min = self.min_ssthresh(set.len());
        let s = &mut self.subflows[sf];
        s.ssthresh = s.ssthresh.max(min);
        let _ = now;
        self.note_window_change(sf, floor_before);
    }

    /// Loss detected by fast retransmit: enters recovery with `cwnd = ssthresh`. Ignored while
    /// already in recovery (RFC 6582: one reduction per window).
    pub fn on_fast_retransmit(
        &mut self,
        sf: usize,
        now: Nanos,
        flight_size: f64,
        coupling: SubflowSet,
    ) {
        if self.subflows[sf].in_recovery {
            return;
        }
        let ssthresh = self.congestion_event(sf, now, flight_size, coupling);
        let s = &mut self.subflows[sf];
        s.ssthresh = ssthresh;
        s.cwnd = ssthresh;
        s.in_recovery = true;
    }

    /// Recovery ended (full ACK, RFC 6582 §3.2 step 3); cwnd stays at ssthresh.
    pub fn on_recovery_exit(&mut self, sf: usize, now: Nanos) {
        let _ = now;
        let s = &mut self.subflows[sf];
        if s.in_recovery {
            s.in_recovery = false;
            s.wvegas.reset(&self.cfg.wvegas);
            self.alpha.invalidate();
        }
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
        s.cubic.on_timeout();
        s.wvegas.reset(&self.cfg.wvegas);
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

    /// Sets a subflow's window state directly (tests, fluid models, restoring a state).
    /// Values are kept finite and >= 1; LIA's alpha is recomputed on the next use.
    pub fn set_window(&mut self, sf: usize, cwnd: f64, ssthresh: f64) {
        let s = &mut self.subflows[sf];
        s.cwnd = if cwnd.is_finite() {
            cwnd.max(1.0)
        } else {
            s.cwnd
        };
        s.ssthresh = if ssthresh.is_nan() {
            s.ssthresh
        } else {
            ssthresh.max(1.0)
        };
        self.alpha.invalidate();
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
        match (self.algo, self.cfg.linked_increases_a) {
            (Algorithm::LinkedIncreases, Some(a)) => a,
            (Algorithm::Lia | Algorithm::LinkedIncreases, _) => self.alpha.last(),
            _ => 1.0,
        }
    }

    /// OLIA's alpha_r over `coupling` into `out[r]` (0 for subflows outside the set).
    /// Subflows outside the set, unusable or without an RTT estimate count as outside.
    pub fn olia_alphas(&self, coupling: SubflowSet, out: &mut [f64]) {
        out.iter_mut().for_each(|a| *a = 0.0);
        let mut set = SubflowSet::empty();
        for i in coupling
            .intersect(SubflowSet::all(self.subflows.len()))
            .iter()
        {
            if self.subflows[i].usable && self.subflows[i].srtt().is_some() {
                set = set.with(i);
            }
        }
        let len = out.len();
        for r in set.iter().filter(|&r| r < len) {
            out[r] = olia::alpha_of(&self.subflows, set, self.cfg.olia_best_path, r);
        }
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
        for i in coupling
            .intersect(SubflowSet::all(self.subflows.len()))
            .iter()
        {
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

    fn increase_reno(&mut self, sf: usize, units: f64) {
        reno::increase(&mut self.subflows[sf].cwnd, units);
    }

    /// Congestion-avoidance increase by `units` (acked segments or ACK events).
    fn increase(&mut self, sf: usize, now: Nanos, units: f64, coupling: SubflowSet) {
        match self.algo {
            Algorithm::Reno | Algorithm::Uncoupled(SinglePath::Reno) => {
                self.increase_reno(sf, units)
            }
            Algorithm::Cubic | Algorithm::Uncoupled(SinglePath::Cubic) => {
                let s = &mut self.subflows[sf];
                let srtt = s.srtt().unwrap_or(0.0);
                s.cubic
                    .increase(&self.cfg.cubic, &mut s.cwnd, now, srtt, units);
            }
            // wVegas changes the window once per round (`on_round_end`), not per ACK.
            Algorithm::WVegas => {}
            coupled => {
                let set = self.coupling_set(sf, coupling);
                if set.len() <= 1 {
                    // Alone in its coupling set: Reno (RFC 6356 §3 reduces to it; S0 §III-B.5).
                    return self.increase_reno(sf, units);
                }
                let subflows = &mut self.subflows[..];
                match coupled {
                    Algorithm::Lia => {
                        let a = self.alpha.get(subflows, set);
                        lia::increase(subflows, sf, set, a, units);
                    }
                    Algorithm::LinkedIncreases => {
                        let a = match self.cfg.linked_increases_a {
                            Some(a) => a,
                            None => self.alpha.get(subflows, set),
                        };
                        s1_variants::linked_increase(subflows, sf, set, a, units);
                    }
                    Algorithm::FullyCoupled => {
                        s1_variants::fully_coupled_increase(subflows, sf, set, units)
                    }
                    Algorithm::Olia => {
                        olia::increase(subflows, sf, set, self.cfg.olia_best_path, units)
                    }
                    Algorithm::Balia => balia::increase(subflows, sf, set, units),
                    _ => unreachable!("single-path algorithms and wVegas are handled above"),
                }
            }
        }
    }

    /// A change of floor(cwnd) triggers LIA's alpha recomputation (RFC 6356 §4.1).
    fn note_window_change(&mut self, sf: usize, floor_before: f64) {
        if self.subflows[sf].cwnd.floor() != floor_before {
            self.alpha.invalidate();
        }
    }

    /// Bookkeeping common to every congestion signal; returns the new ssthresh.
    fn congestion_event(
        &mut self,
        sf: usize,
        now: Nanos,
        flight_size: f64,
        coupling: SubflowSet,
    ) -> f64 {
        let _ = now;
        let set = self.coupling_set(sf, coupling);
        let min = self.min_ssthresh(set.len());
        let flight = non_negative(flight_size);
        self.alpha.invalidate();
        self.subflows[sf].olia.on_loss();
        let s = &mut self.subflows[sf];
        match self.algo {
            Algorithm::Cubic | Algorithm::Uncoupled(SinglePath::Cubic) => {
                s.cubic.on_congestion(&self.cfg.cubic, s.cwnd, flight, min)
            }
            Algorithm::FullyCoupled if set.len() > 1 => {
                s1_variants::fully_coupled_ssthresh(&self.subflows, sf, set, flight, min)
            }
            Algorithm::Balia if set.len() > 1 => balia::ssthresh(
                &self.subflows,
                sf,
                set,
                flight,
                min,
                self.cfg.balia_integer_alpha,
            ),
            // Reno, LIA, OLIA, LINKED INCREASES, wVegas: RFC 5681 eq. 4.
            _ => reno::ssthresh_after_loss(flight, min),
        }
    }
}
