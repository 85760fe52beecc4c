//! The event queue: a binary min-heap ordered by (time, insertion sequence).
//!
//! Ties in time are broken by the order in which events were scheduled, which makes every
//! run deterministic. Events are small plain values (24 bytes); the heap never shrinks, so
//! after warm-up scheduling allocates nothing.

use crate::time::Time;

/// What an event asks its target element to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// A queue finished serialising its head packet.
    QueueService,
    /// The head packet of a pipe reached the pipe's far end.
    PipeArrival,
    /// A TCP sender's retransmission timer (may be stale: the sender checks its deadline).
    TcpRto,
    /// A TCP sender's start time, or a rate-limited application producing more data.
    TcpWake,
    /// A TCP sender's stop time.
    TcpStop,
    /// A TCP receiver's delayed-ACK timer (may be stale).
    DelayedAck,
    /// A UDP source's next packet (or on/off period change).
    UdpSend,
    /// The periodic probe sampling every flow and queue (target is unused).
    Probe,
}

#[derive(Clone, Copy, Debug)]
pub struct Event {
    pub time: Time,
    seq: u64,
    pub target: u32,
    pub kind: EventKind,
}

impl Event {
    #[inline(always)]
    fn before(&self, other: &Event) -> bool {
        (self.time, self.seq) < (other.time, other.seq)
    }
}

impl EventKind {
    /// Packet events (service completions, pipe arrivals) happen once per packet and hop;
    /// timers are re-armed lazily and mostly sit waiting.
    #[inline(always)]
    fn is_packet_event(self) -> bool {
        matches!(self, EventKind::QueueService | EventKind::PipeArrival)
    }
}

/// Binary min-heap of events keyed by (time, seq).
struct Heap {
    items: Vec<Event>,
}

impl Heap {
    fn new() -> Self {
        Heap { items: Vec::with_capacity(1024) }
    }

    #[inline(always)]
    fn first(&self) -> Option<&Event> {
        self.items.first()
    }

    #[inline]
    fn push(&mut self, ev: Event) {
        self.items.push(ev);
        self.sift_up(self.items.len() - 1, ev);
    }

    #[inline]
    fn pop(&mut self) -> Event {
        let first = self.items[0];
        let last = self.items.pop().expect("non-empty");
        if !self.items.is_empty() {
            self.sift_down_from_root(last);
        }
        first
    }

    #[inline]
    fn sift_up(&mut self, mut i: usize, ev: Event) {
        while i > 0 {
            let parent = (i - 1) / 2;
            if ev.before(&self.items[parent]) {
                self.items[i] = self.items[parent];
                i = parent;
            } else {
                break;
            }
        }
        self.items[i] = ev;
    }

    /// Places `ev` (the former last element) starting from the root: walk the hole down to a
    /// leaf along the smaller children, then sift `ev` up from there (Floyd's trick, fewer
    /// comparisons than the textbook sift-down since `ev` usually belongs near the bottom).
    #[inline]
    fn sift_down_from_root(&mut self, ev: Event) {
        let n = self.items.len();
        let mut hole = 0;
        loop {
            let left = 2 * hole + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.items[right].before(&self.items[left]) { right } else { left };
            self.items[hole] = self.items[child];
            hole = child;
        }
        self.sift_up(hole, ev);
    }
}

/// The event queue. Packet events and timers live in two heaps that share one sequence
/// counter, so the pop order is exactly that of a single (time, seq) heap; but the heap
/// the per-packet work touches holds only a few events per queue and pipe, while the
/// timers of thousands of flows wait in the other.
pub struct EventQueue {
    packets: Heap,
    timers: Heap,
    next_seq: u64,
    processed: u64,
}

impl Default for EventQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl EventQueue {
    pub fn new() -> Self {
        EventQueue { packets: Heap::new(), timers: Heap::new(), next_seq: 0, processed: 0 }
    }

    pub fn len(&self) -> usize {
        self.packets.items.len() + self.timers.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of events popped so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    #[inline]
    pub fn schedule(&mut self, time: Time, target: u32, kind: EventKind) {
        let ev = Event { time, seq: self.next_seq, target, kind };
        self.next_seq += 1;
        if kind.is_packet_event() {
            self.packets.push(ev);
        } else {
            self.timers.push(ev);
        }
    }

    /// Time of the earliest event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        match (self.packets.first(), self.timers.first()) {
            (Some(a), Some(b)) => Some(a.time.min(b.time)),
            (a, b) => a.or(b).map(|e| e.time),
        }
    }

    /// Removes and returns the earliest event if it is due at or before `limit`.
    #[inline]
    pub fn pop_until(&mut self, limit: Time) -> Option<Event> {
        let from_timers = match (self.packets.first(), self.timers.first()) {
            (Some(p), Some(t)) => t.before(p),
            (Some(_), None) => false,
            (None, Some(_)) => true,
            (None, None) => return None,
        };
        let heap = if from_timers { &mut self.timers } else { &mut self.packets };
        if heap.items[0].time > limit {
            return None;
        }
        self.processed += 1;
        Some(heap.pop())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_then_insertion_order_across_both_heaps() {
        let mut q = EventQueue::new();
        let times = [50u64, 10, 30, 10, 70, 30, 10, 0, 99, 50, 10, 30];
        for (i, &t) in times.iter().enumerate() {
            let kind = if i % 3 == 0 { EventKind::PipeArrival } else { EventKind::TcpRto };
            q.schedule(t, i as u32, kind);
        }
        let mut out = Vec::new();
        while let Some(e) = q.pop_until(u64::MAX) {
            out.push((e.time, e.target));
        }
        let mut expected: Vec<(u64, u32)> = times.iter().enumerate().map(|(i, &t)| (t, i as u32)).collect();
        expected.sort(); // stable key: (time, insertion index)
        assert_eq!(out, expected);
    }

    #[test]
    fn pop_until_respects_the_limit() {
        let mut q = EventQueue::new();
        q.schedule(5, 0, EventKind::Probe);
        q.schedule(15, 1, EventKind::Probe);
        assert_eq!(q.pop_until(10).map(|e| e.target), Some(0));
        assert!(q.pop_until(10).is_none());
        assert_eq!(q.len(), 1);
    }
}
