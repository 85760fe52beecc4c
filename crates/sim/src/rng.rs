//! Per-component random streams.
//!
//! Every component that draws random numbers (a RED queue, a loss element, a UDP source)
//! owns a generator seeded from (master seed, stream id). Streams are independent of how
//! many other components exist or in which order they draw, so adding a flow does not
//! change what another component sees.
//!
//! The generator is xoshiro256++ (Blackman and Vigna, "Scrambled linear pseudorandom number
//! generators", 2021), seeded through SplitMix64 as its authors recommend.

/// A stream of pseudo-random numbers.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The stream for component `stream` under `master_seed`.
    pub fn for_stream(master_seed: u64, stream: u64) -> Self {
        // Mix the two keys through SplitMix64 so nearby seeds/streams give unrelated states.
        let mut k = master_seed;
        let a = splitmix64(&mut k);
        let mut st = a ^ stream.wrapping_mul(0xD605_BBB5_8C8A_BBB3);
        let mut s = [0u64; 4];
        for w in &mut s {
            *w = splitmix64(&mut st);
        }
        if s == [0; 4] {
            s[0] = 1;
        }
        Rng { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = (self.s[0].wrapping_add(self.s[3])).rotate_left(23).wrapping_add(self.s[0]);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in (0, 1]: safe to take the logarithm of.
    pub fn uniform_open0(&mut self) -> f64 {
        1.0 - self.uniform()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.uniform() < p
    }

    /// Exponentially distributed with the given mean.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * self.uniform_open0().ln()
    }

    /// Pareto distributed with the given mean and shape `alpha` (> 1):
    /// scale x_m = mean (alpha - 1) / alpha, X = x_m / U^(1/alpha).
    pub fn pareto(&mut self, mean: f64, alpha: f64) -> f64 {
        let xm = mean * (alpha - 1.0) / alpha;
        xm / self.uniform_open0().powf(1.0 / alpha)
    }
}

/// Stream ids are namespaced by component kind so that, say, queue 3 and flow 3 differ.
pub mod stream {
    pub const QUEUE: u64 = 1 << 56;
    pub const LOSS: u64 = 2 << 56;
    pub const UDP: u64 = 3 << 56;
    pub const TCP: u64 = 4 << 56;
    pub const JITTER: u64 = 5 << 56;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_stream(7, 1).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut x = Rng::for_stream(7, 1);
        let mut y = Rng::for_stream(7, 2);
        let mut z = Rng::for_stream(8, 1);
        let (xs, ys, zs): (Vec<u64>, Vec<u64>, Vec<u64>) =
            (0..8).map(|_| (x.next_u64(), y.next_u64(), z.next_u64())).fold(
                (vec![], vec![], vec![]),
                |mut acc, (a, b, c)| {
                    acc.0.push(a);
                    acc.1.push(b);
                    acc.2.push(c);
                    acc
                },
            );
        assert_ne!(xs, ys);
        assert_ne!(xs, zs);
    }

    #[test]
    fn distributions_have_the_requested_means() {
        let mut r = Rng::for_stream(1, 99);
        let n = 200_000;
        let u: f64 = (0..n).map(|_| r.uniform()).sum::<f64>() / n as f64;
        let e: f64 = (0..n).map(|_| r.exponential(2.0)).sum::<f64>() / n as f64;
        // Shape 2.5 has finite variance, so the sample mean converges reasonably fast.
        let p: f64 = (0..n).map(|_| r.pareto(3.0, 2.5)).sum::<f64>() / n as f64;
        assert!((u - 0.5).abs() < 0.005, "uniform mean {u}");
        assert!((e - 2.0).abs() < 0.03, "exponential mean {e}");
        assert!((p - 3.0).abs() < 0.1, "pareto mean {p}");
    }
}
