//! Propagation delay. A pipe keeps its in-flight packets in a FIFO (all take the same
//! delay, so they leave in arrival order) and keeps only one event scheduled: the head's.

use std::collections::VecDeque;

use crate::event::{EventKind, EventQueue};
use crate::packet::PacketId;
use crate::time::Time;

pub struct Pipe {
    delay: Time,
    in_flight: VecDeque<(Time, PacketId)>,
}

impl Pipe {
    pub fn new(delay: Time) -> Self {
        Pipe { delay, in_flight: VecDeque::with_capacity(64) }
    }

    #[inline]
    pub fn arrive(&mut self, id: PacketId, now: Time, me: u32, events: &mut EventQueue) {
        let due = now + self.delay;
        if self.in_flight.is_empty() {
            events.schedule(due, me, EventKind::PipeArrival);
        }
        self.in_flight.push_back((due, id));
    }

    /// The head reached the far end: returns it and schedules the next head.
    #[inline]
    pub fn deliver_head(&mut self, me: u32, events: &mut EventQueue) -> PacketId {
        let (_, id) = self.in_flight.pop_front().expect("pipe event with nothing in flight");
        if let Some(&(due, _)) = self.in_flight.front() {
            events.schedule(due, me, EventKind::PipeArrival);
        }
        id
    }
}
