//! `pathpool quic netns`: multipath QUIC's send and recv processes in network namespaces
//! (pathpool-netlab's), over two shaped links, or over one that both paths share. Needs root; without it the
//! tests pass without running, recorded as skipped (`pathpool_testbed::skip`).

use pathpool_testbed::skip::root_or_skip;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One run at a time: both use the CPU in real time.
static ONE_RUN_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-quic-netns-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn start(out: &Path, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_pathpool"))
        .args(["quic", "netns", "--out"])
        .arg(out)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pathpool starts")
}

/// Namespaces named after the run's process (`pathpool-<pid>-nK`).
fn namespaces_of(pid: u32) -> Vec<String> {
    let prefix = format!("{}{pid}-", pathpool_testbed::netns::PREFIX);
    std::fs::read_dir("/run/netns").map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| n.starts_with(&prefix)).collect()).unwrap_or_default()
}

/// Processes whose command line names `out` (the run's send and recv ends).
fn processes_naming(out: &Path) -> Vec<String> {
    let needle = out.display().to_string();
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| {
        let e = e.ok()?;
        let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        cmd.contains(&needle).then_some(cmd)
    })
    .collect()
}

fn wait(mut child: Child, limit: Duration) -> (bool, String) {
    let end = Instant::now() + limit;
    loop {
        if let Some(st) = child.try_wait().expect("waiting for pathpool") {
            let mut err = String::new();
            use std::io::Read as _;
            let _ = child.stderr.take().map(|mut s| s.read_to_string(&mut err));
            return (st.success(), err);
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("pathpool quic netns did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One successful run (one at a time) that leaves no namespace or process behind: its output
/// folder and summary.json; `None` without root.
fn run_ok(test: &str, name: &str, args: &[&str]) -> Option<(PathBuf, serde_json::Value)> {
    if !root_or_skip(test) {
        return None;
    }
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = out_dir(name);
    let child = start(&out, args);
    let pid = child.id();
    let (ok, err) = wait(child, Duration::from_secs(60));
    assert!(ok, "the run failed: {err}");
    assert!(namespaces_of(pid).is_empty(), "namespaces left behind: {:?}", namespaces_of(pid));
    assert!(processes_naming(&out).is_empty(), "processes left behind: {:?}", processes_naming(&out));
    let summary = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    Some((out, summary))
}

#[test]
fn two_paths_between_namespaces_deliver_every_byte_and_leave_nothing_behind() {
    let test = "two_paths_between_namespaces_deliver_every_byte_and_leave_nothing_behind";
    let Some((out, summary)) = run_ok(test, "ok", &["--cc", "lia", "--duration", "4s", "--warmup", "1s", "--competitors", "0"]) else { return };
    assert_eq!(summary["backend"], "mpquic-netns");
    assert_eq!(summary["flow.mpquic.intact"], true, "every byte sent arrived, in order and unchanged");
    // The connection as pathpool run writes an MPTCP one: its goodput under mptcp.*, its
    // paths as flows, so the total counts it once (over 3 s, > 1 MB is > 2.6 Mb/s).
    assert!(summary["mptcp.mpquic.throughput_mbps"].as_f64().unwrap() > 2.6);
    assert!(summary.get("flow.mpquic.throughput_mbps").is_none(), "the connection is not a flow beside its paths");
    // Both links carried the connection: each path's bottleneck forwarded > 2 Mb/s of 10.
    let mut paths = 0.0;
    for k in 0..2 {
        let mbps = summary[format!("flow.mpquic.sf{k}.throughput_mbps")].as_f64().unwrap();
        assert!(mbps > 2.0, "path {k} carried {mbps} Mb/s");
        paths += mbps;
    }
    let total = summary["total_throughput_mbps"].as_f64().unwrap();
    assert!((total - paths).abs() < 1e-9, "total {total} Mb/s is the paths' {paths} Mb/s (no other flow)");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_shared_link_carries_both_paths_and_a_competitor_intact() {
    let test = "a_shared_link_carries_both_paths_and_a_competitor_intact";
    let Some((out, summary)) = run_ok(test, "shared", &["--topology", "shared", "--cc", "lia", "--duration", "4s", "--warmup", "1s"]) else { return };
    assert_eq!(summary["topology"], "shared");
    for flow in ["mpquic", "sp1"] {
        assert_eq!(summary[format!("flow.{flow}.intact")], true, "{flow}: every byte arrived");
        assert!(summary[format!("flow.{flow}.throughput_mbps")].as_f64().unwrap() > 1.0, "{flow} carried data");
    }
    assert!(summary.get("flow.sp2.intact").is_none(), "one link, one competitor");
    let events = summary["flow.mpquic.path_events"].to_string();
    assert!(events.contains("PathId(1)") && !events.contains("Abandoned"), "the second path opened and stayed: {events}");
    // The one link is the bottleneck of all of it (10 Mb/s of IP packets, payload below).
    // Counted over the measurement window only (the links are probed 2 s past its end).
    let util = summary["link.bottleneck.utilization"].as_f64().unwrap();
    assert!(util > 0.7 && util < 1.05, "utilization {util}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_interrupted_run_leaves_no_namespace_or_process_behind() {
    if !root_or_skip("an_interrupted_run_leaves_no_namespace_or_process_behind") {
        return;
    }
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = out_dir("interrupted");
    let child = start(&out, &["--cc", "olia", "--duration", "30s", "--warmup", "1s"]);
    let pid = child.id();
    std::thread::sleep(Duration::from_secs(3));
    assert!(!namespaces_of(pid).is_empty(), "the run had built its namespaces");
    let _ = Command::new("kill").args(["-TERM", &pid.to_string()]).status();
    let (ok, err) = wait(child, Duration::from_secs(20));
    assert!(!ok, "an interrupted run fails");
    assert!(err.contains("interrupted"), "says why: {err}");
    assert!(namespaces_of(pid).is_empty(), "namespaces left behind: {:?}", namespaces_of(pid));
    assert!(processes_naming(&out).is_empty(), "processes left behind: {:?}", processes_naming(&out));
    assert!(!out.exists(), "a failed run leaves no half-written folder");
}
