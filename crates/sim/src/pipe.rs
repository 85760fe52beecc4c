//! Propagation delay. A pipe keeps its in-flight packets in a FIFO with their due times and
//! keeps only one event scheduled: the head's. Packets are put in at the time they will
//! *enter* the pipe if that is known (a queue knows when it will finish serialising a
//! packet), so a queue and its pipe cost one event per packet together.

use crate::event::{EventKind, EventQueue};
use crate::jitter::Jitter;
use crate::packet::PacketId;
use crate::ring::Ring;
use crate::time::Time;

pub struct Pipe {
    delay: Time,
    /// In flight, due times non-decreasing.
    in_flight: Ring<InFlight>,
    /// A sender's send jitter (jitter.rs): each packet's delay grows by a random amount,
    /// kept in FIFO order; held in the pipe itself (a boxed one cost a pointer chase per packet).
    jitter: Option<Jitter>,
}

#[derive(Clone, Copy, Default)]
struct InFlight {
    due: Time,
    /// When the packet entered the pipe.
    entered: Time,
    id: PacketId,
    /// The element the packet visits next.
    next: u32,
}

impl Pipe {
    pub fn new(delay: Time) -> Self {
        // Small at first: the ring doubles to what the pipe holds at its fullest, and a pipe
        // that holds a packet or two (a sender's jitter, a host's latency) then cycles through
        // a few cache lines instead of 64 slots' worth.
        Pipe { delay, in_flight: Ring::with_capacity(4), jitter: None }
    }

    /// A zero-delay pipe that holds each packet for a random time (jitter.rs).
    pub fn with_jitter(jitter: Jitter) -> Self {
        Pipe { jitter: Some(jitter), ..Pipe::new(0) }
    }

    pub fn delay(&self) -> Time {
        self.delay
    }

    pub fn has_jitter(&self) -> bool {
        self.jitter.is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// The delay and the jitter, for a pipe that becomes a lead-in (lead_in.rs).
    pub fn into_parts(self) -> (Time, Option<Jitter>) {
        (self.delay, self.jitter)
    }

    /// Takes in a packet that enters the pipe at `enter` (now or later) and reaches the far
    /// end at `enter + delay`. Returns false, taking nothing, if that is before the last
    /// packet in flight reaches it (a pipe fed by several queues): the caller then
    /// schedules the packet's arrival on its own.
    ///
    /// The head's event counts as scheduled when the packet entered the pipe or when the
    /// packet before it left, whichever was later: when a pipe event was scheduled before
    /// queues knew departures in advance (event.rs).
    #[inline(always)]
    pub fn admit(&mut self, id: PacketId, next_element: u32, enter: Time, me: u32, events: &mut EventQueue) -> bool {
        let mut due = enter + self.delay;
        if let Some(j) = self.jitter.as_mut() {
            due = (due + j.draw()).max(self.in_flight.back().map_or(0, |l| l.due));
        }
        match self.in_flight.back() {
            Some(last) if last.due > due => return false,
            Some(_) => {}
            None => events.schedule_as_of(due, enter, me, EventKind::PipeArrival),
        }
        self.in_flight.push_back(InFlight { due, entered: enter, id, next: next_element });
        true
    }

    /// The head reached the far end: returns it with the element it goes to, and schedules
    /// the next head, whose packet and next element are returned too (the caller prefetches
    /// them: after a propagation delay they are no longer in cache).
    #[inline]
    pub fn deliver_head(&mut self, now: Time, me: u32, events: &mut EventQueue) -> ((PacketId, u32), Option<(PacketId, u32)>) {
        let head = self.in_flight.pop_front().expect("pipe event with nothing in flight");
        let next = self.in_flight.front().map(|n| {
            events.schedule_as_of(n.due, n.entered.max(now), me, EventKind::PipeArrival);
            (n.id, n.next)
        });
        ((head.id, head.next), next)
    }
}
