//! The fidelity suite: each case of `scenarios/fidelity/` run in the simulator (several
//! seeds) and on the testbed (several repeats), one quantity per case compared side by side.
//! The tolerances: the simulator within 10 % of real Linux on every TCP case and within 15 %
//! on every MPTCP case. It lives in the command line because it runs both backends, and
//! no backend depends on another.

pub mod report;
mod run;
mod suite;

pub use report::{doc_block, figure, report_markdown, Row};
pub use run::{earlier_real_runs, real_repeat, simulate_case, Settings};
pub use suite::{Case, SUITE};
