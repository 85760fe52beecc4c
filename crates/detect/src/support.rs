//! How many delay samples each decision on captures rests on, and whether that is
//! below the detector's own minimum. The RFC 8382 detector's statistics span the last N base
//! intervals of T (freq_est and pkt_loss; skew_est, var_est and mean_delay the last M <= N,
//! RFC 8382 §3.2); its correlation test judges a pair only with at least `MIN_COMMON`
//! intervals holding samples (pathpool_sbd::correlation), a flow without a sample in the last
//! M intervals has no skew evidence, and its statistics are full only N intervals after its
//! first sample (docs/sbd.md, "Warm-up"). The trend-line detector fits a slope to the samples
//! of one period and needs `min_points` of them (`TrendParams::min_points`).

use crate::config::Config;
use pathpool_sbd::correlation::MIN_COMMON;

/// The detector's window and minimum, from its configuration.
#[derive(Clone, Copy, Debug)]
pub struct Minimum {
    /// Width of one counting interval (T, or the trend-line period), ns.
    pub width_ns: u64,
    /// Intervals a decision rests on (N; 1 for the trend line).
    pub window: usize,
    /// Of those, the most recent that must not all be empty (M; 1 for the trend line).
    pub recent: usize,
    /// Intervals holding samples needed (MIN_COMMON; 1 for the trend line).
    pub intervals: usize,
    /// Samples needed in the window (1; `min_points` for the trend line).
    pub samples: u64,
}

impl Minimum {
    pub fn of(cfg: &Config) -> Minimum {
        match cfg {
            Config::Sbd(p, _) => Minimum { width_ns: p.t_ns.max(1), window: p.n, recent: p.m, intervals: MIN_COMMON.min(p.n), samples: 1 },
            Config::Tr(p) => Minimum { width_ns: p.period_ns.max(1), window: 1, recent: 1, intervals: 1, samples: p.min_points as u64 },
        }
    }
}

/// What one decision of one subflow rests on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Support {
    /// Delay samples in the window before the decision.
    pub samples: u64,
    /// Intervals of the window holding at least one sample.
    pub intervals: usize,
    /// Below the detector's minimum (see the module's text).
    pub below_min: bool,
}

/// Samples per subflow per interval, counted from the detector's origin (its first event, as
/// the RFC 8382 detector starts its intervals). Memory: 4 bytes per interval per subflow, as
/// the decisions themselves.
pub struct Ledger {
    min: Minimum,
    origin_ns: Option<u64>,
    counts: Vec<Vec<u32>>,
    first: Vec<Option<u64>>,
}

impl Ledger {
    pub fn new(min: Minimum, flows: usize) -> Ledger {
        Ledger { min, origin_ns: None, counts: vec![Vec::new(); flows], first: vec![None; flows] }
    }

    /// Any event of the detector (sample, loss, thinned packet): the first sets the origin.
    pub fn event(&mut self, now_ns: u64) {
        self.origin_ns.get_or_insert(now_ns);
    }

    pub fn sample(&mut self, flow: usize, now_ns: u64) {
        let origin = *self.origin_ns.get_or_insert(now_ns);
        let i = (now_ns.saturating_sub(origin) / self.min.width_ns) as usize;
        let c = &mut self.counts[flow];
        if c.len() <= i {
            c.resize(i + 1, 0);
        }
        c[i] += 1;
        self.first[flow].get_or_insert(now_ns);
    }

    /// What the decision of `flow` at `time_ns` (the end of an interval) rests on.
    pub fn support(&self, flow: usize, time_ns: u64) -> Support {
        let m = &self.min;
        let Some(origin) = self.origin_ns else { return Support { below_min: true, ..Support::default() } };
        let end = (time_ns.saturating_sub(origin) / m.width_ns) as usize;
        let c = &self.counts[flow];
        let at = |i: usize| c.get(i).copied().unwrap_or(0);
        let window = end.saturating_sub(m.window)..end;
        let samples: u64 = window.clone().map(|i| at(i) as u64).sum();
        let intervals = window.filter(|&i| at(i) > 0).count();
        let recent = (end.saturating_sub(m.recent)..end).any(|i| at(i) > 0);
        let full = self.first[flow].is_some_and(|f| time_ns >= f + m.window as u64 * m.width_ns);
        let below_min = samples < m.samples || intervals < m.intervals || !recent || !full;
        Support { samples, intervals, below_min }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn min() -> Minimum {
        Minimum { width_ns: 100, window: 20, recent: 10, intervals: 10, samples: 1 }
    }

    #[test]
    fn a_steady_subflow_meets_the_minimum_once_its_window_is_full() {
        let mut l = Ledger::new(min(), 2);
        for t in (0..5000).step_by(10) {
            l.sample(0, t);
        }
        // At 1000 ns the first sample is only 10 intervals old: the statistics are not full.
        assert!(l.support(0, 1000).below_min);
        let s = l.support(0, 3000);
        assert_eq!((s.samples, s.intervals, s.below_min), (200, 20, false));
        // The other subflow never sent a sample.
        assert_eq!(l.support(1, 3000), Support { samples: 0, intervals: 0, below_min: true });
    }

    #[test]
    fn sparse_or_silent_recent_intervals_are_below_the_minimum() {
        let mut l = Ledger::new(min(), 1);
        // One sample every third interval: 7 of 20 intervals hold samples, fewer than 10.
        for t in (0..5000).step_by(300) {
            l.sample(0, t);
        }
        let s = l.support(0, 4000);
        assert!(s.intervals < 10 && s.below_min, "{s:?}");
        // Dense until 2000, then silent: at 2600 the window holds 14 intervals with samples
        // but the last 5 (the recent M here) are empty.
        let mut l = Ledger::new(Minimum { recent: 5, ..min() }, 1);
        for t in (0..2000).step_by(5) {
            l.sample(0, t);
        }
        let s = l.support(0, 2600);
        assert!(s.intervals >= 10 && s.below_min, "{s:?}");
    }
}
