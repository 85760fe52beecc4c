//! The element arena: every queue, pipe, loss element and endpoint lives in one `Vec`,
//! dispatched by `match` (no trait objects).

use crate::lead_in::LeadIn;
use crate::loss::{RandomLoss, ScriptedLoss};
use crate::pipe::Pipe;
use crate::queue::Queue;
use crate::tcp::{TcpReceiver, TcpSender};
use crate::udp::{UdpSink, UdpSource};

pub(crate) enum Element {
    Queue(Queue),
    Pipe(Pipe),
    /// A pipe at the start of routes, folded into the queue after it (lead_in.rs).
    LeadIn(LeadIn),
    Loss(RandomLoss),
    ScriptedLoss(ScriptedLoss),
    /// The endpoints of a plain TCP flow (its application owns them).
    TcpSender(TcpSender),
    TcpReceiver(TcpReceiver),
    /// The endpoints of an MPTCP subflow: its connection owns them (`crate::tcp::FlowOwner`).
    SubflowSender(TcpSender),
    SubflowReceiver(TcpReceiver),
    UdpSource(UdpSource),
    UdpSink(UdpSink),
}

impl Element {
    /// Queues, pipes and loss elements may appear in routes; endpoints are appended by the
    /// simulation itself.
    pub fn is_network(&self) -> bool {
        matches!(self, Element::Queue(_) | Element::Pipe(_) | Element::LeadIn(_) | Element::Loss(_) | Element::ScriptedLoss(_))
    }

    /// A TCP sender, whoever owns it.
    pub fn tcp_sender(&self) -> Option<&TcpSender> {
        match self {
            Element::TcpSender(s) | Element::SubflowSender(s) => Some(s),
            _ => None,
        }
    }

    /// A TCP receiver, whoever owns it.
    pub fn tcp_receiver(&self) -> Option<&TcpReceiver> {
        match self {
            Element::TcpReceiver(r) | Element::SubflowReceiver(r) => Some(r),
            _ => None,
        }
    }
}
