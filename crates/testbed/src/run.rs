//! One run on the testbed: check, build, run for the scenario's duration while probing,
//! tear down, and turn the samples into the same `Outcome` a simulation produces.

use crate::netns;
use crate::plan::{self, FlowNeeds, Plan};
use crate::probe::{self, Sample};
use crate::support::{self, Checked};
use crate::traffic::Traffic;
use crate::{fail, Result};
use pathpool_experiment::outcome::Outcome;
use pathpool_experiment::progress::Progress;
use pathpool_experiment::Loaded;
pub use pathpool_netlab::in_namespace;
use pathpool_netlab::Network;
use std::collections::BTreeMap;
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
    let absurd_before = uses_bpf.then(absurd_windows);
    let mut network = Network::build(&plan, l.scenario.simulation.seed, options.capture.as_deref())?;
    let names = network.names.clone();
    let mut delack_nodes: Vec<usize> = plan.flows.iter().filter(|f| f.spec.delack_max()).map(|f| f.receiver).collect();
    delack_nodes.sort_unstable();
    delack_nodes.dedup();
    let delack = DelackMax::attach(delack_nodes.iter().map(|&i| names[i].clone()).collect())?;
    let mut read_ack_nodes: Vec<usize> = plan.flows.iter().filter(|f| f.spec.read_ack()).map(|f| f.receiver).collect();
    read_ack_nodes.sort_unstable();
    read_ack_nodes.dedup();
    let read_ack = ReadAck::attach(read_ack_nodes.iter().map(|&i| names[i].clone()).collect())?;
    let mut hosts = Vec::new();
    for ((node, path), i) in options.host_captures.iter().zip(&capture_nodes) {
        hosts.push(crate::host_capture::HostCapture::start(node, &names[*i], path)?);
    }
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
    let traffic = Traffic::start(&plan.flows, &names, t0, l.scenario.simulation.seed)?;
    let mut samples: Vec<Sample> = Vec::with_capacity(samples_n + 1);
    let take = |time_s: f64, with_recoveries: bool| -> Result<Sample> {
        let mut s = Sample { time_s, flows: probe::flows(&traffic.counters, &mptcp_sources), ..Sample::default() };
        for ns in &names {
            probe::queues(ns, t0, &mut s.queues)?;
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
    let lost = network.stop();
    drop(hosts);
    drop(delack);
    // A run that asked for the read-ack receivers and did not get them on every subflow is not
    // that run: an error, never its numbers.
    read_ack.covered()?;
    drop(read_ack);
    drop(network);
    let mut outcome = crate::outcome::assemble(l, &plan, &names, &samples, warm_index, &lost, wall);
    outcome.kernel_warnings.extend(absurd_before.and_then(|before| absurd_window_warning(before, absurd_windows())));
    Ok(outcome)
}

/// What the controllers' status says of windows they did not write (`pathpool kernel status`):
/// the count of `cong_avoid` calls entered with a window above 65535 segments ("guards"), and
/// the line of the first such window any hook met, if one did; or why it could not be read.
type AbsurdWindows = std::result::Result<(u64, Option<String>), String>;

fn absurd_windows() -> AbsurdWindows {
    pathpool_kernel::status().map(|s| (s.guards[2], s.absurd_window.map(|a| a.to_string())))
}

/// A run during which the controllers met windows they did not write (docs/kernel.md, "A
/// window of 1.5 billion segments"): such a subflow sends at up to its receive window until
/// losses pull it back, so its share is not what its controller decided. The count rises when
/// congestion avoidance meets one; the first window's record appears when any hook does (one
/// gone before the next `cong_avoid` leaves only that). The records are the controllers',
/// shared by every run on them at the time. A status that could not be read before or after
/// the run leaves the run unchecked, which is said too.
fn absurd_window_warning(before: AbsurdWindows, after: AbsurdWindows) -> Option<String> {
    const DOC: &str = "docs/kernel.md, \"A window of 1.5 billion segments\"";
    const WHY: &str = "a subflow with such a window sends at up to its receive window until losses pull it back, so this run's shares are distorted";
    let (before, after) = match (before, after) {
        (Ok(b), Ok(a)) => (b, a),
        (Err(e), _) | (_, Err(e)) => {
            return Some(format!(
                "the BPF controllers' status could not be read before or after this run ({e}), so whether they met windows above 65535 segments that they did not write, which distort a run's shares, is not known ({DOC})"
            ))
        }
    };
    let first_now = before.1.is_none().then_some(after.1).flatten();
    let met = after.0.saturating_sub(before.0);
    if met > 0 {
        let first = first_now.map(|line| format!(" ({line})")).unwrap_or_default();
        return Some(format!(
            "the BPF controllers entered {met} congestion-avoidance calls with a window above 65535 segments that they did not write, during this run or another run sharing them{first}: {WHY} ({DOC})"
        ));
    }
    first_now.map(|line| {
        format!("the BPF controllers met a window above 65535 segments that they did not write outside congestion avoidance, during this run or another run sharing them ({line}): {WHY} ({DOC})")
    })
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

/// `delayed_ack = "linux-proposed"` on an MPTCP flow: the receiver fix's `read-ack`
/// programs enabled for the receivers' namespaces during the run, disabled when it ends,
/// also after a failure (by the namespaces' cookies: they may be gone by then).
struct ReadAck(Vec<u64>);

impl ReadAck {
    fn attach(namespaces: Vec<String>) -> Result<ReadAck> {
        let mut guard = ReadAck(Vec::new());
        for ns in namespaces {
            let cookie = in_namespace(&ns, || pathpool_kernel::read_ack_on().map_err(|e| crate::TestbedError(format!("delayed_ack = \"linux-proposed\" (the read-ack receiver fix): {e}"))))?;
            guard.0.push(cookie);
        }
        Ok(guard)
    }
}

impl ReadAck {
    fn covered(&self) -> Result<()> {
        for &cookie in &self.0 {
            let why = match pathpool_kernel::read_ack_stats_of(cookie).map_err(crate::TestbedError)? {
                None => "its programs were not on for the run".to_string(),
                Some(s) if s.subflows == 0 => "no subflow took them".to_string(),
                Some(s) if s.no_ecn + s.other_cc + s.refused + s.moved_off > 0 => format!(
                    "some subflows were not covered ({} without ECN, {} on another congestion control, {} refused, {} segments on subflows moved off)",
                    s.no_ecn, s.other_cc, s.refused, s.moved_off
                ),
                Some(_) => continue,
            };
            return fail(format!("delayed_ack = \"linux-proposed\": the read-ack receiver fix did not act as asked: {why}"));
        }
        Ok(())
    }
}

impl Drop for ReadAck {
    fn drop(&mut self) {
        for &cookie in &self.0 {
            if let Err(e) = pathpool_kernel::read_ack_detach(cookie) {
                eprintln!("pathpool: disabling the read-ack programs: {e}");
            }
        }
    }
}

pub type Recoveries = BTreeMap<String, u64>;

#[cfg(test)]
mod tests {
    use super::absurd_window_warning;

    #[test]
    fn a_run_is_warned_only_when_the_count_rose_and_names_the_first_window_it_met() {
        assert_eq!(absurd_window_warning(Ok((3, Some("first".into()))), Ok((3, Some("first".into())))), None);
        assert_eq!(absurd_window_warning(Ok((0, None)), Ok((0, None))), None);
        let w = absurd_window_warning(Ok((0, None)), Ok((12, Some("first window above 65535: 164452153".into())))).expect("warned");
        assert!(w.starts_with("the BPF controllers entered 12 congestion-avoidance calls"), "{w}");
        assert!(w.contains("(first window above 65535: 164452153)"), "{w}");
        let later = absurd_window_warning(Ok((2, Some("first window above 65535: 9".into()))), Ok((5, Some("first window above 65535: 9".into())))).expect("warned");
        assert!(later.contains(" 3 congestion-avoidance calls") && !later.contains("(first window"), "a first window met before the run is not this run's: {later}");
    }

    #[test]
    fn a_window_met_only_outside_congestion_avoidance_still_warns() {
        let w = absurd_window_warning(Ok((0, None)), Ok((0, Some("first window above 65535: 1284782 at set_state".into())))).expect("warned");
        assert!(w.contains("outside congestion avoidance") && w.contains("(first window above 65535: 1284782 at set_state)"), "{w}");
    }

    #[test]
    fn a_run_whose_status_could_not_be_read_says_it_was_not_checked() {
        for (before, after) in [(Err("no map".to_string()), Ok((0, None))), (Ok((0, None)), Err("no map".to_string()))] {
            let w = absurd_window_warning(before, after).expect("warned");
            assert!(w.contains("could not be read") && w.contains("(no map)") && w.contains("is not known"), "{w}");
        }
    }
}
