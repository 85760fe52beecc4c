//! MPTCP-SBD with pairwise sharing (`cc = "mptcp-sbd-pairwise"`; docs/sbd.md, "Beyond
//! partitions: pairwise sharing"): the receiver reports, per subflow, which subflows it shares
//! a bottleneck with, and the sender couples per bottleneck group (the maximal cliques of that
//! relation) instead of per partition.
//!
//! On the wire this reuses MP_GROUP: its group byte carries subflow x's row of the pair
//! relation, bit y = x shares with y, bit x = x is bottlenecked (0: not congested). A
//! connection has at most 8 subflows (`config::MAX_SUBFLOWS`), so a row fits the byte. This is
//! pathpool's encoding, not [S0]'s (whose byte is a group number).

use pathpool_cc::SubflowSet;
use pathpool_sbd::PairRelation;

/// The MP_GROUP byte of each subflow for a decided relation.
pub(crate) fn rows_to_bytes(rel: &PairRelation, out: &mut [u8]) {
    for (b, &row) in out.iter_mut().zip(&rel.rows) {
        *b = row as u8;
    }
}

/// Per subflow, its coupling set (the union of its groups, for decreases) and the bottleneck
/// groups the controller couples per group, from each subflow's reported row (`None`: no
/// report in the decision used). A subflow not congested, or without a report, joins every
/// group when `couple_non_congested` (as [S0]'s public code couples it with all), else runs
/// alone; a bottlenecked subflow sharing with nobody is a group of one (Reno).
pub(crate) fn groups_from_rows(rows: &[Option<u8>], couple_non_congested: bool, coupling: &mut [SubflowSet], groups: &mut Vec<SubflowSet>) {
    let n = rows.len();
    let free = |x: usize| rows[x].is_none_or(|r| r >> x & 1 == 0);
    // The symmetric relation both ends agree on, plus the free subflows' edges.
    let mut rel = PairRelation::new(n);
    for x in 0..n {
        if free(x) && !couple_non_congested {
            rel.rows[x] = 1 << x;
            continue;
        }
        rel.rows[x] |= 1 << x;
        for y in 0..n {
            let reported = |a: usize, b: usize| rows[a].is_some_and(|r| r >> b & 1 == 1);
            let both_free = couple_non_congested && (free(x) || free(y));
            if y != x && (both_free || (reported(x, y) && reported(y, x))) {
                rel.rows[x] |= 1 << y;
            }
        }
    }
    groups.clear();
    groups.extend(rel.maximal_cliques().into_iter().map(SubflowSet));
    for (x, set) in coupling.iter_mut().enumerate() {
        *set = groups.iter().filter(|g| g.contains(x)).fold(SubflowSet::single(x), |s, g| SubflowSet(s.0 | g.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rows: &[Option<u8>], free_couple: bool) -> (Vec<u64>, Vec<u64>) {
        let mut coupling = vec![SubflowSet::empty(); rows.len()];
        let mut groups = Vec::new();
        groups_from_rows(rows, free_couple, &mut coupling, &mut groups);
        (groups.iter().map(|g| g.0).collect(), coupling.iter().map(|c| c.0).collect())
    }

    #[test]
    fn overlapping_pairs_become_their_groups() {
        // 0~1 and 1~2 (a chain): two groups, subflow 1 in both.
        let (g, c) = run(&[Some(0b011), Some(0b111), Some(0b110)], true);
        assert_eq!(g, vec![0b011, 0b110]);
        assert_eq!(c, vec![0b011, 0b111, 0b110]);
        // A pair only one end reports is not coupled.
        let (g, _) = run(&[Some(0b011), Some(0b010), Some(0b100)], true);
        assert_eq!(g, vec![0b001, 0b010, 0b100]);
    }

    #[test]
    fn free_subflows_join_every_group_or_run_alone() {
        // Subflow 2 not congested.
        let (g, _) = run(&[Some(0b011), Some(0b011), Some(0)], true);
        assert_eq!(g, vec![0b111]);
        let (g, c) = run(&[Some(0b011), Some(0b011), Some(0)], false);
        assert_eq!(g, vec![0b011, 0b100]);
        assert_eq!(c, vec![0b011, 0b011, 0b100]);
    }
}
