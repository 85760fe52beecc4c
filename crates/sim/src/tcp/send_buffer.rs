//! Linux's sender as a bulk application meets it (`send_buffer = "linux"`; docs/fidelity.md,
//! MPTCP). Two things of it decide how the receiver acknowledges:
//!
//! - Data is queued in buffers (skbs) of mostly two segments, the least `tcp_tso_autosize`
//!   (net/ipv4/tcp_output.c) gives at these rates, with PSH on the last segment. An skb
//!   leaves whole when the window has room for it; when it has not, `tcp_tso_should_defer`
//!   waits for the next ACK only if the last transmission was within 1 ms, and otherwise
//!   sends the part that fits, without PSH; since October 2025 (and optionally here) nor
//!   does it wait when the next ACK is due more than 1 ms from now (the oldest
//!   unacknowledged segment's send time plus SRTT). At 20 Mb/s a flow's ACKs come more than
//!   1 ms apart, so Linux rarely waits there. On the testbed
//!   85-89 % of a sender's bursts end with PSH, and PSH segments are two segments apart
//!   86-91 % of the time and three 7-9 % (an skb the application's writes left longer).
//!   An skb of three shifts which segments the receiver pairs for its delayed ACKs.
//! - The send buffer grows with the largest window the flow has had (`tcp_sndbuf_expand`,
//!   net/ipv4/tcp_input.c: twice the window times a per-segment allocation), about three
//!   segments per segment of that window as measured on the testbed. An MPTCP connection
//!   pushes its data into each subflow's buffer as far as it has room, ahead of what the
//!   window lets the subflow send, so data arrives out of order at the data level.
//!
//! `with_linux_6_18` (scenario `send_buffer = "linux-6.18"`, the fidelity suite's) cuts each
//! transmission as Linux 6.18's `tcp_write_xmit` does instead: at most two segments, sent
//! as soon as the room holds two, a short head skb grown from the next (`tcp_grow_skb`),
//! and the next ACK's rule above (docs/fidelity-notes.md, "A partial skb and the next ACK").

use crate::ring::Ring;
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

/// Segments per skb as `tcp_tso_autosize` sizes it at these rates (`tcp_min_tso_segs`):
/// Linux 6.18 sends at most this many in one transmission, and sends them as soon as the
/// room is this large (`tcp_tso_should_defer`: "If a full-sized TSO skb can be sent").
pub const MAX_SEGS: u64 = 2;

/// Linux sends a partial skb anyway once the room is a third of the window
/// (`sysctl_tcp_tso_win_divisor`, 3 by default).
pub const TSO_WIN_DIVISOR: u64 = 3;

pub struct SendBuffer {
    largest_window: f64,
    /// `capacity()`, kept as the largest window grows (the MPTCP scheduler asks per ACK).
    capacity: u64,
    /// One past the last segment of the skb being sent.
    skb_end: u64,
    /// When the sender last transmitted anything (Linux's `tcp_wstamp_ns` without pacing).
    last_send: Option<Time>,
    /// When each segment from `first_unacked` on was last sent (Linux's skb `tstamp`).
    send_times: Ring<Time>,
    first_unacked: u64,
    /// Linux 6.18's transmit rules (`with_linux_6_18`).
    linux_6_18: bool,
    /// 6.18: the end of the skb after the head one, once a pull has moved its start.
    next_end: Option<u64>,
    /// 6.18: one past the last segment of the chunk decided to leave now.
    chunk_end: u64,
    rng: Rng,
}

impl SendBuffer {
    pub fn new(rng: Rng) -> Self {
        SendBuffer { largest_window: 0.0, capacity: 0, skb_end: 0, last_send: None, send_times: Ring::with_capacity(16), first_unacked: 0, linux_6_18: false, next_end: None, chunk_end: 0, rng }
    }

