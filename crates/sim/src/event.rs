//! The event queue: a binary min-heap ordered by (time, scheduling time, insertion
//! sequence).
//!
//! Ties in time are broken by the simulated time at which events were scheduled, then by
//! the order of scheduling, which makes every run deterministic. The scheduling time is
//! normally the current time; a packet event that stands for something a queue decided
//! ahead of time (docs/simulator.md, "One event per packet per hop") carries the time at
//! which the departure or pipe event it replaces would have been scheduled, so that ties
//! are broken as they were when every hop took two events. Events are small plain values
//! (32 bytes); the heap never shrinks, so after warm-up scheduling allocates nothing.

use crate::time::Time;

/// What an event asks its target element to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// A packet reaches the next element of its route; the target is the packet, not an
    /// element. Used where no pipe FIFO can carry the packet: a queue followed directly
    /// by a queue or an endpoint, and a pipe whose packets would leave out of order.
    PacketArrival,
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
    /// The application read an MPTCP connection's data and left its receive memory empty:
    /// a subflow receiver holding a pushed segment may ACK it (tcp/receiver.rs).
    ConnectionRead,
    /// A UDP source's next packet (or on/off period change).
    UdpSend,
    /// The periodic probe sampling every flow and queue (target is unused).
    Probe,
    /// A queue fed by several hosts' delays decides the arrivals it was told of by now
    /// (sim/merge.rs; target is unused).
    MergeGuard,
}

#[derive(Clone, Copy, Debug)]
pub struct Event {
    pub time: Time,
    /// When the event was scheduled (or would have been, see the module comment).
    pub sched: Time,
    seq: u64,
    pub target: u32,
    pub kind: EventKind,
}

impl Event {
    #[inline(always)]
    fn before(&self, other: &Event) -> bool {
        (self.time, self.sched, self.seq) < (other.time, other.sched, other.seq)
    }
}

impl EventKind {
    /// Packet events (pipe arrivals, packet arrivals) happen once per packet and hop;
    /// timers are re-armed lazily and mostly sit waiting.
    #[inline(always)]
    fn is_packet_event(self) -> bool {
        matches!(self, EventKind::PacketArrival | EventKind::PipeArrival)
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
    /// The current simulated time: that of the last event popped, or later (`advance`).
    clock: Time,
}

impl Default for EventQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl EventQueue {
    pub fn new() -> Self {
        EventQueue { packets: Heap::new(), timers: Heap::new(), next_seq: 0, processed: 0, clock: 0 }
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

    /// Moves the clock forward to `now` (the simulation ran to a time without events).
    pub fn advance(&mut self, now: Time) {
        self.clock = self.clock.max(now);
    }

    /// Schedules an event at `time`, scheduled now.
    #[inline]
    pub fn schedule(&mut self, time: Time, target: u32, kind: EventKind) {
        self.schedule_as_of(time, self.clock, target, kind);
    }

    /// Schedules an event at `time` that counts as scheduled at `sched` (>= now). Inlined:
    /// pipes call it once per packet, and the call's register saving cost a third of it.
    #[inline(always)]
    pub fn schedule_as_of(&mut self, time: Time, sched: Time, target: u32, kind: EventKind) {
        let ev = Event { time, sched, seq: self.next_seq, target, kind };
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
        let ev = heap.pop();
        self.clock = ev.time;
        Some(ev)
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
    fn ties_in_time_go_to_the_earlier_scheduled_event() {
        let mut q = EventQueue::new();
        q.schedule_as_of(100, 60, 1, EventKind::PacketArrival);
        q.schedule_as_of(100, 40, 2, EventKind::PipeArrival);
        q.schedule(100, 3, EventKind::TcpRto);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop_until(u64::MAX)).map(|e| e.target).collect();
        assert_eq!(order, vec![3, 2, 1]);
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
