//! A set of segment numbers in a sliding window [base, base + capacity), stored as a ring
//! of 64-bit words. Used for the receiver's out-of-order buffer and the sender's SACK
//! scoreboard. It grows by doubling when a segment lands beyond the window (rare: the
//! window follows cwnd), so the per-packet path never allocates.

#[derive(Clone, Debug)]
pub struct SeqSet {
    base: u64,
    /// Ring of words; `words.len()` is a power of two.
    words: Vec<u64>,
    ones: u64,
}

impl SeqSet {
    pub fn new(initial_capacity: usize) -> Self {
        let n = initial_capacity.div_ceil(64).next_power_of_two().max(2);
        SeqSet { base: 0, words: vec![0; n], ones: 0 }
    }

    /// Number of members.
    pub fn len(&self) -> u64 {
        self.ones
    }

    pub fn is_empty(&self) -> bool {
        self.ones == 0
    }

    fn capacity(&self) -> u64 {
        self.words.len() as u64 * 64
    }

    #[inline(always)]
    fn word_index(&self, seq: u64) -> usize {
        ((seq / 64) as usize) & (self.words.len() - 1)
    }

    pub fn contains(&self, seq: u64) -> bool {
        if seq < self.base || seq >= self.base + self.capacity() {
            return false;
        }
        self.words[self.word_index(seq)] >> (seq % 64) & 1 == 1
    }

    /// Adds `seq` (ignored below the base). Returns true if it was not yet a member.
    pub fn insert(&mut self, seq: u64) -> bool {
        if seq < self.base {
            return false;
        }
        while seq >= self.base + self.capacity() {
            self.grow();
        }
        let w = self.word_index(seq);
        let bit = 1u64 << (seq % 64);
        if self.words[w] & bit != 0 {
            return false;
        }
        self.words[w] |= bit;
        self.ones += 1;
        true
    }

