//! The MPTCP-SBD decision filter ([S0] §III-B ③, §IV-B; docs/sbd.md "Decision filter", §11.20):
//! every `window` observations (10, i.e. 3.5 s) one decision. Two flows are decided together
//! when they were observed in the same bottleneck group at least `threshold` times (5 of 10; a
//! 5/5 tie groups, as [S0] biases ties toward grouping). A flow without such a partner is
//! "not bottlenecked" (0) if it was so observed at least `threshold` times, else alone.
//! Only shared bottleneck groups count as "together": two non-bottlenecked flows are not.

use crate::observation::{canonicalize, Observation, NOT_BOTTLENECKED};
use crate::union_find::find;

/// How pairwise "together" counts become groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeRule {
    /// Connected components over pairs counted together >= threshold (the user-space
    /// MPTCP-SBD code's graph merge; default).
    Transitive,
    /// The kernel port's star merge: in flow order, an unassigned flow opens a group (0 if
    /// non-bottlenecked >= threshold times) and every later flow counted together with it
    /// joins that group, overwriting an earlier assignment. Not transitive.
    Star,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilterParams {
    pub window: usize,
    pub threshold: usize,
    pub merge: MergeRule,
    /// Observations in the first window after [`DecisionFilter::restart`] (an extension
    /// used only with the change detector); its threshold is `threshold` scaled to it,
    /// rounded up.
    pub restart_window: usize,
    /// Take each window's decision as soon as its outcome is certain (the rest of the window
    /// cannot change it) instead of at its end; windows keep their 10 observations, so every
    /// decision is the one [S0] §IV-B's filter takes, only known earlier. Off by default (the
    /// SBD daemon turns it on; not a scenario parameter, so no backend's output changes).
    pub decide_when_certain: bool,
    /// A decision after every observation over the last `window` of them, instead of one per
    /// window (a deviation from [S0] §III-B, which decides once per window; the SBD daemon's,
    /// docs/kernel.md "The SBD daemon"). Off by default; not a scenario parameter.
    pub sliding: bool,
}

impl FilterParams {
    pub const NAMES: &'static [&'static str] = &["decision_window", "decision_threshold", "star_merge", "restart_window"];

    /// Overrides one parameter by name (`star_merge` takes 0/1 or true/false).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let count = || match value.trim().parse::<usize>() {
            Ok(v) if v >= 1 => Ok(v),
            _ => Err(format!("{name}: expected a positive integer, got '{value}'")),
        };
        match name {
            "decision_window" => self.window = count()?,
            "decision_threshold" => self.threshold = count()?,
            "restart_window" => self.restart_window = count()?,
            "star_merge" => {
                self.merge = match value.trim() {
                    "1" | "true" => MergeRule::Star,
                    "0" | "false" => MergeRule::Transitive,
                    _ => return Err(format!("star_merge: expected 0/1 or true/false, got '{value}'")),
                }
            }
            _ => return Err(format!("unknown parameter '{name}'; valid: {}", Self::NAMES.join(", "))),
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.window > u16::MAX as usize {
            return Err(format!("decision_window: at most {}, got {}", u16::MAX, self.window));
        }
        if self.threshold > self.window {
            return Err(format!("decision_threshold: must not exceed decision_window ({})", self.window));
        }
        if self.restart_window > self.window {
            return Err(format!("restart_window: must not exceed decision_window ({})", self.window));
        }
        Ok(())
    }

    pub fn entries(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("decision_window", self.window as f64),
            ("decision_threshold", self.threshold as f64),
            ("star_merge", (self.merge == MergeRule::Star) as u8 as f64),
            ("restart_window", self.restart_window as f64),
        ]
    }
}

impl Default for FilterParams {
    fn default() -> Self {
        FilterParams { window: 10, threshold: 5, merge: MergeRule::Transitive, restart_window: RESTART_WINDOW, decide_when_certain: false, sliding: false }
    }
}

