//! Running the `pathpool` binary from integration tests.

#![allow(dead_code)]

mod headlines;
pub mod netns_pair;
pub mod two_paths;
#[allow(unused_imports)] // each test crate uses some of them
pub use headlines::{assert_headlines_as_before, headline_band, headline_failures};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh, not yet existing folder under the system temp dir, removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let p = std::env::temp_dir().join(format!("pathpool-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        Scratch(p)
    }
    pub fn join(&self, s: &str) -> PathBuf {
        self.0.join(s)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn pathpool(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pathpool")).args(args).output().expect("the binary runs")
}

/// As `pathpool`, started in folder `cwd` (to show a command does not need the sources).
pub fn pathpool_in(cwd: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pathpool")).current_dir(cwd).args(args).output().expect("the binary runs")
}

/// Runs and expects success; returns the parsed DIR/summary.json.
pub fn run_ok(args: &[&str], out: &Path) -> Value {
    let o = pathpool(args);
    assert!(o.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.join("summary.json")).expect("summary.json written");
    serde_json::from_str(&text).expect("summary.json is JSON")
}

pub fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("summary.json has no number '{key}': {v}"))
}

/// Expects a usage error: exit code 2, one line on stderr naming `flag` and what was expected
/// (for `--out`: the folder and why it cannot be used), no output folder.
pub fn assert_usage_error(args: &[&str], flag: &str, out: &Path) {
    let o = pathpool(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: exit code, stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line expected, got: {err}");
    assert!(err.contains(flag), "{args:?}: error should name {flag}: {err}");
    let says_what = if flag == "--out" { err.contains("folder") } else { err.contains("expected") };
    assert!(says_what, "{args:?}: error should say what was expected: {err}");
    assert!(!out.exists(), "{args:?}: output folder {} left behind", out.display());
}

/// The scenario folder of the papers, for `pathpool reproduce --scenarios` (without it the
/// files built into the binary are used).
pub const PAPER_SCENARIOS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/papers");

/// Runs `pathpool reproduce PAPER --quick` into `out`, expects success and returns the
/// parsed summary.json.
pub fn reproduce_quick(paper: &str, out: &Scratch) -> Value {
    let dir = out.0.to_str().unwrap();
    let o = pathpool(&["reproduce", paper, "--quick", "--jobs", "2", "--scenarios", PAPER_SCENARIOS, "--out", dir]);
    assert!(o.status.success(), "reproduce {paper} failed: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary.json")).expect("summary.json is JSON")
}

/// The verdict that opens report.md has `claims` rows for `paper`, before the paper's first
/// section, each measured and judged, and each that differs says why.
pub fn assert_verdict(report: &str, paper: &str, claims: usize, first_section: &str) {
    let verdict = report.find("## Verdict").expect("a verdict section");
    assert!(verdict < report.find(first_section).expect("the paper's first section"), "the verdict comes first");
    let prefix = format!("| {paper} |");
    let rows: Vec<Vec<&str>> = report[verdict..].lines().filter(|l| l.starts_with(&prefix)).map(|l| l.split(" | ").collect()).collect();
    assert_eq!(rows.len(), claims, "{rows:?}");
    for r in &rows {
        assert!(["agrees", "differs"].contains(&r[4]), "{r:?}");
        assert!(r[4] != "differs" || r[5].trim_end_matches(" |").len() > 20, "a differing claim says why: {r:?}");
    }
}

/// Keeps the part of doc `path` (from the repository's top) between `begin` and `end` equal to
/// `body`: writes it with PATHPOOL_WRITE_DOCS set, otherwise fails naming `command`, which
/// writes it.
pub fn doc_section(path: &str, begin: &str, end: &str, body: &str, command: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let (head, rest) = doc.split_once(begin).unwrap_or((&doc, ""));
    let tail = rest.split_once(end).map_or("", |(_, t)| t);
    let fresh = format!("{head}{begin}{body}{end}{tail}");
    if std::env::var_os("PATHPOOL_WRITE_DOCS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    } else {
        assert!(doc == fresh, "{} is out of date: {command}", path.display());
    }
}

/// The median of a run's values (the mean of the middle two for an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// scenarios/fidelity, the fidelity suite's scenario files.
pub fn fidelity_suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/fidelity")
}

/// `--set` arguments that make a fidelity case a few seconds long.
pub const SHORT_RUN: [&str; 4] = ["--set", "simulation.duration=4s", "--set", "simulation.warmup=1s"];

/// Every `.rs` file under `dir`.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
