//! MPTCP connections in the simulation (`crate::mptcp::engine` holds their state): building
//! them, the results, and the scheduler the event loop runs after a subflow sender acted.

use pathpool_cc::{Algorithm, CcConfig, MinSsthresh};

use super::Simulation;
use crate::ctx::Ctx;
use crate::element::{Element, FlowId};
use crate::error::ConfigError;
use crate::mptcp::config::{MptcpConfig, MultipathCc, MAX_SUBFLOWS};
use crate::mptcp::engine::{Connection, MptcpId, MptcpStats};
use crate::mptcp::receiver::{DataReceiver, GroupingRecord, SbdReceiver};
use crate::mptcp::sender::{Coupler, DataSender};

impl Simulation {
    /// An MPTCP connection from one sender host to one receiver host over `cfg.subflows`.
    /// Its subflows become flows of the simulation (ids returned in `mptcp_stats`).
    pub fn add_mptcp_connection(&mut self, cfg: MptcpConfig) -> Result<MptcpId, ConfigError> {
        cfg.validate().map_err(|e| ConfigError(e.to_string()))?;
        let n = cfg.subflows.len();
        let (algorithm, min_ssthresh) = match cfg.cc {
            MultipathCc::Coupled(a) => (a, cfg.tcp.cc_config.min_ssthresh),
            MultipathCc::MptcpSbd(p) => (p.coupled, MinSsthresh::Fixed(p.min_ssthresh)),
            MultipathCc::TrLia { .. } => (Algorithm::Lia, cfg.tcp.cc_config.min_ssthresh),
        };
        let cc_config = CcConfig { min_ssthresh, ..cfg.tcp.cc_config.clone() };
        cc_config.validate().map_err(|e| ConfigError(format!("mptcp connection cc_config: {e}")))?;
        // Check every route before building anything.
        for (i, sf) in cfg.subflows.iter().enumerate() {
            self.check_route(&format!("mptcp subflow {i} fwd route"), &sf.fwd)?;
            self.check_route(&format!("mptcp subflow {i} rev route"), &sf.rev)?;
        }
        let c = self.mptcp.conns.len() as u32;
        let controller = self.add_controller(algorithm, cc_config, n);
        let mut senders = Vec::with_capacity(n);
        let mut receivers = Vec::with_capacity(n);
        let mut flows = Vec::with_capacity(n);
        for (k, sf) in cfg.subflows.iter().enumerate() {
            let mut tcp = cfg.tcp.clone();
            tcp.fwd = sf.fwd.clone();
            tcp.rev = sf.rev.clone();
            let (flow, sender, receiver) = self.add_tcp_endpoints(&tcp, controller, k)?;
            if let Element::TcpSender(s) = &mut self.elements[sender as usize] {
                s.make_subflow();
            }
            if let Element::TcpReceiver(r) = &mut self.elements[receiver as usize] {
                r.subflow = true;
            }
            if self.mptcp.of_flow.len() <= flow.0 as usize {
                self.mptcp.of_flow.resize(flow.0 as usize + 1, None);
            }
            self.mptcp.of_flow[flow.0 as usize] = Some((c, k as u8));
            senders.push(sender);
            receivers.push(receiver);
            flows.push(flow.0);
        }
        let sbd = match cfg.cc {
            MultipathCc::MptcpSbd(p) => Some(SbdReceiver::new(n, &p)),
            _ => None,
        };
        self.mptcp.conns.push(Connection {
            senders,
            receivers,
            flows,
            controller,
            start: cfg.tcp.start.max(self.now()),
            data: DataSender::new(n, cfg.cc, cfg.scheduler, cfg.receive_buffer),
            rx: DataReceiver::new(),
            sbd,
            delivered_at_mark: 0,
        });
        debug_assert!(n <= MAX_SUBFLOWS);
        Ok(MptcpId(c))
    }

    pub fn mptcp_count(&self) -> usize {
        self.mptcp.conns.len()
    }

    /// Connection-level statistics over the measurement window.
    pub fn mptcp_stats(&self, c: MptcpId) -> MptcpStats {
        let conn = &self.mptcp.conns[c.0 as usize];
        let (t0, base) = match self.mark_time() {
            Some(t) => (t, conn.delivered_at_mark),
            None => (0, 0),
        };
        let delivered = conn.rx.delivered_bytes - base;
        MptcpStats {
            subflows: conn.flows.iter().map(|&f| FlowId(f)).collect(),
            delivered_bytes: delivered,
            throughput_bps: crate::stats::rate_bps(delivered, self.now() - t0),
            max_out_of_order: conn.rx.max_out_of_order,
        }
    }

    /// The detector's observations (MPTCP-SBD: the receiver's, every 350 ms; TR-LIA: the
    /// sender's trend-line evaluations, every 5 s), times from the connection start.
    pub fn mptcp_observations(&self, c: MptcpId) -> &[GroupingRecord] {
        let conn = &self.mptcp.conns[c.0 as usize];
        match (&conn.sbd, &conn.data.coupler) {
            (Some(s), _) => &s.observations,
            (None, Coupler::Tr(t)) => &t.observations,
            _ => &[],
        }
    }

