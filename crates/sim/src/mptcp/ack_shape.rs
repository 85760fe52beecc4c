//! The shape of an ACK that gave an RTT sample, which the sender's check against a lying
//! receiver reads (verify.rs) to weigh the sample.

/// What an ACK that gave an RTT sample acknowledged: how many segments it newly covered,
/// and whether it carried no SACK block (the receiver held nothing out of order).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AckShape {
    pub segments: u64,
    pub in_order: bool,
}
