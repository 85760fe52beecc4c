//! Reno / NewReno window rules (RFC 5681 §3.1-3.2, RFC 6582), in segments.
//! Recovery itself (dupACK inflation, partial ACKs, retransmissions) belongs to the sender;
//! the controller keeps the un-inflated window (`cwnd = ssthresh` during recovery).

use crate::config::SlowStartTest;
use crate::connection::Connection;
use crate::control::CongestionControl;
use crate::Nanos;

pub(crate) fn in_slow_start(cwnd: f64, ssthresh: f64, test: SlowStartTest) -> bool {
    match test {
        SlowStartTest::Less => cwnd < ssthresh,
        SlowStartTest::LessOrEqual => cwnd <= ssthresh,
    }
}

/// Slow start by acked segments (RFC 5681 eq. 2 with RFC 3465 byte counting), stopping at the
/// slow-start boundary: at ssthresh for the `<` test; one segment above it for `<=`, where the
/// subflow only leaves slow start once cwnd exceeds ssthresh (Linux 3.14 `tcp_slow_start`).
/// Returns the acked segments left over for congestion avoidance.
pub(crate) fn slow_start(cwnd: &mut f64, ssthresh: f64, acked: f64, test: SlowStartTest) -> f64 {
    let boundary = match test {
        SlowStartTest::Less => ssthresh,
        SlowStartTest::LessOrEqual => ssthresh + 1.0,
    };
    let grow = acked.min((boundary - *cwnd).max(0.0));
    *cwnd += grow;
    acked - grow
}

/// Congestion avoidance: 1/cwnd per increase unit (RFC 5681 eq. 3; a unit is one acked
/// segment or one ACK event, see `AckCounting`).
pub(crate) fn increase(cwnd: &mut f64, units: f64) {
    *cwnd += units / *cwnd;
}

/// ssthresh after a loss (RFC 5681 eq. 4): half the flight size, floored.
pub(crate) fn ssthresh_after_loss(flight_size: f64, min_ssthresh: f64) -> f64 {
    (flight_size / 2.0).max(min_ssthresh)
}

/// Reno / NewReno (RFC 5681, RFC 6582): no state beyond the common window.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reno;

impl CongestionControl for Reno {
    type Path = ();
    type Shared = ();
    const COUPLED: bool = false;

    fn new_path(&self) {}

    fn increase(c: &mut Connection<Self>, sf: usize, _now: Nanos, units: f64) {
        c.increase_reno(sf, units);
    }
}