/// Default first window after a restart: 3 observations (threshold 2 of 3), chosen with the
/// change test's defaults (docs/sbd.md, "Faster transitions").
pub const RESTART_WINDOW: usize = 3;

/// A filtered decision; it stays valid until the next one.
pub type Decision = Observation;

#[derive(Clone, Debug)]
pub struct DecisionFilter {
    p: FilterParams,
    n: usize,
    /// together[i * n + j] (i < j): observations with i and j in one bottleneck group.
    together: Vec<u16>,
    not_bottlenecked: Vec<u16>,
    seen: usize,
    parent: Vec<usize>,
    scratch: Vec<u32>,
    decision: Decision,
    decisions: u64,
    /// After [`DecisionFilter::restart`]: the short window is running; decide as soon as its
    /// outcome is fixed.
    early: bool,
    /// This window's decision was already taken (`decide_when_certain`).
    taken: bool,
    /// The last `window` observations' groups (`sliding`).
    history: std::collections::VecDeque<Vec<u32>>,
}

impl DecisionFilter {
    pub fn new(params: FilterParams, n_flows: usize) -> Self {
        assert!(params.window >= 1 && params.threshold >= 1, "decision filter needs window and threshold >= 1");
        if let Err(e) = params.validate() {
            panic!("invalid decision filter parameters: {e}");
        }
        DecisionFilter {
            p: params,
            n: n_flows,
            together: vec![0; n_flows * n_flows],
            not_bottlenecked: vec![0; n_flows],
            seen: 0,
            parent: (0..n_flows).collect(),
            scratch: vec![0; n_flows + 1],
            decision: Observation::new(n_flows),
            decisions: 0,
            early: false,
            taken: false,
            history: std::collections::VecDeque::new(),
        }
    }

    /// Adds one observation; every `window`-th returns the new decision.
    pub fn push(&mut self, obs: &Observation) -> Option<&Decision> {
        debug_assert_eq!(obs.groups.len(), self.n);
        self.count(&obs.groups, true);
        self.seen += 1;
        if !self.early && self.p.sliding {
            return self.push_sliding(obs);
        }
        if !self.early && self.p.decide_when_certain {
            return self.push_when_certain(obs.time_ns);
        }
        if self.seen < self.p.window && !(self.early && self.settled()) {
            return None;
        }
        let th = self.threshold();
        self.early = false;
        self.decide(obs.time_ns, th);
        self.seen = 0;
        self.together.fill(0);
        self.not_bottlenecked.fill(0);
        self.decisions += 1;
        Some(&self.decision)
    }

    /// Adds (or, `add` false, takes away) one observation's groups to the window's counts.
    fn count(&mut self, g: &[u32], add: bool) {
        let n = self.n;
        let step = |c: &mut u16| if add { *c += 1 } else { *c -= 1 };
        for i in 0..n {
            if g[i] == NOT_BOTTLENECKED {
                step(&mut self.not_bottlenecked[i]);
                continue;
            }
            for j in i + 1..n {
                if g[j] == g[i] {
                    step(&mut self.together[i * n + j]);
                }
            }
        }
    }

    /// `sliding`: once `window` observations are in, a decision on the last `window` after
    /// every one.
    fn push_sliding(&mut self, obs: &Observation) -> Option<&Decision> {
        self.history.push_back(obs.groups.clone());
        if self.history.len() > self.p.window {
            let old = self.history.pop_front().expect("more than a window held");
            self.count(&old, false);
        }
        if self.history.len() < self.p.window {
            return None;
        }
        self.decide(obs.time_ns, self.p.threshold as u16);
        self.decisions += 1;
        Some(&self.decision)
    }

    /// `decide_when_certain`: the window's decision once no observation left in it can change
    /// it, then nothing until the window is full, when the next one starts.
    fn push_when_certain(&mut self, time_ns: u64) -> Option<&Decision> {
        let decide = !self.taken && (self.seen == self.p.window || self.outcome_certain());
        if decide {
            self.decide(time_ns, self.p.threshold as u16);
            self.taken = true;
            self.decisions += 1;
        }
        if self.seen == self.p.window {
            self.seen = 0;
            self.together.fill(0);
            self.not_bottlenecked.fill(0);
            self.taken = false;
        }
        decide.then_some(&self.decision)
    }

