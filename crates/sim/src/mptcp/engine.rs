//! MPTCP connections in the simulation: each connection's state (its subflows, data sender
//! and receiver, detector) and what the subflow endpoints ask it while they act (how far a
//! subflow may send new data, the option of a data segment, data delivered, the ACK's
//! option, the coupling before an ACK: `crate::tcp::FlowOwner`). Building connections, the
//! scheduler the event loop runs after a subflow sender acted, and the results are in
//! `crate::sim::mptcp`.
//!
//! A connection is n TCP subflows (each a sender/receiver pair on its own routes, with its
//! own sequence space and loss recovery) sharing one `pathpool_cc::Controller` with n
//! subflows. New data goes to a subflow only when the connection's scheduler grants it,
//! which records the segment's data sequence number (DSN). The receiver reassembles by DSN.

use pathpool_cc::Controller;

use super::options::{MpTimestamp, SbdOption, TIMESTAMP_MODULUS};
use super::receiver::{DataReceiver, SbdReceiver};
use super::sender::{AckShape, DataSender};
use crate::element::FlowId;
use crate::packet::{Packet, FLAG_ECHO_VALID, FLAG_MP_GROUP, FLAG_MP_TIMESTAMP};
use crate::tcp::{ConnectionMemory, FlowOwner, TcpSender};
use crate::time::Time;

/// An MPTCP connection, numbered in creation order from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MptcpId(pub u32);

/// Connection-level results over the measurement window.
#[derive(Clone, Debug, PartialEq)]
pub struct MptcpStats {
    /// The subflows as flows of the simulation (their `flow_stats` are per subflow).
    pub subflows: Vec<FlowId>,
    /// Bytes delivered in data-sequence order to the application.
    pub delivered_bytes: u64,
    pub throughput_bps: f64,
    /// Most segments the receiver held out of order at once (whole run).
    pub max_out_of_order: u64,
}

pub(crate) struct Connection {
    pub(crate) senders: Vec<u32>,
    /// The subflows' receiver elements.
    pub(crate) receivers: Vec<u32>,
    pub(crate) flows: Vec<u32>,
    pub(crate) controller: u32,
    pub(crate) start: Time,
    pub(crate) data: DataSender,
    pub(crate) rx: DataReceiver,
    pub(crate) sbd: Option<SbdReceiver>,
    pub(crate) delivered_at_mark: u64,
}

/// Every MPTCP connection, and which (connection, subflow) each flow id is.
#[derive(Default)]
pub(crate) struct MptcpLayer {
    pub(crate) conns: Vec<Connection>,
    pub(crate) of_flow: Vec<Option<(u32, u8)>>,
}

impl MptcpLayer {
    pub(crate) fn mark(&mut self) {
        for c in &mut self.conns {
            c.delivered_at_mark = c.rx.delivered_bytes;
        }
    }

    pub(crate) fn locate(&self, flow: u32) -> (usize, usize) {
        let (c, k) = self.of_flow[flow as usize].expect("flow is an MPTCP subflow");
        (c as usize, k as usize)
    }
}

/// The connection is what its subflows' endpoints ask while they act (`crate::tcp::FlowOwner`).
impl FlowOwner for MptcpLayer {
    #[inline]
    fn data_limit(&self, flow: u32) -> u64 {
        let (c, k) = self.locate(flow);
        self.conns[c].data.maps[k].end()
    }

    #[inline]
    fn data_option(&mut self, flow: u32, retransmit: bool, now: Time) -> Option<[u8; 4]> {
        let (c, k) = self.locate(flow);
        let conn = &mut self.conns[c];
        conn.sbd.as_ref()?;
        let since_start = now - conn.start;
        if retransmit {
            conn.data.on_loss(k, since_start);
        }
        let time_us = (since_start / 1_000_000 % TIMESTAMP_MODULUS as u64) as u32;
        Some(SbdOption::Timestamp(MpTimestamp { time_us, loss: retransmit }).packet_bytes())
    }

    #[inline(never)]
    fn on_data(&mut self, p: &Packet, now: Time) -> ConnectionMemory {
        let (c, k) = self.locate(p.flow);
        let conn = &mut self.conns[c];
        let gap_before = !conn.rx.nothing_out_of_order();
        if let Some(dsn) = conn.data.maps[k].get(p.seq) {
            conn.rx.on_segment(dsn, p.size_bytes);
        }
        let empty = conn.rx.nothing_out_of_order();
        let memory = ConnectionMemory { empty, emptied: gap_before && empty };
        let Some(sbd) = &mut conn.sbd else { return memory };
        if p.flags & FLAG_MP_TIMESTAMP != 0 {
            if let Ok(SbdOption::Timestamp(t)) = SbdOption::from_packet_bytes(false, p.mp_option) {
                sbd.on_timestamp(k, now - conn.start, t.time_us, t.loss);
            }
        }
        memory
    }

    fn subflow_receivers(&self, flow: u32) -> &[u32] {
        &self.conns[self.locate(flow).0].receivers
    }

    #[inline(never)]
    fn ack_option(&mut self, flow: u32) -> Option<[u8; 4]> {
        let (c, _) = self.locate(flow);
        Some(self.conns[c].sbd.as_mut()?.next_group_option()?.packet_bytes())
    }

    /// Before subflow sender `s` handles ACK `p`: decisions and RTT samples for the
    /// coupling, and the coupling set this ACK's increase runs over.
    #[inline(never)]
    fn before_ack(&mut self, s: &mut TcpSender, ctl: &mut Controller, p: &Packet, now: Time) {
        let (c, k) = self.locate(p.flow);
        let conn = &mut self.conns[c];
        if p.flags & FLAG_MP_GROUP != 0 {
            if let Ok(SbdOption::Group(g)) = SbdOption::from_packet_bytes(true, p.mp_option) {
                conn.data.on_group(g, now - conn.start);
            }
        }
        if p.flags & FLAG_ECHO_VALID != 0 && p.seq > s.snd_una() {
            let acked = AckShape { segments: p.seq - s.snd_una(), in_order: p.sack_count() == 0 };
            conn.data.on_rtt(k, now - conn.start, now - p.ts, acked);
        }
        ctl.set_coupling(s.subflow, conn.data.coupling[k]);
        if conn.data.groups_changed {
            ctl.set_groups(&conn.data.groups);
            conn.data.groups_changed = false;
        }
        s.set_connection_has_data(conn.data.window_open());
    }
}
