//! Multipath QUIC as an experiment backend (`pathpool run --backend quic`): the scenario's
//! network built by pathpool-netlab (a namespace per node, TUN links through the delay
//! element, tbf queues; needs root) and its flows as noq connections between the nodes'
//! namespaces: an MPTCP connection becomes one multipath QUIC connection with a path per
//! subflow and the scheme's coupled controller (the scheme table's `quic` column), a TCP
//! flow a single-path QUIC connection with pathpool-cc's Reno. The result is the same
//! `Outcome` the other backends return, so the files and keys are the same.
//!
//! What QUIC cannot run is refused before anything is built (`check`), naming the file, line
//! and key; docs/quic.md lists what is honoured, what QUIC does its own way, and what is
//! refused.

mod check;
mod outcome;
mod run;

pub use check::{check, QuicFlow};

use pathpool_experiment::outcome::Outcome;
use pathpool_experiment::{Backend, Loaded, RunError};

/// Multipath QUIC over the emulated network (needs root to run; `check` does not).
pub struct Quic {
    /// Draw a progress bar (when stderr is a terminal).
    pub progress: bool,
}

impl Backend for Quic {
    fn name(&self) -> &'static str {
        "quic"
    }

    fn check(&self, l: &Loaded) -> Result<(), RunError> {
        check(l).map(|_| ()).map_err(RunError::Refused)
    }

    fn run(&self, l: &Loaded) -> Result<Outcome, RunError> {
        let flows = check(l).map_err(RunError::Refused)?;
        run::run(l, flows, self.progress).map_err(RunError::Failed)
    }
}
