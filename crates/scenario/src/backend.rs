//! The simulator as an experiment backend (`pathpool run --backend sim`, the default).

use crate::progress::Progress;
use crate::schema::FlowKind;
use pathpool_experiment::outcome::Outcome;
use pathpool_experiment::{Backend, Loaded, RunError, ScenarioError};
use std::path::PathBuf;

/// pathpool-sim, deterministic: the same scenario and seed give the same outcome.
#[derive(Clone, Debug, Default)]
pub struct Simulator {
    /// Draw a progress bar in simulated seconds (when stderr is a terminal).
    pub progress: bool,
    /// Write a pcap per host into this folder (`crate::capture`).
    pub capture: Option<PathBuf>,
}

impl Backend for Simulator {
    fn name(&self) -> &'static str {
        "sim"
    }

    /// The simulator runs every scheme of the scenario layer; what it refuses is an `sbd_*`
    /// key on a connection whose scheme has no MPTCP-SBD detector (`scheme::scheme_of`).
    fn check(&self, l: &Loaded) -> Result<(), RunError> {
        for flow in &l.topology.flows {
            if let FlowKind::Mptcp(m) = &l.scenario.flows[flow.template].kind {
                // The message `simulate` gives for the same key.
                crate::scheme::scheme_of(m).map_err(|e| RunError::Refused(ScenarioError::file(&l.source.name, format!("flow {}: {e}", flow.name)).to_string()))?;
            }
        }
        Ok(())
    }

    fn run(&self, l: &Loaded) -> Result<Outcome, RunError> {
        self.check(l)?;
        let progress = if self.progress { Progress::new(l.scenario.simulation.duration) } else { Progress::hidden() };
        // `simulate` fails only where the simulator refuses a configuration the scenario
        // checks let through (its message names the link or flow), or cannot write --pcap.
        let outcome = crate::simulate_captured(l, &progress, self.capture.as_deref()).map_err(|e| RunError::Refused(e.to_string()));
        progress.finish();
        outcome
    }
}
