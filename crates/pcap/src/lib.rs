//! `pathpool-pcap`: shared bottleneck detection's input from packet captures. Reads pcap and
//! pcapng files as streams ([`file`]), decodes the link, IP and TCP layers ([`packet`]) and
//! TCP options including MPTCP's ([`options`]), surveys the connections in a first pass
//! ([`survey`]), groups MPTCP subflows into connections and picks each subflow's delay source
//! ([`plan`]), and turns the packets into delay samples and losses in a second pass
//! ([`sampler`]). Memory is bounded by the number of connections, not by the file's size.
//! docs/pcap.md describes the methods and their limits.

pub mod dedup;
pub mod drift;
pub mod error;
pub mod file;
pub mod input;
pub mod options;
pub mod packet;
pub mod plan;
pub mod sampler;
pub mod sha256;
pub mod survey;

pub use error::CaptureError;
pub use packet::{Addr, Skip};
pub use plan::{DelayChoice, Method, Options, Plan};
pub use sampler::{Counts, Sink};
pub use survey::Survey;

use std::path::PathBuf;

/// The first pass: every record of `paths` (merged in time order) surveyed, copies of a frame
/// ([`dedup`]) dropped and counted in `survey.duplicates`.
pub struct Surveyed {
    pub survey: Survey,
    /// Per file: where it ends inside a record (offset, bytes missing).
    pub truncated: Vec<Option<(u64, usize)>>,
    pub files: Vec<String>,
}

pub fn survey(paths: &[PathBuf]) -> Result<Surveyed, CaptureError> {
    let mut inputs = input::Inputs::open(paths)?;
    let mut s = Survey::default();
    let mut dedup = dedup::Dedup::default();
    let truncated = inputs.for_each(|r| {
        let parsed = packet::parse(r.linktype, r.data);
        if parsed.as_ref().is_ok_and(|seg| dedup.is_copy(r.ts_ns, seg)) {
            s.copy();
        } else {
            s.record(r.ts_ns, parsed);
        }
    })?;
    Ok(Surveyed { survey: s, truncated, files: inputs.names() })
}

/// The second pass: samples of the plan's subflows into `sink`; returns per-subflow counts.
pub fn sample(paths: &[PathBuf], plan: &Plan, spacing_ns: u64, sink: &mut impl Sink) -> Result<Vec<Counts>, CaptureError> {
    let mut inputs = input::Inputs::open(paths)?;
    let mut sampler = sampler::Sampler::new(plan, spacing_ns);
    // The same copies as the survey's are dropped (the same frames in the same order); a
    // capture without any is not checked again.
    let mut dedup = (plan.copies > 0).then(dedup::Dedup::default);
    inputs.for_each(|r| {
        if let Ok(s) = packet::parse(r.linktype, r.data) {
            if dedup.as_mut().is_some_and(|d| d.is_copy(r.ts_ns, &s)) {
                return;
            }
            sampler.segment(r.ts_ns, &s, sink);
        }
    })?;
    Ok(sampler.counts)
}
