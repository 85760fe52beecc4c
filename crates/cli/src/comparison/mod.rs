//! Scenarios on several backends side by side: what `pathpool compare` and its front
//! `pathpool fidelity` share. The runs (`execute`: the cheap backends first, the real ones in
//! rounds over the cases), the backend's run into a folder (`one_run`, the SBD daemon beside
//! an MPTCP-SBD run on Linux), runs kept from before (`kept`, `digest`), and the fidelity
//! table of the cases whose file has a `[fidelity]` table (`quantities`).

pub mod digest;
pub mod execute;
pub mod kept;
pub mod one_run;
pub mod plan;
pub mod quantities;
pub mod repeats;
pub mod sim_keys;
mod sbd_daemon;

pub use execute::{execute, CaseRuns};
pub use plan::{Case, Layout, Plan};
pub use repeats::Repeats;
