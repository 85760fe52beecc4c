//! Reading one TOML table of the scenario: unknown keys are rejected with their path and the
//! key probably meant; each typed getter names the field and what was expected.

use crate::error::{Origin, Result, ScenarioError, Source};
use crate::suggest::did_you_mean;
use crate::tree::{Kind, Node, Table};
use crate::units;

/// A value together with where it came from, for checks that happen after decoding.
#[derive(Clone, Debug, PartialEq)]
pub struct Located<T> {
    pub value: T,
    pub origin: Origin,
    /// Dotted path of the field.
    pub path: String,
}

impl<T> Located<T> {
    pub fn error(&self, src: &Source, message: impl Into<String>) -> ScenarioError {
        src.error(&self.origin, &self.path, message)
    }
}

pub struct Fields<'a> {
    table: &'a Table,
    origin: Origin,
    path: String,
    src: &'a Source,
}

impl<'a> Fields<'a> {
    /// `node` must be a table whose keys are all in `known`.
    pub fn new(node: &'a Node, path: &str, known: &[&str], src: &'a Source) -> Result<Self> {
        let Kind::Table(table) = &node.kind else {
            return Err(src.error(&node.origin, path, format!("expected a table, got {}", node.kind.type_name())));
        };
        for entry in &table.entries {
            if !known.contains(&entry.key.as_str()) {
                let full = join(path, &entry.key);
                let hint = did_you_mean(&entry.key, known.iter().copied());
                let listing = if hint.is_empty() { format!(" (known keys: {})", known.join(", ")) } else { hint };
                return Err(src.error(&entry.key_origin, &full, format!("unknown key{listing}")));
            }
        }
        Ok(Fields { table, origin: node.origin.clone(), path: path.to_string(), src })
    }

