//! `pathpool compare` over the fidelity suite's files is the suite: the simulator's runs, and
//! so each case's median of its `[fidelity]` quantity, are those `pathpool fidelity` writes
//! (it runs the same code in its own folder layout); `--reuse` takes kept runs of the same
//! scenario, overrides and seed instead of running them again, and says so. No root needed.

mod support;
use std::path::{Path, PathBuf};
use support::{fidelity_suite, median, SHORT_RUN};
use std::process::{Command, Output};

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-compare-fidelity-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const CASES: [&str; 2] = ["reno-alone", "reno-rtt"];

fn pathpool(args: &[&str], more: &[&Path]) -> Output {
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).args(args).args(more).output().unwrap();
    assert!(r.status.success(), "{args:?}: {}", String::from_utf8_lossy(&r.stderr));
    r
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

/// Each case's quantity as its file's `[fidelity]` table names it.
fn quantity(case: &str, s: &serde_json::Value) -> f64 {
    match case {
        "reno-alone" => s["bottleneck_utilization"].as_f64().unwrap(),
        _ => s["flow.rtt20.throughput_mbps"].as_f64().unwrap() / s["flow.rtt40.throughput_mbps"].as_f64().unwrap(),
    }
}

/// fidelity.csv's cells for `case` on `backend`.
fn csv_row(csv: &str, case: &str, backend: &str) -> Vec<String> {
    let line = csv.lines().find(|l| l.starts_with(&format!("{case},")) && l.contains(&format!(",{backend},"))).unwrap_or_else(|| panic!("{case} {backend} in {csv}"));
    let (head, tail) = line.split_once(",\"").unwrap();
    let (_, rest) = tail.split_once("\",").unwrap();
    head.split(',').chain(rest.split(',')).map(str::to_string).collect()
}

#[test]
fn compare_over_fidelity_files_gives_the_suites_simulator_medians() {
    // The suite's real side from kept runs (here the simulator's own, seed 1), so that it
    // runs without root.
    let earlier = temp("earlier");
    for case in CASES {
        let file = fidelity_suite().join(format!("{case}.toml"));
        let mut args = vec!["run".to_string(), file.display().to_string(), "--seed".into(), "1".into()];
        args.extend(SHORT_RUN.iter().map(|s| s.to_string()));
        args.extend(["--out".to_string(), earlier.join(case).join("real/repeat-1").display().to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        pathpool(&args, &[]);
    }
    let fid = temp("fid");
    let mut args = vec!["fidelity", "--cases", "reno-alone,reno-rtt", "--seeds", "3", "--repeats", "1"];
    args.extend(SHORT_RUN);
    pathpool(&args, &[Path::new("--scenarios"), &fidelity_suite(), Path::new("--real-from"), &earlier, Path::new("--out"), &fid]);
    let cmp = temp("cmp");
    let files: Vec<PathBuf> = CASES.iter().map(|c| fidelity_suite().join(format!("{c}.toml"))).collect();
    let mut args = vec!["compare", "--backends", "sim", "--repeats", "sim=3"];
    args.extend(SHORT_RUN);
    let r = pathpool(&args, &[&files[0], &files[1], Path::new("--out"), &cmp]);
    assert!(String::from_utf8_lossy(&r.stdout).contains("reno-alone"));

    let csv = std::fs::read_to_string(cmp.join("fidelity.csv")).unwrap();
    assert!(csv.starts_with("case,quantity,backend,runs,median,min,max,relative_error,tolerance,within\n"), "{csv}");
    let report = std::fs::read_to_string(fid.join("report.md")).unwrap();
    for case in CASES {
        // The same runs: seed K of the suite is run K of compare, key for key (but the wall
        // clock's).
        let mut values = Vec::new();
        for k in 1..=3 {
            let measured = |path: PathBuf| {
                let mut s = json(&path);
                s.as_object_mut().unwrap().retain(|key, _| !key.starts_with("wall_"));
                s
            };
            let a = measured(fid.join(case).join(format!("sim/seed-{k}/summary.json")));
            assert_eq!(a, measured(cmp.join(case).join(format!("sim/run-{k}/summary.json"))), "{case} seed {k}");
            values.push(quantity(case, &a));
        }
        let row = csv_row(&csv, case, "sim");
        assert_eq!(row[2], "3", "{row:?}");
        assert_eq!(row[3].parse::<f64>().unwrap(), median(values.clone()), "{case}: {row:?}");
        // Both are TCP cases: 10 %.
        assert_eq!(row[7], "0.1");
        // The suite's table shows the same median and range for its simulator column.
        let (lo, hi) = (row[4].parse::<f64>().unwrap(), row[5].parse::<f64>().unwrap());
        let cell = format!("| {:.3} [{lo:.3}, {hi:.3}] (3) |", row[3].parse::<f64>().unwrap());
        let line = report.lines().find(|l| l.starts_with(&format!("| {case} |"))).unwrap_or_else(|| panic!("{report}"));
        assert!(line.contains(&cell), "{line} lacks {cell}");
    }
    for d in [earlier, fid, cmp] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn kept_runs_of_the_same_scenario_and_seed_are_reused_and_named() {
    let file = fidelity_suite().join("reno-rtt.toml");
    let first = temp("first");
    let mut args = vec!["compare", "--backends", "sim", "--repeats", "2"];
    args.extend(SHORT_RUN);
    pathpool(&args, &[&file, Path::new("--out"), &first]);
    assert!(first.join("sim/run-1/scenario.digest").is_file());

    // A third run is new; runs 1 and 2 are the kept ones, named in the report.
    let second = temp("second");
    let mut args = vec!["compare", "--backends", "sim", "--repeats", "3"];
    args.extend(SHORT_RUN);
    pathpool(&args, &[&file, Path::new("--reuse"), &first, Path::new("--out"), &second]);
    let report = std::fs::read_to_string(second.join("report.md")).unwrap();
    for k in [1, 2] {
        assert!(report.contains(&format!("- sim run {k}: '{}'", first.join(format!("sim/run-{k}")).display())), "{report}");
        assert!(!second.join(format!("sim/run-{k}")).exists(), "run {k} was run again");
    }
    assert!(!report.contains("- sim run 3") && second.join("sim/run-3/summary.json").is_file(), "{report}");
    let csv = std::fs::read_to_string(second.join("compare.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("jain_index,sim,3,")), "{csv}");

    // Another override is another scenario: nothing is reused.
    let third = temp("third");
    let mut args = vec!["compare", "--backends", "sim", "--repeats", "2", "--set", "simulation.host_latency=0s"];
    args.extend(SHORT_RUN);
    pathpool(&args, &[&file, Path::new("--reuse"), &first, Path::new("--out"), &third]);
    let report = std::fs::read_to_string(third.join("report.md")).unwrap();
    assert!(!report.contains("not run again") && third.join("sim/run-1/summary.json").is_file(), "{report}");
    for d in [first, second, third] {
        let _ = std::fs::remove_dir_all(d);
    }
}
