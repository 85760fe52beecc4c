//! Congestion control for single-path and multipath transport as pure state machines:
//! events (ACK, loss, timeout, ECN, end of an RTT round) come in with the time as an
//! argument, windows come out. No I/O, no clock reads, no allocation after construction.
//!
//! A single-path flow is a connection with one path. A transport drives a [`Controller`] (an
//! algorithm named at run time) or a [`Connection`] (one algorithm, statically dispatched),
//! one per connection with the path as an index. Each
//! algorithm is a [`CongestionControl`] in its own file with its own per-path state and
//! parameters. Multipath algorithms couple the increase (and for BALIA / FULLY COUPLED the
//! decrease) over an explicit [`SubflowSet`] the connection holds per path, so that shared
//! bottleneck detection can restrict the coupling.
//!
//! Sources (keys as in docs/algorithms.md): S1 = Raiciu/Wischik/Handley 2009; RFC 5681, 6582,
//! 6298, 6356, 9438; draft-khalili-mptcp-congestion-control-05 (OLIA),
//! draft-walid-mptcp-congestion-control-04 (BALIA), draft-xu-mptcp-congestion-control-05
//! (wVegas); the Linux MPTCP modules where the drafts leave details open.

mod algorithm;
mod balia;
mod check;
mod config;
mod connection;
mod controller;
mod cubic;
mod facts;
mod fully_coupled;
mod interface;
mod lia;
mod linked_increases;
mod olia;
mod path;
mod reno;
mod rtt;
mod scheme;
mod set;
mod window;
mod wvegas;

/// Time in nanoseconds, always passed in by the caller.
pub type Nanos = u64;

pub use algorithm::{Algorithm, SinglePath};
pub use balia::Balia;
pub use config::CcConfig;
pub use connection::{whole_segments, CongestionControl, CongestionEvent, Connection};
pub use controller::Controller;
pub use cubic::{Cubic, CubicParams, CubicRules};
pub use fully_coupled::FullyCoupled;
pub use interface::{AckInfo, Signal};
pub use lia::Lia;
pub use linked_increases::LinkedIncreases;
pub use olia::{Olia, OliaBestPath};
pub use path::PathState;
pub use reno::Reno;
pub use rtt::{RtoRule, RttEstimator, SmoothedRtt};
pub use facts::{Backend, Facts};
pub use scheme::Scheme;
pub use set::{SubflowSet, MAX_SUBFLOWS};
pub use window::{AckCounting, MinSsthresh, SlowStartTest, WindowConfig};
pub use wvegas::{WVegas, WVegasParams};
