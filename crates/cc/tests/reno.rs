//! Reno / NewReno window rules (RFC 5681 §3.1-3.2, RFC 6582 §3.2) on one subflow.

use pathpool_cc::{Signal, 
    AckInfo, Algorithm, CcConfig, Controller, MinSsthresh, SlowStartTest, SubflowSet,
};

const MS: u64 = 1_000_000;

fn ack(n: f64) -> AckInfo {
    AckInfo {
        newly_acked: n,
        rtt_sample: Some(100 * MS),
        cwnd_limited: true,
    }
}

fn reno() -> Controller {
    Controller::new(Algorithm::Reno, CcConfig::default(), 1)
}

#[test]
fn slow_start_adds_acked_segments() {
    let mut c = reno();
    assert_eq!(c.cwnd(0), 10.0);
    assert!(c.in_slow_start(0));
    for _ in 0..10 {
        { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, 0, ack(1.0)) };
    }
    assert_eq!(c.cwnd(0), 20.0);
    { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, 0, ack(2.0)) };
    assert_eq!(c.cwnd(0), 22.0);
}

#[test]
fn congestion_avoidance_adds_about_one_segment_per_window() {
    let mut c = reno();
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 0, Signal::Loss, 20.0) };
    assert_eq!((c.ssthresh(0), c.cwnd(0)), (10.0, 10.0)); // eq. 4: FlightSize / 2
    assert!(c.in_recovery(0));
    { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, 0, ack(1.0)) };
    assert_eq!(c.cwnd(0), 10.0, "no growth during recovery");
    c.on_recovery_exit(0, 0);
    assert!(!c.in_slow_start(0));
    // One window of single-segment ACKs: cwnd += 1/cwnd each (eq. 3).
    let mut expected = 10.0f64;
    for _ in 0..10 {
        { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, 0, ack(1.0)) };
        expected += 1.0 / expected;
    }
    assert_eq!(c.cwnd(0), expected);
    assert!((c.cwnd(0) - 11.0).abs() < 0.05);
}

#[test]
fn no_growth_when_not_cwnd_limited() {
    let mut c = reno();
    { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, 0, AckInfo {
            newly_acked: 5.0,
            rtt_sample: None,
            cwnd_limited: false,
        }) };
    assert_eq!(c.cwnd(0), 10.0);
}

#[test]
fn ssthresh_floor_is_two_segments_for_single_path() {
    let mut c = reno();
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 0, Signal::Loss, 1.0) };
    assert_eq!(c.ssthresh(0), 2.0);
}

#[test]
fn one_reduction_per_recovery() {
    let mut c = reno();
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 0, Signal::Loss, 40.0) };
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 0, Signal::Loss, 40.0) };
    assert_eq!(c.ssthresh(0), 20.0);
}

#[test]
fn timeout_sets_loss_window_and_keeps_ssthresh_on_repeat() {
    let mut c = reno();
    c.on_congestion(0, 0, Signal::Timeout, 30.0);
    assert_eq!((c.cwnd(0), c.ssthresh(0)), (1.0, 15.0));
    c.on_congestion(0, 0, Signal::Timeout, 1.0); // same segment timed out again: ssthresh held
    assert_eq!((c.cwnd(0), c.ssthresh(0)), (1.0, 15.0));
    { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, 0, ack(1.0)) }; // new data acked: back in slow start
    assert_eq!(c.cwnd(0), 2.0);
    c.on_congestion(0, 0, Signal::Timeout, 2.0);
    assert_eq!(c.ssthresh(0), 2.0);
}

#[test]
fn slow_start_test_at_equality() {
    let cfg = |t| CcConfig {
        slow_start: t,
        initial_cwnd: 10.0,
        initial_ssthresh: 10.0,
        ..CcConfig::default()
    };
    let less = Controller::new(Algorithm::Reno, cfg(SlowStartTest::Less), 1);
    let le = Controller::new(Algorithm::Reno, cfg(SlowStartTest::LessOrEqual), 1);
    assert!(!less.in_slow_start(0));
    assert!(le.in_slow_start(0));
    // `<=` leaves slow start one segment above ssthresh; `<` at ssthresh, rest goes to CA.
    let mut le = le;
    { le.set_coupling(0, SubflowSet::all(1)); le.on_ack(0, 0, ack(3.0)) };
    assert_eq!(le.cwnd(0), 11.0 + 2.0 / 11.0);
    let mut c = Controller::new(
        Algorithm::Reno,
        CcConfig {
            initial_ssthresh: 12.0,
            ..CcConfig::default()
        },
        1,
    );
    { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, 0, ack(4.0)) };
    assert_eq!(c.cwnd(0), 12.0 + 2.0 / 12.0);
}

#[test]
fn ecn_reduces_once_per_rtt_without_recovery() {
    let mut c = reno();
    { c.set_coupling(0, SubflowSet::all(1)); c.on_ack(0, 0, ack(10.0)) }; // srtt = 100 ms, cwnd 20
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 1, Signal::Ecn, 20.0) };
    assert_eq!(
        (c.cwnd(0), c.ssthresh(0), c.in_recovery(0)),
        (10.0, 10.0, false)
    );
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 50 * MS, Signal::Ecn, 10.0) };
    assert_eq!(c.cwnd(0), 10.0, "second mark within one RTT ignored");
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 101 * MS, Signal::Ecn, 10.0) };
    assert_eq!(c.cwnd(0), 5.0);
}

#[test]
fn fixed_min_ssthresh() {
    let cfg = CcConfig {
        min_ssthresh: MinSsthresh::Fixed(1.0),
        ..CcConfig::default()
    };
    let mut c = Controller::new(Algorithm::Reno, cfg, 1);
    { c.set_coupling(0, SubflowSet::all(1)); c.on_congestion(0, 0, Signal::Loss, 1.0) };
    assert_eq!(c.ssthresh(0), 1.0);
}

#[test]
fn bad_setup_is_an_error_naming_the_field() {
    let err = Controller::try_new(Algorithm::Lia, CcConfig::default(), 0)
        .err()
        .unwrap();
    assert!(err.starts_with("subflows:"), "{err}");
    assert!(Controller::try_new(Algorithm::Lia, CcConfig::default(), 65).is_err());
    let cfg = CcConfig {
        initial_cwnd: 0.5,
        ..CcConfig::default()
    };
    assert!(Controller::try_new(Algorithm::Reno, cfg, 1)
        .err()
        .unwrap()
        .starts_with("initial_cwnd:"));
    let cfg = CcConfig {
        min_ssthresh: MinSsthresh::Fixed(f64::NAN),
        ..CcConfig::default()
    };
    assert!(Controller::try_new(Algorithm::Reno, cfg, 1)
        .err()
        .unwrap()
        .starts_with("min_ssthresh:"));
    let cfg = CcConfig {
        linked_increases_a: Some(-1.0),
        ..CcConfig::default()
    };
    assert!(Controller::try_new(Algorithm::Reno, cfg, 1)
        .err()
        .unwrap()
        .starts_with("linked_increases_a:"));
    assert!(Controller::try_new(Algorithm::Olia, CcConfig::s0_replication(), 64).is_ok());
}
