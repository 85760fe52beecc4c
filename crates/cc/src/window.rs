//! The window rules every algorithm shares (RFC 5681 §3.1-3.2, RFC 6582), in segments, and
//! their knobs. Recovery itself (dupACK inflation, partial ACKs, retransmissions) belongs to
//! the sender; the controller keeps the un-inflated window (`cwnd = ssthresh` during recovery).

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

/// The window rules every algorithm shares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowConfig {
    /// Segments (RFC 6928: 10).
    pub initial_cwnd: f64,
    /// Segments (RFC 5681 §3.1: arbitrarily high).
    pub initial_ssthresh: f64,
    pub min_ssthresh: MinSsthresh,
    pub slow_start: SlowStartTest,
    pub counting: AckCounting,
}

impl Default for WindowConfig {
    /// RFC 6928 initial window, RFC 5681 initial ssthresh, floor and slow-start test, byte
    /// counting (the defaults of `CcConfig`).
    fn default() -> Self {
        WindowConfig {
            initial_cwnd: 10.0,
            initial_ssthresh: f64::INFINITY,
            min_ssthresh: MinSsthresh::Auto,
            slow_start: SlowStartTest::Less,
            counting: AckCounting::PerSegment,
        }
    }
}

impl WindowConfig {
    /// The error names the field and what was expected.
    pub fn validate(&self) -> Result<(), String> {
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
        Ok(())
    }
}

pub(crate) fn in_slow_start(cwnd: f64, ssthresh: f64, test: SlowStartTest) -> bool {
    match test {
        SlowStartTest::Less => cwnd < ssthresh,
        SlowStartTest::LessOrEqual => cwnd <= ssthresh,
    }
}

/// Slow start by acked segments (RFC 5681 eq. 2 with RFC 3465 byte counting), stopping at the
/// slow-start boundary: at ssthresh for the `<` test; one segment above it for `<=`, where the
/// subflow only leaves slow start once cwnd exceeds ssthresh (Linux 3.14 `tcp_slow_start`).
/// Returns the acked segments left over for congestion avoidance.
pub(crate) fn slow_start(cwnd: &mut f64, ssthresh: f64, acked: f64, test: SlowStartTest) -> f64 {
    let boundary = match test {
        SlowStartTest::Less => ssthresh,
        SlowStartTest::LessOrEqual => ssthresh + 1.0,
    };
    let grow = acked.min((boundary - *cwnd).max(0.0));
    *cwnd += grow;
    acked - grow
}

/// Congestion avoidance: 1/cwnd per increase unit (RFC 5681 eq. 3; a unit is one acked
/// segment or one ACK event, see `AckCounting`).
pub(crate) fn increase(cwnd: &mut f64, units: f64) {
    *cwnd += units / *cwnd;
}

/// ssthresh after a loss (RFC 5681 eq. 4): half the flight size, floored.
pub(crate) fn ssthresh_after_loss(flight_size: f64, min_ssthresh: f64) -> f64 {
    (flight_size / 2.0).max(min_ssthresh)
}
