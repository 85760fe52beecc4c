//! Arrivals a queue takes from several host delays at once and decides as the present
//! passes them. A queue whose every input is a pipe at the start of its routes (a sender's
//! send jitter, a receiving host's latency) knows each packet's arrival time when the packet
//! enters that pipe, but with several inputs of different delays (the senders' jitter into a
//! shared bottleneck) a packet entering later may arrive earlier, so it cannot decide at
//! once (ahead.rs). It keeps them here, in the order of their arrivals, and decides each
//! once the simulation has passed its arrival time (sim/merge.rs), without an event of its
//! own per packet (docs/simulator.md, "Host delays without events").

use crate::packet::PacketId;
use crate::time::Time;

#[derive(Clone, Copy, Debug)]
pub struct Pending {
    /// When the packet arrives.
    pub at: Time,
    /// When the pipe event that would have delivered it counts as scheduled (event.rs).
    pub sched: Time,
    /// Entry order: ties in (`at`, `sched`) go to the earlier entered.
    order: u64,
    pub id: PacketId,
    pub size: u32,
}

impl Pending {
    #[inline(always)]
    fn before(&self, other: &Pending) -> bool {
        (self.at, self.sched, self.order) < (other.at, other.sched, other.order)
    }

    /// Has this arrival happened before an event at `now` scheduled at `sched`? At a tie in
    /// time the earlier scheduled comes first; at a tie in both, the arrival (the order of
    /// the pipes' events was their scheduling order, which is not kept: docs/simulator.md).
    #[inline(always)]
    pub fn due_before(&self, now: Time, sched: Time) -> bool {
        self.at < now || (self.at == now && self.sched <= sched)
    }
}

pub(super) struct Merge {
    /// Latest first, so that the next to arrive is the last (a few at a time: each sender
    /// holds a packet for a jitter's draw).
    pending: Vec<Pending>,
    entered: u64,
}

impl Merge {
    pub fn new() -> Self {
        Merge { pending: Vec::with_capacity(16), entered: 0 }
    }

    #[inline]
    pub fn push(&mut self, id: PacketId, size: u32, at: Time, sched: Time) {
        let p = Pending { at, sched, order: self.entered, id, size };
        self.entered += 1;
        let v = &mut self.pending;
        let mut i = v.len();
        v.push(p);
        while i > 0 && v[i - 1].before(&p) {
            v[i] = v[i - 1];
            i -= 1;
        }
        v[i] = p;
    }

    /// The next arrival, if any.
    #[inline(always)]
    pub fn next(&self) -> Option<&Pending> {
        self.pending.last()
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<Pending> {
        self.pending.pop()
    }

    pub fn len(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrivals_leave_in_time_then_scheduling_then_entry_order() {
        let mut m = Merge::new();
        // (at, sched) as entered; the ids are the entry order.
        let entries = [(50, 0), (10, 5), (30, 0), (10, 5), (10, 2), (70, 1), (30, 0)];
        for (i, &(at, sched)) in entries.iter().enumerate() {
            m.push(i as PacketId, 100, at, sched);
        }
        let order: Vec<PacketId> = std::iter::from_fn(|| m.pop()).map(|p| p.id).collect();
        assert_eq!(order, vec![4, 1, 3, 2, 6, 0, 5]);
    }

    #[test]
    fn an_arrival_at_the_instant_of_an_event_comes_first_unless_scheduled_later() {
        let p = Pending { at: 100, sched: 40, order: 0, id: 0, size: 1 };
        assert!(p.due_before(101, 0));
        assert!(p.due_before(100, 40) && p.due_before(100, 41));
        assert!(!p.due_before(100, 39) && !p.due_before(99, u64::MAX));
    }
}
