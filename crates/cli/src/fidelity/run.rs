//! One case of the suite: the simulator over seeds and the testbed over repeats (each through
//! its `Backend`, as `pathpool compare` runs them), each run's output folder kept under
//! DIR/CASE/{sim,real}/ for a closer look.

use super::suite::Case;
use pathpool_testbed::{Result, TestbedError};
use pathpool_experiment::Backend;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Settings {
    /// Folder holding the suite's scenario files.
    pub scenarios: PathBuf,
    pub quick: bool,
    pub seeds: u32,
    pub repeats: u32,
    /// Extra `--set` overrides applied to every case (after quick mode's).
    pub overrides: Vec<String>,
    /// Take the real runs from this earlier report's folder (CASE/real/repeat-K/summary.json)
    /// instead of running the testbed: the simulator side measured again against them.
    pub real_from: Option<PathBuf>,
}

fn io(dir: &Path) -> impl Fn(std::io::Error) -> TestbedError + '_ {
    move |e| TestbedError(format!("writing into '{}': {e}", dir.display()))
}

/// The scenario file of `case` and the overrides every run of it gets.
fn case_file(case: &Case, settings: &Settings) -> (PathBuf, Vec<String>) {
    let file = settings.scenarios.join(format!("{}.toml", case.name));
    let mut overrides = Vec::new();
    if settings.quick {
        overrides.push(format!("simulation.duration={}", case.quick.0));
        overrides.push(format!("simulation.warmup={}", case.quick.1));
    }
    overrides.extend(settings.overrides.iter().cloned());
    (file, overrides)
}

fn quantity_of(case: &Case, summary: &std::collections::BTreeMap<String, serde_json::Value>, dir: &Path) -> Result<f64> {
    case.quantity.of(summary).ok_or_else(|| TestbedError(format!("{}: summary.json has no {}", dir.display(), case.quantity.describe())))
}

/// The simulator's side of a case: its quantity per seed, and the keys its summary.json has
/// (every real run must have them too).
pub fn simulate_case(case: &Case, settings: &Settings, out: &Path, log: &dyn Fn(&str)) -> Result<(Vec<f64>, Vec<String>)> {
    let (file, overrides) = case_file(case, settings);
    let mut sim = Vec::new();
    let mut sim_keys: Vec<String> = Vec::new();
    for seed in 1..=settings.seeds {
        let mut o = overrides.clone();
        o.push(format!("simulation.seed={seed}"));
        let loaded = pathpool_scenario::load(&file, &o).map_err(|e| TestbedError(e.to_string()))?;
        let outcome = pathpool_scenario::Simulator::default().run(&loaded).map_err(|e| TestbedError(e.to_string()))?;
        let dir = out.join(case.name).join("sim").join(format!("seed-{seed}"));
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        let summary = pathpool_scenario::output::write_all(&dir, &outcome).map_err(io(&dir))?;
        sim.push(quantity_of(case, &summary, &dir)?);
        sim_keys = summary.keys().cloned().collect();
    }
    log(&format!("{}: simulator {:?}", case.name, sim));
    Ok((sim, sim_keys))
}

/// One real run of a case on the testbed (repeat K runs with seed K), kept under
/// CASE/real/repeat-K; its quantity.
pub fn real_repeat(case: &Case, settings: &Settings, out: &Path, repeat: u32, sim_keys: &[String], log: &dyn Fn(&str)) -> Result<f64> {
    let (file, mut o) = case_file(case, settings);
    o.push(format!("simulation.seed={repeat}"));
    let loaded = pathpool_scenario::load(&file, &o).map_err(|e| TestbedError(e.to_string()))?;
    let dir = out.join(case.name).join("real").join(format!("repeat-{repeat}"));
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let linux = pathpool_testbed::Linux { options: pathpool_testbed::RunOptions { progress: false, capture: None, host_captures: Vec::new() } };
    let run = || linux.run(&loaded).map_err(|e| TestbedError(e.to_string()));
    let summary = if uses_sbd(&pathpool_testbed::run::check(&loaded)?) {
        let (outcome, daemon) = with_sbd_daemon(&dir, run, &|line| log(&format!("{}: real repeat {repeat}: {line}", case.name)))?;
        let mut summary = pathpool_experiment::output::write_all(&dir, &outcome).map_err(io(&dir))?;
        let log_text = std::fs::read_to_string(dir.join("sbd.log")).map_err(io(&dir))?;
        let (apart, together, total) = daemon_decisions(&log_text);
        for (k, v) in [("samples", daemon.samples), ("decisions", daemon.decisions), ("not_yet", daemon.not_yet), ("group_changes", daemon.changes), ("decisions_apart", apart), ("decisions_together", together), ("decisions_of_all_subflows", total)] {
            summary.insert(format!("sbd_daemon.{k}"), serde_json::json!(v));
        }
        // The daemon stamps its log in wall-clock time: where the scenario's time 0 lies on
        // that clock (scripts/realfair.py measures the reaction to a shifting bottleneck so).
        if let Some(t) = pathpool_testbed::run::last_traffic_start_unix_s() {
            summary.insert("sbd_daemon.traffic_start_unix_s".into(), serde_json::json!(t));
        }
        std::fs::write(dir.join("summary.json"), pathpool_scenario::summary::to_json(&summary)).map_err(io(&dir))?;
        summary
    } else {
        pathpool_experiment::output::write_all(&dir, &run()?).map_err(io(&dir))?
    };
    has_sim_keys(&summary, sim_keys, &dir.join("summary.json"))?;
    let v = quantity_of(case, &summary, &dir)?;
    log(&format!("{}: real repeat {repeat}/{}: {v:.4}", case.name, settings.repeats));
    Ok(v)
}

