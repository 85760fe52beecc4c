//! The set of subflows a coupled increase runs over (algorithms.md §7.5: shared bottleneck
//! detection restricts coupling by handing in a smaller set; the algorithms stay unchanged).

/// Most subflows one connection can have: a set is one `u64` bit mask.
pub const MAX_SUBFLOWS: usize = 64;

/// Bit i = subflow i. Copy, no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SubflowSet(pub u64);

impl SubflowSet {
    /// Subflows `0..n` (n is clamped to [`MAX_SUBFLOWS`]).
    pub fn all(n: usize) -> Self {
        if n >= MAX_SUBFLOWS {
            SubflowSet(u64::MAX)
        } else {
            SubflowSet((1u64 << n) - 1)
        }
    }

    pub fn single(i: usize) -> Self {
        Self::empty().with(i)
    }

    pub fn empty() -> Self {
        SubflowSet(0)
    }

    /// This set plus subflow `i` (indices >= 64 are ignored: they cannot be represented).
    pub fn with(self, i: usize) -> Self {
        if i < MAX_SUBFLOWS {
            SubflowSet(self.0 | (1u64 << i))
        } else {
            self
        }
    }

    pub fn without(self, i: usize) -> Self {
        if i < MAX_SUBFLOWS {
            SubflowSet(self.0 & !(1u64 << i))
        } else {
            self
        }
    }

    pub fn contains(self, i: usize) -> bool {
        i < MAX_SUBFLOWS && self.0 & (1u64 << i) != 0
    }

    pub fn intersect(self, other: SubflowSet) -> Self {
        SubflowSet(self.0 & other.0)
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Members in increasing index order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(i)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_single_with_contains_len_iter() {
        assert_eq!(SubflowSet::all(0), SubflowSet::empty());
        assert_eq!(SubflowSet::all(3).0, 0b111);
        assert_eq!(SubflowSet::all(64).len(), 64);
        assert_eq!(SubflowSet::all(99).len(), 64);
        let s = SubflowSet::single(5).with(1).with(63);
        assert!(s.contains(1) && s.contains(5) && s.contains(63) && !s.contains(0));
        assert!(!s.contains(64));
        assert_eq!(s.len(), 3);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![1, 5, 63]);
        assert_eq!(s.without(5).iter().collect::<Vec<_>>(), vec![1, 63]);
        assert!(SubflowSet::empty().is_empty());
        assert_eq!(SubflowSet::empty().with(64), SubflowSet::empty());
    }
}
