//! The trace CSV files as detection uses them: `pathpool_trace::csv` (the formats, reading)
//! with its errors turned into [`Error`]s (bad input: usage error), and the small CSV writer
//! for the decisions (a file that cannot be written: run-time error).

use crate::error::Error;
use std::path::Path;

pub use pathpool_trace::csv::{TraceFile, TraceRows, OWD_HEADER, RTT_HEADER};

pub fn read(flag: &str, path: &Path) -> Result<TraceFile, Error> {
    pathpool_trace::csv::read(flag, path).map_err(Error::usage)
}

pub fn cannot_write(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::runtime(format!("cannot write '{}': {e}", path.display()))
}

pub fn writer(path: &Path) -> Result<csv::Writer<std::fs::File>, Error> {
    csv::Writer::from_path(path).map_err(|e| cannot_write(path, e))
}

pub fn write(w: &mut csv::Writer<std::fs::File>, path: &Path, fields: &[&str]) -> Result<(), Error> {
    w.write_record(fields).map_err(|e| cannot_write(path, e))
}

pub fn flush(mut w: csv::Writer<std::fs::File>, path: &Path) -> Result<(), Error> {
    w.flush().map_err(|e| cannot_write(path, e))
}
