//! The trace CSV files: one-way delay `flow,send_time_us,recv_time_us[,lost]` (receiver log;
//! clocks need not be synchronised; `lost` = 1 marks a lost packet whose recv_time is
//! ignored) or round trip `flow,ack_time_us,rtt_us` (sender log). Flow ids are arbitrary
//! strings, numbered in their sorted (byte) order, so the result does not depend on the
//! order of the rows.

use crate::rows::{OwdRow, RttRow};
use std::io;
use std::path::Path;

pub const OWD_HEADER: &str = "flow,send_time_us,recv_time_us,lost";
pub const RTT_HEADER: &str = "flow,ack_time_us,rtt_us";

pub enum TraceRows {
    Owd(Vec<OwdRow>),
    Rtt(Vec<RttRow>),
}

pub struct TraceFile {
    pub rows: TraceRows,
    /// Flow ids in sorted order (index = flow number).
    pub flows: Vec<String>,
}

/// Reads a trace file; an error names `flag` (the option that gave the file), the file, and
/// the line and field that are wrong.
pub fn read(flag: &str, path: &Path) -> Result<TraceFile, String> {
    let name = path.display();
    let src = crate::bounded::open(path).map_err(|e| format!("{flag} '{name}': {e}"))?;
    let mut rdr = ::csv::ReaderBuilder::new().has_headers(true).trim(::csv::Trim::All).from_reader(src);
    // A bound of the reader says which one was passed, not "malformed".
    let io_or = |e: &::csv::Error, other: String| match e.kind() {
        ::csv::ErrorKind::Io(io) => format!("{flag} '{name}': {io}"),
        _ => other,
    };
    let header: Vec<String> =
        rdr.headers().map_err(|e| io_or(&e, format!("{flag} '{name}': cannot read the header: {e}")))?.iter().map(str::to_string).collect();
    let owd = match header.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["flow", "send_time_us", "recv_time_us"] | ["flow", "send_time_us", "recv_time_us", "lost"] => true,
        ["flow", "ack_time_us", "rtt_us"] => false,
        _ => {
            return Err(format!(
                "{flag} '{name}': line 1: expected the header '{OWD_HEADER}' (lost optional) or '{RTT_HEADER}', got '{}'",
                header.join(",")
            ))
        }
    };
    let mut flows: Vec<String> = Vec::new();
    let mut index = std::collections::BTreeMap::new();
    let mut owd_rows = Vec::new();
    let mut rtt_rows = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(String::new(), |p| format!("line {}: ", p.line()));
            io_or(&e, format!("{flag} '{name}': {line}malformed row: {e}"))
        })?;
        if owd_rows.len() + rtt_rows.len() == crate::bounded::MAX_ROWS {
            return Err(format!(
                "{flag} '{name}': more than {} rows (line {}); at most {} are held in memory: split the trace by flow or time",
                crate::bounded::MAX_ROWS,
                rec.position().map_or(0, |p| p.line()),
                crate::bounded::MAX_ROWS
            ));
        }
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |field: &str, what: &str, got: &str| format!("{flag} '{name}': line {line}: field '{field}': expected {what}, got '{got}'");
        let int = |i: usize| -> Result<i64, String> {
            let text = rec.get(i).unwrap_or("");
            text.parse::<i64>().map_err(|_| bad(&header[i], "an integer number of microseconds", text))
        };
        let id = rec.get(0).unwrap_or("");
        if id.is_empty() {
            return Err(bad("flow", "a flow id", id));
        }
        let flow = *index.entry(id.to_string()).or_insert_with(|| {
            flows.push(id.to_string());
            flows.len() - 1
        });
        if owd {
            let lost = match rec.get(3) {
                None | Some("0") | Some("") => false,
                Some("1") => true,
                Some(other) => return Err(bad("lost", "0 or 1", other)),
            };
            let send_us = int(1)?;
            let recv_us = if lost { 0 } else { int(2)? };
            owd_rows.push(OwdRow { flow, send_us, recv_us, lost });
        } else {
            let rtt_us = int(2)?;
            if rtt_us < 0 {
                return Err(bad("rtt_us", "a non-negative round-trip time", &rtt_us.to_string()));
            }
            rtt_rows.push(RttRow { flow, ack_us: int(1)?, rtt_us });
        }
    }
    if flows.is_empty() {
        return Err(format!("{flag} '{name}': no data rows after the header"));
    }
    // Renumber by sorted id.
    let mut sorted = flows.clone();
    sorted.sort();
    let rank: Vec<usize> = flows.iter().map(|f| sorted.binary_search(f).expect("present")).collect();
    owd_rows.iter_mut().for_each(|r| r.flow = rank[r.flow]);
    rtt_rows.iter_mut().for_each(|r| r.flow = rank[r.flow]);
    let rows = if owd { TraceRows::Owd(owd_rows) } else { TraceRows::Rtt(rtt_rows) };
    Ok(TraceFile { rows, flows: sorted })
}

