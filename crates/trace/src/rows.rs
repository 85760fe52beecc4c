//! The rows of a per-packet delay trace, times in µs.

/// One packet as the receiver logs it: times on the sender's and receiver's clocks, µs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwdRow {
    pub flow: usize,
    pub send_us: i64,
    /// Meaningless when `lost`.
    pub recv_us: i64,
    pub lost: bool,
}

/// One ACK as the sender logs it (one clock, so no offset or skew).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RttRow {
    pub flow: usize,
    pub ack_us: i64,
    pub rtt_us: i64,
}