    /// Whether the decision of the running (full-length) window is certain. With the transitive
    /// merge: every pair's count at or above the threshold or unable to reach it (the groups are
    /// then fixed), and the not-bottlenecked count likewise of each flow left without a partner
    /// (it decides only such a flow's group). With the star merge every count must be fixed.
    fn outcome_certain(&self) -> bool {
        let (n, th, left) = (self.n, self.p.threshold as u16, (self.p.window - self.seen) as u16);
        let fixed = |count: u16| count >= th || count + left < th;
        let pair = |i: usize, j: usize| self.together[i.min(j) * n + i.max(j)];
        let pairs_fixed = (0..n).all(|i| (i + 1..n).all(|j| fixed(pair(i, j))));
        let partnered = |i: usize| self.p.merge == MergeRule::Transitive && (0..n).any(|j| j != i && pair(i, j) >= th);
        pairs_fixed && (0..n).all(|i| partnered(i) || fixed(self.not_bottlenecked[i]))
    }

    /// Starts a short window of `restart_window` observations now, forgetting the observations
    /// of the current one (they describe a bottleneck that changed: the detector restarted its
    /// memory, `SbdParams::change_detect`), and takes the decision as soon as the rest of the
    /// short window could not change it: every pair counted together `threshold` (scaled)
    /// times or unable to reach it, and likewise every flow's count of not bottlenecked. The
    /// window after it is full-length again.
    pub fn restart(&mut self) {
        self.seen = 0;
        self.taken = false;
        self.history.clear();
        self.together.fill(0);
        self.not_bottlenecked.fill(0);
        self.early = true;
    }

    /// Whether no further observation of this window can change its decision.
    fn settled(&self) -> bool {
        let (th, left) = (self.threshold(), self.p.restart_window.saturating_sub(self.seen) as u16);
        let fixed = |count: u16| count >= th || count + left < th;
        let n = self.n;
        (0..n).all(|i| fixed(self.not_bottlenecked[i]) && (i + 1..n).all(|j| fixed(self.together[i * n + j])))
    }

    /// The decision in force (all zeros before the first).
    pub fn current(&self) -> &Decision {
        &self.decision
    }

    pub fn decisions_made(&self) -> u64 {
        self.decisions
    }

    /// The threshold of the window running: [S0]'s, or after a restart scaled to the short
    /// window.
    fn threshold(&self) -> u16 {
        if self.early {
            (self.p.threshold * self.p.restart_window).div_ceil(self.p.window) as u16
        } else {
            self.p.threshold as u16
        }
    }

