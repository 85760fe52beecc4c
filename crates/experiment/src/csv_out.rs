//! The time series as CSV in long form (one row per interval and flow, or interval and link
//! direction), which stays readable for a thousand flows and loads directly into pandas or R.
//! Numbers are written in Rust's shortest round-trip form, so the bytes are deterministic.

use crate::outcome::Outcome;
use std::io;
use std::path::Path;

fn number(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        String::new()
    }
}

fn writer(path: &Path) -> io::Result<csv::Writer<std::fs::File>> {
    csv::Writer::from_path(path).map_err(io::Error::other)
}

/// flows.csv: time_s, flow, throughput_mbps, cwnd_packets (0 for UDP), then the backend's
/// extra columns (`Series::flow_extra`), if any.
pub fn write_flows(path: &Path, o: &Outcome) -> io::Result<()> {
    let mut w = writer(path)?;
    let s = &o.series;
    let header = ["time_s", "flow", "throughput_mbps", "cwnd_packets"].into_iter().chain(s.flow_extra.iter().map(|c| c.name));
    w.write_record(header).map_err(io::Error::other)?;
    for (k, t) in s.times.iter().enumerate() {
        for (i, f) in o.flows.iter().enumerate() {
            let mut row = vec![number(*t), f.name.clone(), number(s.flow_throughput_mbps[i][k]), number(s.flow_cwnd_packets[i][k])];
            row.extend(s.flow_extra.iter().map(|c| number(c.values[i][k])));
            w.write_record(&row).map_err(io::Error::other)?;
        }
    }
    w.flush()
}

/// links.csv: time_s, link, queue_packets, drops (during the interval).
pub fn write_links(path: &Path, o: &Outcome) -> io::Result<()> {
    let mut w = writer(path)?;
    w.write_record(["time_s", "link", "queue_packets", "drops"]).map_err(io::Error::other)?;
    let s = &o.series;
    for (k, t) in s.times.iter().enumerate() {
        for (i, l) in o.links.iter().enumerate() {
            let row = [number(*t), l.name.clone(), number(s.link_queue_packets[i][k]), s.link_drops[i][k].to_string()];
            w.write_record(&row).map_err(io::Error::other)?;
        }
    }
    w.flush()
}
