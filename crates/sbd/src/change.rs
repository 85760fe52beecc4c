//! Bottleneck-change detector: an extension, not part of RFC 8382 or [S0]. The RFC 8382
//! statistics span N·T = 17.5 s of history, so after a bottleneck moves the old regime
//! dominates them for many seconds ([S0] §IV-C3 measured 7 s until a correct decision). This
//! module watches, for every pair of flows, whether their per-interval mean delays E_T move
//! together, in a short recent window against the reference of everything before it since the
//! pair's memory was last restarted (a two-window test). When a pair that moved together stops
//! doing so, or a pair that did not starts, both flows' bottleneck has changed: the detector
//! restarts their memory (`Rfc8382Detector` keeps only the recent window).
//!
//! Why pairs and not each flow's own level or spread: when the load moves from a shared link
//! to one link per flow (S0's shifting bottleneck) each flow still sees a drop-tail queue of
//! about the same depth, so its mean delay, MAD and skew barely move (docs/sbd.md, "Faster
//! transitions"); what changes is whose queue it is, which only the pair shows.
//!
//! The co-movement of two series over a set of intervals is `2 Σuv / Σ(u² + v²)`, u and v
//! each flow's E_T minus its current mean_delay: 1 when the deviations are equal, about 0
//! when independent, -1 when opposite (Lin's concordance of the deviations, Biometrics 45(1),
//! 1989; the two-window test as in Basseville and Nikiforov, "Detection of Abrupt Changes",
//! 1993). It uses only the rings the detector already keeps; O(pairs × N) per interval,
//! nothing per sample.
//!
//! Behind one queue the difference of two flows' deviations is sampling noise; behind two
//! queues it carries each queue's own part, even while their swings are in step (as after
//! [S0]'s shift, where the cross traffic starts on both new links at once and the co-movement
//! stays near 0.9 for seconds). So a pair moving together also changes when the discord of the
//! recent window, `Σ w (u − v)²` per interval, grows to `discord` times the reference's (a
//! variance-ratio test on the difference; w = n_a n_b / (n_a + n_b) makes intervals of few
//! samples count no more than the noise of their means). With `keep_stats` such a pair
//! *parts*: only its correlation memory restarts, RFC 8382's statistics are kept, and the
//! correlation split holds it apart until the discord is back near its old level
//! ([`PARTED_CLEAR`]) or the pair moves together again.
//!
//! Three rules keep it quiet on stationary bottlenecks (docs/sbd.md, "Choosing the change
//! test", measured on [S0]'s SB-n): the recent window is judged only when it carries a share
//! of the reference's energy (a quiet spell behind one queue has a low co-movement by chance),
//! the change must hold for `confirm` consecutive intervals, and a change restarts every flow
//! grouped with the pair (a group's statistics stay of one age, so freq_est does not split a
//! half-restarted group).

/// Parameters of the change test (set through `SbdParams`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChangeParams {
    /// Intervals in the recent window (also what a restart keeps).
    pub window: usize,
    /// A pair whose reference co-movement is at least 0.5 changes when the recent window's
    /// falls below this.
    pub low: f64,
    /// A pair whose reference co-movement is below 0.5 changes when the recent window's
    /// reaches this.
    pub high: f64,
    /// The recent window is judged only when its deviations carry at least this share of the
    /// reference's energy per interval.
    pub energy: f64,
    /// A pair moving together also changes when the discord of its recent window (the
    /// energy per interval of the difference of deviations, `Σ w (u − v)² / k`, w weighing
    /// each interval by its sample counts) reaches this multiple of the reference's (0: off).
    pub discord: f64,
    /// Consecutive intervals the change must hold before the memory restarts.
    pub confirm: usize,
    /// Restart also every flow grouped (in the last observation) with a flow of a changed
    /// pair: the group is learned again as a whole.
    pub whole_groups: bool,
    /// A pair that stopped moving together restarts only its correlation memory: its RFC 8382
    /// statistics are kept, and the correlation split judges it on the intervals since.
    pub keep_stats: bool,
}

/// What a change restarts for one flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Restart {
    #[default]
    None,
    /// Only the intervals since count for the flow's correlations (`held`).
    Correlation,
    /// Everything but the recent window is forgotten.
    Full,
}

/// The co-movement that divides "moving together" from "not" in the reference window.
const REFERENCE_SPLIT: f64 = 0.5;

