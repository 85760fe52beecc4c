//! Errors of a whole capture file (its format, its framing). Problems of single packets
//! (a malformed IP or TCP header) are counted, not fatal: see [`crate::Skipped`].

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureError {
    /// The file (as the user named it).
    pub file: String,
    /// Byte offset in the file of the structure that is wrong.
    pub offset: u64,
    /// What was found and what was expected.
    pub what: String,
}

impl CaptureError {
    pub fn new(file: &str, offset: u64, what: impl Into<String>) -> Self {
        CaptureError { file: file.to_string(), offset, what: what.into() }
    }
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': byte {}: {}", self.file, self.offset, self.what)
    }
}

impl std::error::Error for CaptureError {}
