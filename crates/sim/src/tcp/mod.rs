//! TCP endpoints.

mod config;
mod delay_log;
mod receiver;
mod sender;
mod seqset;
mod timer;

pub use config::{Recovery, TcpFlowConfig, TcpTraffic};
pub use delay_log::{DelayLog, OwdSample, RttSample};
pub use receiver::{ReceiverCounters, TcpReceiver};
pub use sender::{Phase, SenderCounters, TcpSender};
pub(crate) use seqset::SeqSet;
