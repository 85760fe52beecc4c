//! Where an experiment runs. A backend takes a loaded scenario and returns its `Outcome`,
//! from which `output::write_all` writes the same files and keys whatever ran it; or it
//! refuses the scenario before running anything, naming the key it cannot honour.

use crate::outcome::Outcome;
use crate::Loaded;
use std::fmt;

/// Why a backend did not produce an outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The scenario asks for something this backend cannot run; the message names the file,
    /// the key (its dotted path) and why. Nothing ran.
    Refused(String),
    /// The run itself failed (the message says where).
    Failed(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Refused(m) | RunError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RunError {}

/// One way of running a scenario: the simulator, real Linux, multipath QUIC.
pub trait Backend {
    /// The name `pathpool run --backend` takes, recorded as summary.json's `backend`.
    fn name(&self) -> &'static str;

    /// Whether this backend can run `l`, decided without running anything.
    fn check(&self, l: &Loaded) -> Result<(), RunError>;

    /// Runs `l` (after `check`) and returns what it produced, with `Outcome::ran.backend`
    /// set to `name()`.
    fn run(&self, l: &Loaded) -> Result<Outcome, RunError>;
}
