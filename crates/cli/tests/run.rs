//! `pathpool run` end to end: bad input exits 2 with file, line and field and leaves no
//! output folder; a good run writes every output file.

use std::path::PathBuf;
use std::process::Command;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-cli-run-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn scenario(tag: &str, text: &str) -> PathBuf {
    let dir = temp(tag);
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("s.toml");
    std::fs::write(&f, text).unwrap();
    f
}

const SHORT: &str = "[simulation]\nduration = \"2s\"\n\n[links.bn]\nfrom = \"a\"\nto = \"b\"\nrate = \"10Mbps\"\ndelay = \"5ms\"\nbuffer = 20\n\n[[flows]]\nname = \"f\"\ncount = 2\nroute = [\"a\", \"b\"]\n";

#[test]
fn bad_input_exits_2_naming_file_line_and_field_without_output() {
    let file = scenario("bad", &SHORT.replace("rate = \"10Mbps\"", "rate = \"10Mbps\"\nrat = 3"));
    let out = temp("bad-out");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&file).arg("--out").arg(&out).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains(&format!("{}:8:1: links.bn.rat: unknown key (did you mean 'rate'?)", file.display())), "{err}");
    assert!(!out.exists(), "no output folder for a scenario that did not run");

    let good = scenario("bad-set", SHORT);
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&good).arg("--out").arg(&out).args(["--set", "links.bn.delay=-3ms"]).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("--set links.bn.delay=-3ms: links.bn.delay: must not be negative"), "{err}");
    assert!(!out.exists());
    for f in [file, good] {
        std::fs::remove_dir_all(f.parent().unwrap()).unwrap();
    }
}

#[test]
fn a_run_writes_every_output_and_stays_quiet_off_a_terminal() {
    let file = scenario("good", SHORT);
    let out = temp("good-out");
    let r = Command::new(env!("CARGO_BIN_EXE_pathpool")).arg("run").arg(&file).arg("--out").arg(&out).args(["--seed", "7"]).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(r.stderr.is_empty(), "stderr is not a terminal here, so no progress bar");
    for f in ["summary.json", "flows.csv", "links.csv", "throughput.png", "queue.png"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["seed"], 7);
    assert_eq!(summary["bottleneck"], "bn", "a single link is the bottleneck");
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
}
