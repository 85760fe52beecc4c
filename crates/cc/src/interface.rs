//! The interface a transport drives congestion control through, in the spirit of
//! quinn-proto's `congestion::Controller`: events come in with the time as an argument
//! (no clock reads), windows come out. A connection's controller keeps every path's state and
//! the connection-level coupling; a backend that holds one controller per path (a QUIC stack's
//! per-path `Controller`) binds a path index with [`PathRef`].

use crate::rtt::SmoothedRtt;
use crate::set::SubflowSet;
use crate::Nanos;

/// What an ACK tells the controller about one path.
#[derive(Clone, Copy, Debug, Default)]
pub struct AckInfo {
    /// Segments newly (cumulatively or by SACK) acknowledged.
    pub newly_acked: f64,
    /// Karn-valid RTT sample the transport measured on this ACK, if any.
    pub rtt_sample: Option<Nanos>,
    /// The sender was cwnd-limited; windows do not grow otherwise (RFC 7661 spirit, Linux
    /// `tcp_is_cwnd_limited`).
    pub cwnd_limited: bool,
}

/// A congestion signal on one path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Loss detected by fast retransmit: enter recovery with `cwnd = ssthresh`; ignored while
    /// already in recovery (RFC 6582: one reduction per window).
    Loss,
    /// ECN-Echo: the loss reduction without recovery, at most once per RTT (RFC 3168 §6.1.2).
    Ecn,
    /// Retransmission timeout: `cwnd = 1` (RFC 5681 loss window); ssthresh kept on a repeated
    /// timeout of the same data.
    Timeout,
}

/// One connection's congestion control over `n_paths()` paths (a single-path flow has one).
/// Windows are `f64` segments, always finite and >= 1.
pub trait MultipathController {
    fn n_paths(&self) -> usize;
    /// The paths `path`'s coupled increase and decrease run over (default: all; shared
    /// bottleneck detection hands in smaller groups, algorithms.md §7.5).
    fn set_coupling(&mut self, path: usize, coupling: SubflowSet);
    fn on_ack(&mut self, path: usize, now: Nanos, ack: AckInfo);
    /// The transport's own smoothed RTT of `path` (the estimator it keeps for its RTO):
    /// from the first call on, the controller reads this instead of smoothing the samples
    /// handed in with ACKs, so the path has one RTT estimator, the transport's (as a kernel
    /// controller reads `tp->srtt_us`). A caller without an estimator never calls it.
    fn set_srtt(&mut self, path: usize, srtt: SmoothedRtt);
    /// `flight` is the RFC 5681 eq. 4 FlightSize in segments.
    fn on_congestion(&mut self, path: usize, now: Nanos, signal: Signal, flight: f64);
    /// Recovery ended (full ACK, RFC 6582 §3.2 step 3); cwnd stays at ssthresh.
    fn on_recovery_exit(&mut self, path: usize, now: Nanos);
    /// End of an RTT round (the ACK passed the round's marker); call it after `on_ack` for the
    /// ACK that ends the round.
    fn on_round_end(&mut self, path: usize, now: Nanos);
    /// Un-inflated window, segments.
    fn cwnd(&self, path: usize) -> f64;
}

/// One path of a connection's controller: the narrow per-path interface.
pub trait PathController {
    fn on_ack(&mut self, now: Nanos, ack: AckInfo);
    fn set_srtt(&mut self, srtt: SmoothedRtt);
    fn on_congestion(&mut self, now: Nanos, signal: Signal, flight: f64);
    fn on_recovery_exit(&mut self, now: Nanos);
    fn on_round_end(&mut self, now: Nanos);
    fn cwnd(&self) -> f64;
}

/// Path `path` of the connection controller `conn`.
pub struct PathRef<'a, C: MultipathController + ?Sized> {
    pub conn: &'a mut C,
    pub path: usize,
}

impl<C: MultipathController + ?Sized> PathController for PathRef<'_, C> {
    fn on_ack(&mut self, now: Nanos, ack: AckInfo) {
        self.conn.on_ack(self.path, now, ack)
    }
    fn set_srtt(&mut self, srtt: SmoothedRtt) {
        self.conn.set_srtt(self.path, srtt)
    }
    fn on_congestion(&mut self, now: Nanos, signal: Signal, flight: f64) {
        self.conn.on_congestion(self.path, now, signal, flight)
    }
    fn on_recovery_exit(&mut self, now: Nanos) {
        self.conn.on_recovery_exit(self.path, now)
    }
    fn on_round_end(&mut self, now: Nanos) {
        self.conn.on_round_end(self.path, now)
    }
    fn cwnd(&self) -> f64 {
        self.conn.cwnd(self.path)
    }
}

/// Implements [`MultipathController`] for a type with inherent methods of the same names
/// (`n_paths` is its `n_paths`/`n_subflows`), so that callers need not import the trait.
macro_rules! forward_multipath {
    ([$($gen:tt)*] $ty:ty) => {
        impl<$($gen)*> $crate::interface::MultipathController for $ty {
            fn n_paths(&self) -> usize {
                <$ty>::n_paths(self)
            }
            fn set_coupling(&mut self, path: usize, coupling: $crate::SubflowSet) {
                <$ty>::set_coupling(self, path, coupling)
            }
            fn on_ack(&mut self, path: usize, now: $crate::Nanos, ack: $crate::AckInfo) {
                <$ty>::on_ack(self, path, now, ack)
            }
            fn set_srtt(&mut self, path: usize, srtt: $crate::SmoothedRtt) {
                <$ty>::set_srtt(self, path, srtt)
            }
            fn on_congestion(&mut self, path: usize, now: $crate::Nanos, signal: $crate::Signal, flight: f64) {
                <$ty>::on_congestion(self, path, now, signal, flight)
            }
            fn on_recovery_exit(&mut self, path: usize, now: $crate::Nanos) {
                <$ty>::on_recovery_exit(self, path, now)
            }
            fn on_round_end(&mut self, path: usize, now: $crate::Nanos) {
                <$ty>::on_round_end(self, path, now)
            }
            fn cwnd(&self, path: usize) -> f64 {
                <$ty>::cwnd(self, path)
            }
        }
    };
}
pub(crate) use forward_multipath;
