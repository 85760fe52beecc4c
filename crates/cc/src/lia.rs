//! LIA, Linked Increases Algorithm (RFC 6356 §3-§4; S1 §4 "RTT COMPENSATOR"), in segments
//! with f64 arithmetic (algorithms.md §1.6, §11 item 4).

use crate::connection::{CongestionControl, Connection};
use crate::path::PathState;
use crate::set::SubflowSet;

/// RFC 6356 eq. 2 / S1 §4: `a = w_total * max_r(w_r / rtt_r^2) / (sum_r w_r / rtt_r)^2`,
/// over `set`, with the effective window (ssthresh while in recovery, §11 item 2).
/// Every member of `set` must have an RTT estimate.
pub(crate) fn alpha<S>(paths: &[PathState<S>], set: SubflowSet) -> f64 {
    if set.len() <= 1 {
        return 1.0; // a single subflow is Reno; avoids rounding in the formula
    }
    let (mut total, mut best, mut rate_sum) = (0.0, 0.0f64, 0.0);
    for i in set.iter() {
        let s = &paths[i];
        let (w, rtt) = (
            s.effective_cwnd(),
            s.srtt().expect("coupled subflows have an RTT"),
        );
        total += w;
        best = best.max(w / (rtt * rtt));
        rate_sum += w / rtt;
    }
    total * best / (rate_sum * rate_sum)
}

/// Sum of effective windows over `set`.
pub(crate) fn total_window<S>(paths: &[PathState<S>], set: SubflowSet) -> f64 {
    set.iter().map(|i| paths[i].effective_cwnd()).sum()
}

/// LIA's alpha is recomputed only when some floor(cwnd) changed, on every congestion signal and
/// when the coupling set changes (RFC 6356 §4.1; algorithms.md §11 item 3) — not per ACK.
#[derive(Clone, Copy, Debug)]
pub struct AlphaCache {
    value: f64,
    over: SubflowSet,
    stale: bool,
}

impl Default for AlphaCache {
    fn default() -> Self {
        AlphaCache {
            value: 1.0,
            over: SubflowSet::empty(),
            stale: true,
        }
    }
}

impl AlphaCache {
    pub(crate) fn get<S>(&mut self, paths: &[PathState<S>], set: SubflowSet) -> f64 {
        if self.stale || self.over != set {
            self.value = alpha(paths, set);
            self.over = set;
            self.stale = false;
        }
        self.value
    }

    pub(crate) fn invalidate(&mut self) {
        self.stale = true;
    }

    /// Last computed value, for probes.
    pub(crate) fn last(&self) -> f64 {
        self.value
    }
}

/// LIA: no per-path state; the alpha cache is connection-level.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lia;

impl CongestionControl for Lia {
    type Path = ();
    type Shared = AlphaCache;
    const COUPLED: bool = true;

    fn new_path(&self) {}

    /// RFC 6356 §3: per acked segment `min(alpha / w_total, 1 / w_i)`; the cap is the
    /// single-path TCP increase ("do no harm").
    fn coupled_increase(c: &mut Connection<Self>, sf: usize, set: SubflowSet, units: f64) {
        let a = c.shared.get(&c.paths, set);
        let total = total_window(&c.paths, set);
        let s = &mut c.paths[sf];
        s.cwnd += units * (a / total).min(1.0 / s.cwnd);
    }

    fn invalidate(shared: &mut AlphaCache) {
        shared.invalidate();
    }

    fn alpha(c: &Connection<Self>) -> f64 {
        c.shared.last()
    }
}
