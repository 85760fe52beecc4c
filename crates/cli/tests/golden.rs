//! Byte-identical results: every paper scenario file, every example and the RED validation
//! scenario, run short with seed 1 (and the S0 files under each multipath scheme, and S0's
//! SB-2 with a RED bottleneck under MPTCP-SBD), must give
//! the SHA-256 digests recorded in `golden/results.sha256`. A change that is meant to keep
//! results (a refactoring, a speed-up) keeps this green; a change that is meant to change
//! results rewrites the file with `make golden` and shows the changed lines in its diff.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

mod support;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/results.sha256");
const SCENARIOS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");

/// The multipath schemes the S0 files are also run under (`--cc`).
const SCHEMES: [&str; 8] = ["uncoupled", "lia", "olia", "balia", "wvegas", "mptcp-sbd", "ssc-lia", "tr-lia"];

/// Simulated (duration, warm-up): 30 s, long enough for MPTCP-SBD's first grouping decisions
/// (17.5 s of observations) to reach the senders; longer where flows start late (S0's
/// shifting bottleneck moves its load every 30 s until 140 s; the example's at 60 s).
fn length(case: &str) -> (&'static str, &'static str) {
    match case {
        "papers/ferlin2016/shift" => ("141s", "5s"),
        "examples/mptcp-shifting-bottleneck" => ("66s", "5s"),
        _ => ("30s", "5s"),
    }
}

struct Case {
    name: String,
    file: PathBuf,
    cc: Option<&'static str>,
    /// More `--set` overrides.
    sets: &'static [&'static str],
}

/// S0's RED variant (the bottleneck's queue as `pathpool reproduce ferlin2016` sets it): its
/// random early drops lead to recoveries the drop-tail files do not have.
const RED: [&str; 3] = ["links.bn0.queue=red", "links.bn0.red_min=5", "links.bn0.red_max=15"];

fn cases() -> Vec<Case> {
    let mut files = Vec::new();
    for dir in ["papers/ferlin2016", "papers/jowkar2022", "papers/raiciu2009", "papers/zhang2019", "papers/zongor2019", "examples"] {
        let mut here: Vec<PathBuf> = std::fs::read_dir(Path::new(SCENARIOS).join(dir))
            .unwrap_or_else(|e| panic!("scenarios/{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        here.sort();
        files.extend(here.into_iter().map(|p| (format!("{dir}/{}", p.file_stem().unwrap().to_string_lossy()), p)));
    }
    files.push(("validation/rtt-1to2-reno".into(), Path::new(SCENARIOS).join("validation/rtt-1to2-reno.toml")));
    let mut cases: Vec<Case> = files.iter().map(|(name, file)| Case { name: name.clone(), file: file.clone(), cc: None, sets: &[] }).collect();
    for s0 in ["papers/ferlin2016/nsb-2", "papers/ferlin2016/sb-2"] {
        let file = Path::new(SCENARIOS).join(format!("{s0}.toml"));
        for cc in SCHEMES {
            cases.push(Case { name: format!("{s0}@{cc}"), file: file.clone(), cc: Some(cc), sets: &[] });
        }
    }
    let sb2 = Path::new(SCENARIOS).join("papers/ferlin2016/sb-2.toml");
    cases.push(Case { name: "papers/ferlin2016/sb-2@mptcp-sbd+red".into(), file: sb2, cc: Some("mptcp-sbd"), sets: &RED });
    cases
}

/// `name/file  digest` for every data file the run wrote (plots are left out: they are
/// drawings of the same data; summary.json without its wall-clock keys).
fn run(case: &Case, scratch: &Path) -> Result<Vec<(String, String)>, String> {
    let out = scratch.join(case.name.replace(['/', '@'], "_"));
    let (duration, warmup) = length(case.name.split('@').next().unwrap());
    let mut args: Vec<String> = vec!["run".into(), case.file.display().to_string(), "--out".into(), out.display().to_string(), "--seed".into(), "1".into()];
    let sets = case.sets.iter().map(|s| s.to_string());
    for set in [format!("simulation.duration={duration}"), format!("simulation.warmup={warmup}")].into_iter().chain(sets) {
        args.extend(["--set".into(), set]);
    }
    if let Some(cc) = case.cc {
        args.extend(["--cc".into(), cc.into()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = support::pathpool(&args);
    if !o.status.success() {
        return Err(format!("{}: {args:?} failed: {}", case.name, String::from_utf8_lossy(&o.stderr)));
    }
    // The folder's bookkeeping (`.pathpool`, its lock: docs/robustness.md, "Output folders")
    // is no result.
    let mut files: Vec<PathBuf> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().path()).filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with(".pathpool")).collect();
    files.sort();
    let mut rows = Vec::new();
    for f in files {
        let file = f.file_name().unwrap().to_string_lossy().to_string();
        let bytes = match f.extension().and_then(|x| x.to_str()) {
            Some("png") => continue,
            Some("json") => {
                let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
                if let Some(m) = v.as_object_mut() {
                    m.retain(|k, _| !k.starts_with("wall_"));
                }
                serde_json::to_vec_pretty(&v).unwrap()
            }
            _ => std::fs::read(&f).unwrap(),
        };
        let hex: String = pathpool_pcap::sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        rows.push((format!("{}/{file}", case.name), hex));
    }
    let _ = std::fs::remove_dir_all(&out);
    Ok(rows)
}

#[test]
fn results_are_byte_identical_to_the_golden_digests() {
    let scratch = support::Scratch::new("golden");
    std::fs::create_dir_all(&scratch.0).unwrap();
    let cases = cases();
    let next = Mutex::new(0usize);
    let rows = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(case) = cases.get(i) else { break };
                match run(case, &scratch.0) {
                    Ok(r) => rows.lock().unwrap().extend(r),
                    Err(e) => errors.lock().unwrap().push(e),
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap();
    assert!(errors.is_empty(), "{} runs failed:\n{}", errors.len(), errors.join("\n"));
    let mut rows = rows.into_inner().unwrap();
    rows.sort();
    let text: String = rows.iter().map(|(name, hex)| format!("{hex}  {name}\n")).collect();
    if std::env::var("PATHPOOL_GOLDEN").as_deref() == Ok("write") {
        std::fs::write(GOLDEN, &text).unwrap();
        eprintln!("wrote {} digests of {} runs into {GOLDEN}", rows.len(), cases.len());
        return;
    }
    let want = std::fs::read_to_string(GOLDEN).unwrap_or_else(|e| panic!("{GOLDEN}: {e} (write it with `make golden`)"));
    if want != text {
        let want: std::collections::BTreeSet<&str> = want.lines().collect();
        let got: std::collections::BTreeSet<&str> = text.lines().collect();
        let lines: Vec<String> = want.difference(&got).map(|l| format!("- {l}")).chain(got.difference(&want).map(|l| format!("+ {l}"))).collect();
        panic!(
            "results differ from {GOLDEN} ({} lines): a change meant to keep results broke them; a change meant to change results runs `make golden` and commits the file\n{}",
            lines.len(),
            lines.join("\n")
        );
    }
}
