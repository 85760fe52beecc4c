//! The SBD daemon beside a real MPTCP-SBD run (the loop of `pathpool kernel sbd`, as
//! scripts/kernel_measure.py runs it beside `pathpool testbed run`): pp_mptcp_sbd takes its
//! subflow groups from it, and without it keeps every subflow in one group, which is coupled
//! OLIA. The linux backend of `pathpool compare` (and so of `pathpool fidelity`) runs it.

use pathpool_testbed::{Result, TestbedError};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn io(dir: &Path) -> impl Fn(std::io::Error) -> TestbedError + '_ {
    move |e| TestbedError(format!("writing into '{}': {e}", dir.display()))
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
pub fn daemon_decisions(log: &str) -> (u64, u64, u64) {
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
pub fn with_sbd_daemon<T>(dir: &Path, run: impl FnOnce() -> Result<T>, log: &dyn Fn(&str)) -> Result<(T, pathpool_kernel::SbdRun)> {
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
        let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity").join(format!("{name}.toml"));
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
