//! What a detection run reports when it fails: bad input (the command line exits with 2, the
//! Python binding raises `ScenarioError`) or a failure while running (exit 1,
//! `RuntimeError`). The message names the flag or file and what was expected.

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// The input or the arguments cannot be run: names the flag or file and what was expected.
    Usage(String),
    /// Something failed while running (writing the outputs, a figure).
    Runtime(String),
}

impl Error {
    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage(msg.into())
    }
    pub fn runtime(msg: impl Into<String>) -> Self {
        Error::Runtime(msg.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Runtime(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}
