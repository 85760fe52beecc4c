//! OLIA (draft-khalili-mptcp-congestion-control-05 §3-§4; Linux `mptcp_olia.c`),
//! windows and inter-loss distances in segments.

use crate::connection::{CongestionControl, CongestionEvent, Connection};
use crate::path::PathState;
use crate::set::SubflowSet;

/// OLIA's "best path" metric (algorithms.md §2.3, §11 item 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OliaBestPath {
    /// `l_r / rtt_r^2` (Linux `mptcp_olia.c`; follows the draft's own rate argument).
    LossOverRttSquared,
    /// `l_r^2 / rtt_r` (draft-khalili-05 text as printed).
    LossSquaredOverRtt,
}

/// Segments acknowledged between the last two losses (l1) and since the last loss (l2).
#[derive(Clone, Copy, Debug, Default)]
pub struct OliaState {
    l1: f64,
    l2: f64,
}

impl OliaState {
    pub(crate) fn on_acked(&mut self, segments: f64) {
        self.l2 += segments;
    }

    /// OLIA-05 §3: `l1 = l2; l2 = 0` per loss. As Linux (`loss3 != loss2`), a loss with
    /// nothing acknowledged since the previous one does not shift the history.
    pub(crate) fn on_loss(&mut self) {
        if self.l2 > 0.0 {
            self.l1 = self.l2;
            self.l2 = 0.0;
        }
    }

    /// `l_r = max(l1, l2)`.
    pub(crate) fn inter_loss(&self) -> f64 {
        self.l1.max(self.l2)
    }
}

type OliaPath = PathState<OliaState>;

fn quality(s: &OliaPath, metric: OliaBestPath) -> f64 {
    let (l, rtt) = (
        s.algo.inter_loss(),
        s.srtt().expect("coupled subflows have an RTT"),
    );
    match metric {
        OliaBestPath::LossOverRttSquared => l / (rtt * rtt),
        OliaBestPath::LossSquaredOverRtt => l * l / rtt,
    }
}

/// (M, C): paths with the largest window, and best paths (by `metric`) outside M.
fn max_and_collected(
    subflows: &[OliaPath],
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
    subflows: &[OliaPath],
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

/// OLIA with its best-path metric.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Olia {
    pub best_path: OliaBestPath,
}

impl Default for Olia {
    fn default() -> Self {
        Olia {
            best_path: OliaBestPath::LossOverRttSquared,
        }
    }
}

impl CongestionControl for Olia {
    type Path = OliaState;
    type Shared = ();
    const COUPLED: bool = true;

    fn new_path(&self) -> OliaState {
        OliaState::default()
    }

    fn on_acked(path: &mut OliaState, segments: f64) {
        path.on_acked(segments);
    }

    /// Per increase unit: `(w_r/rtt_r^2) / (sum_p w_p/rtt_p)^2 + alpha_r / w_r` (OLIA-05 §3).
    /// The result can be negative for a path in M; the window never goes below 1 segment.
    fn coupled_increase(c: &mut Connection<Self>, sf: usize, set: SubflowSet, units: f64) {
        let subflows = &mut c.paths[..];
        let alpha = alpha_of(subflows, set, c.algo.best_path, sf);
        let rate_sum: f64 = set
            .iter()
            .map(|i| {
                subflows[i].effective_cwnd()
                    / subflows[i].srtt().expect("coupled subflows have an RTT")
            })
            .sum();
        let s = &mut subflows[sf];
        let rtt = s.srtt().expect("coupled subflows have an RTT");
        let inc = (s.cwnd / (rtt * rtt)) / (rate_sum * rate_sum) + alpha / s.cwnd;
        s.cwnd = (s.cwnd + units * inc).max(1.0);
    }

    fn ssthresh_after_congestion(c: &mut Connection<Self>, e: CongestionEvent) -> f64 {
        c.paths[e.sf].algo.on_loss();
        crate::window::ssthresh_after_loss(e.flight, e.min)
    }
}

impl Connection<Olia> {
    /// OLIA's alpha_r over `coupling` into `out[r]` (0 for paths outside the set).
    /// Paths outside the set, unusable or without an RTT estimate count as outside.
    pub fn olia_alphas(&self, coupling: SubflowSet, out: &mut [f64]) {
        out.iter_mut().for_each(|a| *a = 0.0);
        let mut set = SubflowSet::empty();
        for i in coupling.intersect(SubflowSet::all(self.paths.len())).iter() {
            if self.paths[i].usable && self.paths[i].srtt().is_some() {
                set = set.with(i);
            }
        }
        let len = out.len();
        for r in set.iter().filter(|&r| r < len) {
            out[r] = alpha_of(&self.paths, set, self.algo.best_path, r);
        }
    }
}
