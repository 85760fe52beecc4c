//! Each finished job's result in its own file, `runs/<paper>/<job id>.json`, written
//! atomically (a temporary file of a name no other writer uses, then rename) so that an
//! interrupted run never leaves a half result and concurrent writers never share one.
//!
//! A stored result carries its spec (the inputs and the build that computed it, `Job::spec`)
//! and a digest of its content: a file that was edited, emptied, cut short or made by another
//! build does not match, and its job is run again.

use serde_json::{json, Value};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The folder of stored results under an output folder; kept across reproductions.
pub const RUNS: &str = "runs";

pub fn path(root: &Path, paper: &str, id: &str) -> PathBuf {
    root.join(RUNS).join(paper).join(format!("{id}.json"))
}

/// What is stored for a job.
#[derive(Debug)]
pub enum Stored {
    Missing,
    /// A result computed from the same spec whose content matches its digest.
    Match(Value),
    /// A file that is no result of this spec: unreadable, not JSON, another spec or build,
    /// or content that does not match its digest.
    Mismatch,
}

/// The digest of a result: of its JSON text, which serde_json writes the same way for the
/// same value (object keys sorted, floats in their shortest round-trip form).
fn content_digest(result: &Value) -> String {
    crate::job::digest(result.to_string().as_bytes())
}

pub fn load(file: &Path, spec: &str) -> Stored {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Stored::Missing,
        Err(_) => return Stored::Mismatch,
    };
    let Ok(mut v) = serde_json::from_str::<Value>(&text) else { return Stored::Mismatch };
    let (Some(stored_spec), Some(digest)) = (v.get("spec").and_then(Value::as_str), v.get("digest").and_then(Value::as_str)) else {
        return Stored::Mismatch;
    };
    if stored_spec != spec {
        return Stored::Mismatch;
    }
    let digest = digest.to_string();
    match v.get_mut("result").map(Value::take) {
        Some(result) if content_digest(&result) == digest => Stored::Match(result),
        _ => Stored::Mismatch,
    }
}

pub fn save(file: &Path, spec: &str, result: &Value) -> io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let unique = format!("{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    let tmp = file.with_extension(format!("json.{unique}.partial"));
    let text = serde_json::to_string_pretty(&json!({ "spec": spec, "digest": content_digest(result), "result": result })).map_err(io::Error::other)?;
    let written = std::fs::write(&tmp, text + "\n").and_then(|_| std::fs::rename(&tmp, file));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