/// A parted pair comes together again when its recent discord falls below this multiple of
/// the discord it had before it parted (hysteresis below the `discord` ratio that parts it).
pub const PARTED_CLEAR: f64 = 2.0;

/// Scratch and per-flow state of the change test.
#[derive(Clone, Debug)]
pub struct ChangeDetector {
    /// Intervals since each flow's memory was last restarted (or since the start).
    held: Vec<usize>,
    /// Per pair (a * n + b, a < b): consecutive intervals the change test has held.
    streak: Vec<u16>,
    /// Per pair: the reference discord when the pair was found to have parted (`keep_stats`);
    /// NaN while it is not parted.
    parted: Vec<f64>,
    restarts: u64,
}

impl ChangeDetector {
    pub fn new(n_flows: usize) -> Self {
        ChangeDetector { held: vec![0; n_flows], streak: vec![0; n_flows * n_flows], parted: vec![f64::NAN; n_flows * n_flows], restarts: 0 }
    }

    /// Has the pair parted (stopped moving together) and not come together since?
    pub fn parted(&self, a: usize, b: usize) -> bool {
        let n = self.held.len();
        !self.parted[a.min(b) * n + a.max(b)].is_nan()
    }

    /// Intervals closed since `flow`'s memory was last restarted (the window kept counts).
    pub fn held(&self, flow: usize) -> usize {
        self.held[flow]
    }

    /// Memory restarts so far (each flow restarted counts once).
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// Called once per closed interval, after every flow's ring got its newest E_T at `head`.
    /// `ring(i)` is flow i's ring of interval means (NaN = empty), `mean(i)` its mean_delay.
    /// Marks in `fired` the flows whose memory must restart, and how, and returns whether any
    /// does. `groups` is the last observation's grouping (0 = not bottlenecked).
    #[allow(clippy::too_many_arguments)]
    pub fn test<'a>(
        &mut self,
        p: &ChangeParams,
        head: usize,
        groups: &[u32],
        ring: impl Fn(usize) -> &'a [f64],
        samples: impl Fn(usize) -> &'a [u32],
        mean: impl Fn(usize) -> f64,
        fired: &mut [Restart],
    ) -> bool {
        let n = self.held.len();
        fired.fill(Restart::None);
        for h in self.held.iter_mut() {
            *h += 1;
        }
        for a in 0..n {
            for b in a + 1..n {
                let (ra, rb) = (ring(a), ring(b));
                let (na, nb) = (samples(a), samples(b));
                let len = ra.len();
                let common = self.held[a].min(self.held[b]).min(len);
                let parted = &mut self.parted[a * n + b];
                if !parted.is_nan() {
                    // Parted until the difference is as quiet as behind one queue again.
                    let recent = comovement(ra, rb, na, nb, mean(a), mean(b), head, 0, p.window.min(common));
                    if recent.is_some_and(|r| r.discord < PARTED_CLEAR * *parted) {
                        *parted = f64::NAN;
                    }
                }
                let was_parted = !parted.is_nan();
                let streak = &mut self.streak[a * n + b];
                if common < 2 * p.window {
                    *streak = 0;
                    continue;
                }
                let (ma, mb) = (mean(a), mean(b));
                let recent = comovement(ra, rb, na, nb, ma, mb, head, 0, p.window);
                let reference = comovement(ra, rb, na, nb, ma, mb, head, p.window, common);
                let (Some(recent), Some(reference)) = (recent, reference) else {
                    *streak = 0;
                    continue;
                };
                let loud = recent.energy >= p.energy * reference.energy;
                // A pair that moved together changes when it stops (a pair already parted
                // cannot part again); a pair apart changes when it starts.
                let moved_together = reference.value >= REFERENCE_SPLIT;
                let changed = if moved_together {
                    !was_parted
                        && ((loud && recent.value < p.low) || (p.discord > 0.0 && recent.discord >= p.discord * reference.discord))
                } else {
                    loud && recent.value >= p.high
                };
                *streak = if changed { streak.saturating_add(1) } else { 0 };
                if *streak as usize >= p.confirm {
                    let kind = if moved_together && p.keep_stats { Restart::Correlation } else { Restart::Full };
                    self.parted[a * n + b] = if moved_together && p.keep_stats { reference.discord } else { f64::NAN };
                    // A pair the last observation did not group is already decided apart:
                    // parting it is no news, and restarting would only shorten its flows'
                    // other correlations.
                    let grouped = groups.get(a).is_some_and(|&g| g != 0 && groups.get(b) == Some(&g));
                    if kind == Restart::Full || grouped {
                        fired[a] = fired[a].max(kind);
                        fired[b] = fired[b].max(kind);
                    } else {
                        *streak = 0;
                    }
                }
            }
        }
        if p.whole_groups {
            // Whole groups keep their statistics of one age: only full restarts spread.
            for i in 0..n {
                let g = groups.get(i).copied().unwrap_or(0);
                if fired[i] != Restart::Full && g != 0 && (0..n).any(|j| fired[j] == Restart::Full && groups.get(j) == Some(&g)) {
                    fired[i] = Restart::Full;
                }
            }
        }
        let mut any = false;
        for (i, &f) in fired.iter().enumerate() {
            if f != Restart::None {
                self.held[i] = p.window;
                for j in 0..n {
                    let (a, b) = (i.min(j), i.max(j));
                    self.streak[a * n + b] = 0;
                }
                self.restarts += 1;
                any = true;
            }
        }
        any
    }
}

