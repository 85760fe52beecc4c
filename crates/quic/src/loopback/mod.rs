//! Multipath QUIC transfers over loopback with user-space shaped paths (no root needed): the
//! crate's tests, `pathpool quic run` and the measurements of docs/quic.md use it. [`send`]
//! and [`recv`] are the two ends of one transfer as separate processes (`pathpool quic
//! send|recv`, over any network, e.g. between namespaces).
//!
//! An [`Experiment`] names bottleneck links (rate, buffer) and flows; each flow is one noq
//! connection from its own client endpoint to its own server endpoint, with one path per
//! entry of its `paths` (a relay on 127.0.0.k in front of one of the links, with a
//! propagation delay each way). A flow sends a byte pattern on one stream for the
//! experiment's duration; its receiver checks every byte.

mod relay;
mod run;
mod split;
mod tls;

pub use relay::{Bottleneck, DelayLine, Relay};
pub use run::{run, FlowReport, LinkReport, Report, RECORD_INPUTS};
pub use split::{recv, send, SendOptions};
pub use tls::{client_config, Certificates, DATAGRAM};

use crate::QuicCc;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct LinkSpec {
    pub name: String,
    pub rate_mbps: f64,
    pub buffer_bytes: u64,
}

#[derive(Clone, Debug)]
pub struct PathSpec {
    /// Index into `Experiment::links`: the bottleneck of this path's forward direction.
    pub link: usize,
    /// One-way propagation delay (the RTT is twice this plus queueing).
    pub delay: Duration,
}

#[derive(Clone, Debug)]
pub struct FlowSpec {
    pub name: String,
    pub cc: QuicCc,
    pub paths: Vec<PathSpec>,
}

#[derive(Clone, Debug)]
pub struct Experiment {
    pub links: Vec<LinkSpec>,
    pub flows: Vec<FlowSpec>,
    /// Sending time of every flow.
    pub duration: Duration,
    /// Goodput is measured from here to the end of `duration`.
    pub warmup: Duration,
    pub probe: Duration,
    /// (flow, path, at): that path drops everything from `at` on.
    pub kill: Option<(usize, usize, Duration)>,
    /// How long after `duration` a flow may take to deliver its last bytes before the run
    /// ends with an error.
    pub grace: Duration,
}

impl Experiment {
    /// The error names the field and what was expected.
    pub fn validate(&self) -> Result<(), String> {
        if self.flows.is_empty() {
            return Err("flows: expected at least one flow".into());
        }
        for (i, f) in self.flows.iter().enumerate() {
            if f.paths.is_empty() {
                return Err(format!("flows[{i}] ({}).paths: expected at least one path, got none", f.name));
            }
            if f.paths.len() > 8 {
                return Err(format!("flows[{i}] ({}).paths: expected at most 8 (noq's concurrent paths here), got {}", f.name, f.paths.len()));
            }
            for (k, p) in f.paths.iter().enumerate() {
                if p.link >= self.links.len() {
                    return Err(format!("flows[{i}] ({}).paths[{k}].link: expected an index below {}, got {}", f.name, self.links.len(), p.link));
                }
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            if !(l.rate_mbps.is_finite() && l.rate_mbps > 0.0) {
                return Err(format!("links[{i}] ({}).rate_mbps: expected a finite number > 0, got {}", l.name, l.rate_mbps));
            }
            if l.buffer_bytes < 1500 {
                return Err(format!("links[{i}] ({}).buffer_bytes: expected at least 1500, got {}", l.name, l.buffer_bytes));
            }
        }
        if self.probe.is_zero() || self.duration <= self.warmup {
            return Err(format!("duration ({:?}) must exceed warmup ({:?}) and probe must be > 0", self.duration, self.warmup));
        }
        if let Some((f, p, _)) = self.kill {
            if self.flows.get(f).is_none_or(|fl| p >= fl.paths.len()) {
                return Err(format!("kill: flow {f} path {p} does not exist"));
            }
        }
        Ok(())
    }
}
