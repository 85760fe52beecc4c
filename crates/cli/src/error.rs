//! Errors the CLI reports: bad input exits with 2 (like clap's own usage errors), failures
//! while running exit with 1.

use std::fmt;

#[derive(Debug)]
pub enum CliError {
    /// The user asked for something that cannot be run: names the flag or file and what was expected.
    Usage(String),
    /// Something failed while running (I/O, a plot).
    Runtime(String),
}

impl CliError {
    pub fn usage(msg: impl Into<String>) -> Self {
        CliError::Usage(msg.into())
    }
    pub fn runtime(msg: impl Into<String>) -> Self {
        CliError::Runtime(msg.into())
    }
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Runtime(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Runtime(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CliError {}

impl From<pathpool_detect::Error> for CliError {
    fn from(e: pathpool_detect::Error) -> Self {
        match e {
            pathpool_detect::Error::Usage(m) => CliError::Usage(m),
            pathpool_detect::Error::Runtime(m) => CliError::Runtime(m),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Runtime(e.to_string())
    }
}

/// Parses a comma-separated list of numbers given to `flag`, naming the flag on error.
pub fn parse_list<T: std::str::FromStr>(flag: &str, text: &str, what: &str) -> Result<Vec<T>, CliError> {
    text.split(',')
        .map(|s| {
            s.trim()
                .parse::<T>()
                .map_err(|_| CliError::usage(format!("{flag}: expected a comma-separated list of {what}, got '{text}'")))
        })
        .collect()
}
