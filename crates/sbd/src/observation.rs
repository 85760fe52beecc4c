//! The one output type of every detector: at an evaluation time, a group id per flow.

/// Group id meaning "not traversing a bottleneck" (or, for trend lines, "no queue-building
/// phase seen").
pub const NOT_BOTTLENECKED: u32 = 0;

/// A grouping of flows at one evaluation time. Flows with the same non-zero id are judged to
/// share a bottleneck. Ids are canonical: numbered 1, 2, ... in order of the lowest flow index
/// in each group, so equal partitions compare equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// Time of the evaluation (end of the base interval or evaluation window), in the caller's
    /// nanoseconds.
    pub time_ns: u64,
    /// One entry per flow.
    pub groups: Vec<u32>,
}

impl Observation {
    pub fn new(n_flows: usize) -> Self {
        Observation { time_ns: 0, groups: vec![NOT_BOTTLENECKED; n_flows] }
    }

    /// True when every flow is in one and the same bottleneck group.
    pub fn all_shared(&self) -> bool {
        let g = self.groups.first().copied().unwrap_or(NOT_BOTTLENECKED);
        g != NOT_BOTTLENECKED && self.groups.iter().all(|&x| x == g)
    }

    /// True when every flow is in a bottleneck group of its own.
    pub fn all_separate(&self) -> bool {
        self.groups.iter().all(|&g| g != NOT_BOTTLENECKED)
            && self.groups.iter().enumerate().all(|(i, &g)| !self.groups[..i].contains(&g))
    }
}

/// Renumbers non-zero labels (each < `scratch.len()`) to 1, 2, ... in order of first
/// appearance; 0 stays 0. `scratch` is caller-owned so nothing is allocated.
pub fn canonicalize(labels: &mut [u32], scratch: &mut [u32]) {
    scratch.fill(0);
    let mut next = 0;
    for l in labels.iter_mut() {
        if *l == NOT_BOTTLENECKED {
            continue;
        }
        let slot = &mut scratch[*l as usize];
        if *slot == 0 {
            next += 1;
            *slot = next;
        }
        *l = *slot;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_labels_follow_first_appearance() {
        let mut l = [7, 0, 3, 7, 3, 5];
        let mut s = [0u32; 8];
        canonicalize(&mut l, &mut s);
        assert_eq!(l, [1, 0, 2, 1, 2, 3]);
    }

    #[test]
    fn shared_and_separate_predicates() {
        let o = |g: Vec<u32>| Observation { time_ns: 0, groups: g };
        assert!(o(vec![1, 1, 1]).all_shared());
        assert!(!o(vec![0, 0]).all_shared());
        assert!(o(vec![1, 2, 3]).all_separate());
        assert!(!o(vec![1, 2, 0]).all_separate());
        assert!(!o(vec![1, 2, 1]).all_separate());
    }
}
