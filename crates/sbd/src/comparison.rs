//! The delay comparison test of Rubenstein, Kurose and Towsley ("Detecting shared congestion
//! of flows via end-to-end measurement", IEEE/ACM ToN 10(3), 2002, §IV): two flows share a
//! queue when the delays of their packets close in time correlate more than each flow's own
//! delays a little further apart. It needs no threshold: behind one queue the cross-correlation
//! at lag 0 is c, each flow's own correlation at a longer lag is rho * c (rho <= 1, the
//! queue's own memory over that lag) scaled by the same sample noise, so cross >= the
//! geometric mean of the two autocorrelations; behind two queues the cross-correlation is the
//! queues' (mostly far below), however alike the queues' statistics are.
//!
//! Here on RTT samples: each subflow's samples are averaged in bins of [`BIN_NS`] by the
//! segment's send time; over [`WINDOW_BINS`] bins, cross = corr(a[k], b[k]) and auto =
//! corr(x[k], x[k + 1]).
//! docs/kernel.md, "The SBD daemon", says why the daemon groups by this test rather than by
//! RFC 8382's statistics.

/// Bin width: RFC 8382's interval T = 350 ms in 14 bins (25 ms), several of the testbed's 5 ms
/// delay slots and several RTT samples at 200 samples/s, far below a queue's sawtooth (s).
pub const BIN_NS: u64 = 25_000_000;
/// Bins per RFC 8382 interval (T / BIN_NS).
pub const BINS_PER_INTERVAL: u64 = 14;
/// The test's memory: 8 intervals (2.8 s), the recent window of pathpool-sbd's change test
/// (`pathpool_sbd::CHANGE_WINDOW`), so that a bottleneck that moved is seen within seconds.
pub const WINDOW_BINS: usize = 8 * BINS_PER_INTERVAL as usize;
/// A pair is judged only when at least 10 of the window's bins hold samples of both subflows
/// (and as many pairs of consecutive bins each subflow), as pathpool-sbd's correlation split
/// asks 10 common intervals (`pathpool_sbd::correlation`); otherwise there is no evidence
/// ("not yet"). A subflow's RTT samples come in bursts once per RTT, so at 25 ms bins and RTTs
/// of 40-80 ms half the bins or more may be empty.
pub const MIN_BINS: usize = 10;

/// One subflow's recent bins: (absolute bin index, sum of RTT in µs, samples).
#[derive(Clone, Debug)]
pub struct Bins {
    ring: Vec<(u64, f64, u32)>,
}

impl Default for Bins {
    fn default() -> Self {
        // The window, the interval it ends before, and one interval of slack for late samples.
        Bins { ring: vec![(u64::MAX, 0.0, 0); WINDOW_BINS + 2 * BINS_PER_INTERVAL as usize] }
    }
}

impl Bins {
    pub fn add(&mut self, bin: u64, rtt_us: f64) {
        let len = self.ring.len() as u64;
        let slot = &mut self.ring[(bin % len) as usize];
        if slot.0 != bin {
            if slot.0 != u64::MAX && slot.0 > bin {
                // Older than the ring holds (a segment sent over 3.5 s ago): outside any window.
                return;
            }
            *slot = (bin, 0.0, 0);
        }
        slot.1 += rtt_us;
        slot.2 += 1;
    }

    /// The mean of bin `bin`, if it is still held and has samples.
    fn mean(&self, bin: u64) -> Option<f64> {
        let s = &self.ring[(bin % self.ring.len() as u64) as usize];
        (s.0 == bin && s.2 > 0).then(|| s.1 / f64::from(s.2))
    }
}

/// The comparison test's verdict on one pair over the bins `[end - WINDOW_BINS, end)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    Shared,
    Apart,
    /// Too few bins with samples, or a series without variation: no evidence either way.
    NoEvidence,
}

