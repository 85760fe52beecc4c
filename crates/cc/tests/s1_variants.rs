//! S1's FULLY COUPLED (§2) and LINKED INCREASES (§3).

mod common;

use common::{ack, with_windows, Rng, MS};
use pathpool_cc::{Signal, Algorithm, CcConfig, Controller, SubflowSet};

#[test]
fn fully_coupled_increase_is_one_over_the_total_window() {
    let mut c = with_windows(
        Algorithm::FullyCoupled,
        CcConfig::default(),
        &[10, 10],
        &[10.0, 30.0],
    );
    { c.set_coupling(0, SubflowSet::all(2)); c.on_ack(0, 0, ack(1.0, 10 * MS)) };
    assert!((c.cwnd(0) - (10.0 + 1.0 / 40.0)).abs() < 1e-12);
}

#[test]
fn fully_coupled_decrease_removes_half_the_total_window_truncated_at_one() {
    let all = SubflowSet::all(2);
    let mut c = with_windows(
        Algorithm::FullyCoupled,
        CcConfig::default(),
        &[10, 10],
        &[10.0, 30.0],
    );
    { c.set_coupling(1, all); c.on_congestion(1, 0, Signal::Loss, 30.0) }; // 30 - 40/2 = 10
    assert_eq!((c.cwnd(1), c.ssthresh(1)), (10.0, 10.0));
    // Subflow 0: 10 - (10 + 10 (effective window of 1 in recovery)) / 2 = 0 => truncated to 1.
    { c.set_coupling(0, all); c.on_congestion(0, 0, Signal::Loss, 10.0) };
    assert_eq!(c.cwnd(0), 1.0);
}

/// Linked-increases increase and decrease at windows `w`: (increase per ACK, decrease per loss)
/// on each subflow.
fn steps(a: f64, w: &[f64]) -> Vec<(f64, f64)> {
    let cfg = CcConfig {
        linked_increases_a: Some(a),
        ..CcConfig::default()
    };
    let rtts = vec![10; w.len()];
    (0..w.len())
        .map(|r| {
            let mut c = with_windows(Algorithm::LinkedIncreases, cfg.clone(), &rtts, w);
            { c.set_coupling(r, SubflowSet::all(w.len())); c.on_ack(r, 0, ack(1.0, 10 * MS)) };
            let inc = c.cwnd(r) - w[r];
            let mut c = with_windows(Algorithm::LinkedIncreases, cfg.clone(), &rtts, w);
            { c.set_coupling(r, SubflowSet::all(w.len())); c.on_congestion(r, 0, Signal::Loss, w[r]) };
            (inc, w[r] - c.cwnd(r))
        })
        .collect()
}

#[test]
fn linked_increases_balance_at_the_s1_equilibrium() {
    // S1 §3: (1 - p_r) a / w = p_r w_r / 2 at w_r = 2a / (p_r w), w = sqrt(2a sum 1/p_r).
    for (a, p) in [
        (1.0, vec![0.01, 0.04]),
        (0.5, vec![0.002, 0.005, 0.01]),
        (2.0, vec![0.001, 0.001]),
    ] {
        let total = (2.0 * a * p.iter().map(|p| 1.0 / p).sum::<f64>()).sqrt();
        let w: Vec<f64> = p.iter().map(|p| 2.0 * a / (p * total)).collect();
        assert!((w.iter().sum::<f64>() - total).abs() < 1e-9);
        assert!(
            w.iter().all(|&x| x >= 2.0),
            "windows above the ssthresh floor: {w:?}"
        );
        for (r, (inc, dec)) in steps(a, &w).into_iter().enumerate() {
            let drift = (1.0 - p[r]) * inc - p[r] * dec;
            // Zero up to the (1 - p_r) ~ 1 approximation S1 makes: |drift| <= p_r * inc.
            assert!(
                drift.abs() <= p[r] * inc * 1.0001,
                "a {a}, path {r}: drift {drift}"
            );
        }
        // The equilibrium is stable: above it windows shrink on average, below they grow.
        for (scale, sign) in [(1.3, -1.0), (0.7, 1.0)] {
            let ws: Vec<f64> = w.iter().map(|x| x * scale).collect();
            for (r, (inc, dec)) in steps(a, &ws).into_iter().enumerate() {
                assert_eq!(
                    ((1.0 - p[r]) * inc - p[r] * dec).signum(),
                    sign,
                    "a {a}, scale {scale}, path {r}"
                );
            }
        }
    }
}

/// Packet-level run with independent losses of probability p_r on equal-RTT paths: per round
/// each subflow sends floor(w_r) packets; a loss halves once per round (one loss event per
/// window, like TCP). Returns the time-averaged windows.
fn random_loss_run(algo: Algorithm, p: &[f64], rounds: usize, seed: u64) -> Vec<f64> {
    let n = p.len();
    let cfg = CcConfig {
        linked_increases_a: Some(1.0),
        ..CcConfig::default()
    };
    let mut c: Controller = with_windows(algo, cfg, &vec![10; n], &vec![10.0; n]);
    let mut rng = Rng(seed);
    let mut sum = vec![0.0; n];
    let all = SubflowSet::all(n);
    for round in 0..rounds {
        for r in 0..n {
            let packets = c.cwnd(r).floor() as usize;
            let mut lost = false;
            for _ in 0..packets {
                if rng.next_f64() < p[r] {
                    lost = true;
                } else {
                    { c.set_coupling(r, all); c.on_ack(r, 0, ack(1.0, 10 * MS)) };
                }
            }
            if lost {
                { c.set_coupling(r, all); c.on_congestion(r, 0, Signal::Loss, c.cwnd(r)) };
                c.on_recovery_exit(r, 0);
            }
            if round >= rounds / 10 {
                sum[r] += c.cwnd(r);
            }
        }
    }
    sum.iter()
        .map(|s| s / (rounds - rounds / 10) as f64)
        .collect()
}

#[test]
fn linked_increases_split_traffic_in_proportion_to_one_over_p() {
    // S1 §3: LINKED INCREASES splits in proportion to 1/p_r (here 4:1); UNCOUPLED TCPs in
    // proportion to 1/sqrt(p_r) (2:1). Simulated like S1's cwndsim (exogenous losses).
    let p = [0.005, 0.02];
    let li = random_loss_run(Algorithm::LinkedIncreases, &p, 200_000, 11);
    let un = random_loss_run(
        Algorithm::Uncoupled(pathpool_cc::SinglePath::Reno),
        &p,
        200_000,
        11,
    );
    let (ratio_li, ratio_un) = (li[0] / li[1], un[0] / un[1]);
    eprintln!("linked increases {li:?} ratio {ratio_li:.2}; uncoupled {un:?} ratio {ratio_un:.2}");
    assert!((ratio_un - 2.0).abs() < 0.3, "uncoupled ratio {ratio_un}");
    assert!(
        (ratio_li - 4.0).abs() < 0.8,
        "linked increases ratio {ratio_li}"
    );
}
