//! Pairwise sharing: for each pair of flows, whether they share at least one bottleneck, beside
//! the partition every detector outputs (an extension, not RFC 8382's or [S0]'s; docs/sbd.md,
//! "Beyond partitions: pairwise sharing").
//!
//! A partition cannot express overlapping paths ([S4]: flows 1 and 2 share link A, 2 and 3
//! link B, 1 and 3 link C), and its grouping step is transitive (1~2 and 2~3 force 1~3). The
//! relation here is not: a pair shares when both flows are bottlenecked and their interval
//! mean delays E_T correlate at least `min_corr` (detrended, `crate::correlation`; shared
//! congestion by correlation: Rubenstein, Kurose, Towsley, IEEE/ACM ToN 10(3), 2002). A flow
//! crossing two independent queues, one shared with its partner, correlates with it at about
//! var(shared) / var(own sum), 0.5 for queues of equal variance, so the threshold lies below
//! the split's 0.5 (`PAIR_CORR_MIN`). A pair without enough common intervals falls back on the
//! partition (same group = sharing), as the split does.

use crate::correlation::correlation_newest;
use crate::observation::NOT_BOTTLENECKED;

/// Default correlation above which a pair shares: halfway between the independent queues'
/// largest measured correlation (+0.18, docs/sbd.md) and one-of-two shared queues' 0.5.
pub const PAIR_CORR_MIN: f64 = 0.3;

/// A symmetric relation over at most 64 flows: `rows[i]` bit j = flows i and j share a
/// bottleneck; bit i of `rows[i]` = flow i is bottlenecked at all (a row of 0: not
/// bottlenecked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairRelation {
    pub rows: Vec<u64>,
}

impl PairRelation {
    /// No flow bottlenecked.
    pub fn new(n_flows: usize) -> Self {
        assert!(n_flows <= 64, "a pair relation holds at most 64 flows");
        PairRelation { rows: vec![0; n_flows] }
    }

    pub fn n_flows(&self) -> usize {
        self.rows.len()
    }

    /// Do flows `i` and `j` (i != j) share a bottleneck?
    pub fn shares(&self, i: usize, j: usize) -> bool {
        self.rows[i] >> j & 1 == 1
    }

    pub fn bottlenecked(&self, i: usize) -> bool {
        self.rows[i] >> i & 1 == 1
    }

    /// The relation one observation gives: `groups` is its partition (0 = not bottlenecked),
    /// `series(i)` flow i's ring of interval means with the oldest at `oldest`; a pair is
    /// judged on its `held(a).min(held(b))` newest intervals (as the correlation split).
    pub fn observe<'a>(
        &mut self,
        groups: &[u32],
        min_corr: f64,
        min_common: usize,
        oldest: usize,
        series: impl Fn(usize) -> &'a [f64],
        held: impl Fn(usize) -> usize,
    ) {
        let n = groups.len();
        for (i, row) in self.rows.iter_mut().enumerate() {
            *row = if groups[i] == NOT_BOTTLENECKED { 0 } else { 1 << i };
        }
        for a in 0..n {
            if groups[a] == NOT_BOTTLENECKED {
                continue;
            }
            for b in a + 1..n {
                if groups[b] == NOT_BOTTLENECKED {
                    continue;
                }
                let share = match correlation_newest(series(a), series(b), oldest, min_common, held(a).min(held(b))) {
                    Some(r) => r >= min_corr,
                    None => groups[a] == groups[b],
                };
                if share {
                    self.rows[a] |= 1 << b;
                    self.rows[b] |= 1 << a;
                }
            }
        }
    }

    /// The maximal cliques of the sharing graph among bottlenecked flows, each a bit set, in
    /// increasing order of their bit patterns; a bottlenecked flow sharing with nobody is a
    /// clique of one. Candidate bottlenecks: every flow of a clique may sit behind one queue.
    /// Exhaustive over subsets: meant for the few subflows of one connection (at most 16).
    pub fn maximal_cliques(&self) -> Vec<u64> {
        let n = self.rows.len();
        assert!(n <= 16, "maximal_cliques enumerates subsets: at most 16 flows");
        let is_clique = |s: u64| (0..n).filter(|&i| s >> i & 1 == 1).all(|i| self.rows[i] & s == s);
        let cliques: Vec<u64> = (1u64..1 << n).filter(|&s| is_clique(s)).collect();
        cliques.iter().copied().filter(|&s| !cliques.iter().any(|&t| t != s && t & s == s)).collect()
    }
}

/// The relation filtered like [`crate::DecisionFilter`]'s decisions ([S0] §III-B ③): over the
/// observations since the last decision, a pair shares when it shared in at least half of them
/// (ties share, as [S0] biases ties toward grouping); a flow is bottlenecked when it was in at
/// least half. The caller decides when a decision is due (with the decision filter).
#[derive(Clone, Debug)]
pub struct PairFilter {
    n: usize,
    /// together[i * n + j]: observations in which i and j (i <= j) shared; [i * n + i]: in
    /// which i was bottlenecked.
    together: Vec<u16>,
    seen: u16,
    decision: PairRelation,
}

