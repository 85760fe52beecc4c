//! Retransmission-timeout estimator (RFC 6298, or Linux's rule: `RtoRule::Linux`), and its
//! smoothed-RTT part on its own (what the congestion controllers read).

use crate::Nanos;

const SECOND: Nanos = 1_000_000_000;
/// RFC 6298 §2: alpha = 1/8, beta = 1/4, K = 4.
const ALPHA: f64 = 1.0 / 8.0;
const BETA: f64 = 1.0 / 4.0;
const K: f64 = 4.0;
/// Clock granularity G of RFC 6298 §2: time is kept in nanoseconds.
const GRANULARITY: f64 = 1.0;

/// SRTT alone (RFC 6298 (2.2), (2.3) with alpha = 1/8): what a controller needs of the RTT.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SmoothedRtt(Option<f64>);

impl SmoothedRtt {
    pub fn on_sample(&mut self, rtt: Nanos) {
        let r = rtt as f64;
        self.0 = Some(match self.0 {
            None => r,                                  // (2.2)
            Some(srtt) => (1.0 - ALPHA) * srtt + ALPHA * r, // (2.3)
        });
    }

    /// Unrounded SRTT.
    pub fn get(&self) -> Option<f64> {
        self.0
    }

    /// SRTT rounded to whole nanoseconds.
    pub fn nanos(&self) -> Option<Nanos> {
        self.0.map(round_nanos)
    }
}

/// How the RTO follows from the RTT samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RtoRule {
    /// RFC 6298 §2: RTO = max(min_rto, SRTT + 4 RTTVAR).
    #[default]
    Rfc6298,
    /// Linux (`tcp_rtt_estimator`, `__tcp_set_rto` in net/ipv4/tcp_input.c): the minimum
    /// bounds the variance term, not the RTO, so RTO = SRTT + max(4 mdev, min_rto) is never
    /// less than SRTT + min_rto; a sample below SRTT moves mdev with weight 1/32 instead of
    /// 1/4. Linux also holds the largest mdev of the last round trip and lets the variance
    /// term decay towards it once per round trip; here the term follows mdev directly
    /// (docs/fidelity.md: with min_rto = 200 ms the floor decides almost every RTO).
    Linux,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RttEstimator {
    rule: RtoRule,
    /// The bounds in ns as f64, converted once: `rto()` runs on every ACK, and a u64 -> f64
    /// conversion takes several instructions on x86-64 (exact below 2^53 ns, 104 days).
    min_rto: f64,
    max_rto: f64,
    initial_rto: f64,
    srtt: SmoothedRtt,
    rttvar: f64,
    /// Number of doublings since the last sample (RFC 6298 (5.5)).
    backoffs: u32,
}

impl Default for RttEstimator {
    /// RFC 6298: initial RTO 1 s (2.1), minimum 1 s (2.4), maximum 60 s (2.5).
    fn default() -> Self {
        RttEstimator::new(SECOND, 60 * SECOND, SECOND)
    }
}

impl RttEstimator {
    /// `min_rto <= max_rto` is expected; a larger minimum is lowered to the maximum.
    pub fn new(min_rto: Nanos, max_rto: Nanos, initial_rto: Nanos) -> Self {
        RttEstimator::with_rule(RtoRule::Rfc6298, min_rto, max_rto, initial_rto)
    }

    pub fn with_rule(rule: RtoRule, min_rto: Nanos, max_rto: Nanos, initial_rto: Nanos) -> Self {
        RttEstimator {
            rule,
            min_rto: min_rto.min(max_rto) as f64,
            max_rto: max_rto as f64,
            initial_rto: initial_rto as f64,
            srtt: SmoothedRtt::default(),
            rttvar: 0.0,
            backoffs: 0,
        }
    }

    /// A Karn-valid RTT measurement (RFC 6298 §3: never from a retransmitted segment).
    pub fn on_sample(&mut self, rtt: Nanos) {
        let r = rtt as f64;
        self.rttvar = match self.srtt.get() {
            None => r / 2.0, // (2.2) first measurement
            // (2.3) RTTVAR first, with the old SRTT
            Some(srtt) => {
                let error = (srtt - r).abs();
                // Linux raises the variance on a sample below SRTT with 1/8 of the usual gain
                // (it shrinks it with the full gain), so a falling RTT does not lengthen the RTO.
                let gain = if self.rule == RtoRule::Linux && r < srtt && error > self.rttvar { BETA / 8.0 } else { BETA };
                (1.0 - gain) * self.rttvar + gain * error
            }
        };
        self.srtt.on_sample(rtt);
        // A new measurement ends the back-off (RFC 6298 §5 note after (5.7)).
        self.backoffs = 0;
    }

