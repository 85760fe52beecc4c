//! The answer detection on captures gives per connection, and whether its own decisions let it give
//! one. The detector decides every few seconds; a researcher asks one question of a capture
//! (do these subflows share a bottleneck?). The answer is the grouping of the connection's
//! subflows that most of its full-window decisions gave (decisions resting on fewer samples
//! than the detector's minimum, `below_min`, do not count), and it is *settled* only when at
//! least `AGREEMENT` of those decisions gave it.
//!
//! Why that rule and that level: the accuracy asked of the tool is that at least 90 % of its
//! decisions be right (docs/pcap.md). When the sharing does not change during the capture,
//! the right grouping is one fixed grouping, so the share of right decisions is at most the
//! share of the most frequent grouping. A connection whose decisions agree in fewer than
//! 90 % of them therefore cannot meet that accuracy whichever grouping is the truth: the
//! tool says it cannot tell, with the counts, instead of naming an answer its own decisions
//! contradict. The rule never withholds an answer that could meet the accuracy (it is a
//! necessary condition, not a fitted threshold), and it cannot catch a detector that is
//! steadily wrong. Where the sharing really changes during the capture (a route change), the
//! answer is unsettled too; the decisions and the timeline show when it changed.

use crate::support::Support;
use pathpool_sbd::Observation;

/// Share of a connection's full-window decisions that must agree for an answer.
pub const AGREEMENT: f64 = 0.9;

/// One connection's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The most frequent grouping of the subflows, one label per subflow in their order:
    /// equal non-zero labels share a bottleneck, 0 = not bottlenecked (labels renumbered by
    /// first appearance, so the same partition always reads the same).
    pub grouping: Vec<u32>,
    /// Decisions counted (none of the connection's subflows below the detector's minimum).
    pub decisions: usize,
    /// Of those, how many gave `grouping`.
    pub agreeing: usize,
    /// The next most frequent grouping and its count, if any decision differed.
    pub runner_up: Option<(Vec<u32>, usize)>,
}

impl Verdict {
    pub fn settled(&self) -> bool {
        self.decisions > 0 && self.agreeing as f64 >= AGREEMENT * self.decisions as f64
    }

    /// Why the tool cannot tell, or None when it can.
    pub fn why_not(&self) -> Option<String> {
        if self.decisions == 0 {
            return Some("no decision rests on the detector's minimum of samples (decisions.csv below_min)".into());
        }
        if self.settled() {
            return None;
        }
        let other = self.runner_up.as_ref().map_or(0, |r| r.1);
        Some(format!(
            "its decisions disagree: the most frequent grouping in {} of {} full-window decisions ({:.1} %), the next in {other}; below {:.0} % no answer can be right in {:.0} % of decisions",
            self.agreeing,
            self.decisions,
            100.0 * self.agreeing as f64 / self.decisions as f64,
            100.0 * AGREEMENT,
            100.0 * AGREEMENT
        ))
    }
}

/// Renumbers labels by first appearance, keeping 0 (not bottlenecked) as 0.
fn canonical(labels: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut seen: Vec<u32> = Vec::new();
    labels
        .map(|g| {
            if g == 0 {
                return 0;
            }
            match seen.iter().position(|&x| x == g) {
                Some(k) => k as u32 + 1,
                None => {
                    seen.push(g);
                    seen.len() as u32
                }
            }
        })
        .collect()
}

/// The verdict on `subflows` (indices into each decision's groups) from `decisions` and what
/// each rests on (`support[k][i]`, decision k, subflow i).
pub fn verdict(subflows: &[usize], decisions: &[Observation], support: &[Vec<Support>]) -> Verdict {
    let mut counts: Vec<(Vec<u32>, usize)> = Vec::new();
    let mut total = 0;
    for (d, s) in decisions.iter().zip(support) {
        if subflows.iter().any(|&i| s[i].below_min) {
            continue;
        }
        total += 1;
        let g = canonical(subflows.iter().map(|&i| d.groups[i]));
        match counts.iter_mut().find(|(x, _)| *x == g) {
            Some((_, k)) => *k += 1,
            None => counts.push((g, 1)),
        }
    }
    // Most frequent first; ties by first appearance (a stable sort), so the result is the same
    // on every run.
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    let mut it = counts.into_iter();
    let (grouping, agreeing) = it.next().unwrap_or_default();
    Verdict { grouping, decisions: total, agreeing, runner_up: it.next() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(groups: &[u32]) -> Observation {
        Observation { time_ns: 0, groups: groups.to_vec() }
    }

    fn full(n: usize) -> Vec<Support> {
        vec![Support { samples: 100, intervals: 50, below_min: false }; n]
    }

    #[test]
    fn the_answer_is_the_most_frequent_grouping_and_settled_only_at_the_agreement_asked() {
        // 9 of 10 decisions put both subflows together (under other labels too): settled.
        let mut d: Vec<Observation> = (0..9).map(|k| obs(&[k + 1, k + 1])).collect();
        d.push(obs(&[1, 2]));
        let s = vec![full(2); 10];
        let v = verdict(&[0, 1], &d, &s);
        assert_eq!((v.grouping.clone(), v.decisions, v.agreeing), (vec![1, 1], 10, 9));
        assert_eq!(v.runner_up, Some((vec![1, 2], 1)));
        assert!(v.settled() && v.why_not().is_none());
        // One more split decision: 9 of 11 agree (81.8 %), no grouping can be right in 90 %.
        d.push(obs(&[3, 4]));
        let s = vec![full(2); 11];
        let v = verdict(&[0, 1], &d, &s);
        assert!(!v.settled());
        let why = v.why_not().unwrap();
        assert!(why.contains("9 of 11") && why.contains("the next in 2"), "{why}");
    }

    #[test]
    fn decisions_below_the_minimum_do_not_count_and_other_subflows_do_not_matter() {
        let d = vec![obs(&[1, 2, 0]), obs(&[1, 1, 2]), obs(&[2, 2, 1])];
        let mut s = vec![full(3); 3];
        s[0][1].below_min = true;
        // Subflows 0 and 1 only: the first decision is not counted; subflow 2 is ignored.
        let v = verdict(&[0, 1], &d, &s);
        assert_eq!((v.grouping, v.decisions, v.agreeing, v.runner_up), (vec![1, 1], 2, 2, None));
        let none = verdict(&[0, 1], &d[..1], &s[..1]);
        assert!(!none.settled() && none.why_not().unwrap().contains("below_min"));
    }

    #[test]
    fn not_bottlenecked_stays_apart_from_every_group() {
        assert_eq!(canonical([0, 7, 7, 3, 0].into_iter()), vec![0, 1, 1, 2, 0]);
    }
}
