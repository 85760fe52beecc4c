//! Coupling per bottleneck group (`set_groups`, docs/sbd.md "Beyond partitions"): a subflow's
//! increase is the smallest of its groups' coupled increases; decreases are unchanged.

mod common;

use common::{ack, with_windows, MS};
use pathpool_cc::{Algorithm, CcConfig, Controller, Signal, SubflowSet};

const COUPLED: [Algorithm; 5] = [Algorithm::FullyCoupled, Algorithm::LinkedIncreases, Algorithm::Lia, Algorithm::Olia, Algorithm::Balia];

fn set(members: &[usize]) -> SubflowSet {
    members.iter().fold(SubflowSet::empty(), |s, &i| s.with(i))
}

/// Three subflows at different windows and RTTs, coupled over `coupling`, optionally per group.
fn controller(algo: Algorithm, coupling: SubflowSet, groups: &[SubflowSet]) -> Controller {
    let mut c = with_windows(algo, CcConfig::default(), &[30, 60, 10], &[12.0, 9.0, 40.0]);
    for sf in 0..3 {
        c.set_coupling(sf, coupling);
    }
    c.set_groups(groups);
    c
}

fn window_after_ack(mut c: Controller, sf: usize) -> f64 {
    c.on_ack(sf, 0, ack(1.0, [30, 60, 10][sf] * MS));
    c.cwnd(sf)
}

#[test]
fn increase_is_the_tightest_groups() {
    // Subflow 1 sits in {0,1} and {1,2} (a chain: S4's overlap without its third link).
    for algo in COUPLED {
        let (a, b) = (set(&[0, 1]), set(&[1, 2]));
        let over_a = window_after_ack(controller(algo, a, &[]), 1);
        let over_b = window_after_ack(controller(algo, b, &[]), 1);
        let per_group = window_after_ack(controller(algo, a.with(2), &[a, b]), 1);
        assert_eq!(per_group, over_a.min(over_b), "{algo}");
        // One group is the coupling over it.
        assert_eq!(window_after_ack(controller(algo, a, &[a]), 1), over_a, "{algo}");
    }
}

#[test]
fn a_subflow_in_no_group_of_two_runs_reno() {
    let reno = window_after_ack(controller(Algorithm::Reno, SubflowSet::all(3), &[]), 2);
    for algo in COUPLED {
        let groups = [set(&[0, 1]), set(&[2])];
        assert_eq!(window_after_ack(controller(algo, set(&[2]), &groups), 2), reno, "{algo}");
    }
}

#[test]
fn no_groups_is_the_coupling_set_and_decreases_are_unchanged() {
    for algo in COUPLED {
        let all = SubflowSet::all(3);
        assert_eq!(window_after_ack(controller(algo, all, &[all]), 0), window_after_ack(controller(algo, all, &[]), 0), "{algo}");
        let mut c = controller(algo, all, &[set(&[0, 1]), set(&[1, 2])]);
        let mut d = controller(algo, all, &[]);
        c.on_congestion(1, 0, Signal::Loss, 9.0);
        d.on_congestion(1, 0, Signal::Loss, 9.0);
        assert_eq!(c.ssthresh(1), d.ssthresh(1), "{algo}");
    }
}
