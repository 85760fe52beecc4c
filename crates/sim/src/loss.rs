//! Random loss: drops each packet independently with probability p (Bernoulli loss, the
//! model behind the Mathis et al. throughput formula).

use crate::rng::Rng;

pub struct RandomLoss {
    p: f64,
    rng: Rng,
    pub passed: u64,
    pub dropped: u64,
}

impl RandomLoss {
    pub fn new(p: f64, rng: Rng) -> Self {
        RandomLoss { p, rng, passed: 0, dropped: 0 }
    }

    /// True if the packet survives.
    #[inline]
    pub fn pass(&mut self) -> bool {
        if self.p > 0.0 && self.rng.chance(self.p) {
            self.dropped += 1;
            false
        } else {
            self.passed += 1;
            true
        }
    }
}