/// A co-movement and the energy per interval, `Σ(u² + v²) / k`, it was computed from.
#[derive(Clone, Copy, Debug)]
struct Comovement {
    value: f64,
    energy: f64,
    /// `Σ w (u − v)² / k`, each interval weighted by its sample counts: what keeps the
    /// co-movement below 1.
    discord: f64,
}

/// Co-movement of the two rings over ages `from..to` (0 = newest at `head`), deviations from
/// `ma` and `mb`; None without a non-zero deviation or with fewer than 2 common intervals.
/// `nx`, `ny` are the rings' sample counts, which weight the discord (below).
#[allow(clippy::too_many_arguments)]
fn comovement(x: &[f64], y: &[f64], nx: &[u32], ny: &[u32], ma: f64, mb: f64, head: usize, from: usize, to: usize) -> Option<Comovement> {
    let n = x.len();
    let (mut num, mut den, mut dis, mut k) = (0.0, 0.0, 0.0, 0);
    for age in from..to.min(n) {
        let i = (head + n - age) % n;
        let (u, v) = (x[i] - ma, y[i] - mb);
        if u.is_nan() || v.is_nan() {
            continue;
        }
        num += 2.0 * u * v;
        den += u * u + v * v;
        // Behind one queue u - v is the sampling noise of two interval means, of variance
        // s^2 (1/n_x + 1/n_y) for a spread s of the samples: weighted by the inverse of that
        // factor, an interval where one flow had few samples (a window cut after a loss)
        // counts as much as any other, while two queues' own parts, which do not shrink with
        // the samples, weigh the more the more samples show them.
        let (a, b) = (nx[i].max(1) as f64, ny[i].max(1) as f64);
        dis += (u - v) * (u - v) * a * b / (a + b);
        k += 1;
    }
    (k >= 2 && den > 0.0).then(|| Comovement { value: num / den, energy: den / k as f64, discord: dis / k as f64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: ChangeParams = ChangeParams { window: 8, low: 0.3, high: 0.95, energy: 0.0, discord: 0.0, confirm: 1, whole_groups: false, keep_stats: false };

    /// Runs the test over two series interval by interval; returns the intervals it fired at.
    fn fires(x: &[f64], y: &[f64]) -> Vec<usize> {
        run(&P, &[x.to_vec(), y.to_vec()], &[1, 1]).into_iter().map(|(k, _)| k).collect()
    }

    /// Runs the test over the series (one per flow), the last observation's grouping fixed at
    /// `groups`; returns each interval it fired at with the flows it restarted.
    fn run(p: &ChangeParams, series: &[Vec<f64>], groups: &[u32]) -> Vec<(usize, Vec<Restart>)> {
        trace(p, series, groups).0
    }

    /// [`run`], and whether flows 0 and 1 were parted after each interval.
    fn trace(p: &ChangeParams, series: &[Vec<f64>], groups: &[u32]) -> (Vec<(usize, Vec<Restart>)>, Vec<bool>) {
        let (n, flows) = (50, series.len());
        let mut parted = Vec::new();
        let mut cd = ChangeDetector::new(flows);
        let mut rings = vec![vec![f64::NAN; n]; flows];
        let mut fired = vec![Restart::None; flows];
        let counts = vec![50; n];
        let mut out = Vec::new();
        for k in 0..series[0].len() {
            let head = k % n;
            for (r, s) in rings.iter_mut().zip(series) {
                r[head] = s[k];
            }
            let means: Vec<f64> = rings
                .iter()
                .map(|r| {
                    let v: Vec<f64> = r.iter().copied().filter(|v| !v.is_nan()).collect();
                    v.iter().sum::<f64>() / v.len() as f64
                })
                .collect();
            if cd.test(p, head, groups, |i| &rings[i], |_| &counts, |i| means[i], &mut fired) {
                out.push((k, fired.clone()));
                // What Rfc8382Detector does: restarted flows keep only the recent window.
                for (r, _) in rings.iter_mut().zip(&fired).filter(|(_, &f)| f == Restart::Full) {
                    for age in p.window..n {
                        r[(head + n - age) % n] = f64::NAN;
                    }
                }
            }
            parted.push(cd.parted(0, 1));
        }
        (out, parted)
    }

    /// Two series behind one queue (a common swing and a little sampling noise each) for
    /// `together` intervals, then behind two queues whose swings are still in step (each adds
    /// an independent part of `own` times the swing's size) until `until`, then together again.
    fn in_step(together: usize, until: usize, own: f64) -> [Vec<f64>; 2] {
        let part = |k: usize, a: usize, b: usize| if (together..until).contains(&k) { own } else { 0.02 } * wiggle(k, a, b);
        [
            (0..until + 40).map(|k| wiggle(k, 37, 11) + part(k, 29, 13)).collect(),
            (0..until + 40).map(|k| wiggle(k, 37, 11) + part(k, 7, 17)).collect(),
        ]
    }

    #[test]
    fn queues_whose_swings_stay_in_step_part_by_their_discord() {
        let [x, y] = in_step(60, 110, 0.3);
        // The co-movement stays near 0.9: the co-movement test alone never fires.
        assert!(run(&P, &[x.clone(), y.clone()], &[1, 1]).iter().all(|(k, _)| *k >= 110), "{:?}", run(&P, &[x.clone(), y.clone()], &[1, 1]));
        let f = run(&ChangeParams { discord: 10.0, ..P }, &[x, y], &[1, 1]);
        assert!(!f.is_empty() && f[0].0 >= 60 && f[0].0 < 60 + P.window, "{f:?}");
    }

    #[test]
    fn a_parted_pair_keeps_its_statistics_is_held_apart_and_comes_together_again() {
        let [x, y] = in_step(60, 110, 0.3);
        let p = ChangeParams { discord: 10.0, keep_stats: true, ..P };
        let (f, parted) = trace(&p, &[x.clone(), y.clone()], &[1, 1]);
        let first = f[0].0;
        assert_eq!(f[0].1, [Restart::Correlation, Restart::Correlation], "{f:?}");
        // Parted from the change to the end of the separate spell (no second restart there),
        // together again within a window after it.
        assert!(parted[first..110].iter().all(|&p| p), "{parted:?}");
        assert!(!f.iter().any(|(k, _)| (first + 1..110).contains(k)), "{f:?}");
        assert!(!parted[110 + P.window], "{parted:?}");
        // A pair the last observation did not group is only marked: nothing restarts.
        let (f, parted) = trace(&p, &[x, y], &[1, 2]);
        assert!(f.iter().all(|(k, _)| *k >= 110), "{f:?}");
        assert!(parted[first]);
    }

    fn wiggle(k: usize, a: usize, b: usize) -> f64 {
        ((k * a) % b) as f64 - (b as f64 - 1.0) / 2.0
    }

    #[test]
    fn a_shared_queue_that_splits_fires_soon_after_and_only_then() {
        // 60 intervals moving together, then 60 independent.
        let x: Vec<f64> = (0..120).map(|k| wiggle(k, 37, 11)).collect();
        let y: Vec<f64> = (0..120).map(|k| if k < 60 { wiggle(k, 37, 11) } else { wiggle(k, 29, 13) }).collect();
        let f = fires(&x, &y);
        assert!(!f.is_empty() && f[0] >= 60 && f[0] <= 60 + P.window, "{f:?}");
    }

    #[test]
    fn independent_queues_that_merge_fire_and_steady_ones_do_not() {
        let x: Vec<f64> = (0..120).map(|k| wiggle(k, 37, 11)).collect();
        // Behind one queue both see the same queueing delay (at the level they had: deviations
        // are taken from each flow's mean_delay, so a level shift at the same time would
        // weaken the test until the mean catches up).
        let y: Vec<f64> = (0..120).map(|k| if k < 60 { wiggle(k, 29, 13) } else { x[k] }).collect();
        let f = fires(&x, &y);
        assert!(!f.is_empty() && f[0] >= 60 && f[0] <= 60 + P.window, "{f:?}");
        assert!(fires(&x, &x).is_empty());
    }

    #[test]
    fn a_quiet_spell_behind_one_queue_is_not_a_change_when_energy_is_required() {
        // Together with a swing of about 10, then 16 intervals where the common swing is 0.2
        // and each flow has its own noise of 0.6: the co-movement drops, but so does the energy.
        let x: Vec<f64> = (0..76).map(|k| if k < 60 { wiggle(k, 37, 11) } else { 0.02 * wiggle(k, 37, 11) + 0.1 * wiggle(k, 5, 7) }).collect();
        let y: Vec<f64> = (0..76).map(|k| if k < 60 { wiggle(k, 37, 11) } else { 0.02 * wiggle(k, 37, 11) + 0.1 * wiggle(k, 3, 13) }).collect();
        assert!(!fires(&x, &y).is_empty(), "without the energy rule the quiet spell fires");
        let gated = ChangeParams { energy: 0.5, ..P };
        assert!(run(&gated, &[x, y], &[1, 1]).is_empty());
    }

    #[test]
    fn a_change_must_hold_confirm_intervals() {
        let x: Vec<f64> = (0..120).map(|k| wiggle(k, 37, 11)).collect();
        let y: Vec<f64> = (0..120).map(|k| if k < 60 { wiggle(k, 37, 11) } else { wiggle(k, 29, 13) }).collect();
        let once = run(&P, &[x.clone(), y.clone()], &[1, 1])[0].0;
        let twice = run(&ChangeParams { confirm: 2, ..P }, &[x, y], &[1, 1])[0].0;
        assert_eq!(twice, once + 1);
    }

    #[test]
    fn whole_groups_restart_every_flow_grouped_with_a_changed_pair() {
        // x and y move together, then split; z never moves with either but was grouped with them.
        let x: Vec<f64> = (0..120).map(|k| wiggle(k, 37, 11)).collect();
        let y: Vec<f64> = (0..120).map(|k| if k < 60 { wiggle(k, 37, 11) } else { wiggle(k, 29, 13) }).collect();
        let z: Vec<f64> = (0..120).map(|k| wiggle(k, 7, 17)).collect();
        let series = [x, y, z];
        let pair = run(&P, &series, &[1, 1, 1]);
        use Restart::{Full, None};
        assert_eq!(pair[0].1, [Full, Full, None], "{pair:?}");
        let group = run(&ChangeParams { whole_groups: true, ..P }, &series, &[1, 1, 1]);
        assert_eq!(group[0].1, [Full, Full, Full]);
        // Not grouped with them in the last observation: z keeps its memory.
        assert_eq!(run(&ChangeParams { whole_groups: true, ..P }, &series, &[1, 1, 2])[0].1, [Full, Full, None]);
    }

    #[test]
    fn comovement_is_one_for_equal_and_minus_one_for_opposite_deviations() {
        let x = [1.0, -2.0, 3.0, 0.5];
        let y = [2.0, -1.0, 4.0, 1.5];
        let z = [-1.0, 2.0, -3.0, -0.5];
        let n = [10; 4];
        assert!((comovement(&x, &y, &n, &n, 0.0, 1.0, 3, 0, 4).unwrap().value - 1.0).abs() < 1e-12);
        assert!((comovement(&x, &z, &n, &n, 0.0, 0.0, 3, 0, 4).unwrap().value + 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_discord_weighs_each_interval_by_its_sample_counts() {
        // The same differences: an interval where one flow had 2 samples (a mean that noisy)
        // adds less than one where both had 50.
        let (x, y) = ([1.0, -1.0, 3.0], [0.0, 0.0, 0.0]);
        let few = comovement(&x, &y, &[50, 2, 50], &[50, 50, 50], 0.0, 0.0, 2, 0, 3).unwrap();
        let many = comovement(&x, &y, &[50, 50, 50], &[50, 50, 50], 0.0, 0.0, 2, 0, 3).unwrap();
        // Weights n_a n_b / (n_a + n_b): 25 each, and 50 * 2 / 52 for the sparse interval.
        assert!((many.discord - 25.0 * 11.0 / 3.0).abs() < 1e-9);
        assert!((few.discord - (25.0 * 10.0 + 100.0 / 52.0) / 3.0).abs() < 1e-9);
    }
}
