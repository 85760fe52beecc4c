//! OLIA (draft-khalili-mptcp-congestion-control-05 §3) alpha sets and increase.

mod common;

use common::{ack, set_windows, with_windows, Rng, MS};
use pathpool_cc::{Signal, AckInfo, Algorithm, CcConfig, Controller, OliaBestPath, SubflowSet};

/// Gives subflow `sf` an inter-loss history: `segments` acked, then a loss.
fn history(c: &mut Controller, sf: usize, rtt_ms: u64, segments: f64) {
    let all = SubflowSet::all(c.n_subflows());
    { c.set_coupling(sf, all); c.on_ack(sf, 0, AckInfo {
            newly_acked: segments,
            rtt_sample: Some(rtt_ms * MS),
            cwnd_limited: false,
        }) };
    { c.set_coupling(sf, all); c.on_congestion(sf, 0, Signal::Loss, c.cwnd(sf)) };
    c.on_recovery_exit(sf, 0);
}

fn alphas(c: &Controller) -> Vec<f64> {
    let mut out = vec![f64::NAN; c.n_subflows()];
    c.olia_alphas(SubflowSet::all(c.n_subflows()), &mut out);
    out
}

#[test]
fn alphas_sum_to_zero() {
    let mut rng = Rng(7);
    let mut nonzero = 0;
    for _ in 0..1000 {
        let n = 1 + (rng.next_f64() * 4.0) as usize;
        let rtts: Vec<u64> = (0..n)
            .map(|_| 5 + (rng.next_f64() * 5.0) as u64 * 20)
            .collect();
        let wins: Vec<f64> = (0..n)
            .map(|_| 1.0 + (rng.next_f64() * 4.0).floor() * 10.0)
            .collect();
        let mut c = with_windows(Algorithm::Olia, CcConfig::default(), &rtts, &wins);
        for (sf, &rtt) in rtts.iter().enumerate() {
            if rng.next_f64() < 0.7 {
                history(&mut c, sf, rtt, (rng.next_f64() * 4.0).floor() * 100.0);
            }
        }
        set_windows(&mut c, &wins);
        let a = alphas(&c);
        assert!(a.iter().sum::<f64>().abs() < 1e-12, "sum of {a:?}");
        if a.iter().any(|&x| x != 0.0) {
            nonzero += 1;
        }
    }
    assert!(
        nonzero > 100,
        "only {nonzero} cases had a non-empty collected set"
    );
}

#[test]
fn all_alphas_zero_when_the_best_path_has_the_largest_window() {
    let mut c = with_windows(
        Algorithm::Olia,
        CcConfig::default(),
        &[20, 20, 20],
        &[30.0, 10.0, 10.0],
    );
    history(&mut c, 0, 20, 900.0);
    history(&mut c, 1, 20, 100.0);
    history(&mut c, 2, 20, 100.0);
    set_windows(&mut c, &[30.0, 10.0, 10.0]);
    assert_eq!(alphas(&c), vec![0.0, 0.0, 0.0]);
}

#[test]
fn collected_path_gains_what_the_largest_window_loses() {
    // Path 1 is best (longest inter-loss distance, equal RTTs) but not largest: C = {1},
    // M = {0}, n = 3 => alpha = (-1/3, +1/3, 0).
    let mut c = with_windows(
        Algorithm::Olia,
        CcConfig::default(),
        &[20, 20, 20],
        &[30.0, 10.0, 10.0],
    );
    history(&mut c, 0, 20, 100.0);
    history(&mut c, 1, 20, 900.0);
    history(&mut c, 2, 20, 100.0);
    set_windows(&mut c, &[30.0, 10.0, 10.0]);
    let a = alphas(&c);
    assert!(
        (a[0] + 1.0 / 3.0).abs() < 1e-15 && (a[1] - 1.0 / 3.0).abs() < 1e-15 && a[2] == 0.0,
        "{a:?}"
    );
    // A restricted set changes n and the sets: over {1, 2}, M = {1} (tie broken by window:
    // w1 = w2 = 10 are both largest) and B = {1} => C empty => all 0.
    let mut out = [f64::NAN; 3];
    c.olia_alphas(SubflowSet::single(1).with(2), &mut out);
    assert_eq!(out, [0.0, 0.0, 0.0]);
}

