//! The papers' reproductions, as `pathpool reproduce` runs them
//! (crates/cli/src/cmd/reproduce.rs).

use crate::ScenarioError;
use pathpool_reproduce::{papers, reproduce as run_papers, Failure, Options, Paper, ScenarioFiles};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::path::PathBuf;

/// The names `reproduce` accepts (besides "all").
#[pyfunction]
pub fn paper_names() -> Vec<&'static str> {
    papers::names()
}

/// Runs one paper (or "all") into `out`; returns (runs, reused from an earlier call).
/// `scenarios`: a folder of scenario files per paper, or None for the built-in files.
#[pyfunction]
#[pyo3(signature = (paper, out, scenarios = None, quick = false, jobs = None))]
pub fn reproduce(py: Python<'_>, paper: &str, out: PathBuf, scenarios: Option<PathBuf>, quick: bool, jobs: Option<usize>) -> PyResult<(usize, usize)> {
    let chosen: Vec<&'static dyn Paper> = match paper {
        "all" => papers::all(),
        name => vec![papers::by_name(name)
            .ok_or_else(|| ScenarioError::new_err(format!("<paper>: expected one of {} or all, got '{name}'", papers::names().join(", "))))?],
    };
    if jobs == Some(0) {
        return Err(ScenarioError::new_err("jobs: expected a whole number >= 1, got '0'"));
    }
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let scenarios = match scenarios {
        None => ScenarioFiles::BuiltIn,
        Some(dir) if dir.is_dir() => ScenarioFiles::Folder(dir),
        Some(dir) => {
            return Err(ScenarioError::new_err(format!(
                "scenarios: '{}' is not a folder; expected a folder with one folder of scenario files per paper (like the sources' scenarios/papers), or None for the built-in files",
                dir.display()
            )))
        }
    };
    let opts = Options { quick, scenarios, seed_offset: 0 };
    let command = format!("pathpool.reproduce(\"{paper}\", quick={})", if quick { "True" } else { "False" });
    let done = py.detach(|| run_papers(&chosen, &opts, &out, jobs, &command));
    match done {
        Ok(r) => Ok((r.counts.run + r.counts.reused, r.counts.reused)),
        Err(Failure::Input(m)) => Err(ScenarioError::new_err(m)),
        Err(Failure::Run(m)) => Err(PyRuntimeError::new_err(m)),
    }
}

/// Stored reproduction results are keyed on the build that computed them; here that is the
/// extension module's file, not the interpreter (`pathpool_reproduce::job::build_id`).
#[pyfunction]
pub fn use_build_of(file: PathBuf) -> PyResult<()> {
    pathpool_reproduce::job::use_build_of(&file).map_err(|e| PyRuntimeError::new_err(format!("reading the extension '{}': {e}", file.display())))
}
