//! Trend-line regression SBD ([S2] §4.3; docs/sbd.md "Trend-line detector", §11.25, §11.26).
//!
//! Per flow, every raw RTT sample is smoothed by the EWMA of [S2] eq. 16 (α = 0.9 weights the
//! new sample) and buffered for the current evaluation window (5 s). At the window's end,
//! Algorithm 1 keeps the rising runs of the smoothed signal, Algorithm 2 (corrected) merges
//! adjacent runs, and the merged run with the most points gives an OLS slope in ms/s
//! (eq. 17, standard centring) and its time span [S, E]. Algorithm 3 decides each pair of
//! flows; more than two flows are grouped by union-find over the pairwise "shared" decisions.
//! Buffers are reused across windows: after the first windows nothing is allocated.

use crate::observation::{canonicalize, Observation, NOT_BOTTLENECKED};
use crate::union_find::find;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrendParams {
    /// EWMA weight of the new sample (eq. 16).
    pub alpha: f64,
    /// Algorithm 2: largest time gap between merged runs, ms.
    pub delta_ms: f64,
    /// Algorithm 3: largest relative slope difference (eq. 18).
    pub epsilon: f64,
    /// Algorithm 3: largest gap between non-overlapping spans, ms.
    pub tau_ms: f64,
    /// Evaluation period, ns.
    pub period_ns: u64,
    /// Fewest points (with distinct times) for a slope (§11 item 26: 3).
    pub min_points: usize,
}

impl Default for TrendParams {
    fn default() -> Self {
        TrendParams {
            alpha: 0.9,
            delta_ms: 50.0,
            epsilon: 0.2,
            tau_ms: 1000.0,
            period_ns: 5_000_000_000,
            min_points: 3,
        }
    }
}

impl TrendParams {
    pub const NAMES: &'static [&'static str] = &["alpha", "delta_ms", "epsilon", "tau_ms", "period_ms", "min_points"];

    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v: f64 = value.trim().parse().map_err(|_| format!("{name}: expected a number, got '{value}'"))?;
        let positive = |what: &str| {
            if v > 0.0 && v.is_finite() {
                Ok(v)
            } else {
                Err(format!("{name}: expected a positive {what}, got '{value}'"))
            }
        };
        match name {
            "alpha" => {
                if !(v > 0.0 && v <= 1.0) {
                    return Err(format!("alpha: expected a number in (0, 1], got '{value}'"));
                }
                self.alpha = v;
            }
            "delta_ms" => self.delta_ms = positive("number of milliseconds")?,
            "epsilon" => self.epsilon = positive("number")?,
            "tau_ms" => self.tau_ms = positive("number of milliseconds")?,
            "period_ms" => {
                let ms = positive("number of milliseconds")?;
                if ms < 0.001 {
                    return Err(format!("period_ms: expected at least 0.001, got '{value}'"));
                }
                self.period_ns = (ms * 1e6).round() as u64;
            }
            "min_points" => {
                if v < 2.0 || v.fract() != 0.0 {
                    return Err(format!("min_points: expected an integer >= 2, got '{value}'"));
                }
                self.min_points = v as usize;
            }
            _ => return Err(format!("unknown parameter '{name}'; valid: {}", Self::NAMES.join(", "))),
        }
        Ok(())
    }

    pub fn entries(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("alpha", self.alpha),
            ("delta_ms", self.delta_ms),
            ("epsilon", self.epsilon),
            ("tau_ms", self.tau_ms),
            ("period_ms", self.period_ns as f64 / 1e6),
            ("min_points", self.min_points as f64),
        ]
    }
}

/// The trend line of one flow in one window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrendFit {
    /// ms per second.
    pub slope: f64,
    /// Start and end of the run, ms since the detector's origin.
    pub start_ms: f64,
    pub end_ms: f64,
    pub points: usize,
}

#[derive(Clone, Debug, Default)]
struct FlowBuffer {
    smoothed: f64,
    started: bool,
    t_ms: Vec<f64>,
    y_ms: Vec<f64>,
}

/// A run of consecutive rising samples: indices `start..=end`, Σ of their delays.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    start: usize,
    end: usize,
    sum: f64,
}

#[derive(Clone, Debug)]
pub struct TrendLineDetector {
    p: TrendParams,
    flows: Vec<FlowBuffer>,
    fits: Vec<Option<TrendFit>>,
    runs: Vec<Run>,
    parent: Vec<usize>,
    scratch: Vec<u32>,
    obs: Observation,
    origin_ns: Option<u64>,
    window_end_ns: u64,
    pending: bool,
    evaluations: u64,
}

