//! Multipath TCP in the simulator: connections of several TCP subflows with one coupled
//! controller, data-level reassembly, schedulers, and MPTCP-SBD / TR-LIA (see `engine`).

mod ack_delay;
mod ack_shape;
pub mod config;
pub mod coupling_audit;
mod coupling_rule;
pub(crate) mod engine;
pub mod options;
mod pairwise;
pub(crate) mod receiver;
mod scheduler;
pub(crate) mod sender;
mod verify;

pub use config::{MptcpConfig, MultipathCc, ReceiverReport, SbdFeedback, SbdPolicy, Scheduler, SubflowRoute, VerifyFollow, VerifyStart, MAX_SUBFLOWS};
pub use engine::{MptcpId, MptcpStats};
pub use coupling_audit::{CouplingAudit, CouplingRecord};
pub use receiver::GroupingRecord;
pub use verify::{ComparisonRecord, EVIDENCE_SHARE};
