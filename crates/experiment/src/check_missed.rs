//! Sharing the sender left uncoupled. In the simulator a run knows what the receiver's own
//! detector decided whatever the receiver reported, and how the sender coupled
//! (`coupling_missed`, docs/security.md, "The coupling against the honest detector"). Where
//! the sender left uncoupled much of the pair-time that detector coupled, the receiver's
//! reports split subflows its detector found sharing a bottleneck, and the sender did not see
//! the sharing itself: a receiver that lies gains coupling there. Of the liar runs over the
//! liar table's setups (seeds 1-20) a third of those that missed more than 5 % carried no other
//! warning (docs/security.md), so a run like that must say so.

use crate::outcome::Outcome;

/// The share of the detector's coupled pair-time left uncoupled above which a run warns: the
/// liar table's bound on what a liar may gain.
pub const MISSED_SHARE: f64 = 0.05;

/// One line per connection that left more than `MISSED_SHARE` uncoupled.
pub fn warnings(o: &Outcome) -> Vec<String> {
    let Some(mp) = &o.multipath else { return Vec::new() };
    let mut out = Vec::new();
    for c in &mp.connections {
        let Some(missed) = c.coupling_audit.and_then(|a| a[0]) else { continue };
        if missed > MISSED_SHARE {
            let check = if c.sender_comparisons.1 > 0 { "the sender's check (sbd_verify) did not see the sharing itself" } else { "the sender does not check them (sbd_verify = false)" };
            out.push(format!(
                "connection {}: the sender left {:.1} % of the pair-time in which the receiver's own detector coupled its subflows uncoupled (coupling_missed): the receiver reported them apart and {check}, so a receiver that lies gains coupling here (docs/security.md, \"The coupling against the honest detector\")",
                c.name,
                100.0 * missed
            ));
        }
    }
    out
}