impl TrendLineDetector {
    pub fn new(params: TrendParams, n_flows: usize) -> Self {
        TrendLineDetector {
            p: params,
            flows: vec![FlowBuffer::default(); n_flows],
            fits: vec![None; n_flows],
            runs: Vec::new(),
            parent: (0..n_flows).collect(),
            scratch: vec![0; n_flows + 1],
            obs: Observation::new(n_flows),
            origin_ns: None,
            window_end_ns: 0,
            pending: false,
            evaluations: 0,
        }
    }

    pub fn params(&self) -> &TrendParams {
        &self.p
    }

    /// One raw RTT sample of `flow` taken when its ACK arrived at `now_ns` (non-decreasing).
    pub fn on_rtt_sample(&mut self, flow: usize, now_ns: u64, rtt_ns: u64) {
        if self.origin_ns.is_none() {
            self.origin_ns = Some(now_ns);
            self.window_end_ns = now_ns + self.p.period_ns;
        }
        while now_ns >= self.window_end_ns {
            self.evaluate();
            self.pending = true;
        }
        let origin = self.origin_ns.unwrap_or(now_ns);
        let f = &mut self.flows[flow];
        let rtt_ms = rtt_ns as f64 / 1e6;
        f.smoothed = if f.started { self.p.alpha * rtt_ms + (1.0 - self.p.alpha) * f.smoothed } else { rtt_ms };
        f.started = true;
        f.t_ms.push(now_ns.saturating_sub(origin) as f64 / 1e6);
        f.y_ms.push(f.smoothed);
    }

    /// Runs every evaluation due at `now_ns`, one per call; see [`crate::Rfc8382Detector::poll`].
    pub fn poll(&mut self, now_ns: u64) -> Option<&Observation> {
        if self.pending {
            self.pending = false;
            return Some(&self.obs);
        }
        self.origin_ns?;
        if now_ns >= self.window_end_ns {
            self.evaluate();
            return Some(&self.obs);
        }
        None
    }

    /// The trend line of each flow in the last evaluated window.
    pub fn fits(&self) -> &[Option<TrendFit>] {
        &self.fits
    }

    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// The last observation made (before any: all zeros at time 0).
    pub fn last_observation(&self) -> &Observation {
        &self.obs
    }

    fn evaluate(&mut self) {
        for (flow, buf) in self.flows.iter_mut().enumerate() {
            self.fits[flow] = fit_window(&buf.t_ms, &buf.y_ms, &self.p, &mut self.runs);
            buf.t_ms.clear();
            buf.y_ms.clear();
        }
        let n = self.flows.len();
        for i in 0..n {
            self.parent[i] = i;
        }
        for i in 0..n {
            for j in i + 1..n {
                if let (Some(a), Some(b)) = (self.fits[i], self.fits[j]) {
                    if shared(&a, &b, &self.p) {
                        let (ra, rb) = (find(&mut self.parent, i), find(&mut self.parent, j));
                        self.parent[ra.max(rb)] = ra.min(rb);
                    }
                }
            }
        }
        for i in 0..n {
            let rising = self.fits[i].is_some_and(|f| f.slope > 0.0);
            self.obs.groups[i] = if rising { find(&mut self.parent, i) as u32 + 1 } else { NOT_BOTTLENECKED };
        }
        canonicalize(&mut self.obs.groups, &mut self.scratch);
        self.obs.time_ns = self.window_end_ns;
        self.window_end_ns += self.p.period_ns;
        self.evaluations += 1;
    }
}

/// Algorithm 3 with the REC guard against non-positive slopes (docs/sbd.md "Trend-line detector").
pub fn shared(a: &TrendFit, b: &TrendFit, p: &TrendParams) -> bool {
    let s = a.start_ms.max(b.start_ms);
    let e = a.end_ms.min(b.end_ms);
    if e - s < 0.0 && (e - s).abs() > p.tau_ms {
        return false;
    }
    if a.slope <= 0.0 || b.slope <= 0.0 {
        return false;
    }
    (a.slope - b.slope).abs() / a.slope.max(b.slope) <= p.epsilon
}

