//! The detector a run configures: a preset named by `--detector` with `--param` overrides.

use crate::args::DetectorKind;
use crate::error::Error;
use pathpool_sbd::{FilterParams, SbdParams, TrendParams};

pub enum Config {
    Sbd(SbdParams, FilterParams),
    Tr(TrendParams),
}

impl Config {
    pub fn build(kind: DetectorKind, overrides: &[String]) -> Result<Config, Error> {
        let mut cfg = match kind {
            DetectorKind::Rfc8382 => Config::Sbd(SbdParams::rfc8382(), FilterParams::default()),
            DetectorKind::MptcpSbd => Config::Sbd(SbdParams::mptcp_sbd(), FilterParams::default()),
            DetectorKind::Pathpool => Config::Sbd(SbdParams::pathpool(), FilterParams::default()),
            DetectorKind::Tr => Config::Tr(TrendParams::default()),
        };
        for item in overrides {
            let Some((name, value)) = item.split_once('=') else {
                return Err(Error::usage(format!("--param: expected NAME=VALUE, got '{item}'")));
            };
            let name = name.trim();
            let result = match &mut cfg {
                Config::Sbd(p, _) if SbdParams::NAMES.contains(&name) => p.set(name, value),
                Config::Sbd(_, f) if FilterParams::NAMES.contains(&name) => f.set(name, value),
                Config::Sbd(..) => Err(format!(
                    "unknown parameter '{name}'; valid: {}, {}",
                    SbdParams::NAMES.join(", "),
                    FilterParams::NAMES.join(", ")
                )),
                Config::Tr(p) => p.set(name, value),
            };
            result.map_err(|e| Error::usage(format!("--param: {e}")))?;
        }
        if let Config::Sbd(p, f) = &cfg {
            p.validate().and_then(|_| f.validate()).map_err(|e| Error::usage(format!("--param: {e}")))?;
        }
        Ok(cfg)
    }

    pub fn entries(&self) -> Vec<(&'static str, f64)> {
        match self {
            Config::Sbd(p, f) => p.entries().into_iter().chain(f.entries()).collect(),
            Config::Tr(p) => p.entries(),
        }
    }

    /// Time between evaluations, ns.
    pub fn step_ns(&self) -> u64 {
        match self {
            Config::Sbd(p, _) => p.t_ns,
            Config::Tr(p) => p.period_ns,
        }
        .max(1)
    }

    /// Trace time needed before the first observation, ns.
    pub fn warmup_ns(&self) -> u64 {
        match self {
            Config::Sbd(p, _) => p.min_intervals.max(1) as u64 * p.t_ns,
            Config::Tr(p) => p.period_ns,
        }
    }

    /// The input ends before the detector's first observation.
    pub fn too_short(&self, what: &str, span_ns: u64) -> Error {
        Error::usage(format!(
            "{what} spans {:.3} s of usable samples, but the detector makes its first observation only after {:.3} s (warm-up); nothing to report",
            span_ns as f64 / 1e9,
            self.warmup_ns() as f64 / 1e9
        ))
    }
}
