//! MPTCP connections in the simulation: each connection's state (its subflows, data sender
//! and receiver, detector) and the connection as the owner of a subflow's endpoints
//! (`Subflow`, a `crate::tcp::FlowOwner`): how far a subflow may send new data, the option
//! of a data segment, data delivered, the ACK's option, the coupling before an ACK, and the
//! scheduler after a subflow sender acted (`scheduler.rs`). Building connections and the
//! results are in `crate::sim::mptcp`.
//!
//! A connection is n TCP subflows (each a sender/receiver pair on its own routes, with its
//! own sequence space and loss recovery) sharing one `pathpool_cc::Controller` with n
//! subflows. New data goes to a subflow only when the connection's scheduler grants it,
//! which records the segment's data sequence number (DSN). The receiver reassembles by DSN.

use pathpool_cc::Controller;

use super::config::MAX_SUBFLOWS;
use super::options::{MpTimestamp, SbdOption, TIMESTAMP_MODULUS};
use super::receiver::{DataReceiver, SbdReceiver};
use super::ack_shape::AckShape;
use super::sender::DataSender;
use crate::ctx::Ctx;
use crate::element::Element;
use crate::ids::FlowId;
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
    pub(crate) start: Time,
    pub(crate) data: DataSender,
    pub(crate) rx: DataReceiver,
    pub(crate) sbd: Option<SbdReceiver>,
    pub(crate) delivered_at_mark: u64,
    /// The subflows have Linux's send buffers (`TcpFlowConfig::linux_send_buffer`, the same
    /// for all): the scheduler is Linux's (`DataSender::pick_linux`).
    pub(crate) linux_buffers: bool,
    /// A subflow's read-time ACK ignores the connection's out-of-order data
    /// (`TcpFlowConfig::subflow_read_alone`).
    pub(crate) read_alone: bool,
    /// The subflows were given rate-limited traffic (`TcpTraffic::RateLimited`, which does
    /// not limit a connection's data): a sender that reaches the end of its mapped data then
    /// schedules a wake-up, so its data stays bounded by the map (`Connection::maps_as_sent`).
    pub(crate) rate_limited: bool,
    /// Bit k: subflow k's last ACK found connection data waiting (`FlowOwner::new_data_coming`).
    pub(crate) new_data_coming: u64,
    /// Bit k: the controller has not yet been given subflow k's coupling set as it is now
    /// (it gets it before k's next ACK, `before_ack`).
    pub(crate) coupling_unsent: u64,
    /// Bit k: subflow k may have window room for new data; every other subflow has none
    /// (scheduler.rs).
    pub(crate) may_have_room: u64,
    /// With Linux's scheduler: what the last pass read of each subflow (scheduler.rs), and
    /// bit k: subflow k has neither acted nor sent since (its `SubflowView` still holds).
    pub(crate) views: [SubflowView; MAX_SUBFLOWS],
    pub(crate) views_hold: u64,
}

impl Connection {
    /// Only subflow `k` can have window room, and neither a receive window nor Linux's
    /// scheduler holds data back: every pick of the scheduler would find `k` until its room
    /// is used up (scheduler.rs).
    #[inline]
    pub(crate) fn only_taker(&self, k: usize) -> bool {
        !self.linux_buffers && self.data.receive_buffer.is_none() && self.may_have_room & !(1 << k) == 0
    }

    /// Subflow `k`, acting now, may send new data as far as its window allows: the scheduler
    /// would map all its room to it, so it maps what `k` sent once `k` has acted instead
    /// (scheduler.rs).
    #[inline]
    pub(crate) fn maps_as_sent(&self, k: usize) -> bool {
        !self.rate_limited && self.only_taker(k)
    }
}

/// What Linux's scheduler reads of a subflow (`DataSender::pick_linux`): its send buffer's
/// room, its SRTT and its window (0 if inactive).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct SubflowView {
    pub room: u64,
    pub srtt: Option<u64>,
    pub cwnd: f64,
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

/// The other elements of the simulation while one subflow sender acts: the scheduler reaches
/// its sibling subflows' senders through them.
pub(crate) struct Siblings<'a> {
    /// Elements below and above the acting sender, which is element `me`.
    pub below: &'a mut [Element],
    pub above: &'a mut [Element],
    pub me: u32,
}

impl Siblings<'_> {
    /// The sender at element `el` (not `me`).
    pub fn sender(&mut self, el: u32) -> &mut TcpSender {
        let e = if el < self.me { &mut self.below[el as usize] } else { &mut self.above[(el - self.me - 1) as usize] };
        match e {
            Element::SubflowSender(s) => s,
            _ => unreachable!("element {el} is not a subflow sender"),
        }
    }
}

/// Subflow `k` of connection `conn` as the owner of its endpoints. `siblings` only while
/// its sender handles an ACK or event: then the connection acts after it (the scheduler).
pub(crate) struct Subflow<'a> {
    pub conn: &'a mut Connection,
    pub k: usize,
    pub siblings: Option<Siblings<'a>>,
}

