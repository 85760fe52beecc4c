//! What a window-growth run needs, and the checks that it can run.

use crate::ConfigError;
use pathpool_cc::Algorithm;
use std::fmt;
use std::str::FromStr;

/// [S3] §7.4's two scenarios.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scenario {
    /// The two subflows on two disjoint links with no other traffic; a NewReno flow alone on a
    /// third, identical link is the reference.
    Alone,
    /// As `Alone`, but subflow 1 shares its link with the NewReno flow.
    Competing,
}

impl Scenario {
    pub const ALL: [Scenario; 2] = [Scenario::Alone, Scenario::Competing];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Alone => "alone",
            Scenario::Competing => "competing",
        }
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scenario {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Scenario::ALL
            .into_iter()
            .find(|sc| sc.name() == s)
            .ok_or_else(|| format!("one of alone, competing; got '{s}'"))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GrowthConfig {
    /// The multipath connection's controller (any coupled algorithm; [S3] runs LIA, OLIA, BALIA).
    pub algorithm: Algorithm,
    pub scenario: Scenario,
    /// Subflow 2's RTT in cycles (subflow 1's and the NewReno flow's RTT is one cycle).
    pub rtt_ratio: u32,
    pub cycles: u32,
    /// Packets a link holds before its FIFO drops (80 in [S3]).
    pub buffer: f64,
    /// Window every flow starts with (10 in [S3]).
    pub initial_cwnd: f64,
}

/// Upper bounds that keep a run to well under a second and its CSV small.
const MAX_RTT_RATIO: u32 = 100;
const MAX_CYCLES: u32 = 10_000_000;

impl GrowthConfig {
    /// [S3] §7.4's settings: 600 cycles, an 80-packet FIFO, initial window 10.
    pub fn s3(algorithm: Algorithm, scenario: Scenario, rtt_ratio: u32) -> Self {
        GrowthConfig { algorithm, scenario, rtt_ratio, cycles: 600, buffer: 80.0, initial_cwnd: 10.0 }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_RTT_RATIO).contains(&self.rtt_ratio) {
            return Err(ConfigError::new("rtt_ratio", format!("an integer from 1 to {MAX_RTT_RATIO}, got {}", self.rtt_ratio)));
        }
        if !(1..=MAX_CYCLES).contains(&self.cycles) {
            return Err(ConfigError::new("cycles", format!("an integer from 1 to {MAX_CYCLES}, got {}", self.cycles)));
        }
        if !(self.initial_cwnd.is_finite() && self.initial_cwnd >= 1.0) {
            return Err(ConfigError::new("initial_cwnd", format!("a window of at least 1 packet, got {}", self.initial_cwnd)));
        }
        if !(self.buffer.is_finite() && self.buffer >= 1.0) {
            return Err(ConfigError::new("buffer", format!("a FIFO of at least 1 packet, got {}", self.buffer)));
        }
        Ok(())
    }
}