impl PairFilter {
    pub fn new(n_flows: usize) -> Self {
        PairFilter { n: n_flows, together: vec![0; n_flows * n_flows], seen: 0, decision: PairRelation::new(n_flows) }
    }

    pub fn push(&mut self, obs: &PairRelation) {
        for i in 0..self.n {
            for j in i..self.n {
                if obs.rows[i] >> j & 1 == 1 {
                    self.together[i * self.n + j] = self.together[i * self.n + j].saturating_add(1);
                }
            }
        }
        self.seen = self.seen.saturating_add(1);
    }

    /// Forgets the observations since the last decision (the detector restarted its memory).
    pub fn restart(&mut self) {
        self.together.iter_mut().for_each(|c| *c = 0);
        self.seen = 0;
    }

    /// Decides from the observations since the last decision and starts counting anew; with
    /// none, the previous decision stays.
    pub fn decide(&mut self) -> &PairRelation {
        if self.seen > 0 {
            let need = self.seen.div_ceil(2);
            for i in 0..self.n {
                self.decision.rows[i] = 0;
            }
            for i in 0..self.n {
                if self.together[i * self.n + i] < need {
                    continue;
                }
                self.decision.rows[i] |= 1 << i;
                for j in i + 1..self.n {
                    if self.together[i * self.n + j] >= need && self.together[j * self.n + j] >= need {
                        self.decision.rows[i] |= 1 << j;
                        self.decision.rows[j] |= 1 << i;
                    }
                }
            }
        }
        self.restart();
        &self.decision
    }

    pub fn current(&self) -> &PairRelation {
        &self.decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relation(n: usize, pairs: &[(usize, usize)]) -> PairRelation {
        let mut r = PairRelation::new(n);
        for i in 0..n {
            r.rows[i] |= 1 << i;
        }
        for &(a, b) in pairs {
            r.rows[a] |= 1 << b;
            r.rows[b] |= 1 << a;
        }
        r
    }

    #[test]
    fn cliques_of_a_chain_a_triangle_and_a_loner() {
        // 0-1, 1-2: two cliques sharing flow 1; 3 alone.
        assert_eq!(relation(4, &[(0, 1), (1, 2)]).maximal_cliques(), vec![0b0011, 0b0110, 0b1000]);
        // S4's triangle is one clique: every pair shares.
        assert_eq!(relation(3, &[(0, 1), (1, 2), (0, 2)]).maximal_cliques(), vec![0b111]);
        // A flow not bottlenecked is in no clique.
        let mut r = relation(3, &[(0, 1)]);
        r.rows[2] = 0;
        assert_eq!(r.maximal_cliques(), vec![0b011]);
    }

    #[test]
    fn correlation_decides_pairs_without_transitivity() {
        // Three independent queues q0, q1, q2; flow a crosses q0+q2, flow b q0+q1, flow c q1
        // alone: a~b (q0), b~c (q1), a and c share nothing.
        let n = 30;
        let noise = |k: usize, s: u64| ((k as u64 * 2654435761 + s * 40503) % 1000) as f64;
        let q: Vec<Vec<f64>> = (0..3).map(|s| (0..n).map(|k| noise(k, s + 1)).collect()).collect();
        let a: Vec<f64> = (0..n).map(|k| q[0][k] + q[2][k]).collect();
        let b: Vec<f64> = (0..n).map(|k| q[0][k] + q[1][k]).collect();
        let c: Vec<f64> = q[1].clone();
        let series = [a, b, c];
        let mut r = PairRelation::new(3);
        r.observe(&[1, 1, 1], PAIR_CORR_MIN, 10, 0, |i| &series[i], |_| usize::MAX);
        assert!(r.shares(0, 1) && r.shares(1, 2), "{r:?}");
        assert!(!r.shares(0, 2), "{r:?}");
        // Not bottlenecked: no pairs, whatever the correlation.
        r.observe(&[1, 0, 1], PAIR_CORR_MIN, 10, 0, |i| &series[i], |_| usize::MAX);
        assert!(!r.shares(0, 1) && !r.bottlenecked(1) && r.bottlenecked(0));
    }

    #[test]
    fn filter_keeps_pairs_seen_in_half_the_observations() {
        let mut f = PairFilter::new(3);
        for k in 0..10 {
            // 0~1 in 5 of 10 (a tie shares), 1~2 in 4 of 10.
            let pairs: Vec<(usize, usize)> = [(k < 5).then_some((0, 1)), (k < 4).then_some((1, 2))].into_iter().flatten().collect();
            f.push(&relation(3, &pairs));
        }
        let d = f.decide().clone();
        assert!(d.shares(0, 1) && !d.shares(1, 2) && d.bottlenecked(2));
        // No observation since: the decision stays.
        assert_eq!(f.decide(), &d);
    }
}
