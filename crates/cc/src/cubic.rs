//! CUBIC (RFC 9438 §4), windows in segments, time in seconds inside the formulas.
//! Slow start is standard (RFC 9438 §4.10 allows it; HyStart++ is not modelled).
//! `CubicRules::Linux` follows Linux's net/ipv4/tcp_cubic.c where it differs from RFC 9438.

use crate::check::positive_finite;
use crate::connection::{CongestionControl, CongestionEvent, Connection};
use crate::Nanos;

/// RFC 9438 CUBIC parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubicParams {
    /// C, segments / s^3 (RFC 9438 §5.1: 0.4).
    pub c: f64,
    /// beta_cubic (RFC 9438 §4.6: 0.7).
    pub beta: f64,
    /// RFC 9438 §4.7 (SHOULD be on when flows compete).
    pub fast_convergence: bool,
    /// RFC 9438 §4.3 Reno-friendly region.
    pub reno_friendly: bool,
    /// RFC 9438 or Linux's rules where the two differ.
    pub rules: CubicRules,
}

/// Where RFC 9438 and Linux's CUBIC (net/ipv4/tcp_cubic.c, `bictcp_update`) differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CubicRules {
    /// RFC 9438, the papers' CUBIC.
    #[default]
    Rfc9438,
    /// Linux (docs/fidelity-notes.md, "Reno against CUBIC"): beta = 717/1024; W_cubic taken at
    /// t + the minimum RTT (`delay_min`), not t + SRTT; the Reno-friendly estimate always
    /// grows by 8/15 segment per RTT (`beta_scale` = 15; RFC 8312 §4.2's alpha, never
    /// raised to 1) and cwnd closes the gap to it at (W_est - cwnd) per RTT (`max_cnt`)
    /// instead of jumping to it; at or above the target cwnd still grows by one segment per
    /// 100 windows acknowledged (`ca->cnt = 100 * cwnd`).
    Linux,
}

/// tcp_cubic.c's beta, 717/1024.
const LINUX_BETA: f64 = 717.0 / 1024.0;
/// tcp_cubic.c's Reno-friendly growth per RTT: 8 / `beta_scale`, beta_scale =
/// 8 (1024 + 717) / 3 / (1024 - 717) = 15 in integer arithmetic.
const LINUX_ALPHA: f64 = 8.0 / 15.0;

impl Default for CubicParams {
    fn default() -> Self {
        CubicParams {
            c: 0.4,
            beta: 0.7,
            fast_convergence: true,
            reno_friendly: true,
            rules: CubicRules::Rfc9438,
        }
    }
}

impl CubicParams {
    /// The error names the field and what was expected.
    pub fn validate(&self) -> Result<(), String> {
        positive_finite("cubic.c", self.c)?;
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(format!(
                "cubic.beta: expected a number in (0, 1), got {}",
                self.beta
            ));
        }
        Ok(())
    }

    fn beta(&self) -> f64 {
        match self.rules {
            CubicRules::Rfc9438 => self.beta,
            CubicRules::Linux => LINUX_BETA,
        }
    }
}


#[derive(Clone, Copy, Debug)]
pub struct CubicState {
    /// W_max: window before the last reduction (§4.7 may lower it).
    w_max: f64,
    /// K, seconds (§4.2 eq. 2).
    k: f64,
    /// Start of the current congestion-avoidance stage; `None` until the first CA ACK.
    epoch_start: Option<Nanos>,
    /// W_est of the Reno-friendly region (§4.3).
    w_est: f64,
    /// cwnd before the last reduction (§4.6).
    cwnd_prior: f64,
    /// alpha_cubic (§4.3): 3(1-beta)/(1+beta) until W_est reaches cwnd_prior, then 1.
    alpha: f64,
    /// The next stage follows a timeout: K = 0, W_max = cwnd_epoch (§4.8).
    after_timeout: bool,
    /// Smallest RTT sample (Linux's `delay_min`), for `CubicRules::Linux`.
    min_rtt: Option<Nanos>,
}

impl CubicState {
    pub(crate) fn new() -> Self {
        CubicState {
            w_max: 0.0,
            k: 0.0,
            epoch_start: None,
            w_est: 0.0,
            cwnd_prior: 0.0,
            alpha: 1.0,
            after_timeout: false,
            min_rtt: None,
        }
    }

    /// W_cubic(t) = C (t - K)^3 + W_max (§4.2 eq. 1), t in seconds since the epoch.
    pub(crate) fn w_cubic(&self, p: &CubicParams, t: f64) -> f64 {
        p.c * (t - self.k).powi(3) + self.w_max
    }

