//! Running a simulation: the event loop, and the path of a packet from element to element
//! (docs/architecture.md, "A data packet and its ACK through the simulator").

use super::{Simulation, SIM_TARGET};
use crate::ctx::Ctx;
use crate::element::Element;
use crate::event::{Event, EventKind};
use crate::mptcp::engine::Subflow;
use crate::tcp::Application;
use crate::packet::PacketId;
use crate::time::{Time, PS_PER_SEC};

impl Simulation {
    /// Runs every event due at or before `end`, then sets the clock to `end`. `progress` is
    /// called with the simulated time about once per simulated second.
    pub fn run_until(&mut self, end: Time, progress: &mut dyn FnMut(Time)) {
        if !self.lead_ins_decided {
            self.fold_lead_ins();
        }
        let mut next_progress = (self.now / PS_PER_SEC + 1) * PS_PER_SEC;
        while let Some(ev) = self.events.pop_until(end) {
            self.now = ev.time;
            self.cause = ev.sched;
            if self.merge.may_be_due(ev.time) {
                self.decide_announced(ev.time, ev.sched);
            }
            if self.now >= next_progress {
                progress(self.now);
                next_progress = (self.now / PS_PER_SEC + 1) * PS_PER_SEC;
            }
            self.dispatch(ev);
            self.drain_outbox();
        }
        self.now = self.now.max(end);
        if self.merge.may_be_due(self.now) {
            // As the events due by then would have (pop_until runs those at `end` too).
            self.decide_announced(self.now, Time::MAX);
        }
        self.events.advance(self.now);
        self.cause = self.now;
        progress(self.now);
    }

    #[inline(always)]
    fn dispatch(&mut self, ev: Event) {
        match ev.kind {
            EventKind::PacketArrival => return self.forward(ev.target),
            EventKind::PipeArrival => return self.pipe_arrival(ev.target),
            EventKind::MergeGuard => return self.on_merge_guard(),
            _ => {}
        }
        if ev.target == SIM_TARGET {
            self.sample_probes();
            return;
        }
        let me = ev.target;
        macro_rules! ctx {
            () => {
                Ctx { now: self.now, me, events: &mut self.events, pool: &mut self.pool, outbox: &mut self.outbox }
            };
        }
        match (&mut self.elements[me as usize], ev.kind) {
            (Element::TcpSender(s), kind) => {
                let ctl = &mut self.controllers[s.conn as usize];
                s.on_event(kind, &mut ctx!(), ctl, &mut Application);
            }
            (Element::SubflowSender(_), kind) => self.with_subflow_sender(me, |s, ctx, ctl, owner| s.on_event(kind, ctx, ctl, owner)),
            (Element::TcpReceiver(r) | Element::SubflowReceiver(r), EventKind::DelayedAck) => r.on_timer(&mut ctx!()),
            (Element::TcpReceiver(r) | Element::SubflowReceiver(r), EventKind::ConnectionRead) => r.on_connection_read(&mut ctx!()),
            (Element::UdpSource(u), EventKind::UdpSend) => u.on_event(&mut ctx!()),
            (_, kind) => unreachable!("event {kind:?} for element {me} of another kind"),
        }
    }

    /// The head packet of pipe `me` reached its far end: hand it on.
    #[inline(always)]
    fn pipe_arrival(&mut self, me: u32) {
        let Element::Pipe(p) = &mut self.elements[me as usize] else {
            unreachable!("pipe event for element {me}, not a pipe")
        };
        let ((id, el), next) = p.deliver_head(self.now, me, &mut self.events);
        if let Some((next_id, next_el)) = next {
            // The next head arrives at least one serialisation time from now: load what it
            // will touch (packet, endpoint state, controller) meanwhile.
            self.pool.prefetch(next_id);
            if let Some(e) = self.elements.get(next_el as usize) {
                prefetch_lines(e);
            }
            if let Some(c) = self.controller_of.get(next_el as usize).and_then(|&c| self.controllers.get(c as usize)) {
                prefetch_lines(c);
            }
        }
        self.forward_to(id, el);
    }

    /// Moves every packet in the outbox to the next element of its route, in order (the
    /// elements may add more).
    #[inline]
    fn drain_outbox(&mut self) {
        let mut next = 0;
        while next < self.outbox.len() {
            let id = self.outbox[next];
            next += 1;
            self.forward(id);
        }
        self.outbox.clear();
    }

    /// Hands packet `id` to the next element of its route. Inlined at each call site, so
    /// each site gets its own indirect branch on the element kind, which predicts far
    /// better than one shared dispatch (a queue is followed by a pipe, a pipe by an
    /// endpoint or a queue, and so on).
    #[inline(always)]
    fn forward(&mut self, id: PacketId) {
        let p = self.pool.get(id);
        let el = self.routes.hop(p.route, p.hop);
        self.forward_to(id, el);
    }

