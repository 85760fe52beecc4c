//! One scenario run, as `pathpool run` does it (crates/cli/src/cmd/run.rs): load with the
//! overrides (the seed last, as `--seed` does), set the multipath `--cc`, simulate, and
//! write the output folder or return the summary.

use crate::convert::{self, DICT_NAME};
use crate::ScenarioError;
use pathpool_reproduce::out_folder::OutFolder;
use pathpool_scenario::progress::Progress;
use pathpool_scenario::{load, load_str, mptcp, output, simulate, summary, Loaded};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// What Python handed over, converted while holding the GIL.
enum Input {
    File(PathBuf),
    Text(String, String),
}

fn input(scenario: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<Input> {
    if let Ok(d) = scenario.cast::<PyDict>() {
        return Ok(Input::Text(name.unwrap_or_else(|| DICT_NAME.into()), convert::to_toml(d)?));
    }
    if let Ok(s) = scenario.cast::<PyString>() {
        let s = s.to_str()?.to_string();
        // A TOML text has a line break or an `=`; a file name has neither.
        if s.contains('\n') || s.contains('=') {
            return Ok(Input::Text(name.unwrap_or_else(|| "<string>".into()), s));
        }
        return Ok(Input::File(PathBuf::from(s)));
    }
    if let Ok(p) = scenario.extract::<PathBuf>() {
        return Ok(Input::File(p));
    }
    let ty = scenario.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    Err(ScenarioError::new_err(format!("scenario: expected a file path, a TOML string or a dict, got a value of type {ty}")))
}

fn loaded(input: &Input, overrides: &[String], seed: Option<u64>, cc: Option<&str>) -> Result<Loaded, String> {
    let mut all = overrides.to_vec();
    if let Some(seed) = seed {
        all.push(format!("simulation.seed={seed}"));
    }
    let mut l = match input {
        Input::File(p) => load(p, &all),
        Input::Text(name, text) => load_str(name, text, &all),
    }
    .map_err(|e| e.to_string())?;
    if let Some(cc) = cc {
        mptcp::override_cc(&mut l, cc).map_err(|e| e.to_string())?;
    }
    Ok(l)
}

/// Why a call failed: the scenario (ScenarioError, the CLI's usage error) or the run.
enum Failed {
    Scenario(String),
    Run(String),
}

impl From<Failed> for PyErr {
    fn from(f: Failed) -> PyErr {
        match f {
            Failed::Scenario(m) => ScenarioError::new_err(m),
            Failed::Run(m) => PyRuntimeError::new_err(m),
        }
    }
}

/// Runs `work` on the loaded scenario without the GIL; a panic becomes an exception rather
/// than taking the interpreter down.
fn with_loaded<T: Send>(
    py: Python<'_>,
    scenario: &Bound<'_, PyAny>,
    name: Option<String>,
    overrides: Vec<String>,
    seed: Option<u64>,
    cc: Option<String>,
    work: impl FnOnce(&Loaded) -> Result<T, Failed> + Send,
) -> PyResult<T> {
    let input = input(scenario, name)?;
    let result = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let l = loaded(&input, &overrides, seed, cc.as_deref()).map_err(Failed::Scenario)?;
            work(&l)
        }))
        .unwrap_or_else(|p| {
            let why = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
            Err(Failed::Run(format!("the simulation panicked: {why}")))
        })
    });
    Ok(result?)
}

/// Runs a scenario and writes `out` as `pathpool run --out` does; returns summary.json's text.
#[pyfunction]
#[pyo3(signature = (scenario, out, overrides = Vec::new(), seed = None, cc = None, name = None))]
pub fn run(py: Python<'_>, scenario: &Bound<'_, PyAny>, out: PathBuf, overrides: Vec<String>, seed: Option<u64>, cc: Option<String>, name: Option<String>) -> PyResult<String> {
    with_loaded(py, scenario, name, overrides, seed, cc, |l| {
        // As the CLI's --out: the files replace an earlier run's only once this one finished.
        let dir = OutFolder::open_reading("out", &out, &[]).map_err(Failed::Scenario)?;
        let outcome = simulate(l, &Progress::hidden()).map_err(|e| Failed::Scenario(e.to_string()))?;
        let s = output::write_all(dir.path(), &outcome).map_err(|e| Failed::Run(format!("out: writing into '{}': {e}", out.display())))?;
        dir.finish().map_err(Failed::Run)?;
        Ok(summary::to_json(&s))
    })
}

/// Runs a scenario and returns summary.json's text without writing anything (for sweeps).
#[pyfunction]
#[pyo3(signature = (scenario, overrides = Vec::new(), seed = None, cc = None, name = None))]
pub fn summarize(py: Python<'_>, scenario: &Bound<'_, PyAny>, overrides: Vec<String>, seed: Option<u64>, cc: Option<String>, name: Option<String>) -> PyResult<String> {
    with_loaded(py, scenario, name, overrides, seed, cc, |l| {
        let outcome = simulate(l, &Progress::hidden()).map_err(|e| Failed::Scenario(e.to_string()))?;
        Ok(summary::to_json(&summary::summary(&outcome)))
    })
}

/// Loads and checks a scenario without running it (sweeps check every grid point first).
#[pyfunction]
#[pyo3(signature = (scenario, overrides = Vec::new(), seed = None, cc = None, name = None))]
pub fn check(py: Python<'_>, scenario: &Bound<'_, PyAny>, overrides: Vec<String>, seed: Option<u64>, cc: Option<String>, name: Option<String>) -> PyResult<()> {
    with_loaded(py, scenario, name, overrides, seed, cc, |_| Ok(()))
}
