//! `pathpool quic send|recv`: the two ends of one multipath QUIC transfer as separate
//! processes (e.g. in two network namespaces; `pathpool quic netns` runs them so). Each writes
//! report.json with what its end saw; `quic netns` joins them into the usual output files.

use crate::error::CliError;
use crate::outdir::OutDir;
use clap::Args;
use pathpool_quic::loopback::{self, Certificates, FlowReport, Report, SendOptions};
use pathpool_quic::{AckDelayStats, QuicCc, SbdDecision, SbdInput};
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Args)]
pub struct QuicSendArgs {
    /// The receiver's address, once per path (the first carries the handshake).
    #[arg(long = "to", value_name = "ADDR:PORT", required = true)]
    pub to: Vec<SocketAddr>,
    /// The local address to send every path from (where policy routes select by source, as
    /// pathpool-netlab's do); default: the one the kernel picks.
    #[arg(long, value_name = "ADDR")]
    pub from: Option<IpAddr>,
    /// The connection's controller (docs/schemes.md).
    #[arg(long, default_value = "lia", value_name = "NAME", value_parser = crate::scheme_arg::SchemeArg(pathpool_cc::Backend::Quic))]
    pub cc: String,
    /// The receiver's certificate (DER, as `quic recv --cert-out` wrote it).
    #[arg(long, value_name = "FILE")]
    pub cert: PathBuf,
    /// How long to send, with a unit as in scenario files (e.g. 30s).
    #[arg(long, default_value = "30s", value_name = "TIME")]
    pub duration: String,
    /// Output folder (report.json).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct QuicRecvArgs {
    /// Address to listen on (0.0.0.0:PORT takes paths to every local address).
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: SocketAddr,
    /// Where to write the certificate (DER) a sender must trust, once listening.
    #[arg(long, value_name = "FILE")]
    pub cert_out: PathBuf,
    /// How long to wait for the whole transfer before giving up, with a unit (e.g. 120s).
    #[arg(long, default_value = "120s", value_name = "TIME")]
    pub limit: String,
    /// Output folder (report.json).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Probe interval of both ends.
pub const PROBE: Duration = Duration::from_millis(100);

pub fn send(a: QuicSendArgs) -> Result<(), CliError> {
    let cc: QuicCc = a.cc.parse().map_err(|e| CliError::usage(format!("--cc: {e}")))?;
    let duration = crate::cmd::quic_shape::seconds("--duration", crate::time_arg::parse("--duration", &a.duration)?)?;
    let cert_der = std::fs::read(&a.cert).map_err(|e| CliError::usage(format!("--cert: expected a readable certificate file, '{}': {e}", a.cert.display())))?;
    let out = OutDir::create("--out", &a.out)?;
    let o = SendOptions { to: a.to, from: a.from, cc, cert_der, duration, grace: Duration::from_secs(10), probe: PROBE };
    let report = loopback::send(&o).map_err(CliError::usage)?;
    std::fs::write(out.join("report.json"), serde_json::to_string(&to_json(&report)).map_err(|e| CliError::runtime(e.to_string()))?)?;
    out.finish()?;
    crate::cmd::quic_output::flow_errors(&report)
}

pub fn recv(a: QuicRecvArgs) -> Result<(), CliError> {
    let limit = crate::cmd::quic_shape::seconds("--limit", crate::time_arg::parse("--limit", &a.limit)?)?;
    let out = OutDir::create("--out", &a.out)?;
    let certs = Certificates::generate().map_err(CliError::runtime)?;
    let cert_out = a.cert_out.clone();
    let ready = |_: SocketAddr| {
        // Written once listening, under a temporary name: its appearance says "ready".
        let tmp = cert_out.with_extension("tmp");
        std::fs::write(&tmp, certs.cert_der()).and_then(|_| std::fs::rename(&tmp, &cert_out)).map_err(|e| format!("--cert-out '{}': {e}", cert_out.display()))
    };
    let report = loopback::recv(a.listen, &certs, limit, PROBE, ready).map_err(CliError::usage)?;
    std::fs::write(out.join("report.json"), serde_json::to_string(&to_json(&report)).map_err(|e| CliError::runtime(e.to_string()))?)?;
    out.finish()?;
    crate::cmd::quic_output::flow_errors(&report)
}

fn nan_to_null(v: &[f64]) -> Vec<Value> {
    v.iter().map(|x| if x.is_finite() { json!(x) } else { Value::Null }).collect()
}

/// One end's report (one flow) as JSON.
pub fn to_json(r: &Report) -> Value {
    let f = r.flows.first().cloned().unwrap_or_default();
    json!({
        "times": r.times,
        "name": f.name,
        "cc": f.cc.map(|c| c.name()),
        "sent_bytes": f.sent_bytes,
        "received_bytes": f.received_bytes,
        "intact": f.intact,
        "received": f.received,
        "cwnd_bytes": f.cwnd_bytes,
        "srtt_ms": f.srtt_ms.iter().map(|s| nan_to_null(s)).collect::<Vec<_>>(),
        "decisions": f.decisions.iter().map(|d| json!([d.time_ns, d.groups])).collect::<Vec<_>>(),
        "path_events": f.path_events,
        "ack_delay": [f.ack_delay.samples, f.ack_delay.sum_ns, f.ack_delay.max_ns, f.ack_delay.over_1ms],
        "sbd_inputs": f.sbd_inputs.iter().map(|i| match *i {
            SbdInput::Sample { slot, time_ns, rtt_ns } => [0, slot as u64, time_ns, rtt_ns],
            SbdInput::Unsampled { slot, time_ns } => [1, slot as u64, time_ns, 0],
            SbdInput::Loss { slot, time_ns } => [2, slot as u64, time_ns, 0],
        }).collect::<Vec<_>>(),
        "error": f.error,
    })
}

fn field<'a>(file: &Path, v: &'a Value, key: &str) -> Result<&'a Value, CliError> {
    v.get(key).ok_or_else(|| CliError::runtime(format!("{}: field '{key}' missing", file.display())))
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().map(|a| a.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect()).unwrap_or_default()
}

