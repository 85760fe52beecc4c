//! pathpool-experiment: an experiment as every backend sees it, knowing none of them.
//!
//! Scenario files (TOML) and their validation, the outcome of a run in the scenario's terms,
//! and the outputs written from it (summary.json, CSV time series, PNG plots, delay traces,
//! decisions), plus the `Backend` trait that the simulator (pathpool-scenario) and the real
//! stacks implement. It depends on no backend: the simulator, the testbed and QUIC depend on it.
//!
//! `docs/scenarios.md` documents the file format. Loading goes file -> document tree
//! (`tree`, with `--set` overrides applied) -> typed scenario (`decode`) -> concrete
//! topology with resolved routes (`topology`); any error names the file and line (or the
//! override), the field and what was expected, and nothing runs before all of it passed.

pub mod backend;
pub mod bounded_read;
mod cc;
pub mod check_blind;
pub mod check_missed;
mod csv_out;
pub mod delay_trace;
pub mod detector_blind;
pub mod decode;
pub mod error;
pub mod fields;
pub mod fidelity;
pub mod host_latency;
pub mod host_model;
pub mod hosts;
pub mod limits;
pub mod mptcp;
pub mod mptcp_outcome;
pub mod outcome;
pub mod output;
pub mod phase_lock;
mod plots;
pub mod progress;
pub mod randomness;
pub mod schema;
mod suggest;
pub mod summary;
pub mod topology;
pub mod tree;
pub mod units;

pub use backend::{Backend, RunError};
pub use error::{ScenarioError, Source};
pub use schema::Scenario;
pub use topology::Topology;

use std::path::Path;

/// A scenario ready to run.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub scenario: Scenario,
    pub topology: Topology,
    pub source: Source,
}

/// Reads, overrides (`KEY=VALUE`, in order) and checks a scenario file.
pub fn load(path: &Path, overrides: &[String]) -> Result<Loaded, ScenarioError> {
    let name = path.display().to_string();
    let text = bounded_read::read_bounded(path, bounded_read::TEXT_LIMIT)
        .map_err(|e| ScenarioError::file(&name, format!("cannot read the scenario file: {e}")))?;
    load_str(&name, &text, overrides)
}

/// As `load`, for a scenario given as text; `name` is used in messages.
pub fn load_str(name: &str, text: &str, overrides: &[String]) -> Result<Loaded, ScenarioError> {
    bounded_read::count_tables(text).map_err(|e| ScenarioError::file(name, e))?;
    let source = Source::new(name, text, overrides.to_vec());
    let mut doc = tree::parse_document(&source)?;
    tree::apply_overrides(&mut doc, &source)?;
    let scenario = decode::decode(&doc, &source)?;
    limits::check(&scenario, &source)?;
    let topology = topology::build(&scenario, &source)?;
    Ok(Loaded { scenario, topology, source })
}
