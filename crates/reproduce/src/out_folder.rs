//! An output folder holds one run. A run writes into a staging folder inside it
//! (`.pathpool-new-<pid>-<n>`); only once it finished are the previous run's files removed,
//! summary.json first, and the new ones moved in, summary.json last. So a failed run leaves
//! the previous run whole and never a summary.json that makes it look finished, and a reader
//! who finds summary.json finds the run it belongs to.
//!
//! `.pathpool` lists what the last run wrote. A folder holding anything else is refused,
//! naming it: pathpool removes only files it wrote, never what a user put there. While a run
//! writes it holds the folder's lock (`out_lock`): another run is refused, or waits.

use crate::out_lock::{lock, Locked, Wait, LOCK_FILE};
use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The list of the entries the last finished run wrote, one per line after a heading.
const MANIFEST: &str = ".pathpool";
const HEADING: &str = "# pathpool output folder: a run into it replaces these entries";
/// Earlier reproductions marked their folder with this file (and listed nothing).
const LEGACY_REPRODUCE: &str = ".pathpool-reproduce";
const STAGING: &str = ".pathpool-new-";
/// The file that says a run finished: removed first, moved in last.
const SUMMARY: &str = "summary.json";
/// How many foreign entries a refusal names.
const NAMED: usize = 5;

pub struct OutFolder {
    flag: String,
    target: PathBuf,
    staging: PathBuf,
    keep: Vec<String>,
    created: bool,
    finished: bool,
    _lock: File,
}

impl OutFolder {
    /// Opens `path` for a new run. `flag` names the option in messages (`--out`); `keep`
    /// names entries the run writes in place and keeps across runs (reproduce's `runs/`).
    pub fn open(flag: &str, path: &Path, wait: Wait, keep: &[&str]) -> Result<OutFolder, String> {
        let shown = path.display();
        if path.exists() && !path.is_dir() {
            return Err(format!("{flag}: expected a folder, but '{shown}' exists and is not one"));
        }
        let created = !path.exists();
        std::fs::create_dir_all(path).map_err(|e| format!("{flag}: expected a folder that can be created, '{shown}': {e}"))?;
        let fail = |message: String| {
            if created {
                let _ = std::fs::remove_dir_all(path);
            }
            Err(message)
        };
        // Checked before the lock file is made: nothing is added to a folder of someone else's.
        // Listed before the manifest is looked for: a run writes the manifest before any entry
        // of its own appears and never removes it, so entries listed while it was still absent
        // are someone else's, even when a concurrent run is starting in this folder.
        let listed = entries(path).map_err(|e| format!("{flag}: cannot read '{shown}': {e}"))?;
        if !listed.is_empty() && !path.join(MANIFEST).exists() && !path.join(LEGACY_REPRODUCE).exists() {
            return fail(refusal(flag, path, &listed));
        }
        let waiting = || eprintln!("pathpool: waiting for another run writing into '{shown}' to finish");
        let held = match lock(path, wait, waiting) {
            Ok(Locked::Held(f)) => f,
            Ok(Locked::Busy) => {
                return Err(format!(
                    "{flag}: another pathpool run is writing into '{shown}' (it holds {}); wait for it to finish or choose another folder",
                    path.join(LOCK_FILE).display()
                ))
            }
            Err(e) => return fail(format!("{flag}: expected a writable folder, '{shown}': {e}")),
        };
        let owned = manifest(path).map_err(|e| format!("{flag}: cannot read '{}': {e}", path.join(MANIFEST).display()))?;
        let present = entries(path).map_err(|e| format!("{flag}: cannot read '{shown}': {e}"))?;
        let foreign: BTreeSet<String> = match owned {
            Some(owned) => present.difference(&owned.union(&nested_runs(path)).cloned().collect()).cloned().collect(),
            None => BTreeSet::new(),
        };
        if !foreign.is_empty() {
            return Err(refusal(flag, path, &foreign));
        }
        let keep: Vec<String> = keep.iter().map(|k| k.to_string()).collect();
        let io = |e: std::io::Error| format!("{flag}: expected a writable folder, '{shown}': {e}");
        // An interrupted run's kept entries must be recognised as pathpool's when it resumes.
        if !keep.is_empty() {
            write_manifest(path, &present.iter().cloned().chain(keep.iter().cloned()).collect()).map_err(io)?;
        }
        remove_stale_staging(path);
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let staging = path.join(format!("{STAGING}{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
        if let Err(e) = std::fs::create_dir(&staging) {
            return fail(io(e));
        }
        Ok(OutFolder { flag: flag.to_string(), target: path.to_path_buf(), staging, keep, created, finished: false, _lock: held })
    }

    /// Opens `path` for a run that reads `inputs`, as a command's `--out` is: a folder holding
    /// one of them is refused (the run would replace the files it reads), and so is a folder
    /// another run is writing into.
    pub fn open_reading(flag: &str, path: &Path, inputs: &[&Path]) -> Result<OutFolder, String> {
        if let Some(input) = input_inside(path, inputs) {
            return Err(format!(
                "{flag}: '{}' holds the input '{}', which this run would replace; write into another folder",
                path.display(),
                input.display()
            ));
        }
        OutFolder::open(flag, path, Wait::Refuse, &[])
    }

    /// Where this run writes its files until `finish`.
    pub fn path(&self) -> &Path {
        &self.staging
    }

    /// The folder the user named, where the files are once the run finished.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Replaces the previous run's files by this run's.
    pub fn finish(mut self) -> Result<(), String> {
        let fail = |e: std::io::Error| format!("{}: moving the finished run into '{}': {e}", self.flag, self.target.display());
        let kept: BTreeSet<String> = self.keep.iter().cloned().collect();
        let old = manifest(&self.target).map_err(fail)?.unwrap_or_else(|| entries(&self.target).unwrap_or_default());
        // A run's output written inside the previous run's folder (`detect --out RUN/detect`
        // on RUN's captures) belongs to that run and goes with it.
        let old: BTreeSet<String> = old.union(&nested_runs(&self.target)).cloned().collect();
        let mut old: Vec<String> = old.difference(&kept).cloned().collect();
        // summary.json first: from here on the folder does not look finished.
        old.sort_by_key(|name| name != SUMMARY);
        for name in &old {
            remove(&self.target.join(name)).map_err(fail)?;
        }
        let new = entries(&self.staging).map_err(fail)?;
        // The list before the files: a run starting meanwhile must not take them for a user's.
        write_manifest(&self.target, &new.iter().cloned().chain(self.keep.iter().cloned()).collect()).map_err(fail)?;
        for name in new.iter().filter(|n| *n != SUMMARY) {
            std::fs::rename(self.staging.join(name), self.target.join(name)).map_err(fail)?;
        }
        if new.contains(SUMMARY) {
            std::fs::rename(self.staging.join(SUMMARY), self.target.join(SUMMARY)).map_err(fail)?;
        }
        let _ = std::fs::remove_dir(&self.staging);
        let _ = std::fs::remove_file(self.target.join(LEGACY_REPRODUCE));
        self.finished = true;
        Ok(())
    }
}

impl Drop for OutFolder {
    /// A run that did not finish leaves the previous run as it was, and no folder it made
    /// with nothing of its own in it.
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        let _ = std::fs::remove_dir_all(&self.staging);
        if self.created && entries(&self.target).is_ok_and(|e| e.iter().all(|n| self.keep.contains(n) && is_empty_dir(&self.target.join(n)))) {
            let _ = std::fs::remove_dir_all(&self.target);
        }
    }
}

/// The entries of `dir`, pathpool's own bookkeeping files left out.
fn entries(dir: &Path) -> std::io::Result<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    for e in std::fs::read_dir(dir)? {
        let name = e?.file_name().to_string_lossy().into_owned();
        if !name.starts_with(MANIFEST) {
            names.insert(name);
        }
    }
    Ok(names)
}

