//! BALIA (draft-walid-mptcp-congestion-control-04 §2; Linux `mptcp_balia.c`), in segments.

use crate::set::SubflowSet;
use crate::subflow::Subflow;

/// (x_r, max_k x_k, sum_k x_k) with x_k = w_k / rtt_k over `set`.
fn rates(subflows: &[Subflow], set: SubflowSet, r: usize) -> (f64, f64, f64) {
    let rate = |i: usize| {
        subflows[i].effective_cwnd() / subflows[i].srtt().expect("coupled subflows have an RTT")
    };
    let (mut max, mut sum) = (0.0f64, 0.0);
    for i in set.iter() {
        max = max.max(rate(i));
        sum += rate(i);
    }
    (rate(r), max, sum)
}

/// Per increase unit: `x_r / (rtt_r (sum x)^2) * (1+alpha_r)/2 * (4+alpha_r)/5`,
/// alpha_r = max x / x_r (BALIA-04 §2).
pub(crate) fn increase(subflows: &mut [Subflow], sf: usize, set: SubflowSet, units: f64) {
    let (x, max, sum) = rates(subflows, set, sf);
    let alpha = max / x;
    let s = &mut subflows[sf];
    let rtt = s.srtt().expect("coupled subflows have an RTT");
    s.cwnd += units * x / (rtt * sum * sum) * (1.0 + alpha) / 2.0 * (4.0 + alpha) / 5.0;
}

/// Per loss: `w_r - (w_r/2) min(alpha_r, 1.5)` (BALIA-04 §2), applied to the flight size as
/// RFC 5681 eq. 4 does. `integer_alpha` truncates alpha as Linux's integer division does
/// (algorithms.md §11 item 10).
pub(crate) fn ssthresh(
    subflows: &[Subflow],
    sf: usize,
    set: SubflowSet,
    flight: f64,
    min: f64,
    integer_alpha: bool,
) -> f64 {
    let (x, max, _) = rates(subflows, set, sf);
    let mut alpha = if x > 0.0 { max / x } else { 1.0 };
    if integer_alpha {
        alpha = alpha.floor();
    }
    (flight - flight / 2.0 * alpha.min(1.5)).max(min)
}
