//! What a transport hands congestion control with its events, in the spirit of
//! quinn-proto's `congestion::Controller`: events come in with the time as an argument (no
//! clock reads), windows come out. The calls themselves are [`crate::Controller`]'s (and
//! [`crate::Connection`]'s for one algorithm): every backend holds that type, one per
//! connection with the path as an index (docs/architecture.md, "The congestion-control
//! interface").

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
