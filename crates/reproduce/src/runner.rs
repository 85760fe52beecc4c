//! Runs jobs on several threads. Each result is stored as soon as it is known, and a job
//! whose stored result has the same spec is not run again: an interrupted reproduction
//! resumes without redoing finished simulations. Results do not depend on the number of
//! threads or on the order in which jobs finish.

use crate::job::{Job, Results};
use crate::store::{self, Stored};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A job of a named paper.
pub struct Planned {
    pub paper: &'static str,
    pub job: Job,
}

/// How many results were reused and how many were computed; of the computed ones, how many
/// had a stored file that did not match (edited, damaged, or from another build or spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub reused: usize,
    pub run: usize,
    pub mismatched: usize,
}

/// Runs every job not already stored under `root` on `threads` threads; returns the
/// results per paper. Every job is attempted even when one fails, so a resumed run has
/// less to do; the error then names the failed jobs.
pub fn run_all(planned: &[Planned], root: &Path, threads: usize) -> Result<(BTreeMap<&'static str, Results>, Counts), String> {
    let mut results: BTreeMap<&'static str, Results> = BTreeMap::new();
    let mut todo = Vec::new();
    let mut mismatched = 0;
    for p in planned {
        match store::load(&store::path(root, p.paper, &p.job.id), &p.job.spec) {
            Stored::Match(v) => {
                results.entry(p.paper).or_default().insert(p.job.id.clone(), v);
            }
            Stored::Mismatch => {
                mismatched += 1;
                todo.push(p);
            }
            Stored::Missing => todo.push(p),
        }
    }
    let counts = Counts { reused: planned.len() - todo.len(), run: todo.len(), mismatched };
    let bar = progress(todo.len());
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(todo.len()));
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(todo.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = todo.get(i) else { break };
                let outcome = catch_unwind(AssertUnwindSafe(|| p.job.run())).unwrap_or_else(|_| Err("the simulation panicked".into()));
                let stored = outcome.and_then(|v| {
                    let file = store::path(root, p.paper, &p.job.id);
                    store::save(&file, &p.job.spec, &v).map_err(|e| format!("writing '{}': {e}", file.display()))?;
                    Ok(v)
                });
                match stored {
                    Ok(v) => lock(&done).push((p.paper, p.job.id.clone(), v)),
                    Err(e) => lock(&failures).push(format!("{}/{}: {e}", p.paper, p.job.id)),
                }
                if let Some(b) = &bar {
                    b.inc(1);
                }
            });
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let mut failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    if !failures.is_empty() {
        failures.sort();
        let n = failures.len();
        failures.truncate(5);
        return Err(format!("{n} of {} runs failed (the others are stored; run again to resume): {}", todo.len(), failures.join("; ")));
    }
    for (paper, id, v) in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
        results.entry(paper).or_default().insert(id, v);
    }
    Ok((results, counts))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A bar counting finished runs, drawn only when stderr is a terminal.
fn progress(total: usize) -> Option<ProgressBar> {
    if total == 0 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(total as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {elapsed} elapsed, {eta} left") {
        bar.set_style(style);
    }
    Some(bar)
}
