//! One scenario file, every backend: `pathpool run FILE --backend sim`, `--backend linux`
//! and `--backend quic` write the same output files with the same summary keys (the
//! experiment layer writes them all from one `Outcome`), less the counters a backend cannot
//! report, which it leaves out and this test names; and a scenario a backend cannot run is
//! refused naming the key.
//! The real run needs root and takes the lock of real runs with flock(1), since BPF
//! struct_ops registration is global and two real runs at once break each other: the file
//! PATHPOOL_REAL_LOCK names (default /run/pathpool-real.lock; set it empty when the caller
//! already holds the lock). Without root it is skipped with the reason printed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The lock file real runs take (None: the caller holds it).
fn lock() -> Option<String> {
    match std::env::var("PATHPOOL_REAL_LOCK") {
        Ok(path) if path.is_empty() => None,
        Ok(path) => Some(path),
        Err(_) => Some("/run/pathpool-real.lock".to_string()),
    }
}

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(name)
}

fn out_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pathpool-backends-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `pathpool run FILE --backend NAME --seed 1`, under the lock of real runs if `locked`.
fn command(backend: &str, file: &Path, out: &Path, locked: bool) -> Command {
    let bin = env!("CARGO_BIN_EXE_pathpool");
    let mut c = match lock().filter(|_| locked) {
        Some(lock) => {
            let mut c = Command::new("flock");
            c.arg(lock).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    c.arg("run").arg(file).arg("--out").arg(out).args(["--backend", backend, "--seed", "1"]);
    c
}

/// `pathpool run FILE --backend NAME` over 5 s of the scenario (1 s of warm-up).
fn run(backend: &str, file: &Path, out: &Path, locked: bool) -> Output {
    let mut c = command(backend, file, out, locked);
    c.args(["--set", "simulation.duration=5s", "--set", "simulation.warmup=1s"]);
    c.output().expect("pathpool runs")
}

fn files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| !n.starts_with(".pathpool")).collect()
}

/// The summary keys `backend` cannot report on this scenario and therefore leaves out, as
/// `(flow, counter)` pairs: the `quic` backend counts no retransmissions, fast retransmits or
/// timeouts (noq's path statistics count lost packets and congestion events, which the
/// backend does not read: docs/quic.md); `linux` counts recoveries per namespace, so a
/// subflow's fast retransmits are unknown (docs/testbed.md). The simulator reports every
/// key; a key missing anywhere else fails the comparison.
fn not_reported(backend: &str) -> Vec<(&'static str, &'static str)> {
    match backend {
        "quic" => ["mp.sf0", "mp.sf1", "tcp"].into_iter().flat_map(|f| ["retransmissions", "fast_retransmits", "timeouts"].map(|c| (f, c))).collect(),
        "linux" => vec![("mp.sf0", "fast_retransmits"), ("mp.sf1", "fast_retransmits")],
        _ => Vec::new(),
    }
}

/// summary.json's keys, without the warnings, which a run has only when its measurements
/// call for them (phase lock, a blind detector), and the summary itself.
fn summary_keys(dir: &Path) -> (BTreeSet<String>, serde_json::Value) {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    (v.as_object().unwrap().keys().filter(|k| !k.ends_with("_warnings")).cloned().collect(), v)
}

