//! `pathpool.detect`: what `pathpool detect` runs, from the same library (`pathpool-detect`:
//! reading the trace CSV, the detector's parameters, the replay and the output files), with
//! the same argument parser, so the two cannot drift apart.

use crate::ScenarioError;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::path::PathBuf;

use clap::ValueEnum;
use pathpool_detect::{run as detect_run, DetectArgs, DetectorKind, Error, Terminal};

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
    // Through the command line's argument parser, so the arguments mean exactly what they do there.
    let mut argv: Vec<std::ffi::OsString> = vec!["detect".into(), "--input".into(), input.into(), "--detector".into(), detector.into(), "--out".into(), out.into()];
    for p in params {
        argv.extend(["--param".into(), p.into()]);
    }
    let args = <DetectCommand as clap::Parser>::try_parse_from(argv).map_err(|e| ScenarioError::new_err(e.to_string()))?.args;
    let done = py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| detect_run(&args, &mut Terminal))));
    match done {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e @ Error::Usage(_))) => Err(ScenarioError::new_err(e.to_string())),
        Ok(Err(e)) => Err(PyRuntimeError::new_err(e.to_string())),
        Err(_) => Err(PyRuntimeError::new_err("the detector panicked")),
    }
}
