//! Arrivals a queue took ahead of their time. A queue whose every input is a pipe at the
//! start of its routes whose delay is known when a packet enters it (sim/lead_in.rs) is
//! handed each packet when it enters that pipe, with the time it will arrive: its decisions
//! (drop, departure) are those it would make at the arrival, but a reading of its counters
//! in between must not see the packet yet. This log keeps the arrivals taken ahead until
//! the present passes them, so that a reading can take them back.

use super::tally::QueueCounters;
use crate::ring::Ring;
use crate::time::Time;

#[derive(Clone, Copy, Default)]
struct Ahead {
    /// When the packet arrives.
    at: Time,
    /// When the event that would have brought it counts as scheduled (event.rs): it decides
    /// ties with a reading at `at`.
    sched: Time,
    size: u32,
    accepted: bool,
}

impl Ahead {
    /// Has this arrival happened, as seen at `now` by an event scheduled at `sched`? At a
    /// tie the earlier scheduled comes first, and at equal scheduling times the reading (the
    /// queue's rule for departures, `Queue::departed`).
    #[inline(always)]
    fn arrived(&self, now: Time, sched: Time) -> bool {
        self.at < now || (self.at == now && self.sched < sched)
    }
}

pub(super) struct AheadLog {
    entries: Ring<Ahead>,
}

impl AheadLog {
    pub fn new() -> Self {
        AheadLog { entries: Ring::with_capacity(8) }
    }

    /// An arrival at `at` (brought by an event counted as scheduled at `sched`) decided at
    /// `now`; `accepted` unless dropped. Arrivals before `now` are forgotten: every reading
    /// from now on sees them.
    #[inline(always)]
    pub fn note(&mut self, now: Time, at: Time, sched: Time, size: u32, accepted: bool) {
        while self.entries.front().is_some_and(|e| e.at < now) {
            self.entries.pop_front();
        }
        self.entries.push_back(Ahead { at, sched, size, accepted });
    }

    fn still_ahead(&self, now: Time, sched: Time) -> impl Iterator<Item = &Ahead> + '_ {
        self.entries.iter().filter(move |e| !e.arrived(now, sched))
    }

    /// Accepted packets that have not arrived by `now` (they are at the back of the queue).
    pub fn accepted_ahead(&self, now: Time, sched: Time) -> usize {
        self.still_ahead(now, sched).filter(|e| e.accepted).count()
    }

    /// Takes back from `c`, the totals over every packet the queue took, what the arrivals
    /// still ahead at `now` added: the arrival, a drop, or for an accepted packet the part of
    /// its stay before `now` that `Tally::less_not_left` will take (it counts every packet
    /// not yet left as in the queue up to `now`: this one only from its arrival on).
    pub fn take_back(&self, c: &mut QueueCounters, now: Time, sched: Time) {
        for e in self.still_ahead(now, sched) {
            c.arrivals -= 1;
            if e.accepted {
                let early = (e.at - now) as u128;
                c.area_packets += early;
                c.area_bytes += early * e.size as u128;
            } else {
                c.drops -= 1;
                c.drop_bytes -= e.size as u64;
            }
        }
    }
}
