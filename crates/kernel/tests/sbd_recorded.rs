//! The SBD daemon's grouping on RTT samples the daemon itself recorded on the testbed with the
//! receiver fix (`pathpool fidelity --cases sbd-shared,sbd-disjoint`, `samples.csv`): the first
//! 40 s of one run of each case, every 8th sample, times from the first sample
//! (tests/data/sbd-*-excerpt.csv). The disjoint excerpt is the run of that round whose two
//! queues ran their sawtooth in step, where RFC 8382's statistics and the interval-mean
//! correlation both put the subflows together (docs/kernel.md, "The SBD daemon").
//!
//! tests/data/sbd-shifting-excerpt.csv is the first 38 s of the daemon's samples of one run of
//! `pathpool fidelity --cases sbd-shifting` (the shared link loaded until 30 s, then each
//! subflow's own link), per subflow a sample only when 20 ms or more after its last one kept,
//! times from the first sample: the run of that round (repeat 4 of 5) where RFC 8382's step 1
//! called both subflows not bottlenecked in every interval before and after the shift.

mod replay;

use replay::{counts, replay, replay_timed};

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

#[test]
fn one_recorded_shared_bottleneck_is_grouped_in_every_decision() {
    let (together, apart, zero, not_yet) = counts(&replay(&data("sbd-shared-excerpt.csv")));
    println!("shared: together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
    // 40 s at one decision per interval (0.35 s) once 10 are in: about 96, less the first 3.2 s
    // the test's window fills.
    assert!(together >= 80 && apart + zero == 0 && not_yet <= 1, "together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
}

#[test]
fn two_recorded_bottlenecks_in_step_are_separated() {
    let (together, apart, zero, not_yet) = counts(&replay(&data("sbd-disjoint-excerpt.csv")));
    println!("disjoint: together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
    // The daemon before the comparison test (RFC 8382's splits and the correlation split)
    // put the subflows of this whole run together in 12 of its 17 decisions.
    assert!(apart >= 70 && together + zero == 0 && not_yet <= 2, "together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
}

/// The shift of scenarios/fidelity/sbd-shifting.toml on the excerpt's clock: the UDP loads move
/// 30 s after the traffic starts, and the daemon's first sample came 0-0.1 s after the start
/// (its log against the replay), so the shift is taken 0.1 s early: a reaction is not flattered.
const SHIFT_US: u64 = 29_900_000;

#[test]
fn a_recorded_shift_is_grouped_before_and_uncoupled_within_5_s_after() {
    let timed = replay_timed(&data("sbd-shifting-excerpt.csv"));
    let before: String = timed.iter().filter(|(t, _)| *t < SHIFT_US).map(|o| o.1).collect();
    // pp_mptcp_sbd stops coupling the two subflows on a decision apart or one with a subflow in
    // group 0 (not bottlenecked and no partner: uncoupled, S0 §III-B.5).
    let reaction = timed.iter().find(|(t, c)| *t >= SHIFT_US && matches!(c, 'A' | '0')).map(|(t, _)| (t - SHIFT_US) as f64 / 1e6);
    println!("before the shift `{before}`, reaction {reaction:?} s");
    let decided: String = before.chars().filter(|&c| c != '.').collect();
    // Before the shift the daemon of this run wrote group 0 in every decision; the comparison
    // test finds the one queue in each (RFC 8382's step 1 called it not bottlenecked).
    assert!(decided.len() >= 3 && decided.chars().all(|c| c == 'T'), "decisions before the shift `{before}`: expected 3 or more, all together");
    assert!(reaction.is_some_and(|r| r <= 5.0), "first decision uncoupling the subflows after the shift: {reaction:?} s, expected within 5 s");
}
