//! Flag parsing shared by `cwndsim` and `windowsim`: every bad value becomes a one-line usage
//! error that names the flag and what was expected (clap's own errors span several lines).

use crate::error::CliError;
use pathpool_windowsim::ConfigError;
use std::str::FromStr;

/// Parses one value given to `flag`.
pub(crate) fn parse_one<T: FromStr>(flag: &str, text: &str, what: &str) -> Result<T, CliError> {
    text.trim().parse::<T>().map_err(|_| CliError::usage(format!("{flag}: expected {what}, got '{text}'")))
}

/// A model configuration error, named by its flag.
pub(crate) fn config_usage(e: ConfigError) -> CliError {
    CliError::usage(format!("--{}: expected {}", e.field.replace('_', "-"), e.expected))
}