/// Writes one-way-delay rows with flow ids `names[row.flow]`; a lost row has an empty
/// receive time.
pub fn write_owd<S: AsRef<str>>(to: impl io::Write, rows: &[OwdRow], names: &[S]) -> io::Result<()> {
    let mut w = RowWriter::new_owd(to, names)?;
    rows.iter().try_for_each(|r| w.owd(r))?;
    w.flush()
}

/// Writes RTT rows with flow ids `names[row.flow]`.
pub fn write_rtt<S: AsRef<str>>(to: impl io::Write, rows: &[RttRow], names: &[S]) -> io::Result<()> {
    let mut w = RowWriter::new_rtt(to, names)?;
    rows.iter().try_for_each(|r| w.rtt(r))?;
    w.flush()
}

/// A trace file written row by row (a long trace need not be held in memory).
pub struct RowWriter<'a, W: io::Write, S> {
    w: ::csv::Writer<W>,
    names: &'a [S],
    /// Rows written.
    pub rows: u64,
}

impl<'a, W: io::Write, S: AsRef<str>> RowWriter<'a, W, S> {
    /// A one-way-delay file: its header written.
    pub fn new_owd(to: W, names: &'a [S]) -> io::Result<Self> {
        Self::with_header(to, names, OWD_HEADER)
    }

    /// A round-trip file: its header written.
    pub fn new_rtt(to: W, names: &'a [S]) -> io::Result<Self> {
        Self::with_header(to, names, RTT_HEADER)
    }

    fn with_header(to: W, names: &'a [S], header: &str) -> io::Result<Self> {
        let mut w = ::csv::Writer::from_writer(to);
        w.write_record(header.split(','))?;
        Ok(RowWriter { w, names, rows: 0 })
    }

    pub fn owd(&mut self, r: &OwdRow) -> io::Result<()> {
        let recv = if r.lost { String::new() } else { r.recv_us.to_string() };
        self.rows += 1;
        Ok(self.w.write_record([self.names[r.flow].as_ref(), &r.send_us.to_string(), &recv, if r.lost { "1" } else { "0" }])?)
    }

    pub fn rtt(&mut self, r: &RttRow) -> io::Result<()> {
        self.rows += 1;
        Ok(self.w.write_record([self.names[r.flow].as_ref(), &r.ack_us.to_string(), &r.rtt_us.to_string()])?)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("pathpool-trace-csv-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn error(name: &str, text: &str) -> String {
        let path = file(name, text);
        let e = read("--input", &path).err().expect("an error");
        let _ = std::fs::remove_file(path);
        e
    }

    #[test]
    fn malformed_rows_name_the_line_and_field() {
        let e = error("a", "flow,send_time_us,recv_time_us\na,1,100\na,2,x\n");
        assert!(e.contains("line 3") && e.contains("recv_time_us") && e.contains("'x'"), "{e}");
        let e = error("b", "flow,send_time_us,recv_time_us,lost\na,1,100,0\na,2,200,2\n");
        assert!(e.contains("line 3") && e.contains("lost"), "{e}");
        let e = error("c", "flow,send_time_us,recv_time_us\na,1,100\na,2\n");
        assert!(e.contains("line 3"), "{e}");
        let e = error("d", "time,delay\n1,2\n");
        assert!(e.contains("line 1") && e.contains("flow,ack_time_us,rtt_us"), "{e}");
        let e = error("e", "flow,ack_time_us,rtt_us\n");
        assert!(e.contains("no data rows"), "{e}");
    }

    #[test]
    fn flows_are_numbered_in_sorted_order_and_lost_rows_skip_recv_time() {
        let path = file("f", "flow,send_time_us,recv_time_us,lost\nsf-b,1,100,0\nsf-a,2,,1\nsf-b,3,103,0\n");
        let t = read("--input", &path).unwrap();
        let _ = std::fs::remove_file(path);
        assert_eq!(t.flows, ["sf-a", "sf-b"]);
        let TraceRows::Owd(rows) = t.rows else { panic!("one-way-delay form expected") };
        assert_eq!(rows[0].flow, 1);
        assert_eq!(rows[1], OwdRow { flow: 0, send_us: 2, recv_us: 0, lost: true });
    }

    #[test]
    fn what_is_written_reads_back() {
        let owd = [OwdRow { flow: 1, send_us: 5, recv_us: 900, lost: false }, OwdRow { flow: 0, send_us: 7, recv_us: 0, lost: true }];
        let mut bytes = Vec::new();
        write_owd(&mut bytes, &owd, &["a", "b"]).unwrap();
        assert_eq!(String::from_utf8_lossy(&bytes), "flow,send_time_us,recv_time_us,lost\nb,5,900,0\na,7,,1\n");
        let path = file("w", std::str::from_utf8(&bytes).unwrap());
        let t = read("--input", &path).unwrap();
        let _ = std::fs::remove_file(path);
        let TraceRows::Owd(rows) = t.rows else { panic!("one-way-delay form expected") };
        assert_eq!(rows, owd);
        let mut bytes = Vec::new();
        write_rtt(&mut bytes, &[RttRow { flow: 0, ack_us: 3, rtt_us: 40 }], &["x"]).unwrap();
        assert_eq!(String::from_utf8_lossy(&bytes), "flow,ack_time_us,rtt_us\nx,3,40\n");
    }
}
