//! Delay-correlation split: an optional step after RFC 8382's grouping, not part of RFC 8382
//! or [S0]. RFC 8382 groups flows whose delay *statistics* are alike; it has no test that
//! their delays move *together*, so separate bottlenecks with alike statistics are merged
//! (docs/validation.md, "Why separate bottlenecks are merged"). Flows behind one queue see
//! its queueing delay rise and fall at the same times, so their per-interval mean delays E_T
//! are strongly correlated; flows behind independent queues are not. This step keeps two flows
//! of a group together only if the E_T series of the last N intervals correlate at least
//! `corr_min` (the idea of Rubenstein, Kurose, Towsley, "Detecting shared congestion of flows
//! via end-to-end measurement", IEEE/ACM ToN 10(3), 2002, applied to RFC 8382's E_T).
//!
//! The correlation is the partial correlation given time (the Pearson correlation of the
//! series after removing each one's least-squares line), so a common clock drift, which
//! shifts every flow's relative OWD alike, does not pass for a shared queue. Groups are the
//! connected components of the "correlated" relation inside each RFC 8382 group. A pair with
//! fewer than [`MIN_COMMON`] intervals in which both flows have samples, or with a series that
//! is flat after detrending, has no evidence against sharing and stays together.

use crate::observation::{canonicalize, NOT_BOTTLENECKED};
use crate::union_find::find;

/// Fewest intervals with a mean of both flows for a pair to be judged.
pub const MIN_COMMON: usize = 10;

/// Scratch space for [`CorrelationSplit::apply`], sized once for a number of flows.
#[derive(Clone, Debug)]
pub struct CorrelationSplit {
    parent: Vec<usize>,
    scratch: Vec<u32>,
}

impl CorrelationSplit {
    pub fn new(n_flows: usize) -> Self {
        CorrelationSplit { parent: (0..n_flows).collect(), scratch: vec![0; n_flows + 1] }
    }

    /// Splits every group of `groups` (canonical labels, 0 = not bottlenecked) into the
    /// components of "E_T series correlate at least `corr_min`". `series(i)` is flow i's ring
    /// of interval means (NaN = no samples); all rings have the same length, and the oldest
    /// interval is at index `oldest` in each.
    pub fn apply<'a>(&mut self, groups: &mut [u32], corr_min: f64, oldest: usize, series: impl Fn(usize) -> &'a [f64]) {
        self.apply_with(groups, corr_min, MIN_COMMON, oldest, series, |_| usize::MAX, |_, _| false)
    }

    /// [`CorrelationSplit::apply`] judging pairs from `min_common` common intervals on (the
    /// change detector lowers it to its window: after a memory restart only that many remain),
    /// each pair on its `held(a).min(held(b))` newest intervals only (the change detector's
    /// intervals since a flow's last restart).
    pub fn apply_with<'a>(
        &mut self,
        groups: &mut [u32],
        corr_min: f64,
        min_common: usize,
        oldest: usize,
        series: impl Fn(usize) -> &'a [f64],
        held: impl Fn(usize) -> usize,
        parted: impl Fn(usize, usize) -> bool,
    ) {
        let n = groups.len();
        for i in 0..n {
            self.parent[i] = i;
        }
        for a in 0..n {
            if groups[a] == NOT_BOTTLENECKED {
                continue;
            }
            for b in a + 1..n {
                if groups[b] != groups[a] {
                    continue;
                }
                let newest = held(a).min(held(b));
                let keep = !parted(a, b) && correlation_newest(series(a), series(b), oldest, min_common, newest).is_none_or(|r| r >= corr_min);
                if keep {
                    let (ra, rb) = (find(&mut self.parent, a), find(&mut self.parent, b));
                    self.parent[ra.max(rb)] = ra.min(rb);
                }
            }
        }
        for i in 0..n {
            if groups[i] != NOT_BOTTLENECKED {
                // Components never span groups, so the root names one; canonicalize renumbers.
                groups[i] = (find(&mut self.parent, i) + 1) as u32;
            }
        }
        canonicalize(groups, &mut self.scratch);
    }
}

/// Partial correlation of the rings `x` and `y` given time, over the intervals where both
/// are defined; the oldest interval is at index `oldest`. `None` if fewer than
/// [`MIN_COMMON`] such intervals or a series is flat after its trend is removed.
pub fn detrended_correlation(x: &[f64], y: &[f64], oldest: usize) -> Option<f64> {
    correlation_from(x, y, oldest, MIN_COMMON)
}

/// [`detrended_correlation`] with at least `min_common` (>= 3) common intervals.
pub fn correlation_from(x: &[f64], y: &[f64], oldest: usize, min_common: usize) -> Option<f64> {
    correlation_newest(x, y, oldest, min_common, usize::MAX)
}

