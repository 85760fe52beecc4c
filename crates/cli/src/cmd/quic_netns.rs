//! `pathpool quic netns` (root): multipath QUIC from one network namespace to another over two
//! links, each a bottleneck of its own (`--topology disjoint`), or over one link that both
//! paths share (`--topology shared`: the paths are two destination addresses through it). The
//! network is a scenario (`quic_netns_layout`) that pathpool-netlab plans and builds as for
//! the quic backend (docs/testbed.md): a TUN device at each end of a link, a tbf of the rate
//! with a one-BDP byte buffer in front of the sender's device, the propagation delay each way
//! in the delay element, policy routes per path.
//! The ends run as `pathpool quic send|recv` processes inside the namespaces, one receiver per
//! flow: the multipath connection (a path per link) and `--competitors` single-path QUIC flows
//! per link. Devices and qdiscs go with the namespaces, which are removed on success,
//! on error and on Ctrl-C/SIGTERM (pathpool-netlab's `Network`).

use crate::cmd::quic_output::write_run;
use crate::cmd::quic_shape::{Checked, Shape};
use crate::cmd::quic_netns_layout::{self as layout, Layout};
use crate::cmd::quic_split::{read_report, PROBE};
use crate::error::CliError;
use crate::outdir::OutDir;
use clap::Args;
use pathpool_netlab::netns;
use pathpool_netlab::plan::FlowPlan;
use pathpool_netlab::Network;
use pathpool_quic::loopback::{Experiment, FlowReport, FlowSpec, LinkReport, LinkSpec, PathSpec, Report};
use pathpool_quic::QuicFlow;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct QuicNetnsArgs {
    /// disjoint: a link per path; shared: both paths (two address pairs) through one link.
    #[arg(long, value_enum, default_value = "disjoint")]
    pub topology: NetnsTopology,
    #[command(flatten)]
    pub shape: Shape,
    /// Single-path QUIC flows (pathpool-cc's Reno) per link, competing with the path there.
    #[arg(long, default_value_t = 1)]
    pub competitors: usize,
    /// Output folder.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NetnsTopology {
    /// Two links, each one path's bottleneck, each with `--competitors` single-path flows.
    Disjoint,
    /// One link: both paths (to two addresses of the receiver) and the competitors share its
    /// bottleneck.
    Shared,
}

/// Child processes, killed and reaped when dropped (so on every error path).
struct Children(Vec<(String, Child)>);

