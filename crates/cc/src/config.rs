//! Knobs of the controllers. `CcConfig::default()` follows the RFCs where they are precise;
//! the knobs exist where the papers' results depend on a choice the RFCs leave open
//! (algorithms.md §11 items 1, 7, 9, 10, 11, 34-36). docs/algorithms.md gives the reasons.
//! The knobs of one algorithm live in its own file (`CubicParams` in cubic.rs, ...), the
//! shared window knobs in window.rs.

use crate::cubic::CubicParams;
use crate::olia::OliaBestPath;
use crate::window::{AckCounting, MinSsthresh, SlowStartTest, WindowConfig};
use crate::wvegas::WVegasParams;

/// Every knob of every algorithm, as scenario files and command lines set them; each
/// algorithm takes its own part (`Controller::new`).
#[derive(Clone, Debug, PartialEq)]
pub struct CcConfig {
    /// Segments (RFC 6928: 10).
    pub initial_cwnd: f64,
    /// Segments (RFC 5681 §3.1: arbitrarily high).
    pub initial_ssthresh: f64,
    pub min_ssthresh: MinSsthresh,
    pub slow_start: SlowStartTest,
    pub counting: AckCounting,
    pub cubic: CubicParams,
    pub olia_best_path: OliaBestPath,
    /// Truncate BALIA's alpha to an integer in the decrease, as Linux does (§11 item 10).
    pub balia_integer_alpha: bool,
    pub wvegas: WVegasParams,
    /// LINKED INCREASES' `a` (S1 §3). `None`: recompute it from windows and RTTs with the
    /// S1 §4 formula (the value LIA uses).
    pub linked_increases_a: Option<f64>,
}

impl Default for CcConfig {
    fn default() -> Self {
        CcConfig {
            initial_cwnd: 10.0,
            initial_ssthresh: f64::INFINITY,
            min_ssthresh: MinSsthresh::Auto,
            slow_start: SlowStartTest::Less,
            counting: AckCounting::PerSegment,
            cubic: CubicParams::default(),
            olia_best_path: OliaBestPath::LossOverRttSquared,
            balia_integer_alpha: false,
            wvegas: WVegasParams::default(),
            linked_increases_a: None,
        }
    }
}

impl CcConfig {
    /// The kernel behaviour S0's experiments ran on (Linux 3.14 MPTCP v0.89 with S0's
    /// min_ssthresh = 1; algorithms.md §11 items 34-36): `cwnd <= ssthresh`, one increase
    /// unit per ACK event, ssthresh floor 1.
    pub fn s0_replication() -> Self {
        CcConfig {
            min_ssthresh: MinSsthresh::Fixed(1.0),
            slow_start: SlowStartTest::LessOrEqual,
            counting: AckCounting::PerAckEvent,
            ..CcConfig::default()
        }
    }

    /// The window rules every algorithm shares.
    pub fn window(&self) -> WindowConfig {
        WindowConfig {
            initial_cwnd: self.initial_cwnd,
            initial_ssthresh: self.initial_ssthresh,
            min_ssthresh: self.min_ssthresh,
            slow_start: self.slow_start,
            counting: self.counting,
        }
    }

    /// Checks the values a scenario file may set, whatever the algorithm; the error names the
    /// field and what was expected.
    pub fn validate(&self) -> Result<(), String> {
        self.window().validate()?;
        self.cubic.validate()?;
        self.wvegas.validate()?;
        crate::linked_increases::validate_a(self.linked_increases_a)
    }
}
