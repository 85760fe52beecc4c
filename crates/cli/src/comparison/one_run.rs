//! One run of one backend into its output folder. The linux backend here is the testbed with
//! the SBD daemon beside every run that asks for MPTCP-SBD (pp_mptcp_sbd): the daemon's log
//! and RTT samples go beside the run's outputs (sbd.log, samples.csv) and its decisions into
//! summary.json (`sbd_daemon.*`).

use super::sbd_daemon::{daemon_decisions, uses_sbd, with_sbd_daemon};
use crate::error::CliError;
use pathpool_experiment::{Backend, Loaded, RunError};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn linux() -> pathpool_testbed::Linux {
    pathpool_testbed::Linux { options: pathpool_testbed::RunOptions { progress: false, capture: None, host_captures: Vec::new() } }
}

fn refused(backend: &str, e: RunError) -> CliError {
    match e {
        RunError::Refused(m) => CliError::usage(format!("--backends {backend}: {m}")),
        RunError::Failed(m) => CliError::runtime(format!("--backends {backend}: {m}")),
    }
}

/// Whether `backend` can run `l` (before any run): linux as the testbed checks it, MPTCP-SBD
/// included, for the daemon comes with it here.
pub fn check(backend: &str, l: &Loaded) -> Result<(), CliError> {
    match backend {
        "linux" => linux().check(l),
        _ => crate::backends::make(backend, false, None).check(l),
    }
    .map_err(|e| refused(backend, e))
}

/// Every backend checks every case (its run 1) before anything runs or any folder is made.
pub fn check_cases(cases: &[super::Case], backends: &[String]) -> Result<(), CliError> {
    for c in cases {
        let loaded = pathpool_experiment::load_str(&c.file.display().to_string(), &c.text, &c.overrides_of_run(1)).map_err(|e| CliError::usage(e.to_string()))?;
        for b in backends {
            check(b, &loaded).map_err(|e| CliError::usage(format!("case {}: {e}", c.name)))?;
        }
    }
    Ok(())
}

fn writing(dir: &Path) -> impl Fn(std::io::Error) -> CliError + '_ {
    move |e| CliError::runtime(format!("--out: writing into '{}': {e}", dir.display()))
}

/// Runs `backend` on `l`, writes every output file into `dir` (which must exist) and returns
/// the summary. `log` gets the daemon's line.
pub fn run_into(backend: &str, l: &Loaded, dir: &Path, log: &dyn Fn(&str)) -> Result<BTreeMap<String, Value>, CliError> {
    if backend != "linux" {
        let outcome = crate::backends::make(backend, false, None).run(l).map_err(|e| refused(backend, e))?;
        return pathpool_experiment::output::write_all(dir, &outcome).map_err(writing(dir));
    }
    let testbed = linux();
    let plan = pathpool_testbed::run::check(l).map_err(|e| CliError::usage(format!("--backends linux: {e}")))?;
    let run = || testbed.run(l).map_err(|e| pathpool_testbed::TestbedError(e.to_string()));
    if !uses_sbd(&plan) {
        let outcome = run().map_err(|e| CliError::runtime(format!("--backends linux: {e}")))?;
        return pathpool_experiment::output::write_all(dir, &outcome).map_err(writing(dir));
    }
    let (outcome, daemon) = with_sbd_daemon(dir, run, log).map_err(|e| CliError::runtime(format!("--backends linux: {e}")))?;
    let mut summary = pathpool_experiment::output::write_all(dir, &outcome).map_err(writing(dir))?;
    let log_text = std::fs::read_to_string(dir.join("sbd.log")).map_err(writing(dir))?;
    let (apart, together, total) = daemon_decisions(&log_text);
    for (k, v) in [("samples", daemon.samples), ("decisions", daemon.decisions), ("not_yet", daemon.not_yet), ("group_changes", daemon.changes), ("decisions_apart", apart), ("decisions_together", together), ("decisions_of_all_subflows", total)] {
        summary.insert(format!("sbd_daemon.{k}"), serde_json::json!(v));
    }
    // The daemon stamps its log in wall-clock time: where the scenario's time 0 lies on that
    // clock (scripts/realfair.py measures the reaction to a shifting bottleneck so).
    if let Some(t) = pathpool_testbed::run::last_traffic_start_unix_s() {
        summary.insert("sbd_daemon.traffic_start_unix_s".into(), serde_json::json!(t));
    }
    std::fs::write(dir.join("summary.json"), pathpool_scenario::summary::to_json(&summary)).map_err(writing(dir))?;
    Ok(summary)
}