/// [`correlation_from`] over the `newest` most recent intervals of the rings only.
pub fn correlation_newest(x: &[f64], y: &[f64], oldest: usize, min_common: usize, newest: usize) -> Option<f64> {
    let (mut k, mut st, mut stt, mut sx, mut sy, mut sxx, mut syy, mut sxy, mut stx, mut sty) =
        (0usize, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    // Centre each series on its first common value: the relative OWD carries an arbitrary
    // offset, and large offsets would cost precision in the sums of squares.
    let mut x0 = f64::NAN;
    let mut y0 = f64::NAN;
    let n = x.len().min(y.len());
    for t in n.saturating_sub(newest)..n {
        let (a, b) = (x[(oldest + t) % n], y[(oldest + t) % n]);
        if a.is_nan() || b.is_nan() {
            continue;
        }
        if x0.is_nan() {
            (x0, y0) = (a, b);
        }
        let (t, a, b) = (t as f64, a - x0, b - y0);
        k += 1;
        st += t;
        stt += t * t;
        sx += a;
        sy += b;
        sxx += a * a;
        syy += b * b;
        sxy += a * b;
        stx += t * a;
        sty += t * b;
    }
    if k < min_common.max(3) {
        return None;
    }
    let kf = k as f64;
    let cov = |s_ab: f64, s_a: f64, s_b: f64| s_ab - s_a * s_b / kf;
    let (vt, vx, vy) = (cov(stt, st, st), cov(sxx, sx, sx), cov(syy, sy, sy));
    let (cxy, ctx, cty) = (cov(sxy, sx, sy), cov(stx, st, sx), cov(sty, st, sy));
    // Residual (co)variances after regressing on t.
    let rxx = vx - ctx * ctx / vt;
    let ryy = vy - cty * cty / vt;
    let rxy = cxy - ctx * cty / vt;
    let floor = 1e-12 * (vx.abs() + vy.abs()) + f64::MIN_POSITIVE;
    if !(vt > 0.0 && rxx > floor && ryy > floor) {
        return None;
    }
    Some((rxy / (rxx * ryy).sqrt()).clamp(-1.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pearson(x: &[f64], y: &[f64]) -> f64 {
        let n = x.len() as f64;
        let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
        let c: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
        let vx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
        let vy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
        c / (vx * vy).sqrt()
    }

    /// Residuals of a least-squares line through (index, value).
    fn detrend(x: &[f64]) -> Vec<f64> {
        let n = x.len() as f64;
        let t: Vec<f64> = (0..x.len()).map(|i| i as f64).collect();
        let (mt, mx) = (t.iter().sum::<f64>() / n, x.iter().sum::<f64>() / n);
        let slope = t.iter().zip(x).map(|(a, b)| (a - mt) * (b - mx)).sum::<f64>()
            / t.iter().map(|a| (a - mt).powi(2)).sum::<f64>();
        x.iter().zip(&t).map(|(v, ti)| v - mx - slope * (ti - mt)).collect()
    }

    #[test]
    fn equals_pearson_of_the_detrended_series() {
        let x: Vec<f64> = (0..50).map(|i| 1e9 + ((i * 37) % 11) as f64 * 3.0 + i as f64 * 0.5).collect();
        let y: Vec<f64> = (0..50).map(|i| -4e8 + ((i * 37) % 11) as f64 * 2.0 + ((i * 13) % 7) as f64 - i as f64).collect();
        let direct = pearson(&detrend(&x), &detrend(&y));
        let r = detrended_correlation(&x, &y, 0).unwrap();
        // The same series stored in rotated rings.
        let rot = |v: &[f64]| { let mut w = v.to_vec(); w.rotate_right(17); w };
        assert!((detrended_correlation(&rot(&x), &rot(&y), 17).unwrap() - r).abs() < 1e-9);
        assert!((r - direct).abs() < 1e-9, "{r} vs {direct}");
        assert!(r > 0.5 && r < 1.0);
    }

    #[test]
    fn a_common_drift_is_not_correlation() {
        // Independent wiggles on top of one linear drift: plain Pearson sees the drift.
        let x: Vec<f64> = (0..50).map(|i| i as f64 * 10.0 + ((i * 37) % 11) as f64).collect();
        let y: Vec<f64> = (0..50).map(|i| i as f64 * 10.0 + ((i * 29) % 13) as f64).collect();
        assert!(pearson(&x, &y) > 0.95);
        assert!(detrended_correlation(&x, &y, 0).unwrap().abs() < 0.4);
    }

    #[test]
    fn too_few_common_intervals_give_no_verdict() {
        let mut x = vec![f64::NAN; 50];
        let mut y = vec![f64::NAN; 50];
        for i in 0..MIN_COMMON - 1 {
            x[i] = i as f64;
            y[i] = (i * i) as f64;
        }
        x[40] = 3.0; // only in one series: not common
        assert_eq!(detrended_correlation(&x, &y, 0), None);
        let flat = vec![5.0; 50];
        let ramp: Vec<f64> = (0..50).map(|i| i as f64).collect();
        assert_eq!(detrended_correlation(&flat, &ramp, 0), None);
    }

    #[test]
    fn splits_uncorrelated_members_and_keeps_correlated_ones() {
        let base: Vec<f64> = (0..50).map(|i| ((i * 37) % 11) as f64).collect();
        let other: Vec<f64> = (0..50).map(|i| ((i * 29) % 13) as f64).collect();
        let same: Vec<f64> = base.iter().map(|v| v * 2.0 + 100.0).collect();
        let rings = [base.clone(), other.clone(), same, other.clone(), base];
        // Flows 0-3 in one RFC group, flow 4 not bottlenecked.
        let mut groups = [1, 1, 1, 1, 0];
        let mut split = CorrelationSplit::new(5);
        split.apply(&mut groups, 0.5, 0, |i| &rings[i]);
        assert_eq!(groups, [1, 2, 1, 2, 0]);
        // Two RFC groups stay apart even when their members correlate.
        let mut groups = [1, 2, 1, 2, 0];
        split.apply(&mut groups, 0.5, 0, |i| &rings[i]);
        assert_eq!(groups, [1, 2, 1, 2, 0]);
    }
}
