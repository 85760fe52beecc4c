//! How much of a run TR-LIA and SSC-LIA spent coupled (LIA over both subflows), kept beside
//! the run's summary as `coupled_share`.

use crate::scenario_job::{Extract, SUMMARY};
use pathpool_scenario::mptcp_outcome::Connection;
use pathpool_scenario::outcome::Outcome;
use serde_json::Value;

/// TR-LIA and SSC-LIA stay coupled this long after a positive (S2 §5.2).
const HOLD_S: f64 = pathpool_scenario::mptcp::S2_HOLD_S as f64;

/// The summary plus `coupled_share`: the share of the measured time TR-LIA ran LIA, from its
/// 5-s evaluations and the hold. Evaluations during the warm-up are not in the outcome, so
/// a positive one there is missed: a lower bound.
pub const TR_COUPLING: Extract = Extract {
    name: "summary+tr-coupling",
    keep: tr_coupling,
};
/// The summary plus `coupled_share`: the share of the measured time SSC-LIA ran LIA, from
/// its filtered decisions that put both subflows in one congested group and the hold (the
/// decisions' times at the receiver; the sender learns them an ACK later). A lower bound
/// as for TR-LIA.
pub const SSC_COUPLING: Extract = Extract {
    name: "summary+ssc-coupling",
    keep: ssc_coupling,
};

fn with_share(o: &Outcome, share: impl Fn(&Connection) -> Option<f64>) -> Value {
    let mut v = (SUMMARY.keep)(o);
    let s = o
        .multipath
        .as_ref()
        .and_then(|m| m.connections.first())
        .and_then(share);
    if let (Some(obj), Some(s)) = (v.as_object_mut(), s) {
        obj.insert("coupled_share".into(), s.into());
    }
    v
}

fn tr_coupling(o: &Outcome) -> Value {
    with_share(o, |c| {
        held_share(positives(&c.observations), o.warmup_s, o.duration_s, HOLD_S)
    })
}

/// Times at which both subflows were in one congested group (group 0: not congested).
fn positives(groupings: &[(f64, Vec<u32>)]) -> impl Iterator<Item = f64> + '_ {
    groupings.iter().filter(|(_, g)| g.len() == 2 && g[0] != 0 && g[0] == g[1]).map(|(t, _)| *t)
}

/// The share of [start, end) within `hold` after one of the (time-ordered) `positives`.
fn held_share(positives: impl Iterator<Item = f64>, start: f64, end: f64, hold: f64) -> Option<f64> {
    let (mut covered, mut until) = (0.0, start);
    for t in positives {
        let (from, to) = (t.max(until), (t + hold).min(end));
        covered += (to - from).max(0.0);
        until = until.max(to);
    }
    (end > start).then(|| covered / (end - start))
}

fn ssc_coupling(o: &Outcome) -> Value {
    with_share(o, |c| held_share(positives(&c.decisions), o.warmup_s, o.duration_s, HOLD_S))
}

#[cfg(test)]
mod tests {
    use super::held_share;

    #[test]
    fn the_hold_covers_overlapping_spans_once_and_stops_at_the_end() {
        // [20, 100): positives at 30 and 50 hold until 80 and 100 (cut at the end).
        let s = held_share([30.0, 50.0].into_iter(), 20.0, 100.0, 50.0).unwrap();
        assert!((s - 70.0 / 80.0).abs() < 1e-12, "{s}");
        assert_eq!(held_share(std::iter::empty(), 20.0, 100.0, 50.0), Some(0.0));
        assert_eq!(held_share([10.0].into_iter(), 20.0, 20.0, 50.0), None);
    }
}
