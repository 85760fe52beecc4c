//! The trace CSV files as the command line uses them: `pathpool_trace::csv` (the formats,
//! reading) with its errors turned into the CLI's (bad input: usage error), and the small CSV
//! writer `detect` uses for its decisions (a file that cannot be written: run-time error).

use crate::error::CliError;
use std::path::Path;

pub use pathpool_trace::csv::{TraceFile, TraceRows, OWD_HEADER, RTT_HEADER};

pub fn read(flag: &str, path: &Path) -> Result<TraceFile, CliError> {
    pathpool_trace::csv::read(flag, path).map_err(CliError::usage)
}

pub fn cannot_write(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::runtime(format!("cannot write '{}': {e}", path.display()))
}

pub fn writer(path: &Path) -> Result<csv::Writer<std::fs::File>, CliError> {
    csv::Writer::from_path(path).map_err(|e| cannot_write(path, e))
}

pub fn write(w: &mut csv::Writer<std::fs::File>, path: &Path, fields: &[&str]) -> Result<(), CliError> {
    w.write_record(fields).map_err(|e| cannot_write(path, e))
}

pub fn flush(mut w: csv::Writer<std::fs::File>, path: &Path) -> Result<(), CliError> {
    w.flush().map_err(|e| cannot_write(path, e))
}
