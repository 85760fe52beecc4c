//! `pathpool fidelity` on the testbed takes its real runs in rounds, one run of every case
//! per round, so that a case's repeats spread over the suite's time instead of sampling one
//! stretch of the host's state (docs/fidelity-notes.md, "Drift"). Needs root; without it the test
//! prints why and passes.

use std::path::Path;
use std::process::Command;

#[test]
fn real_runs_alternate_between_cases() {
    if !pathpool_testbed::skip::root_or_skip("real_runs_alternate_between_cases") {
        return;
    }
    let out = std::env::temp_dir().join(format!("pathpool-cli-fidelity-rounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool"))
        .args(["fidelity", "--cases", "reno-alone,small-buffer", "--seeds", "1", "--repeats", "2"])
        .args(["--set", "simulation.duration=3s", "--set", "simulation.warmup=1s"])
        .arg("--scenarios")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{err}");
    let order: Vec<&str> = err.lines().filter(|l| l.contains("real repeat")).map(|l| l.trim().split(':').next().unwrap()).collect();
    assert_eq!(order, ["reno-alone", "small-buffer", "reno-alone", "small-buffer"], "{err}");
    for case in ["reno-alone", "small-buffer"] {
        for k in 1..=2 {
            assert!(out.join(case).join("real").join(format!("repeat-{k}")).join("summary.json").is_file(), "{case} repeat {k}");
        }
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("reno-alone") && report.contains("(2)"), "{report}");
    let _ = std::fs::remove_dir_all(&out);
}
