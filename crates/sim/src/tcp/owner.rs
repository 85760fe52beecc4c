//! What a TCP endpoint asks the owner of its flow at the moment it acts. A plain TCP flow
//! has no owner to ask (the endpoints skip the calls); an MPTCP subflow's owner is its
//! connection (`crate::mptcp::engine::MptcpLayer`), which hands out the data, puts the
//! detector's options on the segments, reassembles the data, runs the detector's receiver
//! side and couples the subflows. Declared here, implemented there, so that TCP does not
//! depend on MPTCP. Every packet is complete when its endpoint builds it: nothing edits it
//! afterwards.

use pathpool_cc::Controller;

use super::TcpSender;
use crate::packet::Packet;
use crate::time::Time;

/// An MPTCP connection's receive memory after the application read a subflow's segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ConnectionMemory {
    /// Nothing out of order at the data level: Linux lets a subflow send its read-time ACK
    /// only then (`mptcp_subflow_could_cleanup`, net/mptcp/protocol.c).
    pub empty: bool,
    /// This segment filled the last data-level gap.
    pub emptied: bool,
}

pub(crate) trait FlowOwner {
    /// One past the last subflow segment of `flow` the connection's scheduler has given data
    /// to: the subflow sends new segments only below it.
    fn data_limit(&self, flow: u32) -> u64;

    /// A subflow sender is building a data segment at `now` (`retransmit`: a
    /// retransmission): the option it carries (MP_TIMESTAMP bytes), if the connection runs a
    /// detector. A retransmission carries the loss flag itself (S0 §III-B: one loss per
    /// segment).
    fn data_option(&mut self, flow: u32, retransmit: bool, now: Time) -> Option<[u8; 4]>;

    /// A subflow receiver took data segment `p`: data delivered at the connection level, and
    /// the segment's MP_TIMESTAMP for the detector; and what the application's read then
    /// finds in the connection's receive memory.
    fn on_data(&mut self, p: &Packet, now: Time) -> ConnectionMemory;

    /// The receiver elements of the subflows of `flow`'s connection.
    fn subflow_receivers(&self, flow: u32) -> &[u32];

    /// The option (MP_GROUP bytes) for the ACK a subflow receiver is building in answer to a
    /// data segment, if a grouping decision is due.
    fn ack_option(&mut self, flow: u32) -> Option<[u8; 4]>;

    /// A subflow sender is about to handle ACK `p`: the connection reads its option and RTT
    /// sample, and sets the subflow's coupling group and whether connection data is waiting.
    fn before_ack(&mut self, s: &mut TcpSender, ctl: &mut Controller, p: &Packet, now: Time);
}
