//! RttEstimator against the rules of RFC 6298 §2 and §5, with expected values worked by hand.

use pathpool_cc::{RtoRule, RttEstimator};

const MS: u64 = 1_000_000;
const S: u64 = 1_000 * MS;

#[test]
fn initial_rto_before_any_sample() {
    let e = RttEstimator::new(200 * MS, 60 * S, S);
    assert_eq!(e.rto(), S); // (2.1)
    assert_eq!(e.srtt(), None);
    assert_eq!(RttEstimator::default().rto(), S);
}

#[test]
fn first_sample_sets_srtt_and_half_rttvar() {
    let mut e = RttEstimator::new(200 * MS, 60 * S, S);
    e.on_sample(100 * MS);
    assert_eq!(e.srtt(), Some(100 * MS)); // (2.2) SRTT = R
    assert_eq!(e.rttvar(), 50 * MS); //        RTTVAR = R/2
    assert_eq!(e.rto(), 300 * MS); //          RTO = SRTT + 4 RTTVAR
}

#[test]
fn later_samples_update_rttvar_with_the_old_srtt() {
    let mut e = RttEstimator::new(200 * MS, 60 * S, S);
    e.on_sample(100 * MS);
    e.on_sample(200 * MS);
    // (2.3): RTTVAR = 3/4 * 50 + 1/4 * |100 - 200| = 62.5; SRTT = 7/8 * 100 + 1/8 * 200 = 112.5
    assert_eq!(e.rttvar(), 62_500_000);
    assert_eq!(e.srtt(), Some(112_500_000));
    assert_eq!(e.rto(), 112_500_000 + 4 * 62_500_000);
}

#[test]
fn minimum_rto_applies() {
    let mut e = RttEstimator::default(); // (2.4) min 1 s
    e.on_sample(10 * MS);
    assert_eq!(e.rto(), S);
    // Many identical samples: RTTVAR decays towards 0; RTO never below the minimum.
    let mut e = RttEstimator::new(200 * MS, 60 * S, S);
    for _ in 0..200 {
        e.on_sample(50 * MS);
    }
    assert_eq!(e.rto(), 200 * MS);
}

#[test]
fn backoff_doubles_up_to_max_and_a_sample_ends_it() {
    let mut e = RttEstimator::new(200 * MS, 60 * S, S);
    e.on_sample(100 * MS); // RTO 300 ms
    e.backoff();
    assert_eq!(e.rto(), 600 * MS); // (5.5)
    e.backoff();
    assert_eq!(e.rto(), 1200 * MS);
    for _ in 0..20 {
        e.backoff();
    }
    assert_eq!(e.rto(), 60 * S); // (2.5) maximum
    e.on_sample(100 * MS);
    assert!(
        e.rto() < 600 * MS,
        "a new measurement recomputes the RTO: {}",
        e.rto()
    );
}

/// Linux's rule (net/ipv4/tcp_input.c, tcp_rtt_estimator and __tcp_set_rto): the minimum
/// bounds the variance term, so a steady 250 ms path gets an RTO of about 450 ms where
/// RFC 6298 with the same 200 ms minimum gives about 250 ms.
#[test]
fn linux_rule_adds_the_minimum_to_srtt() {
    let mut rfc = RttEstimator::new(200 * MS, 60 * S, S);
    let mut linux = RttEstimator::with_rule(RtoRule::Linux, 200 * MS, 60 * S, S);
    for _ in 0..200 {
        rfc.on_sample(250 * MS);
        linux.on_sample(250 * MS);
    }
    assert!(rfc.rto() < 251 * MS, "RFC 6298: {}", rfc.rto());
    assert!((449 * MS..=451 * MS).contains(&linux.rto()), "Linux: {}", linux.rto());
    // The first sample gives 3 RTT under both rules (RTTVAR = R/2).
    let mut first = RttEstimator::with_rule(RtoRule::Linux, 200 * MS, 60 * S, S);
    first.on_sample(300 * MS);
    assert_eq!(first.rto(), 900 * MS);
}

/// A sample far below SRTT raises Linux's variance with gain 1/32, not RFC 6298's 1/4.
#[test]
fn linux_rule_damps_low_samples() {
    let mut rfc = RttEstimator::new(MS, 60 * S, S);
    let mut linux = RttEstimator::with_rule(RtoRule::Linux, MS, 60 * S, S);
    for e in [&mut rfc, &mut linux] {
        for _ in 0..200 {
            e.on_sample(100 * MS);
        }
        e.on_sample(20 * MS);
    }
    // rttvar before the low sample is ~0: RFC adds 80/4 = 20 ms, Linux 80/32 = 2.5 ms.
    assert!((19 * MS..=21 * MS).contains(&rfc.rttvar()), "RFC 6298 rttvar {}", rfc.rttvar());
    assert!((2 * MS..=3 * MS).contains(&linux.rttvar()), "Linux rttvar {}", linux.rttvar());
}
