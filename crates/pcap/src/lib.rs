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

/// The first pass: every record of `captures` (merged in time order) surveyed, copies of a
/// frame ([`dedup`]) dropped and counted in `survey.duplicates`.
pub struct Surveyed {
    pub survey: Survey,
    /// Per file: where it ends inside a record (offset, bytes missing).
    pub truncated: Vec<Option<(u64, usize)>>,
    pub files: Vec<String>,
    /// Copies whose original came from another file (the same link captured twice, or one
    /// file given twice); included in `survey.duplicates`.
    pub copies_across_files: u64,
    /// Per file: records whose time was clamped (out of range with its offset), the first.
    pub clamped: Vec<(u64, Option<u64>)>,
}

/// Opens `paths` (each once: a pipe is read once into memory) and surveys them.
pub fn survey(paths: &[PathBuf]) -> Result<Surveyed, CaptureError> {
    survey_of(&input::Captures::open(paths)?)
}

pub fn survey_of(captures: &input::Captures) -> Result<Surveyed, CaptureError> {
    let mut inputs = captures.inputs()?;
    let mut s = Survey::default();
    let mut dedup = dedup::Dedup::for_files(captures.len());
    let truncated = inputs.for_each(|r, file| {
        let parsed = packet::parse_record(r.linktype, r.data, r.orig_len);
        if parsed.as_ref().is_ok_and(|seg| dedup.is_copy_in(r.ts_ns, seg, file)) {
            s.copy();
        } else {
            s.record(r.ts_ns, parsed);
        }
    })?;
    let files = inputs.names();
    if let Some(at) = s.over_limit {
        return Err(CaptureError::new(
            &files.join("', '"),
            0,
            format!(
                "more than {} TCP flow directions carry data or acknowledge it (the limit was reached at packet {at} of the merged captures); at most {} are analysed at once, to bound memory: split the capture by address (e.g. tcpdump -r FILE -w PART net ADDR/PREFIX)",
                survey::MAX_DIRS,
                survey::MAX_DIRS
            ),
        ));
    }
    Ok(Surveyed { survey: s, truncated, files, copies_across_files: dedup.across_files, clamped: inputs.clamped() })
}

/// The second pass: samples of the plan's subflows into `sink`; returns per-subflow counts.
pub fn sample(paths: &[PathBuf], plan: &Plan, spacing_ns: u64, sink: &mut impl Sink) -> Result<Vec<Counts>, CaptureError> {
    sample_of(&input::Captures::open(paths)?, plan, spacing_ns, sink)
}

pub fn sample_of(captures: &input::Captures, plan: &Plan, spacing_ns: u64, sink: &mut impl Sink) -> Result<Vec<Counts>, CaptureError> {
    let mut inputs = captures.inputs()?;
    let mut sampler = sampler::Sampler::new(plan, spacing_ns);
    // The same copies as the survey's are dropped (the same frames in the same order); a
    // capture without any is not checked again.
    let mut dedup = (plan.copies > 0).then(|| dedup::Dedup::for_files(captures.len()));
    inputs.for_each(|r, file| {
        if let Ok(s) = packet::parse(r.linktype, r.data) {
            if dedup.as_mut().is_some_and(|d| d.is_copy_in(r.ts_ns, &s, file)) {
                return;
            }
            sampler.segment(r.ts_ns, &s, sink);
        }
    })?;
    Ok(sampler.counts)
}

/// A step in capture time this large between consecutive records is not a pause of one
/// capture (a week).
const IMPLAUSIBLE_STEP_NS: u64 = 7 * 86_400 * 1_000_000_000;

impl Surveyed {
    /// What is wrong with the capture times, when they cannot be one capture's: times clamped
    /// to the representable range, a step back or a jump between two records beyond
    /// [`IMPLAUSIBLE_STEP_NS`]. Names the file (or files) and the record.
    pub fn time_problem(&self) -> Option<String> {
        for (file, &(n, first)) in self.files.iter().zip(&self.clamped) {
            if let Some(r) = first {
                return Some(format!(
                    "'{file}': {n} packet time(s) fall before 1970 or beyond the year 2554 with the interface's if_tsoffset and were clamped to that range (the first is record {r}): the capture's times are wrong"
                ));
            }
        }
        let files = self.files.join("', '");
        let s = &self.survey;
        let (back, at) = s.largest_step_back;
        if back > IMPLAUSIBLE_STEP_NS {
            return Some(format!("'{files}': packet {at} is {:.0} s earlier than the packet before it (capture times reversed; {} packets out of time order)", back as f64 / 1e9, s.out_of_order));
        }
        let (jump, at) = s.largest_jump;
        if jump > IMPLAUSIBLE_STEP_NS {
            return Some(format!("'{files}': packet {at} comes {:.0} s after the packet before it (a jump of capture time: a corrupt record or a clock set while capturing)", jump as f64 / 1e9));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn surveyed(survey: Survey, clamped: Vec<(u64, Option<u64>)>) -> Surveyed {
        Surveyed { survey, truncated: vec![None; clamped.len()], files: (0..clamped.len()).map(|i| format!("c{i}.pcap")).collect(), copies_across_files: 0, clamped }
    }

    #[test]
    fn wrong_capture_times_are_named_as_such_not_as_a_long_span() {
        let day = 86_400_000_000_000u64;
        let mut s = Survey::default();
        s.record(30 * 365 * day, Err(Skip::NotIp));
        s.record(30 * 365 * day + 1000, Err(Skip::NotIp));
        // Reversed: 30 years back.
        s.record(1000, Err(Skip::NotIp));
        let why = surveyed(s.clone(), vec![(0, None)]).time_problem().unwrap();
        assert!(why.contains("'c0.pcap'") && why.contains("packet 3") && why.contains("reversed"), "{why}");
        // A jump forward of 30 years.
        let mut j = Survey::default();
        j.record(1000, Err(Skip::NotIp));
        j.record(30 * 365 * day, Err(Skip::NotIp));
        let why = surveyed(j, vec![(0, None)]).time_problem().unwrap();
        assert!(why.contains("packet 2") && why.contains("jump"), "{why}");
        // Clamped times name their file first.
        let why = surveyed(s, vec![(0, None), (4, Some(9))]).time_problem().unwrap();
        assert!(why.contains("'c1.pcap'") && why.contains("clamped") && why.contains("record 9"), "{why}");
        // A capture of a few hours: nothing wrong.
        let mut ok = Survey::default();
        ok.record(day, Err(Skip::NotIp));
        ok.record(day + 3 * 3_600_000_000_000, Err(Skip::NotIp));
        assert_eq!(surveyed(ok, vec![(0, None)]).time_problem(), None);
    }
}
