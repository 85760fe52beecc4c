//! A delay-based detector that cannot see the bottleneck. RFC 8382's statistics look for
//! queueing delay (§3.3: a bottleneck is a queue that builds); where losses come without it
//! (RED drops early, a short buffer, a policer) the detector reports "no bottleneck" in every
//! interval, MPTCP-SBD couples its subflows as one group (group 0 couples with every group,
//! algorithms.md §11 item 21) and so runs as OLIA, and decision accuracy reads 0 whatever the
//! detector could do. A run like that must say so rather than show the accuracy as a finding.

use crate::outcome::Outcome;

/// The share of a connection's subflow-intervals with no bottleneck found above which, with
/// losses on its subflows, the run says the detector was blind (ux: RED in the shared link).
pub const BLIND_SHARE: f64 = 0.8;

/// One line per MPTCP-SBD connection whose detector saw no bottleneck in at least
/// `BLIND_SHARE` of its subflow-intervals while its subflows lost packets.
pub fn warnings(o: &Outcome) -> Vec<String> {
    let Some(mp) = &o.multipath else { return Vec::new() };
    let mut out = Vec::new();
    for c in &mp.connections {
        let entries: usize = c.observations.iter().map(|(_, g)| g.len()).sum();
        if entries == 0 {
            continue;
        }
        let unseen = c.observations.iter().flat_map(|(_, g)| g).filter(|&&g| g == 0).count();
        let prefix = format!("{}.sf", c.name);
        // Unknown where the backend does not count retransmissions: then it says nothing.
        let lost: Option<u64> = o.flows.iter().filter(|f| f.name.starts_with(&prefix)).map(|f| f.retransmissions).sum();
        let share = unseen as f64 / entries as f64;
        if let Some(lost) = lost.filter(|&n| share >= BLIND_SHARE && n > 0) {
            out.push(format!(
                "connection {}: the shared-bottleneck detector found no bottleneck in {:.0} % of its subflow-intervals ({unseen} of {entries}) while the subflows retransmitted {lost} packets: the losses come without the queueing delay it looks for (as under RED or a very short buffer), so its groups say nothing, MPTCP-SBD ran coupled as one group (as OLIA), and decision_accuracy does not measure the detector here",
                c.name,
                100.0 * share
            ));
        }
    }
    out
}