/// The connection is what its subflows' endpoints ask while they act.
impl FlowOwner for Subflow<'_> {
    #[inline]
    fn data_limit(&self, retransmissions_first: bool) -> Option<u64> {
        let acting = self.siblings.is_some();
        if retransmissions_first && acting && self.conn.maps_as_sent(self.k) {
            return Some(u64::MAX);
        }
        Some(self.conn.data.maps[self.k].end())
    }

    #[inline]
    fn new_data_coming(&self) -> bool {
        self.conn.new_data_coming & (1 << self.k) != 0
    }

    #[inline]
    fn data_option(&mut self, retransmit: bool, now: Time) -> Option<[u8; 4]> {
        let conn = &mut *self.conn;
        conn.sbd.as_ref()?;
        let since_start = now - conn.start;
        if retransmit {
            conn.data.on_loss(self.k, since_start);
        }
        let time_us = (since_start / 1_000_000 % TIMESTAMP_MODULUS as u64) as u32;
        Some(SbdOption::Timestamp(MpTimestamp { time_us, loss: retransmit }).packet_bytes())
    }

    /// Before subflow sender `s` handles ACK `p`: decisions and RTT samples for the
    /// coupling, and the coupling set this ACK's increase runs over (handed to the
    /// controller only when it changed: it keeps it).
    #[inline]
    fn before_ack(&mut self, s: &TcpSender, ctl: &mut Controller, p: &Packet, now: Time) {
        let k = self.k;
        if p.flags & FLAG_MP_GROUP != 0 {
            self.group_option(p, now);
        }
        let conn = &mut *self.conn;
        if p.flags & FLAG_ECHO_VALID != 0 && p.seq > s.snd_una() && conn.data.follows_rtt() {
            let acked = AckShape { segments: p.seq - s.snd_una(), in_order: p.sack_count() == 0 };
            if conn.data.on_rtt(k, now - conn.start, now - p.ts, acked) {
                conn.coupling_unsent = u64::MAX;
            }
        }
        if conn.coupling_unsent & (1 << k) != 0 {
            ctl.set_coupling(s.subflow, conn.data.coupling[k]);
            conn.coupling_unsent &= !(1 << k);
        }
        if conn.data.groups_changed {
            ctl.set_groups(&conn.data.groups);
            conn.data.groups_changed = false;
        }
        if conn.data.window_open() {
            conn.new_data_coming |= 1 << k;
        } else {
            conn.new_data_coming &= !(1 << k);
        }
    }

    #[inline]
    fn after_sender(&mut self, s: &mut TcpSender, ctx: &mut Ctx, ctl: &mut Controller) {
        if self.siblings.is_some() {
            self.schedule(s, ctx, ctl);
        }
    }

    #[inline]
    fn on_data(&mut self, p: &Packet, now: Time) -> Option<ConnectionMemory> {
        let (conn, k) = (&mut *self.conn, self.k);
        let gap_before = !conn.rx.nothing_out_of_order();
        if let Some(dsn) = conn.data.maps[k].get(p.seq) {
            conn.rx.on_segment(dsn, p.size_bytes);
        }
        let empty = conn.rx.nothing_out_of_order();
        let memory = ConnectionMemory { empty: empty || conn.read_alone, emptied: gap_before && empty };
        if conn.sbd.is_some() && p.flags & FLAG_MP_TIMESTAMP != 0 {
            self.timestamp_option(p, now);
        }
        Some(memory)
    }

    fn subflow_receivers(&self) -> &[u32] {
        &self.conn.receivers
    }

    #[inline]
    fn ack_option(&mut self) -> Option<[u8; 4]> {
        self.conn.sbd.as_ref()?;
        self.group_option_due()
    }
}

/// The detector's options, out of the hooks' common path.
impl Subflow<'_> {
    /// A data segment carrying an MP_TIMESTAMP option arrived: a sample for the detector.
    #[inline(never)]
    fn timestamp_option(&mut self, p: &Packet, now: Time) {
        let conn = &mut *self.conn;
        let Some(sbd) = &mut conn.sbd else { return };
        if let Ok(SbdOption::Timestamp(t)) = SbdOption::from_packet_bytes(false, p.mp_option) {
            sbd.on_timestamp(self.k, now - conn.start, t.time_us, t.loss);
        }
    }

    /// The MP_GROUP option for the ACK being built, if a decision is due.
    #[inline(never)]
    fn group_option_due(&mut self) -> Option<[u8; 4]> {
        Some(self.conn.sbd.as_mut()?.next_group_option()?.packet_bytes())
    }

    /// An ACK carrying an MP_GROUP option: the decision for the coupling.
    #[inline(never)]
    fn group_option(&mut self, p: &Packet, now: Time) {
        let conn = &mut *self.conn;
        if let Ok(SbdOption::Group(g)) = SbdOption::from_packet_bytes(true, p.mp_option) {
            if conn.data.on_group(g, now - conn.start) {
                conn.coupling_unsent = u64::MAX;
            }
        }
    }
}
