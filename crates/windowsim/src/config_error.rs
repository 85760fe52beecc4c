//! A configuration the models cannot run, naming the field and what was expected.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The configuration field at fault (the CLI maps it to its flag).
    pub field: &'static str,
    /// What was expected, and what was given.
    pub expected: String,
}

impl ConfigError {
    pub(crate) fn new(field: &'static str, expected: impl Into<String>) -> Self {
        ConfigError { field, expected: expected.into() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.expected)
    }
}

impl std::error::Error for ConfigError {}