/// Reads one end's report.json: its probe times and its flow.
pub fn read_report(file: &Path) -> Result<(Vec<f64>, FlowReport), CliError> {
    let text = std::fs::read_to_string(file).map_err(|e| CliError::runtime(format!("{}: {e}", file.display())))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| CliError::runtime(format!("{}: {e}", file.display())))?;
    let u64s = |x: &Value| x.as_array().map(|a| a.iter().map(|y| y.as_u64().unwrap_or(0)).collect::<Vec<u64>>()).unwrap_or_default();
    let rows = |x: &Value| x.as_array().map(|a| a.iter().map(floats).collect::<Vec<_>>()).unwrap_or_default();
    let cc = field(file, &v, "cc")?.as_str().and_then(|c| c.parse::<QuicCc>().ok());
    let decisions = field(file, &v, "decisions")?
        .as_array()
        .map(|a| a.iter().map(|d| SbdDecision { time_ns: d[0].as_u64().unwrap_or(0), groups: u64s(&d[1]).into_iter().map(|g| g as u32).collect() }).collect())
        .unwrap_or_default();
    let path_events = field(file, &v, "path_events")?
        .as_array()
        .map(|a| a.iter().map(|e| (e[0].as_f64().unwrap_or(0.0), e[1].as_str().unwrap_or("").to_string())).collect())
        .unwrap_or_default();
    // [kind (0 sample, 1 thinned out, 2 loss), slot, time_ns, rtt_ns]; absent in older reports.
    let sbd_inputs = v.get("sbd_inputs").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(|x| {
                let x = u64s(x);
                let (slot, time_ns) = (*x.get(1)? as usize, *x.get(2)?);
                match x.first()? {
                    0 => Some(SbdInput::Sample { slot, time_ns, rtt_ns: *x.get(3)? }),
                    1 => Some(SbdInput::Unsampled { slot, time_ns }),
                    2 => Some(SbdInput::Loss { slot, time_ns }),
                    _ => None,
                }
            })
            .collect()
    });
    let d = u64s(field(file, &v, "ack_delay")?);
    let ack_delay = AckDelayStats { samples: d.first().copied().unwrap_or(0), sum_ns: d.get(1).copied().unwrap_or(0), max_ns: d.get(2).copied().unwrap_or(0), over_1ms: d.get(3).copied().unwrap_or(0) };
    let f = FlowReport {
        ack_delay,
        name: field(file, &v, "name")?.as_str().unwrap_or("").to_string(),
        cc,
        sent_bytes: field(file, &v, "sent_bytes")?.as_u64().unwrap_or(0),
        received_bytes: field(file, &v, "received_bytes")?.as_u64().unwrap_or(0),
        intact: field(file, &v, "intact")?.as_bool().unwrap_or(false),
        received: u64s(field(file, &v, "received")?),
        cwnd_bytes: rows(field(file, &v, "cwnd_bytes")?),
        srtt_ms: rows(field(file, &v, "srtt_ms")?),
        decisions,
        sbd_inputs: sbd_inputs.unwrap_or_default(),
        path_events,
        error: field(file, &v, "error")?.as_str().map(str::to_string),
        ..Default::default()
    };
    Ok((floats(field(file, &v, "times")?), f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_keeps_the_detector_inputs_through_its_json() {
        let inputs = vec![
            SbdInput::Sample { slot: 0, time_ns: 5_000_000, rtt_ns: 21_000_000 },
            SbdInput::Unsampled { slot: 1, time_ns: 6_000_000 },
            SbdInput::Loss { slot: 1, time_ns: 7_000_000 },
        ];
        let fr = FlowReport { name: "mpquic".into(), cc: Some(QuicCc::MptcpSbd), sbd_inputs: inputs.clone(), ..Default::default() };
        let report = Report { times: vec![0.1], flows: vec![fr], links: Vec::new(), window: (0.0, 0.0) };
        let file = std::env::temp_dir().join(format!("pathpool-report-{}.json", std::process::id()));
        std::fs::write(&file, to_json(&report).to_string()).unwrap();
        let (_, back) = read_report(&file).unwrap();
        let _ = std::fs::remove_file(&file);
        assert_eq!(back.sbd_inputs, inputs);
        assert_eq!(back.cc, Some(QuicCc::MptcpSbd));
    }
}
