//! What a cwndsim run needs, and the checks that it can run.

use crate::ConfigError;
use pathpool_cc::{Algorithm, MAX_SUBFLOWS as MAX_PATHS};

#[derive(Clone, Debug, PartialEq)]
pub struct CwndSimConfig {
    pub algorithm: Algorithm,
    /// Per-packet loss probability of each path, in (0, 1).
    pub loss: Vec<f64>,
    /// Round-trip time of each path in base units Δ, > 0.
    pub rtt: Vec<f64>,
    /// Number of rounds; a round lasts the smallest RTT.
    pub rounds: u64,
    pub seed: u64,
    /// The time series covers the last this many rounds (all when larger than `rounds`)...
    pub trace_rounds: u64,
    /// ...with one sample every this many rounds (>= 1).
    pub sample_every: u64,
    /// Window every flow starts with (segments).
    pub initial_cwnd: f64,
    /// A fixed `a` for LINKED INCREASES ([S1] §3); None: recomputed from the current windows
    /// and RTTs with [S1] §4's formula.
    pub linked_increases_a: Option<f64>,
}

impl CwndSimConfig {
    pub fn new(algorithm: Algorithm, loss: Vec<f64>, rtt: Vec<f64>, rounds: u64, seed: u64) -> Self {
        CwndSimConfig { algorithm, loss, rtt, rounds, seed, trace_rounds: 5000, sample_every: 1, initial_cwnd: 10.0, linked_increases_a: None }
    }

    /// The first round of the time series.
    pub fn trace_start(&self) -> u64 {
        self.rounds.saturating_sub(self.trace_rounds)
    }

    pub fn n_paths(&self) -> usize {
        self.loss.len()
    }

    /// The round length: the smallest RTT.
    pub fn round_length(&self) -> f64 {
        self.rtt.iter().copied().fold(f64::INFINITY, f64::min)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        let n = self.loss.len();
        if !(2..=MAX_PATHS).contains(&n) {
            return Err(ConfigError::new("loss", format!("between 2 and {MAX_PATHS} paths, got {n}")));
        }
        if self.rtt.len() != n {
            return Err(ConfigError::new(
                "rtt",
                format!("one RTT per path: {n} values like the loss list, got {}", self.rtt.len()),
            ));
        }
        if let Some(p) = self.loss.iter().find(|p| !(**p > 0.0 && **p < 1.0)) {
            return Err(ConfigError::new("loss", format!("probabilities in (0, 1), got {p}")));
        }
        if let Some(r) = self.rtt.iter().find(|r| !(r.is_finite() && **r > 0.0)) {
            return Err(ConfigError::new("rtt", format!("positive finite RTTs in units of Δ, got {r}")));
        }
        let (lo, hi) = (self.round_length(), self.rtt.iter().copied().fold(0.0, f64::max));
        if hi / lo > 1.0e6 {
            return Err(ConfigError::new("rtt", format!("RTTs within a factor 1e6 of each other, got {lo} and {hi}")));
        }
        if self.rounds == 0 {
            return Err(ConfigError::new("rounds", "at least 1 round, got 0"));
        }
        if self.trace_rounds == 0 {
            return Err(ConfigError::new("trace_rounds", "at least 1, got 0"));
        }
        if self.sample_every == 0 {
            return Err(ConfigError::new("sample_every", "at least 1, got 0"));
        }
        if !(self.initial_cwnd.is_finite() && self.initial_cwnd >= 1.0) {
            return Err(ConfigError::new("initial_cwnd", format!("a window of at least 1 segment, got {}", self.initial_cwnd)));
        }
        if let Some(a) = self.linked_increases_a {
            if self.algorithm != Algorithm::LinkedIncreases {
                return Err(ConfigError::new("a", format!("only with linked-increases, got it with {}", self.algorithm)));
            }
            if !(a.is_finite() && a > 0.0) {
                return Err(ConfigError::new("a", format!("a positive finite number, got {a}")));
            }
        }
        Ok(())
    }
}
