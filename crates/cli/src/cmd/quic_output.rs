//! A multipath QUIC run's files, as every backend writes them (summary.json, flows.csv,
//! links.csv, the plots) plus decisions.csv, and its headline figures, for `quic run`,
//! `quic netns` and `quic send`/`recv`.

use crate::error::CliError;
use crate::outdir::OutDir;
use pathpool_quic::loopback::{Experiment, Report, DATAGRAM};
use pathpool_quic::QuicCc;
use pathpool_scenario::mptcp_outcome::{Connection, Multipath};
use pathpool_scenario::outcome::{ExtraColumn, FlowOutcome, LinkOutcome, Outcome, Series};
use serde_json::json;
use std::io::Write as _;

/// The run's headline figures from its summary.json, as `pathpool run` prints its own, then
/// where it was written.
pub fn print_summary(out: &std::path::Path) {
    use std::io::Write as _;
    let text = std::fs::read_to_string(out.join("summary.json")).unwrap_or_default();
    let summary: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
    let keys = ["backend", "topology", "cc", "total_throughput_mbps", "bottleneck_utilization", "jain_index", "mptcp_mbps", "tcp_mbps", "sum_ratio", "quic.mp_over_single_path", "wall_seconds"];
    let mut lines: Vec<String> = keys.iter().filter_map(|k| summary.get(*k).map(|v| format!("{k} = {v}"))).collect();
    lines.push(format!("wrote {}", out.display()));
    // A closed stdout (`| head`) must not turn a finished run into a failure.
    let _ = writeln!(std::io::stdout().lock(), "{}", lines.join("\n"));
}

/// Every flow's error, as the command's failure (the outputs are written first).
pub fn flow_errors(report: &Report) -> Result<(), CliError> {
    let errors: Vec<String> = report.flows.iter().filter_map(|f| f.error.as_ref().map(|e| format!("{}: {e}", f.name))).collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CliError::runtime(format!("flows failed (outputs written): {}", errors.join("; "))))
    }
}

/// Writes summary.json, flows.csv, links.csv, the plots and decisions.csv of one run;
/// `extra` adds backend-specific keys to the summary.
#[allow(clippy::too_many_arguments)]
pub fn write_run(out: &OutDir, exp: &Experiment, report: &Report, cc: QuicCc, topology: &str, backend: &str, wall: f64, extra: impl FnOnce(&mut dyn FnMut(&str, serde_json::Value))) -> Result<(), CliError> {
    let outcome = outcome(exp, report, topology, wall);
    let mut summary = pathpool_scenario::output::write_all(out.path(), &outcome)?;
    let mut put = |k: &str, v: serde_json::Value| {
        summary.insert(k.to_string(), v);
    };
    put("backend", json!(backend));
    put("cc", json!(cc.name()));
    put("topology", json!(topology));
    for f in &report.flows {
        put(&format!("flow.{}.intact", f.name), json!(f.intact));
        put(&format!("flow.{}.error", f.name), json!(f.error));
        let events: Vec<String> = f.path_events.iter().map(|(t, e)| format!("{t:.3} s: {e}")).collect();
        put(&format!("flow.{}.path_events", f.name), json!(events));
        let d = &f.ack_delay;
        if d.samples > 0 {
            put(&format!("flow.{}.ack_delay_samples", f.name), json!(d.samples));
            put(&format!("flow.{}.ack_delay_mean_us", f.name), json!(d.sum_ns as f64 / d.samples as f64 / 1e3));
            put(&format!("flow.{}.ack_delay_over_1ms_share", f.name), json!(d.over_1ms as f64 / d.samples as f64));
            put(&format!("flow.{}.ack_delay_max_ms", f.name), json!(d.max_ns as f64 / 1e6));
        }
    }
    let mp = report.flows.iter().find(|f| f.name == "mpquic");
    let singles: Vec<f64> = report.flows.iter().filter(|f| f.name != "mpquic").map(|f| f.goodput_mbps).collect();
    if let (Some(mp), false) = (mp, singles.is_empty()) {
        let mean = singles.iter().sum::<f64>() / singles.len() as f64;
        if mean > 0.0 {
            // Shared: the multipath connection over one single-path flow at the same
            // bottleneck ([0.8, 1.25] is fair, RFC 6356 §2 goals 1-2); disjoint: over the
            // mean single-path flow (what it takes of two bottlenecks).
            put("quic.mp_over_single_path", json!(mp.goodput_mbps / mean));
        }
    }
    if let Some(mp) = mp {
        put("quic.decisions", json!(mp.decisions.len()));
        let count = |f: fn(&pathpool_quic::SbdInput) -> bool| mp.sbd_inputs.iter().filter(|i| f(i)).count();
        if !mp.sbd_inputs.is_empty() {
            put("quic.sbd_samples", json!(count(|i| matches!(i, pathpool_quic::SbdInput::Sample { .. }))));
            put("quic.sbd_unsampled", json!(count(|i| matches!(i, pathpool_quic::SbdInput::Unsampled { .. }))));
            put("quic.sbd_losses", json!(count(|i| matches!(i, pathpool_quic::SbdInput::Loss { .. }))));
        }
    }
    extra(&mut put);
    std::fs::write(out.join("summary.json"), pathpool_scenario::summary::to_json(&summary))?;
    if let Some(mp) = mp {
        let mut w = std::fs::File::create(out.join("decisions.csv"))?;
        writeln!(w, "time_s,groups")?;
        for d in &mp.decisions {
            let g: Vec<String> = d.groups.iter().take(mp.cwnd_bytes.len()).map(u32::to_string).collect();
            writeln!(w, "{},{}", d.time_ns as f64 / 1e9, g.join(" "))?;
        }
        if !mp.sbd_inputs.is_empty() {
            write_sbd_inputs(&out.join("sbd_inputs.csv"), &mp.sbd_inputs)?;
        }
    }
    Ok(())
}

