//! BALIA (draft-walid-mptcp-congestion-control-04 §2).

mod common;

use common::{ack, with_windows, Rng, MS};
use pathpool_cc::{Signal, Algorithm, CcConfig, SubflowSet};

/// Fraction of the window removed by a loss on `sf`.
fn removed_fraction(cfg: CcConfig, rtts: &[u64], wins: &[f64], sf: usize) -> f64 {
    let mut c = with_windows(Algorithm::Balia, cfg, rtts, wins);
    { c.set_coupling(sf, SubflowSet::all(rtts.len())); c.on_congestion(sf, 0, Signal::Loss, wins[sf]) };
    (wins[sf] - c.ssthresh(sf)) / wins[sf]
}

#[test]
fn decrease_lies_between_half_and_three_quarters_of_the_window() {
    let mut rng = Rng(3);
    let (mut at_half, mut at_three_quarters, mut between) = (0, 0, 0);
    for _ in 0..2000 {
        let n = 2 + (rng.next_f64() * 3.0) as usize;
        let rtts: Vec<u64> = (0..n)
            .map(|_| 1 + (rng.next_f64() * 200.0) as u64)
            .collect();
        let wins: Vec<f64> = (0..n).map(|_| 4.0 + rng.next_f64() * 100.0).collect();
        let sf = (rng.next_f64() * n as f64) as usize;
        let f = removed_fraction(CcConfig::default(), &rtts, &wins, sf);
        assert!((0.5 - 1e-12..=0.75 + 1e-12).contains(&f), "removed {f}");
        match f {
            f if (f - 0.5).abs() < 1e-12 => at_half += 1,
            f if (f - 0.75).abs() < 1e-12 => at_three_quarters += 1,
            _ => between += 1,
        }
    }
    assert!(
        at_half > 0 && at_three_quarters > 0 && between > 0,
        "{at_half} {at_three_quarters} {between}"
    );
}

#[test]
fn decrease_is_half_when_rates_are_equal() {
    // x_r = w_r / rtt_r equal => alpha_r = 1 => Reno's halving.
    let f = removed_fraction(CcConfig::default(), &[10, 20, 40], &[10.0, 20.0, 40.0], 1);
    assert!((f - 0.5).abs() < 1e-12);
}

#[test]
fn real_valued_and_linux_integer_alpha_in_the_decrease() {
    // alpha = max x / x_1 = 1.8 for subflow 1: real => min(1.8, 1.5) = 1.5 => 0.75 removed;
    // Linux integer division => alpha 1 => 0.5 removed (algorithms.md §11 item 10).
    let (rtts, wins) = ([10, 10], [18.0, 10.0]);
    assert!((removed_fraction(CcConfig::default(), &rtts, &wins, 1) - 0.75).abs() < 1e-12);
    let linux = CcConfig {
        balia_integer_alpha: true,
        ..CcConfig::default()
    };
    assert!((removed_fraction(linux.clone(), &rtts, &wins, 1) - 0.5).abs() < 1e-12);
    // alpha = 1.25 (real) removes 0.625.
    assert!((removed_fraction(CcConfig::default(), &rtts, &[12.5, 10.0], 1) - 0.625).abs() < 1e-12);
    assert!((removed_fraction(linux, &rtts, &[20.0, 10.0], 1) - 0.75).abs() < 1e-12);
}

#[test]
fn increase_matches_the_fixed_point_form_of_the_draft() {
    // Equivalent form (algorithms.md §3.1): (x_r + max x)(4 x_r + max x) / (10 w_r (sum x)^2).
    let (rtts, wins) = ([10u64, 30, 60], [12.0, 24.0, 30.0]);
    let x: Vec<f64> = (0..3).map(|i| wins[i] / rtts[i] as f64).collect();
    let (max, sum) = (x.iter().cloned().fold(0.0, f64::max), x.iter().sum::<f64>());
    for r in 0..3 {
        let mut c = with_windows(Algorithm::Balia, CcConfig::default(), &rtts, &wins);
        { c.set_coupling(r, SubflowSet::all(3)); c.on_ack(r, 0, ack(1.0, rtts[r] * MS)) };
        let expected = (x[r] + max) * (4.0 * x[r] + max) / (10.0 * wins[r] * sum * sum);
        assert!(
            (c.cwnd(r) - wins[r] - expected).abs() < 1e-12,
            "subflow {r}"
        );
    }
}
