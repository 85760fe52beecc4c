//! wVegas (draft-xu-mptcp-congestion-control-05, Linux `mptcp_wvegas.c`): once-per-round
//! window adjustment from the queueing estimate diff = cwnd (rtt - base_rtt) / rtt.

mod common;

use common::{ack, with_windows, MS};
use pathpool_cc::{Algorithm, CcConfig, Controller, SubflowSet, WVegasParams};

/// One RTT round on `sf` with `samples` RTT samples of `rtt_ms` each.
fn round(c: &mut Controller, sf: usize, rtt_ms: u64, samples: usize) {
    let all = SubflowSet::all(c.n_subflows());
    for _ in 0..samples {
        { c.set_coupling(sf, all); c.on_ack(sf, 0, ack(1.0, rtt_ms * MS)) };
    }
    { c.set_coupling(sf, all); c.on_round_end(sf, 0) };
}

#[test]
fn no_back_off_on_a_zero_queue() {
    // Every sample equals base_rtt: diff = 0 < alpha => +1 per round, and no queue-drain
    // halving (Linux would halve here: q = 0 >= 2 * queue_delay = 0; §11 item 11).
    let mut c = with_windows(Algorithm::WVegas, CcConfig::default(), &[100], &[20.0]);
    for r in 1..=10 {
        round(&mut c, 0, 100, 5);
        assert_eq!(c.cwnd(0), 20.0 + r as f64);
    }
    let linux = CcConfig {
        wvegas: WVegasParams {
            guard_zero_queue: false,
            ..WVegasParams::default()
        },
        ..CcConfig::default()
    };
    let mut c = with_windows(Algorithm::WVegas, linux, &[100], &[20.0]);
    round(&mut c, 0, 100, 5);
    assert_eq!(c.cwnd(0), 10.5, "unguarded: (20 + 1) * base / (2 rtt)");
}

#[test]
fn backs_off_when_queueing_exceeds_alpha() {
    // base 100 ms, rounds at 120 ms with cwnd 80: diff = 80 * 20 / 120 = 13.3 packets.
    // One subflow: weight 1 => alpha = total_alpha = 10 < 13.3 => cwnd - 1.
    let mut c = with_windows(Algorithm::WVegas, CcConfig::default(), &[100], &[80.0]);
    round(&mut c, 0, 100, 3); // +1 (no queue): 81
    round(&mut c, 0, 120, 40); // average 120 ms (40 samples dwarf the earlier ones)
    assert_eq!(c.cwnd(0), 80.0);
    // ssthresh follows Linux tcp_current_ssthresh: at least 3/4 of the window of the
    // previous round (81), and min(ssthresh, cwnd) on the decrease.
    assert_eq!(c.ssthresh(0), 0.75 * 81.0);
    // Little queueing (diff = 81 * 1/101 < 10): grows again.
    round(&mut c, 0, 101, 40);
    assert_eq!(c.cwnd(0), 81.0);
}

#[test]
fn queue_drain_when_queueing_delay_doubles() {
    // q first 10 ms (min), then 25 ms >= 2 * 10 ms => cwnd * base / (2 rtt).
    let mut c = with_windows(Algorithm::WVegas, CcConfig::default(), &[100], &[10.0]);
    round(&mut c, 0, 110, 50); // diff = 10 * 10/110 < 2 => 11; queue_delay = 10 ms
    assert_eq!(c.cwnd(0), 11.0);
    round(&mut c, 0, 125, 50);
    let expected = 12.0 * 100.0 / (2.0 * 125.0); // +1 (diff 2.2 < 10 after re-weight) then drain
    assert!((c.cwnd(0) - expected).abs() < 1e-9, "{}", c.cwnd(0));
}

#[test]
fn leaves_slow_start_when_queueing_exceeds_gamma() {
    let cfg = CcConfig {
        initial_cwnd: 40.0,
        ..CcConfig::default()
    };
    let mut c = Controller::new(Algorithm::WVegas, cfg, 1);
    let all = SubflowSet::all(1);
    { c.set_coupling(0, all); c.on_ack(0, 0, pathpool_cc::AckInfo {
            newly_acked: 0.0,
            rtt_sample: Some(100 * MS),
            cwnd_limited: false,
        }) };
    assert!(c.in_slow_start(0));
    // 40 acks at 110 ms: slow start to 80, then diff = 80 * 10/110 = 7.3 > gamma = 1
    // => cwnd = min(80, 80 * 100/110... averaged rtt) + 1.
    for _ in 0..40 {
        { c.set_coupling(0, all); c.on_ack(0, 0, ack(1.0, 110 * MS)) };
    }
    assert_eq!(c.cwnd(0), 80.0);
    { c.set_coupling(0, all); c.on_round_end(0, 0) };
    let avg = (100.0 + 40.0 * 110.0) / 41.0;
    let expected = 80.0 * 100.0 / avg + 1.0;
    assert!((c.cwnd(0) - expected).abs() < 1e-9, "{}", c.cwnd(0));
    assert!(!c.in_slow_start(0));
}

#[test]
fn few_samples_give_one_reno_step() {
    let mut c = with_windows(Algorithm::WVegas, CcConfig::default(), &[100], &[20.0]);
    { c.set_coupling(0, SubflowSet::all(1)); c.on_round_end(0, 0) }; // 1 sample (the seed) <= 2
    assert_eq!(c.cwnd(0), 20.0 + 1.0 / 20.0);
}

#[test]
fn subflows_share_total_alpha_by_rate() {
    let pair = |w0, w1| {
        with_windows(
            Algorithm::WVegas,
            CcConfig::default(),
            &[100, 100],
            &[w0, w1],
        )
    };
    // Round average (100 + 40 * 120) / 41 = 119.5 ms (the seed sample counts):
    // diff = 60 * 19.5 / 119.5 = 9.8. Alone, alpha = 10 > diff => +1.
    let mut alone = with_windows(Algorithm::WVegas, CcConfig::default(), &[100], &[60.0]);
    round(&mut alone, 0, 120, 40);
    assert_eq!(alone.cwnd(0), 61.0);
    // With a second subflow at a third of its rate, its weight is 3/4 => alpha 7.5 < diff => -1.
    // Subflow 1 re-weights first (alone it knows only its own rate: alpha 10), then has a
    // sample in its next round, which is when Linux counts its rate.
    let mut c = pair(60.0, 20.0);
    round(&mut c, 1, 120, 40);
    { c.set_coupling(1, SubflowSet::all(2)); c.on_ack(1, 0, ack(1.0, 120 * MS)) };
    round(&mut c, 0, 120, 40);
    assert_eq!(c.cwnd(0), 59.0);
    // No sample in subflow 1's current round: its rate is not counted, alpha 10 => +1.
    let mut c = pair(60.0, 20.0);
    round(&mut c, 1, 120, 40);
    round(&mut c, 0, 120, 40);
    assert_eq!(c.cwnd(0), 61.0);
    // Outside the coupling set subflow 1's rate does not count either.
    let mut c = pair(60.0, 20.0);
    round(&mut c, 1, 120, 40);
    { c.set_coupling(1, SubflowSet::all(2)); c.on_ack(1, 0, ack(1.0, 120 * MS)) };
    for _ in 0..40 {
        { c.set_coupling(0, SubflowSet::single(0)); c.on_ack(0, 0, ack(1.0, 120 * MS)) };
    }
    { c.set_coupling(0, SubflowSet::single(0)); c.on_round_end(0, 0) };
    assert_eq!(c.cwnd(0), 61.0);
}