    /// Loss or ECN (§4.6, §4.7): returns the new ssthresh.
    pub(crate) fn on_congestion(
        &mut self,
        p: &CubicParams,
        cwnd: f64,
        flight: f64,
        min_ssthresh: f64,
    ) -> f64 {
        let beta = p.beta();
        self.w_max = if p.fast_convergence && cwnd < self.w_max {
            cwnd * (1.0 + beta) / 2.0
        } else {
            cwnd
        };
        self.cwnd_prior = cwnd;
        self.alpha = match p.rules {
            CubicRules::Rfc9438 => 3.0 * (1.0 - beta) / (1.0 + beta),
            CubicRules::Linux => LINUX_ALPHA,
        };
        self.epoch_start = None;
        (flight * beta).max(min_ssthresh)
    }

    pub(crate) fn on_rtt_sample(&mut self, rtt: Nanos) {
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
    }

    pub(crate) fn on_timeout(&mut self) {
        self.after_timeout = true;
        self.epoch_start = None;
    }

    /// Application-limited time does not count towards t (§5.8): shift the epoch.
    pub(crate) fn exclude_idle(&mut self, idle: Nanos) {
        if let Some(e) = self.epoch_start.as_mut() {
            *e = e.saturating_add(idle);
        }
    }

    /// Congestion avoidance (§4.2-§4.5) for `units` acked segments at time `now`.
    pub(crate) fn increase(&mut self, p: &CubicParams, cwnd: &mut f64, now: Nanos, srtt: f64, units: f64) {
        let epoch = *self.epoch_start.get_or_insert_with(|| {
            self.w_est = *cwnd;
            if self.after_timeout || self.w_max <= *cwnd {
                // §4.8, and a stage that starts at or above W_max (e.g. leaving the initial
                // slow start): no concave part.
                self.k = 0.0;
                self.w_max = *cwnd;
            } else {
                self.k = ((self.w_max - *cwnd) / p.c).cbrt(); // eq. 2 with cwnd_epoch = cwnd
            }
            self.after_timeout = false;
            now
        });
        let t = now.saturating_sub(epoch) as f64 * 1e-9;
        if p.rules == CubicRules::Linux {
            self.increase_linux(p, cwnd, t, srtt, units);
            return;
        }
        if p.reno_friendly {
            self.w_est += self.alpha * units / *cwnd; // §4.3 eq. 4
            if self.w_est >= self.cwnd_prior {
                self.alpha = 1.0;
            }
            if self.w_cubic(p, t) < self.w_est {
                *cwnd = self.w_est;
                return;
            }
        }
        // §4.4 / §4.5: target = W_cubic(t + RTT), kept within [cwnd, 1.5 cwnd].
        let target = self.w_cubic(p, t + srtt * 1e-9).clamp(*cwnd, 1.5 * *cwnd);
        *cwnd += units * (target - *cwnd) / *cwnd;
    }

    /// `bictcp_update` + `tcp_cong_avoid_ai`: growth per acknowledged segment is the larger
    /// of the cubic one and the Reno-friendly one, at most 1/2 (`ca->cnt` >= 2).
    fn increase_linux(&mut self, p: &CubicParams, cwnd: &mut f64, t: f64, srtt: f64, units: f64) {
        let offset = self.min_rtt.map_or(srtt, |m| m as f64) * 1e-9;
        let target = self.w_cubic(p, t + offset);
        let mut per_unit = if target > *cwnd { (target - *cwnd) / *cwnd } else { 1.0 / (100.0 * *cwnd) };
        if p.reno_friendly {
            self.w_est += self.alpha * units / *cwnd;
            if self.w_est > *cwnd {
                per_unit = per_unit.max((self.w_est - *cwnd) / *cwnd);
            }
        }
        *cwnd += units * per_unit.min(0.5);
    }
}

/// CUBIC with its parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cubic {
    pub params: CubicParams,
}

impl CongestionControl for Cubic {
    type Path = CubicState;
    type Shared = ();
    const COUPLED: bool = false;

    fn new_path(&self) -> CubicState {
        CubicState::new()
    }

    fn validate(&self) -> Result<(), String> {
        self.params.validate()
    }

    fn on_rtt_sample(path: &mut CubicState, rtt: Nanos) {
        path.on_rtt_sample(rtt);
    }

    fn on_app_limited(path: &mut CubicState, idle: Nanos) {
        path.exclude_idle(idle);
    }

    fn increase(c: &mut Connection<Self>, sf: usize, now: Nanos, units: f64) {
        let p = c.algo.params;
        let s = &mut c.paths[sf];
        let srtt = s.srtt().unwrap_or(0.0);
        s.algo.increase(&p, &mut s.cwnd, now, srtt, units);
    }

    fn ssthresh_after_congestion(c: &mut Connection<Self>, e: CongestionEvent) -> f64 {
        let p = c.algo.params;
        let s = &mut c.paths[e.sf];
        s.algo.on_congestion(&p, s.cwnd, e.flight, e.min)
    }

    fn on_timeout(&self, path: &mut CubicState) {
        path.on_timeout();
    }
}