    /// Adds every segment of `start..end`; returns how many were new.
    pub fn insert_range(&mut self, start: u64, end: u64) -> u64 {
        let mut added = 0;
        for s in start.max(self.base)..end {
            added += self.insert(s) as u64;
        }
        added
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.words);
        let old_len = old.len();
        self.words = vec![0; old_len * 2];
        // The window [base, base + old cap) spans old_len + 1 word positions when base is
        // not word aligned; the first and last positions share one physical word (low bits:
        // the top of the window, high bits: the bottom).
        let first = self.base / 64;
        let split = self.base % 64;
        let low_mask = if split == 0 { 0 } else { range_mask(0, split) };
        for k in 0..=old_len as u64 {
            let pos = first + k;
            let mut w = old[(pos as usize) & (old_len - 1)];
            if k == 0 {
                w &= !low_mask;
            } else if k == old_len as u64 {
                w &= low_mask;
            }
            let ni = (pos as usize) & (self.words.len() - 1);
            self.words[ni] |= w;
        }
    }

    /// Moves the base to `new_base`, dropping members below it. Returns how many were dropped.
    pub fn advance(&mut self, new_base: u64) -> u64 {
        if new_base <= self.base {
            return 0;
        }
        let mut removed = 0;
        if self.ones > 0 {
            let end = new_base.min(self.base + self.capacity());
            let mut s = self.base;
            while s < end {
                let w = self.word_index(s);
                let lo = s % 64;
                let hi = (end - (s - lo)).min(64); // bit index (exclusive) within this word
                let mask = range_mask(lo, hi);
                removed += (self.words[w] & mask).count_ones() as u64;
                self.words[w] &= !mask;
                s = s - lo + 64;
            }
            self.ones -= removed;
        }
        self.base = new_base;
        removed
    }

    /// The 64 membership bits of [seq, seq + 64) (bit i = seq + i); zero outside the window.
    #[inline]
    fn bits_from(&self, seq: u64) -> u64 {
        let cap_end = self.base + self.capacity();
        if seq >= cap_end || seq + 64 <= self.base {
            return 0;
        }
        let off = seq % 64;
        let lo = self.words[self.word_index(seq)] >> off;
        let hi = if off == 0 { 0 } else { self.words[self.word_index(seq + 64)] << (64 - off) };
        let mut bits = lo | hi;
        // Mask out bits outside [base, cap_end): the ring aliases them onto other segments.
        if seq < self.base {
            bits &= !0u64 << (self.base - seq);
        }
        if seq + 64 > cap_end {
            bits &= range_mask(0, cap_end - seq);
        }
        bits
    }

    /// The first segment >= `from` that is not a member.
    pub fn next_absent(&self, from: u64) -> u64 {
        let mut s = from;
        loop {
            let b = self.bits_from(s);
            if b != u64::MAX {
                return s + (!b).trailing_zeros() as u64;
            }
            s += 64;
        }
    }

    /// The first member in [from, limit), if any.
    #[cfg(test)]
    pub fn next_present(&self, from: u64, limit: u64) -> Option<u64> {
        let mut s = from.max(self.base);
        let end = limit.min(self.base + self.capacity());
        while s < end {
            let b = self.bits_from(s);
            if b != 0 {
                let found = s + b.trailing_zeros() as u64;
                return (found < end).then_some(found);
            }
            s += 64;
        }
        None
    }

    /// The start of the run of members that ends just below `seq` (returns `seq` if
    /// `seq - 1` is not a member).
    pub fn run_start_before(&self, seq: u64) -> u64 {
        let mut s = seq;
        while s > self.base && self.contains(s - 1) {
            // Jump whole words when possible.
            if s >= 64 && s - 64 >= self.base && self.bits_from(s - 64) == u64::MAX {
                s -= 64;
            } else {
                s -= 1;
            }
        }
        s
    }

    /// Number of members in [from, to).
    pub fn count(&self, from: u64, to: u64) -> u64 {
        let mut s = from.max(self.base);
        let end = to.min(self.base + self.capacity());
        let mut n = 0;
        while s < end {
            let mut b = self.bits_from(s);
            if end - s < 64 {
                b &= range_mask(0, end - s);
            }
            n += b.count_ones() as u64;
            s += 64;
        }
        n
    }

    /// The `n`-th highest member below `below` (n = 1 is the highest), if there are n.
    pub fn nth_highest_below(&self, n: u64, below: u64) -> Option<u64> {
        let mut remaining = n;
        let mut end = below.min(self.base + self.capacity());
        while end > self.base {
            let start = end.saturating_sub(64).max(self.base);
            let mut b = self.bits_from(start) & range_mask(0, end - start);
            let c = b.count_ones() as u64;
            if c >= remaining {
                // Strip the highest (remaining - 1) members of this word.
                for _ in 1..remaining {
                    b &= !(1u64 << (63 - b.leading_zeros()));
                }
                return Some(start + 63 - b.leading_zeros() as u64);
            }
            remaining -= c;
            end = start;
        }
        None
    }
}

/// Bits lo..hi (hi <= 64) set.
#[inline(always)]
fn range_mask(lo: u64, hi: u64) -> u64 {
    let upper = if hi >= 64 { u64::MAX } else { (1u64 << hi) - 1 };
    upper & !((1u64 << lo) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    proptest! {
        #[test]
        fn behaves_like_an_ordered_set(ops in proptest::collection::vec((0u8..4, 0u64..700), 1..200)) {
            let mut s = SeqSet::new(64);
            let mut model = BTreeSet::new();
            let mut base = 0u64;
            for (op, x) in ops {
                match op {
                    0 | 1 => {
                        let seq = base + x;
                        prop_assert_eq!(s.insert(seq), model.insert(seq));
                    }
                    2 => {
                        let nb = base + x / 4;
                        let removed = model.iter().filter(|&&v| v < nb).count() as u64;
                        model.retain(|&v| v >= nb);
                        prop_assert_eq!(s.advance(nb), removed);
                        base = nb;
                    }
                    _ => {
                        let from = base + x;
                        let to = from + x / 2 + 1;
                        prop_assert_eq!(s.count(from, to), model.range(from..to).count() as u64);
                        prop_assert_eq!(s.next_present(from, to), model.range(from..to).next().copied());
                        let absent = (from..).find(|v| !model.contains(v)).unwrap();
                        prop_assert_eq!(s.next_absent(from), absent);
                        let n = x % 5 + 1;
                        prop_assert_eq!(s.nth_highest_below(n, to), model.range(..to).rev().nth(n as usize - 1).copied());
                        let mut rs = from;
                        while rs > base && model.contains(&(rs - 1)) { rs -= 1; }
                        prop_assert_eq!(s.run_start_before(from), rs);
                    }
                }
                prop_assert_eq!(s.len(), model.len() as u64);
            }
        }
    }
}
