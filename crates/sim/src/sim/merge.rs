//! Queues fed by several hosts' delays (docs/simulator.md, "Host delays without events"): a
//! queue whose every input is a pipe at the start of its routes (a sender's send jitter, a
//! receiving host's latency) knows each packet's arrival time when the packet enters that
//! pipe, but with several inputs of different delays (the senders' jitter into a shared
//! bottleneck) a packet entering later may arrive earlier, so the queue cannot decide at once
//! (queue/ahead.rs). Instead each packet is announced when it enters its delay, and the queue
//! decides it (drop or departure) at the start of the first event after its arrival, without
//! an event of its own. No packet can arrive earlier than one announced once the present has
//! passed that one's arrival: every packet still to be sent enters its delay in the future.
//!
//! The decision may come later than the arrival, but not too late: what it starts (the
//! departure into the queue's own pipe, its arrival at the far end) lies at least the pipe's
//! delay after the arrival, and a guard event, at most that long after any announced
//! arrival, makes sure the simulation stops by then.

use super::Simulation;
use crate::element::Element;
use crate::event::EventKind;
use crate::packet::PacketId;
use crate::ring::Ring;
use crate::time::Time;

use super::SIM_TARGET;

/// An announced arrival.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    /// When the packet arrives.
    at: Time,
    /// When the pipe event that would have delivered it counts as scheduled (event.rs).
    sched: Time,
    id: PacketId,
    queue: u32,
}

/// (time, scheduling time) as one number, compared in one go (without a branch on the tie).
#[inline(always)]
fn key(at: Time, sched: Time) -> u128 {
    (at as u128) << 64 | sched as u128
}

impl Pending {
    #[inline(always)]
    fn key(&self) -> u128 {
        key(self.at, self.sched)
    }
}

pub(crate) struct Merged {
    /// The merged queues, each with the pipe of its own that follows it.
    queues: Vec<(u32, u32)>,
    /// The shortest delay of those pipes: how long after its arrival a packet may be decided.
    slack: Time,
    /// Every queue's announced arrivals not yet decided, in the order they arrive, the next
    /// first: ordered by (arrival, scheduling time), ties by announcement (a few at a time:
    /// each sender holds a packet for a jitter's draw). A new arrival is most often the
    /// latest, so it is placed from the back.
    pending: Ring<Pending>,
    /// The next announced arrival's time (`Time::MAX`: none).
    next: Time,
    /// The guard event scheduled, if any (see the module comment).
    guard: Option<Time>,
}

impl Default for Merged {
    fn default() -> Self {
        Merged { queues: Vec::new(), slack: 0, pending: Ring::with_capacity(64), next: Time::MAX, guard: None }
    }
}

impl Merged {
    pub(super) fn add_queue(&mut self, queue: u32, pipe: u32, delay: Time) {
        self.slack = if self.queues.is_empty() { delay } else { self.slack.min(delay) };
        self.queues.push((queue, pipe));
    }

    /// The merged queue that `pipe` follows, if any.
    pub(super) fn pipe_after_queue(&self, pipe: u32) -> Option<u32> {
        self.queues.iter().find(|&&(_, p)| p == pipe).map(|&(q, _)| q)
    }

    /// Whether an announced arrival may be due before an event at `now`.
    #[inline(always)]
    pub(super) fn may_be_due(&self, now: Time) -> bool {
        self.next <= now
    }

    /// Inserts `p` behind the arrivals it does not come before: those due earlier, and those
    /// due at the same time and scheduling time, announced earlier.
    #[inline(always)]
    fn insert(&mut self, p: Pending) {
        self.pending.insert_sorted_from_back(p, |q| q.key());
        self.next = self.next.min(p.at);
    }
}

impl Simulation {
    /// Packet `id` entered a host's delay in front of merged queue `queue` at `now` and
    /// arrives there at `at`, by a pipe event that would have counted as scheduled at `sched`.
    #[inline(always)]
    pub(super) fn announce(&mut self, queue: u32, id: PacketId, at: Time, sched: Time) {
        self.merge.insert(Pending { at, sched, id, queue });
        if self.merge.guard.is_none() {
            self.schedule_merge_guard();
        }
    }

    #[cold]
    fn schedule_merge_guard(&mut self) {
        // Every announced arrival is at or after the present: a guard one slack from now comes
        // no later than one slack after any of them.
        let at = self.now + self.merge.slack;
        self.events.schedule(at, SIM_TARGET, EventKind::MergeGuard);
        self.merge.guard = Some(at);
    }

    /// The guard event: arrivals due by now were decided as the event began; one more guard
    /// while any is still announced.
    #[cold]
    pub(super) fn on_merge_guard(&mut self) {
        self.merge.guard = None;
        if !self.merge.pending.is_empty() {
            self.schedule_merge_guard();
        }
    }

    /// Decides, in the order of their arrivals, every announced arrival that comes before an
    /// event at `now` scheduled at `sched`: at a tie in time the earlier scheduled first, and
    /// at a tie in both the arrival (the pipes' events were ordered by when they were
    /// scheduled, which is not kept: docs/simulator.md).
    #[inline(never)]
    pub(super) fn decide_announced(&mut self, now: Time, sched: Time) {
        let event = key(now, sched);
        while let Some(&p) = self.merge.pending.front() {
            if p.key() > event {
                self.merge.next = p.at;
                return;
            }
            self.merge.pending.pop_front();
            let size = self.pool.get(p.id).size_bytes;
            let Element::Queue(queue) = &mut self.elements[p.queue as usize] else { unreachable!("element {} is not a queue", p.queue) };
            match queue.arrive(size, p.at, p.sched) {
                Some((start, end)) => self.after_queue(p.id, end, start),
                None => self.pool.free(p.id),
            }
        }
        self.merge.next = Time::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrivals_leave_in_time_then_scheduling_then_announcement_order() {
        let mut m = Merged::default();
        // (at, sched) as announced; the ids are the announcement order.
        let entries = [(50, 0), (10, 5), (30, 0), (10, 5), (10, 2), (70, 1), (30, 0)];
        for (i, &(at, sched)) in entries.iter().enumerate() {
            m.insert(Pending { at, sched, id: i as PacketId, queue: 0 });
        }
        assert_eq!(m.next, 10);
        let order: Vec<PacketId> = std::iter::from_fn(|| m.pending.pop_front()).map(|p| p.id).collect();
        assert_eq!(order, vec![4, 1, 3, 2, 6, 0, 5]);
    }
}
