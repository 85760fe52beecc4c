//! S0's coupling rule (S0 §III-B; algorithms.md §7.5): which subflows each subflow's increase
//! is coupled over, given one decision's groups. The sender couples by it, and the coupling
//! audit (coupling_audit.rs) reads the receiver's own decisions by it.

use pathpool_cc::SubflowSet;

/// S(x) of algorithms.md §7.5 for every subflow from one decision: `group(i)` is subflow i's
/// congested group, None where it was found not congested or has no entry (S0 §III-B: such a
/// subflow may join any group when `couple_non_congested`).
pub(crate) fn s0_coupling<G: PartialEq>(group: impl Fn(usize) -> Option<G>, couple_non_congested: bool, out: &mut [SubflowSet]) {
    let n = out.len();
    for (x, set) in out.iter_mut().enumerate() {
        *set = match group(x) {
            None if couple_non_congested => SubflowSet::all(n),
            None => SubflowSet::single(x),
            Some(gx) => (0..n).fold(SubflowSet::empty(), |s, y| match group(y) {
                Some(gy) if gy == gx => s.with(y),
                None if couple_non_congested => s.with(y),
                _ if y == x => s.with(y),
                _ => s,
            }),
        };
    }
}
