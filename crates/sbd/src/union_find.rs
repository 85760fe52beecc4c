//! Root lookup with path halving for the union-find forests that turn pairwise "together"
//! relations into groups (the decision filter's transitive merge, TR's pairwise decisions).

pub(crate) fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}
