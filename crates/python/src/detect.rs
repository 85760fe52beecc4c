//! `pathpool.detect`: the CLI's `pathpool detect` itself. Its code (reading the trace CSV,
//! the detector's parameters, the replay and the output files) lives in the CLI crate, and
//! is compiled here from those very files rather than copied, so the two cannot drift
//! apart; the crate's `cmd`, `error` and `outdir` modules give them the paths they expect
//! (`super::trace_csv`, `crate::error`, `crate::outdir`).

use crate::ScenarioError;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::path::PathBuf;

use crate::cmd::detect::{run as detect_run, DetectArgs, DetectorKind};
use crate::error::CliError;
use clap::ValueEnum;

#[derive(clap::Parser)]
struct DetectCommand {
    #[command(flatten)]
    args: DetectArgs,
}

/// Runs `pathpool detect --input INPUT --detector DETECTOR [--param ...] --out OUT`.
#[pyfunction]
#[pyo3(signature = (input, detector, out, params = Vec::new()))]
pub fn detect(py: Python<'_>, input: PathBuf, detector: &str, out: PathBuf, params: Vec<String>) -> PyResult<()> {
    // Checked here for a message that lists the names.
    DetectorKind::from_str(detector, false).map_err(|_| {
        let names: Vec<String> = DetectorKind::value_variants().iter().filter_map(|v| v.to_possible_value()).map(|v| v.get_name().to_string()).collect();
        ScenarioError::new_err(format!("--detector: expected one of {}, got '{detector}'", names.join(", ")))
    })?;
    // Through the CLI's own argument parser, so the arguments mean exactly what they do there.
    let mut argv: Vec<std::ffi::OsString> = vec!["detect".into(), "--input".into(), input.into(), "--detector".into(), detector.into(), "--out".into(), out.into()];
    for p in params {
        argv.extend(["--param".into(), p.into()]);
    }
    let args = <DetectCommand as clap::Parser>::try_parse_from(argv).map_err(|e| ScenarioError::new_err(e.to_string()))?.args;
    let done = py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| detect_run(args))));
    match done {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e @ CliError::Usage(_))) => Err(ScenarioError::new_err(e.to_string())),
        Ok(Err(e)) => Err(PyRuntimeError::new_err(e.to_string())),
        Err(_) => Err(PyRuntimeError::new_err("the detector panicked")),
    }
}