#[test]
fn before_any_loss_every_path_is_best() {
    // algorithms.md §2.7: all l_r = 0 => B = all => C = the paths that are not largest.
    let c = with_windows(
        Algorithm::Olia,
        CcConfig::default(),
        &[10, 40],
        &[20.0, 10.0],
    );
    assert_eq!(alphas(&c), vec![-0.5, 0.5]);
}

#[test]
fn increase_matches_the_draft_formula() {
    let mut c = with_windows(
        Algorithm::Olia,
        CcConfig::default(),
        &[10, 40],
        &[20.0, 10.0],
    );
    { c.set_coupling(1, SubflowSet::all(2)); c.on_ack(1, 0, ack(2.0, 40 * MS)) };
    // (w1/rtt1^2)/(w0/rtt0 + w1/rtt1)^2 + alpha_1/w1 per segment, rtts in any unit.
    let (w0, w1, r0, r1): (f64, f64, f64, f64) = (20.0, 10.0, 10.0, 40.0);
    let per_segment = (w1 / (r1 * r1)) / (w0 / r0 + w1 / r1).powi(2) + 0.5 / w1;
    assert!(
        (c.cwnd(1) - (w1 + 2.0 * per_segment)).abs() < 1e-12,
        "{}",
        c.cwnd(1)
    );
}

#[test]
fn the_largest_window_can_shrink_on_an_ack_but_not_below_one_segment() {
    // Path 1 is best (long inter-loss distance), path 0 largest on the long-RTT path:
    // per segment (20/40^2)/(20/40 + 10/10)^2 - (1/2)/20 < 0.
    let mut c = with_windows(
        Algorithm::Olia,
        CcConfig::default(),
        &[40, 10],
        &[20.0, 10.0],
    );
    history(&mut c, 1, 10, 1000.0);
    set_windows(&mut c, &[20.0, 10.0]);
    { c.set_coupling(0, SubflowSet::all(2)); c.on_ack(0, 0, ack(1.0, 40 * MS)) };
    let expected = 20.0 + (20.0 / 1600.0) / (0.5f64 + 1.0).powi(2) - 0.5 / 20.0;
    assert!(
        (c.cwnd(0) - expected).abs() < 1e-12 && expected < 20.0,
        "{}",
        c.cwnd(0)
    );
    // Tiny windows, path 0 best: the largest (path 1) shrinks by ~0.09 per segment and stops
    // at one segment.
    let mut c = with_windows(Algorithm::Olia, CcConfig::default(), &[10, 10], &[1.0, 1.5]);
    history(&mut c, 0, 10, 1000.0);
    set_windows(&mut c, &[1.0, 1.5]);
    let mut lowest = f64::INFINITY;
    for _ in 0..10 {
        { c.set_coupling(1, SubflowSet::all(2)); c.on_ack(1, 0, ack(5.0, 10 * MS)) };
        lowest = lowest.min(c.cwnd(1));
    }
    assert_eq!(lowest, 1.0, "the floor was reached and held");
}

#[test]
fn best_path_metric_is_configurable() {
    // l/rtt^2 vs l^2/rtt (algorithms.md §11 item 7): path 0 with l = 100, rtt 10 vs path 1
    // with l = 300, rtt 30: l/rtt^2 = 1 vs 1/3 (path 0 best); l^2/rtt = 1000 vs 3000 (path 1).
    let build = |metric| {
        let cfg = CcConfig {
            olia_best_path: metric,
            ..CcConfig::default()
        };
        let mut c = with_windows(Algorithm::Olia, cfg, &[10, 30, 10], &[5.0, 5.0, 40.0]);
        history(&mut c, 0, 10, 100.0);
        history(&mut c, 1, 30, 300.0);
        set_windows(&mut c, &[5.0, 5.0, 40.0]);
        alphas(&c)
    };
    let linux = build(OliaBestPath::LossOverRttSquared);
    let draft = build(OliaBestPath::LossSquaredOverRtt);
    assert!(linux[0] > 0.0 && linux[1] == 0.0, "{linux:?}");
    assert!(draft[1] > 0.0 && draft[0] == 0.0, "{draft:?}");
}
