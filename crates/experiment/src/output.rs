//! Writes a run's output folder: summary.json, flows.csv, links.csv, throughput.png, queue.png.

use crate::outcome::Outcome;
use crate::{csv_out, plots, summary};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

pub const FILES: [&str; 5] = ["summary.json", "flows.csv", "links.csv", "throughput.png", "queue.png"];

/// Writes every output file into `dir` (which must exist) and returns the summary.
pub fn write_all(dir: &Path, o: &Outcome) -> io::Result<BTreeMap<String, Value>> {
    let s = summary::summary(o);
    std::fs::write(dir.join("summary.json"), summary::to_json(&s))?;
    csv_out::write_flows(&dir.join("flows.csv"), o)?;
    csv_out::write_links(&dir.join("links.csv"), o)?;
    plots::throughput(&dir.join("throughput.png"), o).map_err(io::Error::other)?;
    plots::queue(&dir.join("queue.png"), o).map_err(io::Error::other)?;
    if !o.delay_traces.is_empty() {
        crate::delay_trace::write(dir, &o.delay_traces)?;
    }
    if let Some(mp) = &o.multipath {
        crate::mptcp_outcome::write_csv(dir, mp)?;
    }
    Ok(s)
}
