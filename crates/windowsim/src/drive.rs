//! How a window-level round is fed to the real controller. A round either delivers a
//! number of acknowledgements (one `on_ack` carrying them all, so the whole round's increase
//! is computed from the state at the start of the round, as [S1] §5.1 steps its model) or it
//! carries a loss (one fast retransmit and an immediate end of recovery: the window model has
//! no recovery phase, only the multiplicative decrease).

use pathpool_cc::{AckInfo, Algorithm, CcConfig, Controller, Nanos, Signal, SlowStartTest};

/// The length of the base time unit (Δ in [S1], a cycle in [S3]) handed to the controller.
/// Only RTT ratios enter the coupled formulas, so the value is immaterial.
pub(crate) const NANOS_PER_UNIT: f64 = 1.0e6;

/// A duration in base units as controller time (at least 1 ns).
pub(crate) fn nanos(units: f64) -> Nanos {
    (units * NANOS_PER_UNIT).round().max(1.0) as Nanos
}

/// A controller that starts in congestion avoidance at `initial_cwnd`: both papers' models
/// have no slow start (an increase or a decrease per round only). `linked_increases_a` fixes
/// LINKED INCREASES' `a` (None: recomputed from windows and RTTs).
pub(crate) fn controller(
    algorithm: Algorithm,
    n_subflows: usize,
    initial_cwnd: f64,
    linked_increases_a: Option<f64>,
) -> Controller {
    let cfg = CcConfig {
        initial_cwnd,
        linked_increases_a,
        initial_ssthresh: initial_cwnd,
        // With `cwnd <= ssthresh`, a window just halved to its ssthresh would slow-start again.
        slow_start: SlowStartTest::Less,
        ..CcConfig::default()
    };
    Controller::new(algorithm, cfg, n_subflows)
}

/// One round of subflow `sf` without loss: `acked` segments acknowledged.
pub(crate) fn deliver(ctl: &mut Controller, sf: usize, now: Nanos, acked: f64, rtt: Nanos) {
    // Every subflow couples over all of them: the controller's default coupling.
    let ack = AckInfo { newly_acked: acked, rtt_sample: Some(rtt), cwnd_limited: true };
    ctl.on_ack(sf, now, ack);
}

/// One round of subflow `sf` with at least one loss: one multiplicative decrease.
pub(crate) fn lose(ctl: &mut Controller, sf: usize, now: Nanos) {
    let flight = ctl.cwnd(sf);
    ctl.on_congestion(sf, now, Signal::Loss, flight);
    ctl.on_recovery_exit(sf, now);
}

/// Gives every subflow its (constant) RTT before the first round, as a handshake would, so
/// that the coupled formulas see every path from the start. No segment is acknowledged.
pub(crate) fn handshake(ctl: &mut Controller, rtts: &[Nanos]) {
    for (sf, &rtt) in rtts.iter().enumerate() {
        deliver(ctl, sf, 0, 0.0, rtt);
    }
}
