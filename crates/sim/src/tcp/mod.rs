//! TCP endpoints.

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
pub(crate) use owner::{Application, ConnectionMemory, FlowOwner};
pub use receiver::{ReceiverCounters, TcpReceiver};
pub use sender::{Phase, SenderCounters, TcpSender};
pub(crate) use send_buffer::SendBuffer;
pub(crate) use seqset::SeqSet;
