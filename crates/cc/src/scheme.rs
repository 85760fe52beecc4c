//! The multipath schemes, one name each, defined here for every backend: scenario files and
//! `--cc` (the simulator), the Linux testbed's kernel controllers and multipath QUIC take
//! their names, descriptions and default detectors from this table, and each backend's tests
//! check that it runs every scheme the table says it runs.
//!
//! A scheme is either a window algorithm over all subflows (every [`Algorithm`] but the
//! single-path `reno` and `cubic`, named in algorithm.rs) or one that couples only what a
//! shared bottleneck detector groups together (the rows below).

use crate::algorithm::Algorithm;
use crate::facts::{Backend, Facts};
use std::fmt;
use std::str::FromStr;

/// A multipath congestion-control scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// A window algorithm over all subflows (`uncoupled`: each alone); never `reno`/`cubic`.
    Window(Algorithm),
    /// [S0]'s MPTCP-SBD: OLIA within the groups of shared bottleneck detection.
    MptcpSbd,
    /// MPTCP-SBD coupling per bottleneck group of a pairwise sharing relation (pathpool's
    /// extension; docs/sbd.md, "Beyond partitions: pairwise sharing").
    MptcpSbdPairwise,
    /// [S2] §5.2's SSC-LIA.
    SscLia,
    /// [S2] §5.2's TR-LIA.
    TrLia,
}

use Backend::{Linux, Quic, Sim};

const DETECTING: [(&str, Scheme, Facts); 4] = [
    ("mptcp-sbd", Scheme::MptcpSbd, Facts::detecting("MPTCP-SBD (S0): OLIA over the subflows the receiver's shared bottleneck detector (RFC 8382 statistics) groups together, Reno for a subflow alone", "pathpool", &[Sim, Linux, Quic])),
    ("mptcp-sbd-pairwise", Scheme::MptcpSbdPairwise, Facts::detecting("MPTCP-SBD for overlapping paths (pathpool's extension): the receiver decides per pair of subflows whether they share a bottleneck, the sender runs OLIA per bottleneck group (the maximal cliques of that relation)", "mptcp-sbd", &[Sim])),
    ("ssc-lia", Scheme::SscLia, Facts::detecting("SSC-LIA (S2 §5.2): MPTCP-SBD's receiver-side detector switching LIA on over all subflows after a decision that groups them, off after 100 s without one; uncoupled Reno at first", "pathpool", &[Sim])),
    ("tr-lia", Scheme::TrLia, Facts::detecting("TR-LIA (S2 §5.2): uncoupled Reno until trend lines on RTT at the sender say the subflows share a bottleneck, LIA while they do, uncoupled after 100 s without a positive", "tr", &[Sim])),
];

/// Names that are no longer schemes, and what they are called now.
const RENAMED: [(&str, &str); 1] = [("olia-sbd", "mptcp-sbd")];

impl Scheme {
    /// Every scheme: the window algorithms in algorithm.rs's order, then the detecting ones.
    pub fn all() -> impl Iterator<Item = Scheme> {
        Algorithm::all().filter(|a| a.is_multipath()).map(Scheme::Window).chain(DETECTING.iter().map(|&(_, s, _)| s))
    }

    /// The schemes `backend` runs.
    pub fn on(backend: Backend) -> impl Iterator<Item = Scheme> {
        Scheme::all().filter(move |s| s.runs_on(backend))
    }

    /// Every scheme's name, in [`Scheme::all`]'s order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Scheme::all().map(Scheme::name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Scheme::Window(a) => a.name(),
            _ => DETECTING.iter().find(|&&(_, s, _)| s == self).map(|&(n, _, _)| n).expect("every detecting scheme has a row"),
        }
    }

    pub fn facts(self) -> &'static Facts {
        match self {
            Scheme::Window(a) => a.facts(),
            _ => &DETECTING.iter().find(|&&(_, s, _)| s == self).expect("every detecting scheme has a row").2,
        }
    }

    pub fn about(self) -> &'static str {
        self.facts().about
    }

    /// The detector preset a connection that names none runs in scenario files.
    pub fn detector(self) -> Option<&'static str> {
        self.facts().detector
    }

    pub fn runs_on(self, backend: Backend) -> bool {
        self.facts().backends.contains(&backend)
    }

    /// The current name of a scheme that was renamed, for an error message.
    pub fn renamed(old: &str) -> Option<&'static str> {
        RENAMED.iter().find(|&&(o, _)| o == old).map(|&(_, new)| new)
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scheme {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Scheme::all().find(|x| x.name() == s).ok_or_else(|| match Scheme::renamed(s) {
            Some(new) => format!("the scheme \"{s}\" is now called \"{new}\""),
            None => format!("unknown multipath congestion control \"{s}\"; expected one of: {}", Scheme::names().collect::<Vec<_>>().join(", ")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scheme_has_one_name_that_parses_back_and_runs_in_the_simulator() {
        let names: Vec<&str> = Scheme::names().collect();
        for (i, s) in Scheme::all().enumerate() {
            assert_eq!(s.name().parse::<Scheme>(), Ok(s));
            assert!(!names[..i].contains(&s.name()), "{} named twice", s.name());
            assert!(s.runs_on(Backend::Sim), "{s}: every scheme is simulated");
            assert!(!s.about().is_empty());
        }
        // Single-path controllers are not multipath schemes.
        assert!("reno".parse::<Scheme>().is_err() && "cubic".parse::<Scheme>().is_err());
        let e = "olia-sbd".parse::<Scheme>().unwrap_err();
        assert!(e.contains("\"mptcp-sbd\""), "{e}");
    }

    #[test]
    fn detecting_schemes_name_a_detector_and_window_schemes_none() {
        for s in Scheme::all() {
            assert_eq!(s.detector().is_some(), !matches!(s, Scheme::Window(_)), "{s}");
        }
    }
}