impl Drop for Children {
    fn drop(&mut self) {
        for (_, c) in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn spawn(children: &mut Children, name: &str, ns: &str, args: &[String], log: &Path) -> Result<(), CliError> {
    let exe = std::env::current_exe().map_err(|e| CliError::runtime(format!("own executable: {e}")))?;
    let log = std::fs::File::create(log)?;
    let child = Command::new("ip")
        .args(["netns", "exec", ns])
        .arg(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .map_err(|e| CliError::runtime(format!("starting {name}: {e}")))?;
    children.0.push((name.to_string(), child));
    Ok(())
}

/// The port of flow `i`'s receiver.
fn port(i: usize) -> u16 {
    4433 + i as u16
}

pub fn run(a: QuicNetnsArgs) -> Result<(), CliError> {
    let Checked { cc, duration, warmup, delay, rate_mbps, buffer } = a.shape.check()?;
    let duration_s = duration.as_secs_f64();
    if a.competitors > 4 {
        return Err(CliError::usage(format!("--competitors: expected at most 4 per link, got {}", a.competitors)));
    }
    if !pathpool_netlab::is_root() {
        return Err(CliError::usage("quic netns needs root (it creates network namespaces); `pathpool quic run` needs none"));
    }
    let shared = a.topology == NetnsTopology::Shared;
    let rate_bps = (rate_mbps * 1e6) as u64;
    let layout = layout::layout(&layout::Shape { shared, cc, rate_bps, delay_ns: delay.as_nanos() as u64, buffer_bytes: buffer, competitors: a.competitors })?;
    let plan = &layout.plan;
    let out = OutDir::create("--out", &a.out)?;
    let started = Instant::now();
    // Stopped and taken down when dropped, after the processes (declared later, dropped first).
    let mut network = Network::build(plan, 1, None).map_err(|e| CliError::runtime(e.0))?;
    let names = network.names.clone();
    let mut children = Children(Vec::new());
    let limit_s = format!("{}s", duration_s + 60.0);
    for (i, f) in plan.flows.iter().enumerate() {
        let name = &f.name;
        let dir = out.join(&format!("recv-{name}"));
        let args: Vec<String> = ["quic", "recv", "--listen", &format!("0.0.0.0:{}", port(i)), "--limit", &limit_s].iter().map(|x| x.to_string()).chain(["--cert-out".into(), out.join(&format!("{name}.der")).display().to_string(), "--out".into(), dir.display().to_string()]).collect();
        spawn(&mut children, &format!("receiver of {name}"), &names[f.receiver], &args, &out.join(&format!("recv-{name}.log")))?;
    }
    let wait_for = Instant::now() + Duration::from_secs(10);
    for f in &plan.flows {
        let name = &f.name;
        while !out.join(&format!("{name}.der")).exists() {
            if Instant::now() > wait_for || netns::interrupted() {
                return Err(CliError::runtime(format!("the receiver of {name} did not start listening within 10 s (see recv-{name}.log)")));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let t0 = Instant::now();
    for (i, f) in plan.flows.iter().enumerate() {
        let name = &f.name;
        // From the flow's own source address: the plan's policy routes select by it.
        let mut args: Vec<String> = vec!["quic".into(), "send".into(), "--cc".into(), f.spec.cc.name().into(), "--duration".into(), format!("{duration_s}s"), "--from".into(), f.sources[0].to_string()];
        for d in &f.destinations {
            args.extend(["--to".into(), format!("{d}:{}", port(i))]);
        }
        args.extend(["--cert".into(), out.join(&format!("{name}.der")).display().to_string(), "--out".into(), out.join(&format!("send-{name}")).display().to_string()]);
        spawn(&mut children, &format!("sender of {name}"), &names[f.sender], &args, &out.join(&format!("send-{name}.log")))?;
    }
    // Probe the bottlenecks' queues (on the sending side of each) while the ends run.
    let queues_of: Vec<(String, String)> = layout.bottlenecks.iter().map(|&k| (names[plan.links[k].from].clone(), plan.links[k].device.clone())).collect();
    let mut links: Vec<LinkReport> = layout.bottlenecks.iter().map(|&k| LinkReport { name: plan.links[k].name.clone(), ..Default::default() }).collect();
    let mut times = Vec::new();
    let give_up = t0 + duration + Duration::from_secs(60);
    let mut next = t0 + PROBE;
    let mut statuses = Vec::new();
    loop {
        if netns::interrupted() {
            return Err(CliError::runtime("interrupted; namespaces removed"));
        }
        if Instant::now() > give_up {
            return Err(CliError::runtime(format!("the transfer did not end within {:?} after the start", give_up - t0)));
        }
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        if next.duration_since(t0) <= duration + Duration::from_secs(2) {
            let mut q = BTreeMap::new();
            for (ns, _) in &queues_of {
                pathpool_netlab::queues(ns, t0, &mut q).map_err(|e| CliError::runtime(e.0))?;
            }
            for (l, key) in links.iter_mut().zip(&queues_of) {
                let sample = q.get(key).copied().unwrap_or_default();
                l.forwarded_bytes.push(sample.bytes);
                l.read_s.push(sample.read_s);
                l.drops.push(sample.drops);
                l.queue_packets.push(sample.qlen as f64);
            }
            // The time the counters were read (a probe may run late on a loaded machine).
            times.push(t0.elapsed().as_secs_f64());
        }
        next += PROBE;
        statuses.clear();
        let mut running = false;
        for (name, child) in &mut children.0 {
            match child.try_wait()? {
                Some(st) => statuses.push((name.clone(), st)),
                None => running = true,
            }
        }
        if !running {
            break;
        }
    }
    let failed: Vec<String> = statuses.iter().filter(|(_, st)| !st.success()).map(|(n, st)| format!("{n} ({st})")).collect();
    let exp = experiment(&layout, [duration, warmup, delay], rate_mbps, buffer);
    let report = join(&a, (warmup.as_secs_f64(), duration_s), &out, &plan.flows, &times, links)?;
    let wall = started.elapsed().as_secs_f64();
    let topology = if shared { "shared" } else { "disjoint" };
    let joins = if shared { "" } else { "; each joined to the receiver by a 1 Gb/s link of 1 us" };
    write_run(&out, &exp, &report, cc, topology, "mpquic-netns", wall, |put| {
        put("quic.netns.links", json!(format!("{} TUN link(s) planned by pathpool-netlab: tbf {rate_bps}bit limit {buffer} B before the sender's device, {} ms each way in the delay element{joins}", layout.bottlenecks.len(), delay.as_secs_f64() * 1e3)));
        put("quic.netns.failed_processes", json!(failed));
    })?;
    drop(children);
    network.stop();
    drop(network);
    out.finish()?;
    super::quic_output::print_summary(&a.out);
    if !failed.is_empty() {
        return Err(CliError::runtime(format!("processes failed (outputs written; see their logs): {}", failed.join(", "))));
    }
    crate::cmd::quic_output::flow_errors(&report)
}

fn experiment(layout: &Layout, [duration, warmup, delay]: [Duration; 3], rate: f64, buffer: u64) -> Experiment {
    let plan = &layout.plan;
    Experiment {
        links: layout.bottlenecks.iter().map(|&k| LinkSpec { name: plan.links[k].name.clone(), rate_mbps: rate, buffer_bytes: buffer }).collect(),
        flows: plan
            .flows
            .iter()
            .zip(&layout.path_links)
            .map(|(f, links)| FlowSpec { name: f.name.clone(), cc: f.spec.cc, paths: links.iter().map(|&link| PathSpec { link, delay }).collect() })
            .collect(),
        duration,
        warmup,
        probe: PROBE,
        kill: None,
        grace: Duration::from_secs(10),
    }
}

/// Joins each flow's sender and receiver reports on the orchestrator's probe times (every end
/// probes every 100 ms from its own start, all within a few ms of each other; series are cut
/// or held at their last value to the common length, for flows.csv). Goodput is measured on
/// the receiver's clock over [warm-up, duration] after its first byte, as `quic run` does.
fn join(a: &QuicNetnsArgs, (warmup_s, duration_s): (f64, f64), out: &OutDir, flows: &[FlowPlan<QuicFlow>], times: &[f64], links: Vec<LinkReport>) -> Result<Report, CliError> {
    let n = times.len();
    let fit_u = |v: &[u64]| (0..n).map(|k| v.get(k).or(v.last()).copied().unwrap_or(0)).collect::<Vec<u64>>();
    let fit_f = |v: &[f64]| (0..n).map(|k| v.get(k).or(v.last()).copied().unwrap_or(f64::NAN)).collect::<Vec<f64>>();
    let first = times.iter().position(|&t| t >= warmup_s - 1e-9).unwrap_or(0);
    let last = times.iter().rposition(|&t| t <= duration_s + 1e-9).unwrap_or(n.saturating_sub(1));
    let (t0, t1) = (times.get(first).copied().unwrap_or(0.0), times.get(last).copied().unwrap_or(0.0));
    let mut out_flows = Vec::new();
    for flow in flows {
        let (name, paths) = (&flow.name, flow.destinations.len());
        let sent = read_report(&out.join(&format!("send-{name}")).join("report.json"));
        let got = read_report(&out.join(&format!("recv-{name}")).join("report.json"));
        let mut f = FlowReport { name: name.clone(), ..Default::default() };
        let mut errors = Vec::new();
        match sent {
            Ok((_, s)) => {
                f.cc = s.cc;
                f.sent_bytes = s.sent_bytes;
                f.cwnd_bytes = s.cwnd_bytes.iter().map(|c| fit_f(c)).collect();
                f.srtt_ms = s.srtt_ms.iter().map(|c| fit_f(c)).collect();
                f.decisions = s.decisions;
                f.sbd_inputs = s.sbd_inputs;
                f.ack_delay = s.ack_delay;
                f.path_events = s.path_events;
                errors.extend(s.error.map(|e| format!("sender: {e}")));
            }
            Err(e) => errors.push(format!("sender: {e}")),
        }
        match got {
            Ok((rt, r)) => {
                // Goodput on the receiver's own clock: its probes from the first byte on.
                let first = rt.iter().position(|&t| t >= warmup_s - 1e-9);
                let last = rt.iter().rposition(|&t| t <= duration_s + 1e-9);
                if let (Some(i), Some(j)) = (first, last) {
                    if j > i {
                        f.goodput_mbps = (r.received[j] - r.received[i]) as f64 * 8.0 / (rt[j] - rt[i]) / 1e6;
                    }
                }
                f.received = fit_u(&r.received);
                f.received_bytes = r.received_bytes;
                f.intact = r.intact && errors.is_empty() && r.received_bytes == f.sent_bytes;
                errors.extend(r.error.map(|e| format!("receiver: {e}")));
            }
            Err(e) => errors.push(format!("receiver: {e}")),
        }
        if f.received.len() < n {
            f.received = vec![0; n];
        }
        // With one path per link, a path's bytes are its link's when it is alone there.
        f.path_bytes = if paths > 1 && a.competitors == 0 && a.topology == NetnsTopology::Disjoint { (0..paths).map(|k| fit_u(&links[k].forwarded_bytes)).collect() } else { vec![vec![0; n]; paths] };
        if f.cwnd_bytes.len() != paths {
            f.cwnd_bytes = vec![vec![0.0; n]; paths];
            f.srtt_ms = vec![vec![f64::NAN; n]; paths];
        }
        f.error = (!errors.is_empty()).then(|| errors.join("; "));
        out_flows.push(f);
    }
    Ok(Report { times: times.to_vec(), flows: out_flows, links, window: (t0, t1) })
}
