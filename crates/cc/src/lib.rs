//! Congestion control for single-path and multipath transport as pure state machines:
//! events (ACK, loss, timeout, ECN, end of an RTT round) come in with the time as an
//! argument, windows come out. No I/O, no clock reads, no allocation after `Controller::new`.
//!
//! A single-path flow is a connection with one subflow. Multipath algorithms couple the
//! congestion-avoidance increase (and for BALIA / FULLY COUPLED the decrease) over an explicit
//! [`SubflowSet`], so that shared bottleneck detection can restrict the coupling.
//!
//! Sources (keys as in docs/algorithms.md): S1 = Raiciu/Wischik/Handley 2009; RFC 5681, 6582,
//! 6298, 6356, 9438; draft-khalili-mptcp-congestion-control-05 (OLIA),
//! draft-walid-mptcp-congestion-control-04 (BALIA), draft-xu-mptcp-congestion-control-05
//! (wVegas); the Linux MPTCP modules where the drafts leave details open.

mod algorithm;
mod balia;
mod config;
mod controller;
mod cubic;
mod lia;
mod olia;
mod reno;
mod rtt;
mod s1_variants;
mod set;
mod subflow;
mod wvegas;

/// Time in nanoseconds, always passed in by the caller.
pub type Nanos = u64;

pub use algorithm::{Algorithm, SinglePath};
pub use config::{
    AckCounting, CcConfig, CubicParams, MinSsthresh, OliaBestPath, SlowStartTest, WVegasParams,
};
pub use controller::{AckInfo, Controller};
pub use rtt::{RtoRule, RttEstimator};
pub use set::{SubflowSet, MAX_SUBFLOWS};
