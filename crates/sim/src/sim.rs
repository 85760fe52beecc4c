//! The simulation: builder methods, the event loop and result access.

use pathpool_cc::Controller;

use crate::ctx::Ctx;
use crate::element::{Element, ElementId, FlowId};
use crate::event::{Event, EventKind, EventQueue};
use crate::mptcp::engine::MptcpLayer;
use crate::loss::{RandomLoss, ScriptedLoss};
use crate::packet::PacketId;
use crate::pipe::Pipe;
use crate::pool::PacketPool;
use crate::probe::{FlowSeries, ProbeSeries, QueueSeries};
use crate::queue::{Queue, QueueConfig, QueueCounters};
use crate::rng::{stream, Rng};
use crate::route::RouteTable;
use crate::stats::{rate_bps, FlowKind, FlowSnapshot, FlowStats, QueueStats};
use crate::tcp::{Recovery, TcpFlowConfig, TcpReceiver, TcpSender};
use crate::time::{Time, PS_PER_SEC};
use crate::udp::{UdpConfig, UdpSink, UdpSource};

/// A builder call was given something it cannot simulate; the message names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

#[derive(Clone, Copy, Debug)]
enum FlowEntry {
    Tcp { sender: u32, receiver: u32 },
    Udp { source: u32, sink: u32 },
}

/// Target of events that belong to the simulation itself (probes).
const SIM_TARGET: u32 = u32::MAX;

struct Mark {
    time: Time,
    flows: Vec<FlowSnapshot>,
    queues: Vec<QueueCounters>,
}

pub struct Simulation {
    seed: u64,
    pub(crate) now: Time,
    pub(crate) elements: Vec<Element>,
    pub(crate) events: EventQueue,
    pub(crate) pool: PacketPool,
    routes: RouteTable,
    pub(crate) outbox: Vec<PacketId>,
    /// When the event being handled was scheduled: a queue decides with it whether a
    /// departure at the same instant came before (event.rs).
    cause: Time,
    /// One congestion controller per connection (a TCP flow is a one-subflow connection).
    pub(crate) controllers: Vec<Controller>,
    pub(crate) mptcp: MptcpLayer,
    /// Per element: the controller its sender uses (u32::MAX: none), for prefetching.
    controller_of: Vec<u32>,
    flows: Vec<FlowEntry>,
    queues: Vec<u32>,
    probe_interval: Option<Time>,
    series: ProbeSeries,
    probe_prev_flows: Vec<FlowSnapshot>,
    probe_prev_queues: Vec<QueueCounters>,
    mark: Option<Mark>,
    /// Packet capture at the hosts (`crate::capture`), None unless enabled.
    pub(crate) capture: Option<Box<crate::capture::Capture>>,
}

impl Simulation {
    /// An empty network; `seed` is the master seed of every random stream.
    pub fn new(seed: u64) -> Self {
        Simulation {
            seed,
            now: 0,
            elements: Vec::new(),
            events: EventQueue::new(),
            pool: PacketPool::new(),
            routes: RouteTable::new(),
            outbox: Vec::with_capacity(64),
            cause: 0,
            controllers: Vec::new(),
            mptcp: MptcpLayer::default(),
            controller_of: Vec::new(),
            flows: Vec::new(),
            queues: Vec::new(),
            probe_interval: None,
            series: ProbeSeries::default(),
            probe_prev_flows: Vec::new(),
            probe_prev_queues: Vec::new(),
            mark: None,
            capture: None,
        }
    }