    /// Linux 6.18's `tcp_write_xmit` (net/ipv4/tcp_output.c) instead of the rules of
    /// `may_leave`: each transmission takes at most `MAX_SEGS` segments (the autosized
    /// skb); a head skb shorter than that grows from the next one (`tcp_grow_skb`, 2024);
    /// and a partial skb also leaves when the next ACK is due late (`ack_due_late`, as the
    /// rule stands since October 2025, `Fixes: 50c8339e9299`; before, it sent at once only
    /// when the oldest unacknowledged segment left less than SRTT/2 ago, which in steady
    /// state it seldom has). The fidelity suite's setting: docs/fidelity-notes.md, "A partial skb
    /// and the next ACK: Linux 6.18's transmissions".
    pub fn with_linux_6_18(mut self, on: bool) -> Self {
        self.linux_6_18 = on;
        self
    }

    /// Segments the buffer holds: sent and not yet acknowledged, and not yet sent.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    pub fn on_window(&mut self, cwnd: f64) {
        if cwnd > self.largest_window {
            self.largest_window = cwnd;
            self.capacity = (SEGMENTS_PER_WINDOW * cwnd).ceil() as u64;
        }
    }

    /// Segments from new segment `seq` to the end of its skb: what must fit in the window
    /// before `seq` leaves. New segments are asked in order.
    pub fn rest_of_skb(&mut self, seq: u64) -> u64 {
        while self.skb_end <= seq {
            self.skb_end = match self.next_end.take() {
                Some(end) => end,
                None => self.skb_end + self.draw_skb(),
            };
        }
        self.skb_end - seq
    }

    pub fn on_send(&mut self, seq: u64, now: Time) {
        self.last_send = Some(now);
        // Only 6.18's next-ACK rule reads the send times.
        if !self.linux_6_18 {
            return;
        }
        let Some(i) = seq.checked_sub(self.first_unacked) else { return };
        let len = self.send_times.len();
        match self.send_times.get_mut(i as usize) {
            Some(t) => *t = now,
            None if i as usize == len => self.send_times.push_back(now),
            // Beyond the recorded range (a go-back-N resend): not the oldest, not needed.
            None => {}
        }
    }

    /// Segments below `snd_una` are acknowledged: their send times are no longer needed.
    pub fn on_cumulative_ack(&mut self, snd_una: u64) {
        if let Some(acked) = snd_una.checked_sub(self.first_unacked) {
            self.send_times.drop_front(acked.min(self.send_times.len() as u64) as usize);
            self.first_unacked = snd_una;
        }
    }

    /// Whether the next ACK is due more than min(SRTT/2, 1 ms) from now: the oldest
    /// unacknowledged segment's send time plus SRTT (`tcp_tso_should_defer`'s "If next ACK
    /// is likely to come too late"). With nothing in flight there is no ACK to wait for.
    fn ack_due_late(&self, now: Time, srtt: impl FnOnce() -> Option<Time>) -> bool {
        let Some(&sent) = self.send_times.front() else { return true };
        let Some(srtt) = srtt() else { return true };
        let threshold = (srtt / 2).min(DEFER_ONLY_WITHIN);
        (sent + srtt).saturating_sub(now) > threshold
    }

    /// Whether new segment `seq` may leave now with `room` segments of window left of
    /// `window`, and if so whether it ends its skb (carries PSH). An skb that fits leaves
    /// whole; one that does not waits for the next ACK, unless Linux would split it
    /// (`tcp_tso_should_defer`, net/ipv4/tcp_output.c): the last transmission was over 1 ms
    /// ago, or the room is at least a third of the window (`with_linux_6_18` decides
    /// otherwise: `may_leave_6_18`). A split skb's first part has no PSH (`tso_fragment`); the rest
    /// keeps it. `srtt`: the sender's smoothed RTT, if it has one (asked only when needed).
    pub fn may_leave(&mut self, seq: u64, room: u64, window: u64, now: Time, srtt: impl FnOnce() -> Option<Time>) -> Option<bool> {
        if self.linux_6_18 {
            return self.may_leave_6_18(seq, room, window, now, srtt);
        }
        let rest = self.rest_of_skb(seq);
        let idle = self.last_send.is_none_or(|t| now.saturating_sub(t) > DEFER_ONLY_WITHIN);
        let leaves = rest <= room || idle || room * TSO_WIN_DIVISOR >= window;
        leaves.then_some(rest == 1)
    }

    /// `may_leave` as Linux 6.18's `tcp_write_xmit` decides (`with_linux_6_18`). The first
    /// segment of a transmission decides it: its skb grows to the quota, min(room, half
    /// the window, `MAX_SEGS`), if shorter (`tcp_grow_skb`: the grown skb keeps its own
    /// PSH, and takes the next skb's if it ate all of it); an skb of one segment leaves; a
    /// longer one leaves unless `tcp_tso_should_defer` defers it, and then at most the
    /// quota of it (`tcp_mss_split_point`), the first part without PSH (`tso_fragment`).
    fn may_leave_6_18(&mut self, seq: u64, room: u64, window: u64, now: Time, srtt: impl FnOnce() -> Option<Time>) -> Option<bool> {
        if seq < self.chunk_end {
            return Some(seq + 1 == self.skb_end);
        }
        self.rest_of_skb(seq);
        let quota = room.min((window / 2).max(1)).min(MAX_SEGS);
        self.grow(seq, quota);
        let len = self.skb_end - seq;
        if len > 1 {
            let idle = self.last_send.is_none_or(|t| now.saturating_sub(t) > DEFER_ONLY_WITHIN);
            // The skb is never the write queue's tail here: a bulk sender has more queued.
            let send_now = idle || room >= MAX_SEGS || room >= len || room * TSO_WIN_DIVISOR >= window || self.ack_due_late(now, srtt);
            if !send_now {
                return None;
            }
        }
        self.chunk_end = seq + len.min(quota.max(1));
        Some(seq + 1 == self.skb_end)
    }

    /// `tcp_grow_skb`: the head skb [seq, skb_end) takes segments from the next skb until it
    /// holds `quota`; the next keeps the rest, and its own end (and PSH).
    fn grow(&mut self, seq: u64, quota: u64) {
        let len = self.skb_end - seq;
        if len >= quota {
            return;
        }
        let next_end = match self.next_end {
            Some(e) => e,
            None => self.skb_end + self.draw_skb(),
        };
        let grown = seq + quota;
        if grown >= next_end {
            self.skb_end = next_end;
            self.next_end = None;
        } else {
            self.skb_end = grown;
            self.next_end = Some(next_end);
        }
    }

    fn draw_skb(&mut self) -> u64 {
        if self.rng.uniform() < SKB_OF_THREE { 3 } else { 2 }
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
        // Written out, not DEFER_ONLY_WITHIN, so that a wrong unit in the constant shows.
        let ms = crate::time::millis(1);
        // The first skb is in flight; the next starts at `next`.
        let next = b.rest_of_skb(0);
        for seq in 0..next {
            b.on_send(seq, 10 * ms);
        }
        let rest = b.rest_of_skb(next);
        // Without the next-ACK rule the SRTT plays no part.
        let due_now = || None;
        // Room for all of its skb but one segment, in a window of 20: it waits for the next ACK...
        assert_eq!(b.may_leave(next, rest - 1, 20, 10 * ms + ms / 2, due_now), None);
        // ...unless the last send was over a millisecond ago: its first part leaves, no PSH.
        assert_eq!(b.may_leave(next, rest - 1, 20, 11 * ms + 1, due_now), Some(false));
        // Room for all of it: it leaves whole, PSH on its last segment.
        assert_eq!(b.may_leave(next, rest, 20, 10 * ms, due_now), Some(false));
        assert_eq!(b.may_leave(next + rest - 1, 1, 20, 10 * ms, due_now), Some(true));
        // Room of a third of the window: a partial skb leaves at once.
        assert_eq!(b.may_leave(next, 1, 3, 10 * ms, due_now), Some(false));
    }

    #[test]
    fn with_linux_6_18_an_skb_does_not_wait_for_an_ack_due_more_than_a_millisecond_from_now() {
        let mut b = SendBuffer::new(Rng::for_stream(1, 0)).with_linux_6_18(true);
        let ms = crate::time::millis(1);
        // The skb asked about starts at `next`, after ten or more segments in flight.
        let next = (9..).find(|&s| b.ends_skb(s)).unwrap() + 1;
        let size = b.rest_of_skb(next);
        b.on_send(0, 0);
        for seq in 1..next {
            b.on_send(seq, 39 * ms + ms / 2);
        }
        let now = 39 * ms + 9 * ms / 10;
        // Segment 0's ACK is due at 40 ms, 0.1 ms from now: the skb waits for it.
        assert_eq!(b.may_leave(next, size - 1, 20, now, || Some(40 * ms)), None);
        // With an SRTT of 41.5 ms it is due 1.6 ms from now: the part that fits leaves...
        assert_eq!(b.may_leave(next, size - 1, 20, now, || Some(41 * ms + ms / 2)), Some(false));
        // ...where the kernels before October 2025 wait.
        b.linux_6_18 = false;
        assert_eq!(b.may_leave(next, size - 1, 20, now, || Some(41 * ms + ms / 2)), None);
        b.linux_6_18 = true;
        // Once segment 0 is acknowledged the next ACK is segment 1's, due an SRTT after
        // 39.5 ms.
        b.on_cumulative_ack(1);
        assert_eq!(b.may_leave(next, size - 1, 20, now, || Some(40 * ms)), Some(false));
        // Nothing in flight: no ACK to wait for.
        b.on_cumulative_ack(next);
        assert_eq!(b.may_leave(next, size - 1, 20, now, || Some(40 * ms)), Some(false));
    }

    #[test]
    fn linux_6_18_sends_two_segments_at_once_and_grows_a_split_skbs_rest() {
        let ms = crate::time::millis(1);
        let mut b = SendBuffer::new(Rng::for_stream(1, 0)).with_linux_6_18(true);
        // The first skb in flight; the second, `next`, asked about with room for one
        // segment, its ACK due now: it waits (6.18 splits only a skb it cannot send whole).
        let next = (0..).find(|&s| b.ends_skb(s)).unwrap() + 1;
        for seq in 0..next {
            b.on_send(seq, 10 * ms);
        }
        let size = b.rest_of_skb(next);
        let srtt = || Some(0);
        assert_eq!(b.may_leave(next, 1, 20, 10 * ms, srtt), None);
        // Once the last send is over 1 ms old, its first segment leaves without PSH.
        assert_eq!(b.may_leave(next, 1, 20, 11 * ms + 1, srtt), Some(false));
        b.on_send(next, 11 * ms + 1);
        // Room for two: the rest of the skb grows with the next skb's first segment and the
        // two leave together, PSH on the second, whatever the skbs' sizes.
        let (a, c) = (next + 1, next + 2);
        let rest = b.rest_of_skb(a);
        assert_eq!(rest, size - 1);
        assert_eq!(b.may_leave(a, 2, 20, 11 * ms + 2, srtt), Some(false));
        assert_eq!(b.may_leave(c, 1, 20, 11 * ms + 2, srtt), Some(true));
        // Room for two with a head skb of three: two leave at once, neither with PSH.
        let mut b = SendBuffer::new(Rng::for_stream(1, 0)).with_linux_6_18(true);
        let three = (0..).find(|&s| b.rest_of_skb(s) == 3).unwrap();
        for seq in 0..three {
            b.ends_skb(seq);
            b.on_send(seq, 10 * ms);
        }
        assert_eq!(b.may_leave(three, 2, 20, 10 * ms, srtt), Some(false));
        assert_eq!(b.may_leave(three + 1, 1, 20, 10 * ms, srtt), Some(false));
        // The third segment, alone, leaves with PSH when there is room for it.
        assert_eq!(b.may_leave(three + 2, 1, 20, 10 * ms, srtt), Some(true));
    }

    #[test]
    fn the_buffer_grows_with_the_largest_window_only() {
        let mut b = SendBuffer::new(Rng::for_stream(1, 0));
        b.on_window(20.0);
        b.on_window(12.0);
        assert_eq!(b.capacity(), 60);
    }
}
