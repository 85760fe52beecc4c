//! One run on the testbed: check, build, run for the scenario's duration while probing,
//! tear down, and turn the samples into the same `Outcome` a simulation produces.

use crate::delay::{DelayElement, Direction};
use crate::netns::{self, Namespaces};
use crate::plan::{self, Plan};
use crate::probe::{self, Sample};
use crate::support::{self, Checked};
use crate::traffic::Traffic;
use crate::{fail, Result};
use pathpool_experiment::outcome::Outcome;
use pathpool_experiment::progress::Progress;
use pathpool_experiment::Loaded;
use std::collections::BTreeMap;
use std::fs::File;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct RunOptions {
    /// Draw a progress bar (when stderr is a terminal).
    pub progress: bool,
    /// Write a pcap per link direction into this folder (`LINK.pcap`, `LINK.reverse.pcap`).
    pub capture: Option<std::path::PathBuf>,
    /// Capture on these nodes themselves, each into its file (`host_capture`): (node, pcap).
    pub host_captures: Vec<(String, std::path::PathBuf)>,
}

/// Checks the scenario against what the testbed can run, without building anything.
pub fn check(l: &Loaded) -> Result<Plan> {
    let checked = support::check(l, &support::available_congestion_controls())?;
    Ok(plan::build(l, checked))
}

/// Runs `l` on real Linux for its duration (wall-clock time) and returns its outcome.
pub fn run(l: &Loaded, options: &RunOptions) -> Result<Outcome> {
    let plan = check(l)?;
    let mut capture_nodes = Vec::new();
    for (node, _) in &options.host_captures {
        match plan.nodes.iter().position(|n| n == node) {
            Some(i) => capture_nodes.push(i),
            None => return fail(format!("--capture-host: no node '{node}' in the scenario (its nodes: {})", plan.nodes.join(", "))),
        }
    }
    if !crate::is_root() {
        return fail("pathpool testbed needs root (it builds network namespaces, TUN devices and queues); run it as root");
    }
    // The BPF controllers a flow selects are registered for the run, and unregistered after
    // it when the run registered them (docs/kernel.md).
    let uses_bpf = plan.flows.iter().any(|f| matches!(&f.spec, Checked::Mptcp { tcp, .. } if pathpool_kernel::controllers().contains(&tcp.cc.as_str())));
    let _controllers = if uses_bpf { Some(pathpool_kernel::Guard::acquire().map_err(crate::TestbedError)?) } else { None };
    netns::catch_interrupts();
    let mut namespaces = Namespaces::new();
    for i in 0..plan.nodes.len() {
        namespaces.create(i)?;
    }
    let names: Vec<String> = namespaces.names().to_vec();
    for (i, ns) in names.iter().enumerate() {
        let lines = plan.sysctls[i].clone();
        in_namespace(ns, move || {
            for (key, value) in &lines {
                let path = format!("/proc/sys/net/{key}");
                std::fs::write(&path, value).map_err(|e| crate::TestbedError(format!("writing {value} to {path}: {e}")))?;
            }
            Ok(())
        })?;
    }
    // Both ends of every link, opened by a thread inside the end's namespace.
    let mut ends: Vec<(Arc<File>, Arc<File>)> = Vec::new();
    let mut up: Vec<Vec<String>> = vec![Vec::new(); plan.nodes.len()];
    for link in &plan.links {
        let open = |node: usize| -> Result<Arc<File>> {
            let dev = link.device.clone();
            in_namespace(&names[node], move || crate::tun::open(&dev).map(Arc::new))
        };
        ends.push((open(link.from)?, open(link.to)?));
        for node in [link.from, link.to] {
            up[node].push(format!("link set {} mtu {} up", link.device, link.mtu));
        }
    }
    for (i, ns) in names.iter().enumerate() {
        let mut lines = up[i].clone();
        lines.extend(plan.ip_lines[i].iter().cloned());
        netns::batch("ip", ns, &lines)?;
        netns::batch("tc", ns, &plan.tc_lines[i])?;
    }
    let mut delack_nodes: Vec<usize> = plan.flows.iter().filter(|f| f.spec.delack_max()).map(|f| f.receiver).collect();
    delack_nodes.sort_unstable();
    delack_nodes.dedup();
    let delack = DelackMax::attach(delack_nodes.iter().map(|&i| names[i].clone()).collect())?;
    let seed = l.scenario.simulation.seed;
    let mut directions = Vec::new();
    for (k, (link, (from, to))) in plan.links.iter().zip(&ends).enumerate() {
        let dir = |input: &Arc<File>, output: &Arc<File>, spec: Option<&pathpool_experiment::schema::DirectionSpec>, j: u64| -> Result<Direction> {
            let name = if j == 0 { link.name.clone() } else { format!("{}.reverse", link.name) };
            let capture = match (&options.capture, spec) {
                (Some(folder), Some(_)) => Some(crate::capture::Capture::create(&folder.join(format!("{name}.pcap")))?),
                _ => None,
            };
            Ok(Direction {
                input: input.clone(),
                output: spec.map(|_| output.clone()),
                delay: Duration::from_nanos(spec.map_or(0, |d| d.delay / 1000)),
                loss: spec.map_or(0.0, |d| d.loss),
                seed: seed ^ (2 * k as u64 + j).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                capture,
            })
        };
        directions.push(dir(from, to, Some(&link.forward), 0)?);
        directions.push(dir(to, from, link.reverse.as_ref(), 1)?);
    }
    let mut hosts = Vec::new();
    for ((node, path), i) in options.host_captures.iter().zip(&capture_nodes) {
        hosts.push(crate::host_capture::HostCapture::start(node, &names[*i], path)?);
    }
    let mut delay = DelayElement::start(directions);
    let spec = &l.scenario.simulation;
    let interval = Duration::from_nanos(spec.probe_interval / 1000);
    let samples_n = (spec.duration / spec.probe_interval).max(1) as usize;
    let warm_index = spec.warmup.div_ceil(spec.probe_interval).min(samples_n as u64 - 1) as usize;
    let mptcp_sources: Vec<Vec<std::net::Ipv4Addr>> =
        plan.flows.iter().map(|f| if matches!(f.spec, Checked::Mptcp { .. }) { f.sources.clone() } else { Vec::new() }).collect();
    let senders: Vec<String> = {
        let mut s: Vec<String> = plan.flows.iter().filter(|f| f.spec.sack().is_some()).map(|f| names[f.sender].clone()).collect();
        s.sort();
        s.dedup();
        s
    };
    let progress = if options.progress { Progress::new(spec.duration) } else { Progress::hidden() };
    let t0 = Instant::now();
    *TRAFFIC_START.lock().unwrap_or_else(|e| e.into_inner()) = Some(std::time::SystemTime::now());
    let traffic = Traffic::start(&plan.flows, &names, t0, seed)?;
    let mut samples: Vec<Sample> = Vec::with_capacity(samples_n + 1);
    let take = |time_s: f64, with_recoveries: bool| -> Result<Sample> {
        let mut s = Sample { time_s, flows: probe::flows(&traffic.counters, &mptcp_sources), ..Sample::default() };
        for ns in &names {
            probe::queues(ns, &mut s.queues)?;
        }
        if with_recoveries {
            for ns in &senders {
                let n = in_namespace(ns, || Ok(probe::recoveries_here()))?;
                s.recoveries.insert(ns.clone(), n);
            }
        }
        Ok(s)
    };
    samples.push(take(0.0, true)?);
    for k in 1..=samples_n {
        let due = t0 + interval * k as u32;
        while Instant::now() < due {
            if netns::interrupted() {
                return fail("interrupted; the testbed was taken down");
            }
            std::thread::sleep((due - Instant::now()).min(Duration::from_millis(20)));
        }
        samples.push(take(t0.elapsed().as_secs_f64(), k == warm_index || k == samples_n)?);
        progress.update((interval * k as u32).as_nanos() as u64 * 1000);
    }
    let wall = t0.elapsed().as_secs_f64();
    progress.finish();
    traffic.stop()?;
    delay.stop();
    drop(hosts);
    let lost: Vec<u64> = delay.counters.iter().map(|c| c.lost.load(std::sync::atomic::Ordering::Relaxed)).collect();
    drop(ends);
    drop(delack);
    drop(namespaces);
    Ok(crate::outcome::assemble(l, &plan, &names, &samples, warm_index, &lost, wall))
}

