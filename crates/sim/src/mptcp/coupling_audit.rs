//! The sender's coupling against the receiver's own detector (docs/security.md, "The coupling
//! against the honest detector"). The receiver's decisions kept for the outputs are its
//! detector's, whatever it reported (receiver.rs), so in a liar's run they say what an honest
//! receiver would have told the sender of the same run. Over the measured window this counts
//! the pair-time in which those decisions coupled a pair of subflows and the sender did not
//! (what a liar can gain from: where the check missed sharing the honest detector found), and
//! the pair-time in which they kept a pair apart and the sender coupled it (what the check
//! costs in coupling). A detector's decision is counted only once it has stood for `settle`:
//! the sender's own detector decides on the same filter but in its own phase, and its coupling
//! may follow a changed decision that much later without having missed anything.

use pathpool_cc::SubflowSet;

use super::receiver::GroupingRecord;
use super::coupling_rule::s0_coupling;
use crate::time::{from_nanos, Time};

/// How long a decision of the detector must have stood before the sender's coupling is held
/// to it: one decision period of S0's filter (10 observations of `t_ns`, S0 §III-B), in which
/// the sender's own detector, on the same filter in its own phase, decides once.
pub fn settle() -> Time {
    let p = pathpool_sbd::SbdParams::mptcp_sbd();
    from_nanos(p.t_ns * pathpool_sbd::FilterParams::default().window as u64)
}

/// The coupling sets of a connection's subflows from `time` (since the connection's start)
/// until the next record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CouplingRecord {
    pub time: Time,
    pub sets: Vec<SubflowSet>,
}

/// Shares of pair-time over the measured window; None where the detector's settled decisions
/// never coupled (for `missed`) or never kept apart (for `added`) a pair in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CouplingAudit {
    /// Of the pair-time the detector coupled, the share the sender left uncoupled.
    pub missed: Option<f64>,
    /// Of the pair-time the detector kept apart, the share the sender coupled.
    pub added: Option<f64>,
    /// Of the pair-time with a settled decision, the share the detector coupled.
    pub detector_coupled: Option<f64>,
}

/// The audit over [`from`, `to`) (times since the connection's start) of the sender's
/// `coupling` against the detector's `decisions` (groups per subflow, 0 = not congested),
/// coupled as S0's sender couples them (`couple_non_congested`: S0 §III-B, algorithms.md §7.5).
pub fn audit(decisions: &[GroupingRecord], coupling: &[CouplingRecord], couple_non_congested: bool, from: Time, to: Time, settle: Time) -> CouplingAudit {
    let n = coupling.first().map_or(0, |r| r.sets.len());
    let detector: Vec<Vec<SubflowSet>> = decisions
        .iter()
        .map(|d| {
            let mut sets = vec![SubflowSet::empty(); n];
            s0_coupling(|i| d.groups.get(i).copied().filter(|&g| g != 0), couple_non_congested, &mut sets);
            sets
        })
        .collect();
    // (coupled by the detector and left uncoupled, coupled by the detector, kept apart and
    // coupled, kept apart), in picoseconds of pair-time.
    let mut sums = [0u128; 4];
    for i in 0..n {
        for j in i + 1..n {
            let together: Vec<bool> = detector.iter().map(|sets| sets[i].contains(j)).collect();
            // Since when each decision's verdict on the pair has stood.
            let mut since = Vec::with_capacity(together.len());
            for (k, d) in decisions.iter().enumerate() {
                since.push(if k > 0 && together[k] == together[k - 1] { since[k - 1] } else { d.time });
            }
            let mut cuts: Vec<Time> = decisions.iter().map(|d| d.time).chain(since.iter().map(|&s| s.saturating_add(settle))).chain(coupling.iter().map(|r| r.time)).chain([from, to]).filter(|&t| t >= from && t <= to).collect();
            cuts.sort_unstable();
            cuts.dedup();
            for w in cuts.windows(2) {
                let (a, b) = (w[0], w[1]);
                let k = decisions.partition_point(|d| d.time <= a);
                let c = coupling.partition_point(|r| r.time <= a);
                if k == 0 || c == 0 || a < since[k - 1].saturating_add(settle) {
                    continue;
                }
                let sender = coupling[c - 1].sets[i].contains(j);
                let span = u128::from(b - a);
                if together[k - 1] {
                    sums[1] += span;
                    sums[0] += if sender { 0 } else { span };
                } else {
                    sums[3] += span;
                    sums[2] += if sender { span } else { 0 };
                }
            }
        }
    }
    let share = |part: u128, whole: u128| (whole > 0).then(|| part as f64 / whole as f64);
    CouplingAudit { missed: share(sums[0], sums[1]), added: share(sums[2], sums[3]), detector_coupled: share(sums[1], sums[1] + sums[3]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Time = 1_000_000_000_000;

    fn decision(t: u64, groups: &[u32]) -> GroupingRecord {
        GroupingRecord { time: t * S, groups: groups.to_vec() }
    }

    fn sets(t: u64, coupled: bool) -> CouplingRecord {
        let s = if coupled { vec![SubflowSet::all(2); 2] } else { vec![SubflowSet::single(0), SubflowSet::single(1)] };
        CouplingRecord { time: t * S, sets: s }
    }

    #[test]
    fn a_sender_that_follows_the_detector_at_once_misses_and_adds_nothing() {
        let d = [decision(0, &[1, 1]), decision(10, &[1, 2]), decision(20, &[1, 1])];
        let c = [sets(0, true), sets(10, false), sets(20, true)];
        // Settled: coupled over 3-10 s and 23-30 s, apart over 13-20 s.
        let a = audit(&d, &c, true, 0, 30 * S, 3 * S);
        assert_eq!(a, CouplingAudit { missed: Some(0.0), added: Some(0.0), detector_coupled: Some(14.0 / 21.0) });
    }

    #[test]
    fn a_sender_late_by_less_than_the_settling_time_misses_nothing() {
        let d = [decision(0, &[1, 2]), decision(10, &[1, 1])];
        let c = [sets(0, false), sets(12, true)];
        assert_eq!(audit(&d, &c, true, 0, 30 * S, 3 * S).missed, Some(0.0));
        // Two seconds late against a settling time of one: 1 of the 19 settled seconds.
        let a = audit(&d, &c, true, 0, 30 * S, S);
        assert!((a.missed.unwrap() - 1.0 / 19.0).abs() < 1e-12, "{a:?}");
    }

    #[test]
    fn a_sender_that_never_couples_misses_every_settled_coupled_second() {
        // "Not congested" couples with every other subflow (S0 §III-B).
        let d = [decision(0, &[0, 2]), decision(10, &[1, 2])];
        let c = [sets(0, false)];
        let a = audit(&d, &c, true, 0, 20 * S, 2 * S);
        assert_eq!(a, CouplingAudit { missed: Some(1.0), added: Some(0.0), detector_coupled: Some(0.5) });
        // Without that rule the first decision keeps the pair apart as well.
        assert_eq!(audit(&d, &c, false, 0, 20 * S, 2 * S), CouplingAudit { missed: None, added: Some(0.0), detector_coupled: Some(0.0) });
    }

    #[test]
    fn only_the_window_counts() {
        let d = [decision(0, &[1, 2])];
        let c = [sets(0, false), sets(5, true), sets(15, false)];
        let a = audit(&d, &c, true, 10 * S, 20 * S, S);
        assert_eq!(a.added, Some(0.5));
    }
}
