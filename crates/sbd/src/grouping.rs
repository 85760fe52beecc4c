//! The grouping algorithm of RFC 8382 §3.3.1 (docs/sbd.md "Grouping"), in RFC order:
//! bottleneck test, then splits by freq_est (p_f), var_est (p_mad), skew_est (p_s) and
//! pkt_loss (p_d) (§11 item 33). Each split sorts a group descending and cuts between
//! *adjacent* flows (chaining, §11 item 18). Works in caller-owned buffers: no allocation.

use crate::observation::{canonicalize, NOT_BOTTLENECKED};
use crate::params::{LossSplit, SbdParams};

/// The summary statistics of one flow after an interval closed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlowStats {
    pub skew_est: f64,
    /// Mean absolute deviation, in nanoseconds.
    pub var_est: f64,
    pub freq_est: f64,
    pub pkt_loss: f64,
    /// Result of the step-1 bottleneck test.
    pub bottlenecked: bool,
}

/// Guards the absolute thresholds against binary rounding (freq_est is a count / N, so a
/// difference of exactly p_f must cut, as a difference of 5 crossings in 50 does).
const EPS: f64 = 1e-9;

#[derive(Clone, Debug)]
pub struct Grouper {
    order: Vec<usize>,
    cut_before: Vec<bool>,
    scratch: Vec<u32>,
}

impl Grouper {
    pub fn new(n_flows: usize) -> Self {
        Grouper {
            order: Vec::with_capacity(n_flows),
            cut_before: Vec::with_capacity(n_flows),
            scratch: vec![0; n_flows + 1],
        }
    }

    /// Writes a canonical group id per flow into `out` (0 = not bottlenecked).
    pub fn group(&mut self, stats: &[FlowStats], p: &SbdParams, out: &mut [u32]) {
        self.order.clear();
        self.order.extend((0..stats.len()).filter(|&i| stats[i].bottlenecked));
        self.cut_before.clear();
        self.cut_before.resize(self.order.len(), false);
        let high_loss = |g: &[usize]| g.iter().any(|&i| stats[i].pkt_loss > p.p_l);

        self.split(stats, |s| s.freq_est, |a, b| a - b >= p.p_f - EPS, |_| true);
        self.split(stats, |s| s.var_est, |a, b| a - b >= p.p_mad * a, |_| true);
        let replaces = p.loss_split == LossSplit::ReplacesSkew;
        // §11 item 19: the loss rule applies to a group when any of its flows has high loss.
        self.split(stats, |s| s.skew_est, |a, b| a - b >= p.p_s - EPS, |g| !(replaces && high_loss(g)));
        self.split(stats, |s| s.pkt_loss, |a, b| a - b >= p.p_d * a, high_loss);

        out.fill(NOT_BOTTLENECKED);
        let mut label = 0;
        for (pos, &flow) in self.order.iter().enumerate() {
            if pos == 0 || self.cut_before[pos] {
                label += 1;
            }
            out[flow] = label;
        }
        canonicalize(out, &mut self.scratch);
    }

    /// Sorts every current group by `key` (descending, ties by flow index) and cuts between
    /// adjacent flows a >= b where `cut(a, b)`; groups failing `applies` are left alone.
    fn split(
        &mut self,
        stats: &[FlowStats],
        key: impl Fn(&FlowStats) -> f64,
        cut: impl Fn(f64, f64) -> bool,
        applies: impl Fn(&[usize]) -> bool,
    ) {
        let len = self.order.len();
        let mut start = 0;
        while start < len {
            let mut end = start + 1;
            while end < len && !self.cut_before[end] {
                end += 1;
            }
            let group = &mut self.order[start..end];
            if applies(group) {
                group.sort_unstable_by(|&a, &b| key(&stats[b]).total_cmp(&key(&stats[a])).then(a.cmp(&b)));
                for pos in start + 1..end {
                    let (a, b) = (key(&stats[self.order[pos - 1]]), key(&stats[self.order[pos]]));
                    if cut(a, b) {
                        self.cut_before[pos] = true;
                    }
                }
            }
            start = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(skew: f64, var: f64, freq: f64, loss: f64) -> FlowStats {
        FlowStats { skew_est: skew, var_est: var, freq_est: freq, pkt_loss: loss, bottlenecked: true }
    }

    fn run(stats: &[FlowStats], p: &SbdParams) -> Vec<u32> {
        let mut g = Grouper::new(stats.len());
        let mut out = vec![0; stats.len()];
        g.group(stats, p, &mut out);
        out
    }

    #[test]
    fn similar_flows_group_and_non_bottlenecked_get_zero() {
        let p = SbdParams::mptcp_sbd();
        let mut s = vec![flow(-0.2, 1000.0, 0.2, 0.0), flow(-0.22, 1050.0, 0.24, 0.0), flow(-0.2, 1000.0, 0.2, 0.0)];
        s[2].bottlenecked = false;
        assert_eq!(run(&s, &p), [1, 1, 0]);
    }

    #[test]
    fn freq_split_is_absolute_and_chains_over_adjacent_flows() {
        let p = SbdParams::mptcp_sbd();
        // 0.30, 0.24, 0.18: adjacent differences 0.06 < 0.1 chain all three although the ends
        // differ by 0.12.
        let s = [flow(-0.2, 1000.0, 0.30, 0.0), flow(-0.2, 1000.0, 0.24, 0.0), flow(-0.2, 1000.0, 0.18, 0.0)];
        assert_eq!(run(&s, &p), [1, 1, 1]);
        // A gap of exactly p_f (5 crossings in 50) cuts.
        let s = [flow(-0.2, 1000.0, 0.30, 0.0), flow(-0.2, 1000.0, 0.20, 0.0)];
        assert_eq!(run(&s, &p), [1, 2]);
    }

    #[test]
    fn var_split_is_relative_to_the_larger() {
        let p = SbdParams::mptcp_sbd();
        let s = [flow(-0.2, 1000.0, 0.2, 0.0), flow(-0.2, 910.0, 0.2, 0.0), flow(-0.2, 899.0, 0.2, 0.0)];
        // 1000 vs 910: 90 < 100 keeps; 910 vs 899: 11 < 91 keeps.
        assert_eq!(run(&s, &p), [1, 1, 1]);
        let s = [flow(-0.2, 1000.0, 0.2, 0.0), flow(-0.2, 900.0, 0.2, 0.0)];
        assert_eq!(run(&s, &p), [1, 2]);
    }

    #[test]
    fn loss_replaces_skew_only_in_the_draft_variant() {
        // Same freq and var, skew far apart, both with high and similar loss.
        let s = [flow(-0.5, 1000.0, 0.2, 0.30), flow(0.2, 1000.0, 0.2, 0.29)];
        assert_eq!(run(&s, &SbdParams::mptcp_sbd()), [1, 1]);
        let mut rfc = SbdParams::rfc8382();
        rfc.p_s = 0.1;
        assert_eq!(run(&s, &rfc), [1, 2]);
        // Loss far apart splits in both variants.
        let s = [flow(-0.2, 1000.0, 0.2, 0.30), flow(-0.2, 1000.0, 0.2, 0.12)];
        assert_eq!(run(&s, &SbdParams::mptcp_sbd()), [1, 2]);
    }
}
