//! A pipe at the start of routes folded into the queue after it: the pipe holds each packet
//! a time known when the packet enters it (a receiving host's constant latency, or a
//! sender's send jitter, jitter.rs), and the queue is told at that moment when the packet
//! will arrive (`Queue::arrive_ahead`) instead of the pipe delivering it by an event. The
//! same timeline with one event less per packet, where the queue's arrivals are then still
//! decided in the order of their arrival times, which holds when every input of the queue
//! is such a pipe and either all of them hold packets the same constant time (a pure time
//! shift of what the endpoints send) or there is only one (a FIFO: its arrival times never
//! decrease). Which pipes qualify is decided once, before the first event
//! (sim/lead_in.rs; docs/simulator.md, "Host delays without events").

use crate::jitter::Jitter;
use crate::pipe::Pipe;
use crate::time::Time;

pub struct LeadIn {
    delay: Time,
    jitter: Option<Jitter>,
    /// When the last packet that entered arrives at the queue (0: none yet).
    last_arrival: Time,
}

impl LeadIn {
    /// The pipe `p`, empty, as a lead-in.
    pub fn from_pipe(p: Pipe) -> Self {
        let (delay, jitter) = p.into_parts();
        LeadIn { delay, jitter, last_arrival: 0 }
    }

    /// A packet enters at `now`: when it reaches the queue (as `Pipe::admit` would deliver it:
    /// its delay, plus a draw of the jitter, kept in order), and when the pipe's event that
    /// delivered it would count as scheduled (event.rs): when it entered the empty pipe, or
    /// when the packet before it left, `Pipe::deliver_head`.
    #[inline(always)]
    pub fn enter(&mut self, now: Time) -> (Time, Time) {
        let mut at = now + self.delay;
        if let Some(j) = self.jitter.as_mut() {
            at = (at + j.draw()).max(self.last_arrival);
        }
        let sched = now.max(self.last_arrival);
        self.last_arrival = at;
        (at, sched)
    }
}
