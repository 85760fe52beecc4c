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

use crate::facts::Backend::{Linux, Quic, Sim};
use crate::facts::Facts;

/// One row per algorithm: its name, what it is, the backends that run it. Every algorithm but
/// `reno` and `cubic` is also a multipath scheme of that name (`crate::Scheme`).
const NAMES: [(&str, Algorithm, Facts); 10] = [
    ("reno", Algorithm::Reno, Facts::new("Reno (RFC 5681, RFC 6582); a single-path flow's controller", &[Sim, Linux])),
    ("cubic", Algorithm::Cubic, Facts::new("CUBIC (RFC 9438); a single-path flow's controller", &[Sim, Linux])),
    ("uncoupled", Algorithm::Uncoupled(SinglePath::Reno), Facts::new("Reno on each subflow, uncoupled (S1 §3)", &[Sim, Linux, Quic])),
    ("uncoupled-cubic", Algorithm::Uncoupled(SinglePath::Cubic), Facts::new("CUBIC on each subflow, uncoupled", &[Sim, Linux])),
    ("fully-coupled", Algorithm::FullyCoupled, Facts::new("FULLY COUPLED (S1 §2): one window over all subflows", &[Sim])),
    ("linked-increases", Algorithm::LinkedIncreases, Facts::new("LINKED INCREASES (S1 §3): the coupled increase LIA grew from", &[Sim])),
    ("lia", Algorithm::Lia, Facts::new("LIA (RFC 6356) over all subflows", &[Sim, Linux, Quic])),
    ("olia", Algorithm::Olia, Facts::new("OLIA (draft-khalili-mptcp-congestion-control-05) over all subflows", &[Sim, Linux, Quic])),
    ("balia", Algorithm::Balia, Facts::new("BALIA (draft-walid-mptcp-congestion-control-04) over all subflows", &[Sim, Linux, Quic])),
    ("wvegas", Algorithm::WVegas, Facts::new("wVegas (draft-xu-mptcp-congestion-control-05), delay-based, over all subflows", &[Sim])),
];

impl Algorithm {
    /// Every algorithm, in the order of its name list.
    pub fn all() -> impl Iterator<Item = Algorithm> {
        NAMES.iter().map(|&(_, a, _)| a)
    }

    /// The names `FromStr` accepts.
    pub fn names() -> impl Iterator<Item = &'static str> {
        NAMES.iter().map(|&(n, _, _)| n)
    }

    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|&&(_, a, _)| a == self)
            .map(|&(n, _, _)| n)
            .expect("every variant is named")
    }

    /// What it is and where it runs.
    pub(crate) fn facts(self) -> &'static Facts {
        &NAMES.iter().find(|&&(_, a, _)| a == self).expect("every variant is named").2
    }

    /// False for the single-path controllers (`reno`, `cubic`), which a multipath connection
    /// does not take by name (it runs them per subflow as `uncoupled`, `uncoupled-cubic`).
    pub fn is_multipath(self) -> bool {
        !matches!(self, Algorithm::Reno | Algorithm::Cubic)
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
            .find(|&&(n, _, _)| n == s)
            .map(|&(_, a, _)| a)
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
