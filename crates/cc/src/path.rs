//! What every path remembers whatever the algorithm: the window, the smoothed RTT the coupled
//! formulas read, recovery and timeout state; plus the algorithm's own per-path state `S`.

use crate::window::WindowConfig;
use crate::rtt::SmoothedRtt;
use crate::Nanos;

#[derive(Clone, Copy, Debug)]
pub struct PathState<S> {
    /// Segments, un-inflated (the sender adds dupACK inflation during recovery).
    pub cwnd: f64,
    pub ssthresh: f64,
    /// Smoothed from the samples handed in with ACKs (RFC 6298 SRTT), or the transport's
    /// own once it hands that in (`rtt_from_transport`).
    pub(crate) rtt: SmoothedRtt,
    pub(crate) rtt_from_transport: bool,
    pub usable: bool,
    pub in_recovery: bool,
    /// A timeout happened and no new data was acknowledged since: a further timeout keeps
    /// ssthresh (RFC 5681 §3.1 note on eq. 4).
    pub(crate) in_timeout_streak: bool,
    /// ECN reactions are at most once per RTT (RFC 3168 §6.1.2).
    pub(crate) ecn_quiet_until: Nanos,
    /// Time of the last ACK, to discount application-limited periods (CUBIC).
    pub(crate) last_ack: Option<Nanos>,
    /// The algorithm's own state for this path.
    pub algo: S,
}

impl<S> PathState<S> {
    pub(crate) fn new(cfg: &WindowConfig, algo: S) -> Self {
        PathState {
            cwnd: cfg.initial_cwnd,
            ssthresh: cfg.initial_ssthresh,
            rtt: SmoothedRtt::default(),
            rtt_from_transport: false,
            usable: true,
            in_recovery: false,
            in_timeout_streak: false,
            ecn_quiet_until: 0,
            last_ack: None,
            algo,
        }
    }

    /// The window the coupled formulas read: ssthresh while in recovery, where cwnd may be
    /// inflated (RFC 6356 §3, Linux `mptcp_get_crt_cwnd`).
    pub fn effective_cwnd(&self) -> f64 {
        if self.in_recovery {
            self.ssthresh
        } else {
            self.cwnd
        }
    }

    /// Smoothed RTT in nanoseconds (unrounded), `None` before a positive sample.
    pub fn srtt(&self) -> Option<f64> {
        self.rtt.get().filter(|&r| r > 0.0)
    }
}
