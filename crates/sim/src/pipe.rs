//! Propagation delay. A pipe keeps its in-flight packets in a FIFO (all take the same
//! delay, so they leave in arrival order) and keeps only one event scheduled: the head's.

use std::collections::VecDeque;

use crate::event::{EventKind, EventQueue};
use crate::packet::PacketId;
use crate::time::Time;

pub struct Pipe {
    delay: Time,
    /// (due time, packet, element the packet visits next).
    in_flight: VecDeque<(Time, PacketId, u32)>,
}

impl Pipe {
    pub fn new(delay: Time) -> Self {
        Pipe { delay, in_flight: VecDeque::with_capacity(64) }
    }

    #[inline]
    pub fn arrive(&mut self, id: PacketId, next_element: u32, now: Time, me: u32, events: &mut EventQueue) {
        let due = now + self.delay;
        if self.in_flight.is_empty() {
            events.schedule(due, me, EventKind::PipeArrival);
        }
        self.in_flight.push_back((due, id, next_element));
    }

    /// The head reached the far end: returns it and schedules the next head, whose packet
    /// and next element are returned too (the caller prefetches them: after a propagation
    /// delay they are no longer in cache).
    #[inline]
    pub fn deliver_head(&mut self, me: u32, events: &mut EventQueue) -> (PacketId, Option<(PacketId, u32)>) {
        let (_, id, _) = self.in_flight.pop_front().expect("pipe event with nothing in flight");
        let next = self.in_flight.front().map(|&(due, next_id, next_el)| {
            events.schedule(due, me, EventKind::PipeArrival);
            (next_id, next_el)
        });
        (id, next)
    }
}
