//! One run of one backend into its output folder. The linux backend (of `run`, `compare` and
//! `fidelity`) is the testbed with the SBD daemon beside every run that asks for MPTCP-SBD (pp_mptcp_sbd): the daemon's log
//! and RTT samples go beside the run's outputs (sbd.log, samples.csv) and its decisions into
//! summary.json (`sbd_daemon.*`).

use super::sbd_daemon::{daemon_decisions, uses_sbd, with_sbd_daemon};
use crate::error::CliError;
use pathpool_experiment::outcome::Outcome;
use pathpool_experiment::{Backend, Loaded, RunError};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn linux(progress: bool) -> pathpool_testbed::Linux {
    pathpool_testbed::Linux { options: pathpool_testbed::RunOptions { progress, capture: None, host_captures: Vec::new() } }
}

/// The option that named the backend, as errors quote it: `--backends` (compare, fidelity)
/// or `--backend` (run).
fn refused(flag: &str, backend: &str, e: RunError) -> CliError {
    match e {
        RunError::Refused(m) => CliError::usage(format!("{flag} {backend}: {m}")),
        RunError::Failed(m) => CliError::runtime(format!("{flag} {backend}: {m}")),
    }
}

/// Whether `backend` can run `l` (before any run): linux as the testbed checks it, MPTCP-SBD
/// included, for the daemon comes with it here.
pub fn check(backend: &str, l: &Loaded) -> Result<(), CliError> {
    check_as("--backends", backend, l)
}

/// `check`, its errors naming the option `flag`.
pub fn check_as(flag: &str, backend: &str, l: &Loaded) -> Result<(), CliError> {
    match backend {
        "linux" => linux(false).check(l),
        _ => crate::backends::make(backend, false, None).check(l),
    }
    .map_err(|e| refused(flag, backend, e))
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
        let outcome = crate::backends::make(backend, false, None).run(l).map_err(|e| refused("--backends", backend, e))?;
        return pathpool_experiment::output::write_all(dir, &outcome).map_err(writing(dir));
    }
    run_linux_into("--backends", false, l, dir, log).map(|(_, summary)| summary)
}

/// The linux backend's run of `l` into `dir`, the SBD daemon beside it where the scenario asks
/// for MPTCP-SBD; `flag` names the option in errors, `progress` shows a progress bar. Returns
/// the outcome (its warnings) and the summary as written.
pub fn run_linux_into(flag: &str, progress: bool, l: &Loaded, dir: &Path, log: &dyn Fn(&str)) -> Result<(Outcome, BTreeMap<String, Value>), CliError> {
    let failed = |e: pathpool_testbed::TestbedError| CliError::runtime(format!("{flag} linux: {e}"));
    let testbed = linux(progress);
    let plan = pathpool_testbed::run::check(l).map_err(|e| CliError::usage(format!("{flag} linux: {e}")))?;
    let run = || testbed.run(l).map_err(|e| pathpool_testbed::TestbedError(e.to_string()));
    if !uses_sbd(&plan) {
        let outcome = run().map_err(failed)?;
        let summary = pathpool_experiment::output::write_all(dir, &outcome).map_err(writing(dir))?;
        return Ok((outcome, summary));
    }
    let (outcome, daemon) = with_sbd_daemon(dir, run, log).map_err(failed)?;
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
    Ok((outcome, summary))
}
