//! TCP endpoints, and what they ask the owner of their flow at the moment they act
//! (`FlowOwner`, declared here beside the endpoints it serves). The endpoints are
//! generic over the owner, so each kind of owner gets its own copy of their code:
//! `Application` owns a plain TCP flow (every hook is empty or the application's answer, and
//! compiles to nothing); an MPTCP subflow's owner is its connection
//! (`crate::mptcp::engine::Subflow`), which hands out the data, puts the detector's options
//! on the segments, reassembles the data, runs the detector's receiver side, couples the
//! subflows and runs the scheduler after a subflow acted. Declared here, implemented there,
//! so that TCP does not depend on MPTCP. Every packet is complete when its endpoint builds
//! it: nothing edits it afterwards.

mod config;
mod delay_log;
mod owner;
mod rack;
mod receiver;
mod sender;
mod send_buffer;
mod seqset;
mod timer;

pub use config::{Recovery, TcpFlowConfig, TcpTraffic};
pub use delay_log::{DelayLog, OwdSample, RttSample};
pub(crate) use owner::Application;
pub use receiver::{ReceiverCounters, TcpReceiver};
pub use sender::{Phase, SenderCounters, TcpSender};
pub(crate) use send_buffer::SendBuffer;
pub(crate) use seqset::SeqSet;

use crate::ctx::Ctx;
use crate::packet::Packet;
use crate::time::Time;
use pathpool_cc::Controller;

/// An MPTCP connection's receive memory after the application read a subflow's segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ConnectionMemory {
    /// Nothing out of order at the data level: Linux lets a subflow send its read-time ACK
    /// only then (`mptcp_subflow_could_cleanup`, net/mptcp/protocol.c). Always true where
    /// the subflow reads alone (`TcpFlowConfig::subflow_read_alone`).
    pub empty: bool,
    /// This segment filled the last data-level gap.
    pub emptied: bool,
}

pub(crate) trait FlowOwner {
    /// One past the last segment the sender may send as new data, if the owner decides it
    /// (an MPTCP connection: as far as its scheduler has mapped data to the subflow, or
    /// without bound where it would give the subflow all its window room anyway and maps what
    /// was sent once the sender acted); `None`: the flow's own application decides
    /// (`TcpTraffic`). `retransmissions_first`: the sender sends every pending
    /// retransmission before new data whatever the limit (outside SACK recovery, where
    /// RFC 6675 NextSeg puts new data before some retransmissions).
    fn data_limit(&self, retransmissions_first: bool) -> Option<u64>;

    /// New data the sender does not hold yet is coming (an MPTCP connection with data its
    /// scheduler will map after this ACK), so RFC 6675 NextSeg rule (4), the rescue
    /// retransmission for a sender without new data, does not apply.
    fn new_data_coming(&self) -> bool;

    /// The sender is building a data segment at `now` (`retransmit`: a retransmission): the
    /// option it carries (MP_TIMESTAMP bytes), if the connection runs a detector. A
    /// retransmission carries the loss flag itself (S0 §III-B: one loss per segment).
    fn data_option(&mut self, retransmit: bool, now: Time) -> Option<[u8; 4]>;

    /// The sender is about to handle ACK `p`: the owner reads its option and RTT sample and
    /// sets the subflow's coupling group.
    fn before_ack(&mut self, s: &TcpSender, ctl: &mut Controller, p: &Packet, now: Time);

    /// The sender has handled an ACK or an event: the owner acts in turn (an MPTCP
    /// connection trims the subflow's data mapping and runs its scheduler, which may let
    /// other subflows send).
    fn after_sender(&mut self, s: &mut TcpSender, ctx: &mut Ctx, ctl: &mut Controller);

    /// The receiver took data segment `p`: data delivered at the connection level, and the
    /// segment's MP_TIMESTAMP for the detector; and what the application's read then finds
    /// in the connection's receive memory. `None`: the flow's own application reads it.
    fn on_data(&mut self, p: &Packet, now: Time) -> Option<ConnectionMemory>;

    /// The receiver elements of the other subflows of the connection.
    fn subflow_receivers(&self) -> &[u32];

    /// The option (MP_GROUP bytes) for the ACK the receiver is building in answer to a data
    /// segment, if a grouping decision is due.
    fn ack_option(&mut self) -> Option<[u8; 4]>;
}
