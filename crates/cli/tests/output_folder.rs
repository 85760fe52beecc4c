//! An output folder holds one run (docs/robustness.md, "Output folders"): a second command
//! into the same `--out` or `--pcap` replaces the first one's files as a whole; a folder with
//! files pathpool did not write, or one that holds the run's own input, is refused before
//! any work, naming them, and gets no summary.json; a second run into a folder that is being
//! written is refused naming the lock.

mod support;

use std::collections::BTreeSet;
use std::path::Path;
use support::{pathpool, Scratch};

/// What a user sees in the folder (pathpool's hidden bookkeeping left out).
fn listing(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| !n.starts_with(".pathpool")).collect()
}

fn scenario(dir: &Path, from: &str, to: &str, duration: &str) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let text = format!(
        "[simulation]\nduration = \"{duration}\"\nprobe_interval = \"1s\"\n\n[links.bn]\nfrom = \"{from}\"\nto = \"{to}\"\nrate = \"10Mbps\"\ndelay = \"5ms\"\nbuffer = 20\n\n[[flows]]\nname = \"f\"\nroute = [\"{from}\", \"{to}\"]\n"
    );
    let file = dir.join(format!("{from}-{to}-{duration}.toml"));
    std::fs::write(&file, text).unwrap();
    file.display().to_string()
}

fn ok(args: &[&str]) {
    let o = pathpool(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_second_run_replaces_the_first_runs_files_and_captures() {
    let s = Scratch::new("outfolder-replace");
    let (out, pcap) = (s.join("out"), s.join("pcap"));
    let (out_s, pcap_s) = (out.to_str().unwrap(), pcap.to_str().unwrap());
    let first = scenario(&s.join("in"), "a", "b", "2s");
    ok(&["run", &first, "--out", out_s, "--pcap", pcap_s]);
    let captures_first = listing(&pcap);
    assert!(captures_first.iter().any(|n| n.starts_with('a')), "{captures_first:?}");

    // Other host names: other capture files. None of the first run's may stay beside them.
    let second = scenario(&s.join("in"), "c", "d", "2s");
    ok(&["run", &second, "--out", out_s, "--pcap", pcap_s]);
    let captures = listing(&pcap);
    assert!(captures.is_disjoint(&captures_first), "the first run's captures are left: {captures:?}");
    assert!(!captures.is_empty());

    // Another command into the same folder: only its own files are there afterwards.
    let run_files = listing(&out);
    assert!(run_files.contains("flows.csv"), "{run_files:?}");
    let trace = s.join("trace");
    ok(&["tracegen", "--duration", "5s", "--flows", "2", "--out", trace.to_str().unwrap()]);
    ok(&["detect", "--input", trace.join("owd.csv").to_str().unwrap(), "--out", out_s]);
    assert_eq!(listing(&out), ["decisions.csv", "observations.csv", "summary.json"].iter().map(|n| n.to_string()).collect());
}

#[test]
fn a_folder_with_other_files_is_refused_by_name_and_gets_no_summary() {
    let s = Scratch::new("outfolder-foreign");
    let out = s.join("out");
    std::fs::create_dir_all(out.join("flows.csv")).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let file = scenario(&s.join("in"), "a", "b", "2s");
    let o = pathpool(&["run", &file, "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("holds files pathpool did not write (flows.csv, notes.txt)"), "{err}");
    assert!(!out.join("summary.json").exists(), "a run that failed wrote summary.json");
    assert_eq!(std::fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
}

#[test]
fn a_folder_holding_the_runs_input_is_refused() {
    let s = Scratch::new("outfolder-input");
    let trace = s.join("trace");
    ok(&["tracegen", "--duration", "5s", "--flows", "2", "--out", trace.to_str().unwrap()]);
    let input = trace.join("owd.csv");
    let o = pathpool(&["detect", "--input", input.to_str().unwrap(), "--out", trace.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("holds the input") && err.contains("owd.csv"), "{err}");
    assert!(input.exists(), "the input was replaced");
}

#[test]
fn a_second_run_while_the_first_writes_is_refused_naming_the_lock() {
    let s = Scratch::new("outfolder-lock");
    let out = s.join("out");
    let long = scenario(&s.join("in"), "a", "b", "100000s");
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_pathpool")).args(["run", &long, "--out", out.to_str().unwrap()]).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !out.join(".pathpool.lock").exists() {
        assert!(std::time::Instant::now() < deadline, "the first run never opened its folder");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let short = scenario(&s.join("in"), "a", "b", "2s");
    let o = pathpool(&["run", &short, "--out", out.to_str().unwrap()]);
    let _ = first.kill();
    let _ = first.wait();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("another pathpool run is writing into") && err.contains(".pathpool.lock"), "{err}");
    assert!(!out.join("summary.json").exists());
    // The killed run's staging folder is cleared by the next run, which then works.
    ok(&["run", &short, "--out", out.to_str().unwrap()]);
    assert!(listing(&out).contains("summary.json"));
    assert!(std::fs::read_dir(&out).unwrap().flatten().all(|e| !e.file_name().to_string_lossy().starts_with(".pathpool-new-")));
}
