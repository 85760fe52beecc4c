//! LIA, Linked Increases Algorithm (RFC 6356 §3-§4; S1 §4 "RTT COMPENSATOR"), in segments
//! with f64 arithmetic (algorithms.md §1.6, §11 item 4).

use crate::set::SubflowSet;
use crate::subflow::Subflow;

/// RFC 6356 eq. 2 / S1 §4: `a = w_total * max_r(w_r / rtt_r^2) / (sum_r w_r / rtt_r)^2`,
/// over `set`, with the effective window (ssthresh while in recovery, §11 item 2).
/// Every member of `set` must have an RTT estimate.
pub(crate) fn alpha(subflows: &[Subflow], set: SubflowSet) -> f64 {
    if set.len() <= 1 {
        return 1.0; // a single subflow is Reno; avoids rounding in the formula
    }
    let (mut total, mut best, mut rate_sum) = (0.0, 0.0f64, 0.0);
    for i in set.iter() {
        let s = &subflows[i];
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
pub(crate) fn total_window(subflows: &[Subflow], set: SubflowSet) -> f64 {
    set.iter().map(|i| subflows[i].effective_cwnd()).sum()
}

/// RFC 6356 §3: per acked segment `min(alpha / w_total, 1 / w_i)`; the cap is the single-path
/// TCP increase ("do no harm").
pub(crate) fn increase(
    subflows: &mut [Subflow],
    sf: usize,
    set: SubflowSet,
    alpha: f64,
    units: f64,
) {
    let total = total_window(subflows, set);
    let s = &mut subflows[sf];
    s.cwnd += units * (alpha / total).min(1.0 / s.cwnd);
}

/// LIA's alpha is recomputed only when some floor(cwnd) changed, on every congestion signal and
/// when the coupling set changes (RFC 6356 §4.1; algorithms.md §11 item 3) — not per ACK.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AlphaCache {
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
    pub fn get(&mut self, subflows: &[Subflow], set: SubflowSet) -> f64 {
        if self.stale || self.over != set {
            self.value = alpha(subflows, set);
            self.over = set;
            self.stale = false;
        }
        self.value
    }

    pub fn invalidate(&mut self) {
        self.stale = true;
    }

    /// Last computed value, for probes.
    pub fn last(&self) -> f64 {
        self.value
    }
}
