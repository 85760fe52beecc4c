//! Linux's sender as a bulk application meets it (`send_buffer = "linux"`; docs/fidelity.md,
//! MPTCP). Two things of it decide how the receiver acknowledges:
//!
//! - Data is queued in buffers (skbs) of mostly two segments, the least `tcp_tso_autosize`
//!   (net/ipv4/tcp_output.c) gives at these rates, with PSH on the last segment. An skb
//!   leaves whole when the window has room for it; when it has not, `tcp_tso_should_defer`
//!   waits for the next ACK only if the last transmission was within 1 ms, and otherwise
//!   sends the part that fits, without PSH. At 20 Mb/s a flow's ACKs come more than 1 ms
//!   apart, so Linux rarely waits there. On the testbed
//!   85-89 % of a sender's bursts end with PSH, and PSH segments are two segments apart
//!   86-91 % of the time and three 7-9 % (an skb the application's writes left longer).
//!   An skb of three shifts which segments the receiver pairs for its delayed ACKs.
//! - The send buffer grows with the largest window the flow has had (`tcp_sndbuf_expand`,
//!   net/ipv4/tcp_input.c: twice the window times a per-segment allocation), about three
//!   segments per segment of that window as measured on the testbed. An MPTCP connection
//!   pushes its data into each subflow's buffer as far as it has room, ahead of what the
//!   window lets the subflow send, so data arrives out of order at the data level.

use crate::rng::Rng;
use crate::time::Time;

/// Share of skbs of three segments (the rest have two), as measured.
pub const SKB_OF_THREE: f64 = 0.08;

/// Segments the send buffer holds per segment of the largest window.
pub const SEGMENTS_PER_WINDOW: f64 = 3.0;

/// An skb that does not fit the window waits for more room only if the sender's last
/// transmission was this recent (`tcp_tso_should_defer`: "allowing defer only if the last
/// write was recent (1 ms)"); otherwise the part that fits leaves at once.
pub const DEFER_ONLY_WITHIN: Time = crate::time::PS_PER_MS;

/// Linux sends a partial skb anyway once the room is a third of the window
/// (`sysctl_tcp_tso_win_divisor`, 3 by default).
pub const TSO_WIN_DIVISOR: u64 = 3;

pub struct SendBuffer {
    largest_window: f64,
    /// One past the last segment of the skb being sent.
    skb_end: u64,
    /// When the sender last transmitted anything (Linux's `tcp_wstamp_ns` without pacing).
    last_send: Option<Time>,
    rng: Rng,
}

impl SendBuffer {
    pub fn new(rng: Rng) -> Self {
        SendBuffer { largest_window: 0.0, skb_end: 0, last_send: None, rng }
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

    pub fn on_send(&mut self, now: Time) {
        self.last_send = Some(now);
    }

    /// Whether new segment `seq` may leave now with `room` segments of window left of
    /// `window`, and if so whether it ends its skb (carries PSH). An skb that fits leaves
    /// whole; one that does not waits for the next ACK, unless Linux would split it
    /// (`tcp_tso_should_defer`, net/ipv4/tcp_output.c): the last transmission was over 1 ms
    /// ago, or the room is at least a third of the window. A split skb's first part has no
    /// PSH (`tso_fragment`); the rest keeps it.
    pub fn may_leave(&mut self, seq: u64, room: u64, window: u64, now: Time) -> Option<bool> {
        let rest = self.rest_of_skb(seq);
        let idle = self.last_send.is_none_or(|t| now.saturating_sub(t) > DEFER_ONLY_WITHIN);
        (rest <= room || idle || room * TSO_WIN_DIVISOR >= window).then_some(rest == 1)
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
    fn an_skb_that_does_not_fit_waits_only_within_a_millisecond_of_the_last_send() {
        let mut b = SendBuffer::new(Rng::for_stream(1, 0));
        let size = b.rest_of_skb(0);
        // Written out, not DEFER_ONLY_WITHIN, so that a wrong unit in the constant shows.
        let ms = crate::time::millis(1);
        b.on_send(10 * ms);
        // Room for all but one segment in a window of 20: the skb waits for the next ACK...
        assert_eq!(b.may_leave(0, size - 1, 20, 10 * ms + ms / 2), None);
        // ...unless the last send was over a millisecond ago: its first part leaves, no PSH.
        assert_eq!(b.may_leave(0, size - 1, 20, 11 * ms + 1), Some(false));
        // Room for all of it: it leaves whole, PSH on its last segment.
        assert_eq!(b.may_leave(0, size, 20, 10 * ms), Some(false));
        assert_eq!(b.may_leave(size - 1, 1, 20, 10 * ms), Some(true));
        // Room of a third of the window: a partial skb leaves at once.
        assert_eq!(b.may_leave(0, 1, 3, 10 * ms), Some(false));
    }

    #[test]
    fn the_buffer_grows_with_the_largest_window_only() {
        let mut b = SendBuffer::new(Rng::for_stream(1, 0));
        b.on_window(20.0);
        b.on_window(12.0);
        assert_eq!(b.capacity(), 60);
    }
}
