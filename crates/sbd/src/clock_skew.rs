//! Relative clock-skew estimation for one flow (RFC 8382 §5.2 leaves the method open; [S0]
//! Remark 2 leaves skew uncompensated).
//!
//! Queueing only ever adds delay, so the smallest relative OWD of each base interval lies close
//! to the queue-free path delay, whose only drift is the clocks' relative rate. The estimate is
//! the slope of the linear-programming fit of Moon, Skelly and Towsley (INFOCOM 1999) to those
//! per-interval minima over a sliding window: the line below every point that is highest at the
//! window's mean time, i.e. the lower-convex-hull edge spanning that time. Work happens once per
//! interval, O(window), in preallocated buffers.

#[derive(Clone, Debug)]
pub struct SkewEstimator {
    /// Ring of (interval mid time, minimum relative OWD), both ns.
    xs: Box<[f64]>,
    ys: Box<[f64]>,
    head: usize,
    len: usize,
    min_points: usize,
    hull: Vec<usize>,
}

impl SkewEstimator {
    /// `window` intervals are kept; no estimate before `min_points` of them hold samples.
    pub fn new(window: usize, min_points: usize) -> Self {
        SkewEstimator {
            xs: vec![0.0; window].into_boxed_slice(),
            ys: vec![0.0; window].into_boxed_slice(),
            head: 0,
            len: 0,
            min_points: min_points.max(2),
            hull: Vec::with_capacity(window),
        }
    }

    /// Records the minimum OWD seen in an interval centred at `mid_ns`.
    pub fn push(&mut self, mid_ns: f64, min_owd_ns: f64) {
        let cap = self.xs.len();
        self.xs[self.head] = mid_ns;
        self.ys[self.head] = min_owd_ns;
        self.head = (self.head + 1) % cap;
        self.len = (self.len + 1).min(cap);
    }

    /// The relative skew (ns of OWD drift per ns), or `None` before enough intervals.
    pub fn slope(&mut self) -> Option<f64> {
        if self.len < self.min_points {
            return None;
        }
        let cap = self.xs.len();
        let start = (self.head + cap - self.len) % cap;
        let idx = |i: usize| (start + i) % cap;
        // Andrew's monotone chain, lower hull only; points arrive in time order.
        self.hull.clear();
        let mut x_sum = 0.0;
        for i in 0..self.len {
            let p = idx(i);
            x_sum += self.xs[p];
            while self.hull.len() >= 2 {
                let (a, b) = (self.hull[self.hull.len() - 2], self.hull[self.hull.len() - 1]);
                let cross = (self.xs[b] - self.xs[a]) * (self.ys[p] - self.ys[a])
                    - (self.ys[b] - self.ys[a]) * (self.xs[p] - self.xs[a]);
                if cross <= 0.0 {
                    self.hull.pop();
                } else {
                    break;
                }
            }
            self.hull.push(p);
        }
        let x_mean = x_sum / self.len as f64;
        let edge = self.hull.windows(2).find(|w| self.xs[w[1]] >= x_mean).or_else(|| self.hull.windows(2).last())?;
        let (a, b) = (edge[0], edge[1]);
        Some((self.ys[b] - self.ys[a]) / (self.xs[b] - self.xs[a]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_linear_drift_under_queueing_noise() {
        let skew = 150e-6;
        let mut e = SkewEstimator::new(200, 20);
        assert_eq!(e.slope(), None);
        let mut lcg: u64 = 1;
        for k in 0..200 {
            lcg = lcg.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let queue = ((lcg >> 33) % 4_000_000) as f64; // 0..4 ms above the floor
            let mid = (k as f64 + 0.5) * 350e6;
            e.push(mid, 20e6 + skew * mid + queue);
        }
        let s = e.slope().unwrap();
        assert!((s - skew).abs() < 15e-6, "estimated {s}");
    }
}
