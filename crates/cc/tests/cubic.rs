//! CUBIC against RFC 9438's formulas, with the expected values computed here:
//! K = cbrt(W_max (1 - beta) / C) (§4.2 eq. 2 with cwnd_epoch = beta W_max) and
//! W_cubic(t) = C (t - K)^3 + W_max (eq. 1).

mod common;

use common::{ack, MS};
use pathpool_cc::{Signal, Algorithm, CcConfig, Controller, CubicParams, Nanos, SubflowSet};

const C: f64 = 0.4;
const BETA: f64 = 0.7;

fn w_cubic(t: f64, w_max: f64) -> f64 {
    let k = (w_max * (1.0 - BETA) / C).cbrt();
    C * (t - k).powi(3) + w_max
}

/// A CUBIC flow in congestion avoidance at `w_max` that takes a loss at time 0.
fn after_loss(w_max: f64, reno_friendly: bool) -> Controller {
    let cfg = CcConfig {
        initial_cwnd: w_max,
        initial_ssthresh: 1.0,
        cubic: CubicParams {
            fast_convergence: false,
            reno_friendly,
            ..CubicParams::default()
        },
        ..CcConfig::default()
    };
    let mut c = Controller::new(Algorithm::Cubic, cfg, 1);
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 0, Signal::Loss, w_max) };
    c.on_recovery_exit(0, 0);
    c
}

/// ACK clocking: per RTT, floor(cwnd) single-segment ACKs spread evenly. Calls `probe` at the
/// start of each round with the time since the first ACK (seconds).
fn run(c: &mut Controller, rtt: Nanos, seconds: f64, mut probe: impl FnMut(f64, f64)) {
    let mut t: Nanos = 1;
    let end = (seconds * 1e9) as Nanos;
    while t < end {
        probe((t - 1) as f64 * 1e-9, c.cwnd(0));
        let n = c.cwnd(0).floor() as u64;
        for i in 0..n {
            { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, t + i * rtt / n, ack(1.0, rtt)) };
        }
        t += rtt;
    }
}

#[test]
fn reduction_is_beta_times_flight() {
    let c = after_loss(100.0, true);
    assert!((c.ssthresh(0) - 70.0).abs() < 1e-9 && (c.cwnd(0) - 70.0).abs() < 1e-9);
}

#[test]
fn window_follows_w_cubic_and_plateaus_at_w_max_at_k() {
    let w_max = 100.0;
    let k = (w_max * (1.0 - BETA) / C).cbrt(); // 4.217 s
    let mut c = after_loss(w_max, false);
    let mut checked = 0;
    run(&mut c, 100 * MS, 9.0, |t, cwnd| {
        if t > 0.5 {
            // The window aims at W_cubic(t + RTT) over each RTT, so it tracks W_cubic(t).
            let w = w_cubic(t, w_max);
            assert!(
                (cwnd - w).abs() / w < 0.02,
                "t = {t:.2} s: cwnd {cwnd:.2}, W_cubic {w:.2}"
            );
            checked += 1;
        }
        if (t - k).abs() < 0.05 {
            assert!((cwnd - w_max).abs() < 1.0, "at K = {k:.3} s cwnd {cwnd:.2}");
        }
    });
    assert!(checked > 80);
}

#[test]
fn reno_friendly_region_takes_over_on_short_rtts() {
    // W_max = 10, RTT 10 ms: W_cubic(1 s) = 0.4 (1 - 1.957)^3 + 10 = 9.65, while an AIMD flow
    // with alpha_cubic = 3 (1 - 0.7) / 1.7 until it reaches cwnd_prior = 10, then 1 per RTT,
    // has 10 + (100 - 3 / alpha_cubic) = 104.3 segments after 100 RTTs (RFC 9438 §4.3).
    let alpha_cubic = 3.0 * (1.0 - BETA) / (1.0 + BETA);
    let aimd = 10.0 + (100.0 - 3.0 / alpha_cubic);
    let mut friendly = after_loss(10.0, true);
    run(&mut friendly, 10 * MS, 1.0, |_, _| {});
    assert!(
        (friendly.cwnd(0) - aimd).abs() / aimd < 0.03,
        "cwnd {} vs AIMD {aimd}",
        friendly.cwnd(0)
    );
    let mut pure = after_loss(10.0, false);
    run(&mut pure, 10 * MS, 1.0, |_, _| {});
    let w = w_cubic(1.0, 10.0);
    assert!(
        (pure.cwnd(0) - w).abs() < 0.3,
        "cwnd {} vs W_cubic {w}",
        pure.cwnd(0)
    );
}

#[test]
fn fast_convergence_lowers_w_max() {
    // Second loss below the previous W_max: W_max = cwnd (1 + beta) / 2 (§4.7), so the window
    // plateaus lower than where the loss happened (Reno-friendly region off: at 100 ms RTT
    // it would dominate here).
    let cubic = CubicParams {
        reno_friendly: false,
        ..CubicParams::default()
    };
    let cfg = CcConfig {
        initial_cwnd: 100.0,
        initial_ssthresh: 1.0,
        cubic,
        ..CcConfig::default()
    };
    let mut c = Controller::new(Algorithm::Cubic, cfg, 1);
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 0, Signal::Loss, 100.0) }; // W_max 100, cwnd 70
    c.on_recovery_exit(0, 0);
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 0, Signal::Loss, 70.0) }; // 70 < 100: W_max = 70 * 0.85 = 59.5
    c.on_recovery_exit(0, 0);
    assert!((c.cwnd(0) - 49.0).abs() < 1e-9);
    let w_max: f64 = 59.5;
    let k = ((w_max - 49.0) / C).cbrt();
    let mut at_k = 0.0;
    run(&mut c, 100 * MS, k + 0.05, |t, cwnd| {
        if (t - k).abs() < 0.05 {
            at_k = cwnd;
        }
    });
    assert!((at_k - w_max).abs() < 1.0, "at K cwnd {at_k}");
}

#[test]
fn timeout_restarts_with_k_zero() {
    // RFC 9438 §4.8: after an RTO the first CA stage has K = 0 and W_max = cwnd_epoch:
    // growth is convex from the start (no concave approach to an old W_max).
    let cfg = CcConfig {
        initial_cwnd: 100.0,
        initial_ssthresh: 1.0,
        ..CcConfig::default()
    };
    let mut c = Controller::new(Algorithm::Cubic, cfg, 1);
    c.on_congestion(0, 0, Signal::Timeout, 100.0);
    assert_eq!((c.cwnd(0), c.ssthresh(0)), (1.0, 70.0));
    c.set_window(0, 70.0, 70.0); // skip the slow start
    let mut first_rounds = Vec::new();
    run(&mut c, 100 * MS, 1.0, |_, cwnd| first_rounds.push(cwnd));
    let growth_first = first_rounds[2] - first_rounds[1];
    let growth_last = first_rounds[9] - first_rounds[8];
    assert!(growth_last > growth_first, "convex: {first_rounds:?}");
}
