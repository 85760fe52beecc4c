//! Building a simulation: queues, pipes, loss elements, TCP flows (one controller each),
//! UDP sources and the probe interval. MPTCP connections are built in `mptcp.rs`.

use pathpool_cc::Controller;

use super::{FlowEntry, Simulation, SIM_TARGET};
use crate::ctx::Ctx;
use crate::element::Element;
use crate::ids::{ElementId, FlowId};
use crate::error::ConfigError;
use crate::event::EventKind;
use crate::jitter::Jitter;
use crate::loss::{RandomLoss, ScriptedLoss};
use crate::pipe::Pipe;
use crate::queue::{Queue, QueueConfig};
use crate::rng::{stream, Rng};
use crate::stats::FlowSnapshot;
use crate::tcp::{Recovery, SendBuffer, TcpFlowConfig, TcpReceiver, TcpSender};
use crate::time::Time;
use crate::udp::{UdpConfig, UdpSink, UdpSource};

impl Simulation {
    fn push(&mut self, e: Element) -> ElementId {
        let conn = match &e {
            Element::TcpSender(s) | Element::SubflowSender(s) => s.conn,
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

    /// Send jitter for one sender: put first on its route, it holds each packet for a
    /// uniform random time in [0, max), in order (jitter.rs). Its random stream is derived
    /// from its element id.
    pub fn add_send_jitter(&mut self, max: Time) -> ElementId {
        let id = self.elements.len() as u64;
        self.push(Element::Pipe(Pipe::with_jitter(Jitter::new(max, Rng::for_stream(self.seed, stream::JITTER | id)))))
    }

    /// A receiving host's processing latency, known only to within `max` (docs/fidelity.md,
    /// "Phase"): one constant per run and host, uniform in [0, max), from the seed and
    /// `host` alone, so every flow the host receives gets the same. Put first on the route
    /// of the ACKs the host sends, it holds each that long, in order.
    pub fn add_host_latency(&mut self, max: Time, host: u64) -> ElementId {
        let latency = host_latency(self.seed, max, host);
        self.push(Element::Pipe(Pipe::new(latency)))
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
        if self.lead_ins_decided {
            self.check_folded(what, &ids)?;
        }
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
        Ok(self.add_tcp_endpoints(&cfg, conn, 0, false)?.0)
    }

    pub(crate) fn add_controller(&mut self, cc: pathpool_cc::Algorithm, cfg: pathpool_cc::CcConfig, n: usize) -> u32 {
        self.controllers.push(Controller::new(cc, cfg, n));
        (self.controllers.len() - 1) as u32
    }

    /// The sender and receiver of subflow `subflow` of controller `conn`, as a flow; returns
    /// (flow, sender element, receiver element). `mptcp`: the endpoints of an MPTCP subflow,
    /// owned by their connection (`Element::SubflowSender`); else a plain TCP flow's.
    pub(crate) fn add_tcp_endpoints(&mut self, cfg: &TcpFlowConfig, conn: u32, subflow: usize, mptcp: bool) -> Result<(FlowId, u32, u32), ConfigError> {
        let flow = self.flows.len() as u32;
        let sender = self.elements.len() as u32;
        let receiver = sender + 1;
        let fwd = self.route("tcp flow fwd route", &cfg.fwd, receiver)?;
        let rev = self.route("tcp flow rev route", &cfg.rev, sender)?;
        let mut tcp_sender = TcpSender::new(flow, fwd, conn, subflow, cfg);
        if cfg.linux_send_buffer {
            let buffer = SendBuffer::new(Rng::for_stream(self.seed, stream::SEND_BUFFER | sender as u64));
            tcp_sender.set_send_buffer(buffer.with_linux_6_18(cfg.linux_6_18));
        }
        self.push(if mptcp { Element::SubflowSender(tcp_sender) } else { Element::TcpSender(tcp_sender) });
        let delack = cfg.delayed_ack;
        let mut receiver_element = TcpReceiver::new(flow, rev, cfg.ack_bytes, cfg.recovery == Recovery::Sack, delack);
        receiver_element.owd_log = cfg.log_delays.then(Vec::new);
        receiver_element.read_ack = cfg.linux_receiver;
        receiver_element.read_lowat = cfg.read_lowat_segments;
        self.push(if mptcp { Element::SubflowReceiver(receiver_element) } else { Element::TcpReceiver(receiver_element) });
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
}

/// The latency `add_host_latency` gives host `host` in a run with master seed `seed`.
pub fn host_latency(seed: u64, max: Time, host: u64) -> Time {
    (Rng::for_stream(seed, stream::HOST | host).uniform() * max as f64) as Time
}
