//! `pathpool detect`: shared bottleneck detection over a trace CSV or packet captures. The
//! work is `pathpool-detect`'s (the Python binding runs the same); this front prints to the
//! terminal.

use crate::error::CliError;
pub use pathpool_detect::DetectArgs;

pub fn run(args: DetectArgs) -> Result<(), CliError> {
    pathpool_detect::run(&args, &mut pathpool_detect::Terminal).map_err(CliError::from)
}
