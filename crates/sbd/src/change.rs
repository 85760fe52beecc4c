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
}

/// The co-movement that divides "moving together" from "not" in the reference window.
const REFERENCE_SPLIT: f64 = 0.5;

/// Scratch and per-flow state of the change test.
#[derive(Clone, Debug)]
pub struct ChangeDetector {
    /// Intervals since each flow's memory was last restarted (or since the start).
    held: Vec<usize>,
    restarts: u64,
}

impl ChangeDetector {
    pub fn new(n_flows: usize) -> Self {
        ChangeDetector { held: vec![0; n_flows], restarts: 0 }
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
    /// Marks in `fired` the flows whose memory must restart and returns whether any does.
    pub fn test<'a>(
        &mut self,
        p: &ChangeParams,
        head: usize,
        ring: impl Fn(usize) -> &'a [f64],
        mean: impl Fn(usize) -> f64,
        fired: &mut [bool],
    ) -> bool {
        let n = self.held.len();
        fired.fill(false);
        for h in self.held.iter_mut() {
            *h += 1;
        }
        for a in 0..n {
            for b in a + 1..n {
                let (ra, rb) = (ring(a), ring(b));
                let len = ra.len();
                let common = self.held[a].min(self.held[b]).min(len);
                if common < 2 * p.window {
                    continue;
                }
                let (ma, mb) = (mean(a), mean(b));
                let recent = comovement(ra, rb, ma, mb, head, 0, p.window);
                let reference = comovement(ra, rb, ma, mb, head, p.window, common);
                let (Some(recent), Some(reference)) = (recent, reference) else { continue };
                let changed =
                    if reference >= REFERENCE_SPLIT { recent < p.low } else { recent >= p.high };
                if changed {
                    fired[a] = true;
                    fired[b] = true;
                }
            }
        }
        let mut any = false;
        for (i, &f) in fired.iter().enumerate() {
            if f {
                self.held[i] = p.window;
                self.restarts += 1;
                any = true;
            }
        }
        any
    }
}

/// Co-movement of the two rings over ages `from..to` (0 = newest at `head`), deviations from
/// `ma` and `mb`; None without a non-zero deviation or with fewer than 2 common intervals.
fn comovement(x: &[f64], y: &[f64], ma: f64, mb: f64, head: usize, from: usize, to: usize) -> Option<f64> {
    let n = x.len();
    let (mut num, mut den, mut k) = (0.0, 0.0, 0);
    for age in from..to.min(n) {
        let i = (head + n - age) % n;
        let (u, v) = (x[i] - ma, y[i] - mb);
        if u.is_nan() || v.is_nan() {
            continue;
        }
        num += 2.0 * u * v;
        den += u * u + v * v;
        k += 1;
    }
    (k >= 2 && den > 0.0).then(|| num / den)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: ChangeParams = ChangeParams { window: 8, low: 0.3, high: 0.95 };

    /// Runs the test over two series interval by interval; returns the intervals it fired at.
    fn fires(x: &[f64], y: &[f64]) -> Vec<usize> {
        let n = 50;
        let mut cd = ChangeDetector::new(2);
        let (mut rx, mut ry) = (vec![f64::NAN; n], vec![f64::NAN; n]);
        let mut fired = [false; 2];
        let mut out = Vec::new();
        for k in 0..x.len() {
            let head = k % n;
            rx[head] = x[k];
            ry[head] = y[k];
            let mean = |r: &[f64]| {
                let v: Vec<f64> = r.iter().copied().filter(|v| !v.is_nan()).collect();
                v.iter().sum::<f64>() / v.len() as f64
            };
            let (mx, my) = (mean(&rx), mean(&ry));
            if cd.test(&P, head, |i| if i == 0 { &rx } else { &ry }, |i| if i == 0 { mx } else { my }, &mut fired) {
                out.push(k);
                // What Rfc8382Detector does: keep only the recent window.
                for age in P.window..n {
                    rx[(head + n - age) % n] = f64::NAN;
                    ry[(head + n - age) % n] = f64::NAN;
                }
            }
        }
        out
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
    fn comovement_is_one_for_equal_and_minus_one_for_opposite_deviations() {
        let x = [1.0, -2.0, 3.0, 0.5];
        let y = [2.0, -1.0, 4.0, 1.5];
        let z = [-1.0, 2.0, -3.0, -0.5];
        assert!((comovement(&x, &y, 0.0, 1.0, 3, 0, 4).unwrap() - 1.0).abs() < 1e-12);
        assert!((comovement(&x, &z, 0.0, 0.0, 3, 0, 4).unwrap() + 1.0).abs() < 1e-12);
    }
}