    pub fn now(&self) -> Time {
        self.now
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    // ---- building -------------------------------------------------------------------------

    fn push(&mut self, e: Element) -> ElementId {
        let conn = match &e {
            Element::TcpSender(s) => s.conn,
            _ => u32::MAX,
        };
        self.controller_of.push(conn);
        self.elements.push(e);
        ElementId((self.elements.len() - 1) as u32)
    }

    /// A FIFO served at `cfg.rate_bps`. Its random stream (RED, random tail drop) is
    /// derived from its element id.
    pub fn add_queue(&mut self, cfg: QueueConfig) -> Result<ElementId, ConfigError> {
        cfg.validate().map_err(ConfigError)?;
        let id = self.elements.len() as u64;
        let q = Queue::new(&cfg, Rng::for_stream(self.seed, stream::QUEUE | id));
        let eid = self.push(Element::Queue(q));
        self.queues.push(eid.0);
        Ok(eid)
    }

    /// A propagation delay.
    pub fn add_pipe(&mut self, delay: Time) -> ElementId {
        self.push(Element::Pipe(Pipe::new(delay)))
    }

    /// Drops each packet passing through with probability `p` (in [0, 1]; 1 is a black hole).
    pub fn add_random_loss(&mut self, p: f64) -> Result<ElementId, ConfigError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(ConfigError(format!("random loss probability must be in [0, 1], got {p}")));
        }
        let id = self.elements.len() as u64;
        Ok(self.push(Element::Loss(RandomLoss::new(p, Rng::for_stream(self.seed, stream::LOSS | id)))))
    }

    /// Drops the first transmission of the listed TCP segment numbers of every flow that
    /// crosses it (for tests that need losses at known places).
    pub fn add_scripted_loss(&mut self, segments: Vec<u64>) -> ElementId {
        self.push(Element::ScriptedLoss(ScriptedLoss::new(segments)))
    }

    /// Every hop exists and is a queue, pipe or loss element.
    pub(crate) fn check_route(&self, what: &str, hops: &[ElementId]) -> Result<(), ConfigError> {
        for h in hops {
            match self.elements.get(h.0 as usize) {
                Some(e) if e.is_network() => {}
                Some(_) => return Err(ConfigError(format!("{what}: element {} is an endpoint, not a queue, pipe or loss element", h.0))),
                None => return Err(ConfigError(format!("{what}: element {} does not exist", h.0))),
            }
        }
        if hops.len() >= u16::MAX as usize {
            return Err(ConfigError(format!("{what}: route is too long ({} elements)", hops.len())));
        }
        Ok(())
    }

    fn route(&mut self, what: &str, hops: &[ElementId], endpoint: u32) -> Result<u32, ConfigError> {
        self.check_route(what, hops)?;
        let mut ids: Vec<u32> = hops.iter().map(|h| h.0).collect();
        ids.push(endpoint);
        Ok(self.routes.intern(&ids))
    }

    /// A TCP flow from a sender to a receiver over `cfg.fwd`, ACKs over `cfg.rev`.
    pub fn add_tcp_flow(&mut self, cfg: TcpFlowConfig) -> Result<FlowId, ConfigError> {
        cfg.validate().map_err(ConfigError)?;
        cfg.cc_config.validate().map_err(|e| ConfigError(format!("tcp flow cc_config: {e}")))?;
        self.check_route("tcp flow fwd route", &cfg.fwd)?;
        self.check_route("tcp flow rev route", &cfg.rev)?;
        let conn = self.add_controller(cfg.cc, cfg.cc_config.clone(), 1);
        Ok(self.add_tcp_endpoints(&cfg, conn, 0)?.0)
    }

    pub(crate) fn add_controller(&mut self, cc: pathpool_cc::Algorithm, cfg: pathpool_cc::CcConfig, n: usize) -> u32 {
        self.controllers.push(Controller::new(cc, cfg, n));
        (self.controllers.len() - 1) as u32
    }

    /// The sender and receiver of subflow `subflow` of controller `conn`, as a flow; returns
    /// (flow, sender element, receiver element).
    pub(crate) fn add_tcp_endpoints(&mut self, cfg: &TcpFlowConfig, conn: u32, subflow: usize) -> Result<(FlowId, u32, u32), ConfigError> {
        let flow = self.flows.len() as u32;
        let sender = self.elements.len() as u32;
        let receiver = sender + 1;
        let fwd = self.route("tcp flow fwd route", &cfg.fwd, receiver)?;
        let rev = self.route("tcp flow rev route", &cfg.rev, sender)?;
        self.push(Element::TcpSender(TcpSender::new(flow, fwd, conn, subflow, cfg)));
        let delack = cfg.delayed_ack;
        let mut receiver_element = TcpReceiver::new(flow, rev, cfg.ack_bytes, cfg.recovery == Recovery::Sack, delack);
        receiver_element.owd_log = cfg.log_delays.then(Vec::new);
        self.push(Element::TcpReceiver(receiver_element));
        self.events.schedule(cfg.start.max(self.now), sender, EventKind::TcpWake);
        if let Some(stop) = cfg.stop {
            self.events.schedule(stop.max(self.now), sender, EventKind::TcpStop);
        }
        self.flows.push(FlowEntry::Tcp { sender, receiver });
        self.probe_prev_flows.push(FlowSnapshot::default());
        Ok((FlowId(flow), sender, receiver))
    }

    /// A UDP source sending along `cfg.route` to a sink. Its random stream is derived from
    /// its element id.
    pub fn add_udp_source(&mut self, cfg: UdpConfig) -> Result<FlowId, ConfigError> {
        cfg.validate().map_err(ConfigError)?;
        let flow = self.flows.len() as u32;
        let source = self.elements.len() as u32;
        let sink = source + 1;
        let route = self.route("udp route", &cfg.route, sink)?;
        let rng = Rng::for_stream(self.seed, stream::UDP | source as u64);
        let mut src = UdpSource::new(flow, route, &cfg, rng);
        let mut ctx = Ctx { now: self.now, me: source, events: &mut self.events, pool: &mut self.pool, outbox: &mut self.outbox };
        src.begin(cfg.start.max(self.now), &mut ctx);
        self.push(Element::UdpSource(src));
        self.push(Element::UdpSink(UdpSink::default()));
        self.flows.push(FlowEntry::Udp { source, sink });
        self.probe_prev_flows.push(FlowSnapshot::default());
        Ok(FlowId(flow))
    }

    /// Records per-flow and per-queue time series every `every` (> 0) from now on.
    pub fn set_probe_interval(&mut self, every: Time) -> Result<(), ConfigError> {
        if every == 0 {
            return Err(ConfigError("probe interval must be > 0".into()));
        }
        let first = self.probe_interval.is_none();
        self.probe_interval = Some(every);
        self.series.interval = every;
        if first {
            self.events.schedule(self.now + every, SIM_TARGET, EventKind::Probe);
        }
        Ok(())
    }

    // ---- running ---------------------------------------------------------------------------

    /// Runs every event due at or before `end`, then sets the clock to `end`. `progress` is
    /// called with the simulated time about once per simulated second.
    pub fn run_until(&mut self, end: Time, progress: &mut dyn FnMut(Time)) {
        let mut next_progress = (self.now / PS_PER_SEC + 1) * PS_PER_SEC;
        while let Some(ev) = self.events.pop_until(end) {
            self.now = ev.time;
            self.cause = ev.sched;
            if self.now >= next_progress {
                progress(self.now);
                next_progress = (self.now / PS_PER_SEC + 1) * PS_PER_SEC;
            }
            self.dispatch(ev);
            self.drain_outbox();
        }
        self.now = self.now.max(end);
        self.events.advance(self.now);
        self.cause = self.now;
        progress(self.now);
    }

    #[inline]
    fn dispatch(&mut self, ev: Event) {
        if ev.kind == EventKind::PacketArrival {
            self.forward(ev.target);
            return;
        }
        if ev.target == SIM_TARGET {
            self.sample_probes();
            return;
        }
        let me = ev.target;
        let outbox_mark = self.outbox.len();
        let mut subflow_event = false;
        let mut ctx = Ctx { now: self.now, me, events: &mut self.events, pool: &mut self.pool, outbox: &mut self.outbox };
        match (&mut self.elements[me as usize], ev.kind) {
            (Element::Pipe(p), EventKind::PipeArrival) => {
                let (id, next) = p.deliver_head(ctx.now, me, ctx.events);
                if let Some((next_id, next_el)) = next {
                    // The next head arrives at least one serialisation time from now: load
                    // what it will touch (packet, endpoint state, controller) meanwhile.
                    ctx.pool.prefetch(next_id);
                    if let Some(e) = self.elements.get(next_el as usize) {
                        prefetch_lines(e);
                    }
                    if let Some(c) = self.controller_of.get(next_el as usize).and_then(|&c| self.controllers.get(c as usize)) {
                        prefetch_lines(c);
                    }
                }
                self.forward(id);
            }
            (Element::TcpSender(s), kind) => {
                let ctl = &mut self.controllers[s.conn as usize];
                s.on_event(kind, &mut ctx, ctl);
                subflow_event = s.is_subflow();
            }
            (Element::TcpReceiver(r), EventKind::DelayedAck) => r.on_timer(&mut ctx),
            (Element::UdpSource(u), EventKind::UdpSend) => u.on_event(&mut ctx),
            (_, kind) => unreachable!("event {kind:?} for element {me} of another kind"),
        }
        if subflow_event {
            self.mptcp_after_sender(me, outbox_mark);
        }
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
        let mut subflow_data = None;
        let mut subflow_ack = None;
        let mut departure = None;
        {
            let p = self.pool.get_mut(id);
            let el = self.routes.hop(p.route, p.hop);
            if let Some(c) = self.capture.as_deref_mut() {
                c.on_hop(p, self.now, !self.elements[el as usize].is_network());
            }
            p.hop += 1;
            let size = p.size_bytes;
            let mut ctx = Ctx { now: self.now, me: el, events: &mut self.events, pool: &mut self.pool, outbox: &mut self.outbox };
            match &mut self.elements[el as usize] {
                Element::Queue(q) => {
                    departure = q.arrive(size, ctx.now, self.cause);
                    if departure.is_none() {
                        ctx.pool.free(id);
                    }
                }
                Element::Pipe(pipe) => {
                    let next_el = self.routes.hop(ctx.pool.get(id).route, ctx.pool.get(id).hop);
                    if !pipe.admit(id, next_el, ctx.now, el, ctx.events) {
                        ctx.events.schedule_as_of(ctx.now + pipe.delay(), ctx.now, id, EventKind::PacketArrival);
                    }
                }
                Element::Loss(l) => {
                    if l.pass() {
                        ctx.outbox.push(id);
                    } else {
                        ctx.pool.free(id);
                    }
                }
                Element::ScriptedLoss(l) => {
                    if l.pass(ctx.pool.get(id)) {
                        ctx.outbox.push(id);
                    } else {
                        ctx.pool.free(id);
                    }
                }
                Element::TcpReceiver(r) => {
                    if r.subflow {
                        subflow_data = Some(*ctx.pool.get(id));
                    }
                    r.on_data(id, &mut ctx)
                }
                Element::TcpSender(s) => {
                    let ctl = &mut self.controllers[s.conn as usize];
                    if s.is_subflow() {
                        self.mptcp.before_ack(s, ctl, ctx.pool.get(id), ctx.now);
                        subflow_ack = Some((el, ctx.outbox.len()));
                    }
                    s.on_ack(id, &mut ctx, ctl);
                }
                Element::UdpSink(k) => k.on_packet(id, &mut ctx),
                Element::UdpSource(_) => unreachable!("routes never lead into a source"),
            }
        }
        if let Some((start, end)) = departure {
            self.after_queue(id, end, start);
        }
        if let Some(p) = subflow_data {
            self.mptcp_after_data(p, id);
        }
        if let Some((el, mark)) = subflow_ack {
            self.mptcp_after_sender(el, mark);
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
    fn after_queue(&mut self, id: PacketId, departure: Time, service_start: Time) {
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

    // ---- results ---------------------------------------------------------------------------

    fn flow_snapshot(&self, f: usize) -> FlowSnapshot {
        match self.flows[f] {
            FlowEntry::Tcp { sender, receiver } => {
                let (Element::TcpSender(s), Element::TcpReceiver(r)) =
                    (&self.elements[sender as usize], &self.elements[receiver as usize])
                else {
                    unreachable!()
                };
                FlowSnapshot {
                    delivered_packets: r.counters.delivered_packets,
                    delivered_bytes: r.counters.delivered_bytes,
                    sent_packets: s.counters.sent_packets,
                    retransmissions: s.counters.retransmissions,
                    fast_retransmits: s.counters.fast_retransmits,
                    timeouts: s.counters.timeouts,
                    acks_sent: r.counters.acks_sent,
                    cwnd_area: s.cwnd_area_at(self.now),
                }
            }
            FlowEntry::Udp { source, sink } => {
                let (Element::UdpSource(s), Element::UdpSink(k)) =
                    (&self.elements[source as usize], &self.elements[sink as usize])
                else {
                    unreachable!()
                };
                FlowSnapshot {
                    delivered_packets: k.received_packets,
                    delivered_bytes: k.received_bytes,
                    sent_packets: s.counters.sent_packets,
                    ..FlowSnapshot::default()
                }
            }
        }
    }

    fn queue(&self, q: u32) -> &Queue {
        match &self.elements[q as usize] {
            Element::Queue(q) => q,
            _ => panic!("element {q} is not a queue"),
        }
    }

    fn sender(&self, f: usize) -> Option<&TcpSender> {
        match self.flows[f] {
            FlowEntry::Tcp { sender, .. } => match &self.elements[sender as usize] {
                Element::TcpSender(s) => Some(s),
                _ => None,
            },
            FlowEntry::Udp { .. } => None,
        }
    }

    /// The delay log of TCP flow `f` (`TcpFlowConfig::log_delays`), None when it keeps none.
    pub fn delay_log(&self, f: FlowId) -> Option<crate::tcp::DelayLog> {
        let FlowEntry::Tcp { receiver, .. } = self.flows[f.0 as usize] else {
            return None;
        };
        let Element::TcpReceiver(r) = &self.elements[receiver as usize] else {
            return None;
        };
        Some(crate::tcp::DelayLog { owd: r.owd_log.clone()?, rtt: self.sender(f.0 as usize)?.rtt_log.clone()? })
    }

    fn current_cwnd(&self, f: usize) -> f64 {
        self.sender(f).map_or(0.0, |s| s.effective_cwnd(&self.controllers[s.conn as usize]))
    }

    pub fn flow_count(&self) -> usize {
        self.flows.len()
    }

    /// Statistics of flow `f` over the measurement window. Panics on an id not returned by
    /// this simulation.
    pub fn flow_stats(&self, f: FlowId) -> FlowStats {
        let i = f.0 as usize;
        let (t0, base) = match &self.mark {
            Some(m) => (m.time, m.flows.get(i).copied().unwrap_or_default()),
            None => (0, FlowSnapshot::default()),
        };
        let d = self.flow_snapshot(i).minus(&base);
        let window = self.now - t0;
        let sender = self.sender(i);
        FlowStats {
            kind: if sender.is_some() { FlowKind::Tcp } else { FlowKind::Udp },
            window,
            delivered_packets: d.delivered_packets,
            delivered_bytes: d.delivered_bytes,
            throughput_bps: rate_bps(d.delivered_bytes, window),
            sent_packets: d.sent_packets,
            retransmissions: d.retransmissions,
            fast_retransmits: d.fast_retransmits,
            timeouts: d.timeouts,
            max_consecutive_timeouts: sender.map_or(0, |s| s.counters.max_consecutive_timeouts),
            acks_sent: d.acks_sent,
            cwnd: self.current_cwnd(i),
            mean_cwnd: if window == 0 { 0.0 } else { d.cwnd_area / window as f64 },
            srtt: sender.and_then(|s| s.srtt()).map(crate::time::from_nanos),
            completed_at: sender.and_then(|s| s.counters.completed_at),
        }
    }

    /// Statistics of queue `q` over the measurement window. Panics if `q` is not a queue.
    pub fn queue_stats(&self, q: ElementId) -> QueueStats {
        let c = self.queue(q.0).counters_at(self.now, Time::MAX);
        let (t0, base) = match &self.mark {
            Some(m) => {
                let idx = self.queues.iter().position(|&x| x == q.0).expect("queue");
                (m.time, m.queues.get(idx).copied().unwrap_or_default())
            }
            None => (0, QueueCounters::default()),
        };
        let window = self.now - t0;
        let w = window.max(1) as f64;
        let arrivals = c.arrivals - base.arrivals;
        let drops = c.drops - base.drops;
        let busy = c.busy_time - base.busy_time;
        QueueStats {
            window,
            arrivals,
            drops,
            departed_packets: c.departures - base.departures,
            departed_bytes: c.departure_bytes - base.departure_bytes,
            busy_time: busy,
            utilisation: busy as f64 / w,
            mean_packets: (c.area_packets - base.area_packets) as f64 / w,
            mean_bytes: (c.area_bytes - base.area_bytes) as f64 / w,
            drop_rate: if arrivals == 0 { 0.0 } else { drops as f64 / arrivals as f64 },
        }
    }

    /// Starts the measurement window now: `flow_stats` and `queue_stats` count from here.
    pub fn mark_warmup_end(&mut self) {
        let flows = (0..self.flows.len()).map(|f| self.flow_snapshot(f)).collect();
        let queues = self.queues.iter().map(|&q| self.queue(q).counters_at(self.now, Time::MAX)).collect();
        self.mark = Some(Mark { time: self.now, flows, queues });
        self.mptcp.mark();
    }

    pub(crate) fn mark_time(&self) -> Option<Time> {
        self.mark.as_ref().map(|m| m.time)
    }

    pub fn series(&self) -> &ProbeSeries {
        &self.series
    }

    pub fn events_processed(&self) -> u64 {
        self.events.processed()
    }

    /// The most packets that existed at once (pool size).
    pub fn packet_pool_high_water(&self) -> usize {
        self.pool.high_water()
    }

    /// Ids of all queues, in creation order.
    pub fn queue_ids(&self) -> Vec<ElementId> {
        self.queues.iter().map(|&q| ElementId(q)).collect()
    }

    // ---- probes ----------------------------------------------------------------------------

    fn sample_probes(&mut self) {
        let Some(every) = self.probe_interval else { return };
        let now = self.now;
        let s = &mut self.series;
        s.times.push(now);
        if s.flows.len() < self.flows.len() {
            for f in s.flows.len()..self.flows.len() {
                s.flows.push(FlowSeries { flow: FlowId(f as u32), ..FlowSeries::default() });
            }
        }
        for f in 0..self.flows.len() {
            let snap = self.flow_snapshot(f);
            let d = snap.minus(&self.probe_prev_flows[f]);
            self.probe_prev_flows[f] = snap;
            let cwnd = self.current_cwnd(f);
            let fs = &mut self.series.flows[f];
            // Flows added after probing began get zeros for the intervals before.
            while fs.cwnd.len() + 1 < self.series.times.len() {
                fs.throughput_bps.push(0.0);
                fs.delivered_packets.push(0);
                fs.cwnd.push(0.0);
                fs.retransmissions.push(0);
            }
            fs.throughput_bps.push(rate_bps(d.delivered_bytes, every));
            fs.delivered_packets.push(d.delivered_packets);
            fs.cwnd.push(cwnd);
            fs.retransmissions.push(d.retransmissions);
        }
        while self.probe_prev_queues.len() < self.queues.len() {
            self.probe_prev_queues.push(QueueCounters::default());
        }
        for (i, &q) in self.queues.iter().enumerate() {
            let queue = match &self.elements[q as usize] {
                Element::Queue(x) => x,
                _ => unreachable!(),
            };
            // A departure at exactly this instant counts if it would have come before the
            // probe (event.rs); otherwise in the next interval.
            let c = queue.counters_at(now, self.cause);
            let prev = self.probe_prev_queues[i];
            self.probe_prev_queues[i] = c;
            if self.series.queues.len() <= i {
                self.series.queues.push(QueueSeries { queue: ElementId(q), ..QueueSeries::default() });
            }
            let qs = &mut self.series.queues[i];
            while qs.drops.len() + 1 < self.series.times.len() {
                qs.mean_packets.push(0.0);
                qs.mean_bytes.push(0.0);
                qs.packets.push(0);
                qs.drops.push(0);
                qs.arrivals.push(0);
                qs.utilisation.push(0.0);
            }
            let w = every as f64;
            qs.mean_packets.push((c.area_packets - prev.area_packets) as f64 / w);
            qs.mean_bytes.push((c.area_bytes - prev.area_bytes) as f64 / w);
            qs.packets.push(queue.len_packets_at(now, self.cause) as u64);
            qs.drops.push(c.drops - prev.drops);
            qs.arrivals.push(c.arrivals - prev.arrivals);
            qs.utilisation.push((c.busy_time - prev.busy_time) as f64 / w);
        }
        self.events.schedule(now + every, SIM_TARGET, EventKind::Probe);
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
