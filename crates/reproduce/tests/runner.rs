//! The runner: results stored per job, reused on resume only when the spec matches, failures
//! named without losing the other results, and the same results whatever the thread count.

use pathpool_reproduce::runner::{run_all, Counts, Planned};
use pathpool_reproduce::Job;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("pathpool-reproduce-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn squares(count: &Arc<AtomicUsize>, spec: &str, fail_at: Option<u64>) -> Vec<Planned> {
    (0..20u64)
        .map(|k| {
            let c = Arc::clone(count);
            let job = Job::new(format!("sq/{k}"), format!("{spec} {k}"), move || {
                c.fetch_add(1, Ordering::SeqCst);
                if Some(k) == fail_at {
                    return Err("no square today".into());
                }
                Ok(json!(k * k))
            });
            Planned { paper: "p", job }
        })
        .collect()
}

#[test]
fn an_interrupted_run_resumes_without_redoing_finished_jobs() {
    let dir = temp("resume");
    let count = Arc::new(AtomicUsize::new(0));
    let err = run_all(&squares(&count, "v1", Some(7)), &dir, 3).err().expect("a failed job fails the run");
    assert!(err.contains("p/sq/7: no square today"), "{err}");
    assert_eq!(count.load(Ordering::SeqCst), 20, "every job is attempted");

    let (results, counts) = run_all(&squares(&count, "v1", None), &dir, 3).expect("resumed run");
    assert_eq!(counts, Counts { reused: 19, run: 1, mismatched: 0 });
    assert_eq!(count.load(Ordering::SeqCst), 21);
    assert_eq!(results["p"]["sq/7"], json!(49));
    assert_eq!(results["p"].len(), 20);

    // A changed input (spec) is computed again rather than reused.
    let (_, counts) = run_all(&squares(&count, "v2", None), &dir, 3).expect("new spec");
    assert_eq!(counts, Counts { reused: 0, run: 20, mismatched: 20 });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let count = Arc::new(AtomicUsize::new(0));
    let (one, _) = run_all(&squares(&count, "t", None), &temp("t1"), 1).expect("1 thread");
    let (four, _) = run_all(&squares(&count, "t", None), &temp("t4"), 4).expect("4 threads");
    assert_eq!(one, four);
    let _ = std::fs::remove_dir_all(temp("t1"));
    let _ = std::fs::remove_dir_all(temp("t4"));
}

#[test]
fn a_panicking_job_is_reported_not_fatal() {
    let dir = temp("panic");
    let job = Job::new("boom", "boom", || -> Result<serde_json::Value, String> { panic!("deliberate") });
    let ok = Job::new("fine", "fine", || Ok(json!(1)));
    let planned = vec![Planned { paper: "p", job }, Planned { paper: "p", job: ok }];
    let err = run_all(&planned, &dir, 2).err().expect("panic is an error");
    assert!(err.contains("p/boom: the simulation panicked"), "{err}");
    assert!(dir.join("runs/p/fine.json").exists(), "the other result is kept");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_edited_or_damaged_result_is_run_again_and_counted() {
    let dir = temp("tamper");
    let count = Arc::new(AtomicUsize::new(0));
    run_all(&squares(&count, "v1", None), &dir, 2).expect("first run");
    let file = |k: u64| dir.join(format!("runs/p/sq/{k}.json"));
    // An edited number (the spec still matches), an emptied file, garbage, and a file
    // without its digest (as earlier versions wrote).
    let edited = std::fs::read_to_string(file(3)).unwrap().replace("\"result\": 9", "\"result\": 10");
    assert_ne!(edited, std::fs::read_to_string(file(3)).unwrap(), "the edit must change the file");
    std::fs::write(file(3), edited).unwrap();
    std::fs::write(file(4), "").unwrap();
    std::fs::write(file(5), "\u{0}\u{1}garbage").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file(6)).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("digest");
    std::fs::write(file(6), v.to_string()).unwrap();

    let (results, counts) = run_all(&squares(&count, "v1", None), &dir, 2).expect("second run");
    assert_eq!(counts, Counts { reused: 16, run: 4, mismatched: 4 });
    assert_eq!(results["p"]["sq/3"], json!(9), "the edited result is not reused");
    assert_eq!(results["p"]["sq/5"], json!(25));
    let (_, counts) = run_all(&squares(&count, "v1", None), &dir, 2).expect("third run");
    assert_eq!(counts, Counts { reused: 20, run: 0, mismatched: 0 }, "the files were written again");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn concurrent_runners_into_one_folder_do_not_share_a_temporary_file() {
    let dir = temp("concurrent");
    let count = Arc::new(AtomicUsize::new(0));
    // Four runners store the same 20 results at once: each write goes through a temporary
    // file of its own, so every one succeeds and every stored file is whole.
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(|| run_all(&squares(&count, "c", None), &dir, 2))).collect();
        for h in handles {
            h.join().expect("no panic").expect("every runner succeeds");
        }
    });
    let (_, counts) = run_all(&squares(&count, "c", None), &dir, 2).expect("reuse");
    assert_eq!(counts, Counts { reused: 20, run: 0, mismatched: 0 });
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("runs/p/sq")).unwrap().flatten().filter(|e| !e.file_name().to_string_lossy().ends_with(".json")).collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
