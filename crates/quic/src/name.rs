//! The controllers this crate offers noq: the multipath schemes (`pathpool_cc::Scheme`, whose
//! table names them) that it runs.

use pathpool_cc::{Algorithm, Backend, Scheme, SinglePath};
use std::fmt;
use std::str::FromStr;

/// A multipath congestion control for a noq connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuicCc {
    /// Every path runs its own Reno (S1 §3 UNCOUPLED): what noq's paths do today.
    Uncoupled,
    /// RFC 6356 over all paths.
    Lia,
    /// draft-khalili-mptcp-congestion-control-05 over all paths.
    Olia,
    /// draft-walid-mptcp-congestion-control-04 over all paths.
    Balia,
    /// OLIA coupled only over the paths shared bottleneck detection groups together
    /// (S0's MPTCP-SBD, with RFC 8382 statistics on the paths' RTT samples).
    MptcpSbd,
}

impl QuicCc {
    /// The scheme table's schemes this crate runs (`Backend::Quic`).
    pub fn names() -> impl Iterator<Item = &'static str> {
        Scheme::on(Backend::Quic).map(Scheme::name)
    }

    /// The controller that runs `scheme`, if this crate has one.
    pub fn of(scheme: Scheme) -> Option<QuicCc> {
        match scheme {
            Scheme::Window(Algorithm::Uncoupled(SinglePath::Reno)) => Some(QuicCc::Uncoupled),
            Scheme::Window(Algorithm::Lia) => Some(QuicCc::Lia),
            Scheme::Window(Algorithm::Olia) => Some(QuicCc::Olia),
            Scheme::Window(Algorithm::Balia) => Some(QuicCc::Balia),
            Scheme::MptcpSbd => Some(QuicCc::MptcpSbd),
            _ => None,
        }
    }

    pub fn scheme(self) -> Scheme {
        match self {
            QuicCc::Uncoupled => Scheme::Window(Algorithm::Uncoupled(SinglePath::Reno)),
            QuicCc::Lia => Scheme::Window(Algorithm::Lia),
            QuicCc::Olia => Scheme::Window(Algorithm::Olia),
            QuicCc::Balia => Scheme::Window(Algorithm::Balia),
            QuicCc::MptcpSbd => Scheme::MptcpSbd,
        }
    }

    pub fn name(self) -> &'static str {
        self.scheme().name()
    }

    /// The pathpool-cc algorithm whose arithmetic runs the windows.
    pub fn algorithm(self) -> Algorithm {
        match self {
            QuicCc::Uncoupled => Algorithm::Uncoupled(SinglePath::Reno),
            QuicCc::Lia => Algorithm::Lia,
            QuicCc::Olia | QuicCc::MptcpSbd => Algorithm::Olia,
            QuicCc::Balia => Algorithm::Balia,
        }
    }

    pub fn uses_sbd(self) -> bool {
        self == QuicCc::MptcpSbd
    }
}

impl fmt::Display for QuicCc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for QuicCc {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let expected = || QuicCc::names().collect::<Vec<_>>().join(", ");
        match s.parse::<Scheme>() {
            Ok(scheme) => QuicCc::of(scheme).filter(|_| scheme.runs_on(Backend::Quic)).ok_or_else(|| format!("multipath QUIC does not run the scheme '{s}': expected one of {}", expected())),
            Err(_) if Scheme::renamed(s).is_some() => Err(format!("the scheme '{s}' is now called '{}'", Scheme::renamed(s).unwrap_or_default())),
            Err(_) => Err(format!("unknown multipath QUIC congestion control '{s}': expected one of {}", expected())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scheme table says which schemes QUIC runs: each has a controller here, and no
    /// controller here serves a scheme the table does not list for QUIC.
    #[test]
    fn runs_exactly_the_schemes_the_table_lists_for_quic() {
        for s in Scheme::all() {
            assert_eq!(QuicCc::of(s).is_some(), s.runs_on(Backend::Quic), "{s}: the table and QuicCc::of disagree");
            if let Some(c) = QuicCc::of(s) {
                assert_eq!(c.scheme(), s);
                assert_eq!(s.name().parse::<QuicCc>(), Ok(c));
                assert_eq!(c.to_string(), s.name());
            }
        }
        let e = "cubic".parse::<QuicCc>().unwrap_err();
        assert!(e.contains("'cubic'") && e.contains("mptcp-sbd"), "{e}");
        let e = "wvegas".parse::<QuicCc>().unwrap_err();
        assert!(e.contains("does not run the scheme 'wvegas'"), "{e}");
        let e = "olia-sbd".parse::<QuicCc>().unwrap_err();
        assert!(e.contains("now called 'mptcp-sbd'"), "{e}");
    }
}
