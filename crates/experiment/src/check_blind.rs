//! A sender's check that cannot see. The check against a lying receiver (`sbd_verify`,
//! docs/security.md) holds the receiver's grouping against evidence of its own: the delay
//! comparison test on each pair of subflows' RTT samples, once per interval. Subflows that get
//! few packets (many subflows, or many flows, on a slow bottleneck; or a coupled subflow held
//! at one segment by a 1-segment ssthresh floor under Linux's delayed ACKs: docs/security.md,
//! "Why subflows starved under Linux hosts") seldom fill the test's bins, and their pairs then get no verdict in most intervals: the check has
//! nothing to hold a receiver's word against, and a receiver that lies may gain there ("What
//! still fails"). A run like that must say so.

use crate::outcome::Outcome;

/// The least share of a connection's pair-intervals with a verdict in which the check's
/// coupling rule ("shared" in 8 of its last 100 intervals; the simulator's
/// `pathpool_sim::mptcp::EVIDENCE_SHARE`) can be met at all.
pub const EVIDENCE_SHARE: f64 = 0.08;

/// One line per connection whose check had a verdict in fewer than `EVIDENCE_SHARE` of its
/// pair-intervals over the measured window.
pub fn warnings(o: &Outcome) -> Vec<String> {
    let Some(mp) = &o.multipath else { return Vec::new() };
    let mut out = Vec::new();
    for c in &mp.connections {
        let (with_verdict, pairs) = c.sender_comparisons;
        if pairs == 0 {
            continue;
        }
        let share = with_verdict as f64 / pairs as f64;
        if share < EVIDENCE_SHARE {
            out.push(format!(
                "connection {}: the sender's check (sbd_verify) had a delay-comparison verdict in {:.1} % of its subflow pairs' intervals ({with_verdict} of {pairs}), fewer than the {:.0} % its coupling rule needs: its subflows' RTT samples gave the test too few bins, or bins without variation, to correlate, so it could neither confirm nor refute the receiver's grouping, and a receiver that lies may gain here (docs/security.md, \"What still fails\")",
                c.name,
                100.0 * share,
                100.0 * EVIDENCE_SHARE
            ));
        }
    }
    out
}
