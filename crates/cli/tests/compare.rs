//! `pathpool compare`: its medians, ranges and relative errors are those of the runs' own
//! summary.json files, and backends or keys it cannot compare are refused by name. The
//! simulator alone needs no root; real Linux beside it is crates/cli/tests/backends.rs's.

mod support;
use std::path::{Path, PathBuf};
use support::median;
use std::process::Command;

fn scenario() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity/reno-rtt.toml")
}

fn compare(args: &[&str], out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pathpool"))
        .arg("compare")
        .arg(scenario())
        .arg("--out")
        .arg(out)
        .args(["--set", "simulation.duration=4s", "--set", "simulation.warmup=1s"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn medians_and_ranges_are_the_runs_own() {
    let out = std::env::temp_dir().join(format!("pathpool-compare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let r = compare(&["--backends", "sim", "--repeats", "3", "--keys", "total_throughput_mbps,jain_index"], &out);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let csv = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("key,backend,runs,median,min,max,relative_error"));
    for key in ["total_throughput_mbps", "jain_index"] {
        // Each run's value as its own summary.json has it; run K took seed K.
        let values: Vec<f64> = (1..=3)
            .map(|k| {
                let s: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("sim").join(format!("run-{k}")).join("summary.json")).unwrap()).unwrap();
                assert_eq!(s["seed"], k, "run-{k}'s seed");
                s[key].as_f64().unwrap()
            })
            .collect();
        let row: Vec<&str> = csv.lines().find(|l| l.starts_with(&format!("{key},sim,"))).unwrap_or_else(|| panic!("{key} in {csv}")).split(',').collect();
        assert_eq!(row[2], "3");
        assert_eq!(row[3].parse::<f64>().unwrap(), median(values.clone()));
        assert_eq!(row[4].parse::<f64>().unwrap(), values.iter().copied().fold(f64::INFINITY, f64::min));
        assert_eq!(row[5].parse::<f64>().unwrap(), values.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        // The one backend is the reference: no error against itself.
        assert_eq!(row[6], "");
    }
    assert!(out.join("compare.png").is_file() && out.join("report.md").is_file());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn unknown_backends_and_missing_keys_are_refused_by_name() {
    let out = std::env::temp_dir().join(format!("pathpool-compare-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let r = compare(&["--backends", "sim,ns3"], &out);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success() && err.contains("--backends") && err.contains("\"ns3\""), "{err}");
    assert!(!out.exists(), "a refused comparison made its folder");
    let r = compare(&["--backends", "sim", "--repeats", "1", "--keys", "no_such_key"], &out);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success() && err.contains("--keys") && err.contains("no_such_key"), "{err}");
    let _ = std::fs::remove_dir_all(&out);
}

/// A folder: every scenario in it, each under its name with its own files, and one report
/// with every scenario's table; a scenario one backend refuses stops it before any run.
#[test]
fn a_folder_compares_every_scenario_in_it() {
    let dir = std::env::temp_dir().join(format!("pathpool-compare-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cases = dir.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    for name in ["reno-alone", "reno-rtt"] {
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../scenarios/fidelity/{name}.toml")), cases.join(format!("{name}.toml"))).unwrap();
    }
    let run = |backends: &str, out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_pathpool"))
            .arg("compare")
            .arg(&cases)
            .arg("--out")
            .arg(out)
            .args(["--set", "simulation.duration=3s", "--set", "simulation.warmup=1s", "--backends", backends, "--repeats", "1"])
            .output()
            .unwrap()
    };
    let out = dir.join("out");
    let r = run("sim", &out);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    for name in ["reno-alone", "reno-rtt"] {
        assert!(report.contains(&format!("## {name}")), "{report}");
        assert!(out.join(name).join("compare.csv").is_file() && out.join(name).join("sim/run-1/summary.json").is_file(), "{name}'s files");
    }
    // The quic backend runs no UDP flow: a UDP flow in one file refuses the whole folder.
    std::fs::write(cases.join("udp.toml"), "[simulation]\nduration = \"3s\"\n[links.l]\nfrom = \"a\"\nto = \"b\"\nrate = \"10Mbps\"\ndelay = \"5ms\"\nbuffer = 20\n[[flows]]\nname = \"u\"\nkind = \"udp\"\nroute = [\"a\", \"b\"]\nrate = \"1Mbps\"\n").unwrap();
    let refused = dir.join("refused");
    let r = run("sim,quic", &refused);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success() && err.contains("udp.toml") && err.contains("flows.u.kind"), "{err}");
    assert!(!refused.exists(), "a refused comparison made its output folder");
    let _ = std::fs::remove_dir_all(&dir);
}
