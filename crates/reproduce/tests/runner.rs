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
    assert_eq!(counts, Counts { reused: 19, run: 1 });
    assert_eq!(count.load(Ordering::SeqCst), 21);
    assert_eq!(results["p"]["sq/7"], json!(49));
    assert_eq!(results["p"].len(), 20);

    // A changed input (spec) is computed again rather than reused.
    let (_, counts) = run_all(&squares(&count, "v2", None), &dir, 3).expect("new spec");
    assert_eq!(counts, Counts { reused: 0, run: 20 });
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
