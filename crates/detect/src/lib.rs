//! `pathpool-detect`: shared bottleneck detection over recorded inputs, as `pathpool detect`
//! and the Python binding's `pathpool.detect` run it: a trace CSV (`trace`) or packet
//! captures (`capture`) through a detector of `pathpool-sbd`, its observations and decisions
//! written to an output folder, scored against a tracegen truth (`truth`), and for captures
//! the answer per connection (`verdict`) with what each decision rests on (`support`).
//! The fronts parse the arguments ([`DetectArgs`]) and print through a [`Console`].

mod args;
pub mod capture;
mod config;
mod console;
mod error;
pub mod support;
pub mod trace;
pub mod trace_csv;
pub mod truth;
pub mod verdict;

pub use args::{DelayArg, DetectArgs, DetectorKind, PcapArgs};
pub use config::Config;
pub use console::{Console, Terminal};
pub use error::Error;

use pathpool_reproduce::out_folder::OutFolder;
use std::path::Path;

/// Runs the detection `args` asks for: on the trace CSV of `--input`, or on the `--pcap`
/// captures.
pub fn run(args: &DetectArgs, console: &mut dyn Console) -> Result<(), Error> {
    if let (Some(input), true) = (&args.input, args.pcap.files.is_empty()) {
        return trace::run(args, input, console);
    }
    if args.truth.is_some() {
        return Err(Error::usage("--truth: scores a trace CSV against the truth.json tracegen wrote beside it; captures have no truth file"));
    }
    capture::run(args, console)
}

/// The output folder `--out`, refused when it holds one of `inputs`.
fn out_folder(path: &Path, inputs: &[&Path]) -> Result<OutFolder, Error> {
    OutFolder::open_reading("--out", path, inputs).map_err(Error::usage)
}

/// Writes one output file.
fn write(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|e| trace_csv::cannot_write(path, e))
}
