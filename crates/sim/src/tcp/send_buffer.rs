//! Linux's sender as a bulk application meets it (`send_buffer = "linux"`; docs/fidelity.md,
//! MPTCP). Two things of it decide how the receiver acknowledges:
//!
//! - Data is queued in buffers (skbs) of mostly two segments, the least `tcp_tso_autosize`
//!   (net/ipv4/tcp_output.c) gives at these rates, each leaving whole (`tcp_tso_should_defer`
//!   waits for window room for all of it) with PSH on its last segment. On the testbed
//!   85-89 % of a sender's bursts end with PSH, and PSH segments are two segments apart
//!   86-91 % of the time and three 7-9 % (an skb the application's writes left longer).
//!   An skb of three shifts which segments the receiver pairs for its delayed ACKs.
//! - The send buffer grows with the largest window the flow has had (`tcp_sndbuf_expand`,
//!   net/ipv4/tcp_input.c: twice the window times a per-segment allocation), about three
//!   segments per segment of that window as measured on the testbed. An MPTCP connection
//!   pushes its data into each subflow's buffer as far as it has room, ahead of what the
//!   window lets the subflow send, so data arrives out of order at the data level.

use crate::rng::Rng;

/// Share of skbs of three segments (the rest have two), as measured.
pub const SKB_OF_THREE: f64 = 0.08;

/// Segments the send buffer holds per segment of the largest window.
pub const SEGMENTS_PER_WINDOW: f64 = 3.0;

pub struct SendBuffer {
    largest_window: f64,
    /// One past the last segment of the skb being sent.
    skb_end: u64,
    rng: Rng,
}

impl SendBuffer {
    pub fn new(rng: Rng) -> Self {
        SendBuffer { largest_window: 0.0, skb_end: 0, rng }
    }

    /// Segments the buffer holds: sent and not yet acknowledged, and not yet sent.
    pub fn capacity(&self) -> u64 {
        (SEGMENTS_PER_WINDOW * self.largest_window).ceil() as u64
    }

    pub fn on_window(&mut self, cwnd: f64) {
        self.largest_window = self.largest_window.max(cwnd);
    }

    /// Segments from new segment `seq` to the end of its skb: what must fit in the window
    /// before `seq` leaves. New segments are asked in order.
    pub fn rest_of_skb(&mut self, seq: u64) -> u64 {
        while self.skb_end <= seq {
            self.skb_end += if self.rng.uniform() < SKB_OF_THREE { 3 } else { 2 };
        }
        self.skb_end - seq
    }

    /// Whether new segment `seq` is the last of its skb (carries PSH).
    pub fn ends_skb(&mut self, seq: u64) -> bool {
        self.rest_of_skb(seq) == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skbs_are_two_segments_or_now_and_then_three() {
        let mut b = SendBuffer::new(Rng::for_stream(1, 0));
        let pushed: Vec<u64> = (0..100_000).filter(|&s| b.ends_skb(s)).collect();
        let gaps: Vec<u64> = pushed.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.iter().all(|&g| g == 2 || g == 3));
        let three = gaps.iter().filter(|&&g| g == 3).count() as f64 / gaps.len() as f64;
        assert!((three - SKB_OF_THREE).abs() < 0.005, "{three}");
    }

    #[test]
    fn the_buffer_grows_with_the_largest_window_only() {
        let mut b = SendBuffer::new(Rng::for_stream(1, 0));
        b.on_window(20.0);
        b.on_window(12.0);
        assert_eq!(b.capacity(), 60);
    }
}
