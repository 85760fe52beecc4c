//! Window-level simulators: the models of [S1] §5.1 ("cwndsim": exogenous per-packet loss,
//! one increase or decrease per round) and [S3] §7.4 (window growth against an 80-packet
//! FIFO). They track congestion windows only, no packets or queues, and drive the real
//! `pathpool_cc::Controller`, so the windows they show are those of the controllers that the
//! packet-level simulator runs. No I/O here: the CLI writes the files.
//!
//! The models, and how each ambiguity in the papers was resolved, are described in
//! `docs/windowsim.md`.

mod config_error;
mod cwndsim;
mod drive;
mod growth;
mod streams;

pub use config_error::ConfigError;
pub use cwndsim::{run_cwndsim, CwndSample, CwndSimConfig, CwndSimResult, PathStats};
pub use growth::{run_growth, FlowWindows, GrowthConfig, GrowthResult, GrowthRow, Scenario};