/// Pearson correlation of the pairs and their number; None with fewer than MIN_BINS or a
/// flat series.
fn correlation(pairs: impl Iterator<Item = (f64, f64)>) -> Option<(f64, usize)> {
    let (mut n, mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0usize, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (x, y) in pairs {
        n += 1;
        sx += x;
        sy += y;
        sxx += x * x;
        syy += y * y;
        sxy += x * y;
    }
    if n < MIN_BINS {
        return None;
    }
    let nf = n as f64;
    let (vx, vy) = (sxx - sx * sx / nf, syy - sy * sy / nf);
    if vx <= 0.0 || vy <= 0.0 {
        return None;
    }
    Some(((sxy - sx * sy / nf) / (vx * vy).sqrt(), n))
}

fn lag_one(b: &Bins, start: u64, end: u64) -> Option<(f64, usize)> {
    correlation((start..end - 1).filter_map(|k| Some((b.mean(k)?, b.mean(k + 1)?))))
}

/// Whether a cross-correlation below the autocorrelations is within the correlations'
/// estimation error over `n` bins: their Fisher transforms apart by less than 1.96 standard
/// errors (1 / sqrt(n - 3); a two-sided 95 % interval). Behind one slow queue all three are
/// near 1 and the margin rho leaves is a few thousandths, so the sign read there is chance,
/// not evidence of two queues; two queues, even in step, part them by far more. Correlated
/// bins make n overstate the independent samples, so the interval is if anything too narrow.
fn below_by_chance(cross: f64, auto: f64, n: usize) -> bool {
    let z = |r: f64| r.clamp(-0.999_999, 0.999_999).atanh();
    z(auto) - z(cross) < Z_95 / (n as f64 - 3.0).sqrt()
}

/// The two-sided 95 % quantile of the standard normal distribution.
const Z_95: f64 = 1.96;

/// When the test reads "apart".
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ApartWhen {
    /// Whenever the cross-correlation is below the autocorrelations (Rubenstein et al.; the
    /// simulator's sender check, whose evidence counts were set on it).
    Below,
    /// Only when it is below by more than the correlations' estimation error; within it, no
    /// evidence (the kernel's SBD daemon: docs/kernel.md, "The SBD daemon").
    SignificantlyBelow,
}

/// Whether a cross-correlation is above zero by no more than its estimation error over `n`
/// bins (Fisher transform below 1.96 / sqrt(n - 3)). Two subflows whose bin means do not
/// covary beyond chance carry no queue signal at the bins' scale (a queue that moves within a
/// bin, samples too few per bin): their autocorrelations are near 0 too, and "cross >= auto"
/// is then a coin toss on two queues as on one.
fn uncorrelated_by_chance(cross: f64, n: usize) -> bool {
    cross.clamp(-0.999_999, 0.999_999).atanh() < Z_95 / (n as f64 - 3.0).sqrt()
}

/// Rubenstein et al.'s comparison test read only beyond chance both ways (the simulator's
/// sender check, docs/security.md): "apart" as [`ApartWhen::SignificantlyBelow`], and
/// "shared" only when the cross-correlation is at least the autocorrelations and itself
/// above zero beyond chance; otherwise no evidence. A window without a queue signal at the
/// bins' scale then gives no verdict rather than a coin's.
/// Over the window of `window` bins (at most [`WINDOW_BINS`]) ending (exclusive) at `end`.
pub fn compare_beyond_chance(a: &Bins, b: &Bins, end: u64, window: usize) -> Verdict {
    let window = window.min(WINDOW_BINS);
    match compare_over(a, b, end, window, ApartWhen::SignificantlyBelow) {
        Verdict::Shared => {
            let start = end - window as u64; // compare_over judged this window
            match correlation((start..end).filter_map(|k| Some((a.mean(k)?, b.mean(k)?)))) {
                Some((c, n)) if !uncorrelated_by_chance(c, n) => Verdict::Shared,
                _ => Verdict::NoEvidence,
            }
        }
        v => v,
    }
}

/// Rubenstein et al.'s comparison test on the window ending (exclusive) at bin `end`.
pub fn compare(a: &Bins, b: &Bins, end: u64) -> Verdict {
    compare_over(a, b, end, WINDOW_BINS, ApartWhen::Below)
}

/// [`compare`] over a window of `window` bins (at most [`WINDOW_BINS`], which [`Bins`] holds).
pub fn compare_over(a: &Bins, b: &Bins, end: u64, window: usize, apart_when: ApartWhen) -> Verdict {
    // A window reaching before the connection's first sample is not yet a window: its first
    // seconds are the slow start alone.
    let Some(start) = end.checked_sub(window.min(WINDOW_BINS) as u64) else {
        return Verdict::NoEvidence;
    };
    let cross = correlation((start..end).filter_map(|k| Some((a.mean(k)?, b.mean(k)?))));
    match (cross, lag_one(a, start, end), lag_one(b, start, end)) {
        (Some((c, n)), Some((ra, na)), Some((rb, nb))) => {
            let auto = (ra.max(0.0) * rb.max(0.0)).sqrt();
            if c >= auto {
                Verdict::Shared
            } else if apart_when == ApartWhen::SignificantlyBelow && below_by_chance(c, auto, n.min(na).min(nb)) {
                Verdict::NoEvidence
            } else {
                Verdict::Apart
            }
        }
        _ => Verdict::NoEvidence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(f: impl Fn(u64) -> f64) -> Bins {
        let mut b = Bins::default();
        for k in 0..WINDOW_BINS as u64 {
            b.add(k, f(k));
        }
        b
    }

    /// A slow queue (sawtooth of 40 bins) plus each subflow's own sample noise.
    fn queue(k: u64) -> f64 {
        40_000.0 + 500.0 * (k % 40) as f64
    }

    fn noise(k: u64, seed: u64) -> f64 {
        let x = (k.wrapping_mul(6364136223846793005).wrapping_add(seed * 1442695040888963407) >> 33) % 2000;
        x as f64
    }

    /// Uniform noise in [0, 2000) from splitmix64: independent across bins and seeds.
    fn white(k: u64, seed: u64) -> f64 {
        let mut z = k.wrapping_add(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % 2000) as f64
    }

    #[test]
    fn one_queue_is_shared_whatever_each_subflows_noise() {
        let a = fill(|k| queue(k) + noise(k, 1));
        let b = fill(|k| queue(k) + 3.0 * noise(k, 2));
        assert_eq!(compare(&a, &b, WINDOW_BINS as u64), Verdict::Shared);
    }

    #[test]
    fn two_alike_queues_in_step_but_not_one_are_apart() {
        // The same sawtooth, 3 bins (75 ms) out of phase: statistics equal, queues not one.
        let a = fill(|k| queue(k) + noise(k, 1));
        let b = fill(|k| queue(k + 3) + noise(k, 2));
        assert_eq!(compare(&a, &b, WINDOW_BINS as u64), Verdict::Apart);
    }

    #[test]
    fn two_alike_queues_in_step_are_apart_beyond_chance() {
        let a = fill(|k| queue(k) + noise(k, 1));
        let b = fill(|k| queue(k + 3) + noise(k, 2));
        assert_eq!(
            compare_over(&a, &b, WINDOW_BINS as u64, WINDOW_BINS, ApartWhen::SignificantlyBelow),
            Verdict::Apart
        );
    }

    /// One slow queue (a ramp over the whole window, so rho is nearly 1) seen by two subflows
    /// with white sample noise half as large as its rise: the sign of cross - auto is then
    /// about a coin's (apart in 96 of 200), so reading "apart" from it splits one queue
    /// often; beyond chance it must (almost) never.
    #[test]
    fn one_slow_queue_is_not_read_apart_by_chance() {
        let ramp = |k: u64| 40_000.0 + 100.0 * k as f64;
        let (mut by_sign, mut beyond_chance) = (0u64, 0u64);
        let seeds = 200;
        for seed in 0..seeds {
            let a = fill(|k| ramp(k) + 3.0 * white(k, 2 * seed + 1));
            let b = fill(|k| ramp(k) + 3.0 * white(k, 2 * seed + 2));
            let end = WINDOW_BINS as u64;
            by_sign += u64::from(compare_over(&a, &b, end, WINDOW_BINS, ApartWhen::Below) == Verdict::Apart);
            beyond_chance +=
                u64::from(compare_over(&a, &b, end, WINDOW_BINS, ApartWhen::SignificantlyBelow) == Verdict::Apart);
        }
        assert!(by_sign > seeds / 5, "the sign alone read one queue apart in {by_sign} of {seeds}");
        assert!(beyond_chance * 20 <= seeds, "read apart beyond chance in {beyond_chance} of {seeds}");
    }

    /// Two queues that move within a bin, each seen through its subflow's white noise: no
    /// signal at the bins' scale. The sign reads "shared" about half the time; beyond chance
    /// (almost) never. One queue with a signal at that scale stays "shared".
    #[test]
    fn no_signal_is_not_read_shared_by_chance() {
        let (mut by_sign, mut beyond_chance) = (0u64, 0u64);
        let seeds = 200;
        let end = WINDOW_BINS as u64;
        for seed in 0..seeds {
            let a = fill(|k| 40_000.0 + white(k, 2 * seed + 1));
            let b = fill(|k| 40_000.0 + white(k, 2 * seed + 2));
            by_sign += u64::from(compare(&a, &b, end) == Verdict::Shared);
            beyond_chance += u64::from(compare_beyond_chance(&a, &b, end, WINDOW_BINS) == Verdict::Shared);
        }
        assert!(by_sign > seeds / 4, "the sign read two unrelated series shared in {by_sign} of {seeds}");
        assert!(beyond_chance * 20 <= seeds, "read shared beyond chance in {beyond_chance} of {seeds}");
        let a = fill(|k| queue(k) + noise(k, 1));
        let b = fill(|k| queue(k) + 3.0 * noise(k, 2));
        assert_eq!(compare_beyond_chance(&a, &b, end, WINDOW_BINS), Verdict::Shared);
    }

    #[test]
    fn too_few_bins_is_no_evidence() {
        let a = fill(queue);
        let mut b = Bins::default();
        for k in (0..WINDOW_BINS as u64).step_by(3) {
            b.add(k, queue(k));
        }
        assert_eq!(compare(&a, &b, WINDOW_BINS as u64), Verdict::NoEvidence);
    }
}