/// Sub-folders that are output folders of pathpool runs themselves.
fn nested_runs(dir: &Path) -> BTreeSet<String> {
    entries(dir).unwrap_or_default().into_iter().filter(|n| dir.join(n).join(MANIFEST).is_file()).collect()
}

/// What the last run wrote; None when every entry is pathpool's (a folder of an earlier
/// reproduction, marked but not listed).
fn manifest(dir: &Path) -> std::io::Result<Option<BTreeSet<String>>> {
    match std::fs::read_to_string(dir.join(MANIFEST)) {
        Ok(text) => Ok(Some(text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(str::to_string).collect())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && dir.join(LEGACY_REPRODUCE).exists() => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Some(BTreeSet::new())),
        Err(e) => Err(e),
    }
}

/// Written beside and renamed, so that the list is never half written.
fn write_manifest(dir: &Path, names: &BTreeSet<String>) -> std::io::Result<()> {
    let tmp = dir.join(format!("{MANIFEST}.{}.partial", std::process::id()));
    let text: String = std::iter::once(HEADING).chain(names.iter().map(String::as_str)).map(|l| format!("{l}\n")).collect();
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, dir.join(MANIFEST))
}

fn refusal(flag: &str, dir: &Path, foreign: &BTreeSet<String>) -> String {
    let named: Vec<&str> = foreign.iter().take(NAMED).map(String::as_str).collect();
    let more = foreign.len().saturating_sub(NAMED);
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!(
        "{flag}: '{}' holds files pathpool did not write ({}{more}); expected a new or empty folder, or one an earlier pathpool run wrote (a run replaces its files); move them away or choose another folder",
        dir.display(),
        named.join(", ")
    )
}

/// Staging folders of runs that were killed: none is live while the lock is held.
fn remove_stale_staging(dir: &Path) {
    let Ok(list) = std::fs::read_dir(dir) else { return };
    for e in list.flatten() {
        if e.file_name().to_string_lossy().starts_with(STAGING) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// The first of `inputs` inside `dir`: a run must not replace the files it reads.
pub fn input_inside<'a>(dir: &Path, inputs: &[&'a Path]) -> Option<&'a Path> {
    let dir = std::fs::canonicalize(dir).ok()?;
    inputs.iter().copied().find(|i| std::fs::canonicalize(i).is_ok_and(|i| i.starts_with(&dir)))
}

fn remove(path: &Path) -> std::io::Result<()> {
    let gone = match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) => Err(e),
    };
    match gone {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

fn is_empty_dir(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|mut d| d.next().is_none())
}
