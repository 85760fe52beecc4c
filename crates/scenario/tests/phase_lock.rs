//! The phase-lock warning (docs/scenarios.md, "Phase-lock warning"): no file the project ships
//! warns, each run as a user gets it: its own host model (the default Linux hosts, or the
//! idealised ones the file declares for its peer), seed and length (shorter runs of many-flow
//! files spread further by chance alone).

use pathpool_scenario::{load, progress::Progress, simulate};
use std::path::{Path, PathBuf};

fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn warnings(file: &Path) -> Vec<String> {
    let l = load(file, &[]).unwrap_or_else(|e| panic!("{e}"));
    simulate(&l, &Progress::hidden()).unwrap().warnings
}

#[test]
fn no_shipped_scenario_warns() {
    let files = files();
    assert!(files.len() > 50, "expected the scenario folders, found {} files", files.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let found = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(f) = files.get(i) else { break };
                for w in warnings(f) {
                    found.lock().unwrap().push(format!("{}: {w}", f.display()));
                }
            });
        }
    });
    let found = found.into_inner().unwrap();
    assert!(found.is_empty(), "{}", found.join("\n"));
}
