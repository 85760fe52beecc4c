//! Algorithm names as used on the command line and in scenario files.

use std::fmt;
use std::str::FromStr;

/// A single-path controller, for single-path flows and for UNCOUPLED subflows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SinglePath {
    Reno,
    Cubic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// RFC 5681 / RFC 6582 window rules.
    Reno,
    /// RFC 9438.
    Cubic,
    /// Each subflow runs its own single-path controller (S1 §3 UNCOUPLED TCPs).
    Uncoupled(SinglePath),
    /// S1 §2.
    FullyCoupled,
    /// S1 §3, `a` from `CcConfig::linked_increases_a`.
    LinkedIncreases,
    /// RFC 6356.
    Lia,
    /// draft-khalili-mptcp-congestion-control-05.
    Olia,
    /// draft-walid-mptcp-congestion-control-04.
    Balia,
    /// draft-xu-mptcp-congestion-control-05.
    WVegas,
}

const NAMES: [(&str, Algorithm); 10] = [
    ("reno", Algorithm::Reno),
    ("cubic", Algorithm::Cubic),
    ("uncoupled", Algorithm::Uncoupled(SinglePath::Reno)),
    ("uncoupled-cubic", Algorithm::Uncoupled(SinglePath::Cubic)),
    ("fully-coupled", Algorithm::FullyCoupled),
    ("linked-increases", Algorithm::LinkedIncreases),
    ("lia", Algorithm::Lia),
    ("olia", Algorithm::Olia),
    ("balia", Algorithm::Balia),
    ("wvegas", Algorithm::WVegas),
];

impl Algorithm {
    /// Every algorithm, in the order of its name list.
    pub fn all() -> impl Iterator<Item = Algorithm> {
        NAMES.iter().map(|&(_, a)| a)
    }

    /// The names `FromStr` accepts.
    pub fn names() -> impl Iterator<Item = &'static str> {
        NAMES.iter().map(|&(n, _)| n)
    }

    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|&&(_, a)| a == self)
            .map(|&(n, _)| n)
            .expect("every variant is named")
    }

    /// True when the windows of different subflows influence each other.
    pub fn is_coupled(self) -> bool {
        !matches!(
            self,
            Algorithm::Reno | Algorithm::Cubic | Algorithm::Uncoupled(_)
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        NAMES
            .iter()
            .find(|&&(n, _)| n == s)
            .map(|&(_, a)| a)
            .ok_or_else(|| {
                format!(
                    "unknown congestion control '{s}': expected one of {}",
                    Algorithm::names().collect::<Vec<_>>().join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_errors_list_valid_names() {
        for a in Algorithm::all() {
            assert_eq!(a.to_string().parse::<Algorithm>().unwrap(), a);
        }
        let err = "vegas".parse::<Algorithm>().unwrap_err();
        assert!(
            err.contains("'vegas'") && err.contains("wvegas") && err.contains("uncoupled-cubic")
        );
    }
}