    fn decide(&mut self, time_ns: u64, th: u16) {
        let n = self.n;
        let out = &mut self.decision.groups;
        self.decision.time_ns = time_ns;
        match self.p.merge {
            MergeRule::Transitive => {
                for i in 0..n {
                    self.parent[i] = i;
                }
                for i in 0..n {
                    for j in i + 1..n {
                        if self.together[i * n + j] >= th {
                            let (a, b) = (find(&mut self.parent, i), find(&mut self.parent, j));
                            self.parent[a.max(b)] = a.min(b);
                        }
                    }
                }
                for (i, slot) in out.iter_mut().enumerate() {
                    let root = find(&mut self.parent, i);
                    let has_partner = (0..n).any(|j| j != i && find(&mut self.parent, j) == root);
                    *slot =
                        if !has_partner && self.not_bottlenecked[i] >= th { NOT_BOTTLENECKED } else { root as u32 + 1 };
                }
            }
            MergeRule::Star => {
                const UNSET: u32 = u32::MAX;
                out.fill(UNSET);
                let mut next = 0;
                for i in 0..n {
                    if out[i] != UNSET {
                        continue;
                    }
                    let id = if self.not_bottlenecked[i] >= th {
                        NOT_BOTTLENECKED
                    } else {
                        next += 1;
                        next
                    };
                    out[i] = id;
                    for (j, slot) in out.iter_mut().enumerate().skip(i + 1) {
                        if self.together[i * n + j] >= th {
                            *slot = id;
                        }
                    }
                }
            }
        }
        canonicalize(out, &mut self.scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(groups: &[u32]) -> Observation {
        Observation { time_ns: 0, groups: groups.to_vec() }
    }

    fn decide(f: &mut DecisionFilter, window: &[&[u32]]) -> Vec<u32> {
        let mut last = None;
        for g in window {
            last = f.push(&obs(g)).map(|d| d.groups.clone());
        }
        last.expect("a decision after a full window")
    }

    #[test]
    fn five_of_ten_groups_four_of_ten_does_not() {
        let mut f = DecisionFilter::new(FilterParams::default(), 2);
        let five: Vec<&[u32]> = [&[1u32, 1][..]; 5].into_iter().chain([&[1u32, 2][..]; 5]).collect();
        assert_eq!(decide(&mut f, &five), [1, 1]);
        let four: Vec<&[u32]> = [&[1u32, 1][..]; 4].into_iter().chain([&[1u32, 2][..]; 6]).collect();
        assert_eq!(decide(&mut f, &four), [1, 2]);
    }

    #[test]
    fn no_decision_before_the_window_is_full_and_it_persists() {
        let mut f = DecisionFilter::new(FilterParams::default(), 2);
        for _ in 0..9 {
            assert!(f.push(&obs(&[1, 1])).is_none());
        }
        assert!(f.push(&obs(&[1, 1])).is_some());
        assert!(f.push(&obs(&[1, 2])).is_none());
        assert_eq!(f.current().groups, [1, 1]);
    }

    #[test]
    fn non_bottlenecked_majority_gives_zero_and_non_bottlenecked_pairs_are_not_together() {
        let mut f = DecisionFilter::new(FilterParams::default(), 3);
        let w: Vec<&[u32]> = [&[0u32, 0, 1][..]; 6].into_iter().chain([&[1u32, 2, 3][..]; 4]).collect();
        assert_eq!(decide(&mut f, &w), [0, 0, 1]);
    }

    #[test]
    fn after_a_restart_the_decision_comes_once_the_window_cannot_change_it() {
        let mut f = DecisionFilter::new(FilterParams { restart_window: 5, ..FilterParams::default() }, 2);
        for _ in 0..7 {
            assert!(f.push(&obs(&[1, 2])).is_none());
        }
        f.restart();
        // Short window of 5, threshold 3: together 3 times fixes it at the third observation.
        for _ in 0..2 {
            assert!(f.push(&obs(&[1, 1])).is_none());
        }
        assert_eq!(f.push(&obs(&[1, 1])).map(|d| d.groups.clone()), Some(vec![1, 1]));
        // The next window is full-length again.
        for _ in 0..9 {
            assert!(f.push(&obs(&[1, 2])).is_none());
        }
        assert_eq!(f.push(&obs(&[1, 2])).map(|d| d.groups.clone()), Some(vec![1, 2]));
        // Apart: fixed once 3 of 5 apart leave no way to 3 together.
        f.restart();
        assert!(f.push(&obs(&[1, 1])).is_none());
        for _ in 0..2 {
            assert!(f.push(&obs(&[1, 2])).is_none());
        }
        assert_eq!(f.push(&obs(&[1, 2])).map(|d| d.groups.clone()), Some(vec![1, 2]));
    }

    #[test]
    fn deciding_when_certain_takes_s0s_decisions_earlier() {
        let certain = FilterParams { decide_when_certain: true, ..FilterParams::default() };
        let mut f = DecisionFilter::new(certain, 2);
        // 5 together of 10 groups ([S0]'s tie): known at the fifth.
        for _ in 0..4 {
            assert!(f.push(&obs(&[1, 1])).is_none());
        }
        assert_eq!(f.push(&obs(&[1, 1])).map(|d| d.groups.clone()), Some(vec![1, 1]));
        for _ in 0..5 {
            assert!(f.push(&obs(&[1, 2])).is_none(), "one decision per window");
        }
        // 6 apart of 10 (both bottlenecked): known at the sixth, not before.
        for _ in 0..5 {
            assert!(f.push(&obs(&[1, 2])).is_none());
        }
        assert_eq!(f.push(&obs(&[1, 2])).map(|d| d.groups.clone()), Some(vec![1, 2]));
        for _ in 0..4 {
            assert!(f.push(&obs(&[1, 1])).is_none());
        }
        // Any stream, 3 flows, both merges: the same decisions as at the windows' ends, in
        // the same windows, never later.
        for merge in [MergeRule::Transitive, MergeRule::Star] {
            let mut s0 = DecisionFilter::new(FilterParams { merge, ..FilterParams::default() }, 3);
            let mut early = DecisionFilter::new(FilterParams { merge, ..certain }, 3);
            let (mut x, mut pending) = (12345u64, None);
            for k in 0..5000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let g = [(x >> 33) % 3, (x >> 40) % 3, (x >> 50) % 3].map(|v| v as u32);
                let o = obs(&g);
                if let Some(d) = early.push(&o) {
                    assert!(pending.is_none(), "two decisions in one window at {k}");
                    pending = Some(d.groups.clone());
                }
                if let Some(d) = s0.push(&o) {
                    assert_eq!(pending.take().as_ref(), Some(&d.groups), "window ending at {k}");
                }
            }
        }
    }

    #[test]
    fn sliding_decides_every_observation_over_the_last_window() {
        let sliding = FilterParams { sliding: true, ..FilterParams::default() };
        let mut f = DecisionFilter::new(sliding, 2);
        for _ in 0..9 {
            assert!(f.push(&obs(&[1, 1])).is_none(), "nothing before a full window");
        }
        assert_eq!(f.push(&obs(&[1, 1])).map(|d| d.groups.clone()), Some(vec![1, 1]));
        // Apart from now on: together while 5 of the last 10 are (a 5/5 tie groups), apart at
        // the sixth apart.
        for k in 1..=6 {
            let d = f.push(&obs(&[1, 2])).map(|d| d.groups.clone());
            assert_eq!(d, Some(if k < 6 { vec![1, 1] } else { vec![1, 2] }), "after {k} apart");
        }
        // Any stream: the decision after observation k is S0's filter on observations k-9..=k.
        let mut f = DecisionFilter::new(sliding, 3);
        let (mut x, mut seen) = (777u64, Vec::new());
        for _ in 0..500 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let o = obs(&[(x >> 33) % 3, (x >> 40) % 3, (x >> 50) % 3].map(|v| v as u32));
            seen.push(o.clone());
            let got = f.push(&o).map(|d| d.groups.clone());
            if seen.len() >= 10 {
                let mut s0 = DecisionFilter::new(FilterParams::default(), 3);
                assert_eq!(got, Some(decide(&mut s0, &seen[seen.len() - 10..].iter().map(|o| &o.groups[..]).collect::<Vec<_>>())));
            }
        }
    }

    #[test]
    fn transitive_versus_star_merge() {
        // 0~1 and 1~2 together 5 times each, 0~2 never.
        let w: Vec<&[u32]> = [&[1u32, 1, 2][..]; 5].into_iter().chain([&[1u32, 2, 2][..]; 5]).collect();
        let mut t = DecisionFilter::new(FilterParams::default(), 3);
        assert_eq!(decide(&mut t, &w), [1, 1, 1]);
        let mut s = DecisionFilter::new(FilterParams { merge: MergeRule::Star, ..FilterParams::default() }, 3);
        // Star: 0 opens group A and takes 1; 2 (unassigned) opens group B alone.
        assert_eq!(decide(&mut s, &w), [1, 1, 2]);
    }
}
