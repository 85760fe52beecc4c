//! Queues that take several hosts' delays at once (queue/merge.rs): each packet is announced
//! to the queue when it enters its host's delay, and the queue decides it (drop or
//! departure) once the simulation has passed its arrival time, at the start of the next
//! event, instead of by an event of its own (docs/simulator.md, "Host delays without
//! events"). No packet can arrive earlier than one already announced after the present has
//! passed it: every packet still to be sent enters its delay in the future.
//!
//! The decision may come later than the arrival, but not too late: what it starts (the
//! departure into the queue's own pipe, its arrival at the far end) lies at least the pipe's
//! delay after the arrival, and a guard event, at most that long after any announced
//! arrival, makes sure the simulation stops by then.

use super::Simulation;
use crate::element::Element;
use crate::event::EventKind;
use crate::time::Time;

use super::SIM_TARGET;

pub(crate) struct Merged {
    /// The merged queues, each with the pipe of its own that follows it.
    queues: Vec<(u32, u32)>,
    /// The shortest delay of those pipes: how long after its arrival a packet may be decided.
    slack: Time,
    /// The earliest announced arrival not yet decided, over all merged queues (`Time::MAX`:
    /// none).
    next: Time,
    /// The guard event scheduled, if any (see the module comment).
    guard: Option<Time>,
}

impl Default for Merged {
    fn default() -> Self {
        Merged { queues: Vec::new(), slack: 0, next: Time::MAX, guard: None }
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
}

impl Simulation {
    /// Packet `id` entered a host's delay in front of merged queue `q` at `now` and arrives
    /// there at `at`, by a pipe event that would have counted as scheduled at `sched`.
    #[inline(always)]
    pub(super) fn announce(&mut self, q: u32, id: crate::packet::PacketId, size: u32, at: Time, sched: Time) {
        let Element::Queue(queue) = &mut self.elements[q as usize] else { unreachable!("element {q} is not a queue") };
        queue.announce(id, size, at, sched);
        self.merge.next = self.merge.next.min(at);
        if self.merge.guard.is_none() {
            self.schedule_merge_guard();
        }
    }

    fn schedule_merge_guard(&mut self) {
        // Every announced arrival is at or after the present: a guard one slack from now comes
        // no later than one slack after any of them.
        let at = self.now + self.merge.slack;
        self.events.schedule(at, SIM_TARGET, EventKind::MergeGuard);
        self.merge.guard = Some(at);
    }

    /// The guard event: arrivals due by now were decided as the event began; one more guard
    /// while any is still announced.
    pub(super) fn on_merge_guard(&mut self) {
        self.merge.guard = None;
        if self.merge.next != Time::MAX {
            self.schedule_merge_guard();
        }
    }

    /// Decides, in the order of their arrivals, every announced arrival that comes before an
    /// event at `now` scheduled at `sched` (`Pending::due_before`).
    pub(super) fn decide_announced(&mut self, now: Time, sched: Time) {
        loop {
            let mut first: Option<(u32, Time, Time)> = None;
            for &(q, _) in &self.merge.queues {
                let Element::Queue(queue) = &self.elements[q as usize] else { unreachable!() };
                if let Some(p) = queue.next_announced() {
                    if first.is_none_or(|(_, at, s)| (p.at, p.sched) < (at, s)) {
                        first = Some((q, p.at, p.sched));
                    }
                }
            }
            let Some((q, at, s)) = first else {
                self.merge.next = Time::MAX;
                return;
            };
            if !(at < now || (at == now && s <= sched)) {
                self.merge.next = at;
                return;
            }
            let Element::Queue(queue) = &mut self.elements[q as usize] else { unreachable!() };
            let p = queue.take_announced().expect("the arrival just read");
            match queue.arrive(p.size, p.at, p.sched) {
                Some((start, end)) => self.after_queue(p.id, end, start),
                None => self.pool.free(p.id),
            }
        }
    }
}
