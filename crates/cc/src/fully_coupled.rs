//! FULLY COUPLED (S1 §2): the subflows of a connection behave as one TCP flow whose window is
//! their total, windows in segments.

use crate::connection::{CongestionControl, CongestionEvent, Connection};
use crate::lia::total_window;
use crate::set::SubflowSet;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FullyCoupled;

impl CongestionControl for FullyCoupled {
    type Path = ();
    type Shared = ();
    const COUPLED: bool = true;

    fn new_path(&self) {}

    /// S1 §2: `1/w` per ack, w = total window over the coupling set.
    fn coupled_increase(c: &mut Connection<Self>, sf: usize, set: SubflowSet, units: f64) {
        let total = total_window(&c.paths, set);
        c.paths[sf].cwnd += units / total;
    }

    /// S1 §2 (b = 2): `w_r - w/2`, floored. The subflow's own share of w is its flight size
    /// (as RFC 5681 eq. 4 uses it), so one subflow gives exactly Reno's `FlightSize/2`.
    fn ssthresh_after_congestion(c: &mut Connection<Self>, e: CongestionEvent) -> f64 {
        let (sf, set, flight, min) = (e.sf, e.set, e.flight, e.min);
        if set.len() <= 1 {
            return crate::window::ssthresh_after_loss(flight, min);
        }
        let others = total_window(&c.paths, set.without(sf));
        (flight - (flight + others) / 2.0).max(min)
    }
}
