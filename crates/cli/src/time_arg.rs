//! A time given on the command line takes a unit, as in scenario files ("40s", "10ms"); a
//! bare number is refused with the scenario files' own message, so that `--duration 40`
//! cannot mean seconds in one command and something else in another.

use crate::error::CliError;
use pathpool_scenario::units;
use std::time::Duration;

pub fn parse(flag: &str, text: &str) -> Result<Duration, CliError> {
    let ps = units::parse_time(text).ok_or_else(|| CliError::usage(format!("{flag}: expected {}, got \"{text}\"", units::TIME_EXPECTED)))?;
    Ok(Duration::from_nanos(ps / 1000))
}
