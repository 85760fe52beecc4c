//! Knobs of the controllers. `CcConfig::default()` follows the RFCs where they are precise;
//! the knobs exist where the papers' results depend on a choice the RFCs leave open
//! (algorithms.md §11 items 1, 7, 9, 10, 11, 34-36). docs/algorithms.md gives the reasons.

/// Floor of ssthresh after a decrease, in segments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MinSsthresh {
    /// 1 when the decrease happens on a coupled algorithm with >= 2 subflows in the
    /// coupling set (OLIA-05 §3, BALIA-04 §2, S0 Remark 1), else 2 (RFC 5681 eq. 4).
    Auto,
    /// Always this value (>= 1).
    Fixed(f64),
}

/// When a subflow is in slow start (algorithms.md §11 item 34).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlowStartTest {
    /// `cwnd < ssthresh` (Linux >= 4.x `tcp_in_slow_start`).
    Less,
    /// `cwnd <= ssthresh` (Linux 3.14, the kernel of S0, and the MPTCP-SBD port).
    LessOrEqual,
}

/// What one unit of congestion-avoidance increase is (algorithms.md §11 item 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckCounting {
    /// Scale the increase by the newly acknowledged segments (RFC 5681 byte counting,
    /// RFC 6356 `bytes_acked`, OLIA-05).
    PerSegment,
    /// One increase unit per ACK event whatever it acknowledges (Linux MPTCP modules).
    PerAckEvent,
}

/// RFC 9438 CUBIC parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubicParams {
    /// C, segments / s^3 (RFC 9438 §5.1: 0.4).
    pub c: f64,
    /// beta_cubic (RFC 9438 §4.6: 0.7).
    pub beta: f64,
    /// RFC 9438 §4.7 (SHOULD be on when flows compete).
    pub fast_convergence: bool,
    /// RFC 9438 §4.3 Reno-friendly region.
    pub reno_friendly: bool,
}

impl Default for CubicParams {
    fn default() -> Self {
        CubicParams {
            c: 0.4,
            beta: 0.7,
            fast_convergence: true,
            reno_friendly: true,
        }
    }
}

/// OLIA's "best path" metric (algorithms.md §2.3, §11 item 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OliaBestPath {
    /// `l_r / rtt_r^2` (Linux `mptcp_olia.c`; follows the draft's own rate argument).
    LossOverRttSquared,
    /// `l_r^2 / rtt_r` (draft-khalili-05 text as printed).
    LossSquaredOverRtt,
}

/// wVegas parameters (draft-xu-05, Linux `mptcp_wvegas.c`; algorithms.md §4.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WVegasParams {
    /// Sum of the per-subflow alphas over the connection, packets.
    pub total_alpha: f64,
    /// Alpha of a subflow before its first weight update, packets.
    pub initial_alpha: f64,
    /// Slow-start exit threshold, packets.
    pub gamma: f64,
    /// Do not run the queue-drain halving when the measured queueing delay is zero
    /// (Linux halves cwnd there; algorithms.md §11 item 11).
    pub guard_zero_queue: bool,
}

impl Default for WVegasParams {
    fn default() -> Self {
        WVegasParams {
            total_alpha: 10.0,
            initial_alpha: 2.0,
            gamma: 1.0,
            guard_zero_queue: true,
        }
    }
}

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

    /// Checks the values a scenario file may set; the error names the field and what was
    /// expected.
    pub fn validate(&self) -> Result<(), String> {
        fn positive_finite(name: &str, v: f64) -> Result<(), String> {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("{name}: expected a finite number > 0, got {v}"))
            }
        }
        if !(self.initial_cwnd.is_finite() && self.initial_cwnd >= 1.0) {
            return Err(format!(
                "initial_cwnd: expected a finite number >= 1, got {}",
                self.initial_cwnd
            ));
        }
        if self.initial_ssthresh.is_nan() || self.initial_ssthresh < 1.0 {
            return Err(format!(
                "initial_ssthresh: expected a number >= 1 or infinity, got {}",
                self.initial_ssthresh
            ));
        }
        if let MinSsthresh::Fixed(m) = self.min_ssthresh {
            if !(m.is_finite() && m >= 1.0) {
                return Err(format!(
                    "min_ssthresh: expected a finite number >= 1, got {m}"
                ));
            }
        }
        positive_finite("cubic.c", self.cubic.c)?;
        if !(self.cubic.beta > 0.0 && self.cubic.beta < 1.0) {
            return Err(format!(
                "cubic.beta: expected a number in (0, 1), got {}",
                self.cubic.beta
            ));
        }
        positive_finite("wvegas.total_alpha", self.wvegas.total_alpha)?;
        positive_finite("wvegas.initial_alpha", self.wvegas.initial_alpha)?;
        positive_finite("wvegas.gamma", self.wvegas.gamma)?;
        if let Some(a) = self.linked_increases_a {
            positive_finite("linked_increases_a", a)?;
        }
        Ok(())
    }
}