/// The case's real runs kept from an earlier report (`--real-from`): every repeat-K folder
/// there, K from 1, at least `settings.repeats` of them.
pub fn earlier_real_runs(case: &Case, settings: &Settings, earlier: &Path, sim_keys: &[String]) -> Result<Vec<f64>> {
    let want = settings.repeats;
    let mut real = Vec::new();
    for repeat in 1.. {
        let dir = earlier.join(case.name).join("real").join(format!("repeat-{repeat}"));
        let file = dir.join("summary.json");
        if !file.is_file() {
            break;
        }
        let text = std::fs::read_to_string(&file).map_err(|e| TestbedError(format!("--real-from: reading '{}': {e}", file.display())))?;
        let summary: std::collections::BTreeMap<String, serde_json::Value> =
            serde_json::from_str(&text).map_err(|e| TestbedError(format!("--real-from: '{}' is not a summary.json: {e}", file.display())))?;
        has_sim_keys(&summary, sim_keys, &file).map_err(|e| TestbedError(format!("--real-from: {}", e.0)))?;
        real.push(quantity_of(case, &summary, &dir)?);
    }
    if real.len() < want as usize {
        let dir = earlier.join(case.name).join("real");
        return Err(TestbedError(format!("--real-from: expected at least {want} runs in '{}' (repeat-1 ... repeat-{want}), found {}", dir.display(), real.len())));
    }
    Ok(real)
}

/// The testbed promises the simulator's keys (and more): a comparison that lost one would
/// compare less than it says.
/// The keys of the simulator's own detector, scored against its topology's truth; a real
/// MPTCP-SBD run has the SBD daemon's decisions instead (`sbd_daemon.*`).
fn simulator_detector_key(k: &str) -> bool {
    matches!(k, "observations" | "observation_accuracy" | "decisions" | "decision_accuracy") || k.strip_prefix("groups_").is_some_and(|n| n.parse::<u32>().is_ok())
}

/// Keys that say what ran rather than what was measured (the host model, the detector
/// preset, warnings): real runs kept from before they were written lack them.
fn description_key(k: &str) -> bool {
    matches!(k, "hosts" | "sbd_detector" | "phase_lock_warnings")
}

/// Counters the testbed leaves out where it cannot attribute them: a flow's fast retransmits
/// when other TCP senders share its namespace, as every MPTCP subflow does (Linux counts
/// recoveries per namespace; docs/testbed.md).
fn unattributed_counter(k: &str) -> bool {
    k.starts_with("flow.") && k.ends_with(".fast_retransmits")
}

fn has_sim_keys(summary: &std::collections::BTreeMap<String, serde_json::Value>, sim_keys: &[String], file: &Path) -> Result<()> {
    let daemon = summary.contains_key("sbd_daemon.decisions");
    let missing: Vec<&String> = sim_keys.iter().filter(|k| !summary.contains_key(*k) && !description_key(k) && !unattributed_counter(k) && !(daemon && simulator_detector_key(k))).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(TestbedError(format!("'{}' lacks keys the simulator writes: {missing:?}", file.display())))
}

/// Whether a planned run has an MPTCP flow on pp_mptcp_sbd: MPTCP-SBD, whose subflow groups
/// come from the SBD daemon. Without the daemon pp_mptcp_sbd keeps every subflow in one
/// group, which is coupled OLIA, not MPTCP-SBD.
pub fn uses_sbd(plan: &pathpool_testbed::plan::Plan) -> bool {
    plan.flows.iter().any(|f| matches!(&f.spec, pathpool_testbed::support::Checked::Mptcp { tcp, .. } if tcp.cc == pathpool_kernel::sbd_controller()))
}

