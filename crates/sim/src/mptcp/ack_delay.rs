//! Which of a subflow's RTT samples the sender's check (`super::verify`) may use: not those
//! that include the receiver's delayed-ACK wait.
//!
//! A receiver that delays ACKs acknowledges every second full segment at once (RFC 5681
//! §4.2, RFC 1122 §4.2.3.2) and a lone in-order segment only when its timer fires (Linux:
//! 40 ms) or, in Linux, when the application's read empties the connection's memory, which
//! for an MPTCP subflow waits for the other subflows' reordering. The RTT the sender measures
//! on such an ACK holds that wait, which can exceed the whole queue's range; a subflow that
//! sends little has many lone segments, so its samples read positively skewed ("not
//! congested") with a MAD unlike its neighbours', and RFC 8382 §3.3.1's grouping keeps it
//! apart from them (docs/security.md, "Why the check missed sharing"). The queue signal
//! RFC 8382 §1.2.2 accepts RTT for is the one-way delay plus an uncongested return path,
//! not the receiver's wait, so such samples are left out. Linux leaves them out of its
//! minimum-RTT filter for the same reason (`FLAG_ACK_MAYBE_DELAYED`, net/ipv4/tcp_input.c).
//!
//! The sender does not know the receiver's ACK policy, so it reads it from the ACKs. Only a
//! receiver that delays ACKs sends in-order ACKs of exactly two segments in the normal
//! course (one that ACKs every segment does so only when an ACK was lost or after a timeout:
//! 6 of 33,000 in-order ACKs on an ideal host, against at least one in five for Linux hosts,
//! docs/security.md). So a subflow whose in-order two-segment ACKs are at least one in
//! `DELAYING_SHARE` of its one-segment ones has a delaying receiver, and then only its
//! two-segment ACKs left at once: the second segment's arrival sent them, and the echoed
//! timestamp is that segment's. An ACK of one segment may have waited for the timer, and one
//! of three or more covers a segment that waited before the others came. ACKs with SACK
//! blocks (out-of-order data) leave at once under either policy. A receiver that ACKs every
//! segment keeps all its samples.

/// One two-segment in-order ACK per this many one-segment ones marks a delaying receiver.
const DELAYING_SHARE: u64 = 8;

/// Per subflow, the in-order ACKs (no SACK blocks) that newly acknowledged one segment and
/// those that acknowledged exactly two.
pub(crate) struct DelayedAckFilter {
    single: Vec<u64>,
    double: Vec<u64>,
}

impl DelayedAckFilter {
    pub fn new(n: usize) -> Self {
        DelayedAckFilter { single: vec![0; n], double: vec![0; n] }
    }

    /// An ACK of subflow `sf` newly acknowledged `acked` segments (`in_order`: it carries no
    /// SACK block, so the receiver held nothing out of order and had no reason to ACK at
    /// once). May its RTT sample be used?
    pub fn usable(&mut self, sf: usize, acked: u64, in_order: bool) -> bool {
        if !in_order {
            return true; // an ACK of out-of-order data leaves at once (RFC 5681 §4.2)
        }
        match acked {
            0 => return true,
            1 => self.single[sf] += 1,
            2 => self.double[sf] += 1,
            _ => {}
        }
        let delaying = self.double[sf] * DELAYING_SHARE >= self.single[sf];
        !delaying || acked == 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receiver_acking_every_segment_keeps_all_samples() {
        let mut f = DelayedAckFilter::new(1);
        assert!((0..100).all(|_| f.usable(0, 1, true)));
        // A jump after a repaired loss, or an ACK lost on the way, does not make it a
        // delaying receiver.
        assert!(f.usable(0, 5, true) && f.usable(0, 2, true) && f.usable(0, 1, true));
    }

    #[test]
    fn a_delaying_receiver_keeps_only_its_two_segment_acks() {
        let mut f = DelayedAckFilter::new(2);
        // Mostly lone segments (a small window), as on a starved subflow: a third of its
        // in-order ACKs cover two segments.
        for _ in 0..10 {
            f.usable(1, 1, true);
            f.usable(1, 1, true);
            assert!(f.usable(1, 2, true));
        }
        assert!(!f.usable(1, 1, true), "a lone segment's ACK may have waited for the timer");
        assert!(!f.usable(1, 3, true), "a segment of a three-segment ACK waited for the others");
        assert!(f.usable(1, 1, false), "an ACK with SACK blocks left at once");
        assert!(f.usable(0, 1, true), "per subflow");
    }
}
