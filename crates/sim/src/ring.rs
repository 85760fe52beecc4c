//! A FIFO of plain values for the per-packet path: a queue's pending departures and a pipe's
//! packets in flight. `VecDeque` wraps its indices with a compare against an arbitrary
//! capacity and checks for growth through a call; here the capacity is a power of two, so
//! an index wraps with one mask and a push is a store and two adds (queues and pipes do one
//! push and one pop per packet). It grows by doubling, rarely: the buffer follows what a
//! queue or pipe holds at its fullest.

/// A ring buffer of `Copy` values (slots hold stale copies, never uninitialised memory).
pub(crate) struct Ring<T: Copy + Default> {
    /// `slots.len()` is a power of two.
    slots: Vec<T>,
    head: usize,
    len: usize,
}

impl<T: Copy + Default> Ring<T> {
    /// Room for at least `capacity` values before the first growth.
    pub fn with_capacity(capacity: usize) -> Self {
        Ring { slots: vec![T::default(); capacity.max(2).next_power_of_two()], head: 0, len: 0 }
    }

    #[inline(always)]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn push_back(&mut self, value: T) {
        if self.len == self.slots.len() {
            self.grow();
        }
        let i = (self.head + self.len) & self.mask();
        self.slots[i] = value;
        self.len += 1;
    }

    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let value = self.slots[self.head];
        self.head = (self.head + 1) & self.mask();
        self.len -= 1;
        Some(value)
    }

    /// Removes the first `n` values (`n` at most `len()`).
    #[inline(always)]
    pub fn drop_front(&mut self, n: usize) {
        debug_assert!(n <= self.len);
        self.head = (self.head + n) & self.mask();
        self.len -= n;
    }

    /// The value `i` places from the front.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<&T> {
        (i < self.len).then(|| &self.slots[(self.head + i) & self.mask()])
    }

    /// The value `i` places from the front, to change in place.
    #[inline(always)]
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        let mask = self.mask();
        (i < self.len).then(|| &mut self.slots[(self.head + i) & mask])
    }

    #[inline(always)]
    pub fn front(&self) -> Option<&T> {
        self.get(0)
    }

    #[inline(always)]
    pub fn back(&self) -> Option<&T> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// Removes and returns the last value.
    #[cfg(test)]
    pub fn pop_back(&mut self) -> Option<T> {
        let value = *self.back()?;
        self.len -= 1;
        Some(value)
    }

    /// Inserts `value` after every value whose key is at most its own, front to back in
    /// ascending keys (equal keys keep the order of insertion). Searched from the back: cheap
    /// when the value belongs at or near the back, as a later arrival most often does.
    #[inline(always)]
    pub fn insert_sorted_from_back<K: Ord>(&mut self, value: T, key: impl Fn(&T) -> K) {
        if self.len == self.slots.len() {
            self.grow();
        }
        let mask = self.mask();
        let k = key(&value);
        let mut i = self.len;
        while i > 0 {
            let before = self.slots[(self.head + i - 1) & mask];
            if key(&before) <= k {
                break;
            }
            self.slots[(self.head + i) & mask] = before;
            i -= 1;
        }
        self.slots[(self.head + i) & mask] = value;
        self.len += 1;
    }

    /// Front to back.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len).map(move |i| &self.slots[(self.head + i) & self.mask()])
    }

    /// Doubles the slots, moving the values to the front of the new buffer in order.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let mut slots = vec![T::default(); self.slots.len() * 2];
        for (dst, src) in slots.iter_mut().zip(self.iter()) {
            *dst = *src;
        }
        self.slots = slots;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::Ring;
    use std::collections::VecDeque;

    /// Sorted insertion keeps ascending keys, equal keys in the order inserted, across wraps
    /// and growths.
    #[test]
    fn sorted_insertion_is_a_stable_sort() {
        let mut ring = Ring::with_capacity(2);
        let mut reference: Vec<(u64, u64)> = Vec::new();
        let mut x = 11u64;
        for step in 0..5_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if x >> 62 == 0 {
                let n = ((x >> 20) % 3) as usize;
                let n = n.min(reference.len());
                ring.drop_front(n);
                reference.drain(..n);
            } else {
                let v = ((x >> 40) % 16, step);
                ring.insert_sorted_from_back(v, |&(k, _)| k);
                let at = reference.partition_point(|&(k, _)| k <= v.0);
                reference.insert(at, v);
            }
            assert!(ring.iter().copied().eq(reference.iter().copied()), "step {step}");
        }
    }

    /// The same operations on a ring and on a `VecDeque` give the same values, across many
    /// wraps and growths.
    #[test]
    fn behaves_as_a_vecdeque() {
        let mut ring = Ring::with_capacity(3);
        let mut deque = VecDeque::new();
        let mut x = 7u64;
        for step in 0..20_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            match (x >> 60) % 4 {
                0 | 1 => {
                    ring.push_back(step);
                    deque.push_back(step);
                }
                2 => assert_eq!(ring.pop_front(), deque.pop_front()),
                _ => assert_eq!(ring.pop_back(), deque.pop_back()),
            }
            assert_eq!(ring.len(), deque.len());
            assert_eq!(ring.front(), deque.front());
            assert_eq!(ring.back(), deque.back());
            assert_eq!(ring.get(1), deque.get(1));
            if let (Some(r), Some(d)) = (ring.get_mut(0), deque.get_mut(0)) {
                *r += 1;
                *d += 1;
            }
            if step % 1000 == 0 {
                assert!(ring.iter().eq(deque.iter()));
            }
        }
        // Fill far past the initial room, then drain in order.
        for v in 0..1000 {
            ring.push_back(v);
            deque.push_back(v);
        }
        assert!(ring.iter().eq(deque.iter()));
        while let Some(v) = deque.pop_front() {
            assert_eq!(ring.pop_front(), Some(v));
        }
        assert!(ring.is_empty() && ring.pop_front().is_none() && ring.back().is_none());
    }
}
