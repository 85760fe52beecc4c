//! What `quic run` and `quic netns` both take: the controller, the times and every link's
//! shape, checked.

use crate::error::CliError;
use clap::Args;
use pathpool_quic::QuicCc;
use pathpool_scenario::units;
use std::time::Duration;

/// What `quic run` and `quic netns` both take: the controller, the times, every link's shape.
#[derive(Args)]
pub struct Shape {
    /// The multipath connection's controller (docs/schemes.md).
    #[arg(long, default_value = "lia", value_name = "NAME", value_parser = crate::scheme_arg::SchemeArg(pathpool_cc::Backend::Quic))]
    pub cc: String,
    /// How long to send, with a unit as in scenario files (e.g. 40s).
    #[arg(long, default_value = "40s", value_name = "TIME")]
    pub duration: String,
    /// The time before the measurement window, with a unit (e.g. 10s).
    #[arg(long, default_value = "10s", value_name = "TIME")]
    pub warmup: String,
    /// Bottleneck rate, with a unit (e.g. 10Mbps).
    #[arg(long, default_value = "10Mbps", value_name = "RATE")]
    pub rate: String,
    /// One-way propagation delay of every path, with a unit (e.g. 10ms).
    #[arg(long, default_value = "10ms", value_name = "TIME")]
    pub delay: String,
}

/// The checked values of a [`Shape`].
pub struct Checked {
    pub cc: QuicCc,
    pub duration: Duration,
    pub warmup: Duration,
    pub delay: Duration,
    /// Bottleneck rate, Mb/s.
    pub rate_mbps: f64,
    /// One bandwidth-delay product (rate x two-way propagation delay), at least 3000 B.
    pub buffer: u64,
}

impl Shape {
    pub fn check(&self) -> Result<Checked, CliError> {
        let cc: QuicCc = self.cc.parse().map_err(|e| CliError::usage(format!("--cc: {e}")))?;
        let duration = seconds("--duration", crate::time_arg::parse("--duration", &self.duration)?)?;
        let warmup = crate::time_arg::parse("--warmup", &self.warmup)?;
        if warmup >= duration {
            return Err(CliError::usage(format!("--warmup: expected a time shorter than --duration ({}), got \"{}\"", self.duration, self.warmup)));
        }
        let delay = crate::time_arg::parse("--delay", &self.delay)?;
        if delay.is_zero() || delay > Duration::from_secs(1) {
            return Err(CliError::usage(format!("--delay: expected a time in (0, 1s], got \"{}\"", self.delay)));
        }
        let rate_bps = units::parse_rate(&self.rate)
            .ok_or_else(|| CliError::usage(format!("--rate: expected {}, got \"{}\"", units::RATE_EXPECTED, self.rate)))?;
        if rate_bps == 0 || rate_bps > 1_000_000_000 {
            return Err(CliError::usage(format!("--rate: expected a rate in (0, 1Gbps], got \"{}\"", self.rate)));
        }
        let rate_mbps = rate_bps as f64 / 1e6;
        let buffer = ((rate_mbps * 1e6 / 8.0) * 2.0 * delay.as_secs_f64()).max(3000.0) as u64;
        Ok(Checked { cc, duration, warmup, delay, rate_mbps, buffer })
    }
}

pub fn seconds(flag: &str, d: Duration) -> Result<Duration, CliError> {
    if !d.is_zero() && d < Duration::from_secs(86_400) {
        Ok(d)
    } else {
        Err(CliError::usage(format!("{flag}: expected a time in (0, 86400s), got {}s", d.as_secs_f64())))
    }
}