    pub fn src(&self) -> &'a Source {
        self.src
    }

    pub fn path(&self, key: &str) -> String {
        join(&self.path, key)
    }

    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.table.get(key)
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// An error about `key`: at its value when present, else at the table.
    pub fn error(&self, key: &str, message: impl Into<String>) -> ScenarioError {
        let origin = self.get(key).map_or(&self.origin, |n| &n.origin);
        self.src.error(origin, &self.path(key), message)
    }

    pub fn missing(&self, key: &str, expected: &str) -> ScenarioError {
        self.src.error(&self.origin, &self.path(key), format!("missing; expected {expected}"))
    }

    /// "expected ..., got ..." showing what was there (its value where it has one).
    pub(crate) fn wrong(&self, key: &str, node: &Node, expected: &str) -> ScenarioError {
        let got = match &node.kind {
            Kind::Str(s) => format!("\"{s}\""),
            Kind::Int(i) => format!("the integer {i}"),
            Kind::Float(f) if f.fract() == 0.0 && (9.2e18..1e30).contains(&f.abs()) => format!("{f:.0}, beyond the largest integer a scenario holds ({})", i64::MAX),
            // 1e300 as 1e300, not as 301 digits.
            Kind::Float(f) if f.abs() >= 1e16 => format!("the number {f:e}"),
            Kind::Float(f) => format!("the number {f}"),
            other => other.type_name().to_string(),
        };
        self.error(key, format!("expected {expected}, got {got}"))
    }

    pub fn located<T>(&self, key: &str, value: T) -> Located<T> {
        let origin = self.get(key).map_or_else(|| self.origin.clone(), |n| n.origin.clone());
        Located { value, origin, path: self.path(key) }
    }

    pub fn string(&self, key: &str) -> Result<Option<Located<String>>> {
        match self.get(key) {
            None => Ok(None),
            Some(Node { kind: Kind::Str(s), .. }) => Ok(Some(self.located(key, s.clone()))),
            Some(n) => Err(self.wrong(key, n, "a string")),
        }
    }

    /// A string that must be one of `choices`.
    pub fn choice(&self, key: &str, choices: &[&str]) -> Result<Option<Located<String>>> {
        let Some(s) = self.string(key)? else { return Ok(None) };
        if choices.contains(&s.value.as_str()) {
            return Ok(Some(s));
        }
        let hint = did_you_mean(&s.value, choices.iter().copied());
        Err(self.error(key, format!("unknown value \"{}\"{hint}; expected one of: {}", s.value, choices.join(", "))))
    }

    pub fn bool(&self, key: &str) -> Result<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(Node { kind: Kind::Bool(b), .. }) => Ok(Some(*b)),
            Some(n) => Err(self.wrong(key, n, "true or false")),
        }
    }

    /// An integer in `min..=max`.
    pub fn int(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>> {
        match self.get(key) {
            None => Ok(None),
            Some(Node { kind: Kind::Int(i), .. }) if (min..=max).contains(i) => Ok(Some(*i)),
            Some(Node { kind: Kind::Int(i), .. }) => Err(self.error(key, format!("expected an integer from {min} to {max}, got {i}"))),
            Some(n) => Err(self.wrong(key, n, "an integer")),
        }
    }

    /// A finite number (integer or float) in `min..=max`.
    pub fn number(&self, key: &str, min: f64, max: f64) -> Result<Option<f64>> {
        let v = match self.get(key) {
            None => return Ok(None),
            Some(Node { kind: Kind::Int(i), .. }) => *i as f64,
            Some(Node { kind: Kind::Float(f), .. }) => *f,
            Some(n) => return Err(self.wrong(key, n, "a number")),
        };
        if v.is_finite() && (min..=max).contains(&v) {
            Ok(Some(v))
        } else {
            Err(self.error(key, format!("expected a number from {min} to {max}, got {v}")))
        }
    }

    /// `limit` keeps later arithmetic (times added up, rates turned into service times) far
    /// from overflow; it is named in the message as `limit_text`.
    fn quantity(&self, key: &str, expected: &str, parse: fn(&str) -> Option<u64>, limit: u64, limit_text: &str) -> Result<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(Node { kind: Kind::Str(s), .. }) => match parse(s) {
                Some(v) if v > limit => Err(self.error(key, format!("at most {limit_text}, got \"{s}\""))),
                Some(v) => Ok(Some(v)),
                None if units::is_negative(s) => Err(self.error(key, format!("must not be negative; expected {expected}, got \"{s}\""))),
                None => Err(self.error(key, format!("expected {expected}, got \"{s}\""))),
            },
            Some(n) => Err(self.wrong(key, n, expected)),
        }
    }

    /// A time in picoseconds, zero allowed.
    pub fn time(&self, key: &str) -> Result<Option<u64>> {
        self.quantity(key, units::TIME_EXPECTED, units::parse_time, 1_000_000 * units::PS_PER_SEC, "1000000s")
    }

    /// A time in picoseconds that must be above zero.
    pub fn positive_time(&self, key: &str) -> Result<Option<u64>> {
        let t = self.time(key)?;
        if t == Some(0) {
            return Err(self.error(key, format!("must be greater than zero; expected {}", units::TIME_EXPECTED)));
        }
        Ok(t)
    }

    /// A rate in bits per second that must be above zero.
    pub fn rate(&self, key: &str) -> Result<Option<u64>> {
        let r = self.quantity(key, units::RATE_EXPECTED, units::parse_rate, 10_000_000_000_000, "10Tbps")?;
        if r == Some(0) {
            return Err(self.error(key, format!("must be greater than zero; expected {}", units::RATE_EXPECTED)));
        }
        Ok(r)
    }

    /// A size in bytes that must be above zero.
    pub fn size(&self, key: &str) -> Result<Option<u64>> {
        let s = self.quantity(key, units::SIZE_EXPECTED, units::parse_size, 1_000_000_000_000_000, "1000000GB")?;
        if s == Some(0) {
            return Err(self.error(key, format!("must be greater than zero; expected {}", units::SIZE_EXPECTED)));
        }
        Ok(s)
    }

    /// A list of strings (e.g. node names).
    pub fn strings(&self, key: &str) -> Result<Option<Located<Vec<String>>>> {
        let Some(node) = self.get(key) else { return Ok(None) };
        let Kind::Array(items) = &node.kind else {
            return Err(self.wrong(key, node, "a list of strings, like [\"a\", \"b\"]"));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match &item.kind {
                Kind::Str(s) => out.push(s.clone()),
                other => {
                    let path = format!("{}[{i}]", self.path(key));
                    return Err(self.src.error(&item.origin, &path, format!("expected a string, got {}", other.type_name())));
                }
            }
        }
        Ok(Some(self.located(key, out)))
    }

    /// Rejects `key` when present, because it only applies when `condition` holds.
    pub fn only_with(&self, key: &str, condition: &str) -> Result<()> {
        if self.has(key) {
            return Err(self.error(key, format!("only applies with {condition}")));
        }
        Ok(())
    }
}

pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}
