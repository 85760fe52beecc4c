//! RttEstimator against the rules of RFC 6298 §2 and §5, with expected values worked by hand.

use pathpool_cc::RttEstimator;

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
