//! pathpool-scenario: the simulator backend of pathpool's experiments. It builds the
//! simulation of a checked scenario (pathpool-experiment), runs it, and translates the
//! simulator's statistics into the experiment's `Outcome`; with `--pcap`, it also has the
//! simulator write packet captures.
//!
//! The scenario layer itself (schema, validation, outcome, output formats) is
//! pathpool-experiment's, which knows no simulator; its modules are re-exported here so
//! that code running scenarios on the simulator names one crate.

mod backend;
pub mod capture;
mod collect;
mod convert;
pub mod scheme;
mod simulate;

pub use pathpool_experiment::{
    bounded_read, decode, delay_trace, detector_blind, error, fields, host_latency, host_model, hosts, limits, load, load_str, mptcp, mptcp_outcome, outcome, output, phase_lock, progress,
    randomness, schema, summary, topology, tree, units, Loaded, Scenario, ScenarioError, Source, Topology,
};
pub use backend::Simulator;
pub use simulate::{simulate, simulate_captured};

// The scenario layer's limit on subflows is the simulator's own.
const _: () = assert!(pathpool_experiment::mptcp::MAX_SUBFLOWS == pathpool_sim::mptcp::MAX_SUBFLOWS);
