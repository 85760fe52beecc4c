//! The responsiveness weighting of RFC 8382 §4.1 (SBD-01 §3.4) as an O(1) sliding sum.
//!
//! Over the last M interval values (position 1 = newest) the weight is `M−F+1` for positions
//! 1..F and `M−k+1` for positions k = F+1..M. With F = M every weight is 1 (a plain sum).
//! Integer values and integer weights keep the incremental sums exact: they never drift from
//! a direct recomputation (docs/sbd.md "Responsiveness weighting").

#[derive(Clone, Debug)]
pub struct WeightedWindow {
    m: usize,
    f: usize,
    /// Ring of the last M values; `head` is the newest.
    hist: Box<[i64]>,
    head: usize,
    /// Σ of positions 1..F.
    flat: i128,
    /// Σ of positions F+1..M.
    decl: i128,
    /// Σ of (M−k+1)·value over positions F+1..M.
    wdecl: i128,
}

impl WeightedWindow {
    pub fn new(m: usize, f: usize) -> Self {
        assert!(m >= 1 && f >= 1 && f <= m, "weighted window needs 1 <= F <= M");
        WeightedWindow { m, f, hist: vec![0; m].into_boxed_slice(), head: 0, flat: 0, decl: 0, wdecl: 0 }
    }

    /// The value at position `k` (1 = newest).
    pub fn at(&self, k: usize) -> i64 {
        debug_assert!((1..=self.m).contains(&k));
        self.hist[(self.head + self.m - (k - 1)) % self.m]
    }

    /// Shifts every value one position older and inserts `v` as the newest.
    pub fn push(&mut self, v: i64) {
        let x_f = self.at(self.f) as i128;
        let x_m = self.at(self.m) as i128;
        let (m, f) = (self.m as i128, self.f as i128);
        // Every declining weight drops by one (x_M's becomes 0); x_F enters with weight M−F.
        self.wdecl = self.wdecl - self.decl + (m - f) * x_f;
        self.decl = self.decl + x_f - x_m;
        self.flat = self.flat + v as i128 - x_f;
        self.head = (self.head + 1) % self.m;
        self.hist[self.head] = v;
    }

    /// Forgets every value older than position `keep` (they become 0), keeping the `keep`
    /// newest; the sums are recomputed directly (O(M), once per memory restart).
    pub fn keep_newest(&mut self, keep: usize) {
        for k in keep + 1..=self.m {
            let i = (self.head + self.m - (k - 1)) % self.m;
            self.hist[i] = 0;
        }
        let (mut flat, mut decl, mut wdecl) = (0i128, 0i128, 0i128);
        for k in 1..=self.m {
            let v = self.at(k) as i128;
            if k <= self.f {
                flat += v;
            } else {
                decl += v;
                wdecl += (self.m - k + 1) as i128 * v;
            }
        }
        (self.flat, self.decl, self.wdecl) = (flat, decl, wdecl);
    }

    /// Σ_k w_k·value_k.
    pub fn weighted_sum(&self) -> i128 {
        (self.m - self.f + 1) as i128 * self.flat + self.wdecl
    }

    /// The same sum computed directly in O(M), for tests.
    pub fn direct_weighted_sum(&self) -> i128 {
        (1..=self.m).map(|k| self.weight(k) as i128 * self.at(k) as i128).sum()
    }

    /// RFC 8382 §4.1 weight of position k (1 = newest).
    pub fn weight(&self, k: usize) -> usize {
        if k <= self.f {
            self.m - self.f + 1
        } else {
            self.m - k + 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn weights_follow_rfc8382_section_4_1() {
        let w = WeightedWindow::new(30, 20);
        let weights: Vec<usize> = (1..=30).map(|k| w.weight(k)).collect();
        assert_eq!(&weights[..20], &[11; 20]);
        assert_eq!(&weights[20..], &[10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    }

    #[test]
    fn hand_computed_small_window() {
        // M = 3, F = 1: weights 3, 2, 1 (newest first).
        let mut w = WeightedWindow::new(3, 1);
        for v in [5, 7, 11, 13] {
            w.push(v);
        }
        assert_eq!(w.weighted_sum(), 3 * 13 + 2 * 11 + 7);
    }

    #[test]
    fn keep_newest_forgets_the_older_values() {
        let mut w = WeightedWindow::new(5, 2);
        for v in 1..=7 {
            w.push(v);
        }
        w.keep_newest(2);
        assert_eq!((w.at(1), w.at(2), w.at(3)), (7, 6, 0));
        assert_eq!(w.weighted_sum(), w.direct_weighted_sum());
        w.push(8);
        assert_eq!(w.weighted_sum(), w.direct_weighted_sum());
        assert_eq!(w.weighted_sum(), 4 * (8 + 7) + 3 * 6);
    }

    proptest! {
        #[test]
        fn incremental_equals_direct(m in 1usize..40, fdiv in 0usize..40, vals in proptest::collection::vec(-1_000_000i64..1_000_000, 0..200)) {
            let f = 1 + fdiv % m;
            let mut w = WeightedWindow::new(m, f);
            for v in vals {
                w.push(v);
                prop_assert_eq!(w.weighted_sum(), w.direct_weighted_sum());
            }
        }
    }
}