/// The detector's inputs as a trace `pathpool detect --input` replays (one-way-delay form,
/// docs/sbd.md): each RTT sample it was fed as a packet "received" when fed with the RTT as
/// its delay, each loss as a lost packet of the path's last RTT. Thinned-out samples have no
/// row (the form has none; docs/quic.md measures what that changes).
fn write_sbd_inputs(path: &std::path::Path, inputs: &[pathpool_quic::SbdInput]) -> std::io::Result<()> {
    use pathpool_quic::SbdInput;
    let mut w = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(w, "flow,send_time_us,recv_time_us,lost")?;
    let mut last_rtt_us = Vec::new();
    for input in inputs {
        match *input {
            SbdInput::Sample { slot, time_ns, rtt_ns } => {
                let (t, rtt) = ((time_ns / 1000) as i64, (rtt_ns / 1000) as i64);
                if last_rtt_us.len() <= slot {
                    last_rtt_us.resize(slot + 1, 0);
                }
                last_rtt_us[slot] = rtt;
                writeln!(w, "sf{slot},{},{t},0", t - rtt)?;
            }
            SbdInput::Loss { slot, time_ns } => {
                let t = (time_ns / 1000) as i64;
                writeln!(w, "sf{slot},{},,1", t - last_rtt_us.get(slot).copied().unwrap_or(0))?;
            }
            SbdInput::Unsampled { .. } => {}
        }
    }
    w.flush()
}

