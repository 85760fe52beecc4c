//! The SBD daemon's grouping on RTT samples the daemon itself recorded on the testbed with the
//! receiver fix (`pathpool fidelity --cases sbd-shared,sbd-disjoint`, `samples.csv`): the first
//! 40 s of one run of each case, every 8th sample, times from the first sample
//! (tests/data/sbd-*-excerpt.csv). The disjoint excerpt is the run of that round whose two
//! queues ran their sawtooth in step, where RFC 8382's statistics and the interval-mean
//! correlation both put the subflows together (docs/kernel.md, "The SBD daemon").

mod replay;

use replay::{counts, replay};

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

#[test]
fn one_recorded_shared_bottleneck_is_grouped_in_every_decision() {
    let (together, apart, zero, not_yet) = counts(&replay(&data("sbd-shared-excerpt.csv")));
    println!("shared: together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
    // 40 s at one decision per 3.5 s: about 11, less the first 3.2 s the test's window fills.
    assert!(together >= 9 && apart + zero == 0 && not_yet <= 1, "together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
}

#[test]
fn two_recorded_bottlenecks_in_step_are_separated() {
    let (together, apart, zero, not_yet) = counts(&replay(&data("sbd-disjoint-excerpt.csv")));
    println!("disjoint: together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
    // The daemon before the comparison test (RFC 8382's splits and the correlation split)
    // put the subflows of this whole run together in 12 of its 17 decisions.
    assert!(apart >= 8 && together + zero == 0 && not_yet <= 2, "together {together}, apart {apart}, group 0 {zero}, not yet {not_yet}");
}
