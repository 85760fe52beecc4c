//! MPTCP connections in the simulation (`crate::mptcp::engine` holds their state): building
//! them, the results, and a subflow sender's call with its connection as its owner.

use pathpool_cc::{Algorithm, CcConfig, Controller, MinSsthresh, SubflowSet};

use super::Simulation;
use crate::ctx::Ctx;
use crate::element::Element;
use crate::ids::FlowId;
use crate::error::ConfigError;
use crate::mptcp::config::{MptcpConfig, MultipathCc, SbdFeedback, MAX_SUBFLOWS};
use crate::mptcp::engine::{Connection, MptcpId, MptcpStats, Siblings, Subflow};
use crate::mptcp::receiver::{DataReceiver, GroupingRecord, SbdReceiver};
use crate::mptcp::coupling_audit::{self, CouplingAudit, CouplingRecord};
use crate::mptcp::ComparisonRecord;
use crate::mptcp::sender::{Coupler, DataSender};
use crate::tcp::{TcpSender, TcpTraffic};
use crate::time::Time;

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
            let (flow, sender, receiver) = self.add_tcp_endpoints(&tcp, controller, k, true)?;
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
            start: cfg.tcp.start.max(self.now()),
            data: DataSender::new(n, cfg.cc, cfg.scheduler, cfg.receive_buffer),
            rx: DataReceiver::new(),
            sbd,
            delivered_at_mark: 0,
            linux_buffers: cfg.tcp.linux_send_buffer,
            read_alone: cfg.tcp.subflow_read_alone,
            rate_limited: matches!(cfg.tcp.traffic, TcpTraffic::RateLimited { .. }),
            new_data_coming: 0,
            coupling_unsent: SubflowSet::all(n).0,
            may_have_room: SubflowSet::all(n).0,
            views: Default::default(),
            views_hold: 0,
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

    /// The sender's check's delay comparison test per interval (`sbd_verify`; empty
    /// otherwise): how many pairs of subflows it gave a verdict.
    pub fn mptcp_sender_comparisons(&self, c: MptcpId) -> &[ComparisonRecord] {
        match &self.mptcp.conns[c.0 as usize].data.coupler {
            Coupler::Sbd(s) => s.own_comparisons(),
            _ => &[],
        }
    }

    /// MPTCP-SBD: the sender's coupling sets from the start and at each change; empty for
    /// other schemes.
    pub fn mptcp_coupling(&self, c: MptcpId) -> &[CouplingRecord] {
        &self.mptcp.conns[c.0 as usize].data.coupling_log
    }

    /// MPTCP-SBD coupling as the decisions say (`SbdFeedback::Decisions`, not pairwise): the
    /// sender's coupling against the receiver's own detector's decisions over [`from`, `to`)
    /// since the connection's start (mptcp/coupling_audit.rs); None for other schemes, whose
    /// senders do not couple by S0's rule (`ssc-lia`'s switch, the open-loop feedbacks), so a
    /// shortfall against it would say nothing of the decisions they got.
    pub fn mptcp_coupling_audit(&self, c: MptcpId, from: Time, to: Time) -> Option<CouplingAudit> {
        let conn = &self.mptcp.conns[c.0 as usize];
        let (Some(rx), Coupler::Sbd(s)) = (&conn.sbd, &conn.data.coupler) else { return None };
        let policy = s.policy();
        (!policy.pairwise && matches!(policy.feedback, SbdFeedback::Decisions))
            .then(|| coupling_audit::audit(&rx.decisions, &conn.data.coupling_log, policy.couple_non_congested, from, to, coupling_audit::settle()))
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

    /// Runs `act` on subflow sender `el` with its connection as its owner
    /// (`crate::mptcp::engine::Subflow`), which reaches the connection's other senders
    /// through the rest of the elements.
    #[inline(always)]
    pub(crate) fn with_subflow_sender(&mut self, el: u32, act: impl FnOnce(&mut TcpSender, &mut Ctx, &mut Controller, &mut Subflow)) {
        let (below, rest) = self.elements.split_at_mut(el as usize);
        let Some((Element::SubflowSender(s), above)) = rest.split_first_mut() else {
            unreachable!("element {el} is not a subflow sender")
        };
        let (c, k) = self.mptcp.locate(s.flow());
        // Whatever the sender does now may change what the scheduler reads of it.
        self.mptcp.conns[c].views_hold &= !(1 << k);
        let ctl = &mut self.controllers[s.conn as usize];
        let mut ctx = Ctx { now: self.now, me: el, events: &mut self.events, pool: &mut self.pool, outbox: &mut self.outbox };
        let mut owner = Subflow { conn: &mut self.mptcp.conns[c], k, siblings: Some(Siblings { below, above, me: el }) };
        act(s, &mut ctx, ctl, &mut owner);
    }
}
