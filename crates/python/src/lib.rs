//! pathpool's Python extension, `pathpool._pathpool`: a thin layer over the crates the CLI
//! uses. Scenarios are loaded, run and written by `pathpool-scenario` exactly as `pathpool
//! run` does, reproductions by `pathpool-reproduce` as `pathpool reproduce` does; this crate
//! only converts arguments, releases the GIL while the simulator runs, and turns errors into
//! Python exceptions with the CLI's message. The Python API is in python/pathpool/.
//!
//! Compiled only with the `python` feature (maturin turns it on; see Cargo.toml).
#![cfg(feature = "python")]

mod capture;
mod cmd;
mod convert;
mod detect;
mod grouping;
// The CLI's error and output-folder types, for its `detect` command (src/detect.rs).
#[path = "../../cli/src/error.rs"]
#[allow(dead_code)]
mod error;
#[path = "../../cli/src/outdir.rs"]
#[allow(dead_code)]
mod outdir;
mod paper;
mod scenario;
mod units;

use pyo3::prelude::*;

pyo3::create_exception!(
    _pathpool,
    ScenarioError,
    pyo3::exceptions::PyValueError,
    "A scenario that cannot be run: the message names the file and line (or the override), the field and what was expected, as `pathpool run` prints it."
);

#[pymodule]
fn _pathpool(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(scenario::run, m)?)?;
    m.add_function(wrap_pyfunction!(scenario::summarize, m)?)?;
    m.add_function(wrap_pyfunction!(scenario::check, m)?)?;
    m.add_function(wrap_pyfunction!(convert::to_toml, m)?)?;
    m.add_function(wrap_pyfunction!(convert::override_text, m)?)?;
    m.add_function(wrap_pyfunction!(paper::reproduce, m)?)?;
    m.add_function(wrap_pyfunction!(detect::detect, m)?)?;
    m.add_function(wrap_pyfunction!(paper::paper_names, m)?)?;
    m.add_function(wrap_pyfunction!(paper::use_build_of, m)?)?;
    m.add_function(wrap_pyfunction!(units::quantity, m)?)?;
    m.add_class::<capture::CaptureRecords>()?;
    m.add_function(wrap_pyfunction!(grouping::correct_grouping, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
