//! Tests that need what this machine may not offer (root above all) return early and pass;
//! unrecorded, such a pass looks like a run. [`skip`] says so on stderr and appends the test
//! and the reason to `skipped-tests.txt` in the target folder, which `make test` counts and
//! lists at its end (and removes before it starts).

use std::io::Write as _;
use std::path::PathBuf;

/// The record's file name, in the target folder (`target/` unless CARGO_TARGET_DIR says).
pub const RECORD: &str = "skipped-tests.txt";

/// Records that `test` did not run, and why: a line "`binary`::`test`\t`reason`".
pub fn skip(test: &str, reason: &str) {
    let name = format!("{}::{test}", binary().unwrap_or_default());
    eprintln!("skipped ({reason}): {name}");
    let Some(path) = record() else { return };
    // One short append per line: lines of tests running at once do not interleave.
    if let Err(e) = std::fs::OpenOptions::new().create(true).append(true).open(&path).and_then(|mut f| f.write_all(format!("{name}\t{reason}\n").as_bytes())) {
        eprintln!("(not recorded in {}: {e})", path.display());
    }
}

/// True as root; otherwise records `test` as skipped for needing root.
pub fn root_or_skip(test: &str) -> bool {
    crate::is_root() || {
        skip(test, "needs root");
        false
    }
}

/// A test binary runs from `<target>/<profile>/deps/`.
fn record() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join(RECORD))
}

/// The test binary's name without cargo's hash (`testbed-0123abcd` is `testbed`).
fn binary() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let stem = exe.file_stem()?.to_str()?;
    Some(stem.rsplit_once('-').map_or(stem, |(name, _)| name).to_string())
}
