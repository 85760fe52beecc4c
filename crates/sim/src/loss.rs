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

/// Drops the first transmission of chosen TCP segment numbers (any flow crossing it):
/// a deterministic way to put several losses into one window.
pub struct ScriptedLoss {
    segments: Vec<u64>,
    pub dropped: u64,
}

impl ScriptedLoss {
    pub fn new(mut segments: Vec<u64>) -> Self {
        segments.sort_unstable();
        segments.dedup();
        ScriptedLoss { segments, dropped: 0 }
    }

    /// True if the packet survives.
    pub fn pass(&mut self, p: &crate::packet::Packet) -> bool {
        let original = p.kind == crate::packet::PacketKind::TcpData && p.flags & crate::packet::FLAG_RETRANSMIT == 0;
        if original && self.segments.binary_search(&p.seq).is_ok() {
            self.dropped += 1;
            false
        } else {
            true
        }
    }
}
