//! `pathpool quic netns` (root): multipath QUIC between two network namespaces joined by two
//! links, each a bottleneck of its own (`--topology disjoint`), or by one link that both paths
//! share (`--topology shared`: the paths are two address pairs on it), built as the testbed
//! builds links (docs/testbed.md):
//! a TUN device at each end, a tbf of the rate with a one-BDP byte buffer in front of the
//! sender's device, and the propagation delay each way in the testbed's delay element.
//! The ends run as `pathpool quic send|recv` processes inside the namespaces, one receiver per
//! flow: the multipath connection (a path per link) and `--competitors` single-path QUIC flows
//! per link. Devices and qdiscs go with the namespaces, which are removed on success,
//! on error and on Ctrl-C/SIGTERM (pathpool-netlab's `Namespaces`).

use crate::cmd::quic::{write_run, Checked, Shape};
use crate::cmd::quic_split::{read_report, PROBE};
use crate::error::CliError;
use crate::outdir::OutDir;
use clap::Args;
use pathpool_quic::loopback::{Experiment, FlowReport, FlowSpec, LinkReport, LinkSpec, PathSpec, Report};
use pathpool_quic::QuicCc;
use pathpool_netlab::delay::{DelayElement, Direction};
use pathpool_netlab::in_namespace;
use pathpool_netlab::netns::{self, Namespaces};
use std::sync::Arc;
use serde_json::json;
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

fn ip(args: &[&str]) -> Result<(), CliError> {
    netns::sh("ip", args).map(|_| ()).map_err(|e| CliError::runtime(e.to_string()))
}

fn tc(args: &[&str]) -> Result<(), CliError> {
    netns::sh("tc", args).map(|_| ()).map_err(|e| CliError::runtime(e.to_string()))
}

