//! Per-packet delay logs of a TCP flow, kept only when the flow asks for them: what a
//! capture at both ends would show a shared-bottleneck detector working offline (S2 §5.1
//! analysed ns-3 traces this way). The receiver logs each data segment's send and arrival
//! times (one-way delay); the sender logs each RTT sample it takes (Karn's rule applies).

use crate::time::Time;

/// One data segment as the receiver saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwdSample {
    /// The sender's clock when the segment left (the simulator has one clock).
    pub sent: Time,
    pub received: Time,
    /// A retransmission: a segment of this flow was lost before it.
    pub retransmission: bool,
}

/// One RTT sample as the sender took it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RttSample {
    /// When the ACK arrived.
    pub at: Time,
    pub rtt: Time,
}

/// A flow's two logs, in time order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DelayLog {
    pub owd: Vec<OwdSample>,
    pub rtt: Vec<RttSample>,
}
