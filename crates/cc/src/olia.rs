//! OLIA (draft-khalili-mptcp-congestion-control-05 §3-§4; Linux `mptcp_olia.c`),
//! windows and inter-loss distances in segments.

use crate::config::OliaBestPath;
use crate::set::SubflowSet;
use crate::subflow::Subflow;

/// Segments acknowledged between the last two losses (l1) and since the last loss (l2).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OliaState {
    l1: f64,
    l2: f64,
}

impl OliaState {
    pub fn on_acked(&mut self, segments: f64) {
        self.l2 += segments;
    }

    /// OLIA-05 §3: `l1 = l2; l2 = 0` per loss. As Linux (`loss3 != loss2`), a loss with
    /// nothing acknowledged since the previous one does not shift the history.
    pub fn on_loss(&mut self) {
        if self.l2 > 0.0 {
            self.l1 = self.l2;
            self.l2 = 0.0;
        }
    }

    /// `l_r = max(l1, l2)`.
    pub fn inter_loss(&self) -> f64 {
        self.l1.max(self.l2)
    }
}

fn quality(s: &Subflow, metric: OliaBestPath) -> f64 {
    let (l, rtt) = (
        s.olia.inter_loss(),
        s.srtt().expect("coupled subflows have an RTT"),
    );
    match metric {
        OliaBestPath::LossOverRttSquared => l / (rtt * rtt),
        OliaBestPath::LossSquaredOverRtt => l * l / rtt,
    }
}

/// (M, C): paths with the largest window, and best paths (by `metric`) outside M.
fn max_and_collected(
    subflows: &[Subflow],
    set: SubflowSet,
    metric: OliaBestPath,
) -> (SubflowSet, SubflowSet) {
    let (mut w_max, mut q_max) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for i in set.iter() {
        w_max = w_max.max(subflows[i].effective_cwnd());
        q_max = q_max.max(quality(&subflows[i], metric));
    }
    let (mut max_w, mut best) = (SubflowSet::empty(), SubflowSet::empty());
    for i in set.iter() {
        if subflows[i].effective_cwnd() == w_max {
            max_w = max_w.with(i);
        }
        if quality(&subflows[i], metric) == q_max {
            best = best.with(i);
        }
    }
    (max_w, SubflowSet(best.0 & !max_w.0))
}

/// OLIA-05 §3: alpha_r = 1/(n|C|) on C, -1/(n|M|) on M when C is not empty, else 0,
/// with n = |set| (algorithms.md §11 item 8).
pub(crate) fn alpha_of(
    subflows: &[Subflow],
    set: SubflowSet,
    metric: OliaBestPath,
    r: usize,
) -> f64 {
    let (max_w, collected) = max_and_collected(subflows, set, metric);
    let n = set.len() as f64;
    if collected.contains(r) {
        1.0 / (n * collected.len() as f64)
    } else if max_w.contains(r) && !collected.is_empty() {
        -1.0 / (n * max_w.len() as f64)
    } else {
        0.0
    }
}

/// Per increase unit: `(w_r/rtt_r^2) / (sum_p w_p/rtt_p)^2 + alpha_r / w_r` (OLIA-05 §3).
/// The result can be negative for a path in M; the window never goes below 1 segment.
pub(crate) fn increase(
    subflows: &mut [Subflow],
    sf: usize,
    set: SubflowSet,
    metric: OliaBestPath,
    units: f64,
) {
    let alpha = alpha_of(subflows, set, metric, sf);
    let rate_sum: f64 = set
        .iter()
        .map(|i| {
            subflows[i].effective_cwnd() / subflows[i].srtt().expect("coupled subflows have an RTT")
        })
        .sum();
    let s = &mut subflows[sf];
    let rtt = s.srtt().expect("coupled subflows have an RTT");
    let inc = (s.cwnd / (rtt * rtt)) / (rate_sum * rate_sum) + alpha / s.cwnd;
    s.cwnd = (s.cwnd + units * inc).max(1.0);
}
