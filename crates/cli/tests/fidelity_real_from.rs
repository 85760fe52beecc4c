//! `pathpool fidelity --real-from DIR`: the simulator side measured again against real runs
//! kept from an earlier report, without the testbed (and without root). Here the "real" runs
//! are the simulator's own, seed for seed, so the comparison must come out exact.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{fidelity_suite, SHORT_RUN};

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-cli-fidelity-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}


fn fidelity(earlier: &Path, repeats: &str, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pathpool"))
        .args(["fidelity", "--cases", "reno-rtt", "--seeds", "3", "--repeats", repeats])
        .args(SHORT_RUN)
        .arg("--scenarios")
        .arg(fidelity_suite())
        .arg("--real-from")
        .arg(earlier)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn real_runs_are_taken_from_an_earlier_folder() {
    let earlier = temp("earlier");
    for seed in 1..=3 {
        let dir = earlier.join("reno-rtt/real").join(format!("repeat-{seed}"));
        let r = Command::new(env!("CARGO_BIN_EXE_pathpool"))
            .arg("run")
            .arg(fidelity_suite().join("reno-rtt.toml"))
            .args(["--seed", &seed.to_string()])
            .args(SHORT_RUN)
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    }
    let out = temp("out");
    let r = fidelity(&earlier, "3", &out);
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let row = text.lines().find(|l| l.starts_with("| reno-rtt")).unwrap_or_else(|| panic!("{text}"));
    assert!(row.contains("(3) |") && (row.contains("+0.0 %") || row.contains("-0.0 %")), "{row}");
    assert!(!out.join("reno-rtt/real").exists(), "the real runs stay where they were");

    // Fewer runs kept than asked for: named, with the folder.
    let out2 = temp("out2");
    let r = fidelity(&earlier, "5", &out2);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("--real-from") && err.contains("expected at least 5") && err.contains("reno-rtt"), "{err}");
    for d in [earlier, out, out2] {
        let _ = std::fs::remove_dir_all(d);
    }
}