    /// `forward` to `el`, the packet's next element, known to the caller (a pipe keeps it
    /// with each packet in flight): the element's state starts loading while the packet
    /// does, instead of after the packet's route and hop were read.
    #[inline(always)]
    fn forward_to(&mut self, id: PacketId, el: u32) {
        let mut departure = None;
        let mut lead_in = None;
        {
            let p = self.pool.get_mut(id);
            if let Some(c) = self.capture.as_deref_mut() {
                c.on_hop(p, self.now, !self.elements[el as usize].is_network());
            }
            p.hop += 1;
            let size = p.size_bytes;
            let now = self.now;
            // What an endpoint may touch; built only for endpoints (queues, pipes and loss
            // elements are handled here with the fields themselves).
            macro_rules! ctx {
                () => {
                    Ctx { now, me: el, events: &mut self.events, pool: &mut self.pool, outbox: &mut self.outbox }
                };
            }
            match &mut self.elements[el as usize] {
                Element::Queue(q) => {
                    departure = q.arrive(size, now, self.cause);
                    if departure.is_none() {
                        self.pool.free(id);
                    }
                }
                Element::Pipe(pipe) => {
                    let next_el = self.routes.hop(self.pool.get(id).route, self.pool.get(id).hop);
                    if !pipe.admit(id, next_el, now, el, &mut self.events) {
                        self.events.schedule_as_of(now + pipe.delay(), now, id, EventKind::PacketArrival);
                    }
                }
                Element::LeadIn(l) => lead_in = Some(l.enter(now)),
                Element::Loss(l) => {
                    if l.pass() {
                        self.outbox.push(id);
                    } else {
                        self.pool.free(id);
                    }
                }
                Element::ScriptedLoss(l) => {
                    if l.pass(self.pool.get(id)) {
                        self.outbox.push(id);
                    } else {
                        self.pool.free(id);
                    }
                }
                Element::TcpReceiver(r) => r.on_data(id, &mut ctx!(), &mut Application),
                Element::SubflowReceiver(r) => {
                    let (c, k) = self.mptcp.locate(r.flow());
                    let mut owner = Subflow { conn: &mut self.mptcp.conns[c], k, siblings: None };
                    r.on_data(id, &mut ctx!(), &mut owner);
                }
                Element::TcpSender(s) => {
                    let ctl = &mut self.controllers[s.conn as usize];
                    s.on_ack(id, &mut ctx!(), ctl, &mut Application);
                }
                Element::SubflowSender(_) => self.with_subflow_sender(el, |s, ctx, ctl, owner| s.on_ack(id, ctx, ctl, owner)),
                Element::UdpSink(k) => k.on_packet(id, &mut ctx!()),
                Element::UdpSource(_) => unreachable!("routes never lead into a source"),
            }
        }
        if let Some((start, end)) = departure {
            self.after_queue(id, end, start);
        }
        if let Some((at, sched)) = lead_in {
            self.lead_into_queue(id, at, sched);
        }
    }

    /// Packet `id` entered a lead-in (crate::lead_in) and arrives at `at` at the queue after
    /// it, by an event that would have counted as scheduled at `sched`: the queue decides
    /// now, and the packet goes on as from any queue.
    #[inline(always)]
    fn lead_into_queue(&mut self, id: PacketId, at: Time, sched: Time) {
        let p = self.pool.get_mut(id);
        let el = self.routes.hop(p.route, p.hop);
        p.hop += 1;
        let size = p.size_bytes;
        let Element::Queue(q) = &mut self.elements[el as usize] else {
            unreachable!("a lead-in is followed by element {el}, not a queue")
        };
        if q.is_merged() {
            return self.announce(el, id, at, sched);
        }
        match q.arrive_ahead(size, at, sched, self.now) {
            Some((start, end)) => self.after_queue(id, end, start),
            None => self.pool.free(id),
        }
    }

    /// A queue accepted packet `id`, which finishes serialising at `departure`: hands it on
    /// without an event of its own. Loss elements right after the queue are instantaneous
    /// and decide now (their draws come in the queue's FIFO order, the order in which they
    /// would see the packets at departure); a pipe takes the packet into its FIFO, due at
    /// `departure` + its delay; any other element gets the packet by a `PacketArrival`
    /// event at `departure` (docs/simulator.md, "One event per packet per hop").
    ///
    /// The event counts as scheduled when the one it replaces would have been: a pipe's
    /// as the pipe decides (`Pipe::admit`); a departure's when the packet's service began.
    #[inline(always)]
    pub(super) fn after_queue(&mut self, id: PacketId, departure: Time, service_start: Time) {
        let p = self.pool.get(id);
        let route = p.route;
        let mut hop = p.hop;
        loop {
            let el = self.routes.hop(route, hop);
            let survives = match &mut self.elements[el as usize] {
                Element::Pipe(pipe) => {
                    let next_el = self.routes.hop(route, hop + 1);
                    self.pool.get_mut(id).hop = hop + 1;
                    if !pipe.admit(id, next_el, departure, el, &mut self.events) {
                        self.events.schedule_as_of(departure + pipe.delay(), departure, id, EventKind::PacketArrival);
                    }
                    return;
                }
                Element::Loss(l) => l.pass(),
                Element::ScriptedLoss(l) => l.pass(self.pool.get(id)),
                _ => {
                    self.pool.get_mut(id).hop = hop;
                    self.events.schedule_as_of(departure, service_start, id, EventKind::PacketArrival);
                    return;
                }
            };
            if !survives {
                self.pool.free(id);
                return;
            }
            hop += 1;
        }
    }
}

/// Prefetches every cache line of `value`.
#[inline(always)]
fn prefetch_lines<T>(value: &T) {
    let base = value as *const T as *const u8;
    let mut off = 0;
    while off < std::mem::size_of::<T>() {
        crate::pool::prefetch(base.wrapping_add(off));
        off += 64;
    }
}