/// Algorithms 1 and 2 and eq. 17 on one window of smoothed samples.
pub(crate) fn fit_window(t: &[f64], y: &[f64], p: &TrendParams, runs: &mut Vec<Run>) -> Option<TrendFit> {
    // Algorithm 1: maximal stretches of samples each >= its predecessor (the valley sample
    // that starts a stretch is not part of it).
    runs.clear();
    for i in 1..y.len() {
        if y[i] >= y[i - 1] {
            match runs.last_mut() {
                Some(r) if r.end + 1 == i => {
                    r.end = i;
                    r.sum += y[i];
                }
                _ => runs.push(Run { start: i, end: i, sum: y[i] }),
            }
        }
    }
    // Algorithm 2 (corrected): run i+1 continues run i when run i's last delay is below run
    // i+1's average and the time gap is below δ. Pick the merged group with the most points.
    let mut best: Option<(usize, usize, usize)> = None; // (first run, last run, points)
    let mut first = 0;
    while first < runs.len() {
        let mut last = first;
        let mut points = runs[first].end - runs[first].start + 1;
        while last + 1 < runs.len() {
            let (a, b) = (runs[last], runs[last + 1]);
            let avg_b = b.sum / (b.end - b.start + 1) as f64;
            if y[a.end] < avg_b && t[b.start] - t[a.end] < p.delta_ms {
                last += 1;
                points += b.end - b.start + 1;
            } else {
                break;
            }
        }
        if best.map_or(true, |(_, _, bp)| points > bp) {
            best = Some((first, last, points));
        }
        first = last + 1;
    }
    let (fr, lr, points) = best?;
    if points < p.min_points {
        return None;
    }
    let group = || runs[fr..=lr].iter().flat_map(|r| r.start..=r.end);
    let x0 = t[runs[fr].start];
    let (mut sx, mut sy) = (0.0, 0.0);
    for i in group() {
        sx += t[i] - x0;
        sy += y[i];
    }
    let (mx, my) = (sx / points as f64, sy / points as f64);
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for i in group() {
        let dx = t[i] - x0 - mx;
        sxy += dx * (y[i] - my);
        sxx += dx * dx;
    }
    if sxx <= 0.0 {
        return None;
    }
    Some(TrendFit { slope: 1000.0 * sxy / sxx, start_ms: x0, end_ms: t[runs[lr].end], points })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slope_of_one_ms_per_ten_ms_is_100_ms_per_s() {
        let t: Vec<f64> = (0..50).map(|i| i as f64 * 10.0).collect();
        let y: Vec<f64> = (0..50).map(|i| 20.0 + i as f64).collect();
        let fit = fit_window(&t, &y, &TrendParams::default(), &mut Vec::new()).unwrap();
        assert!((fit.slope - 100.0).abs() < 1e-9);
        assert_eq!((fit.start_ms, fit.end_ms, fit.points), (10.0, 490.0, 49));
    }

    #[test]
    fn runs_split_by_a_dip_merge_only_within_delta_and_when_the_next_run_is_higher() {
        // Rise 0..=9 (step 1 ms every 10 ms), one dip, rise again from 9.5.
        let mut y: Vec<f64> = (0..10).map(|i| i as f64).collect();
        y.push(8.0);
        y.extend((0..10).map(|i| 9.5 + i as f64));
        let t: Vec<f64> = (0..y.len()).map(|i| i as f64 * 10.0).collect();
        let p = TrendParams::default();
        let fit = fit_window(&t, &y, &p, &mut Vec::new()).unwrap();
        assert_eq!(fit.points, 9 + 10, "merged across the dip (gap 20 ms < 50 ms)");
        let narrow = TrendParams { delta_ms: 15.0, ..p };
        assert_eq!(fit_window(&t, &y, &narrow, &mut Vec::new()).unwrap().points, 10);
    }

    #[test]
    fn algorithm_3_compares_relative_slopes_and_time_spans() {
        let p = TrendParams::default();
        let f = |slope, s, e| TrendFit { slope, start_ms: s, end_ms: e, points: 10 };
        assert!(shared(&f(100.0, 0.0, 500.0), &f(85.0, 200.0, 900.0), &p));
        assert!(!shared(&f(100.0, 0.0, 500.0), &f(75.0, 200.0, 900.0), &p));
        assert!(shared(&f(100.0, 0.0, 500.0), &f(100.0, 1400.0, 1900.0), &p));
        assert!(!shared(&f(100.0, 0.0, 500.0), &f(100.0, 1600.0, 1900.0), &p));
        assert!(!shared(&f(-10.0, 0.0, 500.0), &f(-10.0, 0.0, 500.0), &p));
    }
}
