//! Errors about a scenario: each names where the offending text is (file, line and column,
//! or the `--set` override it came from), the field's dotted path, and what was expected.

use std::fmt;
use std::ops::Range;

/// Where a value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A byte range in the scenario file.
    File(Range<usize>),
    /// The `--set` override with this index.
    Set(usize),
}

/// The texts an `Origin` refers to, to turn it into a human location.
#[derive(Clone, Debug)]
pub struct Source {
    /// How the file is named in messages (the path as given).
    pub name: String,
    pub text: String,
    /// The overrides as given on the command line, `KEY=VALUE`.
    pub overrides: Vec<String>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>, overrides: Vec<String>) -> Self {
        Source { name: name.into(), text: text.into(), overrides }
    }

    /// "FILE:LINE:COLUMN" or "--set KEY=VALUE".
    pub fn locate(&self, origin: &Origin) -> String {
        match origin {
            Origin::File(span) => {
                let (line, col) = line_col(&self.text, span.start);
                format!("{}:{line}:{col}", self.name)
            }
            Origin::Set(i) => format!("--set {}", self.overrides.get(*i).map(String::as_str).unwrap_or("?")),
        }
    }

    pub fn error(&self, origin: &Origin, field: &str, message: impl Into<String>) -> ScenarioError {
        ScenarioError { location: self.locate(origin), field: field.to_string(), message: message.into() }
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A scenario that cannot be run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// "FILE:LINE:COLUMN", "--set KEY=VALUE", or the file alone.
    pub location: String,
    /// Dotted path of the field, e.g. `links.bottleneck.rate`; empty when it concerns the file.
    pub field: String,
    pub message: String,
}

impl ScenarioError {
    pub fn file(name: &str, message: impl Into<String>) -> Self {
        ScenarioError { location: name.to_string(), field: String::new(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.location, self.message)
        } else {
            write!(f, "{}: {}: {}", self.location, self.field, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

pub type Result<T> = std::result::Result<T, ScenarioError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based() {
        let s = Source::new("f.toml", "a = 1\nbb = 2\n", vec!["x=1".into()]);
        assert_eq!(s.locate(&Origin::File(0..1)), "f.toml:1:1");
        assert_eq!(s.locate(&Origin::File(11..12)), "f.toml:2:6");
        assert_eq!(s.locate(&Origin::Set(0)), "--set x=1");
    }
}
