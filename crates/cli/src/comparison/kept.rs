//! Runs kept from before: `--reuse DIR` takes run K of a case and backend from DIR when its
//! `scenario.digest` says it ran from the same backend, file and overrides (seed included);
//! `pathpool fidelity --real-from DIR` takes a case's real runs as they are.

use super::digest;
use super::plan::{Case, Layout};
use crate::error::CliError;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub type Summary = BTreeMap<String, Value>;

fn summary_of(flag: &str, file: &Path) -> Result<Summary, CliError> {
    let text = std::fs::read_to_string(file).map_err(|e| CliError::runtime(format!("{flag}: reading '{}': {e}", file.display())))?;
    serde_json::from_str(&text).map_err(|e| CliError::runtime(format!("{flag}: '{}' is not a summary.json: {e}", file.display())))
}

/// Run K of `backend` on `case` kept under `root` (in any layout) with this `digest`.
pub fn reusable(root: &Path, case: &Case, backend: &str, k: u32, digest: &str) -> Result<Option<(PathBuf, Summary)>, CliError> {
    for layout in Layout::ALL {
        let dir = layout.run_dir(root, &case.name, backend, k);
        if dir.join("summary.json").is_file() && digest::read(&dir).as_deref() == Some(digest) {
            let summary = summary_of("--reuse", &dir.join("summary.json"))?;
            return Ok(Some((dir, summary)));
        }
    }
    Ok(None)
}

/// Whether `root` keeps every run of `backend` that `cases` ask for (runs 1 to `repeats`), so
/// that none of them need run: a comparison of kept real runs needs no root.
pub fn keeps_every_run(root: &Path, cases: &[Case], backend: &str, repeats: u32) -> Result<bool, CliError> {
    for case in cases {
        for k in 1..=repeats {
            let digest = digest::of(backend, case.text.as_bytes(), &case.overrides_of_run(k));
            if reusable(root, case, backend, k, &digest)?.is_none() {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The case's real runs kept under `earlier` (CASE/real/repeat-K, K from 1): every one there,
/// at least `want`.
pub fn earlier_real_runs(earlier: &Path, case: &Case, want: u32) -> Result<Vec<(PathBuf, Summary)>, CliError> {
    let mut runs = Vec::new();
    for k in 1.. {
        let dir = Layout::Fidelity.run_dir(earlier, &case.name, "linux", k);
        let file = dir.join("summary.json");
        if !file.is_file() {
            break;
        }
        let summary = summary_of("--real-from", &file)?;
        runs.push((dir, summary));
    }
    if runs.len() < want as usize {
        let dir = earlier.join(&case.name).join("real");
        return Err(CliError::runtime(format!("--real-from: expected at least {want} runs in '{}' (repeat-1 ... repeat-{want}), found {}", dir.display(), runs.len())));
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept run counts only with the same backend, file and seed: a comparison whose real
    /// runs are all kept needs no root, one that lacks a single run does.
    #[test]
    fn every_run_kept_means_every_repeat_of_every_case_with_its_digest() {
        let root = std::env::temp_dir().join(format!("pathpool-kept-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let case = Case { name: "c".into(), file: "c.toml".into(), text: "x = 1\n".into(), overrides: Vec::new(), fidelity: None };
        let keep = |backend: &str, k: u32, text: &str| {
            let dir = Layout::PerCase.run_dir(&root, "c", backend, k);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("summary.json"), "{}").unwrap();
            digest::write(&dir, &digest::of(backend, text.as_bytes(), &case.overrides_of_run(k))).unwrap();
        };
        keep("linux", 1, &case.text);
        keep("linux", 2, "x = 2\n");
        keep("sim", 2, &case.text);
        let cases = [case.clone()];
        assert!(keeps_every_run(&root, &cases, "linux", 1).unwrap());
        assert!(!keeps_every_run(&root, &cases, "linux", 2).unwrap(), "run 2 was of another file");
        assert!(!keeps_every_run(&root, &cases, "quic", 1).unwrap());
        keep("linux", 2, &case.text);
        assert!(keeps_every_run(&root, &cases, "linux", 2).unwrap());
        let _ = std::fs::remove_dir_all(&root);
    }
}
