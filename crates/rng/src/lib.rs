//! Per-component random streams, for the simulator and the trace generator alike.
//!
//! Every component that draws random numbers (a RED queue, a loss element, a UDP source, a
//! generated queue or flow) owns a generator seeded from (seed, component). Streams are
//! independent of how many other components exist or in which order they draw, so adding a
//! flow does not change what another component sees. The code is here rather than a
//! random-number crate so that results stay reproducible whatever that crate's stream
//! stability.
//!
//! The generator is xoshiro256++ (Blackman and Vigna, "Scrambled linear pseudorandom number
//! generators", 2021), seeded through SplitMix64 as its authors recommend.

/// A stream of pseudo-random numbers.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

/// SplitMix64: one step of the seeding generator (also a good 64-bit mixing function).
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The simulator's stream for component `stream` under `master_seed`: the master seed is
    /// mixed through SplitMix64 first, so nearby seeds and streams give unrelated states.
    pub fn for_stream(master_seed: u64, stream: u64) -> Self {
        let mut k = master_seed;
        let a = splitmix64(&mut k);
        let mut st = a ^ stream.wrapping_mul(0xD605_BBB5_8C8A_BBB3);
        Rng::from_splitmix(&mut st)
    }

    /// The trace generator's stream for `component` under `seed` (one multiplication mixes
    /// the two keys). Kept beside `for_stream` because generated traces are reproduced byte
    /// for byte from their seed (docs/tracegen.md).
    pub fn for_component(seed: u64, component: u64) -> Self {
        let mut x = seed ^ component.wrapping_mul(0xD1B5_4A32_D192_ED03);
        Rng::from_splitmix(&mut x)
    }

    fn from_splitmix(state: &mut u64) -> Self {
        let mut s = [0u64; 4];
        for w in &mut s {
            *w = splitmix64(state);
        }
        // xoshiro's one forbidden state.
        if s == [0; 4] {
            s[0] = 1;
        }
        Rng { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    pub fn uniform(&mut self) -> f64 {
        // Through i64 (below 2^53 either way): one conversion instruction where u64 takes several.
        (self.next_u64() >> 11) as i64 as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub fn uniform_in(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Uniform in (0, 1]: safe to take the logarithm of.
    pub fn uniform_open0(&mut self) -> f64 {
        1.0 - self.uniform()
    }

    /// Uniform integer in lo..=hi (modulo reduction: a bias of at most (hi - lo + 1) / 2^64).
    pub fn int(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn draws(mut r: Rng) -> Vec<u64> {
        (0..8).map(|_| r.next_u64()).collect()
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        for make in [Rng::for_stream, Rng::for_component] {
            assert_eq!(draws(make(7, 1)), draws(make(7, 1)));
            assert_ne!(draws(make(7, 1)), draws(make(7, 2)));
            assert_ne!(draws(make(7, 1)), draws(make(8, 1)));
        }
    }

    /// The first draws of both seedings, as the simulator and the trace generator had them
    /// before they shared this crate: the golden results depend on them.
    #[test]
    fn the_streams_are_the_ones_results_were_made_with() {
        assert_eq!(Rng::for_stream(1, 2).next_u64(), FOR_STREAM_1_2);
        assert_eq!(Rng::for_component(1, 2).next_u64(), FOR_COMPONENT_1_2);
    }
    const FOR_STREAM_1_2: u64 = 0x0369_cd9a_685a_98f8;
    const FOR_COMPONENT_1_2: u64 = 0x83ab_9f71_5a5f_8132;

    #[test]
    fn distributions_have_the_requested_means() {
        let mut r = Rng::for_stream(1, 99);
        let n = 200_000;
        let u: f64 = (0..n).map(|_| r.uniform()).sum::<f64>() / n as f64;
        let e: f64 = (0..n).map(|_| r.exponential(2.0)).sum::<f64>() / n as f64;
        // Shape 2.5 has finite variance, so the sample mean converges reasonably fast.
        let p: f64 = (0..n).map(|_| r.pareto(3.0, 2.5)).sum::<f64>() / n as f64;
        let k: f64 = (0..n).map(|_| r.int(2, 8) as f64).sum::<f64>() / n as f64;
        assert!((u - 0.5).abs() < 0.005, "uniform mean {u}");
        assert!((e - 2.0).abs() < 0.03, "exponential mean {e}");
        assert!((p - 3.0).abs() < 0.1, "pareto mean {p}");
        assert!((k - 5.0).abs() < 0.02, "int mean {k}");
    }
}