/// The report as the simulator's outcome: one row per single-path flow (goodput at the
/// receiver), and the multipath connection as the simulator has an MPTCP connection: one row
/// per path (`mpquic.sfK`, bytes through its bottleneck) and its goodput as a connection
/// (`mptcp.mpquic.*`, `mptcp_mbps`, `tcp_mbps` over the single-path flows, `sum_ratio`), so
/// that `total_throughput_mbps` counts it once. Where the paths' bytes are not measured (one
/// link for both, or competitors on the links) the connection keeps its own row instead.
fn outcome(exp: &Experiment, r: &Report, topology: &str, wall: f64) -> Outcome {
    let n = r.times.len();
    let (t0, t1) = r.window;
    let first = r.times.iter().position(|&t| t >= t0).unwrap_or(0);
    // The window's last probe, not the run's: `quic netns` probes its links 2 s past the end
    // (counting those bytes over the window's span read utilizations of 1.07).
    let last = r.times.iter().rposition(|&t| t <= t1 + 1e-9).unwrap_or(n.saturating_sub(1)).max(first);
    let span = (t1 - t0).max(1e-9);
    let rate = |series: &[u64], k: usize| {
        let dt = if k == 0 { r.times.first().copied().unwrap_or(1.0) } else { r.times[k] - r.times[k - 1] };
        let prev = if k == 0 { 0 } else { series[k - 1] };
        (series[k] - prev) as f64 * 8.0 / dt.max(1e-9) / 1e6
    };
    let mut flows = Vec::new();
    let mut thr = Vec::new();
    let mut cwnd = Vec::new();
    let mut srtt = Vec::new();
    let mut connections = Vec::new();
    for f in &r.flows {
        let multipath = f.cwnd_bytes.len() > 1;
        let paths_measured = multipath && f.path_bytes.iter().any(|b| b.last().is_some_and(|&x| x > 0));
        if !paths_measured {
            flows.push(FlowOutcome { name: f.name.clone(), bulk: true, throughput_mbps: f.goodput_mbps, delivered_bytes: f.received_bytes, retransmissions: None, fast_retransmits: None, timeouts: None });
            thr.push((0..n).map(|k| rate(&f.received, k)).collect());
            cwnd.push((0..n).map(|k| f.cwnd_bytes.iter().map(|c| c[k]).sum::<f64>() / DATAGRAM as f64).collect());
            srtt.push((0..n).map(|k| f.srtt_ms.iter().map(|s| s[k]).fold(f64::NAN, f64::min)).collect());
        }
        if multipath {
            let mut subflow_mbps = Vec::new();
            for (k, bytes) in f.path_bytes.iter().enumerate() {
                let measured = bytes.get(last).copied().unwrap_or(0) - bytes.get(first).copied().unwrap_or(0);
                subflow_mbps.push(measured as f64 * 8.0 / span / 1e6);
                flows.push(FlowOutcome { name: format!("{}.sf{k}", f.name), bulk: false, throughput_mbps: subflow_mbps[k], delivered_bytes: bytes.last().copied().unwrap_or(0), retransmissions: None, fast_retransmits: None, timeouts: None });
                thr.push((0..n).map(|i| rate(bytes, i)).collect());
                cwnd.push(f.cwnd_bytes[k].iter().map(|c| c / DATAGRAM as f64).collect());
                srtt.push(f.srtt_ms[k].clone());
            }
            // The paths' truth by construction: one bottleneck for all (shared) or one each.
            let paths = f.cwnd_bytes.len() as u32;
            let truth = if topology == "shared" { vec![1; paths as usize] } else { (1..=paths).collect() };
            connections.push(Connection {
                name: f.name.clone(),
                throughput_mbps: f.goodput_mbps,
                subflow_mbps,
                competitor_mbps: vec![None; paths as usize],
                truth,
                observations: Vec::new(),
                decisions: Vec::new(),
                sender_observations: Vec::new(),
                sender_decisions: Vec::new(),
                sender_comparisons: (0, 0),
                coupling: Vec::new(),
                coupling_audit: None,
            });
        }
    }
    // The single-path flows are what the connection is compared with (`competitor` flows).
    let tcp_mbps = r.flows.iter().filter(|f| f.cwnd_bytes.len() <= 1).map(|f| f.goodput_mbps).sum::<f64>() + 0.0;
    let multipath = (!connections.is_empty()).then(|| Multipath { connections, tcp_mbps });
    let links = r
        .links
        .iter()
        .zip(&exp.links)
        .map(|(l, spec)| {
            let fwd = l.forwarded_bytes.get(last).copied().unwrap_or(0) - l.forwarded_bytes.get(first).copied().unwrap_or(0);
            // Over the link's own readings where they were stamped (a probe reads one
            // namespace after another: docs/testbed.md, "What is measured").
            let read = |k: usize| l.read_s.get(k).copied().unwrap_or(0.0);
            let link_span = pathpool_netlab::link_outcome::read_span(read(first), read(last), span);
            let q = &l.queue_packets[first.min(l.queue_packets.len())..];
            LinkOutcome {
                name: l.name.clone(),
                utilization: fwd as f64 * 8.0 / link_span / (spec.rate_mbps * 1e6),
                drops: l.drops.get(last).copied().unwrap_or(0) - l.drops.get(first).copied().unwrap_or(0),
                mean_queue_packets: if q.is_empty() { 0.0 } else { q.iter().sum::<f64>() / q.len() as f64 },
            }
        })
        .collect();
    let link_drops = r.links.iter().map(|l| (0..n).map(|k| l.drops[k] - if k == 0 { 0 } else { l.drops[k - 1] }).collect()).collect();
    Outcome {
        multipath,
        ran: Default::default(),
        warnings: Vec::new(),
        kernel_warnings: Vec::new(),
        seed: 0,
        duration_s: exp.duration.as_secs_f64(),
        warmup_s: exp.warmup.as_secs_f64(),
        flows,
        links,
        bottleneck: Some(0),
        bottleneck_data_packets: None,
        events: 0,
        series: Series {
            times: r.times.clone(),
            flow_throughput_mbps: thr,
            flow_cwnd_packets: cwnd,
            flow_extra: vec![ExtraColumn { name: "srtt_ms", values: srtt }],
            link_queue_packets: r.links.iter().map(|l| l.queue_packets.clone()).collect(),
            link_drops,
        },
        delay_traces: Vec::new(),
        wall_seconds: wall,
    }
}
