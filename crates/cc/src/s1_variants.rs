//! S1's FULLY COUPLED (§2) and LINKED INCREASES (§3), windows in segments.

use crate::lia::total_window;
use crate::set::SubflowSet;
use crate::subflow::Subflow;

/// FULLY COUPLED increase (S1 §2): `1/w` per ack, w = total window over `set`.
pub(crate) fn fully_coupled_increase(
    subflows: &mut [Subflow],
    sf: usize,
    set: SubflowSet,
    units: f64,
) {
    let total = total_window(subflows, set);
    subflows[sf].cwnd += units / total;
}

/// FULLY COUPLED decrease (S1 §2, b = 2): `w_r - w/2`, floored. The subflow's own share of w
/// is its flight size (as RFC 5681 eq. 4 uses it), so one subflow gives exactly Reno's
/// `FlightSize/2`.
pub(crate) fn fully_coupled_ssthresh(
    subflows: &[Subflow],
    sf: usize,
    set: SubflowSet,
    flight: f64,
    min: f64,
) -> f64 {
    let others = total_window(subflows, set.without(sf));
    (flight - (flight + others) / 2.0).max(min)
}

/// LINKED INCREASES increase (S1 §3): `a/w` per ack, no cap (the cap is what turns it into
/// the RTT COMPENSATOR, i.e. LIA). The decrease is Reno's.
pub(crate) fn linked_increase(
    subflows: &mut [Subflow],
    sf: usize,
    set: SubflowSet,
    a: f64,
    units: f64,
) {
    let total = total_window(subflows, set);
    subflows[sf].cwnd += units * a / total;
}
