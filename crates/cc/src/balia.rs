//! BALIA (draft-walid-mptcp-congestion-control-04 §2; Linux `mptcp_balia.c`), in segments.

use crate::connection::{CongestionControl, CongestionEvent, Connection};
use crate::path::PathState;
use crate::set::SubflowSet;

/// (x_r, max_k x_k, sum_k x_k) with x_k = w_k / rtt_k over `set`.
fn rates(paths: &[PathState<()>], set: SubflowSet, r: usize) -> (f64, f64, f64) {
    let rate = |i: usize| {
        paths[i].effective_cwnd() / paths[i].srtt().expect("coupled subflows have an RTT")
    };
    let (mut max, mut sum) = (0.0f64, 0.0);
    for i in set.iter() {
        max = max.max(rate(i));
        sum += rate(i);
    }
    (rate(r), max, sum)
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Balia {
    /// Truncate alpha to an integer in the decrease, as Linux's integer division does
    /// (algorithms.md §11 item 10).
    pub integer_alpha: bool,
}

impl CongestionControl for Balia {
    type Path = ();
    type Shared = ();
    const COUPLED: bool = true;

    fn new_path(&self) {}

    /// Per increase unit: `x_r / (rtt_r (sum x)^2) * (1+alpha_r)/2 * (4+alpha_r)/5`,
    /// alpha_r = max x / x_r (BALIA-04 §2).
    fn coupled_increase(c: &mut Connection<Self>, sf: usize, set: SubflowSet, units: f64) {
        let (x, max, sum) = rates(&c.paths, set, sf);
        let alpha = max / x;
        let s = &mut c.paths[sf];
        let rtt = s.srtt().expect("coupled subflows have an RTT");
        s.cwnd += units * x / (rtt * sum * sum) * (1.0 + alpha) / 2.0 * (4.0 + alpha) / 5.0;
    }

    /// Per loss: `w_r - (w_r/2) min(alpha_r, 1.5)` (BALIA-04 §2), applied to the flight size
    /// as RFC 5681 eq. 4 does.
    fn ssthresh_after_congestion(c: &mut Connection<Self>, e: CongestionEvent) -> f64 {
        let (sf, set, flight, min) = (e.sf, e.set, e.flight, e.min);
        if set.len() <= 1 {
            return crate::window::ssthresh_after_loss(flight, min);
        }
        let (x, max, _) = rates(&c.paths, set, sf);
        let mut alpha = if x > 0.0 { max / x } else { 1.0 };
        if c.algo.integer_alpha {
            alpha = alpha.floor();
        }
        (flight - flight / 2.0 * alpha.min(1.5)).max(min)
    }
}
