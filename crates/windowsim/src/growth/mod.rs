//! [S3] §7.4: window growth of a two-subflow multipath connection and a NewReno flow when an
//! 80-packet FIFO per link creates the losses, over 600 cycles, with subflow 2's RTT an
//! integer multiple of subflow 1's.

mod config;
mod run;

pub use config::{GrowthConfig, Scenario};
pub use run::{run_growth, FlowWindows, GrowthResult, GrowthRow};
