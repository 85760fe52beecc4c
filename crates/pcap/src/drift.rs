//! The relative clock skew of a direction, and whether it is there at all. A capture's
//! one-way delay is the capture clock minus the sender's TSval clock, so a skew adds a linear
//! drift (RFC 8382 §5.2 asks for it to be removed; [S0] Remark 2 leaves it). Queueing only
//! adds delay, so the minima of time buckets follow the queue-free delay, whose only drift is
//! the clocks'. The drift is removed only when it is significant: when the least-squares
//! slope of the minima lies outside its own 99.9 % confidence interval around zero, so that a
//! skew-free capture, such as any of the simulator's, reports none (at 95 % one in twenty
//! would; docs/pcap.md, "Clock skew", counts them).

use crate::survey::DirStats;

/// Buckets of the survey's points whose minima the drift is fitted to.
pub const BUCKETS: usize = 40;

/// Fewest non-empty buckets for a fit (10 degrees of freedom for the t quantile).
const MIN_BUCKETS: usize = 12;

/// The drift of a direction's one-way delay, in ns per ns (the relative clock skew).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Drift {
    /// Least-squares slope of the bucket minima.
    pub slope: f64,
    /// Half-width of its 99.9 % confidence interval: t(0.9995, n - 2) x its standard error.
    pub half_width: f64,
    /// What is removed: the slope of the lower convex hull of the minima at their mean time
    /// (Moon, Skelly and Towsley's linear program, as the detector's online `SkewEstimator`
    /// fits it) when the least-squares slope is significant, else 0.
    pub removed: f64,
}

impl Drift {
    pub fn significant(&self) -> bool {
        self.slope.abs() > self.half_width
    }
}

/// The normal quantiles of the two-sided 95 % and 99.9 % intervals.
pub const Z_95: f64 = 1.959_964;
pub const Z_999: f64 = 3.290_527;

/// The quantile of Student's t with `df` degrees of freedom at the normal quantile `z`
/// (Cornish-Fisher expansion; within 0.01 of the table for df >= 10 up to z = 3.29).
pub fn t_quantile(z: f64, df: f64) -> f64 {
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * df) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df) + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df.powi(3))
}

/// The drift of `d` (points of capture ns, unwrapped TSval) on a TSval clock of `tick` ns.
/// `None` when there are too few points to tell.
pub fn fit(d: &DirStats, tick: f64) -> Option<Drift> {
    let (&(t0, v0), &(t1, _)) = (d.points.first()?, d.points.last()?);
    if d.points.len() < 4 * BUCKETS || t1 <= t0 {
        return None;
    }
    let width = (t1 - t0) as f64 / BUCKETS as f64;
    let mut minima = vec![(f64::NAN, f64::INFINITY); BUCKETS];
    for &(t, v) in &d.points {
        let x = (t - t0) as f64;
        let y = x - (v as f64 - v0 as f64) * tick;
        let b = ((x / width) as usize).min(BUCKETS - 1);
        if y < minima[b].1 {
            minima[b] = (x, y);
        }
    }
    let m: Vec<(f64, f64)> = minima.into_iter().filter(|m| m.1.is_finite()).collect();
    let (slope, half_width) = least_squares(&m)?;
    let mut drift = Drift { slope, half_width, removed: 0.0 };
    if drift.significant() {
        let mut hull = pathpool_sbd::SkewEstimator::new(BUCKETS, BUCKETS / 2);
        for &(x, y) in &m {
            hull.push(x, y);
        }
        drift.removed = hull.slope().unwrap_or(slope);
    }
    Some(drift)
}

/// Slope of the least-squares line through `xy` and its 99.9 % confidence half-width.
fn least_squares(xy: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = xy.len();
    if n < MIN_BUCKETS {
        return None;
    }
    let mx = xy.iter().map(|p| p.0).sum::<f64>() / n as f64;
    let my = xy.iter().map(|p| p.1).sum::<f64>() / n as f64;
    let sxx: f64 = xy.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let b = xy.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
    let rss: f64 = xy.iter().map(|p| (p.1 - my - b * (p.0 - mx)).powi(2)).sum();
    let se = (rss / (n - 2) as f64 / sxx).sqrt();
    Some((b, t_quantile(Z_999, (n - 2) as f64) * se))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_table() {
        // Student's t, 0.975: df 10 -> 2.228, 20 -> 2.086, 38 -> 2.024, 1000 -> 1.962;
        // 0.9995: df 10 -> 4.587, 20 -> 3.850, 38 -> 3.566, 1000 -> 3.300.
        for (df, t) in [(10.0, 2.228), (20.0, 2.086), (38.0, 2.024), (1000.0, 1.962)] {
            assert!((t_quantile(Z_95, df) - t).abs() < 0.002, "df {df}: {}", t_quantile(Z_95, df));
        }
        for (df, t) in [(10.0, 4.587), (20.0, 3.850), (38.0, 3.566), (1000.0, 3.300)] {
            assert!((t_quantile(Z_999, df) - t).abs() < 0.01, "df {df}: {}", t_quantile(Z_999, df));
        }
    }

    #[test]
    fn a_line_is_significant_noise_is_not() {
        // Exact line plus a small alternating residual: slope known, interval narrow.
        let line: Vec<(f64, f64)> = (0..40).map(|i| (i as f64, 0.5 * i as f64 + if i % 2 == 0 { 0.1 } else { -0.1 })).collect();
        let (b, h) = least_squares(&line).unwrap();
        assert!((b - 0.5).abs() < 0.01 && h < 0.01 && b.abs() > h);
        // A flat series with large residuals (a deterministic pseudo-noise): not significant.
        let flat: Vec<(f64, f64)> = (0..40).map(|i| (i as f64, ((i * 7919) % 13) as f64)).collect();
        let (b, h) = least_squares(&flat).unwrap();
        assert!(b.abs() < h, "{b} {h}");
        assert!(least_squares(&flat[..MIN_BUCKETS - 1]).is_none());
    }
}
