//! LIA (RFC 6356) against S1 §4 and RFC 6356 §3.

mod common;

use common::{ack, with_windows, Rng, MS};
use pathpool_cc::{Signal, AckInfo, Algorithm, CcConfig, Controller, SubflowSet};

#[test]
fn alpha_is_25_over_18_for_equal_windows_and_rtt1_five_times_rtt2() {
    // S1 §4 / algorithms.md §12.2 item 2: a = 2w * (w/r^2) / (w/5r + w/r)^2 = 50/36.
    let mut c = with_windows(
        Algorithm::Lia,
        CcConfig::default(),
        &[50, 10],
        &[10.0, 10.0],
    );
    { c.set_coupling(0, SubflowSet::all(2)); c.on_ack(0, 0, ack(1.0, 50 * MS)) };
    assert!(
        (c.lia_alpha() - 25.0 / 18.0).abs() < 1e-12,
        "alpha = {}",
        c.lia_alpha()
    );
    // Increase per segment: min(alpha / w_total, 1 / w_0) = (25/18) / 20.
    assert!((c.cwnd(0) - (10.0 + 25.0 / 18.0 / 20.0)).abs() < 1e-12);
}

#[test]
fn alpha_is_one_over_n_paths_for_equal_rtts_and_windows() {
    // Equal RTTs: a = w * (w_max / r^2) / (w / r)^2 = w_max / w = 1/3 for three equal windows:
    // the connection as a whole grows like one TCP.
    let mut c = with_windows(
        Algorithm::Lia,
        CcConfig::default(),
        &[20, 20, 20],
        &[8.0, 8.0, 8.0],
    );
    { c.set_coupling(1, SubflowSet::all(3)); c.on_ack(1, 0, ack(1.0, 20 * MS)) };
    assert!((c.lia_alpha() - 1.0 / 3.0).abs() < 1e-12);
}

#[test]
fn never_increases_faster_than_single_path_tcp() {
    // RFC 6356 §3 cap, algorithms.md §12.2 item 3; checked against the uncapped S1 LINKED
    // INCREASES with the same a, so that the cap is seen to bind.
    let mut rng = Rng(42);
    let mut cap_bound = 0;
    for _ in 0..2000 {
        let n = 2 + (rng.next_f64() * 3.0) as usize;
        let rtts: Vec<u64> = (0..n)
            .map(|_| 1 + (rng.next_f64() * 300.0) as u64)
            .collect();
        let wins: Vec<f64> = (0..n).map(|_| 1.0 + rng.next_f64() * 100.0).collect();
        let sf = (rng.next_f64() * n as f64) as usize;
        let all = SubflowSet::all(n);
        let mut lia = with_windows(Algorithm::Lia, CcConfig::default(), &rtts, &wins);
        { lia.set_coupling(sf, all); lia.on_ack(sf, 0, ack(1.0, rtts[sf] * MS)) };
        let inc = lia.cwnd(sf) - wins[sf];
        assert!(
            inc <= 1.0 / wins[sf] + 1e-12,
            "LIA increase {inc} above Reno's {}",
            1.0 / wins[sf]
        );
        assert!(inc > 0.0);
        let cfg = CcConfig {
            linked_increases_a: Some(lia.lia_alpha()),
            ..CcConfig::default()
        };
        let mut li = with_windows(Algorithm::LinkedIncreases, cfg, &rtts, &wins);
        { li.set_coupling(sf, all); li.on_ack(sf, 0, ack(1.0, rtts[sf] * MS)) };
        if li.cwnd(sf) - wins[sf] > inc + 1e-12 {
            cap_bound += 1;
        }
    }
    assert!(
        cap_bound > 50,
        "the cap should bind in some of the random cases, bound {cap_bound} times"
    );
}

#[test]
fn alpha_is_recomputed_when_a_window_crosses_an_integer_not_per_ack() {
    // RFC 6356 §4.1 cadence (algorithms.md §11 item 3).
    let all = SubflowSet::all(2);
    let mut c = with_windows(
        Algorithm::Lia,
        CcConfig::default(),
        &[50, 10],
        &[10.0, 10.0],
    );
    { c.set_coupling(0, all); c.on_ack(0, 0, ack(1.0, 50 * MS)) };
    let a0 = c.lia_alpha();
    // RTT of subflow 1 changes a lot; windows stay within the same integer: no recompute.
    for _ in 0..20 {
        { c.set_coupling(1, all); c.on_ack(1, 0, common::AckNoGrowth::with_rtt(50 * MS)) };
    }
    { c.set_coupling(0, all); c.on_ack(0, 0, ack(1.0, 50 * MS)) };
    assert_eq!(c.lia_alpha(), a0);
    // A loss forces recomputation with the new RTTs (now equal: a = w_max / w).
    { c.set_coupling(1, all); c.on_congestion(1, 0, Signal::Loss, 10.0) };
    { c.set_coupling(0, all); c.on_ack(0, 0, ack(1.0, 50 * MS)) };
    assert_ne!(c.lia_alpha(), a0);
}

/// RFC 6356 §3 with equal RTTs and windows: alpha = 1/2, so one window of ACKs on each of two
/// subflows at w = 20 adds 20 * alpha / w_total = 1/4 packet to each (1/2 for the
/// connection, half a TCP's increase; docs/mptcp.md "LIA above one TCP at a tail-drop
/// bottleneck").
#[test]
fn two_equal_subflows_grow_a_quarter_packet_per_round_each() {
    let all = SubflowSet::all(2);
    let mut c = Controller::new(Algorithm::Lia, CcConfig::default(), 2);
    let rtt = 50_000_000;
    for sf in 0..2 {
        c.set_window(sf, 20.0, 10.0);
        let first = AckInfo { newly_acked: 0.0, rtt_sample: Some(rtt), cwnd_limited: true };
        { c.set_coupling(sf, all); c.on_ack(sf, 0, first) };
    }
    let mut now = 0;
    for round in 1..=4 {
        let windows = [c.cwnd(0).floor() as usize, c.cwnd(1).floor() as usize];
        for i in 0..windows[0].max(windows[1]) {
            for sf in (0..2).filter(|&sf| i < windows[sf]) {
                now += 1_000;
                { c.set_coupling(sf, all); c.on_ack(sf, now, AckInfo { newly_acked: 1.0, rtt_sample: Some(rtt), cwnd_limited: true }) };
            }
        }
        for sf in 0..2 {
            let growth = (c.cwnd(sf) - 20.0) / round as f64;
            assert!((0.23..0.26).contains(&growth), "round {round}, subflow {sf}: {growth} per round");
        }
    }
}