/// The wall-clock time of the last run's traffic start (time 0 of its flows' `start` and
/// `stop`), so that logs stamped in wall-clock time, as the SBD daemon's, can be set against
/// the scenario's own times.
static TRAFFIC_START: std::sync::Mutex<Option<std::time::SystemTime>> = std::sync::Mutex::new(None);

/// The last run's traffic start in seconds since the Unix epoch (None before any run).
pub fn last_traffic_start_unix_s() -> Option<f64> {
    let t = (*TRAFFIC_START.lock().unwrap_or_else(|e| e.into_inner()))?;
    Some(t.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs_f64())
}

/// Runs `f` on a thread that has entered namespace `ns`.
/// `delayed_ack = "linux-delack-max"`: the receiver fix's sock_ops program attached for the
/// receivers' namespaces during the run, detached when it ends, also after a failure (its
/// pin folders are removed directly: the namespaces may be gone by then).
struct DelackMax(Vec<std::path::PathBuf>);

impl DelackMax {
    fn attach(namespaces: Vec<String>) -> Result<DelackMax> {
        let mut guard = DelackMax(Vec::new());
        for ns in namespaces {
            let pins = in_namespace(&ns, || pathpool_kernel::delack_on().map(|(_, pins)| pins).map_err(|e| crate::TestbedError(format!("delayed_ack = \"linux-delack-max\": {e}"))))?;
            guard.0.push(pins);
        }
        Ok(guard)
    }
}

impl Drop for DelackMax {
    fn drop(&mut self) {
        for pins in &self.0 {
            if let Err(e) = pathpool_kernel::delack_detach(pins) {
                eprintln!("pathpool: detaching the delack-max program ({}): {e}", pins.display());
            }
        }
    }
}

pub fn in_namespace<T: Send + 'static>(ns: &str, f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    let ns = ns.to_string();
    std::thread::spawn(move || {
        netns::enter(&ns)?;
        f()
    })
    .join()
    .unwrap_or_else(|_| fail("a namespace helper thread panicked"))
}

pub type Recoveries = BTreeMap<String, u64>;
