//! `pathpool quic run`: multipath QUIC (noq with pathpool-quic's controllers) over loopback
//! paths shaped in user space, against single-path QUIC flows; writes the files the other
//! backends write (summary.json, flows.csv, links.csv, the plots) plus decisions.csv (the
//! shared bottleneck detector's decisions over time, mptcp-sbd only).

use crate::error::CliError;
use crate::outdir::OutDir;
use clap::{Args, Subcommand, ValueEnum};
use pathpool_quic::loopback::{self, Experiment, FlowSpec, LinkSpec, PathSpec, Report, DATAGRAM};
use pathpool_quic::QuicCc;
use pathpool_scenario::mptcp_outcome::{Connection, Multipath};
use pathpool_scenario::outcome::{ExtraColumn, FlowOutcome, LinkOutcome, Outcome, Series};
use pathpool_scenario::units;
use serde_json::json;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Subcommand)]
pub enum QuicWhat {
    /// One multipath QUIC connection (two paths) and single-path QUIC flows (pathpool-cc's
    /// Reno) over loopback, with the rate, queue and delay shaped in user space (no root).
    Run(QuicRunArgs),
    /// The sending end of one (multipath) transfer, as its own process: one --to per path.
    Send(super::quic_split::QuicSendArgs),
    /// The receiving end of one transfer, as its own process.
    Recv(super::quic_split::QuicRecvArgs),
    /// Root: send and recv in two network namespaces joined by two shaped veth links.
    Netns(super::quic_netns::QuicNetnsArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Topology {
    /// Both paths and one single-path flow through one bottleneck.
    Shared,
    /// Each path through its own bottleneck, each bottleneck with one single-path flow.
    Disjoint,
    /// The single-path flow alone on one bottleneck (the reference).
    Alone,
}

#[derive(Args)]
pub struct QuicRunArgs {
    #[arg(long, value_enum)]
    pub topology: Topology,
    #[command(flatten)]
    pub shape: Shape,
    /// Output folder.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// What `quic run` and `quic netns` both take: the controller, the times, every link's shape.
#[derive(Args)]
pub struct Shape {
    /// The multipath connection's controller (docs/schemes.md).
    #[arg(long, default_value = "lia", value_name = "NAME", value_parser = crate::scheme_arg::SchemeArg(pathpool_cc::Backend::Quic))]
    pub cc: String,
    /// How long to send, with a unit as in scenario files (e.g. 40s).
    #[arg(long, default_value = "40s", value_name = "TIME")]
    pub duration: String,
    /// The time before the measurement window, with a unit (e.g. 10s).
    #[arg(long, default_value = "10s", value_name = "TIME")]
    pub warmup: String,
    /// Bottleneck rate, with a unit (e.g. 10Mbps).
    #[arg(long, default_value = "10Mbps", value_name = "RATE")]
    pub rate: String,
    /// One-way propagation delay of every path, with a unit (e.g. 10ms).
    #[arg(long, default_value = "10ms", value_name = "TIME")]
    pub delay: String,
}

/// The checked values of a [`Shape`].
pub struct Checked {
    pub cc: QuicCc,
    pub duration: Duration,
    pub warmup: Duration,
    pub delay: Duration,
    /// Bottleneck rate, Mb/s.
    pub rate_mbps: f64,
    /// One bandwidth-delay product (rate x two-way propagation delay), at least 3000 B.
    pub buffer: u64,
}

impl Shape {
    pub fn check(&self) -> Result<Checked, CliError> {
        let cc: QuicCc = self.cc.parse().map_err(|e| CliError::usage(format!("--cc: {e}")))?;
        let duration = seconds("--duration", crate::time_arg::parse("--duration", &self.duration)?)?;
        let warmup = crate::time_arg::parse("--warmup", &self.warmup)?;
        if warmup >= duration {
            return Err(CliError::usage(format!("--warmup: expected a time shorter than --duration ({}), got \"{}\"", self.duration, self.warmup)));
        }
        let delay = crate::time_arg::parse("--delay", &self.delay)?;
        if delay.is_zero() || delay > Duration::from_secs(1) {
            return Err(CliError::usage(format!("--delay: expected a time in (0, 1s], got \"{}\"", self.delay)));
        }
        let rate_bps = units::parse_rate(&self.rate)
            .ok_or_else(|| CliError::usage(format!("--rate: expected {}, got \"{}\"", units::RATE_EXPECTED, self.rate)))?;
        if rate_bps == 0 || rate_bps > 1_000_000_000 {
            return Err(CliError::usage(format!("--rate: expected a rate in (0, 1Gbps], got \"{}\"", self.rate)));
        }
        let rate_mbps = rate_bps as f64 / 1e6;
        let buffer = ((rate_mbps * 1e6 / 8.0) * 2.0 * delay.as_secs_f64()).max(3000.0) as u64;
        Ok(Checked { cc, duration, warmup, delay, rate_mbps, buffer })
    }
}

pub fn run(what: QuicWhat) -> Result<(), CliError> {
    match what {
        QuicWhat::Run(a) => run_one(a),
        QuicWhat::Send(a) => super::quic_split::send(a),
        QuicWhat::Recv(a) => super::quic_split::recv(a),
        QuicWhat::Netns(a) => super::quic_netns::run(a),
    }
}

pub fn seconds(flag: &str, d: Duration) -> Result<Duration, CliError> {
    if !d.is_zero() && d < Duration::from_secs(86_400) {
        Ok(d)
    } else {
        Err(CliError::usage(format!("{flag}: expected a time in (0, 86400s), got {}s", d.as_secs_f64())))
    }
}

fn experiment(a: &QuicRunArgs) -> Result<Experiment, CliError> {
    let Checked { cc, duration, warmup, delay, rate_mbps: rate, buffer } = a.shape.check()?;
    let link = |name: &str| LinkSpec { name: name.into(), rate_mbps: rate, buffer_bytes: buffer };
    let path = |link| PathSpec { link, delay };
    let single = |name: &str, l| FlowSpec { name: name.into(), cc: QuicCc::Uncoupled, paths: vec![path(l)] };
    let mp = |paths| FlowSpec { name: "mpquic".into(), cc, paths };
    let (links, flows) = match a.topology {
        Topology::Shared => (vec![link("bottleneck")], vec![mp(vec![path(0), path(0)]), single("sp", 0)]),
        Topology::Disjoint => (vec![link("b1"), link("b2")], vec![mp(vec![path(0), path(1)]), single("sp1", 0), single("sp2", 1)]),
        Topology::Alone => (vec![link("bottleneck")], vec![single("sp", 0)]),
    };
    Ok(Experiment { links, flows, duration, warmup, probe: Duration::from_millis(100), kill: None, grace: Duration::from_secs(10) })
}

fn run_one(a: QuicRunArgs) -> Result<(), CliError> {
    let exp = experiment(&a)?;
    let cc = exp.flows[0].cc;
    let out = OutDir::create("--out", &a.out)?;
    let started = std::time::Instant::now();
    let report = loopback::run(&exp).map_err(CliError::runtime)?;
    let topology = format!("{:?}", a.topology).to_lowercase();
    write_run(&out, &exp, &report, cc, &topology, "mpquic-loopback", started.elapsed().as_secs_f64(), |_| {})?;
    out.finish()?;
    print_summary(&a.out);
    flow_errors(&report)
}

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
            let q = &l.queue_packets[first.min(l.queue_packets.len())..];
            LinkOutcome {
                name: l.name.clone(),
                utilization: fwd as f64 * 8.0 / span / (spec.rate_mbps * 1e6),
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
