//! [S1] §5.1 "cwndsim": a multipath flow over paths with constant RTTs and exogenous,
//! independent per-packet loss; once per round (the smallest RTT) every window gets either
//! an increase or a decrease.

mod config;
mod result;
mod run;

pub use config::CwndSimConfig;
pub use result::{CwndSample, CwndSimResult, PathStats};
pub use run::run_cwndsim;
