//! The testbed as an experiment backend (`pathpool run --backend linux`): the scenario on
//! real Linux with the kernel's controllers.

use crate::run::{self, RunOptions};
use pathpool_experiment::outcome::Outcome;
use pathpool_experiment::{Backend, Loaded, RunError};

/// Real Linux in network namespaces (needs root to run; `check` does not).
pub struct Linux {
    pub options: RunOptions,
}

impl Backend for Linux {
    fn name(&self) -> &'static str {
        "linux"
    }

    /// Every key the testbed cannot honour on this kernel is refused with its file, line and
    /// dotted path (`support::check`).
    fn check(&self, l: &Loaded) -> Result<(), RunError> {
        run::check(l).map(|_| ()).map_err(|e| RunError::Refused(e.0))
    }

    fn run(&self, l: &Loaded) -> Result<Outcome, RunError> {
        self.check(l)?;
        run::run(l, &self.options).map_err(|e| RunError::Failed(e.0))
    }
}
