//! The controllers this crate offers noq, by the names command lines use.

use pathpool_cc::{Algorithm, SinglePath};
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
    OliaSbd,
}

const NAMES: [(&str, QuicCc); 5] = [
    ("uncoupled", QuicCc::Uncoupled),
    ("lia", QuicCc::Lia),
    ("olia", QuicCc::Olia),
    ("balia", QuicCc::Balia),
    ("olia-sbd", QuicCc::OliaSbd),
];

impl QuicCc {
    pub fn names() -> impl Iterator<Item = &'static str> {
        NAMES.iter().map(|&(n, _)| n)
    }

    pub fn name(self) -> &'static str {
        NAMES.iter().find(|&&(_, c)| c == self).map(|&(n, _)| n).unwrap_or("?")
    }

    /// The pathpool-cc algorithm whose arithmetic runs the windows.
    pub fn algorithm(self) -> Algorithm {
        match self {
            QuicCc::Uncoupled => Algorithm::Uncoupled(SinglePath::Reno),
            QuicCc::Lia => Algorithm::Lia,
            QuicCc::Olia | QuicCc::OliaSbd => Algorithm::Olia,
            QuicCc::Balia => Algorithm::Balia,
        }
    }

    pub fn uses_sbd(self) -> bool {
        self == QuicCc::OliaSbd
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
        NAMES.iter().find(|&&(n, _)| n == s).map(|&(_, c)| c).ok_or_else(|| {
            format!(
                "unknown multipath QUIC congestion control '{s}': expected one of {}",
                QuicCc::names().collect::<Vec<_>>().join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_valid_ones() {
        for &(n, c) in &NAMES {
            assert_eq!(n.parse::<QuicCc>().unwrap(), c);
            assert_eq!(c.to_string(), n);
        }
        let e = "cubic".parse::<QuicCc>().unwrap_err();
        assert!(e.contains("'cubic'") && e.contains("olia-sbd"), "{e}");
    }
}