#[test]
fn sim_linux_and_quic_write_the_same_files_and_keys() {
    let file = scenario("fidelity/mptcp-shared.toml");
    let sim = out_dir("sim");
    let r = run("sim", &file, &sim, false);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let (sim_keys, sim_summary) = summary_keys(&sim);
    assert_eq!(sim_summary["backend"], "sim");
    if !pathpool_testbed::is_root() {
        pathpool_testbed::skip::skip("sim_linux_and_quic_write_the_same_files_and_keys", "needs root for the linux and quic runs (network namespaces, TUN devices, tc)");
        let _ = std::fs::remove_dir_all(&sim);
        return;
    }
    let mut summaries = vec![("sim", sim_summary)];
    for backend in ["linux", "quic"] {
        let out = out_dir(backend);
        let r = run(backend, &file, &out, true);
        assert!(r.status.success(), "--backend {backend}: {}", String::from_utf8_lossy(&r.stderr));
        assert_eq!(files(&sim), files(&out), "output files of --backend sim and --backend {backend}");
        let (keys, summary) = summary_keys(&out);
        assert_eq!(summary["backend"], backend);
        let absent: BTreeSet<String> = not_reported(backend).into_iter().map(|(f, c)| format!("flow.{f}.{c}")).collect();
        assert!(absent.is_subset(&sim_keys), "the simulator reports {absent:?}");
        let expected: BTreeSet<String> = sim_keys.difference(&absent).cloned().collect();
        assert_eq!(expected, keys, "summary.json keys of --backend sim, less those {backend} does not report, and of --backend {backend}");
        summaries.push((backend, summary));
        let _ = std::fs::remove_dir_all(&out);
    }
    // The same quantities, measured: uncoupled multipath against one Reno flow on one
    // 20 Mb/s bottleneck keeps it busy on every backend, and the connection gets a share.
    for (name, s) in &summaries {
        let u = s["bottleneck_utilization"].as_f64().unwrap();
        assert!(u > 0.8 && u <= 1.01, "{name}: bottleneck utilisation {u}");
        assert!(s["sum_ratio"].as_f64().unwrap() > 0.0, "{name}: sum_ratio {}", s["sum_ratio"]);
    }
    let _ = std::fs::remove_dir_all(&sim);
}

#[test]
fn a_scenario_a_backend_cannot_run_is_refused_naming_the_key() {
    // RED exists in the simulator, not on the testbed's kernel: refused before anything is
    // built, so no root is needed.
    let file = scenario("fidelity/reno-alone.toml");
    let out = out_dir("refused");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool"))
        .arg("run")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["--backend", "linux", "--set", "links.bottleneck.queue=red", "--set", "links.bottleneck.red_min=5", "--set", "links.bottleneck.red_max=15"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success(), "the linux backend ran a RED queue: {err}");
    assert!(err.contains("links.bottleneck.queue") && err.contains("red"), "{err}");
    assert!(!out.exists(), "a refused run made its output folder");
}

#[test]
fn mptcp_sbd_on_linux_runs_with_the_sbd_daemon_beside_it() {
    // Without the daemon pp_mptcp_sbd keeps its subflows in one group (coupled OLIA): `run
    // --backend linux` runs the daemon beside the run, as compare and fidelity do, and a run
    // whose daemon decided nothing is an error, not a number (30 s: the daemon decides once
    // its window holds S0's N = 50 intervals of 350 ms, about 20 s in: docs/kernel.md).
    if !pathpool_testbed::is_root() {
        pathpool_testbed::skip::skip("mptcp_sbd_on_linux_runs_with_the_sbd_daemon_beside_it", "needs root (network namespaces, TUN devices, tc, BPF struct_ops)");
        return;
    }
    let out = out_dir("sbd");
    let mut c = command("linux", &scenario("fidelity/sbd-shared.toml"), &out, true);
    let r = c.args(["--set", "simulation.duration=30s", "--set", "simulation.warmup=2s"]).output().expect("pathpool runs");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let (_, s) = summary_keys(&out);
    assert_eq!(s["scheme"], "mptcp-sbd", "{s}");
    let decisions = s["sbd_daemon.decisions"].as_u64().unwrap_or_else(|| panic!("no sbd_daemon.decisions in {s}"));
    assert!(decisions > 0 && s["sbd_daemon.samples"].as_u64().unwrap() > 0, "{s}");
    let log = std::fs::read_to_string(out.join("sbd.log")).expect("the daemon's log beside the run");
    assert!(log.contains(" decision "), "{log}");
    assert!(out.join("samples.csv").is_file());
    let _ = std::fs::remove_dir_all(&out);
}
