//! Per-packet delay logs of the flows with `log_delays = true` as trace rows, written in the
//! CSV forms `pathpool detect` reads (`pathpool_trace::csv`): owd.csv and rtt.csv. A
//! retransmitted segment stands for one loss: its row is followed by a `lost` row at its send
//! time (the receiver cannot know when the original was dropped, and RFC 8382 only counts
//! losses per interval).

use pathpool_trace::{OwdRow, RttRow};
use std::io;
use std::path::Path;

pub const FILES: [&str; 2] = ["owd.csv", "rtt.csv"];

/// One logged flow copy.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayTrace {
    pub flow: String,
    pub log: DelayLog,
}

/// One data segment as the receiver saw it; times in picoseconds on one clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwdSample {
    /// The sender's clock when the segment left.
    pub sent: u64,
    pub received: u64,
    /// A retransmission: a segment of this flow was lost before it.
    pub retransmission: bool,
}

/// One RTT sample as the sender took it, in picoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RttSample {
    /// When the ACK arrived.
    pub at: u64,
    pub rtt: u64,
}

/// A flow's two logs, in time order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DelayLog {
    pub owd: Vec<OwdSample>,
    pub rtt: Vec<RttSample>,
}

fn micros(t: u64) -> i64 {
    (t / 1_000_000) as i64
}

/// One-way-delay rows, `flow` indexing `traces`, in arrival order per flow.
pub fn owd_rows(traces: &[DelayTrace]) -> Vec<OwdRow> {
    let mut rows = Vec::new();
    for (flow, t) in traces.iter().enumerate() {
        for s in &t.log.owd {
            rows.push(OwdRow { flow, send_us: micros(s.sent), recv_us: micros(s.received), lost: false });
            if s.retransmission {
                rows.push(OwdRow { flow, send_us: micros(s.sent), recv_us: 0, lost: true });
            }
        }
    }
    rows
}

/// RTT rows, `flow` indexing `traces`.
pub fn rtt_rows(traces: &[DelayTrace]) -> Vec<RttRow> {
    let mut rows = Vec::new();
    for (flow, t) in traces.iter().enumerate() {
        rows.extend(t.log.rtt.iter().map(|s| RttRow { flow, ack_us: micros(s.at), rtt_us: micros(s.rtt) }));
    }
    rows
}

/// Writes owd.csv and rtt.csv into `dir`.
pub fn write(dir: &Path, traces: &[DelayTrace]) -> io::Result<()> {
    let names: Vec<&str> = traces.iter().map(|t| t.flow.as_str()).collect();
    pathpool_trace::csv::write_owd(std::fs::File::create(dir.join(FILES[0]))?, &owd_rows(traces), &names)?;
    pathpool_trace::csv::write_rtt(std::fs::File::create(dir.join(FILES[1]))?, &rtt_rows(traces), &names)
}
