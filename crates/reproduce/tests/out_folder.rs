//! An output folder holds one run: a finished run replaces the previous run's files as a
//! whole, a run that did not finish leaves them as they were (and no summary.json of its own),
//! files pathpool did not write are never removed, and concurrent runs are refused or wait.

use pathpool_reproduce::out_folder::OutFolder;
use pathpool_reproduce::out_lock::Wait;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-out-folder-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The entries a user sees (pathpool's hidden bookkeeping left out).
fn listing(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| !n.starts_with(".pathpool")).collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn write_run(dir: &Path, files: &[(&str, &str)]) {
    let out = OutFolder::open("--out", dir, Wait::Refuse, &[]).expect("open");
    for (name, text) in files {
        let path = out.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    out.finish().expect("finish");
}

#[test]
fn a_second_run_replaces_the_first_as_a_whole() {
    let dir = temp("replace");
    write_run(&dir, &[("summary.json", "1"), ("decisions.csv", "1"), ("capture/a.pcap", "1")]);
    assert_eq!(listing(&dir), set(&["capture", "decisions.csv", "summary.json"]));
    write_run(&dir, &[("summary.json", "2"), ("flows.csv", "2")]);
    assert_eq!(listing(&dir), set(&["flows.csv", "summary.json"]), "nothing of the first run is left beside the second");
    assert_eq!(std::fs::read_to_string(dir.join("summary.json")).unwrap(), "2");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_written_inside_the_previous_run_goes_with_it() {
    // As scripts/pcap_testbed.sh does: a testbed run, then `detect --out RUN/detect` on its
    // captures, then the testbed run again.
    let dir = temp("nested");
    write_run(&dir, &[("summary.json", "1"), ("capture/a.pcap", "1")]);
    write_run(&dir.join("detect"), &[("summary.json", "d")]);
    write_run(&dir, &[("summary.json", "2"), ("capture/a.pcap", "2")]);
    assert_eq!(listing(&dir), set(&["capture", "summary.json"]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_that_does_not_finish_leaves_the_previous_run_whole() {
    let dir = temp("unfinished");
    write_run(&dir, &[("summary.json", "1"), ("flows.csv", "1")]);
    {
        let out = OutFolder::open("--out", &dir, Wait::Refuse, &[]).unwrap();
        std::fs::write(out.path().join("summary.json"), "2").unwrap();
        std::fs::write(out.path().join("decisions.csv"), "2").unwrap();
        // Dropped without finish: the run failed.
    }
    assert_eq!(listing(&dir), set(&["flows.csv", "summary.json"]));
    assert_eq!(std::fs::read_to_string(dir.join("summary.json")).unwrap(), "1");
    // A new folder whose only run failed is removed again: nothing looks finished.
    let fresh = temp("unfinished-new");
    drop(OutFolder::open("--out", &fresh, Wait::Refuse, &[]).unwrap());
    assert!(!fresh.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_runs_staging_is_removed_by_the_next_run() {
    let dir = temp("stale");
    write_run(&dir, &[("summary.json", "1")]);
    std::fs::create_dir(dir.join(".pathpool-new-999999-0")).unwrap();
    std::fs::write(dir.join(".pathpool-new-999999-0/summary.json"), "half").unwrap();
    write_run(&dir, &[("summary.json", "2")]);
    let hidden: Vec<String> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with(".pathpool-new-")).collect();
    assert!(hidden.is_empty(), "{hidden:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_pathpool_did_not_write_are_refused_by_name_and_kept() {
    let dir = temp("foreign");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let err = OutFolder::open("--out", &dir, Wait::Refuse, &[]).err().expect("refused");
    assert!(err.contains("holds files pathpool did not write (notes.txt)"), "{err}");
    assert_eq!(listing(&dir), set(&["notes.txt"]));
    assert!(!dir.join(".pathpool.lock").exists(), "nothing is added to someone else's folder");

    // A file added to a pathpool folder after its run is refused too, not removed.
    let ours = temp("foreign-added");
    write_run(&ours, &[("summary.json", "1")]);
    std::fs::write(ours.join("scenario.toml"), "mine").unwrap();
    let err = OutFolder::open("--out", &ours, Wait::Refuse, &[]).err().expect("refused");
    assert!(err.contains("(scenario.toml)"), "{err}");
    assert_eq!(listing(&ours), set(&["scenario.toml", "summary.json"]));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&ours);
}

#[test]
fn a_second_run_at_once_is_refused_or_waits() {
    let dir = temp("concurrent");
    let first = OutFolder::open("--out", &dir, Wait::Refuse, &[]).unwrap();
    let err = OutFolder::open("--out", &dir, Wait::Refuse, &[]).err().expect("refused while the first writes");
    assert!(err.contains("another pathpool run is writing into"), "{err}");
    std::fs::write(first.path().join("summary.json"), "first").unwrap();
    first.finish().unwrap();

    // Reproductions wait for each other: four at once into one new folder all finish, one
    // after another, and the folder holds the last one's files only. Repeated, because a run
    // starting while another one moves its files in is a race of a few microseconds.
    for round in 0..20 {
        four_at_once_into_a_new_folder(round);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn four_at_once_into_a_new_folder(round: usize) {
    let shared = temp(&format!("concurrent-wait-{round}"));
    std::thread::scope(|s| {
        for k in 0..4 {
            let shared = &shared;
            s.spawn(move || {
                let out = OutFolder::open("--out", shared, Wait::Block, &["runs"]).expect("waits, then opens");
                std::fs::create_dir_all(shared.join("runs")).unwrap();
                std::fs::write(shared.join("runs").join(format!("{k}.json")), "kept").unwrap();
                std::fs::write(out.path().join(format!("report-{k}.md")), "r").unwrap();
                std::fs::write(out.path().join("summary.json"), k.to_string()).unwrap();
                out.finish().expect("finish");
            });
        }
    });
    let files = listing(&shared);
    assert_eq!(files.len(), 3, "runs/, one report and summary.json: {files:?}");
    assert_eq!(listing(&shared.join("runs")).len(), 4, "the kept results of all four");
    let _ = std::fs::remove_dir_all(&shared);
}
