//! Lost retransmissions found as Linux finds them (`lost_retransmit = "rack"`;
//! docs/fidelity.md). RFC 6675 retransmits each lost segment once per recovery, so a
//! retransmission that is dropped again waits for the RTO (and the window falls to one
//! segment). Linux's RACK (RFC 8985 §6.2, `tcp_rack_detect_loss` in
//! net/ipv4/tcp_recovery.c) deems a segment lost once a segment sent after it has been
//! delivered, retransmissions included, and sends it again within the recovery.
//!
//! Only that part of RACK is modelled: on the simulator's paths nothing reorders (send
//! jitter keeps order), so a delivered later segment means the earlier one is gone
//! (Linux's reordering window is 0 in recovery until reordering has been seen), and first
//! losses are found by the DupThresh rule as before. Which segment was delivered latest is
//! read from the ACK's echoed send time (the receiver echoes the last segment to arrive).

use crate::time::Time;

#[derive(Debug, Default)]
pub struct LostRetransmits {
    /// Segments retransmitted and not yet delivered, with the time of their last sending.
    sent: Vec<(u64, Time)>,
    /// Those a later-sent segment's delivery showed lost, to be sent again.
    lost: Vec<u64>,
}

impl LostRetransmits {
    /// Segment `seq` was retransmitted at `now`.
    pub fn on_retransmit(&mut self, seq: u64, now: Time) {
        self.lost.retain(|&s| s != seq);
        match self.sent.iter_mut().find(|(s, _)| *s == seq) {
            Some(e) => e.1 = now,
            None => self.sent.push((seq, now)),
        }
    }

    /// An ACK echoing `latest_sent` (the send time of the last segment to arrive):
    /// retransmissions sent before it that `delivered` does not cover are lost.
    pub fn on_ack(&mut self, latest_sent: Time, delivered: impl Fn(u64) -> bool) {
        self.sent.retain(|&(s, _)| !delivered(s));
        self.lost.retain(|&s| !delivered(s));
        for &(s, at) in &self.sent {
            if at < latest_sent && !self.lost.contains(&s) {
                self.lost.push(s);
            }
        }
    }

    /// The lowest retransmission found lost, to send again first.
    pub fn next(&self) -> Option<u64> {
        self.lost.iter().copied().min()
    }

    /// How many retransmissions are known lost (they have left the pipe).
    pub fn lost_count(&self) -> u64 {
        self.lost.len() as u64
    }

    pub fn clear(&mut self) {
        self.sent.clear();
        self.lost.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::LostRetransmits;

    #[test]
    fn lost_once_a_later_segment_is_delivered() {
        let mut r = LostRetransmits::default();
        r.on_retransmit(5, 100);
        r.on_retransmit(9, 200);
        // The ACK echoes segment sent at 100 (the retransmission of 5 itself): nothing lost.
        r.on_ack(100, |s| s == 5);
        assert_eq!(r.next(), None);
        // A segment sent at 300 arrived, 9 (sent at 200) did not: 9 is lost.
        r.on_ack(300, |s| s == 5);
        assert_eq!((r.next(), r.lost_count()), (Some(9), 1));
        // Sent again at 400: no longer lost until something sent after 400 arrives.
        r.on_retransmit(9, 400);
        r.on_ack(350, |_| false);
        assert_eq!(r.next(), None);
        r.on_ack(450, |s| s == 9);
        assert_eq!(r.lost_count(), 0);
    }
}
