//! Send jitter: a random delay, uniform in [0, max), between a TCP sender handing a packet
//! to the network and the packet entering its first link, packets kept in order. It models
//! the host's per-packet processing time, which breaks the phase effects of a perfectly
//! deterministic drop-tail simulation (Floyd & Jacobson, "On Traffic Phase Effects in
//! Packet-Switched Gateways", 1992; ns-2's TcpAgent `overhead_`). Built as a zero-delay
//! pipe with this jitter (pipe.rs), one per flow or subflow, with a random stream of its own.

use crate::rng::Rng;
use crate::time::Time;

pub struct Jitter {
    max: Time,
    rng: Rng,
}

impl Jitter {
    pub fn new(max: Time, rng: Rng) -> Self {
        Jitter { max, rng }
    }

    /// The next packet's extra delay.
    #[inline]
    pub fn draw(&mut self) -> Time {
        // Through i64: one conversion instruction each way, where u64 takes a branch (the
        // product is below `max`, far under 2^63 ps).
        (self.rng.uniform() * self.max as i64 as f64) as i64 as Time
    }
}
