//! The coupling set really restricts coupling (algorithms.md §7.5): a subflow outside the set
//! does not influence the increase or decrease of a subflow inside it.

mod common;

use common::{ack, with_windows, MS};
use pathpool_cc::{Signal, Algorithm, CcConfig, SubflowSet};

const COUPLED: [Algorithm; 5] = [
    Algorithm::FullyCoupled,
    Algorithm::LinkedIncreases,
    Algorithm::Lia,
    Algorithm::Olia,
    Algorithm::Balia,
];

/// cwnd of subflow 0 after one ACK, and its ssthresh after a loss, with subflow 2 at
/// (`rtt2`, `w2`) and the given coupling set.
fn outcome(algo: Algorithm, set: SubflowSet, rtt2: u64, w2: f64) -> (f64, f64) {
    let (rtts, wins) = ([30, 60, rtt2], [12.0, 9.0, w2]);
    let mut c = with_windows(algo, CcConfig::default(), &rtts, &wins);
    { c.set_coupling(0, set); c.on_ack(0, 0, ack(1.0, 30 * MS)) };
    let cwnd = c.cwnd(0);
    { c.set_coupling(0, set); c.on_congestion(0, 0, Signal::Loss, cwnd) };
    (cwnd, c.ssthresh(0))
}

#[test]
fn a_subflow_outside_the_set_does_not_influence_the_window() {
    let pair = SubflowSet::single(0).with(1);
    for algo in COUPLED {
        let a = outcome(algo, pair, 5, 40.0);
        let b = outcome(algo, pair, 300, 3.0);
        assert_eq!(a, b, "{algo}: subflow 2 outside the set changed subflow 0");
        // ...while inside the set it does matter (the check can fail).
        let all = SubflowSet::all(3);
        assert_ne!(
            outcome(algo, all, 5, 40.0),
            outcome(algo, all, 300, 3.0),
            "{algo}"
        );
    }
}

#[test]
fn a_set_of_one_is_reno() {
    let reno = outcome(Algorithm::Reno, SubflowSet::all(3), 5, 40.0);
    for algo in COUPLED {
        assert_eq!(
            outcome(algo, SubflowSet::single(0), 5, 40.0),
            reno,
            "{algo}"
        );
    }
}

#[test]
fn unusable_subflows_are_left_out() {
    for algo in COUPLED {
        let (rtts, wins) = ([30, 60, 5], [12.0, 9.0, 40.0]);
        let mut c = with_windows(algo, CcConfig::default(), &rtts, &wins);
        c.set_usable(2, false);
        { c.set_coupling(0, SubflowSet::all(3)); c.on_ack(0, 0, ack(1.0, 30 * MS)) };
        let restricted = outcome(algo, SubflowSet::single(0).with(1), 5, 40.0).0;
        assert_eq!(c.cwnd(0), restricted, "{algo}");
    }
}
