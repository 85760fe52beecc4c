//! Per-component random streams: `pathpool_rng::Rng` (shared with the trace generator),
//! seeded per element with `Rng::for_stream(master seed, stream id)`.

pub use pathpool_rng::Rng;
pub(crate) use pathpool_rng::splitmix64;

/// Stream ids are namespaced by component kind so that, say, queue 3 and flow 3 differ.
pub mod stream {
    pub const QUEUE: u64 = 1 << 56;
    pub const LOSS: u64 = 2 << 56;
    pub const UDP: u64 = 3 << 56;
    pub const TCP: u64 = 4 << 56;
    pub const JITTER: u64 = 5 << 56;
    pub const SEND_BUFFER: u64 = 6 << 56;
    pub const HOST: u64 = 7 << 56;
}