    /// The timer expired: double the RTO up to the maximum (RFC 6298 (5.5)).
    pub fn backoff(&mut self) {
        if self.rto() < ceil_nanos(self.max_rto) {
            self.backoffs += 1;
        }
    }

    pub fn rto(&self) -> Nanos {
        let base = match (self.srtt.get(), self.rule) {
            (None, _) => self.initial_rto,                                                // (2.1)
            (Some(srtt), RtoRule::Rfc6298) => srtt + GRANULARITY.max(K * self.rttvar), // (2.3)
            (Some(srtt), RtoRule::Linux) => srtt + (K * self.rttvar).max(self.min_rto),
        };
        let base = base.max(self.min_rto).min(self.max_rto); // (2.4), (2.5)
        if self.backoffs == 0 {
            return ceil_nanos(base);
        }
        let backed = base * 2f64.powi(self.backoffs.min(62) as i32);
        ceil_nanos(backed.min(self.max_rto))
    }

    pub fn srtt(&self) -> Option<Nanos> {
        self.srtt.nanos()
    }

    /// The SRTT part, as a controller reads it (`Controller::set_srtt`).
    pub fn smoothed(&self) -> SmoothedRtt {
        self.srtt
    }

    /// Unrounded SRTT.
    pub fn srtt_f64(&self) -> Option<f64> {
        self.srtt.get()
    }

    pub fn rttvar(&self) -> Nanos {
        round_nanos(self.rttvar)
    }
}

/// `x.ceil() as Nanos` for `0 <= x < 2^63` (292 years in ns; an RTO is at least `min_rto`
/// and at most `max_rto`), 0 for NaN, inline: a simulated sender asks for its RTO on every
/// ACK, and without SSE4.1 `f64::ceil` is a library call. Through i64: one conversion
/// instruction each way, where u64 takes several more (2.2 % of a Linux-host B1 run's
/// instructions).
#[inline]
fn ceil_nanos(x: f64) -> Nanos {
    debug_assert!(!(x < 0.0), "{x}");
    let t = x as i64;
    // Without a branch: whether x is whole is as good as random once RTTs jitter.
    (t + ((t as f64) < x) as i64) as Nanos
}

/// `x.round() as Nanos` for `0 <= x < 2^63` (an SRTT or RTTVAR in ns), 0 for NaN, inline:
/// Linux's MPTCP scheduler reads each subflow's SRTT per ACK, and without SSE4.1 `f64::round`
/// is a library call; through i64 as `ceil_nanos`. The fraction `x - t` is exact
/// below 2^53 and 0 above (where every double is a whole number), and NaN for NaN.
#[inline]
fn round_nanos(x: f64) -> Nanos {
    debug_assert!(!(x < 0.0), "{x}");
    let t = x as i64;
    let fraction = x - t as f64;
    // `(0.5..1.0).contains(&fraction)` without a branch (the fraction is as good as random).
    (t + ((fraction >= 0.5) & (fraction < 1.0)) as i64) as Nanos
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_nanos_is_round() {
        let big = (1u64 << 53) as f64;
        let below_half = 0.5 - f64::EPSILON / 4.0;
        let top = (1u64 << 63) as f64;
        for x in [0.0, below_half, 0.5, 1.5, 2.5, 2.4999999, 199_999_999.5, 2.5e9 + 0.49, big - 0.5, big - 1.5, big, big * 3.0, top - 1024.0, f64::NAN] {
            assert_eq!(super::round_nanos(x), x.round() as u64, "{x}");
        }
    }

    #[test]
    fn ceil_nanos_is_ceil() {
        let big = (1u64 << 53) as f64;
        let top = (1u64 << 63) as f64;
        for x in [0.0, 0.2, 1.0, 1.5, 199_999_999.000_001, 200e6, 2.5e9, big - 0.5, big, big * 3.0, top - 1024.0, f64::NAN] {
            assert_eq!(super::ceil_nanos(x), x.ceil() as u64, "{x}");
        }
    }
}