/// From the SBD daemon's log: decisions that put every subflow in a group of its own, that
/// put them all in one group (none called not bottlenecked, group 0), and all decisions
/// over two subflows or more (as scripts/kernel_measure.py counts them).
fn daemon_decisions(log: &str) -> (u64, u64, u64) {
    let (mut apart, mut together, mut total) = (0, 0, 0);
    for line in log.lines().filter(|l| l.contains(" decision ")) {
        let groups: Vec<&str> = line.split_whitespace().filter(|w| w.starts_with("sf")).filter_map(|w| w.split_once(':').map(|(_, g)| g)).collect();
        if groups.len() < 2 {
            continue;
        }
        total += 1;
        let distinct: std::collections::BTreeSet<&str> = groups.iter().copied().collect();
        let bottlenecked = !groups.contains(&"0");
        apart += u64::from(distinct.len() == groups.len() && bottlenecked);
        together += u64::from(distinct.len() == 1 && bottlenecked);
    }
    (apart, together, total)
}

/// Runs `run` with the SBD daemon beside it (as `pathpool kernel sbd` beside `pathpool testbed
/// run`, scripts/kernel_measure.py): the daemon's log in DIR/sbd.log, its RTT samples in
/// DIR/samples.csv. The controllers are registered for the daemon's whole life (the run's own
/// guard then finds them and leaves them). A run whose daemon failed, or made no decision,
/// was not MPTCP-SBD: an error, never a value.
fn with_sbd_daemon<T>(dir: &Path, run: impl FnOnce() -> Result<T>, log: &dyn Fn(&str)) -> Result<(T, pathpool_kernel::SbdRun)> {
    let _controllers = pathpool_kernel::Guard::acquire().map_err(|e| TestbedError(format!("MPTCP-SBD needs pathpool's BPF controllers (docs/kernel.md): {e}")))?;
    let log_path = dir.join("sbd.log");
    let samples_path = dir.join("samples.csv");
    let log_file = std::fs::File::create(&log_path).map_err(io(dir))?;
    let samples_file = std::fs::File::create(&samples_path).map_err(io(dir))?;
    let stop = Arc::new(AtomicBool::new(false));
    let daemon = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut w = std::io::BufWriter::new(log_file);
            let samples: Box<dyn std::io::Write> = Box::new(std::io::BufWriter::new(samples_file));
            pathpool_kernel::run_sbd_until(&mut w, &stop, Some(samples))
        })
    };
    let failed = |e: String| TestbedError(format!("MPTCP-SBD: the SBD daemon failed, so the run would not have been MPTCP-SBD: {e} (its log: '{}')", log_path.display()));
    // A daemon that cannot start (no pinned maps) says so at once: no run without it.
    std::thread::sleep(std::time::Duration::from_millis(300));
    if daemon.is_finished() {
        let e = daemon.join().map_err(|_| failed("it panicked".into()))?.err().unwrap_or_else(|| "it stopped before the run".into());
        return Err(failed(e));
    }
    let outcome = run();
    stop.store(true, Ordering::SeqCst);
    let stats = daemon.join().map_err(|_| failed("it panicked".into()))?.map_err(failed)?;
    let outcome = outcome?;
    log(&format!("SBD daemon: {} RTT samples, {} decisions, {} group changes", stats.samples, stats.decisions, stats.changes));
    if stats.samples == 0 || stats.decisions == 0 {
        return Err(TestbedError(format!(
            "MPTCP-SBD: the SBD daemon got {} RTT samples and made {} decisions during the run, so its subflows stayed in one group (coupled OLIA, not MPTCP-SBD); its log: '{}'",
            stats.samples,
            stats.decisions,
            log_path.display()
        )));
    }
    Ok((outcome, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_of(name: &str) -> Result<pathpool_testbed::plan::Plan> {
        let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity").join(format!("{name}.toml"));
        let loaded = pathpool_scenario::load(&file, &[]).map_err(|e| TestbedError(e.to_string()))?;
        pathpool_testbed::run::check(&loaded)
    }

    /// Only the MPTCP-SBD case gets the daemon; where this build cannot register the BPF
    /// controllers, a coupled case is refused by name rather than run some other way.
    #[test]
    fn the_sbd_case_and_only_it_needs_the_daemon() {
        assert!(!uses_sbd(&plan_of("mptcp-disjoint").unwrap()));
        match pathpool_kernel::buildable() {
            Ok(()) => {
                assert!(uses_sbd(&plan_of("sbd-disjoint").unwrap()));
                assert!(uses_sbd(&plan_of("sbd-shared").unwrap()));
                for name in ["olia-disjoint", "lia-shared", "olia-shared", "balia-shared"] {
                    assert!(!uses_sbd(&plan_of(name).unwrap()), "{name}");
                }
            }
            Err(_) => {
                for name in ["sbd-disjoint", "olia-disjoint", "lia-shared"] {
                    let e = plan_of(name).err().unwrap_or_else(|| panic!("{name}: checked without the BPF controllers"));
                    assert!(e.0.contains("BPF controller"), "{name}: {}", e.0);
                }
            }
        }
    }

    #[test]
    fn the_daemons_decisions_are_counted_as_the_measuring_script_counts_them() {
        let log = "t=1.0 sbd daemon: reading RTT samples of pp_mptcp_sbd subflows\n\
                   t=2.0 token 1a9f4c03 decision sf1:1 sf2:2\n\
                   t=2.0 token 1a9f4c03 groups changed: none -> sf1:1 sf2:2\n\
                   t=3.0 token 1a9f4c03 decision sf1:1 sf2:1\n\
                   t=4.0 token 1a9f4c03 decision sf1:0 sf2:1\n\
                   t=5.0 token 1a9f4c03 decision sf1:3\n";
        assert_eq!(daemon_decisions(log), (1, 1, 3));
    }

    #[test]
    fn a_real_sbd_run_needs_not_the_simulators_detector_keys() {
        let sim: Vec<String> = ["mptcp_mbps", "decisions", "decision_accuracy", "groups_2"].iter().map(|k| k.to_string()).collect();
        let mut real: std::collections::BTreeMap<String, serde_json::Value> = [("mptcp_mbps".to_string(), serde_json::json!(1.0))].into();
        let e = has_sim_keys(&real, &sim, Path::new("x")).unwrap_err().0;
        assert!(e.contains("decision_accuracy") && e.contains("groups_2"), "{e}");
        real.insert("sbd_daemon.decisions".into(), serde_json::json!(11));
        has_sim_keys(&real, &sim, Path::new("x")).unwrap();
        real.remove("mptcp_mbps");
        assert!(has_sim_keys(&real, &sim, Path::new("x")).unwrap_err().0.contains("mptcp_mbps"));
    }

    /// A subflow's fast retransmits, which Linux cannot attribute to it (absent from the
    /// testbed's summary), are no missing key; its retransmissions, which TCP_INFO gives, are.
    #[test]
    fn a_subflows_fast_retransmits_may_be_absent_on_the_testbed() {
        let sim: Vec<String> = ["flow.mp.sf0.fast_retransmits", "flow.mp.sf0.retransmissions"].iter().map(|k| k.to_string()).collect();
        let mut real: std::collections::BTreeMap<String, serde_json::Value> = [("flow.mp.sf0.retransmissions".to_string(), serde_json::json!(3))].into();
        has_sim_keys(&real, &sim, Path::new("x")).unwrap();
        real.remove("flow.mp.sf0.retransmissions");
        assert!(has_sim_keys(&real, &sim, Path::new("x")).unwrap_err().0.contains("flow.mp.sf0.retransmissions"));
    }

    /// A run beside a daemon that made no decision (here: a run with no traffic) is an error,
    /// never a value: its subflows stayed in one group, which is OLIA. Without root (or
    /// without the controllers) the run does not happen at all.
    #[test]
    fn a_run_whose_daemon_decided_nothing_is_refused() {
        if !pathpool_kernel::registered().is_empty() {
            eprintln!("skipped: pathpool controllers are registered (another run is using them; this test would read its samples)");
            return;
        }
        let dir = std::env::temp_dir().join(format!("pathpool-fidelity-sbd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ran = std::cell::Cell::new(false);
        let r = with_sbd_daemon(&dir, || {
            ran.set(true);
            Ok(())
        }, &|_| {})
        .map(|_| ());
        let e = r.expect_err("no decision, no value").0;
        if pathpool_testbed::is_root() && pathpool_kernel::buildable().is_ok() {
            assert!(ran.get(), "{e}");
            assert!(e.contains("0 decisions") && e.contains("not MPTCP-SBD"), "{e}");
            assert!(dir.join("sbd.log").is_file());
            assert!(pathpool_kernel::registered().is_empty(), "the controllers loaded for the daemon are unloaded");
        } else {
            assert!(!ran.get() && e.contains("MPTCP-SBD needs pathpool's BPF controllers"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
