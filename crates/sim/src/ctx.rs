//! What an element may touch while it handles a packet or an event.

use crate::event::{EventKind, EventQueue};
use crate::packet::{Packet, PacketId};
use crate::pool::PacketPool;
use crate::time::Time;

pub struct Ctx<'a> {
    pub now: Time,
    /// The element being served (its arena index), for scheduling its own events.
    pub me: u32,
    pub events: &'a mut EventQueue,
    pub pool: &'a mut PacketPool,
    /// Packets to move to the next element of their route, in order.
    pub outbox: &'a mut Vec<PacketId>,
}

impl Ctx<'_> {
    #[inline]
    pub fn schedule(&mut self, at: Time, kind: EventKind) {
        self.events.schedule(at, self.me, kind);
    }

    /// Allocates `p` and sends it to the first element of its route.
    #[inline]
    pub fn send_new(&mut self, p: Packet) {
        let id = self.pool.alloc(p);
        self.outbox.push(id);
    }

    /// Sends an existing packet to the next element of its route.
    #[inline]
    pub fn forward(&mut self, id: PacketId) {
        self.outbox.push(id);
    }
}