    /// MPTCP-SBD's filtered decisions (every 10 observations); empty for other schemes.
    pub fn mptcp_decisions(&self, c: MptcpId) -> &[GroupingRecord] {
        self.mptcp.conns[c.0 as usize].sbd.as_ref().map_or(&[], |s| &s.decisions)
    }

    /// The observations and decisions of the sender's own detector, which checks the
    /// receiver's (`SbdPolicy::verify`, docs/security.md); empty without the check.
    pub fn mptcp_sender_records(&self, c: MptcpId) -> (&[GroupingRecord], &[GroupingRecord]) {
        match &self.mptcp.conns[c.0 as usize].data.coupler {
            Coupler::Sbd(s) => s.own_records(),
            _ => (&[], &[]),
        }
    }

    /// MPTCP-SBD-pairwise's decided pair relations: per decision, each subflow's row as a bit
    /// set (bit j: shares a bottleneck with subflow j; its own bit: bottlenecked); empty for
    /// other schemes.
    pub fn mptcp_pair_decisions(&self, c: MptcpId) -> &[GroupingRecord] {
        self.mptcp.conns[c.0 as usize].sbd.as_ref().map_or(&[], |s| &s.pair_decisions)
    }

    /// Takes the detector's observations and decisions recorded so far out of the
    /// simulation (as `mptcp_observations` and `mptcp_decisions` list them), so that a driver
    /// can write them out as the run goes: these logs are output and grow with the run's
    /// length, everything else a connection holds is bounded (BENCHMARKS.md, "Memory over
    /// long runs").
    pub fn take_mptcp_records(&mut self, c: MptcpId) -> (Vec<GroupingRecord>, Vec<GroupingRecord>) {
        let conn = &mut self.mptcp.conns[c.0 as usize];
        match (&mut conn.sbd, &mut conn.data.coupler) {
            (Some(s), _) => (std::mem::take(&mut s.observations), std::mem::take(&mut s.decisions)),
            (None, Coupler::Tr(t)) => (std::mem::take(&mut t.observations), Vec::new()),
            _ => (Vec::new(), Vec::new()),
        }
    }

    /// Data-level bytes delivered in order so far (whole run), for tests.
    pub fn mptcp_data_delivered(&self, c: MptcpId) -> (u64, u64) {
        let conn = &self.mptcp.conns[c.0 as usize];
        (conn.rx.delivered_segments, conn.rx.rcv_nxt())
    }

    // ---- the scheduler ----------------------------------------------------------------------

    /// After subflow sender `el` handled an ACK or an event: the DSN mapping trimmed, and
    /// the scheduler run. It runs here, at the connection level, because one subflow's ACK can
    /// give data to another (as Linux's MPTCP scheduler runs on the connection after an ACK).
    #[inline(never)]
    pub(crate) fn mptcp_after_sender(&mut self, el: u32) {
        let Element::TcpSender(s) = &self.elements[el as usize] else { return };
        let (flow, snd_una) = (s.flow(), s.snd_una());
        let (c, k) = self.mptcp.locate(flow);
        self.mptcp.conns[c].data.maps[k].trim(snd_una);
        self.schedule(c);
    }

    /// Maps connection data to subflows with window room, as the scheduler picks (each
    /// subflow then sends below its map's end: `FlowOwner::data_limit`), and lets them send.
    fn schedule(&mut self, c: usize) {
        let conn = &mut self.mptcp.conns[c];
        let ctl = &self.controllers[conn.controller as usize];
        let n = conn.senders.len();
        let mut room = [0u64; MAX_SUBFLOWS];
        let mut srtt = [None; MAX_SUBFLOWS];
        let mut queued = [0u64; MAX_SUBFLOWS];
        let mut cwnd = [0f64; MAX_SUBFLOWS];
        let mut linux_buffers = false;
        for k in 0..n {
            if let Element::TcpSender(s) = &self.elements[conn.senders[k] as usize] {
                room[k] = s.new_data_room(ctl, conn.data.maps[k].end());
                srtt[k] = s.srtt();
                if s.has_send_buffer() {
                    linux_buffers = true;
                    queued[k] = conn.data.maps[k].queued();
                    cwnd[k] = if s.is_active() { s.effective_cwnd(ctl) } else { 0.0 };
                }
            }
        }
        let mut touched = 0u32;
        while conn.data.window_open() {
            let pick = if linux_buffers {
                conn.data.pick_linux(&room[..n], &queued[..n], &cwnd[..n], &srtt[..n])
            } else {
                conn.data.pick(&room[..n], &srtt[..n])
            };
            let Some(k) = pick else { break };
            conn.data.maps[k].push(conn.data.dsn_next);
            conn.data.dsn_next += 1;
            room[k] -= 1;
            queued[k] += 1;
            touched |= 1 << k;
        }
        for k in 0..n {
            if touched & (1 << k) == 0 {
                continue;
            }
            let conn = &self.mptcp.conns[c];
            let el = conn.senders[k];
            let ctl = &mut self.controllers[conn.controller as usize];
            let Element::TcpSender(s) = &mut self.elements[el as usize] else { continue };
            let mut ctx = Ctx { now: self.now, me: el, events: &mut self.events, pool: &mut self.pool, outbox: &mut self.outbox };
            s.pump(&mut ctx, ctl, &mut self.mptcp);
        }
    }
}