/// (bytes sent, packets dropped, packets queued) of the root qdisc of `dev` in `ns`, from
/// `tc -s`: "Sent B bytes P pkt (dropped D, ...) backlog Xb Qp".
fn qdisc_counters(ns: &str, dev: &str) -> (u64, u64, u64) {
    let text = netns::sh("tc", &["-n", ns, "-s", "qdisc", "show", "dev", dev]).unwrap_or_default();
    let word = |key: &str, skip: usize| text.split_whitespace().skip_while(|w| *w != key).nth(skip).and_then(|w| w.trim_end_matches([',', 'p']).parse::<u64>().ok());
    (word("Sent", 1).unwrap_or(0), word("(dropped", 1).unwrap_or(0), word("backlog", 2).unwrap_or(0))
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

pub fn run(a: QuicNetnsArgs) -> Result<(), CliError> {
    let Checked { cc, duration, warmup, delay, rate_mbps, buffer } = a.shape.check()?;
    let duration_s = duration.as_secs_f64();
    if a.competitors > 4 {
        return Err(CliError::usage(format!("--competitors: expected at most 4 per link, got {}", a.competitors)));
    }
    if !pathpool_netlab::is_root() {
        return Err(CliError::usage("quic netns needs root (it creates network namespaces); `pathpool quic run` needs none"));
    }
    let out = OutDir::create("--out", &a.out)?;
    netns::catch_interrupts();
    let started = Instant::now();
    let mut spaces = Namespaces::new();
    let c = spaces.create(0).map_err(|e| CliError::runtime(e.to_string()))?;
    let s = spaces.create(1).map_err(|e| CliError::runtime(e.to_string()))?;
    for ns in [&c, &s] {
        ip(&["-n", ns, "link", "set", "lo", "up"])?;
    }
    let (rate, limit) = (format!("{}bit", (rate_mbps * 1e6) as u64), buffer.to_string());
    // Each link: a TUN device in each namespace, the sender's with the bottleneck queue (tbf)
    // in front of it, and the testbed's delay element between them (this kernel has no netem).
    let mut tuns = Vec::new();
    let mut directions = Vec::new();
    let shared = a.topology == NetnsTopology::Shared;
    let n_links = if shared { 1 } else { 2 };
    for k in 1..=n_links {
        let (dc, ds) = (format!("q{k}c"), format!("q{k}s"));
        let open = |ns: &str, dev: &str| {
            let dev = dev.to_string();
            in_namespace(ns, move || pathpool_netlab::tun::open(&dev).map(Arc::new)).map_err(|e| CliError::runtime(e.to_string()))
        };
        let (fc, fs) = (open(&c, &dc)?, open(&s, &ds)?);
        // Shared: the one link also carries the second path's subnet, so the two paths are two
        // address pairs through one device and its tbf.
        let subnets: &[usize] = if shared { &[1, 2] } else { &[k] };
        for (ns, dev, host) in [(&c, &dc, 1), (&s, &ds, 2)] {
            for net in subnets {
                ip(&["-n", ns, "addr", "add", &format!("10.77.{net}.{host}/24"), "dev", dev])?;
            }
            ip(&["-n", ns, "link", "set", dev, "mtu", "1500", "up"])?;
        }
        tc(&["-n", &c, "qdisc", "add", "dev", &dc, "root", "tbf", "rate", &rate, "burst", "3000", "limit", &limit])?;
        for (input, output) in [(&fc, &fs), (&fs, &fc)] {
            directions.push(Direction { input: input.clone(), output: Some(output.clone()), delay, loss: 0.0, seed: k as u64, capture: None });
        }
        tuns.push((fc, fs));
    }
    // Stopped when dropped, after the processes (declared later, dropped first).
    let mut element = DelayElement::start(directions);
    // Flows: (name, cc, addresses) with one receiver port each.
    let mut flows: Vec<(String, QuicCc, Vec<String>)> = Vec::new();
    let mut port = 4433;
    flows.push(("mpquic".into(), cc, vec![format!("10.77.1.2:{port}"), format!("10.77.2.2:{port}")]));
    for k in 1..=n_links {
        for j in 0..a.competitors {
            port += 1;
            let name = if a.competitors == 1 { format!("sp{k}") } else { format!("sp{k}_{j}") };
            flows.push((name, QuicCc::Uncoupled, vec![format!("10.77.{k}.2:{port}")]));
        }
    }
    let mut children = Children(Vec::new());
    let limit_s = format!("{}s", duration_s + 60.0);
    for (i, (name, _, _)) in flows.iter().enumerate() {
        let dir = out.join(&format!("recv-{name}"));
        let args: Vec<String> = ["quic", "recv", "--listen", &format!("0.0.0.0:{}", 4433 + i), "--limit", &limit_s].iter().map(|x| x.to_string()).chain(["--cert-out".into(), out.join(&format!("{name}.der")).display().to_string(), "--out".into(), dir.display().to_string()]).collect();
        spawn(&mut children, &format!("receiver of {name}"), &s, &args, &out.join(&format!("recv-{name}.log")))?;
    }
    let wait_for = Instant::now() + Duration::from_secs(10);
    for (name, _, _) in &flows {
        while !out.join(&format!("{name}.der")).exists() {
            if Instant::now() > wait_for || netns::interrupted() {
                return Err(CliError::runtime(format!("the receiver of {name} did not start listening within 10 s (see recv-{name}.log)")));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let t0 = Instant::now();
    for (name, fcc, to) in &flows {
        let mut args: Vec<String> = vec!["quic".into(), "send".into(), "--cc".into(), fcc.name().into(), "--duration".into(), format!("{duration_s}s")];
        for t in to {
            args.extend(["--to".into(), t.clone()]);
        }
        args.extend(["--cert".into(), out.join(&format!("{name}.der")).display().to_string(), "--out".into(), out.join(&format!("send-{name}")).display().to_string()]);
        spawn(&mut children, &format!("sender of {name}"), &c, &args, &out.join(&format!("send-{name}.log")))?;
    }
    // Probe the bottlenecks while the ends run.
    let link_names: &[&str] = if shared { &["bottleneck"] } else { &["b1", "b2"] };
    let mut links: Vec<LinkReport> = link_names.iter().map(|n| LinkReport { name: n.to_string(), ..Default::default() }).collect();
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
            for (k, l) in links.iter_mut().enumerate() {
                let (bytes, drops, queued) = qdisc_counters(&c, &format!("q{}c", k + 1));
                l.forwarded_bytes.push(bytes);
                l.drops.push(drops);
                l.queue_packets.push(queued as f64);
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
    let exp = experiment(&a, cc, &flows, [duration, warmup, delay], rate_mbps, buffer);
    let report = join(&a, (warmup.as_secs_f64(), duration_s), &out, &flows, &times, links)?;
    let wall = started.elapsed().as_secs_f64();
    let topology = if shared { "shared" } else { "disjoint" };
    write_run(&out, &exp, &report, cc, topology, "mpquic-netns", wall, |put| {
        put("quic.netns.links", json!(format!("{n_links} TUN link(s): tbf {rate} limit {buffer} B before the sender's device, {} ms each way in the delay element", delay.as_secs_f64() * 1e3)));
        put("quic.netns.failed_processes", json!(failed));
    })?;
    drop(children);
    element.stop();
    drop(tuns);
    drop(spaces);
    out.finish()?;
    super::quic::print_summary(&a.out);
    if !failed.is_empty() {
        return Err(CliError::runtime(format!("processes failed (outputs written; see their logs): {}", failed.join(", "))));
    }
    crate::cmd::quic::flow_errors(&report)
}

fn experiment(a: &QuicNetnsArgs, cc: QuicCc, flows: &[(String, QuicCc, Vec<String>)], [duration, warmup, delay]: [Duration; 3], rate: f64, buffer: u64) -> Experiment {
    let shared = a.topology == NetnsTopology::Shared;
    let link_of = |addr: &str| if shared || addr.starts_with("10.77.1.") { 0 } else { 1 };
    let names: &[&str] = if shared { &["bottleneck"] } else { &["b1", "b2"] };
    Experiment {
        links: names.iter().map(|n| LinkSpec { name: n.to_string(), rate_mbps: rate, buffer_bytes: buffer }).collect(),
        flows: flows.iter().map(|(name, fcc, to)| FlowSpec { name: name.clone(), cc: if name == "mpquic" { cc } else { *fcc }, paths: to.iter().map(|t| PathSpec { link: link_of(t), delay }).collect() }).collect(),
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
fn join(a: &QuicNetnsArgs, (warmup_s, duration_s): (f64, f64), out: &OutDir, flows: &[(String, QuicCc, Vec<String>)], times: &[f64], links: Vec<LinkReport>) -> Result<Report, CliError> {
    let n = times.len();
    let fit_u = |v: &[u64]| (0..n).map(|k| v.get(k).or(v.last()).copied().unwrap_or(0)).collect::<Vec<u64>>();
    let fit_f = |v: &[f64]| (0..n).map(|k| v.get(k).or(v.last()).copied().unwrap_or(f64::NAN)).collect::<Vec<f64>>();
    let first = times.iter().position(|&t| t >= warmup_s - 1e-9).unwrap_or(0);
    let last = times.iter().rposition(|&t| t <= duration_s + 1e-9).unwrap_or(n.saturating_sub(1));
    let (t0, t1) = (times.get(first).copied().unwrap_or(0.0), times.get(last).copied().unwrap_or(0.0));
    let mut out_flows = Vec::new();
    for (name, _, to) in flows {
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
        f.path_bytes = if to.len() > 1 && a.competitors == 0 && a.topology == NetnsTopology::Disjoint { (0..to.len()).map(|k| fit_u(&links[k].forwarded_bytes)).collect() } else { vec![vec![0; n]; to.len()] };
        if f.cwnd_bytes.len() != to.len() {
            f.cwnd_bytes = vec![vec![0.0; n]; to.len()];
            f.srtt_ms = vec![vec![f64::NAN; n]; to.len()];
        }
        f.error = (!errors.is_empty()).then(|| errors.join("; "));
        out_flows.push(f);
    }
    Ok(Report { times: times.to_vec(), flows: out_flows, links, window: (t0, t1) })
}
